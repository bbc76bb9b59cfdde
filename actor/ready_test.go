package actor

import (
	"context"
	"encoding/hex"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// weightedPlan admits a publish of f carrying the signatures of signers under
// a signer set of keys whose weights are weights (keys[i] weighs
// weights[i]; keys beyond weights weigh 1) and whose thresholds are t.
func weightedPlan(tb testing.TB, f *fixture, weights []int32, t ledger.Thresholds, signers ...int) *ledger.AdmittedPlan {
	tb.Helper()
	list := make([]ledger.Signer, len(keys))
	for i, kp := range keys {
		list[i] = ledger.Signer{Address: kp.Address(), Weight: 1}
		if i < len(weights) {
			list[i].Weight = weights[i]
		}
	}
	set := ledger.NewSignerSet(list).WithThresholds(t)
	c, err := ledger.ParseClose(f.partial(tb, sigsOf(f.admitted(signers...))...), ledger.Testnet)
	if err != nil {
		tb.Fatal(err)
	}
	p, _, err := ledger.AdmitPlan(context.Background(), sweeps, c, set, time.Now())
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func sigsOf(admitted []ledger.Admitted) []xdr.DecoratedSignature {
	out := make([]xdr.DecoratedSignature, len(admitted))
	for i, a := range admitted {
		out[i] = a.Sig
	}
	return out
}

// wantReadiness checks a state's readiness.
func wantReadiness(tb testing.TB, what string, st State, weight, threshold int) {
	tb.Helper()
	if st.Weight != weight || st.Threshold != threshold || st.Ready != (weight >= threshold) {
		tb.Errorf("%s: weight %d, threshold %d, ready %v; want %d, %d, %v", what, st.Weight, st.Threshold, st.Ready, weight, threshold, weight >= threshold)
	}
}

// TestPlanReadiness: every version carries the weight of the distinct
// signers present against the plan's threshold, in the merge's answer, in
// Snapshot and in the events; Ready answers the submit-ready envelope only
// once the weight reaches the threshold: the fewest signatures, largest
// weights first, earliest admitted among equal weights, selected once per
// version.
func TestPlanReadiness(t *testing.T) {
	// In a bubble: a state that never comes fails the test at once.
	synctest.Test(t, func(t *testing.T) {
		s := start(t, Options{})
		f := newFixture(t, 7)
		// keys[0] weighs 1, keys[1] 2, keys[2] 1, keys[3] 300 (counted as 255);
		// the high threshold, a merge's, is 3.
		published := weightedPlan(t, f, []int32{1, 2, 1, 300}, ledger.Thresholds{Low: 1, Medium: 2, High: 3}, 0)
		if published.Threshold() != 3 {
			t.Fatalf("threshold %d, want 3", published.Threshold())
		}
		p, created, err := s.Create(t.Context(), published)
		if err != nil || !created {
			t.Fatalf("Create: %v %v", created, err)
		}
		sub, err := p.Subscribe(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		next := func() State {
			t.Helper()
			select {
			case ev := <-sub.C():
				return ev.State
			case <-time.After(10 * time.Second):
				t.Fatal("no event")
			}
			return State{}
		}
		wantReadiness(t, "v1 event", next(), 1, 3)
		st, err := p.Snapshot(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		wantReadiness(t, "v1", st, 1, 3)
		if r, ok, err := p.Ready(t.Context()); err != nil || ok || r.XDR != "" || r.State.Version != 1 || r.State.Weight != 1 {
			t.Fatalf("Ready at v1: %+v %v %v; want not ready, with the state", r, ok, err)
		}

		// keys[2] (weight 1): 2 of 3.
		st, changed, err := p.Merge(t.Context(), f.admitted(2))
		if err != nil || !changed {
			t.Fatal(changed, err)
		}
		wantReadiness(t, "v2", st, 2, 3)
		wantReadiness(t, "v2 event", next(), 2, 3)
		// A replay changes nothing, weight included.
		if st, changed, err := p.Merge(t.Context(), f.admitted(2, 0)); err != nil || changed {
			t.Fatal(changed, err)
		} else {
			wantReadiness(t, "replay", st, 2, 3)
		}

		// keys[1] (weight 2): 4 of 3, ready. The ready envelope is keys[1]
		// (largest), then keys[0] (weight 1, admitted before keys[2]): weight 3.
		st, _, err = p.Merge(t.Context(), f.admitted(1))
		if err != nil {
			t.Fatal(err)
		}
		wantReadiness(t, "v3", st, 4, 3)
		wantReadiness(t, "v3 event", next(), 4, 3)
		r, ok, err := p.Ready(t.Context())
		if err != nil || !ok {
			t.Fatalf("Ready at v3: %v %v", ok, err)
		}
		if !slices.Equal(r.Signers, addresses(1, 0)) || r.Weight != 3 || r.State.Version != 3 {
			t.Errorf("ready signers %v weight %d version %d; want %v, 3, 3", r.Signers, r.Weight, r.State.Version, addresses(1, 0))
		}
		env, err := ledger.DecodeEnvelope(r.XDR)
		if err != nil {
			t.Fatal(err)
		}
		sigs := env.Signatures()
		if len(sigs) != 2 || string(sigs[0].Signature) != string(f.sigs[1].Sig.Signature) || string(sigs[1].Signature) != string(f.sigs[0].Sig.Signature) {
			t.Errorf("the ready envelope's signatures are not keys[1]'s then keys[0]'s")
		}
		if h, err := ledger.HashEnvelope(env, passphrase); err != nil || hex.EncodeToString(h[:]) != f.id {
			t.Errorf("the ready envelope is another transaction (%v)", err)
		}
		// Selected once per version: the same answer again.
		if again, _, _ := p.Ready(t.Context()); again.XDR != r.XDR || &again.Signers[0] != &r.Signers[0] {
			t.Error("a second Ready at the same version selected again")
		}

		// keys[3] weighs 300, counted as 255: alone it is the ready envelope.
		st, _, err = p.Merge(t.Context(), f.admitted(3))
		if err != nil {
			t.Fatal(err)
		}
		wantReadiness(t, "v4", st, 4+255, 3)
		if r, ok, err := p.Ready(t.Context()); err != nil || !ok || !slices.Equal(r.Signers, addresses(3)) || r.Weight != 255 {
			t.Errorf("Ready at v4: %v %v %v %d", r.Signers, ok, err, r.Weight)
		}
	})
}

// TestPlanReadinessThresholdOne: an account whose thresholds are all 0 has
// threshold 1: the publisher's signature alone is ready, and is the ready
// envelope.
func TestPlanReadinessThresholdOne(t *testing.T) {
	s := start(t, Options{})
	f := newFixture(t, 8)
	p, _, err := s.Create(t.Context(), weightedPlan(t, f, nil, ledger.Thresholds{}, 4, 5))
	if err != nil {
		t.Fatal(err)
	}
	st, err := p.Snapshot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	wantReadiness(t, "v1", st, 2, 1)
	r, ok, err := p.Ready(t.Context())
	if err != nil || !ok || !slices.Equal(r.Signers, addresses(4)) || r.Weight != 1 || r.State.Threshold != 1 {
		t.Fatalf("Ready: %+v %v %v", r, ok, err)
	}
}

// TestPlanReadyAfterStop: Ready answers like Snapshot once the plan has
// ended.
func TestPlanReadyAfterStop(t *testing.T) {
	s := NewSupervisor(solo(Options{}))
	f := newFixture(t, 9)
	p, _, err := s.Create(t.Context(), weightedPlan(t, f, nil, ledger.Thresholds{}, 0))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.Ready(t.Context()); err != ErrStopped {
		t.Errorf("Ready after Stop: %v, want ErrStopped", err)
	}
}
