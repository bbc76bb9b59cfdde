package planstore_test

import (
	"context"
	"errors"
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
func next(t *testing.T, s planstore.Bucket) planstore.Change {
	t.Helper()
	select {
	case c := <-s.Changes():
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("no change from the watch")
		return planstore.Change{}
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
	if _, err := s.Create(ctx, "p1", record("v1")); err != nil {
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
	if _, err := s.Create(ctx, "p1", record("again")); err != nil {
		t.Fatal(err)
	}
	for {
		if c := next(t, s); c.Record.XDR == "again" {
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
	rev, err := s.Create(ctx, "p1", record("v1"))
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
	if err != nil || e.Record.XDR != "v1" || e.Revision != rev {
		t.Fatalf("get: %q rev %d err %v, want v1 rev %d", e.Record.XDR, e.Revision, err, rev)
	}
	if err := s.Delete(ctx, "p1", rev); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "p1"); !errors.Is(err, planstore.ErrNotFound) {
		t.Fatalf("get of a deleted entry: %v, want ErrNotFound", err)
	}
	if _, err := s.Get(ctx, "never"); !errors.Is(err, planstore.ErrNotFound) {
		t.Fatalf("get of nothing: %v, want ErrNotFound", err)
	}
	// The store's requests and the spy's marker come from two connections,
	// which NATS does not order one against the other: wait for the three
	// reads first, then let the marker flush what else came.
	leader := 0
	marked := false
	for !marked {
		select {
		case subject := <-seen:
			switch {
			case subject == "spy.marker":
				marked = true
			case strings.HasPrefix(subject, "$JS.API.DIRECT.GET.") && (strings.HasSuffix(subject, "p1") || strings.HasSuffix(subject, "never")):
				t.Fatalf("a get went to any replica: %s", subject)
			case strings.HasPrefix(subject, "$JS.API.DIRECT.GET."):
				// Another read of the store's (the registry's), not a plan
				// entry's: not what this test is about.
			default:
				leader++
				if leader == 3 {
					if err := spy.Publish("spy.marker", nil); err != nil {
						t.Fatal(err)
					}
				}
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%d gets through the leader's message API after 10 s, want 3", leader)
		}
	}
	if leader != 3 {
		t.Fatalf("%d gets through the leader's message API, want 3", leader)
	}
}

// TestCorruptEntry: a plan entry whose value is not a Record (written by
// hand, or by a build that wrote another shape) is ErrCorrupt with its
// revision, so that a publish can replace it with compare-and-set; the
// watch skips it and goes on.
func TestCorruptEntry(t *testing.T) {
	srv := natstest.Start(t)
	s := open(t, srv.URL, "plans")
	ctx := context.Background()
	nc, err := nats.Connect(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := js.KeyValue(ctx, "plans")
	if err != nil {
		t.Fatal(err)
	}
	rev, err := kv.Put(ctx, "plan.p1", []byte("not json"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := s.Get(ctx, "p1")
	if !errors.Is(err, planstore.ErrCorrupt) || e.Revision != rev {
		t.Fatalf("get of a corrupt entry: rev %d, %v; want ErrCorrupt at %d", e.Revision, err, rev)
	}
	if _, err := s.Update(ctx, "p1", record("fixed"), e.Revision); err != nil {
		t.Fatalf("replace the corrupt entry: %v", err)
	}
	if c := next(t, s); c.ID != "p1" || c.Record.XDR != "fixed" {
		t.Fatalf("the watch delivered %+v, want the fixed entry (the corrupt one skipped)", c)
	}
}
