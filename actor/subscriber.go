package actor

import (
	"context"
	"sync/atomic"
)

// Event is what a subscriber receives: a state, or Expired when the plan ended
// by expiry (the stream then ends). A closed channel without Expired means the
// service is shutting down. An Expired event carries the plan's last state.
type Event struct {
	State   State
	Expired bool
}

// Subscription is one stream's view of a plan: a one-slot, newest-state-wins feed.
type Subscription struct {
	// Immutable.
	plan *Plan

	// ch holds the newest event not yet received. The plan's run loop is its
	// only sender and its only closer, which is what lets offer replace a
	// stale event without ever waiting.
	ch chan Event

	// closed is set once, by Close, before the plan is told; the run loop
	// reads it so that a subscription closed while Subscribe was still in
	// flight is never registered.
	closed atomic.Bool
}

// Subscribe registers a subscriber; ErrTooManySubscribers at the cap,
// ErrNotFound if expired. The current state is delivered first.
func (p *Plan) Subscribe(ctx context.Context) (*Subscription, error) {
	sub := &Subscription{plan: p, ch: make(chan Event, 1)}
	ans := make(chan reply[struct{}], 1)
	_, err := ask(ctx, p.mailbox, planRequest(subscribeReq{sub, ans}), ans, p.done, p.done, p.gone)
	if err != nil {
		if ctx.Err() != nil {
			// The actor may have taken the request before ctx ended; nobody
			// will ever read sub, so make sure it does not hold a slot.
			sub.Close()
		}
		return nil, err
	}
	return sub, nil
}

// C delivers events; it is closed when the plan ends or after Close.
func (s *Subscription) C() <-chan Event { return s.ch }

// Close unsubscribes; safe to call more than once and after the plan ended.
// It never waits for the plan: the plan removes the subscriber and closes C
// at its next turn.
func (s *Subscription) Close() {
	if s.closed.Swap(true) {
		return
	}
	p := s.plan
	select {
	case <-p.done:
		return // the plan closed C itself when it ended
	default:
	}
	p.leaveMu.Lock()
	p.leaving = append(p.leaving, s)
	p.leaveMu.Unlock()
	// A bell already ringing will make the loop drain this entry too: the
	// append happened before the loop can take the list for that ring.
	select {
	case p.bell <- struct{}{}:
	default:
	}
}

// offer puts ev in the slot, replacing an event the subscriber has not taken
// yet. It never waits: the run loop is the only sender, so once the slot is
// emptied the send succeeds, and the loop ends by the second turn at most.
func (s *Subscription) offer(ev Event) {
	for {
		select {
		case s.ch <- ev:
			return
		default:
		}
		select {
		case <-s.ch: // stale: the subscriber has not taken it yet
		default: // the subscriber took it meanwhile
		}
	}
}

// dropLeavers removes the subscriptions that Close queued. Run loop only.
func (p *Plan) dropLeavers() {
	p.leaveMu.Lock()
	leaving := p.leaving
	p.leaving = nil
	p.leaveMu.Unlock()
	for _, s := range leaving {
		if _, ok := p.subs[s]; ok {
			delete(p.subs, s)
			p.sup.metrics.SubscriberRemoved() // before close: a reader that saw C end sees the gauge right
			close(s.ch)
		}
	}
}

type subscribeReq struct {
	sub *Subscription
	ans chan<- reply[struct{}]
}

func (r subscribeReq) serve(p *Plan) {
	s := r.sub
	if s.closed.Load() {
		close(s.ch)
		r.ans <- reply[struct{}]{err: context.Canceled}
		return
	}
	if len(p.subs) >= p.sup.maxSubscribers {
		// Streams that closed since the last turn still hold their slots
		// until drained; a client reconnecting at once must not see 503.
		p.dropLeavers()
	}
	if len(p.subs) >= p.sup.maxSubscribers {
		p.sup.metrics.SubscriberRejected()
		r.ans <- reply[struct{}]{err: ErrTooManySubscribers}
		return
	}
	p.subs[s] = struct{}{}
	p.sup.metrics.SubscriberAdded()
	s.offer(Event{State: p.view.Load().state})
	r.ans <- reply[struct{}]{}
}

func (r subscribeReq) refuse(err error) { r.ans <- reply[struct{}]{err: err} }
