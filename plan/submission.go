package plan

import (
	"time"

	"github.com/closerelay/closerelay/ledger"
)

// The states of Submission.State (docs/API.md, status.submission); "" is
// no submission yet (JSON null).
const (
	SubmissionPending   = "pending"
	SubmissionSubmitted = "submitted"
	SubmissionFailed    = "failed"
	// SubmissionBlocked: the preflight before the first try found the
	// close blocked, so it was not posted; Code is the first blocker's.
	SubmissionBlocked = "blocked"
)

// Submission is a plan's submission of its submit-ready envelope to the
// ledger, as GET /status tells it and the store keeps it, and, carried by
// an event, one outcome to tell subscribers. A value handed out is never
// modified afterwards.
type Submission struct {
	// Submit reports whether the plan was published with "submit": true.
	Submit bool
	// State is "" (no submission has started), SubmissionPending (one is in
	// flight), SubmissionSubmitted, SubmissionFailed or SubmissionBlocked
	// (the last one's outcome). An abandoned submission (the plan's expiry
	// or the relay's shutdown ended it) is no state: the plan ends with it.
	State string
	// Hash and Ledger are set once submitted; Hash also on a failure whose
	// transaction was hashed.
	Hash   string
	Ledger int64
	// Code and Reason are set when failed: the transaction result code (for
	// example tx_bad_seq) or the account API's refusal, and a sentence.
	Code, Reason string
	// Preflight is the run before the submission's first try, once made:
	// it then stands for the plan's preflight in place of the publish's.
	Preflight *ledger.PreflightRun

	// Claim orders the submission's changes and, while pending, leases it
	// to the instance that runs it.
	Claim
	// Tried is the submit-ready envelope of the last submission started: a
	// failed one is tried again only with another envelope.
	Tried string
}

func (s *Submission) claim() *Claim { return &s.Claim }
func (s *Submission) pending() bool { return s.State == SubmissionPending }

// Ended reports whether s is an outcome: submitted, failed or blocked.
func (s *Submission) Ended() bool {
	return s.State == SubmissionSubmitted || s.State == SubmissionFailed || s.State == SubmissionBlocked
}

// MarkSubmit is cur marked for the relay to submit (publish's "submit":
// true, which is never unset); not when it is marked already.
func MarkSubmit(cur *Submission) (*Submission, bool) {
	if cur.Submit {
		return nil, false
	}
	next := *cur
	next.Submit = true
	next.Seq++
	return &next, true
}

// ClaimSubmission is instance's claim at now on the submission of
// envelope, a ready version's submit-ready envelope: pending, in
// instance's name, leased until now+lease. Not when the plan is not to be
// submitted or has been, when another instance's claim holds (Held), or
// when envelope is the one that last failed; a claim that lapsed (its
// owner died) has no outcome yet, and its envelope is tried again. The
// caller never claims while its own submission is in flight.
func ClaimSubmission(cur *Submission, envelope, instance string, now time.Time, lease time.Duration) (*Submission, bool) {
	switch {
	case !cur.Submit, cur.State == SubmissionSubmitted:
		return nil, false
	case Held(cur, instance, now):
		return nil, false
	case cur.State != SubmissionPending && envelope == cur.Tried:
		return nil, false
	}
	return &Submission{Submit: true, State: SubmissionPending, Preflight: cur.Preflight, Tried: envelope,
		Claim: Claim{Seq: cur.Seq + 1, Lease: Lease{Owner: instance, Until: now.Add(lease)}}}, true
}

// SettleSubmission is the submission with out, a submitter's outcome
// (out.State SubmissionSubmitted, with Hash and Ledger, or
// SubmissionFailed, with Hash, Code and Reason), keeping the envelope
// tried. A success stands: a failure (another instance's try of the same
// envelope, which then finds its sequence used) never replaces it. An
// abandoned submission (any other out.State) settles nothing: only the
// plan's end abandons one.
//
// run is the preflight run before the try (nil: none ran, and the last
// one stands): a blocked run makes the submission blocked, not failed.
func SettleSubmission(cur *Submission, out Submission, run *ledger.PreflightRun) (*Submission, bool) {
	var next Submission
	switch out.State {
	case SubmissionSubmitted:
		next = Submission{Submit: true, State: SubmissionSubmitted, Hash: out.Hash, Ledger: out.Ledger}
	case SubmissionFailed:
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
	next.Seq, next.Tried = cur.Seq+1, cur.Tried
	next.Preflight = cur.Preflight
	if run != nil {
		next.Preflight = run
	}
	return &next, true
}
