package actor

import (
	"slices"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/closerelay/closerelay/ledger"
)

// listsCopy is a copy of a version's four lists, to compare them with later.
type listsCopy struct {
	sigs     [][]byte
	signers  []string
	admitted []int
	heads    []uint64
}

func copyLists(v *planState) listsCopy {
	var c listsCopy
	for _, s := range v.env.Signatures() {
		c.sigs = append(c.sigs, slices.Clone(s.Signature))
	}
	c.signers = slices.Clone(v.state.Signers)
	for _, a := range v.admitted {
		c.admitted = append(c.admitted, a.Signer)
	}
	c.heads = slices.Clone(v.heads)
	return c
}

func (c listsCopy) check(t *testing.T, what string, v *planState) {
	t.Helper()
	now := copyLists(v)
	if !slices.EqualFunc(c.sigs, now.sigs, slices.Equal) || !slices.Equal(c.signers, now.signers) ||
		!slices.Equal(c.admitted, now.admitted) || !slices.Equal(c.heads, now.heads) {
		t.Fatalf("%s: a version's lists changed under it", what)
	}
}

// TestMergeExtendsListsInPlaceOnlyFromTheTip: a merge of the newest
// version writes its new signer into the arrays the version's lists start
// (no copy), while a merge of an older version, whose next entries another
// version holds, copies; no version ever sees its lists change, and each
// version's lists are clipped, so an append to them cannot write into the
// shared arrays either.
func TestMergeExtendsListsInPlaceOnlyFromTheTip(t *testing.T) {
	fx := newFixture(t, 1)
	p := newPlan(&Supervisor{}, fx.plan(t, time.Now().Add(time.Hour), 0), 1)
	k, v0 := &p.planParts, p.settled.Load()
	mustMerge := func(cur *planState, signer int) *planState {
		t.Helper()
		next, _, fresh, _, err := merge(k, cur, fx.admitted(signer))
		if err != nil || fresh != 1 {
			t.Fatalf("merge of signer %d: fresh %d, %v", signer, fresh, err)
		}
		checkState(t, k, next)
		return next
	}
	v1 := mustMerge(v0, 1)
	v2 := mustMerge(v1, 2)
	if v2.lists != v1.lists || unsafe.SliceData(v2.admitted) != unsafe.SliceData(v1.admitted) ||
		unsafe.SliceData(v2.state.Signers) != unsafe.SliceData(v1.state.Signers) ||
		unsafe.SliceData(v2.heads) != unsafe.SliceData(v1.heads) ||
		unsafe.SliceData(v2.env.Signatures()) != unsafe.SliceData(v1.env.Signatures()) {
		t.Fatal("a merge of the newest version copied its lists")
	}
	for _, list := range []int{cap(v2.admitted), cap(v2.state.Signers), cap(v2.heads), cap(v2.env.Signatures())} {
		if list != 3 {
			t.Fatalf("a version's list has capacity %d, want its length 3", list)
		}
	}
	was1, was2 := copyLists(v1), copyLists(v2)
	// v1's next entry is v2's: a merge of v1 must not write there.
	other := mustMerge(v1, 3)
	if other.lists == v1.lists {
		t.Fatal("a merge of a version short of the tip extended the shared arrays")
	}
	was2.check(t, "after a merge of an older version", v2)
	was1.check(t, "after a merge of an older version", v1)
	if got := signerOf(other); !slices.Equal(got, []int{0, 1, 3}) {
		t.Fatalf("the older version's merge holds %v, want [0 1 3]", got)
	}
	// An append to a version's list reallocates rather than writes into
	// the arrays the next merge extends.
	_ = append(v2.admitted, ledger.Admitted{Signer: 9})
	_ = append(v2.state.Signers, "x")
	v3 := mustMerge(v2, 4)
	if v3.lists != v2.lists {
		t.Fatal("the newest version's merge copied after an append elsewhere")
	}
	was2.check(t, "after the next merge", v2)
	// Up to the signature cap, whatever the arrays' growth.
	v := v3
	for signer := 5; signer < len(keys); signer++ {
		if len(v.admitted) == ledger.MaxSignatures {
			break
		}
		before := copyLists(v)
		next := mustMerge(v, signer)
		before.check(t, "after its merge", v)
		v = next
	}
}

// TestConcurrentMergesOfOneVersion: merges of one version on several
// goroutines at once (a plan's merges are one at a time, but merge itself
// must not rely on it) each get a version of their own, and none sees
// another's signer. Run with -race.
func TestConcurrentMergesOfOneVersion(t *testing.T) {
	fx := newFixture(t, 1)
	p := newPlan(&Supervisor{}, fx.plan(t, time.Now().Add(time.Hour), 0), 1)
	k, v0 := &p.planParts, p.settled.Load()
	v1, _, _, _, err := merge(k, v0, fx.admitted(1))
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	var wg sync.WaitGroup
	out := make([]*planState, n)
	for i := range n {
		wg.Go(func() {
			next, _, _, _, err := merge(k, v1, fx.admitted(2+i))
			if err != nil {
				t.Error(err)
				return
			}
			out[i] = next
		})
	}
	wg.Wait()
	for i, v := range out {
		if v == nil {
			continue
		}
		checkState(t, k, v)
		if got := signerOf(v); !slices.Equal(got, []int{0, 1, 2 + i}) {
			t.Errorf("merge %d holds %v, want [0 1 %d]", i, got, 2+i)
		}
	}
}
