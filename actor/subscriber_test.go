package actor

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/metrics"
	"go.uber.org/goleak"
)

func TestSubscribeDeliversCurrentState(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		s := start(t, Options{})
		f := newFixture(t, 1)
		p := create(t, s, f, time.Now().Add(ledger.SigningWindow))
		if _, _, err := p.Merge(ctx, f.admitted(1)); err != nil {
			t.Fatal(err)
		}
		if _, _, err := p.Merge(ctx, f.admitted(2)); err != nil {
			t.Fatal(err)
		}
		sub, err := p.Subscribe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		events, _ := drain(sub.C())
		if len(events) != 1 || events[0].Expired || events[0].State.Version != 3 {
			t.Fatalf("on subscribe got %+v, want version 3 only", events)
		}
		checkEnvelope(t, f, events[0].State, 0, 1, 2)
	})
}

// TestSubscriberCap: the 50th subscriber is admitted, the 51st refused, and
// a slot closed a moment ago is free at once.
func TestSubscriberCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		m := metrics.New()
		s := start(t, Options{MaxSubscribers: DefaultMaxSubscribers, Metrics: m})
		p := create(t, s, newFixture(t, 1), time.Now().Add(ledger.SigningWindow))
		var subs []*Subscription
		for i := range DefaultMaxSubscribers {
			sub, err := p.Subscribe(ctx)
			if err != nil {
				t.Fatalf("subscriber %d: %v", i+1, err)
			}
			subs = append(subs, sub)
		}
		if sub, err := p.Subscribe(ctx); !errors.Is(err, ErrTooManySubscribers) || sub != nil {
			t.Fatalf("subscriber 51 = %v, %v; want ErrTooManySubscribers", sub, err)
		}
		if v := metricValue(t, m, "closerelay_stream_rejected_total"); v != 1 {
			t.Errorf("stream_rejected_total = %v, want 1", v)
		}
		if v := metricValue(t, m, "closerelay_stream_subscribers"); v != DefaultMaxSubscribers {
			t.Errorf("stream_subscribers = %v, want %d", v, DefaultMaxSubscribers)
		}
		subs[17].Close()
		subs[17].Close() // idempotent
		again, err := p.Subscribe(ctx)
		if err != nil {
			t.Fatalf("subscribe right after a Close at the cap = %v", err)
		}
		subs[17] = again
		if ev, open := <-again.C(); !open || ev.State.Version != 1 {
			t.Errorf("the new subscriber's first event = %+v, %v; want version 1", ev, open)
		}
		for _, sub := range subs {
			sub.Close()
		}
		synctest.Wait()
		if v := metricValue(t, m, "closerelay_stream_subscribers"); v != 0 {
			t.Errorf("stream_subscribers after closing all = %v, want 0", v)
		}
	})
}

// TestStalledSubscriber: a subscriber that never reads delays neither the
// merges nor a reading subscriber, and finds only the newest state.
func TestStalledSubscriber(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		s := start(t, Options{})
		f := newFixture(t, 1)
		p := create(t, s, f, time.Now().Add(ledger.SigningWindow))
		stalled, err := p.Subscribe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer stalled.Close()
		reader, err := p.Subscribe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer reader.Close()
		var seen []uint64
		var mu sync.Mutex
		go func() {
			for ev := range reader.C() {
				mu.Lock()
				seen = append(seen, ev.State.Version)
				mu.Unlock()
			}
		}()

		synctest.Wait() // the reader has taken version 1

		start := time.Now()
		const merges = 10
		for i := 1; i <= merges; i++ {
			if _, _, err := p.Merge(ctx, f.admitted(i)); err != nil {
				t.Fatal(err)
			}
			synctest.Wait() // the reader takes each version before the next merge
		}
		if d := time.Since(start); d != 0 {
			t.Errorf("merges took %v of bubble time", d)
		}
		mu.Lock()
		if len(seen) != merges+1 || seen[merges] != merges+1 {
			t.Errorf("reading subscriber saw versions %v, want 1..%d", seen, merges+1)
		}
		mu.Unlock()
		events, closed := drain(stalled.C())
		if closed || len(events) != 1 || events[0].State.Version != merges+1 {
			t.Fatalf("stalled subscriber holds %d events (closed %v), want only version %d", len(events), closed, merges+1)
		}
		checkEnvelope(t, f, events[0].State, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
	})
}

// TestExpiryEndsSubscribers: at expiry every subscriber gets Expired (a
// stalled one instead of its pending state) and then the end of its stream.
func TestExpiryEndsSubscribers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		m := metrics.New()
		s := start(t, Options{Metrics: m})
		f := newFixture(t, 1)
		p := create(t, s, f, time.Now().Add(time.Hour))
		reader, err := p.Subscribe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		stalled, err := p.Subscribe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		<-reader.C()
		if _, _, err := p.Merge(ctx, f.admitted(1)); err != nil {
			t.Fatal(err)
		}
		<-reader.C()

		time.Sleep(time.Hour)
		synctest.Wait()
		for name, sub := range map[string]*Subscription{"reader": reader, "stalled": stalled} {
			events, closed := drain(sub.C())
			if len(events) != 1 || !events[0].Expired || events[0].State.ID != f.id || !closed {
				t.Errorf("%s: got %+v (closed %v), want one Expired for %s, then the end", name, events, closed, f.id)
			}
			sub.Close() // after the end: no double count
		}
		if _, err := s.Lookup(ctx, f.id); !errors.Is(err, ErrNotFound) {
			t.Errorf("Lookup after expiry = %v", err)
		}
		if _, err := p.Subscribe(ctx); !errors.Is(err, ErrNotFound) {
			t.Errorf("Subscribe after expiry = %v", err)
		}
		if _, _, err := p.Merge(ctx, f.admitted(2)); !errors.Is(err, ErrNotFound) {
			t.Errorf("Merge after expiry = %v", err)
		}
		if _, _, err := p.Merge(ctx, f.admitted(1)); !errors.Is(err, ErrNotFound) {
			t.Errorf("replay Merge after expiry = %v", err)
		}
		if _, err := p.Snapshot(ctx); !errors.Is(err, ErrNotFound) {
			t.Errorf("Snapshot after expiry = %v", err)
		}
		synctest.Wait()
		wantMetrics(t, m, map[string]float64{
			"closerelay_stream_subscribers":  0,
			"closerelay_plans_expired_total": 1,
			"closerelay_plans_open":          0,
		})
	})
}

// TestNoGoroutineLeftAfterExpiry: expired plans leave no goroutine behind,
// and neither do stream readers waiting on them.
func TestNoGoroutineLeftAfterExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := start(t, Options{PlansPerAccount: 20}) // 20 closes of one account
		var readers atomic.Int64                    // the stream readers still reading
		for i := range 20 {
			p := create(t, s, newFixtureSigned(t, int64(i+1), 1), time.Now().Add(time.Duration(i+1)*time.Minute))
			for range 3 {
				sub, err := p.Subscribe(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				readers.Add(1)
				go func() {
					defer readers.Add(-1)
					readUntilClosed(sub)
				}()
			}
		}
		synctest.Wait()
		// The counts see them while they live, so their zeros below mean gone.
		if n, m := s.Loops(), readers.Load(); n != 20 || m != 60 {
			t.Fatalf("before expiry: %d plan loops and %d readers, want 20 and 60", n, m)
		}
		time.Sleep(time.Hour)
		synctest.Wait()
		if n, m := s.Loops(), readers.Load(); n != 0 || m != 0 {
			t.Errorf("after every plan expired: %d plan loops and %d readers still running, want none", n, m)
		}
		if n, _ := s.Open(t.Context()); n != 0 {
			t.Errorf("Open = %d", n)
		}
	})
}

// readUntilClosed is a stream reader: it leaves when the plan ends C.
func readUntilClosed(sub *Subscription) {
	defer sub.Close()
	for range sub.C() {
	}
}

// TestSubscribeCyclesNoLeak: 1,000 streams opened and closed leave no
// goroutine, no slot and no gauge behind. It runs on the real scheduler, as
// the HTTP layer does, with a reader per stream that leaves when C closes.
func TestSubscribeCyclesNoLeak(t *testing.T) {
	defer goleak.VerifyNone(t)
	ctx := context.Background()
	m := metrics.New()
	s := NewSupervisor(solo(Options{Metrics: m}))
	f := newFixture(t, 1)
	p := create(t, s, f, time.Now().Add(ledger.SigningWindow))

	var readers sync.WaitGroup
	for i := range 1000 {
		sub, err := p.Subscribe(ctx)
		if err != nil {
			t.Fatalf("cycle %d: %v", i, err)
		}
		readers.Go(func() {
			for range sub.C() {
			}
		})
		if i%100 == 0 {
			if _, _, err := p.Merge(ctx, f.admitted(1+i/100)); err != nil {
				t.Fatal(err)
			}
		}
		sub.Close()
	}
	readers.Wait() // every C was closed after its Close
	if v := metricValue(t, m, "closerelay_stream_subscribers"); v != 0 {
		t.Errorf("stream_subscribers after 1,000 cycles = %v, want 0", v)
	}
	var subs []*Subscription
	for i := range DefaultMaxSubscribers {
		sub, err := p.Subscribe(ctx)
		if err != nil {
			t.Fatalf("subscriber %d after the cycles: %v", i+1, err)
		}
		subs = append(subs, sub)
	}
	if err := s.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	for _, sub := range subs {
		if _, closed := drain(sub.C()); !closed {
			t.Fatal("a subscriber's channel is open after Stop")
		}
	}
}
