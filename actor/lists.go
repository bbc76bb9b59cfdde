package actor

import (
	"sync/atomic"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// versionLists are the arrays behind the four lists a plan's versions hold
// (the envelope's signatures, the signers' addresses, the admitted
// signatures, their heads), shared by a run of versions so that a merge
// writes a new signer's entries once instead of copying every list:
// before, the lists of a 20-signer plan were copied 19 times over, about a
// kilobyte a new signer.
//
// Each version's lists are the arrays' first entries, their capacity
// clipped to their length, so nothing appends to them in place. tip counts
// the entries some version holds; entries past it have never been
// written. A merge extends the arrays only from the tip, and only after
// claiming the entries it writes (extend), so no version ever sees one of
// its entries change, whichever version a merge starts from and whichever
// goroutine runs it; a merge of a version short of the tip, or past the
// arrays' capacity, copies into new arrays. Transitions stay pure as seen
// from outside: a version's lists never change once it has them.
type versionLists struct {
	tip      atomic.Int64
	sigs     []xdr.DecoratedSignature
	signers  []string
	admitted []ledger.Admitted
	heads    []uint64
}

// extend returns the arrays into which cur's lists grow by added entries,
// the entries from len(cur.admitted) on claimed for the caller to write:
// l itself when cur's lists end at its tip and fit, else new arrays
// holding a copy of cur's lists (l may be nil: cur's lists are arrays of
// their own, as a first or restored version's are). The arrays hold up to
// twice what the next version does, and never more than the signature cap
// allows.
func (l *versionLists) extend(cur *planState, added int) *versionLists {
	n := len(cur.admitted)
	if l != nil && n+added <= cap(l.admitted) && l.tip.CompareAndSwap(int64(n), int64(n+added)) {
		return l
	}
	size := min(max(2*(n+added), 4), ledger.MaxSignatures)
	c := &versionLists{
		sigs:     make([]xdr.DecoratedSignature, size),
		signers:  make([]string, size),
		admitted: make([]ledger.Admitted, size),
		heads:    make([]uint64, size),
	}
	copy(c.sigs, cur.env.Signatures())
	copy(c.signers, cur.state.Signers)
	copy(c.admitted, cur.admitted)
	copy(c.heads, cur.heads)
	c.tip.Store(int64(n + added))
	return c
}
