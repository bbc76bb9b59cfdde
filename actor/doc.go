// Package actor runs closerelay's plans: a Supervisor that owns the
// registry of the plans this instance serves, and one goroutine per Plan
// (its run loop) that owns the plan's mutable copy, its subscribers and
// its timers. The plans live in a Store (planstore.Bucket): an in-memory
// one in single mode, the JetStream bucket every instance shares in cluster
// mode; the package runs the same code on either, and the store decides
// the limits and every race.
//
// A plan's state is a value (planState, with package plan's Submission and
// Forward): transitions make the next value from the current one and
// return the effects for the loop to run (state.go: effects). The loop
// writes a change through with compare-and-set on the entry's revision
// before it publishes or answers (Plan.step), then runs the rest
// (Plan.apply). Submissions and forwards are I/O: the loop claims one
// (claims.go), runs it on a goroutine of its own, and takes its outcome
// back through the mailbox.
//
// # Ownership
//
//   - The Supervisor's goroutine alone reads and writes the registry (plan
//     id to *Plan); Lookup reads a sync.Map mirror of it.
//   - A plan's run loop alone touches its subscribers, its timers, its
//     claims' records, the revision its next compare-and-set expects and
//     whether the store lacks what it holds. Nothing is lent: every other
//     goroutine reaches the loop by a message (a request with a reply
//     channel buffered to one, a leave, an alarm, a store change).
//   - Timers only post an alarm to the loop (alarm.go); the loop serves
//     every timer in one select arm, and ignores an alarm of an arming
//     since replaced.
//   - Readers load Plan.settled, one atomic pointer to the last settled
//     state; the loop is its only writer and never modifies a state once
//     stored. Known, Snapshot, Ready, Submission, Forward, a merge or
//     re-publish that changes nothing, and Lookup's revision check read it
//     without a round trip.
//   - The ownership is checked: every loop-only function calls
//     owner.check, which panics off the loop's goroutine (net/http2's
//     serveG.check). It is on in every test binary (loopcheck.go).
//   - Every call selects on the caller's context and on the plan's end: a
//     vanished client or an ended plan never strands a goroutine.
//
// # Ordering
//
//   - A plan serves its mailbox one request at a time, in the order taken:
//     merges apply in arrival order, each version one higher than the one
//     it replaced (1 at publish; a version taken in from the store keeps
//     the store's number).
//   - Verification runs in the request goroutines before Merge, in
//     parallel; deduplication by signer, the append, the weighing, the
//     re-encoding, the store write and the broadcast are serial. A merge
//     that adds no signer changes nothing and sends nothing.
//   - Each subscriber observes versions in increasing order; subscribers
//     do not move in step.
//   - A lost compare-and-set re-reads the entry, takes it in (a union keyed
//     by signer) and runs the transition again: no sign answered 200
//     anywhere is dropped. Lookup hands out a plan only once its published
//     state holds every signature of the revision it read.
//
// # Slow subscribers
//
//   - Each Subscription has a one-slot channel holding the newest event
//     not yet received; the loop never waits on it and replaces a stale
//     event instead (a submission's or forward's outcome rides along).
//   - A subscriber that stops reading costs the plan nothing and finds the
//     newest state when it reads again; every State is the whole envelope.
//   - At a plan's expiry each subscriber gets an Event with Expired set,
//     then its channel closes; a channel closed without Expired means the
//     Supervisor stopped.
//
// # Lifetimes
//
//   - The capacity and PLANS_PER_ACCOUNT are the store's (Reserve, in the
//     request goroutine). A plan lives until its expiry, or past its
//     signing window while its mediator forward needs it (life.go),
//     answering only LookupStatus then.
//   - Stop closes the Supervisor to new calls, ends every plan, lets go of
//     the claims in flight, and waits for every goroutine of the package.
package actor
