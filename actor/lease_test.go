package actor

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/closerelay/closerelay/plan"
	"github.com/closerelay/closerelay/planstore"
)

// countingSubmitter counts its submissions; each takes hold (virtual time,
// in a synctest bubble) and succeeds, or, with hold 0, waits for its
// context (an account API that never answers).
type countingSubmitter struct {
	calls atomic.Int32
	hold  time.Duration
}

func (c *countingSubmitter) Submit(ctx context.Context, _ ledger.Network, _ string, _ func(ledgerapi.SubmitAttempt)) ledgerapi.SubmitOutcome {
	c.calls.Add(1)
	if c.hold == 0 {
		<-ctx.Done()
		return ledgerapi.SubmitOutcome{State: ledgerapi.SubmitAbandoned, Err: ctx.Err()}
	}
	select {
	case <-time.After(c.hold):
		return ledgerapi.SubmitOutcome{State: ledgerapi.SubmitSubmitted, Hash: testHash, Ledger: 7}
	case <-ctx.Done():
		return ledgerapi.SubmitOutcome{State: ledgerapi.SubmitAbandoned, Err: ctx.Err()}
	}
}

// severable is an instance's handle on the shared store that can be cut
// off, as an instance that died (or lost its network) stops writing.
type severable struct {
	memInstance
	cut *atomic.Bool
}

func (s severable) Available() bool { return !s.cut.Load() }

func (s severable) Get(ctx context.Context, id string) (planstore.Entry, error) {
	if s.cut.Load() {
		return planstore.Entry{}, planstore.ErrUnavailable
	}
	return s.memInstance.Get(ctx, id)
}

func (s severable) Update(ctx context.Context, id string, r planstore.Record, revision uint64) (uint64, error) {
	if s.cut.Load() {
		return 0, planstore.ErrUnavailable
	}
	return s.memInstance.Update(ctx, id, r, revision)
}

func (s severable) Create(ctx context.Context, id string, r planstore.Record) (uint64, error) {
	if s.cut.Load() {
		return 0, planstore.ErrUnavailable
	}
	return s.memInstance.Create(ctx, id, r)
}

// leaseCluster is two instances on one store: A (which can be cut off)
// submits with subA, B with subB; the lease is 15 s.
type leaseCluster struct {
	store      *memStore
	cutA       *atomic.Bool
	instB      memInstance
	a, b       *Supervisor
	subA, subB *countingSubmitter
}

const testLease = 15 * time.Second

func newLeaseCluster(t *testing.T, subA, subB *countingSubmitter) *leaseCluster {
	t.Helper()
	c := &leaseCluster{store: newMemStore(), cutA: new(atomic.Bool), subA: subA, subB: subB}
	instA := severable{memInstance{c.store, make(chan planstore.Change)}, c.cutA}
	c.instB = memInstance{c.store, make(chan planstore.Change)}
	c.a = start(t, Options{Store: instA, Submitter: subA, SubmitLease: testLease, Instance: "a"})
	c.b = start(t, Options{Store: c.instB, Submitter: subB, SubmitLease: testLease, Instance: "b"})
	return c
}

// stored is the submission as the store holds it.
func (c *leaseCluster) stored(t *testing.T, id string) planstore.SubmissionRecord {
	t.Helper()
	e, err := c.store.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return e.Record.Submission
}

// publishReady has A publish a plan that is ready at once, with submit
// set, and B's watch deliver A's claim. It checks that A claimed and
// submits, and that B, which nobody asked for the plan, holds it.
func (c *leaseCluster) publishReady(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t, 40)
	if _, created, err := c.a.CreateSubmitting(context.Background(), f.plan(t, time.Now().Add(time.Hour), 0)); err != nil || !created {
		t.Fatal(created, err)
	}
	synctest.Wait()
	if got := c.stored(t, f.id); got.State != plan.SubmissionPending || got.Owner != "a" || got.Lease.IsZero() {
		t.Fatalf("stored after A's claim: %+v", got)
	}
	c.instB.deliver(t, f.id)
	synctest.Wait()
	if _, held := c.b.index.Load(f.id); !held {
		t.Fatal("B does not hold a plan waiting for its submission")
	}
	if a, b := c.subA.calls.Load(), c.subB.calls.Load(); a != 1 || b != 0 {
		t.Fatalf("submissions: A %d, B %d; want 1, 0", a, b)
	}
	return f
}

// TestClusterSubmissionTakenOverWhenOwnerDies: the instance that claimed a
// submission is cut off with its submitter in flight; another instance that
// holds the plan (through the watch alone) takes the submission over once
// the claim's lease lapses, and not before. Fails without the lease: the
// plan stayed pending until its expiry.
func TestClusterSubmissionTakenOverWhenOwnerDies(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newLeaseCluster(t, &countingSubmitter{}, &countingSubmitter{hold: time.Second})
		f := c.publishReady(t)
		c.cutA.Store(true)

		time.Sleep(testLease - time.Second)
		synctest.Wait()
		if n := c.subB.calls.Load(); n != 0 {
			t.Fatalf("B submitted %d times before A's lease lapsed", n)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if n := c.subB.calls.Load(); n != 1 {
			t.Fatalf("B submitted %d times once A's lease lapsed, want 1", n)
		}
		if got := c.stored(t, f.id); got.State != plan.SubmissionPending || got.Owner != "b" {
			t.Fatalf("stored after B's takeover: %+v", got)
		}
		time.Sleep(time.Second) // B's submitter answers
		synctest.Wait()
		if got := c.stored(t, f.id); got.State != plan.SubmissionSubmitted || got.Hash != testHash || got.Ledger != 7 {
			t.Fatalf("stored after B's submission: %+v", got)
		}
		p, _ := c.b.index.Load(f.id)
		if got := p.(*Plan).Submission(); got.State != plan.SubmissionSubmitted {
			t.Fatalf("B's plan: %+v", got)
		}
	})
}

// TestClusterSubmissionLeaseRenewed: an owner whose submission takes three
// leases keeps its claim by renewing it; the other instance's takeover
// timer reads the entry, finds the claim renewed, and leaves it, though its
// watch brought none of the renewals.
func TestClusterSubmissionLeaseRenewed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newLeaseCluster(t, &countingSubmitter{hold: 3 * testLease}, &countingSubmitter{hold: time.Second})
		f := c.publishReady(t)
		time.Sleep(3*testLease + time.Second)
		synctest.Wait()
		if n := c.subB.calls.Load(); n != 0 {
			t.Fatalf("B submitted %d times while A renewed its claim", n)
		}
		if got := c.stored(t, f.id); got.State != plan.SubmissionSubmitted {
			t.Fatalf("stored after A's submission: %+v", got)
		}
		c.instB.deliver(t, f.id)
		synctest.Wait()
		p, _ := c.b.index.Load(f.id)
		if got := p.(*Plan).Submission(); got.State != plan.SubmissionSubmitted || got.Ledger != 7 {
			t.Fatalf("B's plan after the watch: %+v", got)
		}
	})
}

// TestClusterSubmissionReleasedOnStop: an instance that stops (a rolling
// restart's drain) with its submission in flight lets its claim go, and
// the other instance takes the submission over at once, not a lease later.
func TestClusterSubmissionReleasedOnStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newLeaseCluster(t, &countingSubmitter{}, &countingSubmitter{hold: time.Second})
		f := c.publishReady(t)
		if err := c.a.Stop(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := c.stored(t, f.id); got.State != plan.SubmissionPending || got.Owner != "a" || !got.Lease.IsZero() {
			t.Fatalf("stored after A stopped: %+v", got)
		}
		start := time.Now()
		c.instB.deliver(t, f.id)
		synctest.Wait()
		if n := c.subB.calls.Load(); n != 1 || time.Since(start) != 0 {
			t.Fatalf("B submitted %d times %v after A let go, want once at once", n, time.Since(start))
		}
	})
}

// TestClusterSubmittedPlanNotAdopted: a plan whose submission succeeded,
// or that was never to be submitted, is not restored from the watch: an
// instance holds it only when asked for it.
func TestClusterSubmittedPlanNotAdopted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newLeaseCluster(t, &countingSubmitter{hold: time.Second}, &countingSubmitter{hold: time.Second})
		plain := newFixture(t, 41)
		create(t, c.a, plain, time.Now().Add(time.Hour), 0)
		done := newFixture(t, 42)
		if _, _, err := c.a.CreateSubmitting(context.Background(), done.plan(t, time.Now().Add(time.Hour), 0)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if got := c.stored(t, done.id); got.State != plan.SubmissionSubmitted {
			t.Fatalf("stored: %+v", got)
		}
		for _, id := range []string{plain.id, done.id} {
			c.instB.deliver(t, id)
			synctest.Wait()
			if _, held := c.b.index.Load(id); held {
				t.Errorf("B holds %s, which nobody asked for and nothing waits on", id)
			}
		}
	})
}

// getCounter is an instance's handle on the shared store that counts its
// reads.
type getCounter struct {
	memInstance
	gets *atomic.Int32
}

func (g getCounter) Get(ctx context.Context, id string) (planstore.Entry, error) {
	g.gets.Add(1)
	return g.memInstance.Get(ctx, id)
}

// TestClusterLapsedClaimNotTakenIsNotPolled: a lapsed claim this instance
// cannot take over (here the stored plan is not ready: a record no
// instance of ours writes, as a newer relay or a hand repair might) is
// looked at again a fifteenth of a lease later, not in a loop of reads
// (which never lets the bubble's clock move, so this test would hang).
func TestClusterLapsedClaimNotTakenIsNotPolled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := newMemStore()
		a := start(t, Options{Store: memInstance{store, make(chan planstore.Change)}, SubmitLease: testLease, Instance: "a"})
		gets := new(atomic.Int32)
		instB := memInstance{store, make(chan planstore.Change)}
		sub := &countingSubmitter{hold: time.Second}
		b := start(t, Options{Store: getCounter{instB, gets}, Submitter: sub, SubmitLease: testLease, Instance: "b"})

		f := newFixture(t, 43)
		two := ledger.Thresholds{Low: 2, Medium: 2, High: 2}
		if _, _, err := a.CreateSubmitting(context.Background(), weightedPlan(t, f, nil, two, 0)); err != nil {
			t.Fatal(err)
		}
		e, err := store.Get(context.Background(), f.id)
		if err != nil {
			t.Fatal(err)
		}
		r := e.Record
		r.Submission = planstore.SubmissionRecord{Submit: true, Seq: r.Submission.Seq + 1, State: plan.SubmissionPending, Owner: "gone"}
		if _, err := store.Update(context.Background(), f.id, r, e.Revision); err != nil {
			t.Fatal(err)
		}
		instB.deliver(t, f.id)
		synctest.Wait()
		before := gets.Load()
		time.Sleep(3 * time.Second)
		synctest.Wait()
		if n := gets.Load() - before; n > 3 {
			t.Errorf("B read the entry %d times in 3 s", n)
		}
		if n := sub.calls.Load(); n != 0 {
			t.Errorf("B submitted a plan that is not ready %d times", n)
		}
		if _, held := b.index.Load(f.id); !held {
			t.Error("B does not hold the plan waiting for its submission")
		}
	})
}

// TestSubmissionOutcomeTold: the loop runs what a submission's
// transitions decide, in one instance: the claim starts the submitter
// (fxStartSubmission), and its outcome is told to subscribers as a
// submission event (fxTellSubmission). Fails if Plan.apply leaves either
// out: the submitter never runs, or the subscriber is never told.
func TestSubmissionOutcomeTold(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		submitter := &countingSubmitter{hold: time.Second}
		s := start(t, Options{Submitter: submitter})
		f := newFixture(t, 40)
		p, created, err := s.CreateSubmitting(t.Context(), f.plan(t, time.Now().Add(time.Hour), 0))
		if err != nil || !created {
			t.Fatal(created, err)
		}
		sub, err := p.Subscribe(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		time.Sleep(2 * time.Second) // the bubble's clock: past the submitter's hold
		synctest.Wait()
		if n := submitter.calls.Load(); n != 1 {
			t.Fatalf("%d submissions, want 1", n)
		}
		select {
		case ev := <-sub.C():
			if ev.Submission == nil || ev.Submission.State != plan.SubmissionSubmitted || ev.Submission.Hash != testHash {
				t.Fatalf("the newest event %+v, want the submission's outcome", ev)
			}
		default:
			t.Fatal("the subscriber was told nothing")
		}
		if got := p.Submission(); got.State != plan.SubmissionSubmitted {
			t.Fatalf("submission %+v, want submitted", got)
		}
	})
}

// TestClusterLeaseRenewedAfterMergeInPlace: the merge that makes a plan
// ready is served on its caller's goroutine (the run loop waits, so Merge
// serves it in place), and starts the submission there, arming the
// claim's renewal. The loop, poked, waits on the new timer and renews the
// claim while the submitter runs, so the other instance never takes the
// submission over. Fails without the poke: the loop went on waiting on
// the timers as they were before the merge, the claim lapsed, and B
// submitted a second time.
func TestClusterLeaseRenewedAfterMergeInPlace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newLeaseCluster(t, &countingSubmitter{hold: 3 * testLease}, &countingSubmitter{hold: time.Second})
		f := newFixture(t, 41)
		// keys[0] weighs 1, keys[1] 2; the threshold is 3.
		published := weightedPlan(t, f, []int32{1, 2}, ledger.Thresholds{Low: 1, Medium: 2, High: 3}, 0)
		p, created, err := c.a.CreateSubmitting(t.Context(), published)
		if err != nil || !created {
			t.Fatal(created, err)
		}
		synctest.Wait() // the loop waits for its next event
		st, changed, err := p.Merge(t.Context(), f.admitted(1))
		if err != nil || !changed || !st.Ready {
			t.Fatalf("Merge: %+v %v %v; want a ready version", st, changed, err)
		}
		synctest.Wait()
		if got := c.stored(t, f.id); got.State != plan.SubmissionPending || got.Owner != "a" {
			t.Fatalf("stored after A's claim: %+v", got)
		}
		c.instB.deliver(t, f.id)
		synctest.Wait()
		if _, held := c.b.index.Load(f.id); !held {
			t.Fatal("B does not hold the plan")
		}
		time.Sleep(3*testLease + time.Second)
		synctest.Wait()
		if a, b := c.subA.calls.Load(), c.subB.calls.Load(); a != 1 || b != 0 {
			t.Fatalf("submissions: A %d, B %d; want 1, 0 (A renews its claim)", a, b)
		}
		if got := c.stored(t, f.id); got.State != plan.SubmissionSubmitted {
			t.Fatalf("stored after A's submission: %+v", got)
		}
	})
}
