package plan

import (
	"errors"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/mediator"
)

// ErrFlowConflict: a re-publish names another flow than the one the plan
// keeps (a flow is set once and never changed).
var ErrFlowConflict = errors.New("plan: the plan keeps another mediator flow")

// Flow is what a plan keeps of its mediator flow: the nonce its mediator's
// key derives from, and the destination and memo the forward must pay and
// carry, and the token that commits to them. The token's expiry no longer
// matters once the plan holds the flow; its MAC does.
type Flow struct {
	Nonce       string
	Destination string
	// Memo is the committed memo in its canonical spelling
	// ("<type>:<value>", as mediator.Memo.String writes it).
	Memo string
	// Token is the flow token the plan was given. Its MAC is what the
	// forward is signed under: the fields above are the store's word
	// (another instance's, or anyone's who can write the bucket), the MAC
	// is the master's. Not part of the flow's identity (Same): a later
	// token of the same flow differs only in its expiry.
	Token string
}

// FlowForward is what the preflight needs of f (ledger.FlowForward): nil
// for no flow, or for a flow whose memo does not parse (a record written
// by something else), which the forwarder refuses before building
// anything, so that no forward of it can reach the ledger.
func (f *Flow) FlowForward() *ledger.FlowForward {
	if f == nil {
		return nil
	}
	memo, err := mediator.ParseMemo(f.Memo)
	if err != nil {
		return nil
	}
	return &ledger.FlowForward{Destination: f.Destination, Memo: memo.XDR()}
}

// Same reports whether f and o are one flow: the same nonce, destination
// and memo, whatever their tokens' expiries.
func (f Flow) Same(o Flow) bool {
	return f.Nonce == o.Nonce && f.Destination == o.Destination && f.Memo == o.Memo
}

// The states of Forward.State (docs/API.md, status.forward); "" is no
// forward yet (JSON null).
const (
	ForwardPending   = "pending"
	ForwardForwarded = "forwarded"
	ForwardFailed    = "failed"
)

// ForwardCodeTimedOut is a forward's failure code when its retry budget
// ran out before the ledger took it: the funds wait in the mediator, where
// only the operator can forward them.
const ForwardCodeTimedOut = "forward_timed_out"

// Forward is a plan's mediator forward (the relay runs it once the close
// has landed), as GET /status tells it and the store keeps it; carried by
// an event, one outcome to tell subscribers; and, with only its outcome's
// fields set, how one run of a forwarder ended. A value handed out is
// never modified afterwards.
type Forward struct {
	// Flow is the plan's flow; nil for a plan published without one.
	Flow *Flow
	// State is "" until the close's submission succeeded, then
	// ForwardPending, then ForwardForwarded or ForwardFailed. A
	// forwarder's run that ctx ended first is "": abandoned, nothing to
	// tell.
	State string
	// Hash is the forward's transaction hash once one was sent; Ledger and
	// Amount (op0's payment, decimal native units) once forwarded.
	Hash   string
	Ledger int64
	Amount string
	// Code and Reason say why the forward failed.
	Code, Reason string

	// Claim orders the forward's changes and, while pending, leases it to
	// the instance that runs it.
	Claim
	// Deadline ends the forward's retry budget: set by its first claim
	// and kept by every takeover, so that no restart or new owner starts
	// the budget again. A forward still pending then fails with
	// ForwardCodeTimedOut. Settled is when it got its outcome. Both say
	// how long the plan outlives its signing window (LifeEnd).
	Deadline time.Time
	Settled  time.Time
}

func (f *Forward) claim() *Claim { return &f.Claim }
func (f *Forward) pending() bool { return f.State == ForwardPending }

// Ended reports whether f is an outcome: forwarded or failed.
func (f *Forward) Ended() bool { return f.State == ForwardForwarded || f.State == ForwardFailed }

// ForwardJob is what a forwarder runs: the plan's network, its flow, and
// the forward's fee per operation (ledger.ForwardFeePerOp of the close).
type ForwardJob struct {
	Network  ledger.Network
	Flow     Flow
	FeePerOp int64
}

// WithFlow is cur keeping flow: set once, the same flow again changes
// nothing (ok false), another one is ErrFlowConflict.
func WithFlow(cur *Forward, flow Flow) (*Forward, bool, error) {
	switch {
	case cur.Flow == nil:
		next := *cur
		next.Flow = &flow
		next.Seq++
		return &next, true, nil
	case cur.Flow.Same(flow):
		return nil, false, nil
	}
	return nil, false, ErrFlowConflict
}

// ClaimForward is instance's claim at now on the forward of a plan whose
// close was submitted: pending, in instance's name, leased until
// now+lease; the first claim starts the retry budget (deadline
// now+budget), a takeover keeps it. Not without a flow or before the
// submission succeeded, once the forward has an outcome, while another
// instance's claim holds, or once the budget has run out (ForwardTimedOut
// applies then).
func ClaimForward(cur *Forward, sub *Submission, instance string, now time.Time, lease, budget time.Duration) (*Forward, bool) {
	switch {
	case cur.Flow == nil, sub.State != SubmissionSubmitted:
		return nil, false
	case cur.Ended():
		return nil, false
	case Held(cur, instance, now):
		return nil, false
	case !cur.Deadline.IsZero() && !now.Before(cur.Deadline):
		return nil, false
	}
	next := *cur
	next.State, next.Lease = ForwardPending, Lease{Owner: instance, Until: now.Add(lease)}
	if next.Deadline.IsZero() {
		next.Deadline = now.Add(budget)
	}
	next.Seq++
	return &next, true
}

// ForwardTimedOut is a pending forward whose retry budget has run out by
// now, failed with ForwardCodeTimedOut: whoever holds the plan when the
// budget ends settles it, whether or not a forwarder still runs (its
// outcome, if it comes later, cannot replace a failure it did not make:
// a forwarded one can, see SettleForward).
func ForwardTimedOut(cur *Forward, now time.Time, budget time.Duration) (*Forward, bool) {
	if cur.State != ForwardPending || cur.Deadline.IsZero() || now.Before(cur.Deadline) {
		return nil, false
	}
	next := Forward{Flow: cur.Flow, Claim: Claim{Seq: cur.Seq + 1}, State: ForwardFailed, Hash: cur.Hash,
		Code: ForwardCodeTimedOut, Deadline: cur.Deadline, Settled: now,
		Reason: "the forward did not land within its retry budget of " + budget.String() + "; the funds wait in the mediator account"}
	return &next, true
}

// SettleForward is the forward with out, a forwarder's outcome at now. A
// forwarded one stands: a failure (another instance's late try, which
// finds the mediator gone) never replaces it. An abandoned run settles
// nothing.
func SettleForward(cur *Forward, out Forward, now time.Time) (*Forward, bool) {
	next := Forward{Flow: cur.Flow, Claim: Claim{Seq: cur.Seq + 1}, Deadline: cur.Deadline, Settled: now}
	switch out.State {
	case ForwardForwarded:
		next.State, next.Hash, next.Ledger, next.Amount = ForwardForwarded, out.Hash, out.Ledger, out.Amount
	case ForwardFailed:
		if cur.State == ForwardForwarded {
			return nil, false
		}
		next.State, next.Hash, next.Code, next.Reason = ForwardFailed, out.Hash, out.Code, out.Reason
	default:
		return nil, false
	}
	return &next, true
}

// LifeEnd is when a plan whose signing window ends at window ends, given
// its submission and forward: the window's end, unless the forward needs
// the plan longer. A pending forward keeps it until its budget's end plus
// the retention (it is settled failed at the budget's end), a forward
// settled after the window keeps it for the retention after its outcome,
// and a submission of a plan with a flow still in flight at the window's
// end keeps it at most budget past the window. A forward settled within
// the window leaves the plan to end with it, as a submitted plan does.
// Every instance computes the same end from the same record.
func LifeEnd(window time.Time, sub *Submission, f *Forward, budget, retention time.Duration) time.Time {
	switch {
	case f.Flow == nil:
		return window
	case f.State == ForwardPending && !f.Deadline.IsZero():
		return later(window, f.Deadline.Add(retention))
	case f.Ended() && f.Settled.After(window):
		return f.Settled.Add(retention)
	case f.State == "" && sub.State == SubmissionPending:
		return window.Add(budget)
	}
	return window
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
