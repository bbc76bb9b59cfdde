package plan

import "time"

// Claim is what every claimed effect of a plan (its submission, its
// forward) shares: Seq orders the effect's changes, so that every instance
// keeps the newest, and Lease, while the effect is pending, names the
// instance running it and how long its claim holds. One instance runs an
// effect at a time: it claims it with compare-and-set on the plan's store
// entry, renews the lease while it runs, and lets it go as it stops; any
// other instance takes a pending effect over once its lease has lapsed.
type Claim struct {
	Seq   uint64
	Lease Lease
}

// Lease is a pending effect's claim: Owner, the instance that claimed it,
// runs it until Until; a zero Until is a claim let go.
type Lease struct {
	Owner string
	Until time.Time
}

// HeldAgainst reports whether l keeps instance from claiming at now: it is
// another instance's and has not lapsed. An instance may take a claim in
// its own name that it no longer runs (it restarted under the same name).
func (l Lease) HeldAgainst(instance string, now time.Time) bool {
	return l.Owner != instance && now.Before(l.Until)
}

// claimed is a claimed effect's value as the lease transitions see it.
type claimed[T any] interface {
	*T
	claim() *Claim
	pending() bool
}

// Renew is instance's pending claim on cur extended to now+d; not when cur
// is not pending or the claim was taken over meanwhile (instance was cut
// off from the store past its lease): it is left to its new owner.
func Renew[T any, P claimed[T]](cur P, instance string, now time.Time, d time.Duration) (P, bool) {
	if !cur.pending() || cur.claim().Lease.Owner != instance {
		return nil, false
	}
	next := P(new(T))
	*next = *cur
	c := next.claim()
	c.Seq++
	c.Lease.Until = now.Add(d)
	return next, true
}

// Release is instance's pending claim on cur let go: it lapses now, so
// that another instance takes the effect over at once (instance stops
// with it in flight). Not when cur is not pending in instance's name.
func Release[T any, P claimed[T]](cur P, instance string) (P, bool) {
	if !cur.pending() || cur.claim().Lease.Owner != instance {
		return nil, false
	}
	next := P(new(T))
	*next = *cur
	c := next.claim()
	c.Seq++
	c.Lease.Until = time.Time{}
	return next, true
}

// Held reports whether cur's pending claim keeps instance from claiming it
// at now (Lease.HeldAgainst).
func Held[T any, P claimed[T]](cur P, instance string, now time.Time) bool {
	return cur.pending() && cur.claim().Lease.HeldAgainst(instance, now)
}
