package actor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/planstore"
)

// Store is where a cluster's plans live (CONTRACT section 12):
// *planstore.Store on NATS JetStream. Options.Store nil is single mode: the
// plans live in this process only, exactly as before cluster mode existed.
//
// In cluster mode the registry of this package's Supervisor is a cache of
// the plans this instance has served, each with its actor: a plan written by
// another instance is restored from the store on its first request here
// (Lookup, Create) and follows the store from then on. The store, not the
// registry, enforces the plan capacity and PLANS_PER_ACCOUNT.
type Store interface {
	// Available reports, without a round trip, whether the store can be
	// asked now.
	Available() bool
	Get(ctx context.Context, id string) (planstore.Entry, error)
	Create(ctx context.Context, id string, value []byte) (uint64, error)
	Update(ctx context.Context, id string, value []byte, revision uint64) (uint64, error)
	Delete(ctx context.Context, id string) error
	CheckCapacity(ctx context.Context, account string, now time.Time, capacity, perAccount int) error
	Reserve(ctx context.Context, id, account string, expiry, now time.Time, capacity, perAccount int) error
	// Changes delivers the writes to plan entries by any instance, ending
	// on each entry's newest value (one superseded unseen may be skipped).
	Changes() <-chan planstore.Change
}

// ErrUnavailable: cluster mode's store cannot be reached (CONTRACT section
// 12: publish answers 400 UNAVAILABLE, every other JSON route 503).
var ErrUnavailable = errors.New("actor: the plan store is unreachable")

// storeError maps a store failure onto the package's errors.
func storeError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, planstore.ErrUnavailable):
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	case errors.Is(err, planstore.ErrNotFound):
		return ErrNotFound
	case errors.Is(err, planstore.ErrCapacity):
		return ErrCapacity
	case errors.Is(err, planstore.ErrAccountCapacity):
		return ErrAccountCapacity
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	default:
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
}

// record is a plan as the store holds it: everything another instance needs
// to rebuild it without the account API (the signer set and thresholds read
// at publish), its current envelope, its version and its submission.
type record struct {
	Network    string         `json:"network"`
	Account    string         `json:"account"`
	Expiry     time.Time      `json:"expiry"`
	Threshold  int            `json:"threshold"`
	Thresholds [3]uint8       `json:"thresholds"` // low, medium, high
	Set        []recordSigner `json:"set"`
	XDR        string         `json:"xdr"`
	SignerOf   []int          `json:"signer_of"` // per signature of XDR, its index in Set
	Version    uint64         `json:"version"`
	Submission recordSub      `json:"submission"`
}

type recordSigner struct {
	Address string `json:"a"`
	Weight  int32  `json:"w"`
}

// recordSub is a Submission with what lets instances agree on it: seq
// orders its changes (the newest wins), tried is the submit-ready envelope
// of the last submission started (a failed one is not tried again).
type recordSub struct {
	Submit bool   `json:"submit"`
	Seq    uint64 `json:"seq"`
	State  string `json:"state,omitempty"`
	Hash   string `json:"hash,omitempty"`
	Ledger int    `json:"ledger,omitempty"`
	Code   string `json:"code,omitempty"`
	Reason string `json:"reason,omitempty"`
	Tried  string `json:"tried,omitempty"`
	// Owner and Lease: a pending submission's claim (Submission.owner).
	Owner string    `json:"owner,omitempty"`
	Lease time.Time `json:"lease,omitzero"`
}

func (r recordSub) submission() *Submission {
	return &Submission{Submit: r.Submit, State: r.State, Hash: r.Hash, Ledger: r.Ledger, Code: r.Code, Reason: r.Reason, seq: r.Seq, tried: r.Tried, owner: r.Owner, lease: r.Lease}
}

func subRecord(s *Submission) recordSub {
	return recordSub{Submit: s.Submit, Seq: s.seq, State: s.State, Hash: s.Hash, Ledger: s.Ledger, Code: s.Code, Reason: s.Reason, Tried: s.tried, Owner: s.owner, Lease: s.lease}
}

// encode is v with sub as the store holds it.
func (p *Plan) encode(v *view, sub *Submission) ([]byte, error) {
	set := p.published.Canonical().Signers
	t := set.Thresholds()
	r := record{
		Network: string(p.published.Network()), Account: p.published.Account(), Expiry: p.expiry,
		Threshold: p.published.Threshold(), Thresholds: [3]uint8{t.Low, t.Medium, t.High},
		XDR: v.state.XDR, Version: v.state.Version, Submission: subRecord(sub),
		Set:      make([]recordSigner, 0, set.Len()),
		SignerOf: make([]int, len(v.admitted)),
	}
	for _, sg := range set.Signers() {
		r.Set = append(r.Set, recordSigner{Address: sg.Address, Weight: sg.Weight})
	}
	for i, a := range v.admitted {
		r.SignerOf[i] = a.Signer
	}
	return json.Marshal(r)
}

func decodeRecord(value []byte) (record, error) {
	var r record
	if err := json.Unmarshal(value, &r); err != nil {
		return record{}, fmt.Errorf("actor: stored plan does not decode: %w", err)
	}
	return r, nil
}

// restore rebuilds a plan that another instance wrote (or this one, before
// a restart), at the stored version, submission and revision.
func (s *Supervisor) restore(r record, revision uint64) (*Plan, error) {
	signers := make([]ledger.Signer, len(r.Set))
	for i, sg := range r.Set {
		signers[i] = ledger.Signer{Address: sg.Address, Weight: sg.Weight}
	}
	set := ledger.NewSignerSet(signers).WithThresholds(ledger.Thresholds{Low: r.Thresholds[0], Medium: r.Thresholds[1], High: r.Thresholds[2]})
	published, err := ledger.RestorePlan(ledger.Network(r.Network), r.XDR, r.SignerOf, set, r.Expiry, r.Account, r.Threshold)
	if err != nil {
		return nil, err
	}
	p := newPlan(s, published, max(r.Version, 1))
	p.submission.Store(r.Submission.submission())
	p.rev.Store(revision)
	p.view.Store(p.view.Load().at(revision))
	return p, nil
}

// errConflict: a write lost its compare-and-set; the plan reloads and
// merges again.
var errConflict = errors.New("actor: the stored plan changed meanwhile")

// maxWriteTries bounds a plan's compare-and-set loop. Every lost race means
// another instance's write took effect, and merges commute, so a loop this
// long only ends unwritten when instances keep writing the same plan
// faster than one round trip, which 20 signers cannot sustain.
const maxWriteTries = 32

// writeThrough writes v with sub to the store with compare-and-set on the
// plan's last known revision (create when it has none): errConflict when
// another write came first. Run loop only (or before the plan runs).
func (p *Plan) writeThrough(v *view, sub *Submission) error {
	value, err := p.encode(v, sub)
	if err != nil {
		return fmt.Errorf("actor: encode the stored plan: %w", err)
	}
	store := p.sup.store
	ctx := context.Background()
	var rev uint64
	if last := p.rev.Load(); last == 0 {
		rev, err = store.Create(ctx, p.ID(), value)
	} else {
		rev, err = store.Update(ctx, p.ID(), value, last)
	}
	switch {
	case err == nil:
		p.rev.Store(rev)
		return nil
	case errors.Is(err, planstore.ErrConflict):
		return errConflict
	default:
		return storeError(err)
	}
}

// persist writes through what build makes of the plan's current state,
// reloading and building again after each lost race, and publishes the
// view it wrote (as holding the revision written, in cluster mode); build
// answers write=false when there is nothing (left) to write, and builds on
// the published view, which every reload has brought up to the entry it
// read. In single mode it only builds and publishes. Run loop only.
func (p *Plan) persist(build func() (v *view, sub *Submission, write bool, err error)) (*view, *Submission, bool, error) {
	for range maxWriteTries {
		v, sub, write, err := build()
		if err != nil || !write {
			return v, sub, write, err
		}
		if p.sup.store == nil {
			p.view.Store(v)
			return v, sub, true, nil
		}
		switch err := p.writeThrough(v, sub); {
		case err == nil:
			p.dirty = false // whatever was missing is in what was written
			v = v.at(p.rev.Load())
			p.view.Store(v)
			return v, sub, true, nil
		case errors.Is(err, errConflict):
			if err := p.reload(); err != nil {
				return nil, nil, false, err
			}
		default:
			return nil, nil, false, err
		}
	}
	return nil, nil, false, fmt.Errorf("%w: the plan kept changing", ErrUnavailable)
}

// reload reads the stored plan after a lost race and takes it in. An entry
// that is gone (a NATS server with memory storage restarted empty) is
// written again from this instance's state by the next write. Run loop only.
func (p *Plan) reload() error {
	e, err := p.sup.store.Get(context.Background(), p.ID())
	if errors.Is(err, planstore.ErrNotFound) {
		p.rev.Store(0)
		return nil
	}
	if err != nil {
		return storeError(err)
	}
	// What was just read is the entry as it stands, whatever the plan had
	// seen (after a NATS server restarted empty, revisions start again).
	p.rev.Store(e.Revision)
	return p.absorb(e.Value, e.Revision, true)
}

// absorb takes in a stored version of the plan at revision: its signatures
// that the view lacks (a union with this instance's, which are normally all
// in it already: every write merges first), and its submission when that
// is newer than the plan's. Subscribers are told what changed. The view is
// then published as holding revision, the signatures and the revision in
// one store, so that no reader sees one without the other. What is taken
// in is decided by the signers the entry carries, never by its version or
// revision: a view whose version passed the entry's (a union not yet
// written back) may still lack some of its signatures. asItStands says the
// entry was just read from the store, so its revision is the entry's now
// even when lower than the view's (the store restarted empty); a change of
// the watch, or one a Lookup read, never moves the view's revision back.
// Run loop only.
func (p *Plan) absorb(value []byte, revision uint64, asItStands bool) error {
	r, err := decodeRecord(value)
	if err != nil {
		return err
	}
	if revision > p.rev.Load() {
		p.rev.Store(revision)
	}
	cur := p.view.Load()
	next := cur
	if cur.lacksAny(r.SignerOf) || r.Version > cur.state.Version {
		_, stored, err := ledger.RestoreSignatures(p.published.Canonical().Signers, r.XDR, r.SignerOf)
		if err != nil {
			return err
		}
		if next, err = p.unionView(cur, stored, r.Version); err != nil {
			return err
		}
	}
	held := revision
	if !asItStands {
		held = max(held, cur.rev)
	}
	if next != cur || held != cur.rev {
		p.view.Store(next.at(held))
	}
	if next != cur {
		// The signatures are not counted here: the instance that admitted
		// them did.
		p.broadcast(Event{State: next.state})
	}
	if got := r.Submission.submission(); got.seq > p.submission.Load().seq {
		p.submission.Store(got)
		if got.State == SubmissionSubmitted {
			p.submit.submitted = true
		}
		if got.State == SubmissionSubmitted || got.State == SubmissionFailed {
			p.broadcastSubmission(got)
		}
	}
	return nil
}

// lacksAny reports whether signerOf (a stored entry's signer indexes)
// names a signer whose signature v does not hold; an index outside the
// signer set counts as lacking, for RestoreSignatures to refuse.
func (v *view) lacksAny(signerOf []int) bool {
	return slices.ContainsFunc(signerOf, func(i int) bool {
		return i < 0 || i >= len(v.present) || !v.present[i]
	})
}

// unionView is the view of version holding stored's signatures, in their
// order, then any of cur's that stored lacks. Normally stored holds them
// all, at a higher version than cur's; when it does not (the entry was
// lost with a NATS server and written again by another instance), the
// union is a new version, above both, that the plan marks dirty, to write
// back. Run loop only.
func (p *Plan) unionView(cur *view, stored []ledger.Admitted, version uint64) (*view, error) {
	all := slices.Clip(stored)
	in := make([]bool, len(p.addresses))
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
		p.dirty = true
		version = max(version, cur.state.Version) + 1
	}
	return p.viewOf(all, version)
}

// onStored takes in a change the store's watch delivered: another
// instance's write (or this one's, coming back), or the entry's deletion,
// which changes nothing (every instance ends the plan at its own expiry).
// Run loop only.
func (p *Plan) onStored(c planstore.Change) {
	if c.Deleted {
		return
	}
	if err := p.absorb(c.Value, c.Revision, false); err != nil {
		p.sup.log.Error("plan store: a stored plan could not be taken in", "id", p.ID(), "err", err)
		return
	}
	if p.dirty {
		p.writeBack()
	}
	p.maybeSubmit()
}

// writeBack writes the plan's view to the store when it holds signatures
// the stored entry lacks. Run loop only.
func (p *Plan) writeBack() {
	_, _, _, err := p.persist(func() (*view, *Submission, bool, error) {
		return p.view.Load(), p.submission.Load(), p.dirty, nil
	})
	if err != nil {
		p.sup.log.Warn("plan store: write back", "id", p.ID(), "err", err)
	}
}

// clusterRefusal counts and logs a capacity refusal of the cluster's store,
// and passes err on.
func (s *Supervisor) clusterRefusal(account string, err error) error {
	switch {
	case errors.Is(err, ErrCapacity):
		s.metrics.CapacityRefused()
		s.log.Warn("plan capacity refusal", "scope", "cluster", "capacity", s.capacity)
	case errors.Is(err, ErrAccountCapacity):
		s.log.Warn("plan account capacity refusal", "scope", "cluster", "account", account, "plans_per_account", s.perAccount)
	}
	return err
}

// lookupClustered is Lookup in cluster mode. Every answer reflects the
// store as it stands when the request came: the entry is read (one round
// trip), and the plan is handed out only once its published view holds
// that revision's signatures (holding), so a sign that another instance
// answered 200 is in this instance's answer too (CONTRACT section 12). A
// plan this instance does not hold is restored from the entry; a live plan
// whose entry is gone (a NATS server with memory storage restarted empty)
// goes on, and its next write stores it again.
func (s *Supervisor) lookupClustered(ctx context.Context, id string) (*Plan, error) {
	if !s.store.Available() {
		return nil, ErrUnavailable
	}
	e, err := s.store.Get(ctx, id)
	if errors.Is(err, planstore.ErrNotFound) {
		return s.lookupLocal(ctx, id)
	}
	if err != nil {
		return nil, storeError(err)
	}
	p, err := s.lookupLocal(ctx, id)
	if errors.Is(err, ErrNotFound) {
		p, err = s.fetched(ctx, id, e)
	}
	if err != nil {
		return nil, err
	}
	return p, p.holding(ctx, e)
}

// holding returns once p's published view holds the signatures of e, an
// entry read from the store: at once when the view's revision is e's, else
// after the plan's loop has taken e in. It checks whatever way p was found:
// registered before the read, restored from it, or registered meanwhile
// from an older read (another request's, or the watch's) and handed back
// in place of the one restored from e.
func (p *Plan) holding(ctx context.Context, e planstore.Entry) error {
	if p.view.Load().rev == e.Revision {
		return nil
	}
	ans := make(chan reply[struct{}], 1)
	_, err := ask(ctx, p.mailbox, planRequest(catchUpReq{e, ans}), ans, p.done, p.done, p.gone)
	return err
}

type catchUpReq struct {
	e   planstore.Entry
	ans chan<- reply[struct{}]
}

// serve takes in an entry that Lookup read. A view at a newer revision
// holds it already, unless the store went back (restarted empty, its
// revisions starting again): the loop then reads the entry as it stands.
// A view that still does not hold the entry (it does not decode) is not
// answered from.
func (r catchUpReq) serve(p *Plan) {
	switch v := p.view.Load(); {
	case r.e.Revision > v.rev:
		p.onStored(planstore.Change{ID: p.ID(), Value: r.e.Value, Revision: r.e.Revision})
	case r.e.Revision < v.rev:
		if err := p.reload(); err != nil {
			r.ans <- reply[struct{}]{err: err}
			return
		}
		if p.dirty {
			p.writeBack()
		}
		p.maybeSubmit()
	}
	if p.view.Load().rev < r.e.Revision {
		r.ans <- reply[struct{}]{err: fmt.Errorf("%w: plan %s's stored entry could not be taken in", ErrUnavailable, p.ID())}
		return
	}
	r.ans <- reply[struct{}]{}
}

func (r catchUpReq) refuse(err error) { r.ans <- reply[struct{}]{err: err} }

// fetched restores plan id from its entry e and registers it here (Lookup
// of a plan another instance wrote). A stored plan past its expiry, or one
// that does not decode, is not found.
func (s *Supervisor) fetched(ctx context.Context, id string, e planstore.Entry) (*Plan, error) {
	r, err := decodeRecord(e.Value)
	if err != nil {
		s.log.Error("plan store: a stored plan does not decode", "id", id, "err", err)
		return nil, ErrNotFound
	}
	if !s.now().Before(r.Expiry) {
		return nil, ErrNotFound
	}
	p, err := s.restore(r, e.Revision)
	if err != nil {
		s.log.Error("plan store: a stored plan cannot be restored", "id", id, "err", err)
		return nil, ErrNotFound
	}
	got, _, err := s.adopt(ctx, p, false)
	return got, err
}

// maxCreateTries bounds createClustered: each turn that does not end loses a
// race for the same id to another instance, whose plan the next turn finds.
const maxCreateTries = 8

// createClustered is Create in cluster mode, in the request goroutine: the
// plan stored already (live) is restored and returned (created=false: the
// caller merges into it); otherwise a slot of the cluster is reserved
// (guard 8, atomically with the capacity checks, by the store) and the plan
// written with a create. A plan found stored but past its expiry is
// replaced.
func (s *Supervisor) createClustered(ctx context.Context, fresh *Plan) (*Plan, bool, error) {
	if !s.store.Available() {
		return nil, false, ErrUnavailable
	}
	id := fresh.ID()
	for range maxCreateTries {
		now := s.now()
		if !now.Before(fresh.Expiry()) {
			return nil, false, ErrExpired
		}
		if p, err := s.lookupLocal(ctx, id); err == nil {
			return p, false, nil
		} else if !errors.Is(err, ErrNotFound) {
			return nil, false, err
		}
		var stale uint64 // the revision of an expired stored plan to replace
		switch e, err := s.store.Get(ctx, id); {
		case err == nil:
			r, derr := decodeRecord(e.Value)
			if derr == nil && now.Before(r.Expiry) {
				p, rerr := s.restore(r, e.Revision)
				if rerr != nil {
					return nil, false, rerr
				}
				got, _, err := s.adopt(ctx, p, false)
				if err != nil {
					return nil, false, err
				}
				return got, false, got.holding(ctx, e)
			}
			stale = e.Revision
		case errors.Is(err, planstore.ErrNotFound):
		default:
			return nil, false, storeError(err)
		}
		account := fresh.published.Account()
		err := s.store.Reserve(ctx, id, account, fresh.Expiry(), now, s.capacity, s.perAccount)
		if err := s.clusterRefusal(account, storeError(err)); err != nil {
			return nil, false, err
		}
		fresh.rev.Store(stale)
		switch err := fresh.writeThrough(fresh.view.Load(), fresh.submission.Load()); {
		case err == nil:
			fresh.view.Store(fresh.view.Load().at(fresh.rev.Load()))
			return s.adopt(ctx, fresh, true)
		case errors.Is(err, errConflict):
			continue // another instance wrote it first: restore theirs
		default:
			return nil, false, err
		}
	}
	return nil, false, fmt.Errorf("%w: plan %s kept changing", ErrUnavailable, id)
}

// adopt registers p, restored from the store or just written to it, unless
// a live plan with its id is registered already, which it returns instead
// (created=false). isNew says p is a publish's new plan (counted as
// created), not one restored from the store.
func (s *Supervisor) adopt(ctx context.Context, p *Plan, isNew bool) (*Plan, bool, error) {
	ans := make(chan reply[createResult], 1)
	r, err := ask(ctx, s.mailbox, supRequest(adoptReq{p, isNew, ans}), ans, s.quit, s.done, s.gone)
	return r.plan, r.created, err
}

type adoptReq struct {
	plan  *Plan
	isNew bool
	ans   chan<- reply[createResult]
}

func (r adoptReq) serve(s *Supervisor) {
	select {
	case <-s.quit:
		r.ans <- reply[createResult]{err: ErrStopped}
		return
	default:
	}
	now := s.now()
	if cur, ok := s.plans[r.plan.ID()]; ok {
		if s.live(cur, now) {
			r.ans <- reply[createResult]{v: createResult{plan: cur}}
			return
		}
		s.sweep(cur)
	}
	if !now.Before(r.plan.Expiry()) {
		r.ans <- reply[createResult]{err: ErrNotFound}
		return
	}
	s.add(r.plan)
	s.running.Go(r.plan.run)
	if r.isNew {
		s.metrics.PlanCreated()
	} else {
		s.metrics.PlanRestored()
	}
	r.ans <- reply[createResult]{v: createResult{plan: r.plan, created: r.isNew}}
}

// dispatch hands each change of the store's watch to the plan it concerns,
// when this instance holds it, until Stop.
func (s *Supervisor) dispatch() {
	changes := s.store.Changes()
	for {
		select {
		case c, ok := <-changes:
			if !ok {
				return
			}
			select {
			case s.mailbox <- supRequest(changeReq{c}):
			case <-s.quit:
				return
			}
		case <-s.quit:
			return
		}
	}
}

type changeReq struct{ c planstore.Change }

func (r changeReq) serve(s *Supervisor) {
	if p, ok := s.plans[r.c.ID]; ok {
		p.offerStored(r.c)
		return
	}
	s.adoptSubmitting(r.c)
}

// submitMark is how a stored plan published with "submit": true reads in
// its entry's JSON (record, recordSub), looked for before decoding it.
var submitMark = []byte(`"submit":true`)

// adoptSubmitting restores, from a change of the watch, a plan this
// instance does not hold when it is to be submitted and is not yet: every
// instance then holds it, so that when the instance that claimed its
// submission dies, another one takes it over once the claim's lease
// lapses, whether or not anyone asks for the plan meanwhile. The watch
// delivers every entry as it starts, so an instance restarted (or every
// instance, in a rolling restart) holds them again. Supervisor loop only.
func (s *Supervisor) adoptSubmitting(c planstore.Change) {
	if c.Deleted || !bytes.Contains(c.Value, submitMark) {
		return
	}
	select {
	case <-s.quit:
		return
	default:
	}
	r, err := decodeRecord(c.Value)
	if err != nil || r.Submission.State == SubmissionSubmitted || !s.now().Before(r.Expiry) {
		return
	}
	p, err := s.restore(r, c.Revision)
	if err != nil {
		s.log.Error("plan store: a stored plan cannot be restored", "id", c.ID, "err", err)
		return
	}
	s.add(p)
	s.running.Go(p.run)
	s.metrics.PlanRestored()
}

// offerStored puts c in the plan's one-slot stored channel, replacing a
// change the plan has not taken yet: every change carries the whole plan,
// so the newest is all it needs. The Supervisor's loop is the only sender,
// so this never waits.
func (p *Plan) offerStored(c planstore.Change) {
	for {
		select {
		case p.stored <- c:
			return
		default:
		}
		select {
		case <-p.stored:
		default:
		}
	}
}
