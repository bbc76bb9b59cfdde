package actor

import (
	"errors"
	"testing"
	"time"
)

// The forward's transitions are pure: these pin what each decides.
func TestForwardTransitions(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	const lease = 15 * time.Second
	flow := Flow{Nonce: "n", Destination: "GD", Memo: "text:x", Token: "n.1.GD.dGV4dDp4.mac"}
	submitted := &Submission{Submit: true, State: SubmissionSubmitted}

	// A flow is set once; the same flow again changes nothing; another is
	// a conflict.
	f, ok, err := withFlow(&Forward{}, flow)
	if !ok || err != nil || *f.Flow != flow || f.seq != 1 {
		t.Fatalf("withFlow on none: %+v %v %v", f, ok, err)
	}
	if _, ok, err := withFlow(f, flow); ok || err != nil {
		t.Errorf("withFlow of the same flow: %v %v", ok, err)
	}
	other := flow
	other.Memo = "text:y"
	if _, _, err := withFlow(f, other); !errors.Is(err, ErrFlowConflict) {
		t.Errorf("withFlow of another flow: %v", err)
	}

	// No claim without a flow, or before the close was submitted.
	if _, ok := claimForward(&Forward{}, submitted, "a", now, lease); ok {
		t.Error("claimed a forward without a flow")
	}
	if _, ok := claimForward(f, &Submission{Submit: true, State: SubmissionPending}, "a", now, lease); ok {
		t.Error("claimed a forward before the close was submitted")
	}
	// A's claim holds against B until its lease lapses.
	a, ok := claimForward(f, submitted, "a", now, lease)
	if !ok || a.State != ForwardPending || a.owner != "a" || !a.lease.Equal(now.Add(lease)) || a.seq != f.seq+1 {
		t.Fatalf("claim: %+v %v", a, ok)
	}
	if _, ok := claimForward(a, submitted, "b", now.Add(lease-time.Millisecond), lease); ok {
		t.Error("B took over a live claim")
	}
	b, ok := claimForward(a, submitted, "b", now.Add(lease), lease)
	if !ok || b.owner != "b" {
		t.Errorf("B did not take over a lapsed claim: %+v", b)
	}
	if _, ok := renewForward(b, "a", now, lease); ok {
		t.Error("A renewed B's claim")
	}
	if r, ok := releaseForward(b, "b"); !ok || !r.lease.IsZero() {
		t.Errorf("release: %+v %v", r, ok)
	}
	// A forwarded forward stands: a later failure does not replace it, and
	// nothing claims it again.
	done, ok := settleForward(b, ForwardOutcome{State: ForwardForwarded, Hash: "h", Ledger: 9, Amount: "1.0000000"})
	if !ok || done.State != ForwardForwarded || *done.Flow != flow {
		t.Fatalf("settle: %+v", done)
	}
	if _, ok := settleForward(done, ForwardOutcome{State: ForwardFailed, Code: "tx_bad_seq"}); ok {
		t.Error("a failure replaced forwarded")
	}
	if _, ok := claimForward(done, submitted, "c", now.Add(time.Hour), lease); ok {
		t.Error("a forwarded forward was claimed again")
	}
	failed, _ := settleForward(b, ForwardOutcome{State: ForwardFailed, Code: "tx_failed"})
	if _, ok := claimForward(failed, submitted, "c", now.Add(time.Hour), lease); ok {
		t.Error("a failed forward was claimed again")
	}
	if _, ok := settleForward(b, ForwardOutcome{}); ok {
		t.Error("an abandoned run settled something")
	}
	// The record round-trips.
	if got := forwardOf(b.record()); *got.Flow != *b.Flow || got.State != b.State || got.seq != b.seq || got.owner != b.owner || !got.lease.Equal(b.lease) {
		t.Errorf("record round trip: %+v, want %+v", got, b)
	}
	if (&Forward{}).record() != nil {
		t.Error("a plan without a flow records a forward")
	}
}
