package actor

import (
	"context"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/planstore"
)

// Read-after-sign across instances (CONTRACT section 12): a sign answered
// 200 by one instance is in every later answer of every instance. These
// tests hold each step of a race open with gates (a clock and a store
// read that stop once when armed) inside a synctest bubble, so the order
// is the test's, not the scheduler's.

// gate stops the first call after arm until release, and says when that
// call has arrived.
type gate struct {
	mu      sync.Mutex
	arrived chan struct{} // nil: not armed
	release chan struct{}
}

// arm makes the next call stop; it returns the channels that say it has
// arrived and that let it go on.
func (g *gate) arm() (arrived <-chan struct{}, release chan<- struct{}) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.arrived, g.release = make(chan struct{}), make(chan struct{})
	return g.arrived, g.release
}

func (g *gate) pass() {
	g.mu.Lock()
	arrived, release := g.arrived, g.release
	g.arrived, g.release = nil, nil
	g.mu.Unlock()
	if arrived != nil {
		close(arrived)
		<-release
	}
}

// gatedClock is a Supervisor's Now that stops once when armed.
type gatedClock struct{ gate }

func (c *gatedClock) now() time.Time {
	c.pass()
	return time.Now()
}

// gatedInstance is an instance's handle on the shared store whose Get
// stops once, before reading, when armed.
type gatedInstance struct {
	memInstance
	get gate
}

func (g *gatedInstance) Get(ctx context.Context, id string) (planstore.Entry, error) {
	g.get.pass()
	return g.memInstance.Get(ctx, id)
}

type lookupResult struct {
	st  State
	err error
}

// TestClusterLookupHandedAPlanRegisteredFromAnOlderRead: a Lookup on B
// reads the entry with A's sign and finds no plan; before it registers the
// plan it restored, another request on B (or B's watch) registers one
// restored from an older read, whose loop has not read the entry yet. The
// Supervisor hands the Lookup that plan instead of its own; the Lookup
// must not answer from it before it holds the entry the Lookup read,
// however it found the plan, or B answers without a sign A answered 200.
func TestClusterLookupHandedAPlanRegisteredFromAnOlderRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		shared := newMemStore()
		clock := &gatedClock{}
		instB := &gatedInstance{memInstance: memInstance{shared, make(chan planstore.Change)}}
		a := start(t, Options{Store: memInstance{shared, make(chan planstore.Change)}})
		b := start(t, Options{Store: instB, Now: clock.now})
		f := newFixture(t, 1)
		ctx := context.Background()
		pa := create(t, a, f, time.Now().Add(time.Hour), 0)
		older, err := shared.Get(ctx, f.id) // another request's read on B
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := pa.Merge(ctx, f.admitted(1)) // A answers 200
		if err != nil {
			t.Fatal(err)
		}

		// The Lookup reads the entry with A's sign, finds no plan on B,
		// and stops at the clock, before it registers the one it restores.
		atClock, goOn := clock.arm()
		got := make(chan lookupResult, 1)
		go func() {
			p, err := b.Lookup(ctx, f.id)
			if err != nil {
				got <- lookupResult{err: err}
				return
			}
			st, err := p.Snapshot(ctx) // what a GET answers, at once
			got <- lookupResult{st, err}
		}()
		<-atClock

		// The plan restored from the older read registers first; its loop
		// stops at its first read of the entry.
		first, err := b.restore(f.id, older.Record, older.Revision)
		if err != nil {
			t.Fatal(err)
		}
		atGet, readOn := instB.get.arm()
		if reg, _, err := b.adopt(ctx, first, false); err != nil || reg != first {
			t.Fatalf("adopt: %v %v", reg == first, err)
		}
		<-atGet

		// The Lookup goes on: the Supervisor hands it the plan registered
		// first.
		close(goOn)
		synctest.Wait()
		select {
		case res := <-got:
			close(readOn)
			if res.err != nil || !equalState(res.st, want) {
				t.Fatalf("B answered version %d %v (err %v) while its plan held the older read, want A's %d %v",
					res.st.Version, res.st.Signers, res.err, want.Version, want.Signers)
			}
		default: // waiting for the plan to take the entry in
			close(readOn)
			res := <-got
			if res.err != nil || !equalState(res.st, want) {
				t.Fatalf("B answers version %d %v (err %v), want A's %d %v", res.st.Version, res.st.Signers, res.err, want.Version, want.Signers)
			}
		}
	})
}

// TestClusterEntryWrittenAgainAtAnEqualVersion: the entry is lost (a NATS
// server with memory storage restarted empty) and written again by B at the
// version A's view already has, with a sign A lacks. A's Lookup reads it:
// the entry's version is no newer than A's view, yet it holds a signature
// A's view does not. What A takes in must be decided by the signers: by
// the version, A would answer without B's sign, and A's next write would
// drop it from the store.
func TestClusterEntryWrittenAgainAtAnEqualVersion(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		shared, _, sups := clusterPair(t)
		a, b := sups[0], sups[1]
		f := newFixture(t, 2)
		ctx := context.Background()
		pa := create(t, a, f, time.Now().Add(time.Hour), 0)
		pb, err := b.Lookup(ctx, f.id)
		if err != nil {
			t.Fatal(err)
		}
		synctest.Wait() // B's loop has read the entry as it starts
		if _, _, err := pa.Merge(ctx, f.admitted(1)); err != nil {
			t.Fatal(err)
		}
		before, err := shared.Get(ctx, f.id)
		if err != nil {
			t.Fatal(err)
		}
		if err := shared.Delete(ctx, f.id, before.Revision); err != nil { // the store restarted empty
			t.Fatal(err)
		}
		signed, _, err := pb.Merge(ctx, f.admitted(2)) // B answers 200
		if err != nil {
			t.Fatal(err)
		}
		if signed.Version != 2 {
			t.Fatalf("B wrote version %d, want 2 (A's view has version 2 too)", signed.Version)
		}
		st := lookedUp(t, a, f.id)
		checkEnvelope(t, f, st, 0, 2, 1)
		// A's next sign keeps B's in the store.
		if _, _, err := pa.Merge(ctx, f.admitted(3)); err != nil {
			t.Fatal(err)
		}
		e, err := shared.Get(ctx, f.id)
		if err != nil {
			t.Fatal(err)
		}
		for _, signer := range []int{0, 1, 2, 3} {
			if !slices.Contains(e.Record.SignerOf, signer) {
				t.Fatalf("the stored entry lacks signer %d: %v", signer, e.Record.SignerOf)
			}
		}
	})
}
