// Package actor holds closerelay's plans in memory: a Supervisor that owns the
// registry and the plan limits (the relay's, and one per closing account), and
// one actor goroutine per Plan that owns its envelope, its subscribers and its
// expiry timer.
//
// # Ownership
//
// Nothing in this package is guarded by a lock shared with its callers.
//
//   - The Supervisor's goroutine alone reads and writes the registry (plan id
//     to *Plan), and so the count of open plans and the count of each closing
//     account's open plans, which it changes with the registry and nowhere
//     else. It mirrors the registry into a sync.Map that Lookup reads
//     without a round trip; a plan found there past its expiry is looked up
//     through the loop, which sweeps it. It never blocks on I/O: the account API round trip of a publish
//     happens in the request goroutine, between CheckCapacity (guard 5) and
//     Create (guard 8), and Create inserts atomically with its own checks of
//     both limits and of the plan's expiry, which may have passed during
//     that round trip.
//   - A plan's goroutine alone touches its envelope, its signer list, its
//     subscribers and its timer. Handlers reach it only by posting on its
//     mailbox a request that carries a reply channel buffered to one, so the
//     actor never waits for a caller to collect an answer; Subscription.Close
//     hands its subscription back on the plan's leave channel, which needs
//     no answer. The loop's other inputs are its timer, a one-slot evict
//     channel that never blocks its sender (the plan is past its expiry
//     before the timer said so) and the Supervisor's quit. The actor tells
//     the world it has ended by closing done, after recording why.
//   - What a Plan handle answers without a round trip is immutable (ID,
//     Canonical, Expiry: the ledger.AdmittedPlan it was created from, taken
//     as it is) or read from the plan's current version, which the actor
//     publishes through an atomic pointer and replaces, never modifies, on
//     each change: Known (the replay fast path of ledger.CheckPartial),
//     Snapshot, Ready, and a Merge whose signers are all present already (it
//     would change nothing wherever it queued, so it does not queue). Ready's
//     submit-ready envelope is selected and encoded at most once per
//     version, by the first caller that asks, in its own goroutine, and
//     kept with that version.
//   - A State handed out is never modified afterwards; its Signers slice
//     included. Subscribers may keep it. Its readiness (Weight, Threshold,
//     Ready; CONTRACT section 10) is computed by the loop with the version
//     it belongs to: the weight of the distinct signers the envelope
//     carries (ledger.Weight) against the threshold the plan was admitted
//     with (ledger.AdmittedPlan.Threshold), which never changes.
//   - Submission (CONTRACT section 10) is I/O and never runs in a plan's
//     loop. When a version is ready, the plan was published with submit,
//     and no submission is in flight or has succeeded, the loop starts one
//     goroutine that calls Options.Submitter with the version's
//     submit-ready envelope, under a context that finish cancels (the
//     plan's expiry, or Stop), and counted in the Supervisor's WaitGroup.
//     Its outcome comes back on the mailbox like any request; the loop
//     then publishes it (Plan.Submission, an atomic pointer like the view)
//     and offers it to subscribers. A failed envelope is not tried again:
//     only a different submit-ready envelope is. An abandoned submission
//     (the context ended) is never served, since the plan has ended.
//
// Every call selects on the caller's context and on the actor's end, so a
// vanished client or an ended actor never strands a goroutine: a call
// answers ctx.Err(), ErrNotFound once the plan expired, or ErrStopped once
// the Supervisor stopped. Subscription.Close takes no context: it selects
// on the actor's end only, so it waits for the loop's next turn at most
// (the loop never waits on anyone) and never for an ended plan. A Subscribe
// whose context ends after the actor took it closes the subscription that
// way, and the leave is served after the turn that registered it.
//
// # Ordering
//
// A plan's requests are served one at a time in the order its mailbox takes
// them, so merges apply in arrival order and every State carries a Version
// one higher than the state it replaced (1 at publish). Verification runs in
// the request goroutines before Merge, in parallel and out of order; only
// deduplication by signer, the append, the weighing (a sum over at most 20
// signers), the re-encoding and the broadcast are serial. A merge that adds no signer changes nothing and sends nothing.
// (One exception to "in parallel": a signature whose hint does not lead to
// its signer costs a sweep of every candidate, and ledger lets one plan run
// one such sweep at a time, and the relay a few, so that hostile partials
// cannot crowd out a plan's honest co-signers; see ledger.SweepGate, which
// the caller passes to ledger and whose waits end with the request's
// context.)
//
// Each subscriber observes versions in increasing order. Subscribers do not
// move in step: one may be several versions behind another.
//
// # Slow subscribers
//
// Each Subscription has a one-slot channel that holds the newest event not
// yet received. The actor never waits on it: when the slot is still full at
// the next change, the stale state is dropped and replaced by the newer one.
// A subscriber that stops reading therefore costs the plan nothing, delays
// neither merges nor other subscribers, and finds exactly the newest state
// when it reads again; intermediate versions are skipped, which is harmless
// because every State is the whole envelope.
//
// The newest-wins rule holds for the end too. When a plan expires, each
// subscriber is sent an Event with Expired set (replacing any undelivered
// state) and then its channel is closed. A channel closed without an Expired
// event means the Supervisor stopped: the service is shutting down.
//
// # Lifetimes
//
// A plan lives until its expiry. Create refuses one whose expiry is not after
// the Supervisor's clock with ErrExpired, so no plan is ever registered dead.
// Its actor arms a timer at that instant; when it fires, the actor ends its
// subscribers as above and tells the Supervisor, which frees the slot and
// the account's. A plan past its expiry is gone even before its timer has
// been served: Lookup sweeps it, Create replaces it, a capacity check at
// either limit sweeps every such plan, and the plan itself refuses requests
// with ErrNotFound. Each plan is counted expired once, whichever of these
// comes first.
//
// A subscription lives until its plan ends or it is closed. Close returns
// once the plan's loop has taken it, and that same turn removes the
// subscription and closes C before the loop serves anything else, so a
// Subscribe made after Close returned finds the slot free.
//
// A re-publish of an open plan is a merge, not a new plan: Create hands back
// the live plan whatever the limits and the new publish's expiry.
//
// # Cluster mode
//
// With Options.Store set (CONTRACT section 12), the plans live in the
// store, shared by every instance, and the registry is this instance's cache
// of the plans it has served, each with its actor. Everything above holds
// per instance; what changes:
//
//   - The plan's loop writes each change through to the store with
//     compare-and-set on the entry's revision (Plan.rev) before it answers
//     and before it publishes the new view. A lost race re-reads the entry,
//     takes it in, and merges again: merges are unions keyed by signer, so
//     they commute, and no sign answered 200 anywhere is ever dropped. This
//     is the one place the loop waits on I/O, bounded by the store's
//     timeout; a store that cannot be reached answers ErrUnavailable and
//     changes nothing.
//   - The capacity and PLANS_PER_ACCOUNT are the store's: CheckCapacity
//     reads its registry, and Create reserves a slot there atomically
//     (guard 8) and writes the plan with a create, in the request
//     goroutine, before the Supervisor registers it. The registry here
//     enforces no limit.
//   - Lookup reads the entry (one round trip) so that every answer reflects
//     the store as it stood when the request came; a plan this instance
//     does not hold is restored from it (ledger.RestorePlan) and
//     registered. Read-after-sign across instances rests on one rule:
//     Lookup hands out a plan only once its published view holds every
//     signature of the revision it read, however the plan was found
//     (registered before, restored from that read, or registered meanwhile
//     from an older one and handed back instead). A view names the
//     revision it holds (view.rev) and is published with it in one atomic
//     pointer, so no reader sees a revision ahead of its signatures; it
//     names only a revision whose signers are all in it: one it was written
//     as, or one whose signers it took in. What a change brings in is
//     decided by its signers, never by its version or revision number. And
//     the entry is read from the bucket's stream leader (planstore.Get):
//     a write acknowledged to any instance is in every later read.
//   - One watch per instance (Store.Changes) follows every entry; the
//     Supervisor hands each change to the plan it concerns through a
//     one-slot, newest-wins channel (Plan.stored), so a busy plan never holds
//     up the watch, and the plan's subscribers receive other instances'
//     changes. A plan reads its entry once more as its loop starts, for a
//     change that came before it was registered.
//   - Versions are the cluster's: the entry carries the version, and a
//     change taken in keeps it. Each instance arms its own expiry timer from
//     the entry's expiry; the first to fire deletes the entry.
//   - A submission is claimed by writing "pending" through with
//     compare-and-set: of the instances that see the plan ready at once,
//     the one whose write wins submits, and its outcome is written through
//     the same way for the others to tell their subscribers. The claim
//     names its instance and carries a lease (Options.SubmitLease) that the
//     plan's loop renews every third of it while the submitter runs, and
//     lets go when the instance stops. Every instance restores, from the
//     watch, each plan that waits for a submission, and arms a takeover
//     timer for another instance's claim: when the lease lapses it reads
//     the entry and, if the claim still stands unrenewed, claims the
//     submission itself with compare-and-set.
//
// Stop closes the Supervisor to new calls, ends every plan (subscribers see
// their channels close without Expired), empties the registry and the account
// counts, and waits for all goroutines of the package to return.
package actor
