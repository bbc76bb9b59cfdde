package actor

import (
	"context"
	"errors"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/mediator"
	"github.com/closerelay/closerelay/metrics"
)

// The mediator forward the relay runs itself (CONTRACT section 16). A plan
// published with a flow keeps it (Flow); once the close's submission has
// succeeded, the plan's loop claims the forward, as it claims a
// submission, and starts one goroutine that calls Options.Forwarder, whose
// outcome comes back through the mailbox. Like the submission, the claim
// is written through with compare-and-set, names its instance and carries a
// lease that the loop renews while the forwarder runs; another instance
// takes the forward over once the lease lapses.

// ErrFlowConflict: a re-publish names another flow than the one the plan
// keeps (a flow is set once and never changed).
var ErrFlowConflict = errors.New("actor: the plan keeps another mediator flow")

// Flow is what a plan keeps of its mediator flow: the nonce its mediator's
// key derives from, and the destination and memo the forward must pay and
// carry, and the token that commits to them. The token's expiry no longer
// matters once the plan holds the flow; its MAC does.
type Flow struct {
	Nonce       string
	Destination string
	// Memo is the committed memo in its canonical spelling
	// ("<type>:<value>", as mediator.Memo.String writes it).
	Memo string
	// Token is the flow token the plan was given. Its MAC is what the
	// forward is signed under: the fields above are the store's word
	// (another instance's, or anyone's who can write the bucket), the MAC
	// is the master's. Not part of the flow's identity (Same): a later
	// token of the same flow differs only in its expiry.
	Token string
}

// FlowForward is what the preflight needs of f (ledger.FlowForward): nil
// for no flow, or for a flow whose memo does not parse (a record written
// by something else), which the forwarder refuses before building
// anything, so that no forward of it can reach the ledger.
func (f *Flow) FlowForward() *ledger.FlowForward {
	if f == nil {
		return nil
	}
	memo, err := mediator.ParseMemo(f.Memo)
	if err != nil {
		return nil
	}
	return &ledger.FlowForward{Destination: f.Destination, Memo: memo.XDR()}
}

// Same reports whether f and o are one flow: the same nonce, destination
// and memo, whatever their tokens' expiries.
func (f Flow) Same(o Flow) bool {
	return f.Nonce == o.Nonce && f.Destination == o.Destination && f.Memo == o.Memo
}

// The states of Forward.State (CONTRACT section 16's status.forward); ""
// is no forward yet (JSON null).
const (
	ForwardPending   = "pending"
	ForwardForwarded = "forwarded"
	ForwardFailed    = "failed"
)

// Forward is a plan's forward as GET /status tells it, and, carried by an
// Event, one outcome to tell subscribers (a named SSE event). A value
// handed out is never modified afterwards.
type Forward struct {
	// Flow is the plan's flow; nil for a plan published without one.
	Flow *Flow
	// State is "" until the close's submission succeeded, then
	// ForwardPending, then ForwardForwarded or ForwardFailed.
	State string
	// Hash is the forward's transaction hash once one was sent; Ledger and
	// Amount (op0's payment, decimal native units) once forwarded.
	Hash   string
	Ledger int
	Amount string
	// Code and Reason say why the forward failed.
	Code, Reason string

	// seq orders the forward's changes (the newest wins on every
	// instance). While pending, owner is the instance that claimed it and
	// lease the time until which the claim holds.
	seq   uint64
	owner string
	lease time.Time
	// deadline ends the forward's retry budget: set by its first claim
	// and kept by every takeover, so that no restart or new owner starts
	// the budget again. A forward still pending then fails with
	// ForwardCodeTimedOut. settled is when it got its outcome. Both say
	// how long the plan outlives its signing window (lifeEnd).
	deadline time.Time
	settled  time.Time
}

// ForwardCodeTimedOut is a forward's failure code when its retry budget
// (Options.ForwardBudget) ran out before the ledger took it: the funds
// wait in the mediator, where only the operator can forward them.
const ForwardCodeTimedOut = "forward_timed_out"

// ForwardJob is what a Forwarder runs: the plan's network, its flow, and
// the forward's fee per operation (ledger.ForwardFeePerOp of the close).
type ForwardJob struct {
	Network  ledger.Network
	Flow     Flow
	FeePerOp int64
}

// ForwardOutcome is how one run of a Forwarder ended: State is
// ForwardForwarded or ForwardFailed, or "" when ctx ended first (the plan
// ended, or the relay stopped): abandoned, nothing to tell.
type ForwardOutcome struct {
	State        string
	Hash         string
	Ledger       int
	Amount       string
	Code, Reason string
}

// Forwarder builds, signs and submits a plan's forward until it has an
// outcome or ctx ends, calling retried once per retry
// (closerelay_forwards_total{result="retried"}). Package forwarder's is the
// production one.
type Forwarder interface {
	Forward(ctx context.Context, job ForwardJob, retried func()) ForwardOutcome
}

// The forward's transitions, pure like the submission's (transition.go):
// each returns the next forward and ok, or ok=false when it does not apply,
// and never modifies cur.

// withFlow is cur keeping flow: set once, the same flow again changes
// nothing, another one is ErrFlowConflict.
func withFlow(cur *Forward, flow Flow) (*Forward, bool, error) {
	switch {
	case cur.Flow == nil:
		next := *cur
		next.Flow = &flow
		next.seq++
		return &next, true, nil
	case cur.Flow.Same(flow):
		return nil, false, nil
	}
	return nil, false, ErrFlowConflict
}

// claimForward is instance's claim at now on the forward of a plan whose
// close was submitted: pending, in instance's name, leased until
// now+lease; the first claim starts the retry budget (deadline
// now+budget), a takeover keeps it. Not without a flow or before the
// submission succeeded, once the forward has an outcome, while another
// instance's claim holds, or once the budget has run out (forwardTimedOut
// applies then).
func claimForward(cur *Forward, sub *Submission, instance string, now time.Time, lease, budget time.Duration) (*Forward, bool) {
	switch {
	case cur.Flow == nil, sub.State != SubmissionSubmitted:
		return nil, false
	case cur.State == ForwardForwarded, cur.State == ForwardFailed:
		return nil, false
	case cur.State == ForwardPending && cur.owner != instance && now.Before(cur.lease):
		return nil, false
	case !cur.deadline.IsZero() && !now.Before(cur.deadline):
		return nil, false
	}
	next := *cur
	next.State, next.owner, next.lease = ForwardPending, instance, now.Add(lease)
	if next.deadline.IsZero() {
		next.deadline = now.Add(budget)
	}
	next.seq++
	return &next, true
}

// forwardTimedOut is a pending forward whose retry budget has run out by
// now, failed with ForwardCodeTimedOut: whoever holds the plan when the
// budget ends settles it, whether or not a forwarder still runs (its
// outcome, if it comes later, cannot replace a failure it did not make:
// a forwarded one can, see settleForward).
func forwardTimedOut(cur *Forward, now time.Time, budget time.Duration) (*Forward, bool) {
	if cur.State != ForwardPending || cur.deadline.IsZero() || now.Before(cur.deadline) {
		return nil, false
	}
	next := Forward{Flow: cur.Flow, seq: cur.seq + 1, State: ForwardFailed, Hash: cur.Hash,
		Code: ForwardCodeTimedOut, deadline: cur.deadline, settled: now,
		Reason: "the forward did not land within its retry budget of " + budget.String() + "; the funds wait in the mediator account"}
	return &next, true
}

// renewForward is instance's pending claim extended to now+lease; a claim
// taken over meanwhile is left to its new owner.
func renewForward(cur *Forward, instance string, now time.Time, lease time.Duration) (*Forward, bool) {
	if cur.State != ForwardPending || cur.owner != instance {
		return nil, false
	}
	next := *cur
	next.seq++
	next.lease = now.Add(lease)
	return &next, true
}

// releaseForward is instance's pending claim let go (it lapses now), so
// that another instance takes the forward over at once.
func releaseForward(cur *Forward, instance string) (*Forward, bool) {
	if cur.State != ForwardPending || cur.owner != instance {
		return nil, false
	}
	next := *cur
	next.seq++
	next.lease = time.Time{}
	return &next, true
}

// settleForward is the forward with out, a forwarder's outcome at now. A
// forwarded one stands: a failure (another instance's late try, which
// finds the mediator gone) never replaces it. An abandoned run settles
// nothing.
func settleForward(cur *Forward, out ForwardOutcome, now time.Time) (*Forward, bool) {
	next := Forward{Flow: cur.Flow, seq: cur.seq + 1, deadline: cur.deadline, settled: now}
	switch out.State {
	case ForwardForwarded:
		next.State, next.Hash, next.Ledger, next.Amount = ForwardForwarded, out.Hash, out.Ledger, out.Amount
	case ForwardFailed:
		if cur.State == ForwardForwarded {
			return nil, false
		}
		next.State, next.Hash, next.Code, next.Reason = ForwardFailed, out.Hash, out.Code, out.Reason
	default:
		return nil, false
	}
	return &next, true
}

// forwardState is the run loop's own record of the plan's forward.
type forwardState struct {
	// inFlight is set while a forwarder goroutine runs; at most one does.
	inFlight bool
	// renew ticks while this instance's forward is in flight; takeover
	// fires when another instance's claim lapses. nil when unused.
	renew    *time.Ticker
	takeover *time.Timer
}

func (f *forwardState) stopRenewing() {
	if f.renew != nil {
		f.renew.Stop()
		f.renew = nil
	}
}

func (f *forwardState) renewC() <-chan time.Time {
	if f.renew == nil {
		return nil
	}
	return f.renew.C
}

func (f *forwardState) takeoverC() <-chan time.Time {
	if f.takeover == nil {
		return nil
	}
	return f.takeover.C
}

// withForward is v with forward f (nil: v itself), every other part shared.
func (v *planState) withForward(f *Forward) *planState {
	if f == nil {
		return v
	}
	c := *v
	c.fwd = f
	return &c
}

// Forward returns the plan's forward as it stands, without a round trip
// to the actor.
func (p *Plan) Forward() Forward { return *p.settled.Load().fwd }

// SetFlow has the plan keep flow (a publish's or a re-publish's
// flowToken): ErrFlowConflict when it keeps another one already, nothing
// when it keeps this one. A plan whose close was submitted already starts
// its forward at once.
func (p *Plan) SetFlow(ctx context.Context, flow Flow) error {
	if f := p.settled.Load().fwd.Flow; f != nil {
		if f.Same(flow) {
			return nil
		}
		return ErrFlowConflict
	}
	ans := make(chan reply[struct{}], 1)
	_, err := askPlan(ctx, p, planRequest(setFlowReq{flow, ans}), ans)
	return err
}

type setFlowReq struct {
	flow Flow
	ans  chan<- reply[struct{}]
}

func (r setFlowReq) serve(p *Plan) {
	p.owner.check()
	next, fx, err := p.step(func(cur *planState) (*planState, effects, error) {
		next, ok, err := withFlow(cur.fwd, r.flow)
		switch {
		case err != nil:
			return nil, 0, err
		case !ok: // kept already: nothing to write, but it may be due
			return nil, fxForward, nil
		}
		return cur.withForward(next), fxWrite | fxForward, nil
	})
	if err != nil {
		r.ans <- reply[struct{}]{err: err}
		return
	}
	p.apply(next, fx)
	r.ans <- reply[struct{}]{}
}

func (r setFlowReq) refuse(err error) { r.ans <- reply[struct{}]{err: err} }

// maybeForward claims the plan's forward and starts it, when the plan has
// a flow, its close was submitted, none of this instance's forwards is in
// flight, and claimForward lets it. Run loop only; the forward runs on a
// goroutine of its own and reports through the mailbox.
func (p *Plan) maybeForward() {
	p.owner.check()
	f := &p.fwd
	if f.inFlight {
		return
	}
	p.timeOutForward()
	if p.sup.forwarder == nil {
		return
	}
	next, fx, err := p.step(func(cur *planState) (*planState, effects, error) {
		next, ok := claimForward(cur.fwd, cur.sub, p.sup.instance, p.sup.now(), p.sup.lease, p.sup.budget)
		return writes(cur.withForward(next), ok, fxStartForward)
	})
	if err != nil {
		p.sup.log.Warn("plan store: claim a forward", "id", p.ID(), "err", err)
		p.armForwardTakeover(p.sup.lease / 3)
		return
	}
	if fx == 0 {
		p.armForwardTakeover(p.sup.lease / 15)
		return
	}
	p.apply(next, fx)
}

// startForward starts the forwarder on the forward this instance has just
// claimed and written (fxStartForward). Run loop only.
func (p *Plan) startForward() {
	p.owner.check()
	f := &p.fwd
	f.inFlight = true
	p.armForwardTakeover(0) // the claim is this instance's: no timer
	f.renew = time.NewTicker(p.sup.lease / 3)
	cur := p.settled.Load()
	job := ForwardJob{Network: p.published.Network(), Flow: *cur.fwd.Flow, FeePerOp: ledger.ForwardFeePerOp(p.published.Envelope())}
	// The forwarder runs until the retry budget ends at the latest; the
	// loop then settles the forward failed (forwardedReq, timeOutForward).
	sup := p.sup
	ctx, cancel := context.WithDeadline(p.submit.ctx, cur.fwd.deadline)
	p.sup.log.Info("plan forward", "id", p.ID(), "state", ForwardPending, "destination", job.Flow.Destination,
		"deadline", cur.fwd.deadline)
	// Counted in the Supervisor's WaitGroup, like a submission.
	sup.running.Go(func() {
		defer cancel()
		out := sup.forwarder.Forward(ctx, job, func() { sup.metrics.Forward(metrics.ForwardRetried) })
		p.tell(planRequest(forwardedReq{out}))
	})
}

// armForwardTakeover sets the takeover timer for the lapse of another
// instance's pending claim on the forward, at the soonest after floor, or
// stops it when there is none to watch. Run loop only.
func (p *Plan) armForwardTakeover(floor time.Duration) {
	p.owner.check()
	f := &p.fwd
	cur := p.settled.Load().fwd
	if f.inFlight || cur.State != ForwardPending || p.sup.forwarder == nil {
		if f.takeover != nil {
			f.takeover.Stop()
		}
		return
	}
	d := max(cur.lease.Sub(p.sup.now()), floor)
	if f.takeover == nil {
		f.takeover = time.NewTimer(d)
		return
	}
	f.takeover.Reset(d)
}

// takeOverForward runs when another instance's claim on the forward has
// lapsed by this instance's clock: the entry is read first (its owner may
// have renewed it), and the compare-and-set of the claim settles any race.
func (p *Plan) takeOverForward() {
	p.owner.check()
	if err := p.reload(); err != nil {
		p.sup.log.Warn("plan store: read a lapsed forward claim", "id", p.ID(), "err", err)
		p.armForwardTakeover(p.sup.lease / 3)
		return
	}
	p.maybeForward()
}

// renewForwardLease extends this instance's claim on the forward in
// flight by another lease.
func (p *Plan) renewForwardLease() {
	p.owner.check()
	next, fx, err := p.step(func(cur *planState) (*planState, effects, error) {
		if !p.fwd.inFlight {
			return nil, 0, nil
		}
		next, ok := renewForward(cur.fwd, p.sup.instance, p.sup.now(), p.sup.lease)
		return writes(cur.withForward(next), ok, 0)
	})
	if err != nil {
		p.sup.log.Warn("plan store: renew a forward claim", "id", p.ID(), "err", err)
		return
	}
	p.apply(next, fx)
}

// releaseForwardClaim, as the instance stops with its forward in flight,
// lets its claim lapse now. Run loop only, from finish.
func (p *Plan) releaseForwardClaim() {
	p.owner.check()
	next, fx, err := p.step(func(cur *planState) (*planState, effects, error) {
		next, ok := releaseForward(cur.fwd, p.sup.instance)
		return writes(cur.withForward(next), ok, 0)
	})
	if err != nil {
		p.sup.log.Warn("plan store: release a forward claim", "id", p.ID(), "err", err)
		return
	}
	p.apply(next, fx)
}

// forwardedReq is a forward's outcome, posted by its goroutine.
type forwardedReq struct{ out ForwardOutcome }

func (r forwardedReq) serve(p *Plan) {
	p.owner.check()
	f := &p.fwd
	f.inFlight = false
	f.stopRenewing()
	out := r.out
	switch out.State {
	case ForwardForwarded:
		p.sup.metrics.Forward(metrics.ForwardForwarded)
	case ForwardFailed:
		p.sup.metrics.Forward(metrics.ForwardFailed)
	default:
		// Abandoned: the plan ended (then this is not served), or the
		// retry budget ran out.
		p.timeOutForward()
		return
	}
	var told *Forward
	next, fx, err := p.step(func(cur *planState) (*planState, effects, error) {
		next, ok := settleForward(cur.fwd, out, p.sup.now())
		told = next
		return writes(cur.withForward(next), ok, fxTellForward)
	})
	if err != nil {
		// The outcome happened all the same: this instance tells it; the
		// others learn it from the next write that gets through.
		p.sup.log.Warn("plan store: write a forward outcome", "id", p.ID(), "err", err)
		if told != nil {
			next, fx = p.settled.Load().withForward(told), fxTellForward
		}
	}
	if told == nil {
		return // forwarded already, by another instance
	}
	p.sup.log.Info("plan forward", "id", p.ID(), "state", told.State, "hash", told.Hash, "ledger", told.Ledger,
		"amount", told.Amount, "code", told.Code)
	p.apply(next, fx)
}

func (forwardedReq) refuse(error) {}

// timeOutForward settles the plan's pending forward failed once its retry
// budget has run out (forwardTimedOut), unless this
// instance's forwarder still runs: it ends at the budget's end too, and
// its outcome comes first. Run loop only.
func (p *Plan) timeOutForward() {
	p.owner.check()
	if p.fwd.inFlight {
		return
	}
	var told *Forward
	next, fx, err := p.step(func(cur *planState) (*planState, effects, error) {
		next, ok := forwardTimedOut(cur.fwd, p.sup.now(), p.sup.budget)
		told = next
		return writes(cur.withForward(next), ok, fxTellForward)
	})
	if err != nil {
		// As for any outcome: this instance tells it, the store learns it
		// from the next write that gets through.
		p.sup.log.Warn("plan store: write a forward's timeout", "id", p.ID(), "err", err)
		if told != nil {
			next, fx = p.settled.Load().withForward(told), fxTellForward
		}
	}
	if told == nil {
		return
	}
	p.sup.metrics.Forward(metrics.ForwardFailed)
	p.sup.log.Warn("plan forward", "id", p.ID(), "state", told.State, "code", told.Code, "mediator_destination", told.Flow.Destination)
	p.apply(next, fx)
}

// broadcastForward offers a forward's change, with the current state, to
// every subscriber; only an outcome makes a named event.
func (p *Plan) broadcastForward(f *Forward) {
	p.owner.check()
	if f.State != ForwardForwarded && f.State != ForwardFailed {
		return
	}
	ev := Event{State: p.settled.Load().state, Forward: f}
	for s := range p.subs {
		s.offer(ev)
	}
}
