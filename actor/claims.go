package actor

import (
	"time"

	"github.com/closerelay/closerelay/plan"
)

// A plan's claimed effects, its submission and its forward, run one way
// (plan.Claim): the loop claims one by writing it through with
// compare-and-set, starts one goroutine that runs it, renews the claim's
// lease every third of a lease while that goroutine runs, lets the claim go
// as the instance stops, and watches another instance's claim for its
// lapse, when it reads the entry and claims the effect itself if the claim
// still stands unrenewed. What differs between the two is what their
// claim and outcome are (plan's transitions, maybeSubmit, maybeForward).

// claimKind names one of a plan's claimed effects.
type claimKind int

const (
	submitting claimKind = iota
	forwarding
	claimKinds // how many
)

func (k claimKind) String() string {
	if k == submitting {
		return "submission"
	}
	return "forward"
}

// claimRun is the run loop's own record of one of the plan's claimed
// effects.
type claimRun struct {
	// inFlight is set while this instance's goroutine runs the effect; at
	// most one does.
	inFlight bool
	// renew fires every third of a lease while inFlight; takeover when
	// another instance's pending claim lapses (only in cluster mode is
	// there another instance).
	renew, takeover loopTimer
}

// leaseOf is k's claim as v holds it: whether the effect is pending, and
// its lease.
func leaseOf(k claimKind, v *planState) (pending bool, l plan.Lease) {
	if k == submitting {
		return v.sub.State == plan.SubmissionPending, v.sub.Lease
	}
	return v.fwd.State == plan.ForwardPending, v.fwd.Lease
}

// watches reports whether this instance watches k's pending claims in v
// for their lapse: a submission when the plan is to be submitted, a
// forward when this instance runs forwards.
func (p *Plan) watches(k claimKind, v *planState) bool {
	if k == submitting {
		return v.sub.Submit
	}
	return p.sup.forwarder != nil
}

// renewed and released are v with k's claim renewed by this instance, or
// let go (plan.Renew, plan.Release); ok false when it does not apply.
func (p *Plan) renewed(k claimKind, v *planState) (*planState, bool) {
	now, lease := p.sup.now(), p.sup.lease
	if k == submitting {
		n, ok := plan.Renew(v.sub, p.sup.instance, now, lease)
		return v.with(n), ok
	}
	n, ok := plan.Renew(v.fwd, p.sup.instance, now, lease)
	return v.withForward(n), ok
}

func (p *Plan) released(k claimKind, v *planState) (*planState, bool) {
	if k == submitting {
		n, ok := plan.Release(v.sub, p.sup.instance)
		return v.with(n), ok
	}
	n, ok := plan.Release(v.fwd, p.sup.instance)
	return v.withForward(n), ok
}

// maybe claims k and starts it, when the plan's state calls for it.
func (p *Plan) maybe(k claimKind) {
	if k == submitting {
		p.maybeSubmit()
		return
	}
	p.maybeForward()
}

// startClaim records that this instance runs k now, on its claim just
// written: no takeover to watch, a renewal every third of a lease. Run
// loop only.
func (p *Plan) startClaim(k claimKind) {
	p.owner.check()
	c := &p.claims[k]
	c.inFlight = true
	p.armTakeover(k, 0)
	p.arm(&c.renew, alarm{what: alarmRenew, claim: k}, p.sup.lease/3)
}

// endClaim records that this instance's run of k has come back.
func (p *Plan) endClaim(k claimKind) {
	c := &p.claims[k]
	c.inFlight = false
	c.renew.stop()
}

// armTakeover sets k's takeover timer for the lapse of another instance's
// pending claim, at the soonest after floor, or stops it when there is
// none to watch. Run loop only.
func (p *Plan) armTakeover(k claimKind, floor time.Duration) {
	p.owner.check()
	c := &p.claims[k]
	v := p.settled.Load()
	pending, l := leaseOf(k, v)
	if c.inFlight || !pending || !p.watches(k, v) {
		c.takeover.stop()
		return
	}
	p.arm(&c.takeover, alarm{what: alarmTakeover, claim: k}, max(l.Until.Sub(p.sup.now()), floor))
}

// takeOver runs when another instance's claim on k has lapsed by this
// instance's clock. The entry is read first: its owner may have renewed it
// (the watch is not waited for), or another instance taken it over; the
// compare-and-set of the claim settles any race that is left.
func (p *Plan) takeOver(k claimKind) {
	p.owner.check()
	if err := p.reload(); err != nil {
		p.sup.log.Warn("plan store: read a lapsed "+k.String()+" claim", "id", p.ID(), "err", err)
		p.armTakeover(k, p.sup.lease/3)
		return
	}
	p.maybe(k)
}

// renewClaim extends this instance's claim on k, in flight, by another
// lease. A claim taken over meanwhile (this instance was cut off from the
// store past its lease) is left to its new owner: this run goes on and its
// outcome is written all the same (two submissions post the same
// envelope, which the ledger takes at most once).
func (p *Plan) renewClaim(k claimKind) {
	p.owner.check()
	c := &p.claims[k]
	if !c.inFlight {
		return
	}
	p.arm(&c.renew, alarm{what: alarmRenew, claim: k}, p.sup.lease/3)
	p.writeClaim(k, "renew", p.renewed)
}

// releaseClaim, as the instance stops with k in flight, lets its claim
// lapse now, so that another instance takes it over at once rather than a
// lease later. Run loop only, from finish.
func (p *Plan) releaseClaim(k claimKind) {
	p.writeClaim(k, "release", p.released)
}

// writeClaim writes through the plan's state with k's claim changed by
// change (renewed, released), when it applies; verb names the change in
// the log of a write that failed. Run loop only.
func (p *Plan) writeClaim(k claimKind, verb string, change func(claimKind, *planState) (*planState, bool)) {
	p.owner.check()
	next, fx, err := p.step(func(cur *planState) (*planState, effects, error) {
		next, ok := change(k, cur)
		return writes(next, ok, 0)
	})
	if err != nil {
		p.sup.log.Warn("plan store: "+verb+" a "+k.String()+" claim", "id", p.ID(), "err", err)
		return
	}
	p.apply(next, fx)
}

// stopClaims ends the plan's claimed effects' timers as the plan ends; on
// shutdown (ErrStopped) a claim in flight is let go first, for another
// instance to go on with. Run loop only, from finish.
func (p *Plan) stopClaims(reason error) {
	for k := range claimKinds {
		c := &p.claims[k]
		if c.inFlight && reason == ErrStopped {
			p.releaseClaim(k)
		}
		c.renew.stop()
		c.takeover.stop()
	}
}
