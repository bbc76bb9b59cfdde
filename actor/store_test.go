package actor

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/planstore"
)

// memStore is the in-memory store shared by several supervisors as NATS is
// shared by several instances, counting the compare-and-sets it refuses.
// Its instances' watches (memInstance) deliver a change only when the test
// says so (deliver), so that a test decides which instance has seen what,
// and a lost race happens for certain.
type memStore struct {
	*planstore.Memory
	mu        sync.Mutex
	conflicts int
}

func newMemStore() *memStore { return &memStore{Memory: planstore.NewMemory()} }

func (m *memStore) counted(rev uint64, err error) (uint64, error) {
	if errors.Is(err, planstore.ErrConflict) {
		m.mu.Lock()
		m.conflicts++
		m.mu.Unlock()
	}
	return rev, err
}

func (m *memStore) Create(ctx context.Context, id string, r planstore.Record) (uint64, error) {
	return m.counted(m.Memory.Create(ctx, id, r))
}

func (m *memStore) Update(ctx context.Context, id string, r planstore.Record, revision uint64) (uint64, error) {
	return m.counted(m.Memory.Update(ctx, id, r, revision))
}

// memInstance is one instance's handle on the shared store: its own watch.
type memInstance struct {
	*memStore
	changes chan planstore.Change
}

func (m memInstance) Changes() <-chan planstore.Change { return m.changes }

// deliver hands instance i the entry of id as its watch would.
func (m memInstance) deliver(t *testing.T, id string) {
	t.Helper()
	e, err := m.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	m.changes <- planstore.Change{ID: id, Record: e.Record, Revision: e.Revision}
}

func clusterPair(t *testing.T) (*memStore, [2]memInstance, [2]*Supervisor) {
	t.Helper()
	shared := newMemStore()
	var inst [2]memInstance
	var sups [2]*Supervisor
	for i := range inst {
		inst[i] = memInstance{shared, make(chan planstore.Change)}
		sups[i] = start(t, Options{Store: inst[i]})
	}
	return shared, inst, sups
}

// TestClusterMergeAfterLostRace: instance B holds the plan at an old
// revision when it merges; its compare-and-set loses to A's write, and it
// re-reads, merges again and writes the union, which every instance then
// answers.
func TestClusterMergeAfterLostRace(t *testing.T) {
	shared, _, sups := clusterPair(t)
	a, b := sups[0], sups[1]
	f := newFixture(t, 1)
	ctx := context.Background()
	pa := create(t, a, f, time.Now().Add(time.Hour), 0)
	pb, err := b.Lookup(ctx, f.id)
	if err != nil {
		t.Fatal(err)
	}
	// A request served by B's loop: the loop has read the entry as it
	// started (version 1) before it serves anything.
	sub, err := pb.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sub.Close()
	if _, _, err := pa.Merge(ctx, f.admitted(1)); err != nil {
		t.Fatal(err)
	}
	// B has not seen A's merge: its write expects the first revision.
	st, changed, err := pb.Merge(ctx, f.admitted(2))
	if err != nil || !changed {
		t.Fatalf("merge on B: changed=%v err=%v", changed, err)
	}
	if shared.conflicts != 1 {
		t.Fatalf("%d conflicts, want the 1 lost race", shared.conflicts)
	}
	checkEnvelope(t, f, st, 0, 1, 2)
	if st.Version != 3 {
		t.Fatalf("version %d after two merges, want 3", st.Version)
	}
	// A catches up on its next lookup.
	pa2, err := a.Lookup(ctx, f.id)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pa2.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !equalState(got, st) {
		t.Fatalf("A answers version %d %v, want B's %d %v", got.Version, got.Signers, st.Version, st.Signers)
	}
	// A replay of a signer that only the other instance admitted is
	// recognised as such.
	if _, changed, err := pa2.Merge(ctx, f.admitted(2)); err != nil || changed {
		t.Fatalf("replay on A: changed=%v err=%v", changed, err)
	}
}

// TestClusterLookupWaitsForAChangeHalfTakenIn: B's loop takes a change of
// the watch in two steps, the entry's revision and then its signatures.
// A Lookup on B that reads the entry in between must not answer the older
// view: the sign that A answered 200 is in B's answer. The test holds B's
// plan in that in-between state, the revision its next write expects
// taken and its published state not yet.
func TestClusterLookupWaitsForAChangeHalfTakenIn(t *testing.T) {
	shared, _, sups := clusterPair(t)
	a, b := sups[0], sups[1]
	f := newFixture(t, 1)
	ctx := context.Background()
	pa := create(t, a, f, time.Now().Add(time.Hour), 0)
	pb, err := b.Lookup(ctx, f.id)
	if err != nil {
		t.Fatal(err)
	}
	// A request served by B's loop: it has started and read the entry.
	sub, err := pb.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sub.Close()
	want, _, err := pa.Merge(ctx, f.admitted(1))
	if err != nil {
		t.Fatal(err)
	}
	e, err := shared.Get(ctx, f.id)
	if err != nil {
		t.Fatal(err)
	}
	inLoop(pb, func(p *Plan) { p.rev = e.Revision }) // the loop's first step of taking e in
	st := lookedUp(t, b, f.id)
	if !equalState(st, want) {
		t.Fatalf("B answers version %d %v, want A's %d %v", st.Version, st.Signers, want.Version, want.Signers)
	}
}

// TestClusterWatchFeedsSubscribers: a change written by another instance
// reaches this instance's subscribers through the watch, newest first.
func TestClusterWatchFeedsSubscribers(t *testing.T) {
	// In a bubble, so that an event that never comes fails the test at once
	// (every goroutine durably blocked) rather than at the run's timeout.
	synctest.Test(t, func(t *testing.T) {
		_, inst, sups := clusterPair(t)
		a, b := sups[0], sups[1]
		f := newFixture(t, 2)
		ctx := context.Background()
		pa := create(t, a, f, time.Now().Add(time.Hour), 0)
		pb, err := b.Lookup(ctx, f.id)
		if err != nil {
			t.Fatal(err)
		}
		sub, err := pb.Subscribe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		if ev := <-sub.C(); ev.State.Version != 1 {
			t.Fatalf("first event version %d", ev.State.Version)
		}
		if _, _, err := pa.Merge(ctx, f.admitted(1, 2)); err != nil {
			t.Fatal(err)
		}
		inst[1].deliver(t, f.id)
		ev := <-sub.C()
		checkEnvelope(t, f, ev.State, 0, 1, 2)
		if ev.State.Version != 2 || ev.State.Weight != 3 {
			t.Fatalf("event version %d weight %d, want 2 and 3", ev.State.Version, ev.State.Weight)
		}
		// An older change arriving late changes nothing.
		if _, _, err := pb.Merge(ctx, f.admitted(3)); err != nil {
			t.Fatal(err)
		}
		if ev := <-sub.C(); ev.State.Version != 3 {
			t.Fatalf("version %d after B's own merge, want 3", ev.State.Version)
		}
	})
}

// TestClusterRestoredPlanKeepsItsParts: a plan restored from its record has
// the parts the publishing instance admitted: threshold, expiry, account,
// version and submission.
func TestClusterRestoredPlanKeepsItsParts(t *testing.T) {
	_, _, sups := clusterPair(t)
	a, b := sups[0], sups[1]
	f := newFixture(t, 3)
	ctx := context.Background()
	expiry := time.Now().Add(time.Hour).Truncate(time.Second)
	pa, created, err := a.CreateSubmitting(ctx, f.plan(t, expiry, 0))
	if err != nil || !created {
		t.Fatal(created, err)
	}
	want, _ := pa.Snapshot(ctx)
	pb, err := b.Lookup(ctx, f.id)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := pb.Snapshot(ctx)
	if !equalState(got, want) || got.Threshold != want.Threshold || got.Weight != want.Weight {
		t.Fatalf("restored %+v, want %+v", got, want)
	}
	if !pb.Expiry().Equal(expiry) || pb.published.Account() != f.account || !pb.Submission().Submit {
		t.Fatalf("restored expiry %v account %s submit %v", pb.Expiry(), pb.published.Account(), pb.Submission().Submit)
	}
}

// TestClusterStoreUnreachable: every call that needs the store answers
// ErrUnavailable, and nothing changes.
func TestClusterStoreUnreachable(t *testing.T) {
	down := &downStore{memStore: newMemStore()}
	s := start(t, Options{Store: down})
	f := newFixture(t, 4)
	ctx := context.Background()
	if _, _, err := s.Create(ctx, f.plan(t, time.Now().Add(time.Hour))); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("create: %v", err)
	}
	if _, err := s.Lookup(ctx, f.id); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("lookup: %v", err)
	}
	if err := s.CheckCapacity(ctx, f.account); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("check: %v", err)
	}
}

type downStore struct{ *memStore }

func (downStore) Available() bool { return false }

// TestClusterChangeBeforeRegistration: a change that reaches an instance
// between the read a plan is restored from and the plan's registration
// finds no plan to go to; the plan reads its entry as its loop starts, so
// it answers and streams that change all the same (fails without that
// read: the plan stays at the version it was restored at).
func TestClusterChangeBeforeRegistration(t *testing.T) {
	// In a bubble: a state that never comes fails the test at once.
	synctest.Test(t, func(t *testing.T) {
		_, inst, sups := clusterPair(t)
		a, b := sups[0], sups[1]
		f := newFixture(t, 5)
		ctx := context.Background()
		pa := create(t, a, f, time.Now().Add(time.Hour), 0)

		// B reads the entry at version 1 and is about to register its plan...
		e, err := inst[1].Get(ctx, f.id)
		if err != nil {
			t.Fatal(err)
		}
		pb, err := b.restore(f.id, e.Record, e.Revision)
		if err != nil {
			t.Fatal(err)
		}
		// ...when A writes version 2, and B's watch delivers it to no plan.
		if _, _, err := pa.Merge(ctx, f.admitted(1)); err != nil {
			t.Fatal(err)
		}
		inst[1].deliver(t, f.id)
		// The watch's next change is taken only once the Supervisor has taken
		// (and so served) the first: it reached no plan before the adopt.
		inst[1].changes <- planstore.Change{ID: "no-such-plan"}
		if _, _, err := b.adopt(ctx, pb, false); err != nil {
			t.Fatal(err)
		}
		sub, err := pb.Subscribe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		if ev := <-sub.C(); ev.State.Version != 2 {
			t.Fatalf("B streams version %d first, want A's version 2", ev.State.Version)
		}
	})
}

// TestStoreErrorUnavailable: the store's unavailability is ErrUnavailable
// whatever caused it, a round trip's own timeout included: a context error
// that is not the caller's would read as the client gone, and answer 500
// INTERNAL where the store is unreachable.
func TestStoreErrorUnavailable(t *testing.T) {
	err := storeError(fmt.Errorf("%w: %w", planstore.ErrUnavailable, context.DeadlineExceeded))
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("storeError = %v, want ErrUnavailable", err)
	}
	if err := storeError(context.Canceled); !errors.Is(err, context.Canceled) {
		t.Fatalf("a caller that gave up: %v", err)
	}
}

// TestReplacedPlanKeepsItsSuccessorsEntry: a plan swept past its expiry
// and replaced by a new publish of its id ends after its successor was
// written; its end must not delete the successor's entry.
func TestReplacedPlanKeepsItsSuccessorsEntry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clock := &skewedClock{}
		s := start(t, Options{Now: clock.now})
		f := newFixture(t, 7)
		ctx := context.Background()
		create(t, s, f, clock.now().Add(time.Hour))
		clock.advance(2 * time.Hour) // past the first plan's expiry; its timer has not fired
		expiry := clock.now().Add(3 * time.Hour).Truncate(time.Millisecond)
		create(t, s, f, expiry)
		time.Sleep(time.Hour) // the first plan's own timer has fired, if the sweep did not end it
		synctest.Wait()
		e, err := s.store.Get(ctx, f.id)
		if err != nil || !e.Record.Expiry.Equal(expiry) {
			t.Fatalf("the successor's entry: expiry %v, %v; want %v", e.Record.Expiry, err, expiry)
		}
	})
}

// readCounter is a store that counts its entry reads.
type readCounter struct {
	*planstore.Memory
	gets atomic.Int64
}

func (r *readCounter) Get(ctx context.Context, id string) (planstore.Entry, error) {
	r.gets.Add(1)
	return r.Memory.Get(ctx, id)
}

// TestSingleModeLookupReadsNoEntry: in single mode (the supervisor's own
// store, which nothing else writes) a Lookup of a live plan is answered
// from the plan without reading its entry; with a store other instances
// may write, each Lookup reads it (CONTRACT section 12's read-after-sign).
// Either way, a plan the supervisor does not hold is looked for in the
// store.
func TestSingleModeLookupReadsNoEntry(t *testing.T) {
	for _, own := range []bool{true, false} {
		store := &readCounter{Memory: planstore.NewMemory()}
		s := NewSupervisor(Options{Store: store, SoleWriter: own})
		t.Cleanup(func() { _ = s.Stop(context.Background()) })
		f := newFixture(t, 1)
		ctx := context.Background()
		p := create(t, s, f, time.Now().Add(time.Hour), 0)
		inLoop(p, func(*Plan) {}) // the loop has started, and read the entry as it does
		before := store.gets.Load()
		for range 3 {
			if _, err := s.Lookup(ctx, f.id); err != nil {
				t.Fatal(err)
			}
		}
		want := int64(3)
		if own {
			want = 0
		}
		if got := store.gets.Load() - before; got != want {
			t.Errorf("own store %v: %d entry reads for 3 lookups, want %d", own, got, want)
		}
		before = store.gets.Load()
		if _, err := s.Lookup(ctx, strings.Repeat("0", 64)); !errors.Is(err, ErrNotFound) {
			t.Errorf("own store %v: a plan never published: %v, want ErrNotFound", own, err)
		}
		if got := store.gets.Load() - before; got != 1 {
			t.Errorf("own store %v: %d entry reads for a plan not held, want 1", own, got)
		}
	}
}

// TestReplacedPlanNeverWritesOverItsSuccessor: a plan swept past its
// expiry and replaced by a new publish of its id may still be in a turn
// that writes (an outcome of work it had under way). Its write loses its
// compare-and-set to the successor's entry, and the entry it then reads is
// another plan's (another expiry): it must not take it in and write over
// it. Before, it wrote the union under its own expiry, and its end then
// deleted the entry as its own; the successor's next write found none.
// Single mode's Lookup, which answers a live plan without reading its
// entry, relies on no other plan ever writing it.
func TestReplacedPlanNeverWritesOverItsSuccessor(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clock := &skewedClock{}
		s := start(t, Options{Now: clock.now})
		f := newFixture(t, 7)
		ctx := context.Background()
		old := create(t, s, f, clock.now().Add(time.Hour))
		// The first plan's loop is in a turn when its successor comes, and
		// writes (a signer merged) after it: its sweep's eviction waits for
		// the turn's end.
		successor, wrote := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(wrote)
			inLoop(old, func(p *Plan) {
				<-successor
				_, _, err := p.step(func(cur *planState) (*planState, effects, error) {
					next, fx, _, _, err := merge(&p.planParts, cur, f.admitted(3))
					return next, fx, err
				})
				if !errors.Is(err, ErrNotFound) {
					t.Errorf("the replaced plan's late write: %v, want ErrNotFound", err)
				}
			})
		}()
		synctest.Wait()
		clock.advance(2 * time.Hour) // past the first plan's expiry; its timer has not fired
		expiry := clock.now().Add(3 * time.Hour).Truncate(time.Millisecond)
		create(t, s, f, expiry)
		close(successor)
		<-wrote
		time.Sleep(time.Hour) // the first plan has ended
		synctest.Wait()
		e, err := s.store.Get(ctx, f.id)
		if err != nil || !e.Record.Expiry.Equal(expiry) || slices.Contains(e.Record.SignerOf, 3) {
			t.Fatalf("the successor's entry: expiry %v (want %v), signers %v, %v", e.Record.Expiry, expiry, e.Record.SignerOf, err)
		}
		if st, want := lookedUp(t, s, f.id), addresses(0); !slices.Equal(st.Signers, want) {
			t.Fatalf("the successor answers signers %v, want %v", st.Signers, want)
		}
	})
}

// TestClusterReplacedPlanIgnoresItsSuccessorsEntry: in cluster mode, an
// instance may still hold a plan that another instance has replaced past
// its expiry with a new publish of its id (its clock is behind, or its
// timer has not fired yet). The successor's entry reaches the old plan
// through the watch: another plan's (another expiry), it must not be taken
// in: the old plan's next write would then expect the successor's
// revision, and land. Before, it took it in as its own, and its next merge
// wrote the union under its own expiry over the successor's entry.
func TestClusterReplacedPlanIgnoresItsSuccessorsEntry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		shared := newMemStore()
		clocks := [2]*skewedClock{{}, {}}
		var inst [2]memInstance
		var sups [2]*Supervisor
		for i := range inst {
			inst[i] = memInstance{shared, make(chan planstore.Change)}
			sups[i] = start(t, Options{Store: inst[i], Now: clocks[i].now})
		}
		a, b := sups[0], sups[1]
		f := newFixture(t, 3)
		ctx := context.Background()
		old := create(t, a, f, clocks[0].now().Add(time.Hour))
		if _, _, err := old.Merge(ctx, f.admitted(1)); err != nil {
			t.Fatal(err)
		}
		// B's clock is past the first plan's expiry: a new publish of the
		// id replaces it there.
		clocks[1].advance(2 * time.Hour)
		expiry := clocks[1].now().Add(3 * time.Hour).Truncate(time.Millisecond)
		create(t, b, f, expiry)
		inst[0].deliver(t, f.id)
		synctest.Wait()
		// A request that holds the old plan, inside its window by A's
		// clock, merges a signer: it must not land in the successor's
		// entry.
		if _, _, err := old.Merge(ctx, f.admitted(2)); !errors.Is(err, ErrNotFound) {
			t.Errorf("a merge on the replaced plan: %v, want ErrNotFound", err)
		}
		e, err := shared.Get(ctx, f.id)
		if err != nil || !e.Record.Expiry.Equal(expiry) || !slices.Equal(e.Record.SignerOf, []int{0}) {
			t.Fatalf("the successor's entry: expiry %v (want %v), signers %v (want [0]), %v", e.Record.Expiry, expiry, e.Record.SignerOf, err)
		}
		if st := old.settled.Load().state; !slices.Equal(st.Signers, addresses(0, 1)) {
			t.Fatalf("the old plan holds %v, want its own [0 1]", st.Signers)
		}
	})
}
