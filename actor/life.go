package actor

import (
	"context"
	"time"

	"github.com/closerelay/closerelay/plan"
	"github.com/closerelay/closerelay/planstore"
)

// A plan's life past its signing window. SPEC's expiry ends the signing
// window: from then on the plan is gone for every route that reads or
// changes its envelope (GET, sign, ready, sep7, events, the page: 404
// NOT_FOUND, and subscribers are told expired). But the close of a plan
// with a mediator flow can land just before the window ends, and its
// forward must not be abandoned then: the funds would wait in the
// mediator. Such a plan lives on, in the registry and the store, for its
// forward only, until the forward has an outcome and then for
// Options.ForwardRetention, so that GET /status can still tell it
// (Supervisor.LookupStatus). A forward that never settles is bounded by
// its retry budget (Options.ForwardBudget, counted from its first claim).
// A plan with a flow whose close's submission is still in flight at the
// window's end lives on too, at most the budget past the window: the
// close may land until its maxTime.

// Defaults of Options.ForwardBudget and Options.ForwardRetention.
const (
	// DefaultForwardBudget: a ledger API that answers nothing for this
	// long is an outage the operator handles; the forward then fails with
	// plan.ForwardCodeTimedOut.
	DefaultForwardBudget = 6 * time.Hour
	// DefaultForwardRetention: how long status.forward stays readable once
	// a forward settled after its plan's signing window.
	DefaultForwardRetention = time.Hour
)

// recordEnd is lifeEnd of a stored plan.
func (s *Supervisor) recordEnd(r planstore.Record) time.Time {
	return plan.LifeEnd(r.Expiry, submissionOf(r.Submission), forwardOf(r.Forward), s.budget, s.retention)
}

// endAt is when the plan ends, by its state as it stands: its signing
// window's end, or later while its forward needs it (lifeEnd).
func (p *Plan) endAt() time.Time {
	v := p.settled.Load()
	return plan.LifeEnd(p.expiry, v.sub, v.fwd, p.sup.budget, p.sup.retention)
}

// nextWake is when the run loop's life timer must fire next: the window's
// end (once), the forward's budget's end while it is pending, and the
// plan's end. Run loop only.
//
// A budget's end that has passed stays the next wake until the forward is
// settled: the timer may have fired at it during a turn, and a re-arm to a
// later instant would drop that fire (an alarm of a replaced arming is
// ignored), leaving the forward pending until
// the plan's end. Past it, an unchanged next wake keeps the fire, and a
// new one fires at once. While this instance's forwarder runs, it is left
// out: the forwarder ends at the budget's end too, its outcome comes
// first, and that turn's re-arm brings it back.
func (p *Plan) nextWake() time.Time {
	v := p.settled.Load()
	next := p.endAt()
	if !p.windowOver && p.expiry.Before(next) {
		next = p.expiry
	}
	if d := v.fwd.Deadline; v.fwd.State == plan.ForwardPending && !d.IsZero() && d.Before(next) &&
		(p.sup.now().Before(d) || !p.claims[forwarding].inFlight) {
		next = d
	}
	return next
}

// wake serves the life timer and reports whether the plan has ended: the
// window's end tells the subscribers, a forward past its budget is
// settled failed. Run loop only.
func (p *Plan) wake() (ended bool) {
	p.owner.check()
	if !p.sup.now().Before(p.expiry) && p.windowEnds() {
		return true
	}
	p.timeOutForward()
	return !p.sup.now().Before(p.endAt())
}

// windowEnds runs once the signing window has ended: the first time, each
// subscriber is told Expired and closed (the streams end with the window,
// as SPEC says), and the plan refuses every request of a client from then
// on. It reports whether the plan ends now too; otherwise it lives on for
// its forward. Run loop only.
func (p *Plan) windowEnds() (ended bool) {
	p.owner.check()
	if !p.windowOver {
		p.windowOver = true
		st := p.settled.Load().state
		for sub := range p.subs {
			sub.offer(Event{State: st, Expired: true})
			p.sup.metrics.SubscriberRemoved()
			close(sub.ch)
		}
		clear(p.subs)
	}
	ended = !p.sup.now().Before(p.endAt())
	if !ended && !p.lingering {
		p.lingering = true
		f := p.settled.Load().fwd
		p.sup.log.Info("plan signing window ended; kept for its forward", "id", p.ID(), "forward", f.State,
			"until", p.endAt())
	}
	return ended
}

// servesAfterWindow reports whether req is served once the signing window
// has ended: the outcomes of the plan's own goroutines, and a Lookup's
// catch-up with the store (status reads a lingering plan); every client's
// request is refused ErrNotFound.
func servesAfterWindow(req planRequest) bool {
	switch req.(type) {
	case submittedReq, forwardedReq, catchUpReq:
		return true
	}
	return false
}

// holdSlot keeps the plan's slot in the store's registry until the plan
// ends, when that is past the slot's end (the window's, as reserved): a
// plan that lives on for its forward still counts against the capacity.
// Run loop only.
func (p *Plan) holdSlot() {
	p.owner.check()
	end := p.endAt()
	if end.Equal(p.held) {
		return
	}
	if err := p.sup.store.Hold(context.Background(), p.ID(), p.published.Account(), end); err != nil {
		p.sup.log.Warn("plan store: hold a plan's slot", "id", p.ID(), "until", end, "err", err)
		return
	}
	p.held = end
}
