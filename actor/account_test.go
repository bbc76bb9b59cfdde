package actor

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/metrics"
)

// Closing accounts of the per-account tests: the fixture's own (keys[0]) and
// another one.
var (
	accountA = keys[0].Address()
	accountB = keys[1].Address()
)

// fillAccount creates DefaultPlansPerAccount plans of accountA (sequence
// numbers 1 to 5), the first expiring at first, the others at the end of
// the signing window, and returns their fixtures.
func fillAccount(t *testing.T, s *Supervisor, first time.Time) []*fixture {
	t.Helper()
	fs := make([]*fixture, DefaultPlansPerAccount)
	for i := range fs {
		fs[i] = newFixtureSigned(t, int64(i+1), 1)
		expiry := time.Now().Add(ledger.SigningWindow)
		if i == 0 {
			expiry = first
		}
		create(t, s, fs[i], expiry)
	}
	return fs
}

// wantAccountFull checks that a sixth new plan of accountA is refused at
// both guards with ErrAccountCapacity (and not the relay's ErrCapacity).
func wantAccountFull(t *testing.T, s *Supervisor, seq int64) {
	t.Helper()
	if err := s.CheckCapacity(t.Context(), accountA); !errors.Is(err, ErrAccountCapacity) {
		t.Fatalf("CheckCapacity(A) at the limit = %v, want ErrAccountCapacity", err)
	}
	f := newFixtureSigned(t, seq, 1)
	p, created, err := s.Create(t.Context(), f.plan(t, time.Now().Add(ledger.SigningWindow)))
	if !errors.Is(err, ErrAccountCapacity) || p != nil || created {
		t.Fatalf("Create of a new plan of A at the limit = %p, %v, %v; want ErrAccountCapacity", p, created, err)
	}
}

// TestPlansPerAccount: the sixth open plan of one account is refused at
// guard 5 and guard 8 with ErrAccountCapacity, while a re-publish of one of
// its five is a merge (never refused) and another account is unaffected.
func TestPlansPerAccount(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		m := metrics.New()
		var logs bytes.Buffer
		s := start(t, Options{Metrics: m, Log: slog.New(slog.NewJSONHandler(&logs, nil))})
		if s.PlansPerAccount() != DefaultPlansPerAccount || DefaultPlansPerAccount != 5 {
			t.Fatalf("PlansPerAccount = %d (default %d), want 5", s.PlansPerAccount(), DefaultPlansPerAccount)
		}
		fs := fillAccount(t, s, time.Now().Add(ledger.SigningWindow))
		wantAccountFull(t, s, 6)

		// A re-publish of an open plan, carrying another signer, is not a
		// new plan: Create hands back the plan to merge into.
		existing, err := s.Lookup(ctx, fs[2].id)
		if err != nil {
			t.Fatal(err)
		}
		f2 := newFixtureSigned(t, 3, 2)
		if p, created, err := s.Create(ctx, f2.plan(t, time.Now().Add(ledger.SigningWindow), 1)); err != nil || created || p != existing {
			t.Fatalf("Create of an open id at the account limit = %p, %v, %v; want %p, false, nil", p, created, err, existing)
		}

		// Another account has its own five.
		if err := s.CheckCapacity(ctx, accountB); err != nil {
			t.Fatalf("CheckCapacity(B) = %v", err)
		}
		for seq := range int64(DefaultPlansPerAccount) {
			create(t, s, newFixtureOf(t, accountB, seq+1, 1), time.Now().Add(ledger.SigningWindow))
		}
		if err := s.CheckCapacity(ctx, accountB); !errors.Is(err, ErrAccountCapacity) {
			t.Fatalf("CheckCapacity(B) after five = %v, want ErrAccountCapacity", err)
		}
		if n, _ := s.Open(ctx); n != 2*DefaultPlansPerAccount {
			t.Fatalf("Open = %d, want %d", n, 2*DefaultPlansPerAccount)
		}
		wantMetrics(t, m, map[string]float64{
			"closerelay_plans_created_total": 2 * DefaultPlansPerAccount,
			"closerelay_plans_open":          2 * DefaultPlansPerAccount,
			// The relay-wide counter is for the relay's limit only.
			"closerelay_plans_capacity_refused_total": 0,
		})
		if n := strings.Count(logs.String(), `"msg":"plan account capacity refusal"`); n != 3 {
			t.Errorf("%d account capacity refusals logged, want 3:\n%s", n, logs.String())
		}
	})
}

// TestPlansPerAccountOption: Options.PlansPerAccount replaces the default,
// and the relay's limit is checked first.
func TestPlansPerAccountOption(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		s := start(t, Options{Capacity: 3, PlansPerAccount: 2})
		expiry := time.Now().Add(ledger.SigningWindow)
		create(t, s, newFixtureSigned(t, 1, 1), expiry)
		create(t, s, newFixtureSigned(t, 2, 1), expiry)
		if err := s.CheckCapacity(ctx, accountA); !errors.Is(err, ErrAccountCapacity) {
			t.Fatalf("CheckCapacity(A) at 2 of 2 = %v, want ErrAccountCapacity", err)
		}
		create(t, s, newFixtureOf(t, accountB, 1, 1), expiry)
		// 3 of 3 open: the relay's refusal comes first, for every account.
		if err := s.CheckCapacity(ctx, accountA); !errors.Is(err, ErrCapacity) {
			t.Fatalf("CheckCapacity(A) with the relay full = %v, want ErrCapacity", err)
		}
		if err := s.CheckCapacity(ctx, keys[2].Address()); !errors.Is(err, ErrCapacity) {
			t.Fatalf("CheckCapacity(C) with the relay full = %v, want ErrCapacity", err)
		}
	})
}

// TestPlansPerAccountFreedByExpiry: a plan's own timer frees its account's
// slot, once.
func TestPlansPerAccountFreedByExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := metrics.New()
		s := start(t, Options{Metrics: m})
		fillAccount(t, s, time.Now().Add(time.Hour))
		wantAccountFull(t, s, 6)

		time.Sleep(time.Hour)
		synctest.Wait()
		if err := s.CheckCapacity(t.Context(), accountA); err != nil {
			t.Fatalf("CheckCapacity(A) after one expiry = %v", err)
		}
		create(t, s, newFixtureSigned(t, 6, 1), time.Now().Add(ledger.SigningWindow))
		// Five open again: the expiry freed exactly one slot.
		wantAccountFull(t, s, 7)
		wantMetrics(t, m, map[string]float64{
			"closerelay_plans_expired_total": 1,
			"closerelay_plans_open":          DefaultPlansPerAccount,
		})
	})
}

// TestPlansPerAccountSweepsExpired: at the account's limit, a plan past its
// expiry whose timer has not fired does not hold a slot, at guard 5 or at
// guard 8; when its timer fires later, the slot is not freed a second time.
func TestPlansPerAccountSweepsExpired(t *testing.T) {
	for _, guard := range []string{"guard 5", "guard 8"} {
		t.Run(guard, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				clock := &skewedClock{}
				m := metrics.New()
				s := start(t, Options{Now: clock.now, Metrics: m})
				fillAccount(t, s, clock.now().Add(time.Hour))
				wantAccountFull(t, s, 6)

				clock.advance(time.Hour) // the first plan is past expiry; its timer has not fired
				if guard == "guard 5" {
					if err := s.CheckCapacity(t.Context(), accountA); err != nil {
						t.Fatalf("CheckCapacity(A) past the first expiry = %v", err)
					}
				}
				create(t, s, newFixtureSigned(t, 6, 1), clock.now().Add(ledger.SigningWindow))
				time.Sleep(time.Hour) // the swept plan's own timer fires now
				synctest.Wait()
				wantAccountFull(t, s, 7)
				wantMetrics(t, m, map[string]float64{
					"closerelay_plans_expired_total": 1,
					"closerelay_plans_open":          DefaultPlansPerAccount,
				})
			})
		})
	}
}

// TestPlansPerAccountReplacedID: a publish of an id whose plan is past
// expiry replaces it; the account's count neither grows nor drifts.
func TestPlansPerAccountReplacedID(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clock := &skewedClock{}
		s := start(t, Options{Now: clock.now})
		fs := fillAccount(t, s, clock.now().Add(time.Hour))
		clock.advance(time.Hour)
		create(t, s, fs[0], clock.now().Add(ledger.SigningWindow))
		time.Sleep(time.Hour) // the replaced plan's timer fires
		synctest.Wait()
		wantAccountFull(t, s, 6)
		if n, _ := s.Open(t.Context()); n != DefaultPlansPerAccount {
			t.Fatalf("Open = %d, want %d", n, DefaultPlansPerAccount)
		}
	})
}

// TestPlansPerAccountConcurrent: racing creates of new plans of one account
// (each past guard 5, as publishes whose account API calls overlapped) end
// with exactly the limit created; guard 8 refuses the rest.
func TestPlansPerAccountConcurrent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := start(t, Options{})
		const racers = 16
		inits := make([]*ledger.AdmittedPlan, racers)
		for i := range inits {
			inits[i] = newFixtureSigned(t, int64(i+1), 1).plan(t, time.Now().Add(ledger.SigningWindow))
		}
		var (
			wg      sync.WaitGroup
			created [racers]bool
			errs    [racers]error
		)
		for i := range racers {
			wg.Go(func() { _, created[i], errs[i] = s.Create(t.Context(), inits[i]) })
		}
		wg.Wait()
		won, refused := 0, 0
		for i := range racers {
			switch {
			case errs[i] == nil && created[i]:
				won++
			case errors.Is(errs[i], ErrAccountCapacity):
				refused++
			default:
				t.Errorf("racer %d: created=%v err=%v", i, created[i], errs[i])
			}
		}
		if won != DefaultPlansPerAccount || refused != racers-DefaultPlansPerAccount {
			t.Fatalf("%d created and %d refused, want %d and %d", won, refused, DefaultPlansPerAccount, racers-DefaultPlansPerAccount)
		}
	})
}

// TestPlansPerAccountShutdown: Stop empties the registry, and refuses
// every later check of the limits.
func TestPlansPerAccountShutdown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := metrics.New()
		s := NewSupervisor(solo(Options{Metrics: m}))
		fillAccount(t, s, time.Now().Add(time.Hour))
		create(t, s, newFixtureOf(t, accountB, 1, 1), time.Now().Add(time.Hour))
		if err := s.Stop(t.Context()); err != nil {
			t.Fatal(err)
		}
		// The run loop has returned: its state may be read here.
		if len(s.plans) != 0 {
			t.Fatalf("after Stop: %d plans; want none", len(s.plans))
		}
		if err := s.CheckCapacity(t.Context(), accountA); !errors.Is(err, ErrStopped) {
			t.Errorf("CheckCapacity after Stop = %v, want ErrStopped", err)
		}
		wantMetrics(t, m, map[string]float64{"closerelay_plans_open": 0, "closerelay_plans_expired_total": 0})
	})
}

// TestCreateRefusesExpiredAtInsert: Create re-checks the expiry on the
// supervisor's clock (guard 8). A plan whose expiry is not after that
// instant is refused with ErrExpired and never started; a live plan of the
// same id is still handed back to merge into.
func TestCreateRefusesExpiredAtInsert(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		clock := &skewedClock{}
		m := metrics.New()
		s := start(t, Options{Capacity: 1, Now: clock.now, Metrics: m})
		f := newFixtureSigned(t, 1, 1)
		now := clock.now()
		for _, expiry := range []time.Time{now, now.Add(-time.Nanosecond), now.Add(-ledger.SigningWindow)} {
			if p, created, err := s.Create(ctx, f.plan(t, expiry)); !errors.Is(err, ErrExpired) || p != nil || created {
				t.Fatalf("Create expiring at now%+v = %p, %v, %v; want ErrExpired", expiry.Sub(now), p, created, err)
			}
		}
		if _, err := s.Lookup(ctx, f.id); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Lookup after a refused create = %v, want ErrNotFound", err)
		}
		synctest.Wait()
		if n := s.Loops(); n != 0 {
			t.Fatalf("%d plan loops after refused creates", n)
		}
		wantMetrics(t, m, map[string]float64{"closerelay_plans_created_total": 0, "closerelay_plans_open": 0})

		p := create(t, s, f, now.Add(time.Minute))
		// A racing publish of the same id whose own expiry has passed merges
		// into the live plan, as before. (The relay is full too: the merge
		// is no new plan.)
		if got, created, err := s.Create(ctx, f.plan(t, now, 0)); err != nil || created || got != p {
			t.Fatalf("Create of a live id with an expired init = %p, %v, %v; want %p, false, nil", got, created, err, p)
		}
		// Once that plan is past expiry too, the expired init is refused
		// (ErrExpired comes before the capacity checks) and the dead plan
		// is swept.
		clock.advance(time.Minute)
		if got, created, err := s.Create(ctx, f.plan(t, clock.now())); !errors.Is(err, ErrExpired) || got != nil || created {
			t.Fatalf("Create of an expired id with an expired init = %p, %v, %v; want ErrExpired", got, created, err)
		}
		if n, _ := s.Open(ctx); n != 0 {
			t.Fatalf("Open = %d, want 0", n)
		}
		synctest.Wait()
		wantMetrics(t, m, map[string]float64{
			"closerelay_plans_created_total": 1,
			"closerelay_plans_expired_total": 1,
			"closerelay_plans_open":          0,
		})
	})
}
