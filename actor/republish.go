package actor

import (
	"context"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/plan"
)

// Republish is a re-publish of the plan (guard 4) in one step of its
// state: the admitted signatures merged, submit set when asked (it is never
// unset), and flow kept when the plan has none. A flow other than the one
// the plan keeps refuses all of it with ErrFlowConflict before anything is
// merged. Done as one step rather than Merge, SetSubmit and SetFlow in turn
// so that no flow set meanwhile can be missed: by another request on this
// instance, or by another instance, whose write makes this one's fail and
// the step run again on the stored state (Plan.step).
//
// A re-publish that changes nothing is answered from the published
// version, without a round trip to the plan's loop, as Merge answers a
// replay.
func (p *Plan) Republish(ctx context.Context, admitted []ledger.Admitted, submit bool, flow *plan.Flow) error {
	v, err := p.current(ctx)
	if err != nil {
		return err
	}
	if flow != nil && v.fwd.Flow != nil && !v.fwd.Flow.Same(*flow) {
		return ErrFlowConflict
	}
	if v.holdsAll(admitted) && (!submit || v.sub.Submit) && (flow == nil || v.fwd.Flow != nil) {
		p.sup.metrics.Signatures(metrics.SignatureDuplicate, len(admitted))
		return nil
	}
	ans := make(chan reply[struct{}], 1)
	_, err = askPlan(ctx, p, planRequest(republishReq{admitted, submit, flow, ans}), ans)
	return err
}

type republishReq struct {
	admitted []ledger.Admitted
	submit   bool
	flow     *plan.Flow
	ans      chan<- reply[struct{}]
}

func (r republishReq) serve(p *Plan) {
	p.owner.check()
	var fresh, duplicates int
	next, fx, err := p.step(func(cur *planState) (*planState, effects, error) {
		next, fx, f, d, err := republish(&p.planParts, cur, r.admitted, r.submit, r.flow)
		fresh, duplicates = f, d
		return next, fx, err
	})
	if err != nil {
		r.ans <- reply[struct{}]{err: err}
		return
	}
	m := p.sup.metrics
	m.Signatures(metrics.SignatureDuplicate, duplicates)
	m.Signatures(metrics.SignatureAdmitted, fresh)
	p.apply(next, fx)
	r.ans <- reply[struct{}]{}
}

func (r republishReq) refuse(err error) { r.ans <- reply[struct{}]{err: err} }

// republish is cur having taken in a re-publish: flow checked first
// (ErrFlowConflict when cur keeps another, and then nothing else is
// looked at), then admitted merged (merge), submit marked, flow kept. Its
// effects are merge's with a write when submit or the flow changed, and
// fxSubmit and fxForward when either was asked: the plan may be ready to
// submit, or its close submitted already and its forward due. next is nil
// when nothing changed.
func republish(k *planParts, cur *planState, admitted []ledger.Admitted, submit bool, flow *plan.Flow) (next *planState, fx effects, fresh, duplicates int, err error) {
	var fwd *plan.Forward
	if flow != nil {
		f, changed, err := plan.WithFlow(cur.fwd, *flow)
		if err != nil {
			return nil, 0, 0, 0, err
		}
		if changed {
			fwd = f
		}
		fx |= fxForward
	}
	merged, mfx, fresh, duplicates, err := merge(k, cur, admitted)
	if err != nil {
		return nil, 0, 0, 0, err
	}
	fx |= mfx
	next = cur
	if merged != nil {
		next = merged
	}
	if submit {
		if s, changed := plan.MarkSubmit(next.sub); changed {
			next, fx = next.with(s), fx|fxWrite
		}
		fx |= fxSubmit
	}
	if fwd != nil {
		next, fx = next.withForward(fwd), fx|fxWrite
	}
	if next == cur {
		next = nil
	}
	return next, fx, fresh, duplicates, nil
}
