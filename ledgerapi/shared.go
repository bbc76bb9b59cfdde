package ledgerapi

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/closerelay/closerelay/ledger"
)

// DefaultMaxAge is how long a preflight's shared evidence serves other
// preflights when Options.MaxAge is zero (docs/API.md section 12,
// PREFLIGHT_MAX_AGE).
const DefaultMaxAge = 60 * time.Second

// maxShared bounds the entries each shared-evidence table holds, so that
// a flood naming ever new accounts cannot grow it without bound: once full,
// entries past their age are dropped, and when none is, nothing new is
// kept (the read is still made and used, only not shared).
const maxShared = 20_000

// evidence is what one preflight's reads may share with another's for
// maxAge (docs/API.md section 12): a closing account's offers listing, and
// each destination's read. Nothing else is shared across time; the
// closing account's own entry (sequence number, balances, sub-entries) is
// read again by every run, and the latest ledger too.
//
// Why these two may be shared:
//
//   - An offers listing is reused only for an account whose fresh read
//     has the same offersTag as the account had when the listing began:
//     sequence number, sub-entry and sponsorship counts, and every
//     liability. Only the account itself can create or change an offer,
//     and doing so consumes a sequence number; an offer taken whole by the
//     market is gone from the sub-entry count, one taken in part has left
//     less liability behind, and a sponsorship moved changes the counts.
//     So a listing reused under that tag is the listing a fresh call would
//     give.
//   - A destination's read (exists, trustlines, memo requirement) is
//     evidence about someone else's account, which the close does not
//     control and which the contract lets be as old as PREFLIGHT_MAX_AGE.
//
// It is safe for concurrent use.
type evidence struct {
	maxAge time.Duration // 0: nothing is shared across time

	mu     sync.Mutex
	offers map[flightKey]offersEntry
	dests  map[flightKey]destEntry
}

// offersEntry is one account's listing, with the account entry's sequence
// number and sub-entry count read before it began.
type offersEntry struct {
	offers   []ledger.Offer // shared: never changed once stored
	complete bool
	tag      string // offersTag of the account read before the listing began
	at       time.Time
}

// offersTag is what of an account entry changes whenever its offers do
// (see evidence).
func offersTag(a ledger.AccountState) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d/%d/%d/%d/%d/%d", a.Sequence, a.NumSubEntries, a.NumSponsoring, a.NumSponsored, a.NativeBuying, a.NativeSelling)
	for _, t := range a.Trustlines {
		fmt.Fprintf(&b, ";%s/%s/%d/%d", t.Asset.StringCanonical(), t.PoolID, t.Buying, t.Selling)
	}
	return b.String()
}

// destEntry is one destination's read: nil state is an account the ledger
// does not hold.
type destEntry struct {
	state *ledger.AccountState // shared: never changed once stored
	at    time.Time
}

func newEvidence(maxAge time.Duration) *evidence {
	return &evidence{maxAge: maxAge, offers: map[flightKey]offersEntry{}, dests: map[flightKey]destEntry{}}
}

// listing is account's offers listing if one was stored within maxAge for
// an account entry with acc's offersTag.
func (e *evidence) listing(k flightKey, acc ledger.AccountState, now time.Time) (offersEntry, bool) {
	if e.maxAge <= 0 {
		return offersEntry{}, false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	o, ok := e.offers[k]
	if !ok || now.Sub(o.at) >= e.maxAge || o.tag != offersTag(acc) {
		return offersEntry{}, false
	}
	return o, true
}

// keepListing stores a listing begun after acc was read.
func (e *evidence) keepListing(k flightKey, acc ledger.AccountState, offers []ledger.Offer, complete bool, now time.Time) {
	if e.maxAge <= 0 {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if !room(e.offers, k, now, e.maxAge, func(o offersEntry) time.Time { return o.at }) {
		return
	}
	e.offers[k] = offersEntry{offers: offers, complete: complete, tag: offersTag(acc), at: now}
}

// dest is a destination's read stored within maxAge.
func (e *evidence) dest(k flightKey, now time.Time) (destEntry, bool) {
	if e.maxAge <= 0 {
		return destEntry{}, false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	d, ok := e.dests[k]
	if !ok || now.Sub(d.at) >= e.maxAge {
		return destEntry{}, false
	}
	return d, true
}

// keepDest stores a destination's read (nil: it does not exist).
func (e *evidence) keepDest(k flightKey, state *ledger.AccountState, now time.Time) {
	if e.maxAge <= 0 {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if !room(e.dests, k, now, e.maxAge, func(d destEntry) time.Time { return d.at }) {
		return
	}
	e.dests[k] = destEntry{state: state, at: now}
}

// room reports whether m may take key k: it has it already, or has room,
// or has room once the entries older than maxAge are dropped.
func room[V any](m map[flightKey]V, k flightKey, now time.Time, maxAge time.Duration, at func(V) time.Time) bool {
	if _, ok := m[k]; ok || len(m) < maxShared {
		return true
	}
	for key, v := range m {
		if now.Sub(at(v)) >= maxAge {
			delete(m, key)
		}
	}
	return len(m) < maxShared
}
