package actor

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"
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
	if _, ok := claimForward(&Forward{}, submitted, "a", now, lease, budget); ok {
		t.Error("claimed a forward without a flow")
	}
	if _, ok := claimForward(f, &Submission{Submit: true, State: SubmissionPending}, "a", now, lease, budget); ok {
		t.Error("claimed a forward before the close was submitted")
	}
	// A's claim holds against B until its lease lapses.
	a, ok := claimForward(f, submitted, "a", now, lease, budget)
	if !ok || a.State != ForwardPending || a.owner != "a" || !a.lease.Equal(now.Add(lease)) || a.seq != f.seq+1 {
		t.Fatalf("claim: %+v %v", a, ok)
	}
	if _, ok := claimForward(a, submitted, "b", now.Add(lease-time.Millisecond), lease, budget); ok {
		t.Error("B took over a live claim")
	}
	b, ok := claimForward(a, submitted, "b", now.Add(lease), lease, budget)
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
	done, ok := settleForward(b, ForwardOutcome{State: ForwardForwarded, Hash: testHash, Ledger: 9, Amount: "1.0000000"}, now)
	if !ok || done.State != ForwardForwarded || *done.Flow != flow {
		t.Fatalf("settle: %+v", done)
	}
	if _, ok := settleForward(done, ForwardOutcome{State: ForwardFailed, Code: "tx_bad_seq"}, now); ok {
		t.Error("a failure replaced forwarded")
	}
	if _, ok := claimForward(done, submitted, "c", now.Add(time.Hour), lease, budget); ok {
		t.Error("a forwarded forward was claimed again")
	}
	failed, _ := settleForward(b, ForwardOutcome{State: ForwardFailed, Code: "tx_failed"}, now)
	if _, ok := claimForward(failed, submitted, "c", now.Add(time.Hour), lease, budget); ok {
		t.Error("a failed forward was claimed again")
	}
	if _, ok := settleForward(b, ForwardOutcome{}, now); ok {
		t.Error("an abandoned run settled something")
	}
	// The record round-trips.
	if got := forwardOf(b.record()); *got.Flow != *b.Flow || got.State != b.State || got.seq != b.seq || got.owner != b.owner || !got.lease.Equal(b.lease) || !got.deadline.Equal(b.deadline) {
		t.Errorf("record round trip: %+v, want %+v", got, b)
	}
	if got := forwardOf(done.record()); !got.settled.Equal(done.settled) || got.settled.IsZero() {
		t.Errorf("record round trip: settled %v, want %v", got.settled, done.settled)
	}
	if (&Forward{}).record() != nil {
		t.Error("a plan without a flow records a forward")
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
	a, _ := claimForward(f, submitted, "a", now, lease, budget)
	if !a.deadline.Equal(now.Add(budget)) {
		t.Fatalf("first claim: deadline %v, want %v", a.deadline, now.Add(budget))
	}
	b, ok := claimForward(a, submitted, "b", now.Add(30*time.Minute), lease, budget)
	if !ok || !b.deadline.Equal(a.deadline) {
		t.Fatalf("takeover: %+v %v, want the first claim's deadline kept", b, ok)
	}
	if _, ok := forwardTimedOut(b, now.Add(budget-time.Millisecond), budget); ok {
		t.Error("timed out before its budget ran out")
	}
	if _, ok := claimForward(b, submitted, "c", now.Add(budget), lease, budget); ok {
		t.Error("claimed past the budget")
	}
	out, ok := forwardTimedOut(b, now.Add(budget), budget)
	if !ok || out.State != ForwardFailed || out.Code != ForwardCodeTimedOut || !out.settled.Equal(now.Add(budget)) || out.seq != b.seq+1 {
		t.Fatalf("timed out: %+v %v", out, ok)
	}
	if _, ok := forwardTimedOut(out, now.Add(2*budget), budget); ok {
		t.Error("a failed forward timed out again")
	}
	if _, ok := claimForward(out, submitted, "c", now.Add(2*budget), lease, budget); ok {
		t.Error("a timed-out forward was claimed again")
	}
}

// lifeEnd: a plan ends with its signing window unless its forward needs
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
		{"forward pending", submitted, &Forward{Flow: flow, State: ForwardPending, deadline: window.Add(-time.Minute + budget)}, window.Add(-time.Minute + budget + retention)},
		{"forward pending, its budget's end long before the window's", submitted, &Forward{Flow: flow, State: ForwardPending, deadline: window.Add(-2 * retention)}, window},
		{"forward pending, an old record without a deadline", submitted, &Forward{Flow: flow, State: ForwardPending}, window},
		{"forwarded within the window", submitted, &Forward{Flow: flow, State: ForwardForwarded, settled: window.Add(-time.Second)}, window},
		{"forwarded after the window", submitted, &Forward{Flow: flow, State: ForwardForwarded, settled: window.Add(time.Minute)}, window.Add(time.Minute + retention)},
		{"failed after the window", submitted, &Forward{Flow: flow, State: ForwardFailed, settled: window.Add(budget)}, window.Add(budget + retention)},
	} {
		got := lifeEnd(window, tc.sub, tc.f, budget, retention)
		if !got.Equal(tc.want) {
			t.Errorf("%s: lifeEnd = %v, want %v", tc.name, got, tc.want)
		}
		// Supervisor.live takes a plan inside its window for live without
		// reading its forward.
		if got.Before(window) {
			t.Errorf("%s: the plan ends at %v, before its window's end", tc.name, got)
		}
	}
}

// TestForwardTimesOutAfterABusyTurn: the life timer fires at the forward
// budget's end while the loop is in a turn (or a merge is served in
// place); the turn's re-arm must not drop that fire. Before, the next wake
// left out a budget's end that had passed, so the re-arm reset the timer
// to the plan's end, and the pending forward stayed pending until then
// (its retention later) instead of failing at its budget's end.
func TestForwardTimesOutAfterABusyTurn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := start(t, Options{})
		f := newFixture(t, 1)
		p := create(t, s, f, time.Now().Add(time.Hour), 0)
		end := time.Now().Add(10 * time.Minute)
		inLoop(p, func(p *Plan) {
			pending := &Forward{Flow: &Flow{Nonce: testNonce1, Destination: keys[2].Address(), Memo: "text:x"}, State: ForwardPending, deadline: end}
			p.settled.Store(p.settled.Load().withForward(pending))
			p.rearm()
		})
		// A turn that lasts past the budget's end.
		inLoop(p, func(*Plan) { time.Sleep(11 * time.Minute) })
		synctest.Wait()
		if fwd := p.settled.Load().fwd; fwd.State != ForwardFailed || fwd.Code != ForwardCodeTimedOut {
			t.Fatalf("a minute past the budget's end the forward is %q (%s), want failed %s", fwd.State, fwd.Code, ForwardCodeTimedOut)
		}
	})
}
