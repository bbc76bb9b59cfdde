package actor

import (
	"bytes"
	"errors"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/metrics"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// TestMergesInOrder: merges apply in arrival order, one version and one
// event per change, and a batch keeps its own order.
func TestMergesInOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		m := metrics.New()
		f, p, sub := startSubscribed(t, Options{Metrics: m})
		if ev := <-sub.C(); ev.State.Version != 1 {
			t.Fatalf("first event is version %d, want 1", ev.State.Version)
		}

		signers := []int{0}
		for i, batch := range [][]int{{1}, {2}, {3}, {5, 4, 6}, {7, 7, 1}} {
			st, changed, err := p.Merge(ctx, f.admitted(batch...))
			if err != nil || !changed {
				t.Fatalf("Merge %v: changed=%v err=%v", batch, changed, err)
			}
			for _, s := range batch {
				if !slices.Contains(signers, s) {
					signers = append(signers, s)
				}
			}
			wantVersion := uint64(i + 2)
			if st.Version != wantVersion {
				t.Fatalf("Merge %v: version %d, want %d", batch, st.Version, wantVersion)
			}
			checkEnvelope(t, f, st, signers...)
			synctest.Wait()
			events, _ := drain(sub.C())
			if len(events) != 1 || events[0].State.Version != wantVersion || events[0].State.XDR != st.XDR {
				t.Fatalf("Merge %v: subscriber got %d events, want version %d once", batch, len(events), wantVersion)
			}
		}
		for _, s := range signers {
			if i, ok := p.Known(f.sigs[s].Sig.Signature); !ok || i != s {
				t.Errorf("Known(sig %d) = %d, %v", s, i, ok)
			}
		}
		if v := metricValue(t, m, "closerelay_signatures_total", "result", metrics.SignatureAdmitted); v != 7 {
			t.Errorf("admitted = %v, want 7", v)
		}
		if v := metricValue(t, m, "closerelay_signatures_total", "result", metrics.SignatureDuplicate); v != 2 {
			t.Errorf("duplicate = %v, want 2", v)
		}
		if v := metricValue(t, m, "closerelay_stream_events_total"); v != 5 {
			t.Errorf("stream_events_total = %v, want 5", v)
		}
	})
}

// TestDuplicateMergeChangesNothing: signers already present, under their
// own bytes or a forged hint, change nothing and send nothing.
func TestDuplicateMergeChangesNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		m := metrics.New()
		s := start(t, Options{Metrics: m})
		f := newFixture(t, 1)
		p := create(t, s, f, time.Now().Add(ledger.SigningWindow), 0, 1)
		before, _ := p.Snapshot(ctx)
		sub, err := p.Subscribe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		<-sub.C()

		forged := f.sigs[1]
		forged.Sig = xdr.DecoratedSignature{Hint: xdr.SignatureHint{1, 2, 3, 4}, Signature: forged.Sig.Signature}
		for name, admitted := range map[string][]ledger.Admitted{
			"same bytes":   f.admitted(1),
			"forged hint":  {forged},
			"both present": f.admitted(1, 0),
			"nothing":      nil,
		} {
			st, changed, err := p.Merge(ctx, admitted)
			if err != nil || changed || !equalState(st, before) {
				t.Errorf("%s: Merge = v%d, changed=%v, err=%v; want the unchanged state", name, st.Version, changed, err)
			}
		}
		synctest.Wait()
		if events, _ := drain(sub.C()); len(events) != 0 {
			t.Errorf("a duplicate merge sent %d events", len(events))
		}
		if after, _ := p.Snapshot(ctx); !equalState(after, before) {
			t.Errorf("state changed: v%d → v%d", before.Version, after.Version)
		}
		if v := metricValue(t, m, "closerelay_signatures_total", "result", metrics.SignatureDuplicate); v != 4 {
			t.Errorf("duplicate = %v, want 4", v)
		}
		if v := metricValue(t, m, "closerelay_stream_events_total"); v != 0 {
			t.Errorf("stream_events_total = %v, want 0", v)
		}
	})
}

// TestSignatureCap: a merge that would pass 20 signatures applies nothing;
// one that reaches exactly 20 applies; duplicates at the cap still succeed.
func TestSignatureCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		s := start(t, Options{})
		f := newFixture(t, 1)
		first := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}
		p := create(t, s, f, time.Now().Add(ledger.SigningWindow), first...)
		sub, err := p.Subscribe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		<-sub.C()

		// 15 + 6 = 21: refused whole, even though 5 of the 6 would fit.
		if _, changed, err := p.Merge(ctx, f.admitted(15, 16, 17, 18, 19, 20)); !errors.Is(err, ErrSignatureCap) || changed {
			t.Fatalf("Merge to 21 = changed=%v, %v; want ErrSignatureCap", changed, err)
		}
		if st, _ := p.Snapshot(ctx); st.Version != 1 || len(st.Signers) != 15 {
			t.Fatalf("after a refused merge: v%d with %d signers", st.Version, len(st.Signers))
		}
		if _, ok := p.Known(f.sigs[15].Sig.Signature); ok {
			t.Fatal("a refused merge made its signatures known")
		}
		st, changed, err := p.Merge(ctx, f.admitted(15, 16, 17, 18, 19))
		if err != nil || !changed {
			t.Fatalf("Merge to exactly 20 = changed=%v, %v", changed, err)
		}
		checkEnvelope(t, f, st, append(first, 15, 16, 17, 18, 19)...)
		if _, _, err := p.Merge(ctx, f.admitted(20)); !errors.Is(err, ErrSignatureCap) {
			t.Fatalf("Merge of a 21st = %v, want ErrSignatureCap", err)
		}
		if _, _, err := p.Merge(ctx, f.admitted(3, 20)); !errors.Is(err, ErrSignatureCap) {
			t.Fatalf("Merge of a duplicate and a 21st = %v, want ErrSignatureCap", err)
		}
		if _, changed, err := p.Merge(ctx, f.admitted(3)); err != nil || changed {
			t.Fatalf("Merge of a duplicate at the cap = changed=%v, %v; want success, no change", changed, err)
		}
		synctest.Wait()
		if events, _ := drain(sub.C()); len(events) != 1 || events[0].State.Version != 2 {
			t.Fatalf("subscriber got %d events, want the one change", len(events))
		}
	})
}

// TestMergeThroughCheckPartial runs the sign path as the HTTP layer does:
// ledger checks the partial outside the actor, with Known as its replay
// fast path, then the actor merges.
func TestMergeThroughCheckPartial(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		s := start(t, Options{})
		f := newFixture(t, 1)
		p := create(t, s, f, time.Now().Add(ledger.SigningWindow))

		admitted, err := p.Canonical().CheckPartial(ctx, sweeps, f.partial(t, f.sigs[2].Sig), p.Known)
		if err != nil {
			t.Fatal(err)
		}
		st, changed, err := p.Merge(ctx, admitted)
		if err != nil || !changed {
			t.Fatalf("Merge = changed=%v, %v", changed, err)
		}
		checkEnvelope(t, f, st, 0, 2)

		// The same signature replayed under another hint is recognised by
		// its bytes and changes nothing.
		replay := xdr.DecoratedSignature{Hint: xdr.SignatureHint{9, 9, 9, 9}, Signature: f.sigs[2].Sig.Signature}
		admitted, err = p.Canonical().CheckPartial(ctx, sweeps, f.partial(t, replay), p.Known)
		if err != nil || len(admitted) != 1 || admitted[0].Signer != 2 {
			t.Fatalf("CheckPartial(replay) = %+v, %v", admitted, err)
		}
		if _, changed, err := p.Merge(ctx, admitted); err != nil || changed {
			t.Fatalf("Merge(replay) = changed=%v, %v", changed, err)
		}
	})
}

// TestConcurrentMerges: merges racing from many goroutines all land, and a
// reader never sees a version go backwards.
func TestConcurrentMerges(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		s := start(t, Options{})
		f := newFixture(t, 1)
		p := create(t, s, f, time.Now().Add(ledger.SigningWindow))
		sub, err := p.Subscribe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var versions []uint64
		readerDone := make(chan struct{})
		go func() {
			defer close(readerDone)
			for ev := range sub.C() {
				versions = append(versions, ev.State.Version)
			}
		}()
		var wg sync.WaitGroup
		for i := 1; i < ledger.MaxSignatures; i++ {
			wg.Go(func() {
				// Each co-signer also replays the master's signature.
				if _, _, err := p.Merge(ctx, f.admitted(0, i)); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		st, _ := p.Snapshot(ctx)
		sub.Close()
		<-readerDone
		if st.Version != ledger.MaxSignatures || len(st.Signers) != ledger.MaxSignatures {
			t.Fatalf("final state v%d with %d signers, want %d of each", st.Version, len(st.Signers), ledger.MaxSignatures)
		}
		if !slices.IsSorted(versions) || len(slices.Compact(versions)) != len(versions) {
			t.Errorf("reader saw versions %v: not strictly increasing", versions)
		}
		if versions[len(versions)-1] != st.Version {
			t.Errorf("reader's last version %d, want %d", versions[len(versions)-1], st.Version)
		}
	})
}

// TestStateAnswerKeptFromTheSecondAsk: a version's first answer is rendered
// into the caller's scratch and kept nowhere; from the second ask on, every
// copy of the version shares one kept rendering, apart from the event's; a
// new version starts again; a State not made by a plan renders into scratch
// on every call.
func TestStateAnswerKeptFromTheSecondAsk(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		f, p, sub := startSubscribed(t, Options{})
		calls := 0
		render := func(dst []byte, s State) []byte {
			calls++
			return append(dst, 'a', byte(s.Version))
		}
		snap, err := p.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ev := <-sub.C()
		scratch := make([]byte, 0, 8)
		b, kept := snap.RenderAnswer(render, scratch)
		if kept || !bytes.Equal(b, []byte{'a', 1}) || &b[0] != &scratch[:1][0] {
			t.Fatalf("first answer %v kept %v, want version 1's in the scratch, not kept", b, kept)
		}
		var shared []byte
		for i, st := range []State{ev.State, snap, ev.State} {
			b, kept := st.RenderAnswer(render, scratch)
			if !kept || !bytes.Equal(b, []byte{'a', 1}) || &b[0] == &scratch[:1][0] {
				t.Fatalf("ask %d: answer %v kept %v, want version 1's kept apart from the scratch", i+2, b, kept)
			}
			if shared != nil && &b[0] != &shared[0] {
				t.Fatalf("ask %d rendered again", i+2)
			}
			shared = b
		}
		if calls != 2 {
			t.Fatalf("four asks of version 1 rendered %d times, want 2 (the first, then the kept one)", calls)
		}
		if got := snap.Render(func(State) []byte { return []byte("event") }); string(got) != "event" {
			t.Fatalf("the event's rendering is %q: it shares the answer's", got)
		}
		st, _, err := p.Merge(ctx, f.admitted(1))
		if err != nil {
			t.Fatal(err)
		}
		if b, kept := st.RenderAnswer(render, scratch); kept || !bytes.Equal(b, []byte{'a', 2}) {
			t.Fatalf("version 2's first answer %v kept %v, want its own, not kept", b, kept)
		}
		var zero State
		for range 2 {
			if _, kept := zero.RenderAnswer(render, scratch); kept {
				t.Fatal("the zero State kept an answer")
			}
		}
		if calls != 5 {
			t.Fatalf("%d renders, want 5", calls)
		}
	})
}

// TestStateRendersOncePerVersion: every copy of one version's State (a
// snapshot, a subscriber's event) shares one rendering, a new version
// renders anew, and a State not made by a plan renders on every call.
func TestStateRendersOncePerVersion(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		f, p, sub := startSubscribed(t, Options{})
		calls := 0
		render := func(s State) []byte {
			calls++
			return []byte{byte(s.Version)}
		}
		snap, err := p.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ev := <-sub.C()
		for _, st := range []State{snap, ev.State, snap} {
			if got := st.Render(render); !bytes.Equal(got, []byte{1}) {
				t.Fatalf("Render = %v, want version 1's", got)
			}
		}
		if calls != 1 {
			t.Fatalf("three copies of version 1 rendered %d times, want 1", calls)
		}
		st, _, err := p.Merge(ctx, f.admitted(1))
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Render(render); !bytes.Equal(got, []byte{2}) || calls != 2 {
			t.Fatalf("version 2 rendered %v after %d renders, want its own after 2", got, calls)
		}
		var zero State
		zero.Render(render)
		zero.Render(render)
		if calls != 4 {
			t.Fatalf("the zero State rendered %d times, want 2", calls-2)
		}
	})
}
