package actor

import (
	"context"

	"github.com/closerelay/closerelay/plan"
)

// Event is what a subscriber receives: a state, or Expired when the plan ended
// by expiry (the stream then ends). A closed channel without Expired means the
// service is shutting down. An Expired event carries the plan's last state.
//
// plan.Submission, when set, is a submission's outcome (plan.SubmissionSubmitted,
// plan.SubmissionFailed or plan.SubmissionBlocked) not yet told to this subscriber; the event then carries
// the plan's current state too, which the subscriber may have seen already
// (same Version). An outcome is never dropped by the newest-wins rule: an
// event that replaces an undelivered one takes its Submission along unless
// it has a newer one.
type Event struct {
	State      State
	Expired    bool
	Submission *plan.Submission
	// Forward, when set, is a forward's outcome to tell (CONTRACT section
	// 16: event forwarded or forward_failed).
	Forward *plan.Forward
}

// Subscription is one stream's view of a plan: a one-slot, newest-state-wins feed.
type Subscription struct {
	// Immutable.
	plan *Plan

	// ch holds the newest event not yet received. The plan's run loop is its
	// only sender and its only closer, which is what lets offer replace a
	// stale event without ever waiting.
	ch chan Event
}

// Subscribe registers a subscriber; ErrTooManySubscribers at the cap,
// ErrNotFound if expired. The current state is delivered first.
func (p *Plan) Subscribe(ctx context.Context) (*Subscription, error) {
	sub := &Subscription{plan: p, ch: make(chan Event, 1)}
	ans := make(chan reply[struct{}], 1)
	_, err := askPlan(ctx, p, planRequest(subscribeReq{sub, ans}), ans)
	if err != nil {
		if ctx.Err() != nil {
			// The actor may have taken the request before ctx ended, and
			// then it served it in that turn; nobody will ever read sub, so
			// make sure it does not hold a slot. The leave is served after
			// that turn.
			sub.Close()
		}
		return nil, err
	}
	return sub, nil
}

// C delivers events; it is closed when the plan ends or after Close.
func (s *Subscription) C() <-chan Event { return s.ch }

// Close unsubscribes; safe to call more than once and after the plan ended.
// It hands the subscription to the plan's run loop, which removes it and
// closes C, so it waits for the loop's next turn at most (the loop never
// waits on anyone), and never for a plan that has ended: that plan closed C
// itself. When Close returns, the subscription no longer holds a slot.
func (s *Subscription) Close() {
	p := s.plan
	select {
	case p.leave <- s:
	case <-p.done:
	}
}

// offer puts ev in the slot, replacing an event the subscriber has not taken
// yet. It never waits: the plan's run loop is the only sender, so once the
// slot is emptied the send succeeds, and the loop ends by the second turn
// at most.
func (s *Subscription) offer(ev Event) {
	for {
		select {
		case s.ch <- ev:
			return
		default:
		}
		select {
		case stale := <-s.ch: // stale: the subscriber has not taken it yet
			if ev.Submission == nil {
				ev.Submission = stale.Submission
			}
			if ev.Forward == nil {
				ev.Forward = stale.Forward
			}
		default: // the subscriber took it meanwhile
		}
	}
}

// drop removes a subscription that Close handed over, unless it is not
// registered (closed twice, or its Subscribe was never served). Run loop
// only.
func (p *Plan) drop(s *Subscription) {
	p.owner.check()
	if _, ok := p.subs[s]; !ok {
		return
	}
	delete(p.subs, s)
	p.sup.metrics.SubscriberRemoved() // before close: a reader that saw C end sees the gauge right
	close(s.ch)
}

type subscribeReq struct {
	sub *Subscription
	ans chan<- reply[struct{}]
}

func (r subscribeReq) serve(p *Plan) {
	p.owner.check()
	s := r.sub
	// Every stream whose Close has returned is gone already, so a client
	// that reconnects at once finds its old slot free.
	if len(p.subs) >= p.sup.maxSubscribers {
		p.sup.metrics.SubscriberRejected()
		r.ans <- reply[struct{}]{err: ErrTooManySubscribers}
		return
	}
	p.subs[s] = struct{}{}
	p.sup.metrics.SubscriberAdded()
	ev := Event{State: p.settled.Load().state}
	// A submission that has ended is told to a subscriber that comes later
	// too (a reconnect included), so that no watcher misses the outcome.
	if sub := p.settled.Load().sub; sub.State == plan.SubmissionSubmitted || sub.State == plan.SubmissionFailed || sub.State == plan.SubmissionBlocked {
		ev.Submission = sub
	}
	if f := p.settled.Load().fwd; f.State == plan.ForwardForwarded || f.State == plan.ForwardFailed {
		ev.Forward = f
	}
	s.offer(ev)
	r.ans <- reply[struct{}]{}
}

func (r subscribeReq) refuse(err error) { r.ans <- reply[struct{}]{err: err} }
