package actor

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
)

// FuzzMergeUnion: two instances of one plan admit signatures in the orders
// the input chooses; then one takes the other's version in (union), as a
// change of the store's watch, or a lost compare-and-set's re-read, would
// bring it. Merges are unions keyed by signer: whatever the orders, no
// signature is lost, none is held twice, every version is above the one
// it follows, and each state's indexes and envelope agree with its
// signatures. merge and union change nothing they are given.
func FuzzMergeUnion(f *testing.F) {
	f.Add([]byte{1, 2, 3}, []byte{3, 4})
	f.Add([]byte{5, 5, 1}, []byte{})
	f.Add([]byte{}, []byte{7, 2, 2, 9})
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, []byte{11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	fx := newFixture(f, 1)
	published := fx.plan(f, time.Now().Add(time.Hour), 0)
	sup := &Supervisor{}
	f.Fuzz(func(t *testing.T, orderA, orderB []byte) {
		a, b := newPlan(sup, published, 1), newPlan(sup, published, 1)
		stA, stB := a.settled.Load(), b.settled.Load()
		for _, step := range []struct {
			p     *Plan
			st    **planState
			order []byte
		}{{a, &stA, orderA}, {b, &stB, orderB}} {
			for _, c := range step.order {
				signer := int(c) % len(keys)
				cur := *step.st
				snapshot := *cur
				next, fresh, _, err := step.p.mergedView(cur, fx.admitted(signer))
				if errors.Is(err, ErrSignatureCap) {
					if len(cur.admitted) != ledger.MaxSignatures || cur.present[signer] {
						t.Fatalf("merge of signer %d refused at the cap with %d signatures", signer, len(cur.admitted))
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(cur.state.Signers, snapshot.state.Signers) || cur.state.Version != snapshot.state.Version {
					t.Fatal("a merge modified the state it was given")
				}
				if held := cur.present[signer]; held != (next == nil) || held != (fresh == 0) {
					t.Fatalf("signer %d held %v: merged %v, fresh %d", signer, held, next != nil, fresh)
				}
				if next != nil {
					if next.state.Version != cur.state.Version+1 {
						t.Fatalf("version %d after %d", next.state.Version, cur.state.Version)
					}
					checkState(t, step.p, next)
					*step.st = next
				}
			}
		}
		// A takes B's version in, as a stored entry.
		_, stored, err := ledger.RestoreSignatures(published.Canonical().Signers, stB.state.XDR, signerOf(stB))
		if err != nil {
			t.Fatal(err)
		}
		u, dirty, err := a.unionView(stA, stored, stB.state.Version)
		if err != nil {
			t.Fatal(err)
		}
		checkState(t, a, u)
		// B's signers, then A's others, up to the envelope's cap.
		want := slices.Clone(signerOf(stB))
		for _, s := range signerOf(stA) {
			if !slices.Contains(want, s) && len(want) < ledger.MaxSignatures {
				want = append(want, s)
			}
		}
		if got := signerOf(u); !slices.Equal(got, want) {
			t.Fatalf("union holds signers %v, want B's %v then A's others: %v", got, signerOf(stB), want)
		}
		// dirty: the union holds what B's entry lacks, or is not above it.
		lacks := len(want) > len(signerOf(stB))
		if dirty != (lacks || stB.state.Version <= stA.state.Version) {
			t.Fatalf("dirty %v with A's extras %v, versions A %d B %d", dirty, lacks, stA.state.Version, stB.state.Version)
		}
		if u.state.Version < stB.state.Version || (dirty && u.state.Version <= max(stA.state.Version, stB.state.Version)) {
			t.Fatalf("union version %d after A %d and B %d (dirty %v)", u.state.Version, stA.state.Version, stB.state.Version, dirty)
		}
		if u.sub != stA.sub {
			t.Fatal("the union lost A's submission")
		}
	})
}

func signerOf(v *planState) []int {
	out := make([]int, len(v.admitted))
	for i, a := range v.admitted {
		out[i] = a.Signer
	}
	return out
}

// checkState: v's indexes, its State and its envelope agree with its
// signatures, each signer once.
func checkState(t *testing.T, p *Plan, v *planState) {
	t.Helper()
	seen := map[int]bool{}
	for i, a := range v.admitted {
		if seen[a.Signer] {
			t.Fatalf("signer %d held twice", a.Signer)
		}
		seen[a.Signer] = true
		if !v.present[a.Signer] || v.state.Signers[i] != p.addresses[a.Signer] {
			t.Fatalf("signature %d (signer %d) is not in the indexes", i, a.Signer)
		}
	}
	for i, in := range v.present {
		if in != seen[i] {
			t.Fatalf("present[%d] = %v, held %v", i, in, seen[i])
		}
	}
	if len(v.state.Signers) != len(v.admitted) {
		t.Fatalf("%d signers, %d admitted", len(v.state.Signers), len(v.admitted))
	}
	env, err := ledger.DecodeEnvelope(v.state.XDR)
	if err != nil {
		t.Fatal(err)
	}
	if sigs := env.Signatures(); len(sigs) != len(v.admitted) {
		t.Fatalf("the envelope carries %d signatures, the state %d", len(sigs), len(v.admitted))
	}
	if v.sub == nil {
		t.Fatal("a state without its submission")
	}
}
