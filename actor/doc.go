// Package actor runs closerelay's plans: a Supervisor that owns the registry
// of the plans this instance serves, and one goroutine per Plan (its run
// loop) that owns the plan's mutable state, its subscribers and its timers.
// The plans live in a Store (planstore.Bucket): a planstore.Memory of the
// Supervisor's own in single mode, the JetStream bucket shared by every
// instance in cluster mode (CONTRACT section 12). The package runs the same
// code on either; the store decides the limits and every race.
//
// # The plan's state
//
// A plan's state is a value, planState: the version handed out (State: the
// envelope, its signers, the version number and the readiness), the
// indexes that answer replays, the signatures the submit-ready envelope is
// selected from, the submission, the forward, and the store revision whose
// signatures it holds. Transitions make the next value from the current
// one and their input, change nothing they are given, and return, with
// the next value, the effects the run loop is to run for it (effects,
// state.go): merge (admit signatures) and union (take in a stored version:
// a union keyed by signer), which read only the plan's immutable parts
// (planParts) and the value they are given, whose submission's preflight
// decides the new version's landable flag; and the submission's
// markSubmit, claim, renew, release and settle and the forward's withFlow,
// claimForward, renewForward, releaseForward, settleForward and
// forwardTimedOut, which the loop turns into effects where it calls them.
// The run loop runs what they decide in two places: Plan.step writes the
// next value through to the store with compare-and-set on the entry's
// revision (fxWrite) before anything else, and Plan.apply, the one place
// that runs the other effects, publishes it, then tells subscribers, then
// writes back what the store lacks, then starts a submission or a forward.
//
// Readers use one atomic pointer, Plan.settled. Whoever builds a plan
// stores its first state there before sharing it; from then on the run
// loop alone stores, once per settled state, and nobody modifies a state
// stored there. Known (the replay fast path of ledger.CheckPartial), Snapshot,
// Ready, plan.Submission, a Merge whose signers are all present already (it
// would change nothing wherever it queued, so it does not queue), a
// SetSubmit already set, and Lookup's check of the revision all load it
// and never queue behind the loop. A State handed out is never modified
// afterwards, its Signers slice included; subscribers may keep it. Ready's
// submit-ready envelope is selected and encoded at most once per version,
// by the first caller that asks, in its own goroutine, and kept with that
// version.
//
// # Ownership
//
// One lock is shared with callers, a plan's serving mutex, and only Merge
// takes it (below); everything else is owned by one goroutine at a time.
//
//   - The Supervisor's goroutine alone reads and writes the registry (plan
//     id to *Plan). It mirrors the registry into a sync.Map that Lookup
//     reads without a round trip; a plan found there past its expiry is
//     looked up through the loop, which sweeps it. It never blocks on I/O.
//   - A plan's run loop alone touches its subscribers, its timers, its
//     records of its own submission and forward (submitState,
//     forwardState), the revision its next
//     compare-and-set expects (Plan.rev) and whether the store lacks a
//     union it holds (Plan.dirty). Handlers reach it by posting on its
//     mailbox a request that carries a reply channel buffered to one, so
//     the loop never waits for a caller to collect an answer, with one
//     exception: the loop holds the plan's serving mutex but while it
//     waits for its next event, and a Merge that takes it then is served
//     on its caller's goroutine (Plan.mergeInPlace), the loop's state lent
//     to it for that merge, which saves a new signer the round trip's two
//     goroutine switches each way (BENCHMARKS.md). It does so only when
//     no request sent to the loop is still to be taken up (Plan.posted,
//     counted by every sender from before its send), so it never overtakes
//     one. A merge in place that replaces a lease timer pokes the loop,
//     which then waits on the new one;
//     Subscription.Close hands its subscription back on the plan's leave
//     channel, which needs no answer. The loop's other inputs are its
//     expiry timer, a one-slot evict channel that never blocks its sender
//     (the plan is past its expiry before the timer said so), the one-slot
//     stored channel of the store's watch (below), the timers of a
//     submission's lease, and the Supervisor's quit. The loop tells the
//     world it has ended by closing done, after recording why.
//   - Ownership is checked, not only stated: every function that only a
//     loop may run calls owner.check, which panics when called from any
//     other goroutine than the loop's or the one it lent its state to (a
//     merge in place), in the manner of net/http2's serveG.check. This
//     package's tests turn the check on, and CLOSERELAY_CHECK_LOOPS=1 does
//     in any process; off, it costs one atomic load.
//   - What a Plan handle answers without a round trip is immutable (ID,
//     Canonical, Expiry: the ledger.AdmittedPlan it was created from,
//     taken as it is) or read from Plan.settled.
//   - Submission (CONTRACT section 10) is I/O and never runs in a plan's
//     loop. When the current version is ready, the plan was published with
//     submit, none of this instance's submissions is in flight or has
//     succeeded, and claim allows it, the loop writes the claim through and
//     starts one goroutine that calls Options.Submitter with the version's
//     submit-ready envelope, under a context that the plan's end cancels,
//     counted in the Supervisor's WaitGroup. Its outcome comes back on the
//     mailbox like any request; the loop settles it, publishes it and
//     offers it to subscribers. A failed envelope is not tried again: only
//     a different submit-ready envelope is. An abandoned submission (the
//     context ended) is never served, since the plan has ended.
//   - The mediator forward (CONTRACT section 16, forward.go) runs the same
//     way: a plan published with a flow keeps it (Forward.Flow); once its
//     submission has succeeded the loop claims the forward (in the same
//     write as the submission's outcome, when it can), starts one goroutine
//     that calls Options.Forwarder under the same context, and settles its
//     outcome from the mailbox. Its claim, lease, renewal, release and
//     takeover are the submission's, with timers of their own
//     (forwardState), and its record is in the plan's entry, so that
//     status.forward survives the instance that ran it.
//
// Every call selects on the caller's context and on the plan's end, so a
// vanished client or an ended plan never strands a goroutine: a call
// answers ctx.Err(), ErrNotFound once the plan expired, or ErrStopped once
// the Supervisor stopped. A merge served in place is the exception: it
// answers once served, its store write bounded by the store's timeout. Subscription.Close takes no context: it selects
// on the plan's end only, so it waits for the loop's next turn at most
// (the loop never waits on anyone) and never for an ended plan. A Subscribe
// whose context ends after the loop took it closes the subscription that
// way, and the leave is served after the turn that registered it.
//
// # Ordering
//
// A plan's requests are served one at a time in the order its mailbox takes
// them, and a merge is served in place only when no request sent to the
// loop before it is still to be taken up (Plan.posted), so merges apply in
// arrival order and each merge's version is one
// higher than the version it replaced (1 at publish; a version taken in
// from the store keeps the store's number). Verification runs
// in the request goroutines before Merge, in parallel and out of order; only
// deduplication by signer, the append, the weighing (a sum over at most 20
// signers), the re-encoding, the write to the store and the broadcast are
// serial. A merge that adds no signer changes nothing and sends nothing.
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
// yet received. The loop never waits on it: when the slot is still full at
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
// # Lifetimes and limits
//
// The plan capacity and PLANS_PER_ACCOUNT are the store's: CheckCapacity
// (guard 5) reads its registry, and Create reserves a slot there
// atomically with the same checks (guard 8), in the request goroutine, so
// the Supervisor's serial section is a registration. The registry drops a
// plan at its expiry by itself, so a plan past it never holds a slot.
//
// Create, in the request goroutine, hands back the live plan of its id,
// registered here or stored (restored and registered), whatever the limits
// and the new publish's expiry: a re-publish is a merge. Otherwise it
// refuses a publish whose expiry is not after the Supervisor's clock
// (ErrExpired), then reserves (ErrCapacity, then ErrAccountCapacity), then
// writes the plan with a create and registers it; a stored plan past its
// expiry is replaced. Creates of one id in one instance run one at a time
// (a second waits for the first and gets its plan), and a Lookup or the
// watch leaves an id being created here to its Create, so that of two
// racing publishes of a new id one creates it and the other merges;
// between instances, the store's compare-and-set decides.
//
// Supervisor.Loops counts the plans' run loops, each a goroutine: one per
// plan this instance serves, and for a moment one per plan that has ended
// and is still telling its subscribers. A count back where it stood before a
// plan was created says the plan left no goroutine of its loop behind.
//
// A plan lives until its expiry, unless its mediator forward needs it
// longer (life.go): past its signing window it then refuses every
// client's request as an expired plan does and tells its subscribers
// Expired, but stays registered, stored and counted in the registry
// (Store.Hold) until its forward has settled and ForwardRetention after,
// answering only Supervisor.LookupStatus; the forward's retry budget
// (ForwardBudget) bounds that. What follows says "expiry" for the plan's
// end. Its run loop arms a timer at that instant;
// when it fires, the loop ends its subscribers as above, deletes the
// plan's entry unless it is already another plan's (a publish of the id
// replaced it; the first instance to get there deletes, the others find it
// gone) and tells the Supervisor, which removes it from the registry. A plan past
// its expiry is gone even before its timer has been served: Lookup sweeps
// it, Create replaces it, Open sweeps every such plan, and the plan itself
// refuses requests with ErrNotFound. Each plan is counted expired once,
// whichever of these comes first.
//
// A subscription lives until its plan ends or it is closed. Close returns
// once the plan's loop has taken it, and that same turn removes the
// subscription and closes C before the loop serves anything else (a merge
// in place started later waits for that turn: posted), so a Subscribe made
// after Close returned finds the slot free, and a merge started after it
// never offers the subscription a version. A merge in place under way as
// Close returns may still offer one before C closes.
//
// # The store
//
//   - A change is written through with compare-and-set on the entry's
//     revision before the loop answers and before it publishes. A lost race
//     re-reads the entry, takes it in (union), and runs its transition
//     again: merges are unions keyed by signer, so they commute, and no sign
//     answered 200 anywhere is ever dropped. The loop waits on no I/O but
//     the store's (these writes and re-reads, holding the plan's registry
//     slot, deleting its entry at its end), bounded by the store's timeout;
//     a store that cannot be reached answers ErrUnavailable and changes
//     nothing.
//   - Lookup reads the entry (one round trip) so that every answer
//     reflects the store as it stood when the request came; a plan this
//     instance does not hold is restored from it
//     (ledger.RestorePlan) and registered. Read-after-sign across
//     instances rests on one rule: Lookup hands out a plan only once its
//     published state holds every signature of the revision it read,
//     however the plan was found (registered before, restored from that
//     read, or registered meanwhile from an older one and handed back
//     instead). A state names the revision it holds (planState.rev) inside
//     the same atomic pointer as its signatures, so no reader sees a
//     revision ahead of its signatures; it names only a revision whose
//     signers are all in it: one it was written as, or one whose signers it
//     took in. What a change brings in is decided by its signers, never by
//     its version or revision number. And the entry is read from the
//     bucket's stream leader (planstore.Store.Get): a write acknowledged to
//     any instance is in every later read. In single mode (the Supervisor's
//     own store) Lookup hands out a live plan without the read: nothing
//     but this instance's plans writes the store, and a plan answers only
//     after its write. A plan replaced past its expiry by a publish of its
//     id (another expiry) never writes over its successor's entry: a
//     re-read that finds another plan's entry ends its writes
//     (errReplaced), and the watch's change of another plan's entry is
//     not taken in.
//   - One watch per instance (Store.Changes) follows the other instances'
//     writes; the Supervisor hands each change to the plan it concerns
//     through a one-slot, newest-wins channel (Plan.stored), so a busy plan
//     never holds up the watch, and the plan's subscribers receive other
//     instances' changes. A plan reads its entry once more as its loop
//     starts, for a change that came before it was registered. In single
//     mode no other instance writes, and the watch delivers nothing.
//   - Nothing read from the store is trusted (storecheck.go): a record is
//     checked before it is restored (ledger.RestorePlan: the envelope is the
//     close whose hash is the plan id, every signature verifies) or taken
//     in (union: the plan's transaction, signatures new to the plan
//     verified, the plan's network, account, signer set and flow), its
//     other fields in shape, its mediator flow verified (Options.FlowCheck:
//     the token's MAC commits to it, and the close pays its mediator). Signatures are verified once per record taken into
//     memory, never per request. A refused record is counted
//     (closerelay_store_records_refused_total): a plan not held is as if
//     absent (ErrNotFound), a plan held keeps its view and writes it back
//     over the record.
//   - Versions are the store's: the entry carries the version, and a change
//     taken in keeps it. Each instance arms its own expiry timer from the
//     entry's expiry.
//   - A submission is claimed by writing "pending" through with
//     compare-and-set: of the instances that see the plan ready at once, the
//     one whose write wins submits, and its outcome is written through the
//     same way for the others to tell their subscribers. The claim names
//     its instance (Options.Instance) and carries a lease
//     (Options.SubmitLease) that the plan's loop renews every third of it
//     while the submitter runs, and lets go when the instance stops. Every
//     instance restores, from the watch, each plan that waits for a
//     submission, and arms a takeover timer for another instance's claim:
//     when the lease lapses it reads the entry and, if the claim still
//     stands unrenewed, claims the submission itself with compare-and-set.
//
// Stop closes the Supervisor to new calls, ends every plan (subscribers see
// their channels close without Expired), empties the registry, and waits
// for all goroutines of the package to return.
package actor
