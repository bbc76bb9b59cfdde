package actor

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/plan"
	"github.com/closerelay/closerelay/planstore"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The plan's state transitions that change its signatures: merge (admit
// signatures) and union (take in a stored version of the plan). Like the
// submission's and the forward's (transition.go, forward.go) they are pure:
// each reads the plan's immutable parts and the state it is given, changes
// neither, and returns the next state and the effects the run loop is to
// run for it (Plan.step writes, Plan.apply runs the rest).

// planParts are the parts of a plan that never change once it is built,
// which every transition may read: the admitted plan (id, network, merge
// context, signer set, threshold, the publish's preflight), the signers'
// addresses by index, and the envelope's transaction encoded once.
type planParts struct {
	published *ledger.AdmittedPlan
	addresses []string
	encoder   *ledger.EnvelopeEncoder
	flowCheck FlowCheck // the Supervisor's, for a stored flow new to the plan
}

// effects are what the run loop does for a transition's next state, in
// Plan.step (fxWrite, before anything else) and Plan.apply (the rest, in
// this order). The next state is published to readers (Plan.settled)
// whenever it is not the current one; that needs no effect.
type effects uint16

const (
	// fxWrite: write the next state through to the store, with
	// compare-and-set; a lost race takes the entry in and runs the
	// transition again.
	fxWrite effects = 1 << iota
	// fxDirty: the next state holds signatures the stored entry lacks
	// (Plan.dirty), to be written back.
	fxDirty
	// fxSubmitted: the submission succeeded; this instance never submits
	// the plan again (submitState.submitted).
	fxSubmitted
	// fxBroadcast: subscribers are told the new version.
	fxBroadcast
	// fxTellSubmission, fxTellForward: subscribers are told the next
	// state's submission or forward (an outcome makes a named event).
	fxTellSubmission
	fxTellForward
	// fxWriteBack: write back what the store lacks, if anything
	// (Plan.dirty, set by this transition or an earlier one).
	fxWriteBack
	// fxStartSubmission: start the submitter on the claim the next state
	// holds, this instance's, just written (Plan.startSubmission).
	fxStartSubmission
	// fxSubmit: claim and start a submission, if the next state calls for
	// one (Plan.maybeSubmit).
	fxSubmit
	// fxStartForward, fxForward: the same for the forward
	// (Plan.startForward, Plan.maybeForward).
	fxStartForward
	fxForward
)

// merge is cur with the signatures of admitted whose signers it lacks,
// appended in order, as the next version with cur's submission and
// forward; nil and no effects when there is none (fresh is 0). A new
// version is written, broadcast, and may start a submission.
// errBadSigner refuses a signer outside the plan's set, ErrSignatureCap
// a version that would pass ledger.MaxSignatures.
func merge(k *planParts, cur *planState, admitted []ledger.Admitted) (next *planState, fx effects, fresh, duplicates int, err error) {
	for _, a := range admitted {
		if a.Signer < 0 || a.Signer >= len(k.addresses) {
			return nil, 0, 0, 0, errBadSigner
		}
	}
	var added []ledger.Admitted
	for _, a := range admitted {
		if cur.present[a.Signer] || slices.ContainsFunc(added, func(f ledger.Admitted) bool { return f.Signer == a.Signer }) {
			duplicates++
			continue
		}
		added = append(added, a)
	}
	if len(added) == 0 {
		return nil, 0, 0, duplicates, nil
	}
	n := len(cur.admitted)
	if n+len(added) > ledger.MaxSignatures {
		return nil, 0, 0, 0, ErrSignatureCap
	}
	l := cur.lists.extend(cur, len(added))
	m := n + len(added)
	// Each list of the next version is its array's first m entries, its
	// capacity clipped, so that nothing appends to it in place; the
	// entries past n are this merge's alone (extend).
	sigs, signers, all, heads := l.sigs[:m:m], l.signers[:m:m], l.admitted[:m:m], l.heads[:m:m]
	present := slices.Clone(cur.present)
	for i, f := range added {
		present[f.Signer] = true
		sigs[n+i] = f.Sig
		signers[n+i] = k.addresses[f.Signer]
		all[n+i] = f
		heads[n+i] = sigHead(f.Sig.Signature)
	}
	// The signatures in sigs, admitted ones, never change, so the envelope
	// shares them. cur's XDR is the encoding of its first n (every
	// version's is its envelope's: by k.encoder, by ledger.AdmitPlan for
	// the first, or the stored string a restored plan's envelope was
	// decoded from), which the new one extends.
	env, encoded, err := k.encoder.Extend(cur.state.XDR, sigs, n)
	if err != nil {
		return nil, 0, 0, 0, fmt.Errorf("actor: encode the merged envelope: %w", err)
	}
	st := State{ID: k.published.ID(), Network: k.published.Network(), XDR: encoded, Signers: signers, Version: cur.state.Version + 1}
	next = k.newView(st, env, present, all, heads, cur.sub)
	next.lists = l
	next.sub, next.fwd = cur.sub, cur.fwd
	return next, fxWrite | fxBroadcast | fxSubmit, len(added), duplicates, nil
}

// union is cur having taken in r, a stored version of the plan at
// revision: its signatures that cur lacks (unionView), its submission and
// its forward when newer than cur's (by seq), and the revision, which the
// next state holds with its signatures. asItStands says r was just read
// from the store, so its revision is the entry's now even when lower than
// cur's (the store restarted empty); a change of the watch, or an entry a
// Lookup read, never moves the revision back. next is cur itself when
// nothing changed. What is taken in is decided by the signers r carries,
// never by its version or revision: a state whose version passed r's (a
// union not yet written back) may still lack some of its signatures.
//
// Its effects: a new version (and only then) is broadcast; one that the
// store lacks is marked dirty, and written back (fxWriteBack, never
// fxWrite: the rest of the state came from the store); a newer submission
// or forward is told; then whatever the next state calls for is started.
//
// r is checked first (checkStored): a record that fails is refused whole
// (an error wrapping a ledger.ErrStored kind), nothing of it taken in.
func union(k *planParts, cur *planState, r planstore.Record, revision uint64, asItStands bool) (*planState, effects, error) {
	stored, err := k.checkStored(cur, r)
	if err != nil {
		return nil, 0, err
	}
	next := cur
	fx := fxWriteBack | fxSubmit | fxForward
	if cur.lacksAny(r.SignerOf) || r.Version > cur.state.Version {
		var dirty bool
		if next, dirty, err = unionView(k, cur, stored, r.Version); err != nil {
			return nil, 0, err
		}
		// The signatures are not counted: the instance that admitted
		// them did.
		fx |= fxBroadcast
		if dirty {
			fx |= fxDirty
		}
	}
	held := revision
	if !asItStands {
		held = max(held, cur.rev)
	}
	got := submissionOf(r.Submission)
	newer := got.Seq > cur.sub.Seq
	gotFwd := forwardOf(r.Forward)
	newerFwd := gotFwd.Seq > cur.fwd.Seq
	if next == cur && held == cur.rev && !newer && !newerFwd {
		return cur, fx, nil
	}
	if next == cur {
		next = cur.at(held)
	}
	next.rev = held
	if newer {
		next.sub = got
		if got.State == plan.SubmissionSubmitted {
			fx |= fxSubmitted
		}
		if got.State == plan.SubmissionSubmitted || got.State == plan.SubmissionFailed || got.State == plan.SubmissionBlocked {
			fx |= fxTellSubmission
		}
	}
	if newerFwd {
		next.fwd = gotFwd
		fx |= fxTellForward
	}
	return next, fx, nil
}

// checkStored checks r, a stored version of the plan, before union takes
// anything of it (storecheck.go): its fields (checkHeld), and its envelope,
// which must be the plan's transaction carrying signatures that verify
// under their recorded signers (ledger.RestoreSignatures). Those cur holds,
// byte for byte, are not verified again, so another instance's change
// costs one verification per signature new here; r's envelope being cur's
// own (this instance's write coming back) costs a comparison. It returns
// r's signatures.
func (k *planParts) checkStored(cur *planState, r planstore.Record) ([]ledger.Admitted, error) {
	if err := k.checkHeld(r); err != nil {
		return nil, err
	}
	if err := k.checkHeldFlow(cur, r.Forward); err != nil {
		return nil, err
	}
	if r.XDR == cur.state.XDR && slices.EqualFunc(r.SignerOf, cur.admitted, func(s int, a ledger.Admitted) bool { return s == a.Signer }) {
		return cur.admitted, nil
	}
	return ledger.RestoreSignatures(k.published.Canonical(), r.XDR, r.SignerOf, cur.holds)
}

// holds reports whether v carries signature sig of signer.
func (v *planState) holds(signer int, sig []byte) bool {
	if signer < 0 || signer >= len(v.present) || !v.present[signer] {
		return false
	}
	for _, a := range v.admitted {
		if a.Signer == signer {
			return bytes.Equal(a.Sig.Signature, sig)
		}
	}
	return false
}

// unionView is cur holding stored's signatures (those of a stored entry at
// version), in their order, then any of cur's that stored lacks, with
// cur's submission and forward. Normally stored holds them all, at a
// higher version than cur's; when it does not (the entry was lost with a
// NATS server and written again by another instance), the union is a new
// version, above both, that the store lacks (dirty: to write back).
func unionView(k *planParts, cur *planState, stored []ledger.Admitted, version uint64) (next *planState, dirty bool, err error) {
	all := slices.Clip(stored)
	in := make([]bool, len(k.addresses))
	for _, a := range stored {
		in[a.Signer] = true
	}
	for _, a := range cur.admitted {
		if !in[a.Signer] && len(all) < ledger.MaxSignatures {
			all = append(all, a)
			in[a.Signer] = true
		}
	}
	if len(all) > len(stored) || version <= cur.state.Version {
		dirty = true
		version = max(version, cur.state.Version) + 1
	}
	if next, err = k.viewOf(all, version, cur.sub); err != nil {
		return nil, false, err
	}
	next.sub, next.fwd = cur.sub, cur.fwd
	return next, dirty, nil
}

// latestPreflight is the plan's latest preflight run as of submission sub: the
// one before its first try once made, else the publish's (sub nil: the
// publish's).
func (k *planParts) latestPreflight(sub *plan.Submission) ledger.PreflightRun {
	if sub != nil && sub.Preflight != nil {
		return *sub.Preflight
	}
	return k.published.Preflight()
}

// newView is the view of version st, made while the plan's submission is
// sub: its readiness is computed from admitted here, so every State a plan
// hands out carries it, and its landable flag from sub's preflight; st's
// renderings start empty. heads are those of admitted's first signatures,
// when the caller has them (a merge extends its version's list).
func (k *planParts) newView(st State, env xdr.TransactionEnvelope, present []bool, admitted []ledger.Admitted, heads []uint64, sub *plan.Submission) *planState {
	st.Weight = ledger.Weight(k.published.Canonical().Signers, admitted)
	st.Threshold = k.published.Threshold()
	st.Ready = st.Weight >= st.Threshold
	st.Landable = k.latestPreflight(sub).Landable()
	vp := &versionParts{}
	st.memo = &vp.render
	vp.view = planState{state: st, env: env, present: present, admitted: admitted, heads: sigHeads(heads, admitted), ready: &vp.ready}
	return &vp.view
}

// versionParts are a version's view and its two memos, allocated as one:
// they live and die together, and a merge makes one of each.
type versionParts struct {
	view   planState
	render renderMemo
	ready  readyMemo
}

// viewOf is the view of version carrying exactly admitted (signers of the
// plan, each once, in envelope order), its envelope encoded afresh.
func (k *planParts) viewOf(admitted []ledger.Admitted, version uint64, sub *plan.Submission) (*planState, error) {
	sigs := make([]xdr.DecoratedSignature, len(admitted))
	present := make([]bool, len(k.addresses))
	st := State{ID: k.published.ID(), Network: k.published.Network(), Signers: make([]string, len(admitted)), Version: version}
	for i, a := range admitted {
		sigs[i] = a.Sig
		present[a.Signer] = true
		st.Signers[i] = k.addresses[a.Signer]
	}
	env, encoded, err := k.encoder.Encode(sigs) // sigs is this version's own
	if err != nil {
		return nil, fmt.Errorf("actor: encode the envelope: %w", err)
	}
	st.XDR = encoded
	return k.newView(st, env, present, slices.Clip(admitted), nil, sub), nil
}
