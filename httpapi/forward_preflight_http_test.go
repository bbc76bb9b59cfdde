package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/mediator"
	mt "github.com/closerelay/closerelay/mediator/mediatortest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The forward's preflight through the relay's real listener (CONTRACT
// section 18, issue 39): a plan with a flow is checked with the forward
// the relay runs after its close, at publish and again before the
// submission's first try, under both ledger APIs.

// fpPlan publishes w's close through a flow to exchange (minted now, with
// the tests' memo) with submit, signed by the first of its two signers:
// the plan's id and the flow's mediator.
func fpPlan(t *testing.T, r *testRelay, w pfWorld, exchange string) (x, id, med string) {
	t.Helper()
	token, med := fwMint(t, exchange, fwMemo, time.Now())
	x, id = w.close(t, 101, med, &txnbuild.CreateAccount{Destination: med, Amount: "2"})
	if res := sbPublish(t, r.Client, r.URL, x, map[string]any{"submit": true, "flowToken": token}); res.status != http.StatusOK {
		t.Fatalf("publish: %d %s", res.status, res.body)
	}
	return x, id, med
}

// fpLastSignature signs x with w's second signer through the sign route,
// which makes the plan ready and starts its submission, and returns the
// stream's next named event.
func fpLastSignature(t *testing.T, r *testRelay, w pfWorld, x, id string) (string, string) {
	t.Helper()
	s := sseOpen(t, r.Client, r.URL, id, nil)
	defer s.Close()
	sseSign(t, r.Client, r.URL, id, ledgertest.SignXDR(ledgertest.StripSignatures(x), network.TestNetworkPassphrase, w.acct.Keys[1]))
	ev := sbNext(t, s)
	return ev.Type, ev.Data
}

// wantForwardBlocked checks that the plan's latest preflight is blocked by
// the forward alone, with code, naming the mediator the funds would stop in.
func wantForwardBlocked(t *testing.T, st pfStatus, code, med string) {
	t.Helper()
	if st.Preflight == nil || st.Preflight.State != "blocked" || len(st.Preflight.Blockers) != 1 {
		t.Fatalf("preflight = %+v, want blocked by the forward", st.Preflight)
	}
	b := st.Preflight.Blockers[0]
	if b.Op != -2 || b.Code != code || !strings.Contains(b.Reason, "stop in the mediator "+med) {
		t.Errorf("blocker = %+v, want op -2 %s naming the mediator %s", b, code, med)
	}
}

func TestForwardPreflightThroughTheRelay(t *testing.T) {
	eachLedgerAPI(t, testForwardPreflight)
}

func testForwardPreflight(t *testing.T, api string) {
	r := startRelayAPI(t, api, httpapi.Options{Mediator: mediator.New(mediator.Options{Secret: mt.Secret})}, 0, nil)

	// Issue 39's run: a flow to an account that does not exist. Blocked at
	// publish, never posted: nothing leaves the closing account, and no
	// mediator is created to hold the funds.
	t.Run("destination missing at publish", func(t *testing.T) {
		w := pfNew(r)
		before, _ := r.Horizon.Balance(w.acct.Address)
		sent := r.Horizon.Submissions()
		x, id, med := fpPlan(t, r, w, keypair.MustRandom().Address())
		wantForwardBlocked(t, pfGetStatus(t, r, id), "op_no_destination", med)
		if typ, data := fpLastSignature(t, r, w, x, id); typ != "submit_failed" || !strings.Contains(data, `"code":"op_no_destination"`) {
			t.Fatalf("event %s %s, want submit_failed with op_no_destination", typ, data)
		}
		st := pfGetStatus(t, r, id)
		if st.Submission == nil || st.Submission.State != "blocked" || st.Submission.Code != "op_no_destination" {
			t.Errorf("status.submission = %+v, want blocked op_no_destination", st.Submission)
		}
		wantForwardBlocked(t, st, "op_no_destination", med)
		if n := r.Horizon.Submissions() - sent; n != 0 {
			t.Errorf("%d submissions of a close whose forward cannot land, want none", n)
		}
		if after, _ := r.Horizon.Balance(w.acct.Address); after != before {
			t.Errorf("the closing account holds %d, want %d: untouched", after, before)
		}
		if _, ok := r.Horizon.Balance(med); ok {
			t.Error("the mediator account exists")
		}
	})

	// The destination exists at publish and is gone by the last
	// signature: the re-check before the first try catches it.
	t.Run("destination gone before the submission", func(t *testing.T) {
		w := pfNew(r)
		exchange := keypair.MustRandom().Address()
		r.Horizon.Fund(exchange, 10_0000000)
		sent := r.Horizon.Submissions()
		x, id, med := fpPlan(t, r, w, exchange)
		if st := pfGetStatus(t, r, id); st.Preflight == nil || st.Preflight.State != "landable" {
			t.Fatalf("preflight at publish = %+v, want landable", st.Preflight)
		}
		r.Horizon.Remove(exchange)
		if typ, data := fpLastSignature(t, r, w, x, id); typ != "submit_failed" || !strings.Contains(data, `"code":"op_no_destination"`) {
			t.Fatalf("event %s %s, want submit_failed with op_no_destination", typ, data)
		}
		st := pfGetStatus(t, r, id)
		if st.Submission == nil || st.Submission.State != "blocked" {
			t.Errorf("status.submission = %+v, want blocked", st.Submission)
		}
		wantForwardBlocked(t, st, "op_no_destination", med)
		if n := r.Horizon.Submissions() - sent; n != 0 {
			t.Errorf("%d submissions, want none", n)
		}
	})

	// Anyone can create the mediator (its address is in the published
	// close) before the close lands: the close then fails at its first
	// operation, op_already_exists. The re-check before the first try
	// finds it, and the reason says who did what and to mint a new flow
	// (issue 39 item 9; it used to say only that the account exists).
	t.Run("mediator created by someone else", func(t *testing.T) {
		w := pfNew(r)
		exchange := keypair.MustRandom().Address()
		r.Horizon.Fund(exchange, 10_0000000)
		x, id, med := fpPlan(t, r, w, exchange)
		r.Horizon.Fund(med, 1_0000000)
		if typ, data := fpLastSignature(t, r, w, x, id); typ != "submit_failed" || !strings.Contains(data, `"code":"op_already_exists"`) {
			t.Fatalf("event %s %s, want submit_failed with op_already_exists", typ, data)
		}
		st := pfGetStatus(t, r, id)
		if st.Preflight == nil || st.Preflight.State != "blocked" || len(st.Preflight.Blockers) == 0 {
			t.Fatalf("preflight = %+v, want blocked", st.Preflight)
		}
		b := st.Preflight.Blockers[0]
		if b.Op != 0 || b.Code != "op_already_exists" || !strings.Contains(b.Reason, "the mediator "+med) ||
			!strings.Contains(b.Reason, "someone else created it") || !strings.Contains(b.Reason, "mint a new flow") {
			t.Errorf("blocker %+v, want op 0 op_already_exists naming the mediator and telling to mint a new flow", b)
		}
	})

	// A memo-required exchange and a flow that commits its memo: landable,
	// and the close lands and is forwarded with the memo.
	t.Run("memo-required destination, memo committed", func(t *testing.T) {
		w := pfNew(r)
		exchange := keypair.MustRandom().Address()
		r.Horizon.Fund(exchange, 10_0000000)
		if !r.Horizon.SetMemoRequired(exchange) {
			t.Fatal("SetMemoRequired")
		}
		x, id, med := fpPlan(t, r, w, exchange)
		if st := pfGetStatus(t, r, id); st.Preflight == nil || st.Preflight.State != "landable" {
			t.Fatalf("preflight at publish = %+v, want landable", st.Preflight)
		}
		s := sseOpen(t, r.Client, r.URL, id, nil)
		defer s.Close()
		sseSign(t, r.Client, r.URL, id, ledgertest.SignXDR(ledgertest.StripSignatures(x), network.TestNetworkPassphrase, w.acct.Keys[1]))
		if ev := sbNext(t, s); ev.Type != "submitted" {
			t.Fatalf("event %s %s, want submitted", ev.Type, ev.Data)
		}
		if ev := sbNext(t, s); ev.Type != "forwarded" {
			t.Fatalf("event %s %s, want forwarded", ev.Type, ev.Data)
		}
		credits := r.Horizon.Credits(exchange)
		if len(credits) != 2 || credits[0].From != med || credits[0].Memo.Type != xdr.MemoTypeMemoText || credits[0].Memo.MustText() != "deposit 42" || !credits[1].Merge {
			t.Errorf("exchange credits = %+v, want the forward's payment with the memo, then its merge", credits)
		}
		if _, ok := r.Horizon.Balance(med); ok {
			t.Error("the mediator still holds funds")
		}
	})
}
