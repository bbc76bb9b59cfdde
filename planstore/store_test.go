package planstore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/internal/natstest"
	"github.com/closerelay/closerelay/planstore"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

func open(t *testing.T, url, bucket string) *planstore.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := planstore.Open(ctx, planstore.Options{URLs: []string{url}, Bucket: bucket})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// next waits for the watch's next change, or fails after a generous bound.
func next(t *testing.T, s *planstore.Store) planstore.Change {
	t.Helper()
	select {
	case c := <-s.Changes():
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("no change from the watch")
		return planstore.Change{}
	}
}

func TestCompareAndSet(t *testing.T) {
	srv := natstest.Start(t)
	a, b := open(t, srv.URL, "plans"), open(t, srv.URL, "plans")
	ctx := context.Background()
	if _, err := a.Get(ctx, "p1"); !errors.Is(err, planstore.ErrNotFound) {
		t.Fatalf("get of nothing: %v, want ErrNotFound", err)
	}
	rev, err := a.Create(ctx, "p1", []byte("v1"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Create(ctx, "p1", []byte("other")); !errors.Is(err, planstore.ErrConflict) {
		t.Fatalf("second create: %v, want ErrConflict", err)
	}
	rev2, err := b.Update(ctx, "p1", []byte("v2"), rev)
	if err != nil {
		t.Fatal(err)
	}
	// a still expects rev: its write loses.
	if _, err := a.Update(ctx, "p1", []byte("v2'"), rev); !errors.Is(err, planstore.ErrConflict) {
		t.Fatalf("stale update: %v, want ErrConflict", err)
	}
	e, err := a.Get(ctx, "p1")
	if err != nil || string(e.Value) != "v2" || e.Revision != rev2 {
		t.Fatalf("get: %q rev %d, %v; want v2 rev %d", e.Value, e.Revision, err, rev2)
	}
	// Both watches end on the newest write, in revision order. The bucket
	// keeps one revision per key, so a watch that had not delivered v1 when
	// v2 replaced it skips v1 (CI's loaded machine showed it): what every
	// watch owes is the newest value, never an older one after a newer.
	written := map[uint64]string{rev: "v1", rev2: "v2"}
	for _, s := range []*planstore.Store{a, b} {
		var last uint64
		for last != rev2 {
			c := next(t, s)
			if c.ID != "p1" || c.Deleted || c.Revision <= last || written[c.Revision] != string(c.Value) {
				t.Fatalf("change %+v after revision %d; want p1 at a later revision with its written value", c, last)
			}
			last = c.Revision
		}
	}
	if err := a.Delete(ctx, "p1"); err != nil {
		t.Fatal(err)
	}
	if c := next(t, b); !c.Deleted || c.ID != "p1" {
		t.Fatalf("change %+v, want p1 deleted", c)
	}
	if _, err := b.Get(ctx, "p1"); !errors.Is(err, planstore.ErrNotFound) {
		t.Fatalf("get after delete: %v, want ErrNotFound", err)
	}
	if err := b.Delete(ctx, "p1"); err != nil {
		t.Fatalf("second delete: %v", err)
	}
}

func TestReserveEnforcesCapacityAcrossInstances(t *testing.T) {
	srv := natstest.Start(t)
	a, b := open(t, srv.URL, "plans"), open(t, srv.URL, "plans")
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
	if err := a.Reserve(ctx, "p3", "GA", later, now, capacity, perAccount); !errors.Is(err, planstore.ErrAccountCapacity) {
		t.Fatalf("third plan of GA: %v, want ErrAccountCapacity", err)
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
	if err := a.Reserve(ctx, "p4", "GC", later, now, capacity, perAccount); !errors.Is(err, planstore.ErrCapacity) {
		t.Fatalf("fourth plan: %v, want ErrCapacity", err)
	}
	// p1's expiry frees its slot.
	after := soon.Add(time.Millisecond)
	if n, err := a.Open(ctx, after); err != nil || n != 2 {
		t.Fatalf("open after p1's expiry: %d, %v; want 2", n, err)
	}
	if err := a.Reserve(ctx, "p4", "GC", later, after, capacity, perAccount); err != nil {
		t.Fatalf("after p1 expired: %v", err)
	}
}

func TestReserveRacesTakeEachSlotOnce(t *testing.T) {
	srv := natstest.Start(t)
	stores := []*planstore.Store{open(t, srv.URL, "plans"), open(t, srv.URL, "plans"), open(t, srv.URL, "plans")}
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
}

func TestFileStorageBucketRefused(t *testing.T) {
	srv := natstest.Start(t)
	nc, err := nats.Connect(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateKeyValue(context.Background(), jetstream.KeyValueConfig{Bucket: "ondisk", Storage: jetstream.FileStorage}); err != nil {
		t.Fatal(err)
	}
	_, err = planstore.Open(context.Background(), planstore.Options{URLs: []string{srv.URL}, Bucket: "ondisk"})
	if !errors.Is(err, planstore.ErrFileStorage) {
		t.Fatalf("open: %v, want ErrFileStorage", err)
	}
	// A fresh bucket is made in memory.
	s := open(t, srv.URL, "fresh")
	_ = s
	kv, err := js.KeyValue(context.Background(), "fresh")
	if err != nil {
		t.Fatal(err)
	}
	st, err := kv.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := st.(*jetstream.KeyValueBucketStatus).StreamInfo().Config.Storage; got != jetstream.MemoryStorage {
		t.Fatalf("bucket storage %v, want memory", got)
	}
}

func TestUnavailableThenRecovered(t *testing.T) {
	srv := natstest.Start(t)
	s := open(t, srv.URL, "plans")
	ctx := context.Background()
	if _, err := s.Create(ctx, "p1", []byte("v1")); err != nil {
		t.Fatal(err)
	}
	next(t, s)
	srv.Shutdown()
	waitFor(t, "the store to notice", func() bool { return !s.Available() })
	if _, err := s.Get(ctx, "p1"); !errors.Is(err, planstore.ErrUnavailable) {
		t.Fatalf("get while NATS is down: %v, want ErrUnavailable", err)
	}
	if err := s.Reserve(ctx, "p2", "GA", time.Now().Add(time.Hour), time.Now(), 10, 5); !errors.Is(err, planstore.ErrUnavailable) {
		t.Fatalf("reserve while NATS is down: %v, want ErrUnavailable", err)
	}
	// NATS comes back empty (memory storage): the store recreates the
	// bucket and its watch follows new writes, with no restart of ours.
	srv.Restart()
	waitFor(t, "the store to recover", s.Available)
	if _, err := s.Get(ctx, "p1"); !errors.Is(err, planstore.ErrNotFound) {
		t.Fatalf("get after an empty restart: %v, want ErrNotFound", err)
	}
	if _, err := s.Create(ctx, "p1", []byte("again")); err != nil {
		t.Fatal(err)
	}
	for {
		if c := next(t, s); string(c.Value) == "again" {
			break
		}
	}
}

// waitFor polls cond until it holds, or fails after a generous bound: the
// store reacts to a real NATS server's connection events.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestGetAsksTheStreamLeader: Get reads through the stream leader's message
// API, never a direct get, which any replica answers, a follower that has
// not yet applied an acknowledged write included (with NATS_REPLICAS 3, a
// Lookup right after another instance's 200 read the entry without it).
// A spy connection sees which API each Get used: the requests reach it in
// the order the server took them, ahead of the spy's own marker, which the
// server takes after Get has returned.
func TestGetAsksTheStreamLeader(t *testing.T) {
	srv := natstest.Start(t)
	s := open(t, srv.URL, "plans")
	ctx := context.Background()
	rev, err := s.Create(ctx, "p1", []byte("v1"))
	if err != nil {
		t.Fatal(err)
	}
	spy, err := nats.Connect(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer spy.Close()
	seen := make(chan string, 64)
	for _, subject := range []string{"$JS.API.DIRECT.GET.>", "$JS.API.STREAM.MSG.GET.>", "spy.marker"} {
		if _, err := spy.Subscribe(subject, func(m *nats.Msg) { seen <- m.Subject }); err != nil {
			t.Fatal(err)
		}
	}
	if err := spy.Flush(); err != nil {
		t.Fatal(err)
	}
	e, err := s.Get(ctx, "p1")
	if err != nil || string(e.Value) != "v1" || e.Revision != rev {
		t.Fatalf("get: %q rev %d err %v, want v1 rev %d", e.Value, e.Revision, err, rev)
	}
	if err := s.Delete(ctx, "p1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "p1"); !errors.Is(err, planstore.ErrNotFound) {
		t.Fatalf("get of a deleted entry: %v, want ErrNotFound", err)
	}
	if _, err := s.Get(ctx, "never"); !errors.Is(err, planstore.ErrNotFound) {
		t.Fatalf("get of nothing: %v, want ErrNotFound", err)
	}
	if err := spy.Publish("spy.marker", nil); err != nil {
		t.Fatal(err)
	}
	leader := 0
	for {
		select {
		case subject := <-seen:
			switch {
			case subject == "spy.marker":
				if leader != 3 {
					t.Fatalf("%d gets through the leader's message API, want 3", leader)
				}
				return
			case strings.HasPrefix(subject, "$JS.API.DIRECT.GET."):
				t.Fatalf("a get went to any replica: %s", subject)
			default:
				leader++
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the spy's marker never came back")
		}
	}
}
