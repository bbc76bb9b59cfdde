package actor

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/planstore"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func TestCreateLookupSnapshot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		m := metrics.New()
		s := start(t, Options{Metrics: m})
		f := newFixture(t, 1)
		expiry := time.Now().Add(ledger.SigningWindow)
		published := f.plan(t, expiry, 0)
		p, created, err := s.Create(ctx, published)
		if err != nil || !created {
			t.Fatalf("Create: created=%v err=%v", created, err)
		}

		// Taken as it is: the plan is the admitted plan's.
		if p.ID() != f.id || p.Canonical() != published.Canonical() || !p.Expiry().Equal(expiry) {
			t.Fatalf("ID/Canonical/Expiry = %q/%p/%v, want %q/%p/%v", p.ID(), p.Canonical(), p.Expiry(), f.id, published.Canonical(), expiry)
		}
		got, err := s.Lookup(ctx, f.id)
		if err != nil || got != p {
			t.Fatalf("Lookup = %p, %v; want %p", got, err, p)
		}
		st, err := p.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := State{ID: f.id, Network: ledger.Testnet, XDR: published.Canonical().XDR, Signers: addresses(0), Version: 1}
		if !equalState(st, want) {
			t.Fatalf("Snapshot = %+v\nwant %+v", st, want)
		}
		if i, ok := p.Known(f.sigs[0].Sig.Signature); !ok || i != 0 {
			t.Errorf("Known(sig 0) = %d, %v", i, ok)
		}
		if _, ok := p.Known(f.sigs[1].Sig.Signature); ok {
			t.Error("Known(sig 1) before it was merged")
		}
		if n, err := s.Open(ctx); n != 1 || err != nil {
			t.Errorf("Open = %d, %v", n, err)
		}
		if _, err := s.Lookup(ctx, newFixtureSigned(t, 2, 1).id); !errors.Is(err, ErrNotFound) {
			t.Errorf("Lookup(unknown) = %v, want ErrNotFound", err)
		}
		if v := metricValue(t, m, "closerelay_plans_created_total"); v != 1 {
			t.Errorf("plans_created_total = %v", v)
		}
		if v := metricValue(t, m, "closerelay_plans_open"); v != 1 {
			t.Errorf("plans_open = %v", v)
		}
	})
}

// TestCreateRefusesNoPlan: ledger.AdmitPlan is the only maker of a plan
// Create takes; a nil or zero one is a caller's bug, refused without a plan.
func TestCreateRefusesNoPlan(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := start(t, Options{})
		for name, published := range map[string]*ledger.AdmittedPlan{"nil": nil, "zero": {}} {
			if p, created, err := s.Create(t.Context(), published); err == nil || p != nil || created {
				t.Errorf("%s: Create = %p, %v, %v; want an error", name, p, created, err)
			}
		}
		if n, _ := s.Open(t.Context()); n != 0 {
			t.Errorf("Open = %d after refused creates", n)
		}
	})
}

// TestCapacity fills the real production limit: the 500th plan is created,
// the 501st is refused at both guards, and an expiry frees a slot.
func TestCapacity(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		m := metrics.New()
		// One account closed 501 ways: the per-account limit is lifted
		// so that only the relay's is tested here.
		s := start(t, Options{Capacity: DefaultCapacity, PlansPerAccount: DefaultCapacity + 1, Metrics: m})
		fixtures := make([]*fixture, DefaultCapacity+1)
		for i := range fixtures {
			fixtures[i] = newFixtureSigned(t, int64(i+1), 1)
		}
		now := time.Now()
		create(t, s, fixtures[0], now.Add(time.Hour)) // the first to go
		for _, f := range fixtures[1 : DefaultCapacity-1] {
			create(t, s, f, now.Add(ledger.SigningWindow))
		}
		// 499 open: guard 5 passes and the 500th plan is created.
		if err := s.CheckCapacity(ctx, keys[0].Address()); err != nil {
			t.Fatalf("CheckCapacity at 499 = %v", err)
		}
		create(t, s, fixtures[DefaultCapacity-1], now.Add(ledger.SigningWindow))

		last := fixtures[DefaultCapacity]
		if err := s.CheckCapacity(ctx, keys[0].Address()); !errors.Is(err, ErrCapacity) {
			t.Fatalf("CheckCapacity at 500 = %v, want ErrCapacity", err)
		}
		if p, created, err := s.Create(ctx, last.plan(t, now.Add(ledger.SigningWindow))); !errors.Is(err, ErrCapacity) || p != nil || created {
			t.Fatalf("Create of the 501st = %p, %v, %v; want ErrCapacity", p, created, err)
		}
		// A re-publish of an open id is a merge, not a new plan: never refused.
		existing, err := s.Lookup(ctx, fixtures[7].id)
		if err != nil {
			t.Fatal(err)
		}
		if p, created, err := s.Create(ctx, fixtures[7].plan(t, now.Add(ledger.SigningWindow))); err != nil || created || p != existing {
			t.Fatalf("Create of an open id at capacity = %p, %v, %v; want %p, false, nil", p, created, err, existing)
		}
		if v := metricValue(t, m, "closerelay_plans_capacity_refused_total"); v != 2 {
			t.Errorf("capacity_refused_total = %v, want 2 (guard 5 and guard 8)", v)
		}
		if n, _ := s.Open(ctx); n != DefaultCapacity {
			t.Fatalf("Open = %d, want %d", n, DefaultCapacity)
		}

		time.Sleep(time.Hour)
		synctest.Wait()
		if n, _ := s.Open(ctx); n != DefaultCapacity-1 {
			t.Fatalf("Open after one expiry = %d, want %d", n, DefaultCapacity-1)
		}
		if err := s.CheckCapacity(ctx, keys[0].Address()); err != nil {
			t.Fatalf("CheckCapacity after one expiry = %v", err)
		}
		create(t, s, last, time.Now().Add(ledger.SigningWindow))
		wantMetrics(t, m, map[string]float64{
			"closerelay_plans_created_total": DefaultCapacity + 1,
			"closerelay_plans_expired_total": 1,
			"closerelay_plans_open":          DefaultCapacity,
		})
	})
}

// TestCapacitySweepsExpired: at the limit, plans past their expiry whose
// timers have not fired yet do not hold slots.
func TestCapacitySweepsExpired(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clock := &skewedClock{}
		m := metrics.New()
		s := start(t, Options{Capacity: 2, Now: clock.now, Metrics: m})
		now := clock.now()
		create(t, s, newFixtureSigned(t, 1, 1), now.Add(time.Hour))
		create(t, s, newFixtureSigned(t, 2, 1), now.Add(ledger.SigningWindow))
		if err := s.CheckCapacity(t.Context(), keys[0].Address()); !errors.Is(err, ErrCapacity) {
			t.Fatalf("CheckCapacity = %v, want ErrCapacity", err)
		}
		clock.advance(2 * time.Hour)
		if err := s.CheckCapacity(t.Context(), keys[0].Address()); err != nil {
			t.Fatalf("CheckCapacity past the first expiry = %v", err)
		}
		create(t, s, newFixtureSigned(t, 3, 1), clock.now().Add(ledger.SigningWindow))
		time.Sleep(time.Hour) // the swept plan's own timer fires now
		synctest.Wait()
		if v := metricValue(t, m, "closerelay_plans_expired_total"); v != 1 {
			t.Errorf("plans_expired_total = %v, want 1", v)
		}
	})
}

// TestConcurrentCreateOneID: racing publishes of one new id end as one plan;
// the losers are handed that plan to merge into.
func TestConcurrentCreateOneID(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := metrics.New()
		s := start(t, Options{Metrics: m})
		f := newFixture(t, 1)
		expiry := time.Now().Add(ledger.SigningWindow)
		const racers = 16
		var (
			wg      sync.WaitGroup
			plans   [racers]*Plan
			created [racers]bool
			errs    [racers]error
		)
		for i := range racers {
			wg.Go(func() {
				// Each racer publishes with a different signer, as two
				// co-signers publishing the same close would.
				plans[i], created[i], errs[i] = s.Create(t.Context(), f.plan(t, expiry, i))
			})
		}
		wg.Wait()
		winners := 0
		for i := range racers {
			if errs[i] != nil {
				t.Fatalf("racer %d: %v", i, errs[i])
			}
			if plans[i] != plans[0] {
				t.Fatalf("racer %d got plan %p, racer 0 got %p", i, plans[i], plans[0])
			}
			if created[i] {
				winners++
			}
		}
		if winners != 1 {
			t.Fatalf("%d racers created the plan, want 1", winners)
		}
		// The losers merge, as the publish handler does.
		for i := range racers {
			if !created[i] {
				if _, _, err := plans[i].Merge(t.Context(), f.admitted(i)); err != nil {
					t.Fatal(err)
				}
			}
		}
		st, _ := plans[0].Snapshot(t.Context())
		if len(st.Signers) != racers {
			t.Errorf("plan has %d signers after all merges, want %d", len(st.Signers), racers)
		}
		if n, _ := s.Open(t.Context()); n != 1 {
			t.Errorf("Open = %d, want 1", n)
		}
		if v := metricValue(t, m, "closerelay_plans_created_total"); v != 1 {
			t.Errorf("plans_created_total = %v, want 1", v)
		}
	})
}

// TestLookupAtExpiryBoundary: a plan is live until the instant before its
// expiry and gone at that instant, whichever of the timer and the lookup is
// served first, and it is counted expired once.
func TestLookupAtExpiryBoundary(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		m := metrics.New()
		s := start(t, Options{Metrics: m})
		f := newFixtureSigned(t, 1, 1)
		p := create(t, s, f, time.Now().Add(time.Hour))

		time.Sleep(time.Hour - time.Nanosecond)
		if got, err := s.Lookup(ctx, f.id); err != nil || got != p {
			t.Fatalf("Lookup 1ns before expiry = %p, %v", got, err)
		}
		if _, err := p.Snapshot(ctx); err != nil {
			t.Fatalf("Snapshot 1ns before expiry = %v", err)
		}
		time.Sleep(time.Nanosecond) // exactly the expiry: the timer fires now too
		if _, err := s.Lookup(ctx, f.id); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Lookup at expiry = %v, want ErrNotFound", err)
		}
		if _, err := p.Snapshot(ctx); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Snapshot at expiry = %v, want ErrNotFound", err)
		}
		synctest.Wait()
		wantMetrics(t, m, map[string]float64{"closerelay_plans_expired_total": 1, "closerelay_plans_open": 0})
	})
}

// TestLookupSweepsBeforeTimer: when the clock says a plan is past expiry but
// its timer has not fired, Lookup sweeps it, its subscribers are ended as by
// expiry, and the later timer does not count it again.
func TestLookupSweepsBeforeTimer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		clock := &skewedClock{}
		m := metrics.New()
		s := start(t, Options{Now: clock.now, Metrics: m})
		f := newFixture(t, 1)
		p := create(t, s, f, clock.now().Add(time.Hour))
		sub, err := p.Subscribe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()

		clock.advance(time.Hour)
		if _, err := s.Lookup(ctx, f.id); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Lookup past expiry = %v, want ErrNotFound", err)
		}
		synctest.Wait()
		events, closed := drain(sub.C())
		if len(events) != 1 || !events[0].Expired || !closed {
			t.Fatalf("subscriber saw %+v (closed %v), want one Expired then the end", events, closed)
		}
		if _, _, err := p.Merge(ctx, f.admitted(1)); !errors.Is(err, ErrNotFound) {
			t.Errorf("Merge on a swept plan = %v, want ErrNotFound", err)
		}
		time.Sleep(2 * time.Hour) // well past the plan's own timer
		synctest.Wait()
		wantMetrics(t, m, map[string]float64{"closerelay_plans_expired_total": 1, "closerelay_plans_open": 0})
	})
}

// TestPlanPastExpiryBeforeTimer: a handle held past the expiry answers
// ErrNotFound on every path, the fast ones included, even before the timer
// fires, and its subscribers are ended as by expiry.
func TestPlanPastExpiryBeforeTimer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		clock := &skewedClock{}
		m := metrics.New()
		s := start(t, Options{Now: clock.now, Metrics: m})
		f := newFixture(t, 1)
		p := create(t, s, f, clock.now().Add(time.Hour))
		sub, err := p.Subscribe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()

		clock.advance(time.Hour)
		if _, err := p.Snapshot(ctx); !errors.Is(err, ErrNotFound) {
			t.Errorf("Snapshot past expiry = %v", err)
		}
		if _, _, err := p.Merge(ctx, f.admitted(0)); !errors.Is(err, ErrNotFound) {
			t.Errorf("replay Merge past expiry = %v", err)
		}
		synctest.Wait()
		if events, closed := drain(sub.C()); len(events) != 1 || !events[0].Expired || !closed {
			t.Errorf("subscriber saw %+v (closed %v), want one Expired then the end", events, closed)
		}
		if v := metricValue(t, m, "closerelay_plans_expired_total"); v != 1 {
			t.Errorf("plans_expired_total = %v, want 1", v)
		}
		if _, err := s.Lookup(ctx, f.id); !errors.Is(err, ErrNotFound) {
			t.Errorf("Lookup = %v", err)
		}
	})
}

// TestCreateReplacesExpiredPlan: a publish of an id whose plan is past
// expiry creates a new plan instead of merging into the dead one.
func TestCreateReplacesExpiredPlan(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clock := &skewedClock{}
		m := metrics.New()
		s := start(t, Options{Now: clock.now, Metrics: m})
		f := newFixture(t, 1)
		old := create(t, s, f, clock.now().Add(time.Hour))
		clock.advance(time.Hour)
		p := create(t, s, f, clock.now().Add(time.Hour), 1)
		if p == old {
			t.Fatal("Create returned the expired plan")
		}
		time.Sleep(time.Hour - time.Nanosecond) // the old plan's timer has fired; the new one has not
		synctest.Wait()
		if got, err := s.Lookup(t.Context(), f.id); err != nil || got != p {
			t.Fatalf("Lookup = %p, %v; want the new plan %p", got, err, p)
		}
		wantMetrics(t, m, map[string]float64{
			"closerelay_plans_created_total": 2,
			"closerelay_plans_expired_total": 1,
			"closerelay_plans_open":          1,
		})
	})
}

// TestStop: streams end without Expired, every later call answers
// ErrStopped, and Stop is idempotent.
func TestStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		m := metrics.New()
		s := NewSupervisor(solo(Options{Metrics: m}))
		f1, f2 := newFixture(t, 1), newFixture(t, 2)
		expiry := time.Now().Add(ledger.SigningWindow)
		p1, p2 := create(t, s, f1, expiry), create(t, s, f2, expiry)
		var subs []*Subscription
		for _, p := range []*Plan{p1, p1, p2} {
			sub, err := p.Subscribe(ctx)
			if err != nil {
				t.Fatal(err)
			}
			subs = append(subs, sub)
		}
		if _, _, err := p1.Merge(ctx, f1.admitted(1)); err != nil {
			t.Fatal(err)
		}

		if err := s.Stop(ctx); err != nil {
			t.Fatalf("Stop = %v", err)
		}
		for i, sub := range subs {
			events, closed := drain(sub.C())
			if !closed {
				t.Errorf("subscriber %d: channel still open after Stop", i)
			}
			for _, ev := range events {
				if ev.Expired {
					t.Errorf("subscriber %d: Expired on shutdown", i)
				}
			}
			sub.Close() // after the end: must neither block nor count again
		}

		if _, err := s.Lookup(ctx, f1.id); !errors.Is(err, ErrStopped) {
			t.Errorf("Lookup after Stop = %v", err)
		}
		if err := s.CheckCapacity(ctx, keys[0].Address()); !errors.Is(err, ErrStopped) {
			t.Errorf("CheckCapacity after Stop = %v", err)
		}
		if _, err := s.Open(ctx); !errors.Is(err, ErrStopped) {
			t.Errorf("Open after Stop = %v", err)
		}
		if _, _, err := s.Create(ctx, newFixture(t, 3).plan(t, expiry)); !errors.Is(err, ErrStopped) {
			t.Errorf("Create after Stop = %v", err)
		}
		if _, err := p1.Snapshot(ctx); !errors.Is(err, ErrStopped) {
			t.Errorf("Snapshot after Stop = %v", err)
		}
		if _, _, err := p1.Merge(ctx, f1.admitted(2)); !errors.Is(err, ErrStopped) {
			t.Errorf("Merge after Stop = %v", err)
		}
		if _, err := p2.Subscribe(ctx); !errors.Is(err, ErrStopped) {
			t.Errorf("Subscribe after Stop = %v", err)
		}
		if err := s.Stop(ctx); err != nil {
			t.Errorf("second Stop = %v", err)
		}
		wantMetrics(t, m, map[string]float64{
			"closerelay_plans_open":          0,
			"closerelay_plans_expired_total": 0,
			"closerelay_stream_subscribers":  0,
		})
	})
}

// TestCancelledContext: no call hangs on a cancelled context, whether the
// actor is healthy, never takes the request, or takes it and never answers.
func TestCancelledContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := start(t, Options{})
		f := newFixture(t, 1)
		expiry := time.Now().Add(ledger.SigningWindow)
		p := create(t, s, f, expiry)

		cancelled, cancel := context.WithCancel(t.Context())
		cancel()
		check := func(what string, err error) {
			t.Helper()
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s with a cancelled ctx = %v, want context.Canceled", what, err)
			}
		}
		_, err := s.Lookup(cancelled, f.id)
		check("Lookup", err)
		check("CheckCapacity", s.CheckCapacity(cancelled, keys[0].Address()))
		_, err = s.Open(cancelled)
		check("Open", err)
		_, _, err = s.Create(cancelled, newFixture(t, 2).plan(t, expiry))
		check("Create", err)
		_, err = p.Snapshot(cancelled)
		check("Snapshot", err)
		_, _, err = p.Merge(cancelled, f.admitted(1))
		check("Merge", err)
		_, err = p.Subscribe(cancelled)
		check("Subscribe", err)
	})

	synctest.Test(t, func(t *testing.T) {
		// A supervisor whose loop never runs: nothing takes a request.
		s := &Supervisor{mailbox: make(chan supRequest), quit: make(chan struct{}), done: make(chan struct{}), store: planstore.NewMemory()}
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		if _, err := s.Open(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Open on a stuck supervisor = %v", err)
		}
		// Lookup reads the registry's index without the loop: an unknown
		// id is not found at once.
		if _, err := s.Lookup(t.Context(), "x"); !errors.Is(err, ErrNotFound) {
			t.Errorf("Lookup on a stuck supervisor = %v, want ErrNotFound", err)
		}
	})

	synctest.Test(t, func(t *testing.T) {
		// A plan whose loop never runs, then one that takes a request and
		// sits on it: the caller leaves at its deadline either way.
		s := start(t, Options{})
		f := newFixture(t, 1)
		p := newPlan(s, f.plan(t, time.Now().Add(time.Hour)), 1)
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		if _, _, err := p.Merge(ctx, f.admitted(1)); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Merge on a stuck plan = %v", err)
		}

		// This goroutine stands in for a run loop whose turn is slow: it
		// takes the request, serves it after the caller's deadline, then
		// takes the next message, as the loop would.
		served := make(chan *Subscription, 1)
		go func() {
			req := <-p.mailbox
			time.Sleep(2 * time.Second)
			req.serve(p)
			served <- req.(subscribeReq).sub
			p.drop(<-p.leave)
		}()
		ctx, cancel = context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		if sub, err := p.Subscribe(ctx); !errors.Is(err, context.DeadlineExceeded) || sub != nil {
			t.Fatalf("Subscribe on a plan that never answers = %v, %v", sub, err)
		}
		// The abandoned request was served late; Subscribe closed the
		// subscription it carried, so it holds no slot and its channel is
		// closed (after the state it was sent when registered).
		synctest.Wait() // the stand-in has returned
		sub := <-served
		if len(p.subs) != 0 {
			t.Errorf("an abandoned Subscribe still holds a slot")
		}
		if events, closed := drain(sub.C()); !closed || len(events) > 1 {
			t.Errorf("the abandoned subscription's channel: %d events, closed %v; want closed", len(events), closed)
		}
	})
}
