package actor

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/ledger"
)

// TestMergeInPlaceNeverOvertakesAPostedRequest: a merge is served on its
// caller's goroutine only when no request handed to the run loop before
// it is still to be taken up. Without that rule a merge the loop had
// taken from its mailbox, and was waiting for serving to serve, was
// overtaken by a later merge served in place (versions in the other order
// than the merges were sent), and a subscription whose Close had returned
// was still offered the later version.
func TestMergeInPlaceNeverOvertakesAPostedRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := start(t, Options{})
		f := newFixture(t, 1)
		p := create(t, s, f, time.Now().Add(ledger.SigningWindow))
		synctest.Wait() // the loop waits for its next event
		p.posted.Add(1) // a request sent, not taken up yet
		if _, _, ok := p.mergeInPlace(f.admitted(1)); ok {
			t.Fatal("a merge was served in place ahead of a request sent before it")
		}
		if st, _ := p.Snapshot(t.Context()); st.Version != 1 {
			t.Fatalf("version %d after a merge refused in place, want 1", st.Version)
		}
		p.posted.Add(-1) // taken up and served
		r, err, ok := p.mergeInPlace(f.admitted(1))
		if !ok || err != nil || !r.changed || r.state.Version != 2 {
			t.Fatalf("mergeInPlace with nothing posted: %+v %v %v; want version 2 served in place", r, err, ok)
		}
	})
}

// TestPostedCountsEveryRequest: every way a request reaches the run loop
// is counted in posted from before its send until the loop takes it up,
// and a send given up (the caller's context ended, the plan ended) is
// uncounted, so posted is 0 whenever nothing is on its way. A count left
// above 0 would keep every later merge off the in-place path; the loop
// panics (under the tests' loop checks) on one below 0.
func TestPostedCountsEveryRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := start(t, Options{})
		f := newFixture(t, 1)
		p := create(t, s, f, time.Now().Add(time.Hour))
		wantPosted := func(what string) {
			t.Helper()
			synctest.Wait()
			if n := p.posted.Load(); n != 0 {
				t.Fatalf("%s: posted %d, want 0", what, n)
			}
		}
		sub, err := p.Subscribe(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		wantPosted("after Subscribe")
		if _, _, err := p.Merge(t.Context(), f.admitted(1)); err != nil {
			t.Fatal(err)
		}
		wantPosted("after a Merge")
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if err := p.SetSubmit(ctx); err == nil {
			t.Fatal("SetSubmit with an ended context answered nil")
		}
		wantPosted("after a send given up")
		sub.Close()
		wantPosted("after Close")
		inLoop(p, func(*Plan) {})
		wantPosted("after a told outcome")
		if err := s.Stop(t.Context()); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		sub2 := &Subscription{plan: p}
		sub2.Close() // the plan has ended: given up
		if n := p.posted.Load(); n != 0 {
			t.Fatalf("after Close on an ended plan: posted %d, want 0", n)
		}
	})
}
