package actor

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/plan"
	"github.com/closerelay/closerelay/planstore"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// FuzzMergeUnion: two instances of one plan admit signatures in the orders
// the input chooses, and a third admits A's in the reverse order; then
// each of A and B takes the other's version in (union), as a change of the
// store's watch, or a lost compare-and-set's re-read, would bring it.
// Merges are unions keyed by signer: whatever the orders, no signature is
// lost, none is held twice, every version is above the one it follows, and
// each state's indexes and envelope agree with its signatures. Merging in
// either order, and taking the union either way, hold the same signers;
// taking a version in again, or merging a signer again, changes nothing.
// The effects follow the state: a merge writes iff it made a new state,
// and a new version, only that, is broadcast; a union never writes what it
// took from the store, and marks dirty exactly what the store lacks. merge
// and union change nothing they are given.
func FuzzMergeUnion(f *testing.F) {
	f.Add([]byte{1, 2, 3}, []byte{3, 4})
	f.Add([]byte{5, 5, 1}, []byte{})
	f.Add([]byte{}, []byte{7, 2, 2, 9})
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, []byte{11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	// Every signer: A reaches the envelope's cap; B's entry tells a
	// submission.
	f.Add([]byte{20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, []byte{3})
	fx := newFixture(f, 1)
	published := fx.plan(f, time.Now().Add(time.Hour), 0)
	sup := &Supervisor{}
	f.Fuzz(func(t *testing.T, orderA, orderB []byte) {
		p := newPlan(sup, published, 1)
		k, first := &p.planParts, p.settled.Load()
		mergeAll := func(st *planState, order []byte) (_ *planState, capped bool) {
			for _, c := range order {
				signer := int(c) % len(keys)
				cur := st
				snapshot := *cur
				next, effects, fresh, _, err := merge(k, cur, fx.admitted(signer))
				if errors.Is(err, ErrSignatureCap) {
					if len(cur.admitted) != ledger.MaxSignatures || cur.present[signer] {
						t.Fatalf("merge of signer %d refused at the cap with %d signatures", signer, len(cur.admitted))
					}
					capped = true
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(cur.state.Signers, snapshot.state.Signers) || cur.state.Version != snapshot.state.Version {
					t.Fatal("a merge modified the state it was given")
				}
				if held := cur.present[signer]; held != (next == nil) || held != (fresh == 0) {
					t.Fatalf("signer %d held %v: merged %v, fresh %d", signer, held, next != nil, fresh)
				}
				if want := fxWrite | fxBroadcast | fxSubmit; (next != nil) != (effects == want) || (next == nil) != (effects == 0) {
					t.Fatalf("merge made a new state %v with effects %b", next != nil, effects)
				}
				if next == nil {
					continue
				}
				if next.state.Version != cur.state.Version+1 {
					t.Fatalf("version %d after %d", next.state.Version, cur.state.Version)
				}
				checkState(t, k, next)
				if again, effects, _, _, err := merge(k, next, fx.admitted(signer)); again != nil || effects != 0 || err != nil {
					t.Fatalf("signer %d merged twice: %v, effects %b, %v", signer, again != nil, effects, err)
				}
				st = next
			}
			return st, capped
		}
		stA, cappedA := mergeAll(first, orderA)
		stB, _ := mergeAll(first, orderB)
		reversed := slices.Clone(orderA)
		slices.Reverse(reversed)
		if stR, cappedR := mergeAll(first, reversed); !cappedA && !cappedR && !sameSigners(stR, stA) {
			t.Fatalf("merged in reverse order: signers %v, in order %v", signerOf(stR), signerOf(stA))
		}
		// Half the time B's entry carries a submission outcome A has not
		// seen: the union takes it, and tells it.
		told := len(orderB)%2 == 1
		if told {
			stB = stB.with(&plan.Submission{Submit: true, State: plan.SubmissionSubmitted, Hash: testHash, Claim: plan.Claim{Seq: 1}})
		}

		// A takes B's version in, as a stored entry at revision 2.
		snapshot := *stA
		u, effects, err := union(k, stA, recordOf(p, stB), 2, false)
		if err != nil {
			t.Fatal(err)
		}
		if stA.state.Version != snapshot.state.Version || !slices.Equal(stA.state.Signers, snapshot.state.Signers) ||
			stA.rev != snapshot.rev || stA.sub != snapshot.sub || stA.fwd != snapshot.fwd {
			t.Fatal("a union modified the state it was given")
		}
		checkState(t, k, u)
		// A new version when A lacks one of B's signers or B is ahead: B's
		// signers, then A's others, up to the envelope's cap. Otherwise A's.
		taken := slices.ContainsFunc(signerOf(stB), func(s int) bool { return !stA.present[s] }) ||
			stB.state.Version > stA.state.Version
		want := signerOf(stA)
		if taken {
			want = slices.Clone(signerOf(stB))
			for _, s := range signerOf(stA) {
				if !slices.Contains(want, s) && len(want) < ledger.MaxSignatures {
					want = append(want, s)
				}
			}
		}
		if got := signerOf(u); !slices.Equal(got, want) {
			t.Fatalf("union holds signers %v, want %v (B's %v, A's %v)", got, want, signerOf(stB), signerOf(stA))
		}
		// dirty when the new version holds what B's entry lacks, or is
		// not above it.
		lacks := len(want) > len(signerOf(stB))
		dirty := effects&fxDirty != 0
		if dirty != (taken && (lacks || stB.state.Version <= stA.state.Version)) {
			t.Fatalf("dirty %v with A's extras %v, versions A %d B %d", dirty, lacks, stA.state.Version, stB.state.Version)
		}
		if u.state.Version < stB.state.Version || (dirty && u.state.Version <= max(stA.state.Version, stB.state.Version)) {
			t.Fatalf("union version %d after A %d and B %d (dirty %v)", u.state.Version, stA.state.Version, stB.state.Version, dirty)
		}
		if moved := u.state.Version != stA.state.Version; moved != (effects&fxBroadcast != 0) {
			t.Fatalf("union moved the version %d to %d with effects %b", stA.state.Version, u.state.Version, effects)
		}
		if effects&fxWrite != 0 {
			t.Fatal("a union writes what it took from the store")
		}
		if u.rev != 2 {
			t.Fatalf("the union holds revision %d, want the entry's 2", u.rev)
		}
		switch {
		case told && (*u.sub != *stB.sub || effects&(fxSubmitted|fxTellSubmission) != fxSubmitted|fxTellSubmission):
			t.Fatalf("the union took B's submission %v, effects %b", *u.sub == *stB.sub, effects)
		case !told && (u.sub != stA.sub || effects&(fxSubmitted|fxTellSubmission) != 0):
			t.Fatalf("the union lost A's submission (%v) or told one (effects %b)", u.sub != stA.sub, effects)
		}

		// Taking B's version in again, or the union's own, changes nothing.
		for _, r := range []planstore.Record{recordOf(p, stB), recordOf(p, u)} {
			again, effects, err := union(k, u, r, 2, false)
			if err != nil || again != u || effects&^(fxWriteBack|fxSubmit|fxForward) != 0 {
				t.Fatalf("a union taken in again: changed %v, effects %b, %v", again != u, effects, err)
			}
		}
		// The other way round, B takes A's version in: the same signers,
		// when the union fits in one envelope.
		v, _, err := union(k, stB, recordOf(p, stA), 3, false)
		if err != nil {
			t.Fatal(err)
		}
		checkState(t, k, v)
		all := 0
		for i := range stA.present {
			if stA.present[i] || stB.present[i] {
				all++
			}
		}
		if all <= ledger.MaxSignatures && !sameSigners(u, v) {
			t.Fatalf("union A←B holds %v, B←A %v", signerOf(u), signerOf(v))
		}
	})
}

// recordOf is v as plan p writes it to the store, for union.
func recordOf(p *Plan, v *planState) planstore.Record {
	return p.record(v, v.sub)
}

// sameSigners reports whether a and b hold the same signers, in any order.
func sameSigners(a, b *planState) bool {
	return slices.Equal(a.present, b.present)
}

func signerOf(v *planState) []int {
	out := make([]int, len(v.admitted))
	for i, a := range v.admitted {
		out[i] = a.Signer
	}
	return out
}

// checkState: v's indexes, its State and its envelope agree with its
// signatures, each signer once.
func checkState(t *testing.T, k *planParts, v *planState) {
	t.Helper()
	seen := map[int]bool{}
	for i, a := range v.admitted {
		if seen[a.Signer] {
			t.Fatalf("signer %d held twice", a.Signer)
		}
		seen[a.Signer] = true
		if !v.present[a.Signer] || v.state.Signers[i] != k.addresses[a.Signer] {
			t.Fatalf("signature %d (signer %d) is not in the indexes", i, a.Signer)
		}
	}
	for i, in := range v.present {
		if in != seen[i] {
			t.Fatalf("present[%d] = %v, held %v", i, in, seen[i])
		}
	}
	if len(v.state.Signers) != len(v.admitted) {
		t.Fatalf("%d signers, %d admitted", len(v.state.Signers), len(v.admitted))
	}
	if len(v.heads) != len(v.admitted) {
		t.Fatalf("%d heads, %d admitted", len(v.heads), len(v.admitted))
	}
	for i, a := range v.admitted {
		if v.heads[i] != sigHead(a.Sig.Signature) {
			t.Fatalf("head %d is not signature %d's", i, i)
		}
	}
	env, err := ledger.DecodeEnvelope(v.state.XDR)
	if err != nil {
		t.Fatal(err)
	}
	if sigs := env.Signatures(); len(sigs) != len(v.admitted) {
		t.Fatalf("the envelope carries %d signatures, the state %d", len(sigs), len(v.admitted))
	}
	// The XDR is the state's envelope's, signature for signature in the
	// admitted order: a merge extends the encoding of the version before
	// (EnvelopeEncoder.Extend) rather than encoding afresh.
	if want, err := ledger.EncodeEnvelope(v.env); err != nil || v.state.XDR != want {
		t.Fatalf("the state's XDR is not its envelope's encoding (%v)", err)
	}
	for i, sig := range env.Signatures() {
		if sig.Hint != v.admitted[i].Sig.Hint || string(sig.Signature) != string(v.admitted[i].Sig.Signature) {
			t.Fatalf("signature %d of the XDR is not signer %d's", i, v.admitted[i].Signer)
		}
	}
	if v.sub == nil {
		t.Fatal("a state without its submission")
	}
}

// TestUnionRefusesForgedRecords: a stored version that is not the plan's
// (another transaction, a signature that does not verify under its signer
// though it carries the signer's hint, another account or signer set, a
// submission out of shape) is refused whole by union, with its kind, and
// the state given is left as it was; the honest version with the same
// signature is taken in.
func TestUnionRefusesForgedRecords(t *testing.T) {
	f := newFixture(t, 1)
	other := newFixture(t, 2) // another close of the same account
	p := newPlan(&Supervisor{}, f.plan(t, time.Now().Add(time.Hour), 0), 1)
	k, cur := &p.planParts, p.settled.Load()
	junk := f.admitted(0, 1)
	junk[1].Sig.Signature = slices.Clone(junk[1].Sig.Signature)
	junk[1].Sig.Signature[7] ^= 1
	sigsOf := func(as []ledger.Admitted) []xdr.DecoratedSignature {
		out := make([]xdr.DecoratedSignature, len(as))
		for i, a := range as {
			out[i] = a.Sig
		}
		return out
	}
	honest := recordOf(p, cur)
	honest.XDR, honest.SignerOf, honest.Version = f.partial(t, sigsOf(f.admitted(0, 1))...), []int{0, 1}, 2
	for name, tc := range map[string]struct {
		forge func(r *planstore.Record)
		want  error
	}{
		"another transaction": {func(r *planstore.Record) { r.XDR = other.partial(t, sigsOf(other.admitted(0, 1))...) }, ledger.ErrStoredHash},
		"a junk signature":    {func(r *planstore.Record) { r.XDR = f.partial(t, sigsOf(junk)...) }, ledger.ErrStoredSignature},
		"another account":     {func(r *planstore.Record) { r.Account = keys[1].Address() }, ledger.ErrStoredFields},
		"another signer set":  {func(r *planstore.Record) { r.Set = slices.Clone(r.Set); r.Set[1].Weight = 255 }, ledger.ErrStoredFields},
		"another network":     {func(r *planstore.Record) { r.Network = "mainnet" }, ledger.ErrStoredFields},
		"a submission out of shape": {func(r *planstore.Record) {
			r.Submission = planstore.SubmissionRecord{Submit: true, Seq: 1, State: "landed"}
		}, ledger.ErrStoredFields},
	} {
		r := honest
		tc.forge(&r)
		if next, _, err := union(k, cur, r, 2, false); !errors.Is(err, tc.want) || next != nil {
			t.Errorf("%s: %v (a state: %v), want %v", name, err, next != nil, tc.want)
		}
	}
	if cur.state.Version != 1 || len(cur.admitted) != 1 {
		t.Fatalf("a refused union changed the state: version %d, %d signatures", cur.state.Version, len(cur.admitted))
	}
	next, _, err := union(k, cur, honest, 2, false)
	if err != nil || !slices.Equal(signerOf(next), []int{0, 1}) {
		t.Fatalf("the honest version: %v %v", signerOf(next), err)
	}
}

// TestUnionChecksStoredFlows: a stored flow new to the plan is taken in
// only when its token verifies (FlowCheck), commits to the record's nonce,
// destination and memo, and the close merges into its mediator; without a
// check (no master) the plan is unavailable, nothing refused. A held plan's own flow costs no check,
// and another flow than the plan's is refused.
func TestUnionChecksStoredFlows(t *testing.T) {
	f := newFixture(t, 1)
	flow := plan.Flow{Nonce: testNonce1, Destination: keys[3].Address(), Memo: "text:a", Token: "token-1"}
	var checked []string
	stub := func(mediator string, committed plan.Flow) FlowCheck {
		return func(token string) (plan.Flow, string, error) {
			checked = append(checked, token)
			if token != flow.Token {
				return plan.Flow{}, "", errors.New("bad MAC")
			}
			return committed, mediator, nil
		}
	}
	p := newPlan(&Supervisor{}, f.plan(t, time.Now().Add(time.Hour), 0), 1)
	cur := p.settled.Load()
	withFlow := func(fl plan.Flow) planstore.Record {
		r := recordOf(p, cur)
		r.Forward = forwardRecord(&plan.Forward{Flow: &fl, Claim: plan.Claim{Seq: 1}})
		return r
	}
	for name, tc := range map[string]struct {
		check FlowCheck
		flow  plan.Flow
	}{
		"a token that does not verify":              {stub(destination, flow), plan.Flow{Nonce: flow.Nonce, Destination: flow.Destination, Memo: flow.Memo, Token: "forged"}},
		"a token committing to another destination": {stub(destination, plan.Flow{Nonce: flow.Nonce, Destination: keys[4].Address(), Memo: flow.Memo}), flow},
		// The fixture's close merges into destination, with no
		// create_account of the flow's mediator.
		"a close that does not fund and merge into the mediator": {stub(destination, flow), flow},
	} {
		p.flowCheck = tc.check
		if next, _, err := union(&p.planParts, cur, withFlow(tc.flow), 2, false); !errors.Is(err, ErrStoredFlow) || next != nil {
			t.Errorf("%s: %v, want ErrStoredFlow", name, err)
		}
	}

	p.flowCheck = nil
	if _, _, err := union(&p.planParts, cur, withFlow(flow), 2, false); !errors.Is(err, ErrUnavailable) || errors.Is(err, ErrStoredFlow) {
		t.Errorf("no check (no master): %v, want ErrUnavailable", err)
	}

	// A plan holding the flow: its own (same token) is not checked again;
	// another flow is refused whatever a check would say.
	held := cur.with(cur.sub)
	held.fwd = &plan.Forward{Flow: &flow, Claim: plan.Claim{Seq: 1}}
	checked = nil
	p.flowCheck = stub(destination, flow)
	if _, _, err := union(&p.planParts, held, withFlow(flow), 2, false); err != nil {
		t.Errorf("the plan's own flow: %v", err)
	}
	other := flow
	other.Destination = keys[4].Address()
	if _, _, err := union(&p.planParts, held, withFlow(other), 2, false); !errors.Is(err, ErrStoredFlow) {
		t.Errorf("another flow than the plan's: %v, want ErrStoredFlow", err)
	}
	if len(checked) != 0 {
		t.Errorf("the held flow's token was checked again: %v", checked)
	}
}
