package actor

import (
	"context"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/plan"
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
// keeps (plan.ErrFlowConflict).
var ErrFlowConflict = plan.ErrFlowConflict

// Forwarder builds, signs and submits a plan's forward until it has an
// outcome or ctx ends, calling retried once per retry
// (closerelay_forwards_total{result="retried"}). It answers the outcome's
// fields of a plan.Forward: State plan.ForwardForwarded or
// plan.ForwardFailed, or "" when ctx ended first (the plan ended, or the
// relay stopped): abandoned, nothing to tell. Package forwarder's is the
// production one.
type Forwarder interface {
	Forward(ctx context.Context, job plan.ForwardJob, retried func()) plan.Forward
}

// withForward is v with forward f (nil: v itself), every other part shared.
func (v *planState) withForward(f *plan.Forward) *planState {
	if f == nil {
		return v
	}
	c := *v
	c.fwd = f
	return &c
}

// Forward returns the plan's forward as it stands, without a round trip
// to the actor.
func (p *Plan) Forward() plan.Forward { return *p.settled.Load().fwd }

// SetFlow has the plan keep flow (a publish's or a re-publish's
// flowToken): ErrFlowConflict when it keeps another one already, nothing
// when it keeps this one. A plan whose close was submitted already starts
// its forward at once.
func (p *Plan) SetFlow(ctx context.Context, flow plan.Flow) error {
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
	flow plan.Flow
	ans  chan<- reply[struct{}]
}

func (r setFlowReq) serve(p *Plan) {
	p.owner.check()
	next, fx, err := p.step(func(cur *planState) (*planState, effects, error) {
		next, ok, err := plan.WithFlow(cur.fwd, r.flow)
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
	if p.claims[forwarding].inFlight {
		return
	}
	p.timeOutForward()
	if p.sup.forwarder == nil {
		return
	}
	next, fx, err := p.step(func(cur *planState) (*planState, effects, error) {
		next, ok := plan.ClaimForward(cur.fwd, cur.sub, p.sup.instance, p.sup.now(), p.sup.lease, p.sup.budget)
		return writes(cur.withForward(next), ok, fxStartForward)
	})
	if err != nil {
		p.sup.log.Warn("plan store: claim a forward", "id", p.ID(), "err", err)
		p.armTakeover(forwarding, p.sup.lease/3)
		return
	}
	if fx == 0 {
		p.armTakeover(forwarding, p.sup.lease/15)
		return
	}
	p.apply(next, fx)
}

// startForward starts the forwarder on the forward this instance has just
// claimed and written (fxStartForward). Run loop only.
func (p *Plan) startForward() {
	p.owner.check()
	p.startClaim(forwarding)
	cur := p.settled.Load()
	job := plan.ForwardJob{Network: p.published.Network(), Flow: *cur.fwd.Flow, FeePerOp: ledger.ForwardFeePerOp(p.published.Envelope())}
	// The forwarder runs until the retry budget ends at the latest; the
	// loop then settles the forward failed (forwardedReq, timeOutForward).
	sup := p.sup
	ctx, cancel := context.WithDeadline(p.effects, cur.fwd.Deadline)
	p.sup.log.Info("plan forward", "id", p.ID(), "state", plan.ForwardPending, "destination", job.Flow.Destination,
		"deadline", cur.fwd.Deadline)
	// Counted in the Supervisor's WaitGroup, like a submission.
	sup.running.Go(func() {
		defer cancel()
		out := sup.forwarder.Forward(ctx, job, func() { sup.metrics.Forward(metrics.ForwardRetried) })
		p.tell(planRequest(forwardedReq{out}))
	})
}

// forwardedReq is a forward's outcome, posted by its goroutine.
type forwardedReq struct{ out plan.Forward }

func (r forwardedReq) serve(p *Plan) {
	p.owner.check()
	p.endClaim(forwarding)
	out := r.out
	switch out.State {
	case plan.ForwardForwarded:
		p.sup.metrics.Forward(metrics.ForwardForwarded)
	case plan.ForwardFailed:
		p.sup.metrics.Forward(metrics.ForwardFailed)
	default:
		// Abandoned: the plan ended (then this is not served), or the
		// retry budget ran out.
		p.timeOutForward()
		return
	}
	var told *plan.Forward
	next, fx, err := p.step(func(cur *planState) (*planState, effects, error) {
		next, ok := plan.SettleForward(cur.fwd, out, p.sup.now())
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
	if p.claims[forwarding].inFlight {
		return
	}
	var told *plan.Forward
	next, fx, err := p.step(func(cur *planState) (*planState, effects, error) {
		next, ok := plan.ForwardTimedOut(cur.fwd, p.sup.now(), p.sup.budget)
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
func (p *Plan) broadcastForward(f *plan.Forward) {
	p.owner.check()
	if f.State != plan.ForwardForwarded && f.State != plan.ForwardFailed {
		return
	}
	ev := Event{State: p.settled.Load().state, Forward: f}
	for s := range p.subs {
		s.offer(ev)
	}
}
