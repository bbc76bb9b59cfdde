package planstore_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/closerelay/closerelay/internal/natstest"
	"github.com/closerelay/closerelay/planstore"
)

// The store's contract: what the plan actor relies on, whichever Bucket it
// runs on. Every test here runs against both implementations: Memory
// (single mode) and Store on a real NATS server (cluster mode).

// implementation opens n handles on one fresh store, as n instances would.
type implementation struct {
	name string
	open func(t *testing.T, n int) []planstore.Bucket
	// echoesOwn: a handle's watch delivers its own writes too (NATS does;
	// Memory does not, as the writer holds them already).
	echoesOwn bool
}

var implementations = []implementation{
	{name: "memory", open: func(t *testing.T, n int) []planstore.Bucket {
		m := planstore.NewMemory()
		t.Cleanup(m.Close)
		hs := []planstore.Bucket{m}
		for range n - 1 {
			h := m.Instance()
			t.Cleanup(h.Close)
			hs = append(hs, h)
		}
		return hs
	}},
	{name: "nats", echoesOwn: true, open: func(t *testing.T, n int) []planstore.Bucket {
		srv := natstest.Start(t)
		var hs []planstore.Bucket
		for range n {
			hs = append(hs, open(t, srv.URL, "plans"))
		}
		return hs
	}},
}

func contract(t *testing.T, test func(t *testing.T, impl implementation)) {
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) { test(t, impl) })
	}
}

// record is a plan record told apart by its XDR.
func record(xdr string) planstore.Record { return planstore.Record{XDR: xdr} }

func TestCompareAndSet(t *testing.T) {
	contract(t, func(t *testing.T, impl implementation) {
		hs := impl.open(t, 2)
		a, b := hs[0], hs[1]
		ctx := context.Background()
		if !a.Available() || !b.Available() {
			t.Fatal("a fresh store is not available")
		}
		if _, err := a.Get(ctx, "p1"); !errors.Is(err, planstore.ErrNotFound) {
			t.Fatalf("get of nothing: %v, want ErrNotFound", err)
		}
		if _, err := a.Update(ctx, "p1", record("v0"), 1); !errors.Is(err, planstore.ErrConflict) {
			t.Fatalf("update of nothing: %v, want ErrConflict", err)
		}
		rev, err := a.Create(ctx, "p1", record("v1"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.Create(ctx, "p1", record("other")); !errors.Is(err, planstore.ErrConflict) {
			t.Fatalf("second create: %v, want ErrConflict", err)
		}
		rev2, err := b.Update(ctx, "p1", record("v2"), rev)
		if err != nil {
			t.Fatal(err)
		}
		if rev2 <= rev {
			t.Fatalf("revision %d after %d, want it higher", rev2, rev)
		}
		// a still expects rev: its write loses.
		if _, err := a.Update(ctx, "p1", record("v2'"), rev); !errors.Is(err, planstore.ErrConflict) {
			t.Fatalf("stale update: %v, want ErrConflict", err)
		}
		e, err := a.Get(ctx, "p1")
		if err != nil || e.Record.XDR != "v2" || e.Revision != rev2 {
			t.Fatalf("get: %q rev %d, %v; want v2 rev %d", e.Record.XDR, e.Revision, err, rev2)
		}
		// Each watch gets the other's writes, in revision order, ending on
		// the newest. The bucket keeps one revision per key, so a watch
		// that had not delivered v1 when v2 replaced it skips v1: what
		// every watch owes is the newest value, never an older one after a
		// newer. A store that echoes a handle's own writes ends both on v2.
		written := map[uint64]string{rev: "v1", rev2: "v2"}
		ends := map[planstore.Bucket]uint64{a: rev2, b: rev}
		if impl.echoesOwn {
			ends[b] = rev2
		}
		for _, s := range []planstore.Bucket{a, b} {
			var last uint64
			for last != ends[s] {
				c := next(t, s)
				if c.ID != "p1" || c.Deleted || c.Revision <= last || written[c.Revision] != c.Record.XDR {
					t.Fatalf("change %+v after revision %d; want p1 at a later revision with its written value", c, last)
				}
				last = c.Revision
			}
		}
		// A delete at a revision the entry has left refuses, and keeps it.
		if err := a.Delete(ctx, "p1", rev); !errors.Is(err, planstore.ErrConflict) {
			t.Fatalf("delete at the older revision %d: %v, want ErrConflict", rev, err)
		}
		if e, err := b.Get(ctx, "p1"); err != nil || e.Revision != rev2 {
			t.Fatalf("after a refused delete: revision %d, %v; want %d kept", e.Revision, err, rev2)
		}
		if err := a.Delete(ctx, "p1", rev2); err != nil {
			t.Fatal(err)
		}
		if c := next(t, b); !c.Deleted || c.ID != "p1" {
			t.Fatalf("change %+v, want p1 deleted", c)
		}
		if _, err := b.Get(ctx, "p1"); !errors.Is(err, planstore.ErrNotFound) {
			t.Fatalf("get after delete: %v, want ErrNotFound", err)
		}
		if err := b.Delete(ctx, "p1", rev2); err != nil {
			t.Fatalf("second delete: %v", err)
		}
		// A deleted entry is created afresh.
		if _, err := b.Create(ctx, "p1", record("v3")); err != nil {
			t.Fatalf("create after delete: %v", err)
		}
	})
}

// TestRecordKeepsEveryField: what is written is what is read back, every
// field of the plan record included.
func TestRecordKeepsEveryField(t *testing.T) {
	contract(t, func(t *testing.T, impl implementation) {
		s := impl.open(t, 1)[0]
		ctx := context.Background()
		want := planstore.Record{
			Network: "testnet", Account: "GA", Expiry: time.Unix(1_800_000_000, 0).UTC(),
			Threshold: 2, Thresholds: [3]uint8{1, 2, 3},
			Set: []planstore.Signer{{Address: "GA", Weight: 1}, {Address: "GB", Weight: 2}},
			XDR: "AAAA", SignerOf: []int{1, 0}, Version: 7,
			Submission: planstore.SubmissionRecord{
				Submit: true, Seq: 3, State: "pending", Hash: "ab", Ledger: 9, Code: "tx_bad_seq",
				Reason: "why", Tried: "BBBB", Owner: "i1", Lease: time.Unix(1_800_000_100, 0).UTC(),
			},
			Forward: &planstore.ForwardRecord{
				Seq: 4, Nonce: "00ff", Destination: "GC", Memo: "text:deposit 1", State: "failed", Hash: "cd",
				Ledger: 11, Amount: "1.5000000", Code: "tx_failed", Reason: "refused", Owner: "i2",
				Lease: time.Unix(1_800_000_200, 0).UTC(),
			},
		}
		rev, err := s.Create(ctx, "p1", want)
		if err != nil {
			t.Fatal(err)
		}
		e, err := s.Get(ctx, "p1")
		if err != nil || e.Revision != rev || !reflect.DeepEqual(e.Record, want) {
			t.Fatalf("read back %+v rev %d (%v), want %+v rev %d", e.Record, e.Revision, err, want, rev)
		}
	})
}

func TestReserveEnforcesCapacityAcrossInstances(t *testing.T) {
	contract(t, func(t *testing.T, impl implementation) {
		hs := impl.open(t, 2)
		a, b := hs[0], hs[1]
		ctx := context.Background()
		now := time.Now()
		soon, later := now.Add(time.Minute), now.Add(time.Hour)
		const capacity, perAccount = 3, 2
		if err := a.Reserve(ctx, "p1", "GA", soon, now, capacity, perAccount); err != nil {
			t.Fatal(err)
		}
		if err := b.Reserve(ctx, "p2", "GA", later, now, capacity, perAccount); err != nil {
			t.Fatal(err)
		}
		err := a.Reserve(ctx, "p3", "GA", later, now, capacity, perAccount)
		var ce *planstore.CapacityError
		if !errors.Is(err, planstore.ErrAccountCapacity) || !errors.As(err, &ce) || ce.Open != 2 || ce.AccountOpen != 2 {
			t.Fatalf("third plan of GA: %v (%+v), want ErrAccountCapacity with 2 open, 2 of GA", err, ce)
		}
		if err := b.CheckCapacity(ctx, "GA", now, capacity, perAccount); !errors.Is(err, planstore.ErrAccountCapacity) {
			t.Fatalf("check for GA: %v, want ErrAccountCapacity", err)
		}
		// The same id again keeps its slot and takes no other.
		if err := b.Reserve(ctx, "p2", "GA", later, now, capacity, perAccount); err != nil {
			t.Fatalf("p2 again: %v", err)
		}
		if err := b.Reserve(ctx, "p3", "GB", later, now, capacity, perAccount); err != nil {
			t.Fatal(err)
		}
		err = a.Reserve(ctx, "p4", "GC", later, now, capacity, perAccount)
		if !errors.Is(err, planstore.ErrCapacity) || !errors.As(err, &ce) || ce.Open != 3 {
			t.Fatalf("fourth plan: %v (%+v), want ErrCapacity with 3 open", err, ce)
		}
		if err := b.CheckCapacity(ctx, "GC", now, capacity, perAccount); !errors.Is(err, planstore.ErrCapacity) {
			t.Fatalf("check at capacity: %v, want ErrCapacity", err)
		}
		if n, err := b.Open(ctx, now); err != nil || n != 3 {
			t.Fatalf("open: %d, %v; want 3", n, err)
		}
		// p1's expiry frees its slot.
		after := soon.Add(time.Millisecond)
		if n, err := a.Open(ctx, after); err != nil || n != 2 {
			t.Fatalf("open after p1's expiry: %d, %v; want 2", n, err)
		}
		if err := a.Reserve(ctx, "p4", "GC", later, after, capacity, perAccount); err != nil {
			t.Fatalf("after p1 expired: %v", err)
		}
	})
}

func TestReserveRacesTakeEachSlotOnce(t *testing.T) {
	contract(t, func(t *testing.T, impl implementation) {
		stores := impl.open(t, 3)
		ctx := context.Background()
		now := time.Now()
		const capacity = 10
		results := make(chan error, 30)
		for i := range 30 {
			s := stores[i%3]
			go func() {
				results <- s.Reserve(ctx, fmt.Sprintf("p%d", i), fmt.Sprintf("G%d", i), now.Add(time.Hour), now, capacity, 5)
			}()
		}
		ok, full := 0, 0
		for range 30 {
			switch err := <-results; {
			case err == nil:
				ok++
			case errors.Is(err, planstore.ErrCapacity):
				full++
			default:
				t.Fatal(err)
			}
		}
		if ok != capacity || full != 30-capacity {
			t.Fatalf("%d reserved and %d refused, want %d and %d", ok, full, capacity, 30-capacity)
		}
	})
}

// TestConcurrentWritesOneWinsPerRevision: of writers racing from the same
// revision, exactly one wins; the others lose with ErrConflict.
func TestConcurrentWritesOneWinsPerRevision(t *testing.T) {
	contract(t, func(t *testing.T, impl implementation) {
		stores := impl.open(t, 3)
		ctx := context.Background()
		rev, err := stores[0].Create(ctx, "p1", record("v1"))
		if err != nil {
			t.Fatal(err)
		}
		results := make(chan error, 12)
		for i := range 12 {
			go func() {
				_, err := stores[i%3].Update(ctx, "p1", record(fmt.Sprint("w", i)), rev)
				results <- err
			}()
		}
		won := 0
		for range 12 {
			switch err := <-results; {
			case err == nil:
				won++
			case !errors.Is(err, planstore.ErrConflict):
				t.Fatal(err)
			}
		}
		if won != 1 {
			t.Fatalf("%d writes won from one revision, want 1", won)
		}
	})
}

// Hold moves a slot's end, as a plan that outlives its signing window for
// its forward needs: past the end it was reserved with, the slot still
// counts (another instance's check sees it), until the held end; a hold of
// a slot already gone takes it again.
func TestHoldKeepsASlot(t *testing.T) {
	contract(t, func(t *testing.T, impl implementation) {
		hs := impl.open(t, 2)
		a, b := hs[0], hs[1]
		ctx := t.Context()
		now := time.Unix(1_800_000_000, 0)
		window, held := now.Add(time.Minute), now.Add(time.Hour)
		if err := a.Reserve(ctx, "p1", "GA", window, now, 1, 5); err != nil {
			t.Fatal(err)
		}
		if err := a.Hold(ctx, "p1", "GA", held); err != nil {
			t.Fatal(err)
		}
		past := window.Add(time.Second)
		if err := b.CheckCapacity(ctx, "GB", past, 1, 5); !errors.Is(err, planstore.ErrCapacity) {
			t.Errorf("check past the reserved end: %v, want ErrCapacity (the held slot counts)", err)
		}
		if n, _ := b.Open(ctx, past); n != 1 {
			t.Errorf("open past the reserved end: %d, want 1", n)
		}
		if n, _ := b.Open(ctx, held); n != 0 {
			t.Errorf("open at the held end: %d, want 0", n)
		}
		// Shortened again (the forward settled): the slot ends earlier.
		if err := b.Hold(ctx, "p1", "GA", window.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if n, _ := a.Open(ctx, window.Add(2*time.Minute)); n != 0 {
			t.Errorf("open past the shortened end: %d, want 0", n)
		}
		if err := a.Hold(ctx, "gone", "GC", held); err != nil {
			t.Fatal(err)
		}
		if n, _ := a.Open(ctx, past); n != 2 {
			t.Errorf("open after holding a slot that was gone: %d, want 2", n)
		}
	})
}
