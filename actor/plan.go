package actor

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/plan"
	"github.com/closerelay/closerelay/planstore"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// errBadSigner refuses an Admitted whose signer index is outside the plan's
// signer set: admission never produces one, so it is a caller's bug.
var errBadSigner = errors.New("actor: admitted signature names no signer of the plan")

// State is one version of a plan's envelope, as streamed and answered.
type State struct {
	ID      string
	Network ledger.Network
	XDR     string
	Signers []string // recovered G… keys, envelope order
	Version uint64   // 1 at publish, +1 per change

	// Readiness (CONTRACT section 10). Weight is the sum of the weights of
	// the distinct signers whose signatures the envelope carries, each
	// capped as the ledger caps it (ledger.Weight); Threshold is the plan's
	// (ledger.AdmittedPlan.Threshold), the same for every version; Ready is
	// Weight >= Threshold.
	Weight    int
	Threshold int
	Ready     bool

	// Landable is the plan's preflight verdict when this version was made
	// (CONTRACT section 14): true, false, or nil when it could not tell.
	Landable *bool

	// memo is shared by every copy of one version's State (see Render).
	memo *renderMemo
}

// renderMemo holds one version's renderings: as a stream event, and as a
// route's answer; answered says the answer was asked for once already.
type renderMemo struct {
	event, answer rendering
	answered      atomic.Bool
}

type rendering struct {
	once sync.Once
	b    []byte
}

func (r *rendering) of(s State, render func(State) []byte) []byte {
	r.once.Do(func() { r.b = render(s) })
	return r.b
}

// Render returns render(s), computed once per version and shared by every
// copy of this State: a change reaches up to 50 subscribers of a plan, and
// each would otherwise encode the same bytes again (measured at about a sixth
// of the relay's CPU under a stream load). Every call on one version must
// pass the same render, and nobody may modify the bytes it returns. A State
// not made by a plan (the zero value, say) renders on every call.
func (s State) Render(render func(State) []byte) []byte {
	if s.memo == nil {
		return render(s)
	}
	return s.memo.event.of(s, render)
}

// RenderAnswer is a route's answer of the version (the sign route's, which
// the co-signer whose signature made the version receives, and every
// replay while it is the plan's latest): render(dst, s) appends it to dst.
// Most versions are answered once, in a burst of new signers each of them,
// so the first call renders into scratch and keeps nothing (kept false:
// the caller may use scratch again once the answer is written). From the
// second call on it is rendered once more and kept apart from the event's
// rendering, under Render's rules, and every later call shares it (kept
// true): replays of one version cost no rendering. A State not made by a
// plan renders into scratch on every call.
func (s State) RenderAnswer(render func(dst []byte, s State) []byte, scratch []byte) (b []byte, kept bool) {
	// Load first: on the replays' path the flag is only ever read.
	if s.memo == nil || (!s.memo.answered.Load() && !s.memo.answered.Swap(true)) {
		return render(scratch, s), false
	}
	return s.memo.answer.of(s, func(s State) []byte { return render(nil, s) }), true
}

// Plan is a handle on one plan actor; its methods are safe for concurrent use.
type Plan struct {
	// Immutable after Create: the parts the pure transitions read
	// (state.go), the expiry (published's, read on every call).
	planParts
	expiry time.Time
	sup    *Supervisor

	// settled is the plan's state as the run loop last settled it: its
	// version, its submission and the store revision it holds, in one
	// pointer, so that no reader sees one part without the others. The run
	// loop is its only writer and never modifies a state once stored.
	// Every read that needs no decision (Known, Snapshot, Ready,
	// plan.Submission, a merge that adds nobody, Lookup's check of the
	// revision) loads it instead of queueing behind merges in the mailbox.
	settled atomic.Pointer[planState]

	// Channels. The run loop alone receives on mailbox, leave and evict.
	// Handlers post requests on mailbox and Subscription.Close posts on
	// leave; both are unbuffered, so a message is either taken by the loop or
	// never taken, and both senders select on done, so that nobody waits for
	// a plan that has ended. evict (one slot, never waited on) tells the loop
	// its plan is past expiry before its timer said so. The loop closes done
	// once the plan has ended, after setting endErr, which is read only after
	// <-done.
	mailbox chan planRequest
	leave   chan *Subscription
	evict   chan struct{}
	done    chan struct{}
	endErr  error

	// stored (one slot, never waited on) holds the newest change of the
	// plan's store entry not taken yet (another instance's write): the
	// Supervisor, its
	// only sender, replaces a stale one, so a busy plan never holds up the
	// store's watch.
	stored chan planstore.Change

	// alarms carries the fires of the plan's timers (alarm.go), each
	// posted by the timer's own goroutine, which selects on done.
	alarms chan alarm

	// Owned by the run loop (built by newPlan before run starts): every
	// function that touches them checks that it runs on the run loop's
	// goroutine (owner.check).
	owner loopOwner
	life  loopTimer // fires at nextWake, as armed
	armed time.Time
	subs  map[*Subscription]struct{}
	// claims are the loop's records of the plan's claimed effects, by
	// claimKind (claims.go).
	claims [claimKinds]claimRun
	// submitted is set for good once the ledger took this instance's
	// submission of the plan.
	submitted bool
	// effects ends when the plan ends (finish cancels it); it bounds every
	// submission and forward the plan runs.
	effects       context.Context
	cancelEffects context.CancelFunc
	// dirty is set when the view holds signatures the stored entry lacks,
	// to write back.
	dirty bool
	// windowOver is set once the signing window has ended (its
	// subscribers told); lingering once the plan has lived on past it
	// for its forward (life.go). held is the end of the plan's slot in the
	// store's registry as last reserved or held.
	windowOver, lingering bool
	held                  time.Time
	// set is the signer set as the store's records carry it, made by the
	// first write (or taken from the record restored) and shared by every
	// record after it.
	set []planstore.Signer
	// preflight is the published preflight as the records carry it, made
	// by the first write (kept says so) and shared like set: it is the
	// publish's, the same in every version.
	preflight     *planstore.PreflightRecord
	preflightKept bool
	// rev is the store entry's revision as last written or read (0: write
	// it with a create), the next compare-and-set's expectation. The run loop alone writes it. It says nothing about what the
	// view holds: the loop takes a revision before the signatures that come
	// with it, and keeps it when they fail to decode. view.rev does.
	rev uint64
}

// planState is one immutable version of a plan, with the indexes that answer
// replays and the admitted signatures the submit-ready envelope is selected
// from: at most ledger.MaxSignatures entries, so copying it per change costs
// less than the envelope's re-encoding.
type planState struct {
	state    State
	env      xdr.TransactionEnvelope // the envelope of state.XDR, decoded
	present  []bool                  // by signer index: its signature is in the envelope
	admitted []ledger.Admitted       // the envelope's signatures, in envelope (admission) order
	// heads are the first 8 bytes of each admitted signature, in the same
	// order, in one array: Known compares against them before it reads a
	// signature, so a new signer's lookup reads a few cache lines instead
	// of one scattered allocation per admitted signature.
	heads []uint64
	// lists, when not nil, holds the arrays the four lists above are the
	// start of, for the next merge to extend (versionLists); nil: they are
	// arrays of their own.
	lists *versionLists
	ready *readyMemo // this version's submit-ready envelope, made on first demand
	// sub is the plan's submission as it stands (never nil).
	sub *plan.Submission
	// fwd is the plan's mediator forward as it stands (never nil).
	fwd *plan.Forward
	// rev is a revision of the plan's store entry whose
	// signatures this view holds, every one of them: the revision it was
	// written as, or one it took in. It is published with the signatures,
	// in one pointer, so a reader can never see the revision without them;
	// Lookup answers from a view only once its rev is the entry's (see
	// Supervisor.lookup). 0: none yet.
	rev uint64
}

// at is v as holding the signatures of revision rev as well: the same
// version and submission, every part shared.
func (v *planState) at(rev uint64) *planState {
	c := *v
	c.rev = rev
	return &c
}

// with is v with submission sub (nil: v itself, for a transition that did
// not apply), every other part shared.
func (v *planState) with(sub *plan.Submission) *planState {
	if sub == nil {
		return v
	}
	c := *v
	c.sub = sub
	return &c
}

// readyMemo holds one version's submit-ready envelope, selected and encoded
// once, by the first caller of Plan.Ready that needs it.
type readyMemo struct {
	once sync.Once
	r    ReadyEnvelope
	ok   bool
	err  error
}

// newPlan builds a plan from a publish that ledger admitted (or a stored
// plan that ledger restored), at version, in the caller's goroutine; the
// supervisor either starts it or drops it. The admitted plan is taken as it
// is: ledger, its only constructor, guarantees that its parts agree, and its
// envelope is already encoded.
func newPlan(s *Supervisor, published *ledger.AdmittedPlan, version uint64) *Plan {
	signers := published.Canonical().Signers.Signers()
	p := &Plan{
		planParts: planParts{
			published: published,
			addresses: make([]string, len(signers)),
			encoder:   ledger.NewEnvelopeEncoder(published.Envelope()),
			flowCheck: s.flowCheck,
		},
		expiry:  published.Expiry(),
		sup:     s,
		mailbox: make(chan planRequest),
		leave:   make(chan *Subscription),
		evict:   make(chan struct{}, 1),
		done:    make(chan struct{}),
		stored:  make(chan planstore.Change, 1),
		alarms:  make(chan alarm),
		subs:    make(map[*Subscription]struct{}),
	}
	for i, sg := range signers {
		p.addresses[i] = sg.Address
	}
	admitted := published.Admitted()
	present := make([]bool, len(signers))
	st := State{
		ID: published.ID(), Network: published.Network(), XDR: published.Canonical().XDR,
		Signers: make([]string, 0, len(admitted)), Version: version,
	}
	for _, a := range admitted {
		present[a.Signer] = true
		st.Signers = append(st.Signers, p.addresses[a.Signer])
	}
	// Clip: the plan appends to its own copy, never to the admitted plan's.
	first := p.newView(st, published.Envelope(), present, slices.Clip(admitted), nil, nil)
	first.sub = &plan.Submission{}
	first.fwd = &plan.Forward{}
	p.settled.Store(first)
	return p
}

// ID returns the plan id.
func (p *Plan) ID() string { return p.published.ID() }

// Canonical returns the plan's immutable merge context (hash, passphrase, signers).
func (p *Plan) Canonical() *ledger.Canonical { return p.published.Canonical() }

// Expiry returns the instant the plan ends (added).
func (p *Plan) Expiry() time.Time { return p.expiry }

// Known reports whether a signature's bytes were already admitted on this plan,
// without a round trip to the actor (a replay costs a lookup). It has the
// shape of ledger.KnownFunc.
//
// A version holds at most ledger.MaxSignatures signatures, so it is looked
// for in the version's admitted list, not in an index each version would
// have to copy.
func (p *Plan) Known(sig []byte) (signer int, ok bool) {
	v := p.settled.Load()
	h := sigHead(sig)
	for i, x := range v.heads {
		if x == h && bytes.Equal(v.admitted[i].Sig.Signature, sig) {
			return v.admitted[i].Signer, true
		}
	}
	return 0, false
}

// sigHead is a signature's first 8 bytes (fewer, zero-padded, for a shorter
// one): equal signatures have equal heads.
func sigHead(sig []byte) uint64 {
	var b [8]byte
	copy(b[:], sig)
	return binary.LittleEndian.Uint64(b[:])
}

// sigHeads is the heads of admitted, of which prefix holds the first ones
// (a version's, for the next version that extends its list): prefix itself
// when it holds them all.
func sigHeads(prefix []uint64, admitted []ledger.Admitted) []uint64 {
	if len(prefix) == len(admitted) {
		return prefix
	}
	h := make([]uint64, len(prefix), len(admitted))
	copy(h, prefix)
	for _, a := range admitted[len(prefix):] {
		h = append(h, sigHead(a.Sig.Signature))
	}
	return h
}

// Snapshot returns the current state, or ErrNotFound once expired. It reads
// the published version: no round trip to the actor.
func (p *Plan) Snapshot(ctx context.Context) (State, error) {
	v, err := p.current(ctx)
	if err != nil {
		return State{}, err
	}
	return v.state, nil
}

// Status returns the current state for GET /status: as Snapshot, and
// also past the signing window while the plan lives on for its forward
// (Supervisor.LookupStatus), its last state then.
func (p *Plan) Status(ctx context.Context) (State, error) {
	if err := ctx.Err(); err != nil {
		return State{}, err
	}
	select {
	case <-p.done:
		return State{}, p.endErr
	default:
	}
	if !p.sup.now().Before(p.endAt()) {
		return State{}, ErrNotFound
	}
	return p.settled.Load().state, nil
}

// ReadyEnvelope is a version's submit-ready envelope (CONTRACT section 10):
// the fewest of its signatures whose weights reach the plan's threshold,
// largest weights first and, among equal weights, the earliest admitted
// (ledger.ReadySignatures), so that the ledger's checks use every one.
type ReadyEnvelope struct {
	// State is the version the envelope was selected from.
	State State
	// XDR is the submit-ready envelope: the plan's transaction carrying
	// exactly the selected signatures, in the selection's order.
	XDR string
	// Signers are the selected signatures' G… keys, in XDR's order.
	Signers []string
	// Weight is the selected signatures' weight: at least State.Threshold.
	Weight int
}

// Ready returns the submit-ready envelope of the plan's current version; ok
// is false, and only State is set, while that version is not ready. Like
// Snapshot it needs no round trip to the actor: the selection and its
// encoding are made once per version, by the first caller that needs them,
// in that caller's goroutine. It answers ErrNotFound once the plan expired.
func (p *Plan) Ready(ctx context.Context) (r ReadyEnvelope, ok bool, err error) {
	v, err := p.current(ctx)
	if err != nil {
		return ReadyEnvelope{}, false, err
	}
	if !v.state.Ready {
		return ReadyEnvelope{State: v.state}, false, nil
	}
	return p.readyOf(v)
}

// readyOf is v's submit-ready envelope, selected and encoded by the first
// caller that needs it (a Ready request, or the run loop about to submit)
// and shared by every later one.
func (p *Plan) readyOf(v *planState) (ReadyEnvelope, bool, error) {
	m := v.ready
	m.once.Do(func() { m.r, m.ok, m.err = p.selectReady(v) })
	if m.err != nil {
		return ReadyEnvelope{}, false, m.err
	}
	return m.r, m.ok, nil
}

// selectReady makes v's submit-ready envelope. It reads only what is
// immutable: v, and the admitted plan's transaction, whose signatures it
// replaces in a copy.
func (p *Plan) selectReady(v *planState) (ReadyEnvelope, bool, error) {
	set := p.published.Canonical().Signers
	selected, ok := ledger.ReadySignatures(set, v.admitted, v.state.Threshold)
	if !ok {
		return ReadyEnvelope{State: v.state}, false, nil
	}
	sigs := make([]xdr.DecoratedSignature, len(selected))
	signers := make([]string, len(selected))
	for i, a := range selected {
		sigs[i] = a.Sig
		signers[i] = p.addresses[a.Signer]
	}
	encoded, err := ledger.EncodeEnvelope(ledger.WithSignatures(p.published.Envelope(), sigs))
	if err != nil {
		return ReadyEnvelope{}, false, fmt.Errorf("actor: encode the submit-ready envelope: %w", err)
	}
	return ReadyEnvelope{State: v.state, XDR: encoded, Signers: signers, Weight: ledger.Weight(set, selected)}, true, nil
}

// current is the published view of a live plan. A plan past its expiry is
// gone even if its actor has not noticed yet; the actor is told, so that it
// ends now rather than at its next timer tick.
func (p *Plan) current(ctx context.Context) (*planState, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case <-p.done:
		return nil, p.endErr
	default:
	}
	if !p.sup.now().Before(p.expiry) {
		select {
		case p.evict <- struct{}{}:
		default: // already told
		}
		return nil, ErrNotFound
	}
	return p.settled.Load(), nil
}

// Merge applies admitted signatures in arrival order: signers already present
// are skipped; ErrSignatureCap if the new ones would pass ledger.MaxSignatures.
// changed is false when nothing new was added (no event is sent).
// The plan counts the signatures it admitted and the duplicates it skipped
// in metrics (closerelay_signatures_total); a refused merge counts nothing.
func (p *Plan) Merge(ctx context.Context, admitted []ledger.Admitted) (st State, changed bool, err error) {
	// A replay of signers already present changes nothing whenever it is
	// served, so it is answered from the published version. Under a replay
	// flood this keeps the mailbox for merges that change something.
	v, err := p.current(ctx)
	if err != nil {
		return State{}, false, err
	}
	if v.holdsAll(admitted) {
		p.sup.metrics.Signatures(metrics.SignatureDuplicate, len(admitted))
		return v.state, false, nil
	}
	ans := make(chan reply[mergeResult], 1)
	r, err := askPlan(ctx, p, planRequest(mergeReq{admitted, ans}), ans)
	return r.state, r.changed, err
}

// holdsAll reports whether every admitted signer is already in v.
func (v *planState) holdsAll(admitted []ledger.Admitted) bool {
	for _, a := range admitted {
		if a.Signer < 0 || a.Signer >= len(v.present) || !v.present[a.Signer] {
			return false
		}
	}
	return true
}

// gone is what a call answers once the actor has returned: ErrNotFound after
// expiry, ErrStopped after shutdown.
func (p *Plan) gone() error { return p.endErr }

// run is the plan's goroutine.
func (p *Plan) run() {
	defer p.sup.loops.Add(-1)
	p.owner.start()
	p.held = p.expiry
	// A submission or forward lives no longer than its plan: finish
	// cancels this.
	p.effects, p.cancelEffects = context.WithCancel(context.Background())
	// A change written between the read this plan was made from and its
	// registration found no plan to go to: read the entry once more, now
	// that every later change comes here.
	if err := p.reload(); err != nil {
		p.sup.log.Warn("plan store: read a plan as it starts", "id", p.ID(), "err", err)
	}
	// A plan born to submit may be ready from its first version; a plan
	// restored may have its forward to run, or to take over.
	p.apply(nil, fxSubmit|fxForward)
	p.finish(p.loop())
}

// loop serves requests until the plan ends, and says why: ErrNotFound when
// it expired, ErrStopped on shutdown. The life timer fires at the signing
// window's end and at each later instant the plan's life depends on
// (nextWake), re-armed whenever that moves.
func (p *Plan) loop() error {
	p.armed = p.nextWake()
	p.arm(&p.life, alarm{what: alarmLife}, p.armed.Sub(p.sup.now()))
	p.holdSlot()
	for {
		w := p.await()
		if err := p.serveWoken(w); err != nil {
			return err
		}
		p.rearm()
	}
}

// woken is what woke the run loop, and what it received.
type woken struct {
	cause  wakeCause
	req    planRequest
	sub    *Subscription
	change planstore.Change
	alarm  alarm
}

type wakeCause int

const (
	wokeByRequest wakeCause = iota
	wokeByLeave
	wokeByAlarm
	wokeByEvict
	wokeByStore
	wokeByQuit
)

// await waits for the run loop's next event: a request, a leave, a
// timer's alarm (every timer's, alarm.go), an eviction, a change of the
// store, or the Supervisor's quit.
func (p *Plan) await() woken {
	select {
	case req := <-p.mailbox:
		return woken{cause: wokeByRequest, req: req}
	case sub := <-p.leave:
		return woken{cause: wokeByLeave, sub: sub}
	case a := <-p.alarms:
		return woken{cause: wokeByAlarm, alarm: a}
	case <-p.evict:
		return woken{cause: wokeByEvict}
	case c := <-p.stored:
		return woken{cause: wokeByStore, change: c}
	case <-p.sup.quit:
		return woken{cause: wokeByQuit}
	}
}

// serveWoken serves one event of the run loop; an error ends the plan.
func (p *Plan) serveWoken(w woken) error {
	p.owner.check()
	switch w.cause {
	case wokeByRequest:
		// The timer may not have been served yet at the very instant of
		// the window's end; a plan past it is gone for every client's
		// request all the same.
		if !p.sup.now().Before(p.expiry) && !servesAfterWindow(w.req) {
			w.req.refuse(ErrNotFound)
			if p.windowEnds() {
				return ErrNotFound
			}
			return nil
		}
		w.req.serve(p)
	case wokeByLeave:
		p.drop(w.sub)
	case wokeByAlarm:
		return p.serveAlarm(w.alarm)
	case wokeByEvict:
		// Past the window (a reader saw it first), or past the plan's
		// end (the Supervisor swept it).
		if p.windowEnds() {
			return ErrNotFound
		}
	case wokeByStore:
		p.onStored(w.change)
	case wokeByQuit:
		return ErrStopped
	}
	return nil
}

// rearm follows what was just served: the life timer to the plan's next
// instant, the slot in the store's registry to its end. Run loop only.
func (p *Plan) rearm() {
	if next := p.nextWake(); !next.Equal(p.armed) {
		p.arm(&p.life, alarm{what: alarmLife}, next.Sub(p.sup.now()))
		p.armed = next
	}
	p.holdSlot() // nothing to do unless the plan's end moved
}

// askPlan is ask on p's mailbox.
func askPlan[T any](ctx context.Context, p *Plan, req planRequest, ans <-chan reply[T]) (T, error) {
	return ask(ctx, p.mailbox, req, ans, p.done, p.done, p.gone)
}

// tell hands the loop an outcome of one of the plan's own goroutines (a
// submission's, a forward's); once the plan has ended nobody is told.
func (p *Plan) tell(req planRequest) {
	select {
	case p.mailbox <- req:
	case <-p.done:
	}
}

// finish ends the subscribers and the plan. After expiry each subscriber is
// sent Expired first; on shutdown its channel just closes.
func (p *Plan) finish(reason error) {
	p.owner.check()
	p.cancelEffects() // a submission or forward in flight is abandoned, and not told
	p.stopClaims(reason)
	p.life.stop()
	m := p.sup.metrics
	for sub := range p.subs {
		if reason == ErrNotFound {
			sub.offer(Event{State: p.settled.Load().state, Expired: true})
		}
		m.SubscriberRemoved()
		close(sub.ch)
	}
	clear(p.subs)
	p.endErr = reason
	close(p.done)
	if reason == ErrNotFound {
		p.deleteEntry()
	}
	if reason == ErrNotFound {
		select {
		case p.sup.reaped <- p:
		case <-p.sup.quit: // the supervisor counts every registered plan itself
		}
	}
}

// deleteEntry removes the plan's entry as the plan expires, from whichever
// instance gets there first (the others find it gone), unless a publish of
// the id has replaced it with a plan of another expiry: a plan swept early
// (Create replaces it) ends while its successor is being written. The
// delete is conditional on the revision read, so a successor written
// between the read and the delete is read again, and kept. Its slot in the
// registry frees itself: the registry keeps expiries.
func (p *Plan) deleteEntry() {
	ctx := context.Background()
	for range 3 {
		e, err := p.sup.store.Get(ctx, p.ID())
		switch {
		case errors.Is(err, planstore.ErrNotFound):
			return
		case errors.Is(err, planstore.ErrCorrupt):
			// Nobody can take it in: deleted, at the revision read.
		case err != nil:
			p.sup.log.Warn("plan store: read an expired plan to delete it", "id", p.ID(), "err", err)
			return
		case !e.Record.Expiry.Equal(p.expiry):
			return // another plan's now
		}
		err = p.sup.store.Delete(ctx, p.ID(), e.Revision)
		if !errors.Is(err, planstore.ErrConflict) {
			if err != nil {
				p.sup.log.Warn("plan store: delete an expired plan", "id", p.ID(), "err", err)
			}
			return
		}
		// Written since the read: by its successor, or by this plan on
		// another instance. Read it again.
	}
}

// serveMerge is Merge inside the actor: the merge transition, written
// through to the store (merging again after each lost race), its effects
// run. Nothing is changed unless everything succeeds.
func (p *Plan) serveMerge(admitted []ledger.Admitted) (State, bool, error) {
	p.owner.check()
	var fresh, duplicates int
	next, fx, err := p.step(func(cur *planState) (*planState, effects, error) {
		next, fx, f, d, err := merge(&p.planParts, cur, admitted)
		fresh, duplicates = f, d
		return next, fx, err
	})
	if err != nil {
		return State{}, false, err
	}
	m := p.sup.metrics
	m.Signatures(metrics.SignatureDuplicate, duplicates)
	if fx == 0 {
		return p.settled.Load().state, false, nil
	}
	m.Signatures(metrics.SignatureAdmitted, fresh)
	p.apply(next, fx)
	return next.state, true, nil
}

// broadcast offers ev to every subscriber; offer never waits.
func (p *Plan) broadcast(ev Event) {
	p.owner.check()
	for sub := range p.subs {
		sub.offer(ev)
	}
	p.sup.metrics.Broadcast()
}

// planRequest is one request served by a plan's run loop.
type planRequest interface {
	serve(p *Plan)
	refuse(err error) // answer without serving: the plan just ended
}

type mergeReq struct {
	admitted []ledger.Admitted
	ans      chan<- reply[mergeResult]
}

type mergeResult struct {
	state   State
	changed bool
}

func (r mergeReq) serve(p *Plan) {
	st, changed, err := p.serveMerge(r.admitted)
	r.ans <- reply[mergeResult]{v: mergeResult{st, changed}, err: err}
}

func (r mergeReq) refuse(err error) { r.ans <- reply[mergeResult]{err: err} }
