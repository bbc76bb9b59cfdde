package server

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"testing"
	"time"

	"github.com/closerelay/closerelay/internal/natstest"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/ledgerapi"
)

// hungSubmitter is an account API that never answers: it reports each
// submission on started and holds it until the plan ends.
type hungSubmitter struct{ started chan string }

func (h hungSubmitter) Submit(ctx context.Context, _ ledger.Network, envelope string, _ func(ledgerapi.SubmitAttempt)) ledgerapi.SubmitOutcome {
	h.started <- envelope
	<-ctx.Done()
	return ledgerapi.SubmitOutcome{State: ledgerapi.SubmitAbandoned, Err: ctx.Err()}
}

// reportingSubmitter is the account API's own submitter that also reports
// each outcome on done.
type reportingSubmitter struct {
	*ledgerapi.Client
	done chan ledgerapi.SubmitOutcome
}

func (r reportingSubmitter) Submit(ctx context.Context, n ledger.Network, envelope string, observe func(ledgerapi.SubmitAttempt)) ledgerapi.SubmitOutcome {
	out := r.Client.Submit(ctx, n, envelope, observe)
	r.done <- out
	return out
}

// TestClusterSubmissionSurvivesItsOwner: relay A claims a ready plan's
// submission and dies with it in flight (its NATS connection gone, then
// the process); relay B, started meanwhile, which no client asked for the
// plan, holds it from its watch and takes the submission over once A's lease lapses: the
// account API closes the account and B's status says submitted. Fails
// without the lease: the plan stayed "pending" on every instance until
// its expiry.
func TestClusterSubmissionSurvivesItsOwner(t *testing.T) {
	nats := natstest.Start(t)
	h := ledgertest.New()
	h.Fund(clusterDest, 10_0000000) // the close's destination must exist
	t.Cleanup(h.Close)
	const lease = 500 * time.Millisecond
	hung := hungSubmitter{make(chan string, 1)}
	a := startClusterRelayWith(t, nats.URL, h, nil, func(o *Options) { o.Submitter, o.SubmitLease = hung, lease })
	acct := clusterAccount(h, 1)

	seq, _ := h.Sequence(acct.Master.Address())
	signed, hash := ledgertest.BuildClose(acct.Master, clusterDest, seq+1, 0, opsPassphrase, acct.Keys[0])
	a.must(t, "POST", "/api/plan", `{"network":"testnet","xdr":"`+signed+`","submit":true}`, 200, "")
	select {
	case <-hung.started:
	case <-time.After(10 * time.Second):
		t.Fatal("A never started the submission")
	}
	// B starts once A holds the claim (a B running at the publish might
	// win the claim itself: any instance that sees the plan ready may),
	// and its watch brings it the plan as it starts.
	took := reportingSubmitter{h.Client(5 * time.Second), make(chan ledgerapi.SubmitOutcome, 1)}
	b := startClusterRelayWith(t, nats.URL, h, nil, func(o *Options) { o.Submitter, o.SubmitLease = took, lease })
	a.store.Close() // A is cut off: no renewal, no release...
	if err := a.Stop(); err != nil {
		t.Logf("stop A: %v", err) // ...and gone
	}

	select {
	case out := <-took.done:
		if out.State != ledgerapi.SubmitSubmitted {
			t.Fatalf("B's submission: %+v", out)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("B did not take the submission over within 20 s of A's death")
	}
	id := hex.EncodeToString(hash[:])
	// The outcome reaches B's plan once its submitter returns: a stream
	// opened now tells it (after the current state) whenever it lands.
	events := b.watch(t, id)
	timeout := time.After(10 * time.Second)
	for done := false; !done; {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatal("B's stream ended before event: submitted")
			}
			if ev.name != "submitted" {
				continue
			}
			var got struct {
				ID, Hash string
				Ledger   int
			}
			if err := json.Unmarshal([]byte(ev.data), &got); err != nil || got.ID != id || got.Hash != id || got.Ledger == 0 {
				t.Fatalf("event: submitted %s (%v)", ev.data, err)
			}
			done = true
		case <-timeout:
			t.Fatal("no event: submitted on B within 10 s of its submission")
		}
	}
	if h.Applied() != 1 {
		t.Fatalf("applied %d transactions, want 1", h.Applied())
	}
	if _, ok := h.Sequence(acct.Master.Address()); ok {
		t.Fatal("the account is still open")
	}
}
