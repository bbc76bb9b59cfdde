package actor

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
)

// BenchmarkMerge measures the actor's serial section from the caller's side:
// the merge's round trip through the plan's mailbox, plus what the actor
// does with it.
//
//   - new-signer: dedup, append, re-encode, broadcast to no one. A plan takes
//     19 new signers before the cap, so a fresh plan is set up (untimed) every
//     19 merges; envelope size, hence encoding cost, grows across them.
//   - new-signer-50-readers: the same with 50 subscribers reading.
//   - duplicate: a replay of a present signer (dedup only, nothing sent).
//   - duplicate-parallel: the same from GOMAXPROCS goroutines at once.
func BenchmarkMerge(b *testing.B) {
	noLoopChecks(b)
	f := newFixture(b, 1)
	one := make([][]ledger.Admitted, len(keys))
	for i := range keys {
		one[i] = f.admitted(i)
	}
	expiry := time.Now().Add(ledger.SigningWindow)

	newSigner := func(b *testing.B, readers int) {
		ctx := context.Background()
		var (
			s    *Supervisor
			p    *Plan
			next = ledger.MaxSignatures
			wg   sync.WaitGroup
		)
		refill := func() {
			if s != nil {
				if err := s.Stop(ctx); err != nil {
					b.Fatal(err)
				}
				wg.Wait()
			}
			s = NewSupervisor(solo(Options{}))
			p = create(b, s, f, expiry)
			for range readers {
				sub, err := p.Subscribe(ctx)
				if err != nil {
					b.Fatal(err)
				}
				wg.Go(func() {
					for range sub.C() {
					}
				})
			}
			next = 1
		}
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if next == ledger.MaxSignatures {
				b.StopTimer()
				refill()
				b.StartTimer()
			}
			if _, changed, err := p.Merge(ctx, one[next]); err != nil || !changed {
				b.Fatalf("Merge: changed=%v err=%v", changed, err)
			}
			next++
		}
		b.StopTimer()
		if err := s.Stop(ctx); err != nil {
			b.Fatal(err)
		}
		wg.Wait()
	}
	b.Run("new-signer", func(b *testing.B) { newSigner(b, 0) })
	b.Run("new-signer-50-readers", func(b *testing.B) { newSigner(b, DefaultMaxSubscribers) })

	duplicatePlan := func(b *testing.B) *Plan {
		s := NewSupervisor(solo(Options{}))
		b.Cleanup(func() { _ = s.Stop(context.Background()) })
		return create(b, s, f, expiry, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
	}
	b.Run("duplicate", func(b *testing.B) {
		ctx := context.Background()
		p := duplicatePlan(b)
		b.ReportAllocs()
		for b.Loop() {
			if _, changed, err := p.Merge(ctx, one[5]); err != nil || changed {
				b.Fatalf("Merge: changed=%v err=%v", changed, err)
			}
		}
	})
	b.Run("duplicate-parallel", func(b *testing.B) {
		ctx := context.Background()
		p := duplicatePlan(b)
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, changed, err := p.Merge(ctx, one[5]); err != nil || changed {
					b.Errorf("Merge: changed=%v err=%v", changed, err)
					return
				}
			}
		})
	})
}

// BenchmarkKnown is the replay fast path: a lookup with no round trip.
func BenchmarkKnown(b *testing.B) {
	noLoopChecks(b)
	f := newFixture(b, 1)
	s := NewSupervisor(solo(Options{}))
	defer func() { _ = s.Stop(context.Background()) }()
	p := create(b, s, f, time.Now().Add(ledger.SigningWindow), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
	sig := []byte(f.sigs[7].Sig.Signature)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if i, ok := p.Known(sig); !ok || i != 7 {
				b.Errorf("Known = %d, %v", i, ok)
				return
			}
		}
	})
}

// BenchmarkFanOut50 is the actor's cost of offering one event to 50
// subscribers. The benchmark goroutine stands in for the run loop, on a plan
// whose loop is not running. stalled: nobody reads, so every offer replaces
// a stale event; reading: 50 goroutines take events as fast as they can.
func BenchmarkFanOut50(b *testing.B) {
	noLoopChecks(b)
	f := newFixture(b, 1)
	for _, mode := range []string{"stalled", "reading"} {
		b.Run(mode, func(b *testing.B) {
			s := NewSupervisor(solo(Options{}))
			defer func() { _ = s.Stop(context.Background()) }()
			p := newPlan(s, f.plan(b, time.Now().Add(ledger.SigningWindow)), 1)
			var wg sync.WaitGroup
			for range DefaultMaxSubscribers {
				sub := &Subscription{plan: p, ch: make(chan Event, 1)}
				p.subs[sub] = struct{}{}
				if mode == "reading" {
					wg.Go(func() {
						for range sub.C() {
						}
					})
				}
			}
			ev := Event{State: p.settled.Load().state}
			b.ReportAllocs()
			for b.Loop() {
				ev.State.Version++
				p.broadcast(ev)
			}
			b.StopTimer()
			for sub := range p.subs {
				close(sub.ch)
			}
			wg.Wait()
		})
	}
}

// BenchmarkSignPath is the whole sign path on one plan as the sign handler
// runs it (httpapi mergePartial): CheckPartial (decode, hash, verify unless
// Known recognises the bytes) in the calling goroutine, then Merge. All
// variants run under RunParallel, so -cpu 1,2 shows how the path scales.
//
//   - replay: a partial carrying a signature the plan already admitted:
//     decode, hash, a Known lookup, and Merge's published-version answer
//     (no verification, no mailbox round trip).
//   - new-signer: a partial carrying one new signer's signature: decode,
//     hash, one verification, then the merge that appends, re-encodes and
//     broadcasts, through a round trip of the plan's mailbox. A plan takes 19 new signers, so
//     ceil(b.N/19) plans (one per supervisor, same transaction) are made
//     before the timer starts and handed out 19 slots at a time.
//   - new-signer-verify-serial: new-signer with CheckPartial and Merge held
//     under one mutex per plan, emulating verification inside the actor's
//     serial section (the arrangement DESIGN.md argues against). The code
//     does not do this; the variant exists for the comparison.
func BenchmarkSignPath(b *testing.B) {
	noLoopChecks(b)
	f := newFixture(b, 1)
	partials := make([]string, len(keys))
	for i := range keys {
		partials[i] = f.partial(b, f.sigs[i].Sig)
	}
	expiry := time.Now().Add(ledger.SigningWindow)

	b.Run("replay", func(b *testing.B) {
		ctx := context.Background()
		s := NewSupervisor(solo(Options{}))
		b.Cleanup(func() { _ = s.Stop(context.Background()) })
		p := create(b, s, f, expiry, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				admitted, err := p.Canonical().CheckPartial(ctx, sweeps, partials[5], p.Known)
				if err != nil || len(admitted) != 1 {
					b.Errorf("CheckPartial: %v", err)
					return
				}
				if _, changed, err := p.Merge(ctx, admitted); err != nil || changed {
					b.Errorf("Merge: changed=%v err=%v", changed, err)
					return
				}
			}
		})
	})

	type slot struct {
		p      *Plan
		signer int
		mu     *sync.Mutex // the plan's emulated serial section
	}
	newSigner := func(b *testing.B, serialVerify bool) {
		ctx := context.Background()
		perPlan := ledger.MaxSignatures - 1
		nPlans := (b.N+perPlan-1)/perPlan + 1
		sups := make([]*Supervisor, 0, nPlans)
		slots := make([]slot, 0, nPlans*perPlan)
		for range nPlans {
			s := NewSupervisor(solo(Options{}))
			sups = append(sups, s)
			p := create(b, s, f, expiry)
			mu := new(sync.Mutex)
			for signer := 1; signer <= perPlan; signer++ {
				slots = append(slots, slot{p, signer, mu})
			}
		}
		defer func() {
			for _, s := range sups {
				_ = s.Stop(ctx)
			}
		}()
		var next atomic.Int64
		b.ReportAllocs()
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				sl := slots[next.Add(1)-1]
				if serialVerify {
					sl.mu.Lock()
				}
				admitted, err := sl.p.Canonical().CheckPartial(ctx, sweeps, partials[sl.signer], sl.p.Known)
				if err == nil {
					_, _, err = sl.p.Merge(ctx, admitted)
				}
				if serialVerify {
					sl.mu.Unlock()
				}
				if err != nil {
					b.Errorf("sign: %v", err)
					return
				}
			}
		})
		b.StopTimer()
	}
	b.Run("new-signer", func(b *testing.B) { newSigner(b, false) })
	b.Run("new-signer-verify-serial", func(b *testing.B) { newSigner(b, true) })
}

// BenchmarkPublishBuild is what a publish does in its request goroutine to
// build a plan, from the posted xdr to the handle Create inserts:
// ledger.ParseClose (the one decode), ledger.AdmitPlan (one verification
// under the signature's own hint, the one encoding) and newPlan. The account
// API and the supervisor round trip are not included.
func BenchmarkPublishBuild(b *testing.B) {
	noLoopChecks(b)
	f := newFixture(b, 1)
	published := f.partial(b, f.sigs[0].Sig)
	s := NewSupervisor(solo(Options{}))
	defer func() { _ = s.Stop(context.Background()) }()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		c, err := ledger.ParseClose(published, ledger.Testnet)
		if err != nil {
			b.Fatal(err)
		}
		admitted, _, err := ledger.AdmitPlan(ctx, sweeps, c, signerSet, time.Now())
		if err != nil {
			b.Fatal(err)
		}
		if p := newPlan(s, admitted, 1); p.settled.Load().state.Version != 1 {
			b.Fatal("no first version")
		}
	}
}

// noLoopChecks turns the run loops' ownership check off for a benchmark
// (it reads the goroutine's stack) and back on after it: what is measured
// is what the server runs.
func noLoopChecks(b *testing.B) {
	was := checkLoops.Swap(false)
	b.Cleanup(func() { checkLoops.Store(was) })
}
