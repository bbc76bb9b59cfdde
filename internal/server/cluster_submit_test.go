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
)

// hungSubmitter is an account API that never answers: it reports each
// submission on started and holds it until the plan ends.
type hungSubmitter struct{ started chan string }

func (h hungSubmitter) Submit(ctx context.Context, _ ledger.Network, envelope string, _ func(ledger.SubmitAttempt)) ledger.SubmitOutcome {
	h.started <- envelope
	<-ctx.Done()
	return ledger.SubmitOutcome{State: ledger.SubmitAbandoned, Err: ctx.Err()}
}

// reportingSubmitter is the account API's own submitter that also reports
// each outcome on done.
type reportingSubmitter struct {
	ledger.Submitter
	done chan ledger.SubmitOutcome
}

func (r reportingSubmitter) Submit(ctx context.Context, n ledger.Network, envelope string, observe func(ledger.SubmitAttempt)) ledger.SubmitOutcome {
	out := r.Submitter.Submit(ctx, n, envelope, observe)
	r.done <- out
	return out
}

// TestClusterSubmissionSurvivesItsOwner: relay A claims a ready plan's
// submission and dies with it in flight (its NATS connection gone, then
// the process); relay B, which no client asked for the plan, holds it from
// its watch and takes the submission over once A's lease lapses: the
// account API closes the account and B's status says submitted. Fails
// without the lease: the plan stayed "pending" on every instance until
// its expiry.
func TestClusterSubmissionSurvivesItsOwner(t *testing.T) {
	nats := natstest.Start(t)
	h := ledgertest.New()
	t.Cleanup(h.Close)
	const lease = 500 * time.Millisecond
	hung := hungSubmitter{make(chan string, 1)}
	a := startClusterRelayWith(t, nats.URL, h, nil, func(o *Options) { o.Submitter, o.SubmitLease = hung, lease })
	took := reportingSubmitter{h.Client(5 * time.Second).Submitter(), make(chan ledger.SubmitOutcome, 1)}
	b := startClusterRelayWith(t, nats.URL, h, nil, func(o *Options) { o.Submitter, o.SubmitLease = took, lease })
	acct := clusterAccount(h, 1)

	seq, _ := h.Sequence(acct.Master.Address())
	signed, hash := ledgertest.BuildClose(acct.Master, clusterDest, seq+1, 0, opsPassphrase, acct.Keys[0])
	a.must(t, "POST", "/api/plan", `{"network":"testnet","xdr":"`+signed+`","submit":true}`, 200, "")
	select {
	case <-hung.started:
	case <-time.After(10 * time.Second):
		t.Fatal("A never started the submission")
	}
	a.store.Close() // A is cut off: no renewal, no release...
	if err := a.Stop(); err != nil {
		t.Logf("stop A: %v", err) // ...and gone
	}

	select {
	case out := <-took.done:
		if out.State != ledger.SubmitSubmitted {
			t.Fatalf("B's submission: %+v", out)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("B did not take the submission over within 20 s of A's death")
	}
	id := hex.EncodeToString(hash[:])
	var st struct {
		Submission *struct {
			State, Hash string
			Ledger      int
		}
	}
	if err := json.Unmarshal([]byte(b.must(t, "GET", "/api/plan/"+id+"/status", "", 200, "")), &st); err != nil {
		t.Fatal(err)
	}
	if st.Submission == nil || st.Submission.State != "submitted" || st.Submission.Hash != id || st.Submission.Ledger == 0 || h.Applied() != 1 {
		t.Fatalf("B's status: %+v, applied %d; want submitted with the plan's hash and a ledger, one applied", st.Submission, h.Applied())
	}
	if _, ok := h.Sequence(acct.Master.Address()); ok {
		t.Fatal("the account is still open")
	}
}
