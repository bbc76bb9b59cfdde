package httpapi_test

import (
	"crypto/rand"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/mediator"
	mt "github.com/closerelay/closerelay/mediator/mediatortest"
	"github.com/closerelay/closerelay/metrics"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Black-box tests of CONTRACT section 16 through a listener: publish's
// flowToken and BAD_FLOW, status.forward, the forwarded and
// forward_failed events, closerelay_forwards_total, and the account-API
// double applying the close and the forward to balances.

// fwMemo is the memo the tests' flows commit: what the exchange credits
// the deposit by.
const fwMemo = "text:deposit 42"

// fwMint mints a memo-committed flow for dest at now under mt.Secret: its
// token and the mediator's address.
func fwMint(t *testing.T, dest, memo string, now time.Time) (token, mediatorAddress string) {
	t.Helper()
	m, err := mediator.ParseMaster(mt.Secret)
	if err != nil {
		t.Fatal(err)
	}
	committed := mediator.Memo{}
	if memo != "" {
		if committed, err = mediator.ParseMemo(memo); err != nil {
			t.Fatal(err)
		}
	}
	token, pub, err := m.MintMemo(rand.Reader, dest, committed, now)
	if err != nil {
		t.Fatal(err)
	}
	return token, pub
}

// fwClose is a mediator close of account (sequence number seq): op0
// create_account of fund to mediator, then the merge into mergeTo,
// unsigned.
func fwClose(account, mediatorAddress, fund, mergeTo string) string {
	x, _ := ledgertest.BuildTx(account, rdSeq, 0, rdPass, []txnbuild.Operation{
		&txnbuild.CreateAccount{Destination: mediatorAddress, Amount: fund},
		&txnbuild.AccountMerge{Destination: mergeTo},
	})
	return x
}

// fwStatus is status.forward: nil for null.
func fwStatus(t *testing.T, c *http.Client, base, id string) map[string]any {
	t.Helper()
	res := send(t, c, http.MethodGet, base+"/api/plan/"+id+"/status", nil, nil)
	if res.status != http.StatusOK {
		t.Fatalf("status: %d %s", res.status, res.body)
	}
	var body struct {
		Forward map[string]any `json:"forward"`
	}
	if err := json.Unmarshal(res.body, &body); err != nil {
		t.Fatal(err)
	}
	return body.Forward
}

// Every BAD_FLOW reason of CONTRACT 16 answers 400 BAD_FLOW with a reason
// that says what is wrong, in the contract's order, through a listener:
// the field's type, submit, the token's verification (a forged MAC, an
// expired token), the memo commitment, the close's create_account (its
// presence, its destination, its amount) and its merge destination.
func TestPublishBadFlow(t *testing.T) {
	clock := &testClock{t: time.Now()}
	r := startRelay(t, httpapi.Options{Mediator: mediator.New(mediator.Options{Secret: mt.Secret, Now: clock.Now}), Now: clock.Now}, 0, nil)
	acct := ledgertest.NewAccount(2, 1)
	r.Horizon.AddAccount(acct)
	exchange := keypair.MustRandom().Address()
	token, med := fwMint(t, exchange, fwMemo, clock.Now())
	expired, _ := fwMint(t, exchange, fwMemo, clock.Now().Add(-16*time.Minute))
	fourPart, med4 := fwMint(t, exchange, "", clock.Now())
	forged := token[:len(token)-1] + map[bool]string{true: "1", false: "0"}[strings.HasSuffix(token, "0")]
	other := keypair.MustRandom().Address()
	signed := func(x string) string { return ledgertest.SignXDR(x, rdPass, acct.Keys[0]) }
	onlyMerge, _ := ledgertest.BuildClose(acct.Master, med, rdSeq, 0, rdPass)

	for _, tc := range []struct {
		name, xdr string
		extra     map[string]any
		reason    string // a part of the reason
	}{
		{"not a string", signed(fwClose(acct.Address, med, "2", med)), map[string]any{"submit": true, "flowToken": 7}, "non-empty string"},
		{"empty", signed(fwClose(acct.Address, med, "2", med)), map[string]any{"submit": true, "flowToken": ""}, "non-empty string"},
		{"without submit", signed(fwClose(acct.Address, med, "2", med)), map[string]any{"flowToken": token}, "submit"},
		{"forged", signed(fwClose(acct.Address, med, "2", med)), map[string]any{"submit": true, "flowToken": forged}, "invalid or has expired"},
		{"expired", signed(fwClose(acct.Address, med, "2", med)), map[string]any{"submit": true, "flowToken": expired}, "invalid or has expired"},
		{"no memo", signed(fwClose(acct.Address, med4, "2", med4)), map[string]any{"submit": true, "flowToken": fourPart}, "commits no memo"},
		{"no create_account", signed(onlyMerge), map[string]any{"submit": true, "flowToken": token}, "first operation must be create_account"},
		{"creates another", signed(fwClose(acct.Address, other, "2", med)), map[string]any{"submit": true, "flowToken": token}, "not the flow's mediator"},
		{"funds 3 units", signed(fwClose(acct.Address, med, "3", med)), map[string]any{"submit": true, "flowToken": token}, "exactly 2 units"},
		{"merges elsewhere", signed(fwClose(acct.Address, med, "2", other)), map[string]any{"submit": true, "flowToken": token}, "merges into " + other},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := sbPublish(t, r.Client, r.URL, tc.xdr, tc.extra)
			reason := medWantErr(t, res, http.StatusBadRequest, "BAD_FLOW")
			if !strings.Contains(reason, tc.reason) {
				t.Errorf("reason %q does not say %q", reason, tc.reason)
			}
		})
	}
	if v := metricValue(t, r.Metrics, "closerelay_rejections_total", "route", metrics.RoutePlanPublish, "code", "BAD_FLOW"); v != 10 {
		t.Errorf("rejections_total{plan_publish,BAD_FLOW} = %v, want 10", v)
	}
	if n, _ := r.Plans.Open(t.Context()); n != 0 {
		t.Errorf("%d plans open after refusals only", n)
	}
}

// BAD_FLOW's place in the order: after EXPIRED and SUBMIT_UNSUPPORTED,
// before the re-publish merge and every ledger guard (an unsigned close
// with a bad flow is BAD_FLOW, not UNSIGNED; a close of an account the
// ledger does not hold is BAD_FLOW, not ACCOUNT_UNREACHABLE). A re-publish
// naming another flow is BAD_FLOW and merges nothing; the same flow under
// another token (another expiry) is accepted, and a re-publish may add a
// flow to a plan without one.
func TestPublishFlowOrderAndRepublish(t *testing.T) {
	clock := &testClock{t: time.Now()}
	r := startRelay(t, httpapi.Options{Mediator: mediator.New(mediator.Options{Secret: mt.Secret, Now: clock.Now}), Now: clock.Now}, 0, nil)
	acct := ledgertest.NewAccount(2, 1)
	acct.Thresholds.HighThreshold = 3
	r.Horizon.AddAccount(acct)
	exchange := keypair.MustRandom().Address()
	token, med := fwMint(t, exchange, fwMemo, clock.Now())
	close := fwClose(acct.Address, med, "2", med)

	// EXPIRED first.
	past, _ := ledgertest.BuildTx(acct.Address, rdSeq, clock.Now().Add(-time.Hour).Unix(), rdPass, []txnbuild.Operation{
		&txnbuild.CreateAccount{Destination: med, Amount: "3"}, &txnbuild.AccountMerge{Destination: med}})
	medWantErr(t, sbPublish(t, r.Client, r.URL, ledgertest.SignXDR(past, rdPass, acct.Keys[0]), map[string]any{"submit": true, "flowToken": "x"}), http.StatusBadRequest, "EXPIRED")
	// SUBMIT_UNSUPPORTED next: another account pays the fee.
	feePayer, _ := ledgertest.BuildTx(keypair.MustRandom().Address(), rdSeq, 0, rdPass, []txnbuild.Operation{
		&txnbuild.CreateAccount{Destination: med, Amount: "3", SourceAccount: acct.Address},
		&txnbuild.AccountMerge{Destination: med, SourceAccount: acct.Address}})
	medWantErr(t, sbPublish(t, r.Client, r.URL, ledgertest.SignXDR(feePayer, rdPass, acct.Keys[0]), map[string]any{"submit": true, "flowToken": "x"}), http.StatusBadRequest, "SUBMIT_UNSUPPORTED")
	// BAD_FLOW before UNSIGNED and ACCOUNT_UNREACHABLE.
	medWantErr(t, sbPublish(t, r.Client, r.URL, close, map[string]any{"submit": true, "flowToken": "x"}), http.StatusBadRequest, "BAD_FLOW")
	stranger := keypair.MustRandom()
	strangerClose := ledgertest.SignXDR(fwClose(stranger.Address(), med, "3", med), rdPass, stranger)
	medWantErr(t, sbPublish(t, r.Client, r.URL, strangerClose, map[string]any{"submit": true, "flowToken": token}), http.StatusBadRequest, "BAD_FLOW")

	// A plan published without a flow takes one from a re-publish.
	if res := sbPublish(t, r.Client, r.URL, ledgertest.SignXDR(close, rdPass, acct.Keys[0]), nil); res.status != http.StatusOK {
		t.Fatalf("publish: %d %s", res.status, res.body)
	}
	id := sbID(close)
	plan, err := r.Plans.Lookup(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if f := plan.Forward().Flow; f != nil {
		t.Fatalf("a plan published without a flow keeps %+v", f)
	}
	if res := sbPublish(t, r.Client, r.URL, ledgertest.SignXDR(close, rdPass, acct.Keys[0]), map[string]any{"submit": true, "flowToken": token}); res.status != http.StatusOK {
		t.Fatalf("re-publish with a flow: %d %s", res.status, res.body)
	}
	kept := plan.Forward().Flow
	if kept == nil || kept.Destination != exchange || kept.Memo != fwMemo {
		t.Fatalf("the plan keeps %+v, want the flow to %s with %s", kept, exchange, fwMemo)
	}
	// The same flow under a later token: accepted, nothing changes.
	clock.Advance(time.Minute)
	m, _ := mediator.ParseMaster(mt.Secret)
	memo, _ := mediator.ParseMemo(fwMemo)
	again := m.NewMemoToken(kept.Nonce, clock.Now().Add(10*time.Minute).UnixMilli(), exchange, memo)
	if res := sbPublish(t, r.Client, r.URL, ledgertest.SignXDR(close, rdPass, acct.Keys[0]), map[string]any{"submit": true, "flowToken": again}); res.status != http.StatusOK {
		t.Fatalf("re-publish with the same flow, another expiry: %d %s", res.status, res.body)
	}
	// Another memo, or another flow altogether, is refused and merges
	// nothing: the second signer's signature is not taken in.
	otherMemo, _ := mediator.ParseMemo("text:deposit 43")
	changedMemo := m.NewMemoToken(kept.Nonce, clock.Now().Add(10*time.Minute).UnixMilli(), exchange, otherMemo)
	for name, tok := range map[string]string{"memo": changedMemo} {
		res := sbPublish(t, r.Client, r.URL, ledgertest.SignXDR(close, rdPass, acct.Keys[1]), map[string]any{"submit": true, "flowToken": tok})
		if reason := medWantErr(t, res, http.StatusBadRequest, "BAD_FLOW"); !strings.Contains(reason, "never changed") {
			t.Errorf("%s: reason %q", name, reason)
		}
	}
	if st, _ := plan.Snapshot(t.Context()); len(st.Signers) != 1 {
		t.Errorf("a refused re-publish merged: signers %v", st.Signers)
	}
	if f := plan.Forward().Flow; *f != *kept {
		t.Errorf("the flow changed to %+v", f)
	}
	if f := fwStatus(t, r.Client, r.URL, id); f != nil {
		t.Errorf("status.forward = %v before the close was submitted, want null", f)
	}
}

// Without a master, a flowToken is MEDIATOR_NOT_CONFIGURED (500), checked
// after submit and before the token.
func TestPublishFlowWithoutMaster(t *testing.T) {
	r := startRelay(t, httpapi.Options{}, 0, nil)
	acct := ledgertest.NewAccount(0, 1)
	r.Horizon.AddAccount(acct)
	token, med := fwMint(t, keypair.MustRandom().Address(), fwMemo, time.Now())
	x := ledgertest.SignXDR(fwClose(acct.Address, med, "2", med), rdPass, acct.Master)
	medWantErr(t, sbPublish(t, r.Client, r.URL, x, map[string]any{"submit": true, "flowToken": token}), http.StatusInternalServerError, "MEDIATOR_NOT_CONFIGURED")
	medWantErr(t, sbPublish(t, r.Client, r.URL, x, map[string]any{"flowToken": token}), http.StatusBadRequest, "BAD_FLOW")
}

// fwExchange sets up the bubble relay's ledger for a mediator close to a
// memo-required exchange: a 2-of-3 account holding balance, the exchange
// holding 10 units. It mints the flow at the bubble's now.
func fwExchange(t *testing.T, r *bubbleRelay, balance int64) (acct ledgertest.Account, exchange, token, med, close string) {
	acct = ledgertest.NewAccount(2, 1)
	acct.Thresholds.HighThreshold = 2
	r.Horizon.AddAccount(acct)
	r.Horizon.Fund(acct.Address, balance)
	exchange = keypair.MustRandom().Address()
	r.Horizon.Fund(exchange, 10_0000000)
	if !r.Horizon.SetMemoRequired(exchange) {
		t.Fatal("SetMemoRequired")
	}
	token, med = fwMint(t, exchange, fwMemo, time.Now())
	close = fwClose(acct.Address, med, "2", med)
	return acct, exchange, token, med, close
}

// The last signature comes after the flow token has expired (fake time:
// 20 minutes after the mint, the token lives 15): the relay submits the
// close, then builds, signs and submits the forward itself, and the funds
// reach the committed destination with the committed memo. The
// memo-required exchange is credited by a payment of (the mediator's
// balance - fee - 1 unit) carrying the memo, then by the merge of the
// unit; the mediator is gone; status.forward says forwarded with hash,
// ledger and amount, and the stream tells event: forwarded.
func TestForwardAfterTheTokenExpired(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := metrics.New()
		r := startBubbleRelay(httpapi.Options{Mediator: mediator.New(mediator.Options{Secret: mt.Secret}), Metrics: m})
		defer r.Stop(t)
		const balance = 250_0000000
		acct, exchange, token, med, close := fwExchange(t, r, balance)
		id := sbID(close)
		if res := sbPublish(t, r.Client, r.Base, ledgertest.SignXDR(close, rdPass, acct.Keys[0]), map[string]any{"submit": true, "flowToken": token}); res.status != http.StatusOK {
			t.Fatalf("publish: %d %s", res.status, res.body)
		}
		s := sseOpen(t, r.Client, r.Base, id, nil)
		defer s.Close()
		time.Sleep(20 * time.Minute) // the token has expired
		if _, ok := mediator.VerifyToken(mustMaster(t), token, time.Now()); ok {
			t.Fatal("the token still verifies")
		}
		if f := fwStatus(t, r.Client, r.Base, id); f != nil {
			t.Fatalf("status.forward = %v before the close is ready, want null", f)
		}
		code, body, err := ssePost(t.Context(), r.Client, r.Base+"/api/plan/"+id+"/sign", map[string]string{"xdr": ledgertest.SignXDR(close, rdPass, acct.Keys[1])})
		if err != nil || code != http.StatusOK {
			t.Fatalf("last signature: %d %s %v", code, body, err)
		}
		if ev := sbNext(t, s); ev.Type != "submitted" {
			t.Fatalf("event = %+v, want submitted", ev)
		}
		ev := sbNext(t, s)
		if ev.Type != "forwarded" {
			t.Fatalf("event = %+v, want forwarded", ev)
		}
		data := sbEventData(t, ev, "id", "hash", "ledger", "amount")

		// The close: fee 200, 2 units to the mediator, the rest merged
		// into it. The forward: fee 200, the payment, then the unit.
		const closeFee, fwdFee = 200, 200
		mediatorHeld := int64(balance - closeFee)
		pay := mediatorHeld - fwdFee - 1_0000000
		credits := r.Horizon.Credits(exchange)
		if len(credits) != 2 {
			t.Fatalf("exchange credits = %+v, want the payment and the merge", credits)
		}
		p, mg := credits[0], credits[1]
		if p.Merge || p.From != med || p.Asset != "native" || p.Amount != pay || p.Memo.Type != xdr.MemoTypeMemoText || p.Memo.MustText() != "deposit 42" {
			t.Errorf("payment = %+v, want %d stroops from the mediator with memo text \"deposit 42\"", p, pay)
		}
		if !mg.Merge || mg.From != med || mg.Amount != 1_0000000 || mg.Hash != p.Hash {
			t.Errorf("merge = %+v, want the mediator's last unit in the same transaction", mg)
		}
		if got, _ := r.Horizon.Balance(exchange); got != 10_0000000+mediatorHeld-fwdFee {
			t.Errorf("exchange balance = %d, want %d: everything but the fees", got, 10_0000000+mediatorHeld-fwdFee)
		}
		if _, ok := r.Horizon.Balance(med); ok {
			t.Error("the mediator account still exists")
		}
		wantAmount := amount.StringFromInt64(pay)
		if string(data["amount"]) != `"`+wantAmount+`"` || string(data["hash"]) != `"`+p.Hash+`"` {
			t.Errorf("event: forwarded = %v, want amount %s and hash %s", data, wantAmount, p.Hash)
		}
		f := fwStatus(t, r.Client, r.Base, id)
		if f["state"] != "forwarded" || f["hash"] != p.Hash || f["amount"] != wantAmount || f["ledger"].(float64) != float64(p.Ledger) {
			t.Errorf("status.forward = %v, want forwarded %s %s in ledger %d", f, p.Hash, wantAmount, p.Ledger)
		}
		if v := metricValue(t, m, "closerelay_forwards_total", "result", metrics.ForwardForwarded); v != 1 {
			t.Errorf("forwards_total{forwarded} = %v, want 1", v)
		}
		// A subscriber that comes later is told the outcome too.
		late := sseOpen(t, r.Client, r.Base, id, nil)
		defer late.Close()
		for ev := sbNext(t, late); ev.Type != "forwarded"; ev = sbNext(t, late) {
			if ev.Type != "submitted" {
				t.Fatalf("late subscriber: event %+v", ev)
			}
		}
	})
}

func mustMaster(t *testing.T) mediator.Master {
	t.Helper()
	m, err := mediator.ParseMaster(mt.Secret)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A forward the ledger refuses (the exchange account is gone once the
// close has landed: the payment is op_no_destination) is rebuilt from the
// mediator's account and retried, then reported: event forward_failed with
// the code, status failed with it, forwards_total counting the retries and
// the failure. It is never re-pointed: nothing is credited anywhere, and
// the funds stay in the mediator. (An exchange missing before the close is
// submitted blocks the close itself: TestForwardPreflightThroughTheRelay.)
func TestForwardRefusedIsRetriedThenReported(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := metrics.New()
		r := startBubbleRelay(httpapi.Options{Mediator: mediator.New(mediator.Options{Secret: mt.Secret}), Metrics: m})
		defer r.Stop(t)
		acct := ledgertest.NewAccount(0, 1)
		r.Horizon.AddAccount(acct)
		r.Horizon.Fund(acct.Address, 50_0000000)
		exchange := keypair.MustRandom().Address()
		r.Horizon.Fund(exchange, 10_0000000)
		token, med := fwMint(t, exchange, fwMemo, time.Now())
		// The mediator cannot be read until the exchange is gone: the
		// preflights are unchecked (never a blocker), and the forward waits.
		r.Horizon.SetUnreadable(med, true)
		close := fwClose(acct.Address, med, "2", med)
		id := sbID(close)
		s := func() *sseStream {
			if res := sbPublish(t, r.Client, r.Base, ledgertest.SignXDR(close, rdPass, acct.Master), map[string]any{"submit": true, "flowToken": token}); res.status != http.StatusOK {
				t.Fatalf("publish: %d %s", res.status, res.body)
			}
			return sseOpen(t, r.Client, r.Base, id, nil)
		}()
		defer s.Close()
		if ev := sbNext(t, s); ev.Type != "submitted" {
			t.Fatalf("event = %+v, want submitted", ev)
		}
		synctest.Wait() // the forward's first read has failed: it waits its backoff
		r.Horizon.Remove(exchange)
		r.Horizon.SetUnreadable(med, false)
		ev := sbNext(t, s)
		if ev.Type != "forward_failed" {
			t.Fatalf("event = %+v, want forward_failed", ev)
		}
		data := sbEventData(t, ev, "id", "code", "reason")
		if string(data["code"]) != `"tx_failed"` {
			t.Errorf("forward_failed code = %s, want tx_failed", data["code"])
		}
		f := fwStatus(t, r.Client, r.Base, id)
		if f["state"] != "failed" || f["code"] != "tx_failed" {
			t.Errorf("status.forward = %v, want failed tx_failed", f)
		}
		if v := metricValue(t, m, "closerelay_forwards_total", "result", metrics.ForwardFailed); v != 1 {
			t.Errorf("forwards_total{failed} = %v, want 1", v)
		}
		if v := metricValue(t, m, "closerelay_forwards_total", "result", metrics.ForwardRetried); v != 3 {
			t.Errorf("forwards_total{retried} = %v, want 3 (the failed read, then three tries)", v)
		}
		// Three forwards were sent (and charged their fee), each refused;
		// none credited anyone.
		if n := r.Horizon.Submissions(); n != 4 {
			t.Errorf("the double got %d submissions, want the close and three forwards", n)
		}
		if bal, ok := r.Horizon.Balance(med); !ok || bal != 50_0000000-200-3*200 {
			t.Errorf("mediator balance = %d (%v), want everything but the close's and three forwards' fees", bal, ok)
		}
		if c := r.Horizon.Credits(exchange); len(c) != 0 {
			t.Errorf("the exchange was credited: %+v", c)
		}
		if c := r.Horizon.Credits(acct.Address); len(c) != 0 {
			t.Errorf("the closed account was credited: %+v", c)
		}
	})
}

// A mediator close cannot carry an operation that acts as the mediator (a
// set_options adding a signer to it, a payment out of it, a second merge of
// it), whatever flow it names: every operation's source must be the account
// being closed, so such a close is NOT_A_CLOSE before its flow is looked
// at, and the mediator's only signer stays the flow's key.
func TestMediatorCloseCannotActAsTheMediator(t *testing.T) {
	clock := &testClock{t: time.Now()}
	r := startRelay(t, httpapi.Options{Mediator: mediator.New(mediator.Options{Secret: mt.Secret, Now: clock.Now}), Now: clock.Now}, 0, nil)
	acct := ledgertest.NewAccount(0, 1)
	r.Horizon.AddAccount(acct)
	exchange := keypair.MustRandom().Address()
	token, med := fwMint(t, exchange, fwMemo, clock.Now())
	thief := keypair.MustRandom().Address()
	weight := txnbuild.Threshold(255)
	for name, extra := range map[string]txnbuild.Operation{
		"set_options on the mediator": &txnbuild.SetOptions{SourceAccount: med,
			Signer: &txnbuild.Signer{Address: thief, Weight: weight}},
		"payment from the mediator": &txnbuild.Payment{SourceAccount: med, Destination: thief, Amount: "1", Asset: txnbuild.NativeAsset{}},
		"merge of the mediator":     &txnbuild.AccountMerge{SourceAccount: med, Destination: thief},
	} {
		t.Run(name, func(t *testing.T) {
			x, _ := ledgertest.BuildTx(acct.Address, rdSeq, 0, rdPass, []txnbuild.Operation{
				&txnbuild.CreateAccount{Destination: med, Amount: "2"},
				&txnbuild.AccountMerge{Destination: med},
				extra,
			})
			res := sbPublish(t, r.Client, r.URL, ledgertest.SignXDR(x, rdPass, acct.Master), map[string]any{"submit": true, "flowToken": token})
			if reason := medWantErr(t, res, http.StatusBadRequest, "NOT_A_CLOSE"); !strings.Contains(reason, "source is not the account being closed") {
				t.Errorf("reason %q", reason)
			}
		})
	}
	if n, _ := r.Plans.Open(t.Context()); n != 0 {
		t.Errorf("%d plans open after refusals only", n)
	}
}

// TestPageNamesTheCommittedFlow: the co-signers' page of a close published
// with its flow token names, through the relay's own plan, where the
// mediator forwards the funds and with which memo (issue 26; CONTRACT 16),
// and the page of a mediator close without a flow says it cannot tell.
func TestPageNamesTheCommittedFlow(t *testing.T) {
	clock := &testClock{t: time.Now()}
	r := startRelay(t, httpapi.Options{Mediator: mediator.New(mediator.Options{Secret: mt.Secret, Now: clock.Now}), Now: clock.Now}, 0, nil)
	acct := ledgertest.NewAccount(2, 1)
	acct.Thresholds.HighThreshold = 3
	r.Horizon.AddAccount(acct)
	exchange := keypair.MustRandom().Address()
	token, med := fwMint(t, exchange, fwMemo, clock.Now())
	close := fwClose(acct.Address, med, "2", med)
	if res := sbPublish(t, r.Client, r.URL, ledgertest.SignXDR(close, rdPass, acct.Keys[0]), nil); res.status != http.StatusOK {
		t.Fatalf("publish: %d %s", res.status, res.body)
	}
	id := sbID(close)
	page := func() string {
		t.Helper()
		res := send(t, r.Client, http.MethodGet, r.URL+"/plan/"+id, nil, nil)
		if res.status != http.StatusOK {
			t.Fatalf("page: %d", res.status)
		}
		return string(res.body)
	}
	if body := page(); strings.Contains(body, `id="flow-destination"`) || !strings.Contains(body, "published without its flow token, so the relay does not forward them") {
		t.Error("the page of a mediator close without a flow names a final destination, or does not say it cannot")
	}
	// The re-publish gives the plan its flow without a new version: the
	// page served again must not be the one kept from before.
	if res := sbPublish(t, r.Client, r.URL, ledgertest.SignXDR(close, rdPass, acct.Keys[0]), map[string]any{"submit": true, "flowToken": token}); res.status != http.StatusOK {
		t.Fatalf("re-publish with the flow: %d %s", res.status, res.body)
	}
	body := page()
	for _, want := range []string{`<code class="key" id="flow-destination">` + exchange + `</code>`, `id="flow-memo"`, "deposit 42"} {
		if !strings.Contains(body, want) {
			t.Errorf("the page of a plan with its flow lacks %q", want)
		}
	}
}
