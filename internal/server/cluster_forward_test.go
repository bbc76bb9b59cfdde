package server

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/forwarder"
	"github.com/closerelay/closerelay/internal/natstest"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/closerelay/closerelay/mediator"
	"github.com/closerelay/closerelay/plan"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The relay-run forward (CONTRACT section 16) in cluster mode, against
// real NATS: claimed and leased like the submission, taken over when its
// instance dies, and its record kept through a restart.

// clusterSecret is the cluster's MEDIATOR_SECRET: every instance derives
// the same mediators.
const clusterSecret = "SCQ4TCDKE62QWMZFW7PTKBHDTKNUIQE65R3U2DXAP2NZIB634R2KZWPP"

// hungForwarder is a ledger API that never answers during a forward: it
// reports each forward on started and holds it until the plan ends.
type hungForwarder struct{ started chan plan.ForwardJob }

func (h hungForwarder) Forward(ctx context.Context, job plan.ForwardJob, _ func()) plan.Forward {
	h.started <- job
	<-ctx.Done()
	return plan.Forward{}
}

// fastForwarder is package forwarder's over h with millisecond backoffs,
// so that its retries cost the test no real time to speak of.
func fastForwarder(h *ledgertest.Server) *forwarder.Forwarder {
	client := ledgerapi.New(ledgerapi.Options{Backends: h.Backends(), Timeout: 5 * time.Second,
		SubmitBackoff: time.Millisecond, SubmitBackoffCap: 5 * time.Millisecond})
	return forwarder.New(forwarder.Options{Ledger: client, Signer: mediator.New(mediator.Options{Secret: clusterSecret})})
}

// clusterForward is status.forward.
type clusterForward struct {
	State, Hash, Amount, Code string
	Ledger                    int
}

// forwardOf reads r's status.forward: nil for null.
func (r *clusterRelay) forwardOf(t *testing.T, id string) *clusterForward {
	t.Helper()
	var st struct{ Forward *clusterForward }
	if err := json.Unmarshal([]byte(r.must(t, "GET", "/api/plan/"+id+"/status", "", 200, "")), &st); err != nil {
		t.Fatal(err)
	}
	return st.Forward
}

// mediatorClose mints a memo-committed flow to exchange on r and publishes
// a close of acct through it with submit: the plan id and the mediator.
func mediatorClose(t *testing.T, r *clusterRelay, h *ledgertest.Server, acct ledgertest.Account, exchange, memo string) (id, med string) {
	t.Helper()
	var flow struct{ FlowToken, MediatorPublicKey string }
	q := url.Values{"destination": {exchange}, "memo": {memo}}
	if err := json.Unmarshal([]byte(r.must(t, "GET", "/api/mediator/sign?"+q.Encode(), "", 200, "")), &flow); err != nil {
		t.Fatal(err)
	}
	seq, _ := h.Sequence(acct.Address)
	x, hash := ledgertest.BuildTx(acct.Address, seq+1, 0, opsPassphrase, []txnbuild.Operation{
		&txnbuild.CreateAccount{Destination: flow.MediatorPublicKey, Amount: "2"},
		&txnbuild.AccountMerge{Destination: flow.MediatorPublicKey},
	}, acct.Keys[0])
	r.must(t, "POST", "/api/plan", `{"network":"testnet","xdr":"`+x+`","submit":true,"flowToken":"`+flow.FlowToken+`"}`, 200, "")
	return hex.EncodeToString(hash[:]), flow.MediatorPublicKey
}

// TestClusterForwardSurvivesItsOwner: relay A submits a mediator close and
// claims its forward, whose ledger API then never answers (a slow ledger);
// A dies with it in flight (its NATS connection gone, then the process).
// Relay B, started as A's replacement, holds the plan from its watch: its
// status.forward says pending from its first answer (the plan's record of
// the forward survived), and once A's lease lapses B takes the forward
// over: the exchange is credited once, with the committed memo, and B
// says forwarded. Without the forward's claim in the store (and B's
// adoption of a plan waiting for its forward) B answered null, and the
// funds stayed in the mediator.
func TestClusterForwardSurvivesItsOwner(t *testing.T) {
	nats := natstest.Start(t)
	h := ledgertest.New()
	t.Cleanup(h.Close)
	exchange := keypair.MustRandom().Address()
	h.Fund(exchange, 10_0000000)
	h.SetMemoRequired(exchange)
	const lease = 500 * time.Millisecond
	env := map[string]string{"MEDIATOR_SECRET": clusterSecret}
	hung := hungForwarder{make(chan plan.ForwardJob, 1)}
	a := startClusterRelayWith(t, nats.URL, h, env, func(o *Options) { o.Forwarder, o.SubmitLease = hung, lease })
	acct := clusterAccount(h, 1)
	h.Fund(acct.Address, 40_0000000)
	id, med := mediatorClose(t, a, h, acct, exchange, "id:123456789")
	select {
	case job := <-hung.started:
		if job.Flow.Destination != exchange || job.Flow.Memo != "id:123456789" {
			t.Fatalf("A forwards %+v", job)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("A never started the forward")
	}
	if f := a.forwardOf(t, id); f == nil || f.State != "pending" {
		t.Fatalf("A's status.forward = %+v, want pending", f)
	}
	a.store.Close() // A is cut off: no renewal, no release...
	if err := a.Stop(); err != nil {
		t.Logf("stop A: %v", err) // ...and gone
	}

	b := startClusterRelayWith(t, nats.URL, h, env, func(o *Options) { o.Forwarder, o.SubmitLease = fastForwarder(h), lease })
	deadline := time.Now().Add(20 * time.Second)
	var f *clusterForward
	for {
		f = b.forwardOf(t, id)
		if f == nil {
			t.Fatal("B's status.forward is null: the plan's record of its forward was lost")
		}
		if f.State != "pending" || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if f.State != "forwarded" || f.Hash == "" || f.Ledger == 0 {
		t.Fatalf("B's status.forward = %+v, want forwarded", f)
	}
	credits := h.Credits(exchange)
	if len(credits) != 2 || credits[0].From != med || credits[0].Memo.Type != xdr.MemoTypeMemoId || uint64(credits[0].Memo.MustId()) != 123456789 {
		t.Fatalf("exchange credits = %+v, want one forward from %s with memo id 123456789", credits, med)
	}
	if h.Applied() != 2 {
		t.Errorf("applied %d transactions, want the close and one forward", h.Applied())
	}
}

// goneFirst is a Forwarder that removes account from the ledger before it
// forwards: an exchange that exists while the close is checked and
// submitted, and is gone once it has landed.
type goneFirst struct {
	next    actor.Forwarder
	h       *ledgertest.Server
	account string
}

func (g goneFirst) Forward(ctx context.Context, job plan.ForwardJob, retried func()) plan.Forward {
	g.h.Remove(g.account)
	return g.next.Forward(ctx, job, retried)
}

// TestClusterForwardFailureKeptThroughRestart: a forward the ledger keeps
// refusing (the exchange is gone once the close has landed; one missing
// before blocks the close itself, CONTRACT section 18) ends failed with
// the refusal's code; after every instance has restarted, a new
// instance's status.forward still says failed with that code, and does
// not run the forward again.
func TestClusterForwardFailureKeptThroughRestart(t *testing.T) {
	nats := natstest.Start(t)
	h := ledgertest.New()
	t.Cleanup(h.Close)
	exchange := keypair.MustRandom().Address()
	h.Fund(exchange, 10_0000000)
	env := map[string]string{"MEDIATOR_SECRET": clusterSecret}
	a := startClusterRelayWith(t, nats.URL, h, env, func(o *Options) { o.Forwarder = goneFirst{fastForwarder(h), h, exchange} })
	acct := clusterAccount(h, 1)
	h.Fund(acct.Address, 40_0000000)
	id, _ := mediatorClose(t, a, h, acct, exchange, "text:deposit 7")
	deadline := time.Now().Add(20 * time.Second)
	var f *clusterForward
	for f = a.forwardOf(t, id); (f == nil || f.State == "pending") && time.Now().Before(deadline); f = a.forwardOf(t, id) {
		time.Sleep(50 * time.Millisecond)
	}
	if f == nil || f.State != "failed" || f.Code != "tx_failed" {
		t.Fatalf("A's status.forward = %+v, want failed tx_failed", f)
	}
	sent := h.Submissions()
	if err := a.Stop(); err != nil {
		t.Fatal(err)
	}
	b := startClusterRelayWith(t, nats.URL, h, env, func(o *Options) { o.Forwarder = fastForwarder(h) })
	if f := b.forwardOf(t, id); f == nil || f.State != "failed" || f.Code != "tx_failed" || f.Hash == "" {
		t.Fatalf("after the restart, status.forward = %+v, want failed tx_failed with the last try's hash", f)
	}
	if n := h.Submissions(); n != sent {
		t.Errorf("the restarted cluster sent %d more transactions; a failed forward is not run again", n-sent)
	}
}

// offsetClock is time.Now moved forward by what the test has advanced it:
// leases and timers still run in real time, while the relays' expiries
// see the jump.
type offsetClock struct{ offset atomic.Int64 }

func (c *offsetClock) Now() time.Time          { return time.Now().Add(time.Duration(c.offset.Load())) }
func (c *offsetClock) Advance(d time.Duration) { c.offset.Add(int64(d)) }

// TestClusterForwardOutlivesTheWindowAndItsOwner: relay A submits a
// mediator close 10 s before its plan's signing window ends (maxTime
// now + 70 s) and claims its forward, whose ledger API never answers. The
// window ends (the relays' clock jumps 20 s): A still answers
// status.forward pending and GET 404; then A dies. Relay B, started
// after the window's end, still holds the plan from its watch and takes
// the forward over once A's lease lapses: the exchange is credited once,
// with the committed memo, and B's status.forward says forwarded while
// its GET of the plan answers 404. Without the plan outliving its window,
// B found no plan to forward (status 404) and the funds stayed in the
// mediator.
func TestClusterForwardOutlivesTheWindowAndItsOwner(t *testing.T) {
	nats := natstest.Start(t)
	h := ledgertest.New()
	t.Cleanup(h.Close)
	exchange := keypair.MustRandom().Address()
	h.Fund(exchange, 10_0000000)
	h.SetMemoRequired(exchange)
	const lease = 500 * time.Millisecond
	clock := new(offsetClock)
	env := map[string]string{"MEDIATOR_SECRET": clusterSecret}
	hung := hungForwarder{make(chan plan.ForwardJob, 1)}
	a := startClusterRelayWith(t, nats.URL, h, env, func(o *Options) { o.Forwarder, o.SubmitLease, o.Now = hung, lease, clock.Now })
	acct := clusterAccount(h, 1)
	h.Fund(acct.Address, 40_0000000)

	var flow struct{ FlowToken, MediatorPublicKey string }
	q := url.Values{"destination": {exchange}, "memo": {"text:deposit 9"}}
	if err := json.Unmarshal([]byte(a.must(t, "GET", "/api/mediator/sign?"+q.Encode(), "", 200, "")), &flow); err != nil {
		t.Fatal(err)
	}
	med := flow.MediatorPublicKey
	seq, _ := h.Sequence(acct.Address)
	x, hash := ledgertest.BuildTx(acct.Address, seq+1, clock.Now().Add(70*time.Second).Unix(), opsPassphrase, []txnbuild.Operation{
		&txnbuild.CreateAccount{Destination: med, Amount: "2"},
		&txnbuild.AccountMerge{Destination: med},
	}, acct.Keys[0])
	a.must(t, "POST", "/api/plan", `{"network":"testnet","xdr":"`+x+`","submit":true,"flowToken":"`+flow.FlowToken+`"}`, 200, "")
	id := hex.EncodeToString(hash[:])
	select {
	case <-hung.started:
	case <-time.After(10 * time.Second):
		t.Fatal("A never started the forward")
	}
	clock.Advance(20 * time.Second) // the signing window has ended
	if f := a.forwardOf(t, id); f == nil || f.State != "pending" {
		t.Fatalf("A's status.forward past the window = %+v, want pending", f)
	}
	a.must(t, "GET", "/api/plan/"+id, "", 404, "NOT_FOUND")
	a.store.Close() // A is cut off: no renewal, no release...
	if err := a.Stop(); err != nil {
		t.Logf("stop A: %v", err) // ...and gone
	}

	b := startClusterRelayWith(t, nats.URL, h, env, func(o *Options) { o.Forwarder, o.SubmitLease, o.Now = fastForwarder(h), lease, clock.Now })
	deadline := time.Now().Add(20 * time.Second)
	var f *clusterForward
	for {
		code, body := b.call(t, "GET", "/api/plan/"+id+"/status", "")
		if code != 200 {
			t.Fatalf("B's status past the window: %d %.300s, want 200: the plan's record of its forward was lost", code, body)
		}
		if f = b.forwardOf(t, id); f == nil || f.State != "pending" || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if f == nil || f.State != "forwarded" || f.Hash == "" || f.Ledger == 0 {
		t.Fatalf("B's status.forward = %+v, want forwarded", f)
	}
	b.must(t, "GET", "/api/plan/"+id, "", 404, "NOT_FOUND")
	credits := h.Credits(exchange)
	if len(credits) != 2 || credits[0].From != med || credits[0].Memo.Type != xdr.MemoTypeMemoText || credits[0].Memo.MustText() != "deposit 9" {
		t.Fatalf("exchange credits = %+v, want one forward from %s with memo text \"deposit 9\"", credits, med)
	}
	if h.Applied() != 2 {
		t.Errorf("applied %d transactions, want the close and one forward", h.Applied())
	}
}
