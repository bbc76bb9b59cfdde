package actor

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/plan"
	"github.com/closerelay/closerelay/planstore"
)

// Store is where the plans live: a planstore.Memory in single mode,
// *planstore.Store on NATS JetStream in cluster mode. The actor runs the
// same code on either.
//
// The Supervisor's registry is a cache of the plans this instance has
// served, each with its actor: a plan written by another instance is
// restored from the store on its first request here (Lookup, Create) and
// follows the store from then on. The store, not the registry, enforces
// the plan capacity and PLANS_PER_ACCOUNT.
type Store = planstore.Bucket

// ErrUnavailable: the store cannot be reached, which only cluster mode's
// can fail to be (CONTRACT section 12: publish answers 400 UNAVAILABLE,
// every other JSON route 503).
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
	case errors.Is(err, planstore.ErrCorrupt):
		return err // not the store's unavailability: a value nobody can read
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

// forwardOf and forwardRecord convert a plan's forward to and from the
// store's record; nil is a plan without a flow.
func forwardOf(r *planstore.ForwardRecord) *plan.Forward {
	if r == nil {
		return &plan.Forward{}
	}
	f := &plan.Forward{State: r.State, Hash: r.Hash, Ledger: r.Ledger, Amount: r.Amount, Code: r.Code, Reason: r.Reason,
		Claim: plan.Claim{Seq: r.Seq, Lease: plan.Lease{Owner: r.Owner, Until: r.Lease}}, Deadline: r.Deadline, Settled: r.Settled}
	if r.Nonce != "" {
		f.Flow = &plan.Flow{Nonce: r.Nonce, Destination: r.Destination, Memo: r.Memo, Token: r.Token}
	}
	return f
}

func forwardRecord(f *plan.Forward) *planstore.ForwardRecord {
	if f.Flow == nil && f.Seq == 0 {
		return nil
	}
	r := &planstore.ForwardRecord{Seq: f.Seq, State: f.State, Hash: f.Hash, Ledger: f.Ledger, Amount: f.Amount,
		Code: f.Code, Reason: f.Reason, Owner: f.Lease.Owner, Lease: f.Lease.Until, Deadline: f.Deadline, Settled: f.Settled}
	if f.Flow != nil {
		r.Nonce, r.Destination, r.Memo, r.Token = f.Flow.Nonce, f.Flow.Destination, f.Flow.Memo, f.Flow.Token
	}
	return r
}

func submissionOf(r planstore.SubmissionRecord) *plan.Submission {
	return &plan.Submission{Submit: r.Submit, State: r.State, Hash: r.Hash, Ledger: r.Ledger, Code: r.Code, Reason: r.Reason,
		Preflight: preflightOf(r.Preflight), Tried: r.Tried, Claim: plan.Claim{Seq: r.Seq, Lease: plan.Lease{Owner: r.Owner, Until: r.Lease}}}
}

func submissionRecord(s *plan.Submission) planstore.SubmissionRecord {
	return planstore.SubmissionRecord{Submit: s.Submit, Seq: s.Seq, State: s.State, Hash: s.Hash, Ledger: s.Ledger, Code: s.Code,
		Reason: s.Reason, Preflight: preflightRecord(s.Preflight), Tried: s.Tried, Owner: s.Lease.Owner, Lease: s.Lease.Until}
}

// preflightOf and preflightRecord convert a preflight run to and from the
// store's record; nil is no run.
func preflightOf(r *planstore.PreflightRecord) *ledger.PreflightRun {
	if r == nil {
		return nil
	}
	run := &ledger.PreflightRun{Preflight: ledger.Preflight{State: ledger.PreflightState(r.State)}, Checked: r.Checked, Native: r.Native, Reason: r.Reason}
	run.Fee.Bid = r.FeeBid
	if r.FeeNetwork > 0 {
		run.Fee.Stats = &ledger.FeeStats{Network: r.FeeNetwork, BaseFee: r.FeeBase}
	}
	for _, b := range r.Blockers {
		run.Blockers = append(run.Blockers, ledger.Blocker{Op: b.Op, Code: b.Code, Reason: b.Reason})
	}
	return run
}

func preflightRecord(run *ledger.PreflightRun) *planstore.PreflightRecord {
	if run == nil || run.State == "" {
		return nil
	}
	r := &planstore.PreflightRecord{State: string(run.State), Checked: run.Checked, Native: run.Native, Reason: run.Reason, FeeBid: run.Fee.Bid}
	if run.Fee.Known() {
		r.FeeNetwork, r.FeeBase = run.Fee.Stats.Network, run.Fee.Stats.BaseFee
	}
	for _, b := range run.Blockers {
		r.Blockers = append(r.Blockers, planstore.BlockerRecord{Op: b.Op, Code: b.Code, Reason: b.Reason})
	}
	return r
}

// record is v with sub as the store holds it. The parts that never change
// (the signer set and its thresholds, the publish's preflight) are built
// once per plan and shared by every record: a record is never modified
// once made.
func (p *Plan) record(v *planState, sub *plan.Submission) planstore.Record {
	if p.set == nil {
		signers := p.published.Canonical().Signers.Signers()
		p.set = make([]planstore.Signer, len(signers))
		for i, sg := range signers {
			p.set[i] = planstore.Signer{Address: sg.Address, Weight: sg.Weight}
		}
	}
	t := p.published.Canonical().Signers.Thresholds()
	r := planstore.Record{
		Network: string(p.published.Network()), Account: p.published.Account(), Expiry: p.expiry,
		Threshold: p.published.Threshold(), Thresholds: [3]uint8{t.Low, t.Medium, t.High},
		Set: p.set, XDR: v.state.XDR, Version: v.state.Version, Submission: submissionRecord(sub), Forward: forwardRecord(v.fwd),
		SignerOf: make([]int, len(v.admitted)),
	}
	if !p.preflightKept {
		run := p.published.Preflight()
		p.preflight, p.preflightKept = preflightRecord(&run), true
	}
	r.Preflight = p.preflight
	for i, a := range v.admitted {
		r.SignerOf[i] = a.Signer
	}
	return r
}

// restore rebuilds plan id that another instance wrote (or this one,
// before a restart), at the stored version, submission and revision, once
// r has passed its checks (storecheck.go): its fields' shape
// (checkRecord, checkExpiry), and its envelope, the published close whose
// hash on its network is id, with every signature verified
// (ledger.RestorePlan). This is the one verification of a record's
// signatures on this instance: the plan holds them from then on. A record
// that fails is an error wrapping a ledger.ErrStored kind.
func (s *Supervisor) restore(id string, r planstore.Record, revision uint64) (*Plan, error) {
	if err := checkRecord(r); err != nil {
		return nil, err
	}
	if err := checkExpiry(r.Expiry, s.now()); err != nil {
		return nil, err
	}
	signers := make([]ledger.Signer, len(r.Set))
	for i, sg := range r.Set {
		signers[i] = ledger.Signer{Address: sg.Address, Weight: sg.Weight}
	}
	set := ledger.NewSignerSet(signers).WithThresholds(ledger.Thresholds{Low: r.Thresholds[0], Medium: r.Thresholds[1], High: r.Thresholds[2]})
	published, err := ledger.RestorePlan(id, ledger.Network(r.Network), r.XDR, r.SignerOf, set, r.Expiry, r.Account, r.Threshold)
	if err != nil {
		return nil, err
	}
	if f := r.Forward; f != nil && f.Nonce != "" {
		if err := checkFlow(s.flowCheck, f, published.Envelope()); err != nil {
			return nil, err
		}
	}
	if run := preflightOf(r.Preflight); run != nil {
		published = published.WithPreflight(*run)
	}
	p := newPlan(s, published, max(r.Version, 1))
	p.set = r.Set
	p.rev = revision
	first := p.settled.Load().at(revision)
	first.sub = submissionOf(r.Submission)
	first.fwd = forwardOf(r.Forward)
	p.settled.Store(first)
	return p, nil
}

// errConflict: a write lost its compare-and-set; the plan reloads and
// merges again.
var errConflict = errors.New("actor: the stored plan changed meanwhile")

// errReplaced: the plan's entry is now another plan's, of a publish of its
// id that replaced it past its expiry. The plan is as gone as an expired
// one: its requests answer ErrNotFound, and it writes nothing more.
var errReplaced = fmt.Errorf("%w: a publish of its id replaced it", ErrNotFound)

// maxWriteTries bounds a plan's compare-and-set loop. Every lost race means
// another instance's write took effect, and merges commute, so a loop this
// long only ends unwritten when instances keep writing the same plan
// faster than one round trip, which 20 signers cannot sustain.
const maxWriteTries = 32

// writeThrough writes v with sub to the store with compare-and-set on the
// plan's last known revision (create when it has none): errConflict when
// another write came first. Run loop only (or before the plan runs).
func (p *Plan) writeThrough(v *planState) error {
	p.owner.check()
	r := p.record(v, v.sub)
	store := p.sup.store
	ctx := context.Background()
	var rev uint64
	var err error
	if last := p.rev; last == 0 {
		rev, err = store.Create(ctx, p.ID(), r)
	} else {
		rev, err = store.Update(ctx, p.ID(), r, last)
	}
	switch {
	case err == nil:
		p.rev = rev
		return nil
	case errors.Is(err, planstore.ErrConflict):
		return errConflict
	default:
		return storeError(err)
	}
}

// transition is a step of the plan's state: from the state as it stands,
// the next one and the effects to run (nil and none: nothing to do).
type transition func(cur *planState) (next *planState, fx effects, err error)

// step runs t on the plan's current state and writes the next state
// through when its effects say so (fxWrite), taking the entry in and
// running t again after each lost race: t sees every signature stored.
// The next state and the rest of its effects are for apply, which the
// caller runs once it has done its own accounting. Run loop only.
func (p *Plan) step(t transition) (*planState, effects, error) {
	p.owner.check()
	for range maxWriteTries {
		cur := p.settled.Load()
		next, fx, err := t(cur)
		if err != nil || fx&fxWrite == 0 {
			return next, fx, err
		}
		if next == cur {
			next = cur.with(cur.sub) // readers hold cur: this turn's copy
		}
		switch err := p.writeThrough(next); {
		case err == nil:
			p.dirty = false // whatever was missing is in what was written
			next.rev = p.rev
			return next, fx, nil
		case errors.Is(err, errConflict):
			if err := p.reload(); err != nil {
				return nil, 0, err
			}
		default:
			return nil, 0, err
		}
	}
	return nil, 0, fmt.Errorf("%w: the plan kept changing", ErrUnavailable)
}

// apply is the one place the run loop runs a transition's effects (but
// for fxWrite, which step runs first): it publishes next to readers
// unless it is the current state (nil: there is none), then runs fx in
// the order of their declaration (state.go). Run loop only.
func (p *Plan) apply(next *planState, fx effects) {
	p.owner.check()
	if next != nil && next != p.settled.Load() {
		p.settled.Store(next)
	}
	if fx&fxDirty != 0 {
		p.dirty = true
	}
	if fx&fxSubmitted != 0 {
		p.submitted = true
	}
	if fx&fxBroadcast != 0 {
		p.broadcast(Event{State: next.state})
	}
	if fx&fxTellSubmission != 0 {
		p.broadcastSubmission(next.sub)
	}
	if fx&fxTellForward != 0 {
		p.broadcastForward(next.fwd)
	}
	if fx&fxWriteBack != 0 && p.dirty {
		p.writeBack()
	}
	if fx&fxStartSubmission != 0 {
		p.startSubmission(next)
	}
	if fx&fxSubmit != 0 {
		p.maybeSubmit()
	}
	if fx&fxStartForward != 0 {
		p.startForward()
	}
	if fx&fxForward != 0 {
		p.maybeForward()
	}
}

// writes is the step of a transition that applied (ok): next, to write
// through, then the effects more; nothing when it did not apply.
func writes(next *planState, ok bool, more effects) (*planState, effects, error) {
	if !ok {
		return nil, 0, nil
	}
	return next, fxWrite | more, nil
}

// reload reads the stored plan after a lost race and takes it in. An entry
// that is gone (a NATS server with memory storage restarted empty) is
// written again from this instance's state by the next write. Run loop only.
func (p *Plan) reload() error {
	p.owner.check()
	e, err := p.sup.store.Get(context.Background(), p.ID())
	switch {
	case errors.Is(err, planstore.ErrNotFound):
		p.rev = 0
		return nil
	case errors.Is(err, planstore.ErrCorrupt):
		// Written over by the next write, which expects its revision.
		p.sup.refused(p.ID(), e.Revision, err)
		p.rev = e.Revision
		return err
	case err != nil:
		return storeError(err)
	}
	if !e.Record.Expiry.Equal(p.expiry) {
		// Another plan's entry: a publish of the id replaced this plan,
		// swept past its expiry, whose loop is ending (a plan's expiry
		// never changes; a re-publish of a live plan is a merge). Taking
		// it in would write the successor's signatures back under this
		// plan's expiry, and this plan's end would then delete them.
		return errReplaced
	}
	// What was just read is the entry as it stands, whatever the plan had
	// seen (after a NATS server restarted empty, revisions start again).
	p.rev = e.Revision
	// The caller decides what follows a read: a write under way carries
	// the union itself, and starts nothing until it is written.
	return p.absorb(e.Record, e.Revision, true, fxWriteBack|fxSubmit|fxForward)
}

// absorb takes in a stored version of the plan at revision (the union
// transition) and runs its effects but for those in skip. Subscribers
// are told what changed. The entry's revision is the next write's
// expectation from now on unless the plan has seen a later one.
// Run loop only.
func (p *Plan) absorb(r planstore.Record, revision uint64, asItStands bool, skip effects) error {
	p.owner.check()
	if revision > p.rev {
		p.rev = revision
	}
	next, fx, err := union(&p.planParts, p.settled.Load(), r, revision, asItStands)
	if p.sup.refused(p.ID(), revision, err) {
		// Nothing of it is taken in. The plan keeps its view, which the
		// store now lacks: the next write, expecting this revision, puts
		// it back over the refused record, at once.
		next, fx, err = nil, fxDirty|fxWriteBack|fxSubmit|fxForward, nil
	}
	if err != nil {
		return err
	}
	p.apply(next, fx&^skip)
	return nil
}

// lacksAny reports whether signerOf (a stored entry's signer indexes)
// names a signer whose signature v does not hold; an index outside the
// signer set counts as lacking, for RestoreSignatures to refuse.
func (v *planState) lacksAny(signerOf []int) bool {
	return slices.ContainsFunc(signerOf, func(i int) bool {
		return i < 0 || i >= len(v.present) || !v.present[i]
	})
}

// onStored takes in a change the store's watch delivered: another
// instance's write (or this one's, coming back), or the entry's deletion,
// which changes nothing (every instance ends the plan at its own expiry).
// Run loop only.
func (p *Plan) onStored(c planstore.Change) {
	p.owner.check()
	if c.Deleted {
		return
	}
	if !c.Record.Expiry.Equal(p.expiry) {
		// Another plan's entry: a publish of the id replaced this one past
		// its expiry (errReplaced). Taken in, its revision would be this
		// plan's next write's expectation, and the write would land over
		// the successor's entry.
		return
	}
	if err := p.absorb(c.Record, c.Revision, false, 0); err != nil {
		p.sup.log.Error("plan store: a stored plan could not be taken in", "id", p.ID(), "err", err)
	}
}

// writeBack writes the plan's view to the store when it holds signatures
// the stored entry lacks. Run loop only.
func (p *Plan) writeBack() {
	p.owner.check()
	next, fx, err := p.step(func(cur *planState) (*planState, effects, error) {
		return writes(cur, p.dirty, 0)
	})
	if err != nil {
		p.sup.log.Warn("plan store: write back", "id", p.ID(), "err", err)
		return
	}
	p.apply(next, fx)
}

// refusal maps a store's answer to a capacity check or a reservation onto
// the package's errors, counting and logging a refusal with the counts the
// store made it on.
func (s *Supervisor) refusal(account string, err error) error {
	var ce *planstore.CapacityError
	switch {
	case !errors.As(err, &ce):
		return storeError(err)
	case errors.Is(err, planstore.ErrCapacity):
		s.metrics.CapacityRefused()
		s.log.Warn("plan capacity refusal", "open_plans", ce.Open, "capacity", s.capacity)
		return ErrCapacity
	default:
		s.log.Warn("plan account capacity refusal", "account", account,
			"account_plans", ce.AccountOpen, "plans_per_account", s.perAccount)
		return ErrAccountCapacity
	}
}

// lookup is Lookup. Every answer reflects the store as it stands when the
// request came (single mode: see below): the entry is read (one round
// trip), and the plan is handed out only once its published view holds
// that revision's signatures (holding), so a sign that another instance
// answered 200 is in this instance's answer too (CONTRACT section 12).
// A plan this instance does
// not hold is restored from the entry, unless a Create of its id is under
// way here, which registers it; a live plan whose entry is gone (a NATS
// server with memory storage restarted empty) goes on, and its next write
// stores it again.
func (s *Supervisor) lookup(ctx context.Context, id string) (*Plan, error) {
	if s.soleWriter {
		// The store holds only what this instance's plans wrote,
		// and a plan answers a request only after its write, so a live
		// plan's view holds every signature of an answer given: reading
		// the entry would add a round trip and change nothing. A plan not
		// held goes the whole way (a Create under way, an entry left).
		if p, err := s.lookupLocal(ctx, id); !errors.Is(err, ErrNotFound) {
			return p, err
		}
	}
	if !s.store.Available() {
		return nil, ErrUnavailable
	}
	e, err := s.store.Get(ctx, id)
	switch {
	case errors.Is(err, planstore.ErrNotFound):
		return s.lookupLocal(ctx, id)
	case errors.Is(err, planstore.ErrCorrupt):
		s.refused(id, e.Revision, err)
		p, err := s.lookupLocal(ctx, id)
		if err != nil {
			return nil, err
		}
		if p.settled.Load().rev < e.Revision {
			return nil, fmt.Errorf("%w: plan %s's stored entry could not be taken in", ErrUnavailable, id)
		}
		return p, nil
	case err != nil:
		return nil, storeError(err)
	}
	p, err := s.lookupLocal(ctx, id)
	if errors.Is(err, ErrNotFound) && s.awaitCreate(ctx, id) {
		p, err = s.lookupLocal(ctx, id)
	}
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
	if p.settled.Load().rev == e.Revision {
		return nil
	}
	ans := make(chan reply[struct{}], 1)
	_, err := askPlan(ctx, p, planRequest(catchUpReq{e, ans}), ans)
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
	p.owner.check()
	switch v := p.settled.Load(); {
	case r.e.Revision > v.rev:
		p.onStored(planstore.Change{ID: p.ID(), Record: r.e.Record, Revision: r.e.Revision})
	case r.e.Revision < v.rev:
		if err := p.reload(); err != nil {
			r.ans <- reply[struct{}]{err: err}
			return
		}
		p.apply(nil, fxWriteBack|fxSubmit|fxForward)
	}
	if p.settled.Load().rev < r.e.Revision {
		r.ans <- reply[struct{}]{err: fmt.Errorf("%w: plan %s's stored entry could not be taken in", ErrUnavailable, p.ID())}
		return
	}
	r.ans <- reply[struct{}]{}
}

func (r catchUpReq) refuse(err error) { r.ans <- reply[struct{}]{err: err} }

// fetched restores plan id from its entry e and registers it here (Lookup
// of a plan another instance wrote). A stored plan past its end (its
// expiry, or later while its forward needs it: lifeEnd) is not found.
func (s *Supervisor) fetched(ctx context.Context, id string, e planstore.Entry) (*Plan, error) {
	if !s.now().Before(s.recordEnd(e.Record)) {
		return nil, ErrNotFound
	}
	p, err := s.restore(id, e.Record, e.Revision)
	if err != nil {
		if errors.Is(err, ErrUnavailable) {
			return nil, err // a flow this instance cannot check
		}
		if !s.refused(id, e.Revision, err) {
			s.log.Error("plan store: a stored plan cannot be restored", "id", id, "err", err)
		}
		// As if absent: nothing of a record that fails its check is served.
		return nil, ErrNotFound
	}
	got, _, err := s.adopt(ctx, p, false)
	return got, err
}

// create is Create: one call at a time per id in this instance (a second
// waits for the first, then finds its plan), so that of two publishes of
// one new id here one creates and the other merges; instances race through
// the store's compare-and-set.
func (s *Supervisor) create(ctx context.Context, fresh *Plan) (*Plan, bool, error) {
	id := fresh.ID()
	mine := make(chan struct{})
	for {
		other, busy := s.creating.LoadOrStore(id, mine)
		if !busy {
			break
		}
		select {
		case <-other.(chan struct{}):
		case <-ctx.Done():
			return nil, false, ctx.Err()
		case <-s.quit:
			return nil, false, ErrStopped
		}
	}
	defer func() {
		s.creating.Delete(id)
		close(mine)
	}()
	return s.createStored(ctx, fresh)
}

// awaitCreate waits for a Create of id under way in this instance, and
// reports whether there was one.
func (s *Supervisor) awaitCreate(ctx context.Context, id string) bool {
	c, ok := s.creating.Load(id)
	if !ok {
		return false
	}
	select {
	case <-c.(chan struct{}):
	case <-ctx.Done():
	case <-s.quit:
	}
	return true
}

// maxCreateTries bounds createStored: each turn that does not end loses a
// race for the same id to another instance, whose plan the next turn finds.
const maxCreateTries = 8

// createStored is Create in the request goroutine, in the order Create's
// doc gives: a live plan registered here, or stored (restored and
// registered), is returned (created=false: the caller merges into it);
// otherwise the publish's expiry is checked, a slot reserved (guard 8,
// atomically with the capacity checks, by the store) and the plan written
// with a create. A plan found stored but past its expiry, or one that does
// not decode, is replaced.
func (s *Supervisor) createStored(ctx context.Context, fresh *Plan) (*Plan, bool, error) {
	if !s.store.Available() {
		return nil, false, ErrUnavailable
	}
	id := fresh.ID()
	for range maxCreateTries {
		if p, err := s.lookupLocal(ctx, id); err == nil {
			if !s.now().Before(p.Expiry()) {
				// Past its window, kept for its forward: its close has
				// landed (or may yet), so no publish of it can be signed
				// again, and the plan is never replaced while it is kept.
				return nil, false, ErrExpired
			}
			return p, false, nil
		} else if !errors.Is(err, ErrNotFound) {
			return nil, false, err
		}
		now := s.now()
		var stale uint64 // the revision of a stored plan to replace
		switch e, err := s.store.Get(ctx, id); {
		case err == nil && now.Before(s.recordEnd(e.Record)):
			p, err := s.restore(id, e.Record, e.Revision)
			if s.refused(id, e.Revision, err) {
				// As if absent: the publish writes its plan over it.
				stale = e.Revision
				break
			}
			if err != nil {
				return nil, false, err
			}
			if !now.Before(e.Record.Expiry) {
				return nil, false, ErrExpired // as above
			}
			got, _, err := s.adopt(ctx, p, false)
			if err != nil {
				return nil, false, err
			}
			return got, false, got.holding(ctx, e)
		case err == nil:
			stale = e.Revision
		case errors.Is(err, planstore.ErrCorrupt):
			s.refused(id, e.Revision, err)
			stale = e.Revision
		case errors.Is(err, planstore.ErrNotFound):
		default:
			return nil, false, storeError(err)
		}
		if !now.Before(fresh.Expiry()) {
			return nil, false, ErrExpired
		}
		account := fresh.published.Account()
		err := s.store.Reserve(ctx, id, account, fresh.Expiry(), now, s.capacity, s.perAccount)
		if err := s.refusal(account, err); err != nil {
			return nil, false, err
		}
		fresh.rev = stale
		switch err := fresh.writeThrough(fresh.settled.Load()); {
		case err == nil:
			fresh.settled.Store(fresh.settled.Load().at(fresh.rev))
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
	s.owner.check()
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
	// A publish checked its expiry before its account API round trip and
	// its store writes; the plan may have run out since. Registered, it
	// would be live for no instant at all, and its publish would have
	// answered 200.
	if !now.Before(r.plan.endAt()) {
		err := ErrNotFound
		if r.isNew {
			err = ErrExpired
		}
		r.ans <- reply[createResult]{err: err}
		return
	}
	s.add(r.plan)
	s.startLoop(r.plan)
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

// adoptSubmitting restores, from a change of the watch, a plan this
// instance does not hold when it is to be submitted and is not yet: every
// instance then holds it, so that when the instance that claimed its
// submission dies, another one takes it over once the claim's lease
// lapses, whether or not anyone asks for the plan meanwhile. The watch
// delivers every entry as it starts, so an instance restarted (or every
// instance, in a rolling restart) holds them again. A plan that a Create
// here is registering is left to it. Supervisor loop only.
func (s *Supervisor) adoptSubmitting(c planstore.Change) {
	s.owner.check()
	r := c.Record
	if c.Deleted || !s.now().Before(s.recordEnd(r)) || !(waitsForSubmission(r) || waitsForForward(r)) {
		return
	}
	if _, ok := s.creating.Load(c.ID); ok {
		return
	}
	select {
	case <-s.quit:
		return
	default:
	}
	p, err := s.restore(c.ID, r, c.Revision)
	if err != nil {
		if !s.refused(c.ID, c.Revision, err) {
			s.log.Error("plan store: a stored plan cannot be restored", "id", c.ID, "err", err)
		}
		return
	}
	s.add(p)
	s.startLoop(p)
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

// waitsForSubmission reports whether r is a plan to be submitted that has
// not been yet.
func waitsForSubmission(r planstore.Record) bool {
	return r.Submission.Submit && r.Submission.State != plan.SubmissionSubmitted
}

// waitsForForward reports whether r is a plan whose close was submitted
// and whose forward has no outcome yet: every instance holds it too, so
// that the forward is taken over when its owner dies.
func waitsForForward(r planstore.Record) bool {
	f := r.Forward
	return f != nil && f.Nonce != "" && r.Submission.State == plan.SubmissionSubmitted &&
		f.State != plan.ForwardForwarded && f.State != plan.ForwardFailed
}
