package plan

import (
	"errors"
	"strings"
	"testing"
	"time"
)

var (
	testHash    = strings.Repeat("ab", 32)
	testNonce1  = strings.Repeat("1", 32)
	destination = "GDQNY3PBOJOKYZSRMK2S7LHHGWZIUISD4QORETLMXEWXBI7KFZZMKTL3"
)

// The forward's transitions are pure: these pin what each decides.
func TestForwardTransitions(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	const lease = 15 * time.Second
	const budget = time.Hour
	flow := Flow{Nonce: testNonce1, Destination: destination, Memo: "text:x", Token: "n.1.GD.dGV4dDp4.mac"}
	submitted := &Submission{Submit: true, State: SubmissionSubmitted}

	// A flow is set once; the same flow again changes nothing; another is
	// a conflict.
	f, ok, err := WithFlow(&Forward{}, flow)
	if !ok || err != nil || *f.Flow != flow || f.Seq != 1 {
		t.Fatalf("WithFlow on none: %+v %v %v", f, ok, err)
	}
	if _, ok, err := WithFlow(f, flow); ok || err != nil {
		t.Errorf("WithFlow of the same flow: %v %v", ok, err)
	}
	other := flow
	other.Memo = "text:y"
	if _, _, err := WithFlow(f, other); !errors.Is(err, ErrFlowConflict) {
		t.Errorf("WithFlow of another flow: %v", err)
	}

	// No claim without a flow, or before the close was submitted.
	if _, ok := ClaimForward(&Forward{}, submitted, "a", now, lease, budget); ok {
		t.Error("claimed a forward without a flow")
	}
	if _, ok := ClaimForward(f, &Submission{Submit: true, State: SubmissionPending}, "a", now, lease, budget); ok {
		t.Error("claimed a forward before the close was submitted")
	}
	// A's claim holds against B until its lease lapses.
	a, ok := ClaimForward(f, submitted, "a", now, lease, budget)
	if !ok || a.State != ForwardPending || a.Lease.Owner != "a" || !a.Lease.Until.Equal(now.Add(lease)) || a.Seq != f.Seq+1 {
		t.Fatalf("claim: %+v %v", a, ok)
	}
	if _, ok := ClaimForward(a, submitted, "b", now.Add(lease-time.Millisecond), lease, budget); ok {
		t.Error("B took over a live claim")
	}
	b, ok := ClaimForward(a, submitted, "b", now.Add(lease), lease, budget)
	if !ok || b.Lease.Owner != "b" {
		t.Errorf("B did not take over a lapsed claim: %+v", b)
	}
	if _, ok := Renew(b, "a", now, lease); ok {
		t.Error("A renewed B's claim")
	}
	if r, ok := Release(b, "b"); !ok || !r.Lease.Until.IsZero() {
		t.Errorf("release: %+v %v", r, ok)
	}
	// A forwarded forward stands: a later failure does not replace it, and
	// nothing claims it again.
	done, ok := SettleForward(b, Forward{State: ForwardForwarded, Hash: testHash, Ledger: 9, Amount: "1.0000000"}, now)
	if !ok || done.State != ForwardForwarded || *done.Flow != flow {
		t.Fatalf("settle: %+v", done)
	}
	if _, ok := SettleForward(done, Forward{State: ForwardFailed, Code: "tx_bad_seq"}, now); ok {
		t.Error("a failure replaced forwarded")
	}
	if _, ok := ClaimForward(done, submitted, "c", now.Add(time.Hour), lease, budget); ok {
		t.Error("a forwarded forward was claimed again")
	}
	failed, _ := SettleForward(b, Forward{State: ForwardFailed, Code: "tx_failed"}, now)
	if _, ok := ClaimForward(failed, submitted, "c", now.Add(time.Hour), lease, budget); ok {
		t.Error("a failed forward was claimed again")
	}
	if _, ok := SettleForward(b, Forward{}, now); ok {
		t.Error("an abandoned run settled something")
	}
}

// The retry budget starts with the first claim, survives takeovers, and
// ends the forward: no claim past it, and a pending forward then fails
// with ForwardCodeTimedOut, once.
func TestForwardBudget(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	const lease, budget = 15 * time.Second, time.Hour
	f := &Forward{Flow: &Flow{Nonce: testNonce1, Destination: destination, Memo: "text:x"}}
	submitted := &Submission{Submit: true, State: SubmissionSubmitted}
	a, _ := ClaimForward(f, submitted, "a", now, lease, budget)
	if !a.Deadline.Equal(now.Add(budget)) {
		t.Fatalf("first claim: deadline %v, want %v", a.Deadline, now.Add(budget))
	}
	b, ok := ClaimForward(a, submitted, "b", now.Add(30*time.Minute), lease, budget)
	if !ok || !b.Deadline.Equal(a.Deadline) {
		t.Fatalf("takeover: %+v %v, want the first claim's deadline kept", b, ok)
	}
	if _, ok := ForwardTimedOut(b, now.Add(budget-time.Millisecond), budget); ok {
		t.Error("timed out before its budget ran out")
	}
	if _, ok := ClaimForward(b, submitted, "c", now.Add(budget), lease, budget); ok {
		t.Error("claimed past the budget")
	}
	out, ok := ForwardTimedOut(b, now.Add(budget), budget)
	if !ok || out.State != ForwardFailed || out.Code != ForwardCodeTimedOut || !out.Settled.Equal(now.Add(budget)) || out.Seq != b.Seq+1 {
		t.Fatalf("timed out: %+v %v", out, ok)
	}
	if _, ok := ForwardTimedOut(out, now.Add(2*budget), budget); ok {
		t.Error("a failed forward timed out again")
	}
	if _, ok := ClaimForward(out, submitted, "c", now.Add(2*budget), lease, budget); ok {
		t.Error("a timed-out forward was claimed again")
	}
}

// LifeEnd: a plan ends with its signing window unless its forward needs
// it longer, and never for longer than the budget and the retention; never
// before its window's end.
func TestLifeEnd(t *testing.T) {
	window := time.Unix(1_800_000_000, 0)
	const budget, retention = 6 * time.Hour, time.Hour
	flow := &Flow{Nonce: testNonce1, Destination: destination, Memo: "text:x"}
	none, submitted, pending := &Submission{}, &Submission{Submit: true, State: SubmissionSubmitted}, &Submission{Submit: true, State: SubmissionPending}
	for _, tc := range []struct {
		name string
		sub  *Submission
		f    *Forward
		want time.Time
	}{
		{"no flow", pending, &Forward{}, window},
		{"a flow, nothing submitted", none, &Forward{Flow: flow}, window},
		{"a flow, the close in flight at the window's end", pending, &Forward{Flow: flow}, window.Add(budget)},
		{"forward pending", submitted, &Forward{Flow: flow, State: ForwardPending, Deadline: window.Add(-time.Minute + budget)}, window.Add(-time.Minute + budget + retention)},
		{"forward pending, its budget's end long before the window's", submitted, &Forward{Flow: flow, State: ForwardPending, Deadline: window.Add(-2 * retention)}, window},
		{"forward pending, an old record without a deadline", submitted, &Forward{Flow: flow, State: ForwardPending}, window},
		{"forwarded within the window", submitted, &Forward{Flow: flow, State: ForwardForwarded, Settled: window.Add(-time.Second)}, window},
		{"forwarded after the window", submitted, &Forward{Flow: flow, State: ForwardForwarded, Settled: window.Add(time.Minute)}, window.Add(time.Minute + retention)},
		{"failed after the window", submitted, &Forward{Flow: flow, State: ForwardFailed, Settled: window.Add(budget)}, window.Add(budget + retention)},
	} {
		got := LifeEnd(window, tc.sub, tc.f, budget, retention)
		if !got.Equal(tc.want) {
			t.Errorf("%s: LifeEnd = %v, want %v", tc.name, got, tc.want)
		}
		// Supervisor.live takes a plan inside its window for live without
		// reading its forward.
		if got.Before(window) {
			t.Errorf("%s: the plan ends at %v, before its window's end", tc.name, got)
		}
	}
}
