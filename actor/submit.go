package actor

import (
	"context"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/plan"
)

// Submitter posts a submit-ready envelope to a network's ledger API until
// it has an outcome or ctx ends (CONTRACT section 10). *ledgerapi.Client is
// the production one.
type Submitter interface {
	Submit(ctx context.Context, n ledger.Network, envelopeXDR string, observe func(ledgerapi.SubmitAttempt)) ledgerapi.SubmitOutcome
}

// Preflighter runs the preflight of envelopeXDR, plan's submit-ready
// envelope, against the ledger as it stands (CONTRACT section 14): the
// account may have moved on since the publish. fwd is the plan's flow when
// the relay runs its forward, else nil: the forward is part of the
// preflight (section 18), and its destination may have gone or come to
// require a memo since. A failed read is an unchecked run, which does not
// hold the submission back.
type Preflighter interface {
	Recheck(ctx context.Context, plan *ledger.AdmittedPlan, envelopeXDR string, fwd *ledger.FlowForward) ledger.PreflightRun
}

// Preflight is the plan's latest preflight run: the one before its
// submission's first try once made, else the publish's.
func (p *Plan) Preflight() ledger.PreflightRun {
	var sub *plan.Submission
	if v := p.settled.Load(); v != nil {
		sub = v.sub
	}
	return p.latestPreflight(sub)
}

// Submission returns the plan's submission as it stands, without a round
// trip to the actor.
func (p *Plan) Submission() plan.Submission { return *p.settled.Load().sub }

// SetSubmit marks the plan for the relay to submit (publish's "submit":
// true); it cannot be unset. Once the plan is ready, the actor starts one
// submission of its submit-ready envelope. It answers ErrNotFound once the
// plan expired.
func (p *Plan) SetSubmit(ctx context.Context) error {
	if p.settled.Load().sub.Submit {
		return nil // already set, and never unset: nothing to change
	}
	ans := make(chan reply[struct{}], 1)
	_, err := askPlan(ctx, p, planRequest(setSubmitReq{ans}), ans)
	return err
}

type setSubmitReq struct{ ans chan<- reply[struct{}] }

func (r setSubmitReq) serve(p *Plan) {
	p.owner.check()
	next, fx, err := p.step(func(cur *planState) (*planState, effects, error) {
		// Set already: nothing to write, but the plan may be ready.
		next, ok := plan.MarkSubmit(cur.sub)
		if !ok {
			return nil, fxSubmit, nil
		}
		return cur.with(next), fxWrite | fxSubmit, nil
	})
	if err != nil {
		r.ans <- reply[struct{}]{err: err}
		return
	}
	p.apply(next, fx)
	r.ans <- reply[struct{}]{}
}

func (r setSubmitReq) refuse(err error) { r.ans <- reply[struct{}]{err: err} }

// maybeSubmit starts a submission when the plan's current version is
// ready, none of this instance's is in flight or has succeeded, and claim
// lets it. Run loop only; the submission runs on a goroutine of its own and
// reports through the mailbox.
//
// The claim is written through with compare-and-set first, so of the
// instances that see the plan ready at once exactly one wins and submits;
// the others see its claim (the write they lost to) and leave it until its
// lease lapses.
func (p *Plan) maybeSubmit() {
	p.owner.check()
	next, fx, err := p.step(func(cur *planState) (*planState, effects, error) {
		if p.claims[submitting].inFlight || p.submitted || !cur.sub.Submit || !cur.state.Ready {
			return nil, 0, nil
		}
		// The selection is made once per version and kept with it
		// (Plan.Ready shares it): at most 20 signatures to weigh and one
		// encoding.
		r, ok, err := p.readyOf(cur)
		if err != nil || !ok {
			return nil, 0, nil
		}
		next, ok := plan.ClaimSubmission(cur.sub, r.XDR, p.sup.instance, p.sup.now(), p.sup.lease)
		return writes(cur.with(next), ok, fxStartSubmission)
	})
	if err != nil {
		// The claim could not be written: the next change of the plan
		// tries again, or the takeover timer a third of a lease from now.
		p.sup.log.Warn("plan store: claim a submission", "id", p.ID(), "err", err)
		p.armTakeover(submitting, p.sup.lease/3)
		return
	}
	if fx == 0 {
		// Not before a fifteenth of a lease: a lapsed claim that could not
		// be taken (the plan not ready in this instance's view, say) is
		// looked at again then, not in a loop.
		p.armTakeover(submitting, p.sup.lease/15)
		return
	}
	p.apply(next, fx)
}

// startSubmission starts the submitter on the claim that v holds, this
// instance's, just written (fxStartSubmission), of the envelope it names.
// Run loop only.
func (p *Plan) startSubmission(v *planState) {
	p.owner.check()
	p.startClaim(submitting)
	network, envelope, sup := p.published.Network(), v.sub.Tried, p.sup
	ctx := p.effects
	// Counted in the Supervisor's WaitGroup, which this plan's own goroutine
	// holds a count of now, so that Stop waits for the submission too; it
	// ends soon after finish cancels ctx.
	published := p.published
	fwd := v.fwd.Flow.FlowForward()
	sup.running.Go(func() {
		var run *ledger.PreflightRun
		if sup.preflighter != nil {
			r := sup.preflighter.Recheck(ctx, published, envelope, fwd)
			run = &r
		}
		var out ledgerapi.SubmitOutcome
		if run != nil && run.State == ledger.PreflightBlocked {
			// Never posted: a refused close would spend its fee and its
			// sequence number, and every signature on it.
			b := run.Blockers[0]
			out = ledgerapi.SubmitOutcome{State: ledgerapi.SubmitFailed, Code: b.Code, Reason: b.Reason}
		} else {
			out = sup.submitter.Submit(ctx, network, envelope, func(ledgerapi.SubmitAttempt) {
				sup.metrics.Submission(metrics.SubmissionRetried)
			})
		}
		p.tell(planRequest(submittedReq{out, run}))
	})
}

// submittedReq is a submission's outcome, posted by its goroutine.
type submittedReq struct {
	out ledgerapi.SubmitOutcome
	run *ledger.PreflightRun // the run before the try; nil when none ran
}

func (r submittedReq) serve(p *Plan) {
	p.owner.check()
	p.endClaim(submitting)
	out := r.out
	switch out.State {
	case ledgerapi.SubmitSubmitted:
		p.submitted = true
		p.sup.metrics.Submission(metrics.SubmissionSubmitted)
	case ledgerapi.SubmitFailed:
		p.sup.metrics.Submission(metrics.SubmissionFailed)
	default:
		// Abandoned: only the plan's end cancels a submission, and then
		// this message is not served. Nothing to tell.
		return
	}
	var told *plan.Submission
	next, fx, err := p.step(func(cur *planState) (*planState, effects, error) {
		sub, ok := plan.SettleSubmission(cur.sub, outcomeOf(out), r.run)
		told = sub
		if !ok {
			return nil, 0, nil
		}
		v, fx := cur.with(sub), fxWrite|settled(sub)
		// A close submitted with a flow has its forward claimed by the
		// same write, so that status.forward is pending from the moment
		// the submission is told (CONTRACT section 16).
		if sub.State == plan.SubmissionSubmitted && p.sup.forwarder != nil && !p.claims[forwarding].inFlight {
			if f, claimed := plan.ClaimForward(cur.fwd, sub, p.sup.instance, p.sup.now(), p.sup.lease, p.sup.budget); claimed {
				v, fx = v.withForward(f), fx&^fxForward|fxStartForward
			}
		}
		return v, fx, nil
	})
	if err != nil {
		// The outcome happened all the same: this instance tells it; the
		// others learn it from the next write that gets through. The
		// forward is claimed again, through the store.
		p.sup.log.Warn("plan store: write a submission outcome", "id", p.ID(), "err", err)
		if told != nil {
			next, fx = p.settled.Load().with(told), settled(told)
		}
	}
	if told == nil {
		p.sup.log.Info("plan submission", "id", p.ID(), "state", plan.SubmissionFailed, "code", out.Code,
			"tries", out.Tries, "note", "another instance submitted it first")
		return
	}
	p.sup.log.Info("plan submission", "id", p.ID(), "state", told.State, "hash", told.Hash,
		"ledger", told.Ledger, "code", told.Code, "tries", out.Tries)
	p.apply(next, fx)
}

// outcomeOf is a submitter's outcome as the submission's transitions take
// it: submitted or failed, or "" when abandoned.
func outcomeOf(out ledgerapi.SubmitOutcome) plan.Submission {
	switch out.State {
	case ledgerapi.SubmitSubmitted:
		return plan.Submission{State: plan.SubmissionSubmitted, Hash: out.Hash, Ledger: int64(out.Ledger)}
	case ledgerapi.SubmitFailed:
		return plan.Submission{State: plan.SubmissionFailed, Hash: out.Hash, Code: out.Code, Reason: out.Reason}
	}
	return plan.Submission{}
}

// settled is what follows a submission's outcome sub, once the loop has
// it: subscribers are told; a success starts the forward, if the plan has
// one; a failure tries the envelope again if it has changed meanwhile.
func settled(sub *plan.Submission) effects {
	switch sub.State {
	case plan.SubmissionSubmitted:
		return fxTellSubmission | fxForward
	case plan.SubmissionFailed, plan.SubmissionBlocked:
		return fxTellSubmission | fxSubmit
	}
	return fxTellSubmission
}

func (submittedReq) refuse(error) {}

// broadcastSubmission offers a submission outcome, with the current state,
// to every subscriber.
func (p *Plan) broadcastSubmission(sub *plan.Submission) {
	p.owner.check()
	ev := Event{State: p.settled.Load().state, Submission: sub}
	for s := range p.subs {
		s.offer(ev)
	}
}
