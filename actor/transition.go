package actor

import (
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
)

// The submission's transitions. Each is a pure function of the submission
// as it stands and its inputs: it returns the next submission and ok, or
// ok=false when the transition does not apply, and never modifies cur. The
// run loop writes what they return through to the store and publishes it;
// what they decide is the same for every instance, whichever store it runs
// on. Each change raises seq, by which every instance keeps the newest.

// markSubmit is cur marked for the relay to submit (publish's "submit":
// true, which is never unset).
func markSubmit(cur *Submission) (*Submission, bool) {
	if cur.Submit {
		return nil, false
	}
	next := *cur
	next.Submit = true
	next.seq++
	return &next, true
}

// claim is instance's claim at now on the submission of envelope, a
// ready version's submit-ready envelope: pending, in instance's name,
// leased until now+lease. Not when the plan is not to be submitted or has
// been, when another instance's claim holds (pending, its lease not
// lapsed), or when envelope is the one that last failed; a claim that
// lapsed (its owner died) has no outcome yet, and its envelope is tried
// again. A claim in instance's own name that it no longer runs (it
// restarted under the same name) may be taken; the loop never claims while
// its own submission is in flight.
func claim(cur *Submission, envelope, instance string, now time.Time, lease time.Duration) (*Submission, bool) {
	switch {
	case !cur.Submit, cur.State == SubmissionSubmitted:
		return nil, false
	case cur.State == SubmissionPending && cur.owner != instance && now.Before(cur.lease):
		return nil, false
	case cur.State != SubmissionPending && envelope == cur.tried:
		return nil, false
	}
	return &Submission{Submit: true, State: SubmissionPending, Preflight: cur.Preflight, seq: cur.seq + 1, tried: envelope,
		owner: instance, lease: now.Add(lease)}, true
}

// renew is instance's pending claim extended to now+lease. A claim taken
// over meanwhile (instance was cut off from the store past its lease) is
// left to its new owner.
func renew(cur *Submission, instance string, now time.Time, lease time.Duration) (*Submission, bool) {
	if cur.State != SubmissionPending || cur.owner != instance {
		return nil, false
	}
	next := *cur
	next.seq++
	next.lease = now.Add(lease)
	return &next, true
}

// release is instance's pending claim let go: its lease lapsed now, so that
// another instance takes the submission over at once.
func release(cur *Submission) (*Submission, bool) {
	next := *cur
	next.seq++
	next.lease = time.Time{}
	return &next, true
}

// settle is the submission with out, a submitter's outcome: submitted or
// failed, keeping the envelope tried. A success stands: a failure (another
// instance's try of the same envelope, which then finds its sequence used)
// never replaces it. An abandoned submission settles nothing: only the
// plan's end abandons one.
//
// run is the preflight run before the try (nil: none ran, and the last
// one stands): a blocked run makes the submission blocked, not failed.
func settle(cur *Submission, out ledgerapi.SubmitOutcome, run *ledger.PreflightRun) (*Submission, bool) {
	var next Submission
	switch out.State {
	case ledgerapi.SubmitSubmitted:
		next = Submission{Submit: true, State: SubmissionSubmitted, Hash: out.Hash, Ledger: out.Ledger}
	case ledgerapi.SubmitFailed:
		if cur.State == SubmissionSubmitted {
			return nil, false
		}
		next = Submission{Submit: true, State: SubmissionFailed, Hash: out.Hash, Code: out.Code, Reason: out.Reason}
		if run != nil && run.State == ledger.PreflightBlocked {
			next.State = SubmissionBlocked
		}
	default:
		return nil, false
	}
	next.seq, next.tried = cur.seq+1, cur.tried
	next.Preflight = cur.Preflight
	if run != nil {
		next.Preflight = run
	}
	return &next, true
}
