package actor

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/plan"
)

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
			pending := &plan.Forward{Flow: &plan.Flow{Nonce: testNonce1, Destination: keys[2].Address(), Memo: "text:x"}, State: plan.ForwardPending, Deadline: end}
			p.settled.Store(p.settled.Load().withForward(pending))
			p.rearm()
		})
		// A turn that lasts past the budget's end.
		inLoop(p, func(*Plan) { time.Sleep(11 * time.Minute) })
		synctest.Wait()
		if fwd := p.settled.Load().fwd; fwd.State != plan.ForwardFailed || fwd.Code != plan.ForwardCodeTimedOut {
			t.Fatalf("a minute past the budget's end the forward is %q (%s), want failed %s", fwd.State, fwd.Code, plan.ForwardCodeTimedOut)
		}
	})
}

// The forward's store record round-trips.
func TestForwardRecordRoundTrip(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	flow := plan.Flow{Nonce: testNonce1, Destination: destination, Memo: "text:x", Token: "n.1.GD.dGV4dDp4.mac"}
	b := &plan.Forward{Flow: &flow, State: plan.ForwardPending, Claim: plan.Claim{Seq: 3, Lease: plan.Lease{Owner: "b", Until: now.Add(time.Minute)}}, Deadline: now.Add(time.Hour)}
	done := &plan.Forward{Flow: &flow, State: plan.ForwardForwarded, Hash: testHash, Ledger: 9, Amount: "1.0000000", Claim: plan.Claim{Seq: 4}, Deadline: b.Deadline, Settled: now}
	if got := forwardOf(forwardRecord(b)); *got.Flow != *b.Flow || got.State != b.State || got.Seq != b.Seq || got.Lease != b.Lease || !got.Deadline.Equal(b.Deadline) {
		t.Errorf("record round trip: %+v, want %+v", got, b)
	}
	if got := forwardOf(forwardRecord(done)); !got.Settled.Equal(done.Settled) || got.Settled.IsZero() {
		t.Errorf("record round trip: settled %v, want %v", got.Settled, done.Settled)
	}
	if forwardRecord(&plan.Forward{}) != nil {
		t.Error("a plan without a flow records a forward")
	}
}
