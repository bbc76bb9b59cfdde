package httpapi_test

import (
	"encoding/hex"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/client/sse"
	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/metrics"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// Black-box tests of CONTRACT section 10's submission through a listener:
// publish's "submit", SUBMIT_UNSUPPORTED, status.submission, the submitted
// and submit_failed events, closerelay_submissions_total, and the
// account-API double's POST /transactions as the ledger.

// sbSubmission is status.submission.
type sbSubmission struct {
	State  string `json:"state"`
	Hash   string `json:"hash"`
	Ledger int    `json:"ledger"`
	Code   string `json:"code"`
}

// sbStatus is the part of GET /status these tests read.
type sbStatus struct {
	Version    uint64          `json:"version"`
	Ready      bool            `json:"ready"`
	Submit     bool            `json:"submit"`
	Submission json.RawMessage `json:"submission"`
}

func (s sbStatus) submission(t *testing.T) *sbSubmission {
	t.Helper()
	if string(s.Submission) == "null" {
		return nil
	}
	var out sbSubmission
	if err := json.Unmarshal(s.Submission, &out); err != nil {
		t.Fatalf("submission %s: %v", s.Submission, err)
	}
	return &out
}

// sbGetStatus fetches GET /status with c.
func sbGetStatus(t *testing.T, c *http.Client, base, id string) sbStatus {
	t.Helper()
	res := send(t, c, http.MethodGet, base+"/api/plan/"+id+"/status", nil, nil)
	if res.status != http.StatusOK {
		t.Fatalf("status: %d %s", res.status, res.body)
	}
	planFields(t, res, "ok", "id", "network", "version", "signers", "weight", "threshold", "ready", "expiry", "submit", "submission", "preflight", "forward")
	var out sbStatus
	if err := json.Unmarshal(res.body, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// sbWaitState polls GET /status until its submission's state is want, every
// 10 ms for up to 10 s (of the bubble's clock, inside one).
func sbWaitState(t *testing.T, c *http.Client, base, id, want string) sbSubmission {
	t.Helper()
	for range 1000 {
		if sub := sbGetStatus(t, c, base, id).submission(t); sub != nil && sub.State == want {
			return *sub
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("submission of %s never reached %q: %+v", id, want, sbGetStatus(t, c, base, id))
	return sbSubmission{}
}

// sbPublish publishes x with the body's extra fields and returns the answer.
func sbPublish(t *testing.T, c *http.Client, base, x string, extra map[string]any) response {
	t.Helper()
	body := map[string]any{"network": "testnet", "xdr": x}
	for k, v := range extra {
		body[k] = v
	}
	return send(t, c, http.MethodPost, base+"/api/plan", strings.NewReader(jsonBody(t, body)), nil)
}

func sbID(x string) string {
	h := ledgertest.Hash(x, rdPass)
	return hex.EncodeToString(h[:])
}

// sbNext skips unnamed state events and returns the next named one, which
// must come within a minute.
func sbNext(t *testing.T, s *sseStream) sse.Event {
	t.Helper()
	for {
		if ev := s.next(t, time.Minute); ev.Type != "message" {
			return ev
		}
	}
}

// sbEventData decodes a named event's data, checking its keys.
func sbEventData(t *testing.T, ev sse.Event, keys ...string) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(ev.Data), &m); err != nil {
		t.Fatalf("event %s data %q: %v", ev.Type, ev.Data, err)
	}
	var got []string
	for k := range m {
		got = append(got, k)
	}
	sort.Strings(got)
	sort.Strings(keys)
	if strings.Join(got, ",") != strings.Join(keys, ",") {
		t.Fatalf("event %s data keys = %v, want %v (%s)", ev.Type, got, keys, ev.Data)
	}
	return m
}

// sbAccountGone checks that the double no longer serves account.
func sbAccountGone(t *testing.T, r *rdRelay, account string) {
	t.Helper()
	res := send(t, http.DefaultClient, http.MethodGet, r.Horizon.URL+"/accounts/"+account, nil, nil)
	if res.status != http.StatusNotFound {
		t.Errorf("GET /accounts/%s on the double = %d, want 404: the close was not applied", account, res.status)
	}
}

// A 2-of-3 close published with submit true: nothing is sent until it is
// ready; then one submission, `event: submitted`, status submitted, the
// account gone from the ledger, and every route as before.
func TestSubmitTwoOfThree(t *testing.T) { eachLedgerAPI(t, testSubmitTwoOfThree) }

func testSubmitTwoOfThree(t *testing.T, api string) {
	r := rdStartAPI(t, false, api)
	account, keys := r.account([]int32{1, 1, 1}, 0, 0, 2)
	dest := planDest // the double knows it: a merge into an unknown account fails
	unsigned, _ := ledgertest.BuildClose(keys[2], dest, rdSeq, 0, rdPass)
	id := sbID(unsigned)

	if res := sbPublish(t, r.Client, r.URL, ledgertest.SignXDR(unsigned, rdPass, keys[0]), map[string]any{"submit": true}); res.status != http.StatusOK {
		t.Fatalf("publish: %d %s", res.status, res.body)
	}
	st := sbGetStatus(t, r.Client, r.URL, id)
	if !st.Submit || st.Ready || string(st.Submission) != "null" {
		t.Fatalf("status before ready = %+v, want submit true, submission null", st)
	}
	s := sseOpen(t, r.Client, r.URL, id, nil)
	if ev := s.next(t, 5*time.Second); ev.Type != "message" || ev.ID != "1" {
		t.Fatalf("first event = %+v, want state 1", ev)
	}

	if a := r.sign(t, id, unsigned, keys[1]); !a.Ready {
		t.Fatalf("sign: not ready: %+v", a)
	}
	if ev := s.next(t, 5*time.Second); ev.Type != "message" || ev.ID != "2" {
		t.Fatalf("event after sign = %+v, want state 2", ev)
	}
	ev := sbNext(t, s)
	if ev.Type != "submitted" {
		t.Fatalf("event = %+v, want submitted", ev)
	}
	d := sbEventData(t, ev, "id", "hash", "ledger")
	var gotID, hash string
	var ledgerSeq int
	_ = json.Unmarshal(d["id"], &gotID)
	_ = json.Unmarshal(d["hash"], &hash)
	if err := json.Unmarshal(d["ledger"], &ledgerSeq); err != nil || ledgerSeq <= 0 {
		t.Errorf("ledger = %s, want a positive integer", d["ledger"])
	}
	if gotID != id || hash != id {
		t.Errorf("submitted id, hash = %s, %s; want %s for both", gotID, hash, id)
	}

	sub := sbGetStatus(t, r.Client, r.URL, id).submission(t)
	if sub == nil || sub.State != "submitted" || sub.Hash != id || sub.Ledger != ledgerSeq || sub.Code != "" {
		t.Errorf("status.submission = %+v, want submitted with hash %s and ledger %d", sub, id, ledgerSeq)
	}
	sbAccountGone(t, r, account)
	if n := r.Horizon.Submissions(); n != 1 {
		t.Errorf("the double got %d submissions, want 1", n)
	}
	// A stream opened later gets the current state, then the outcome.
	late := sseOpen(t, r.Client, r.URL, id, nil)
	if ev := late.next(t, 5*time.Second); ev.Type != "message" || ev.ID != "2" {
		t.Fatalf("late stream's first event = %+v, want state 2", ev)
	}
	if ev := late.next(t, 5*time.Second); ev.Type != "submitted" || ev.Data != `{"id":"`+id+`","hash":"`+id+`","ledger":`+strconv.Itoa(ledgerSeq)+`}` {
		t.Fatalf("late stream's second event = %+v, want submitted", ev)
	}
	late.Close()
	if v := metricValue(t, r.m, "closerelay_submissions_total", "result", metrics.SubmissionSubmitted); v != 1 {
		t.Errorf("submissions_total{submitted} = %v, want 1", v)
	}
	for _, res := range []string{metrics.SubmissionFailed, metrics.SubmissionRetried} {
		if v := metricValue(t, r.m, "closerelay_submissions_total", "result", res); v != 0 {
			t.Errorf("submissions_total{%s} = %v, want 0", res, v)
		}
	}

	// After submitted the plan stays: ready, sign (a new signer too) and a
	// re-publish answer as before, and nothing is submitted again.
	r.ready(t, id)
	if a := r.sign(t, id, unsigned, keys[2]); len(a.Signers) != 3 {
		t.Errorf("sign after submitted: %+v", a)
	}
	if res := sbPublish(t, r.Client, r.URL, ledgertest.SignXDR(unsigned, rdPass, keys[0]), map[string]any{"submit": false}); res.status != http.StatusOK {
		t.Errorf("re-publish after submitted: %d %s", res.status, res.body)
	}
	st = sbGetStatus(t, r.Client, r.URL, id)
	if !st.Submit || st.submission(t).State != "submitted" {
		t.Errorf("status after a re-publish with submit false = %+v: submit is never unset", st)
	}
	// The loop decides before it answers a merge, and a submission it starts
	// is pending at once: the status above (submitted, not pending) already
	// says no new one started, so there is nothing to wait for.
	if n := r.Horizon.Submissions(); n != 1 {
		t.Errorf("the double got %d submissions after submitted, want 1", n)
	}
	// The submission went through the API under test, and only through it.
	if n := r.Horizon.Handler().RPCCalls("sendTransaction"); (api == "rpc") != (n == 1) {
		t.Errorf("under %s, %d sendTransaction calls", api, n)
	}
}

// A plan published without submit is never submitted; a re-publish may set
// submit, and then the ready plan is submitted at once.
func TestSubmitSetByRepublish(t *testing.T) {
	r := rdStart(t, false)
	account, keys := r.account([]int32{1, 1, 1}, 0, 0, 2)
	unsigned, _ := ledgertest.BuildClose(keys[2], planDest, rdSeq, 0, rdPass)
	id := sbID(unsigned)
	if res := sbPublish(t, r.Client, r.URL, ledgertest.SignXDR(unsigned, rdPass, keys[0], keys[1]), nil); res.status != http.StatusOK {
		t.Fatalf("publish: %d %s", res.status, res.body)
	}
	// Without submit nothing ever starts a submission: no need to wait.
	if st := sbGetStatus(t, r.Client, r.URL, id); st.Submit || !st.Ready || string(st.Submission) != "null" || r.Horizon.Submissions() != 0 {
		t.Fatalf("a ready plan without submit: %+v, %d submissions", st, r.Horizon.Submissions())
	}
	if res := sbPublish(t, r.Client, r.URL, ledgertest.SignXDR(unsigned, rdPass, keys[0]), map[string]any{"submit": true}); res.status != http.StatusOK {
		t.Fatalf("re-publish with submit: %d %s", res.status, res.body)
	}
	sbWaitState(t, r.Client, r.URL, id, "submitted")
	sbAccountGone(t, r, account)
}

// The publish refusals of submit: a close whose transaction source is not
// the closing account (a fee payer) is SUBMIT_UNSUPPORTED with submit true,
// on a new plan and on a re-publish, and right after EXPIRED; a submit that
// is not a boolean is BAD_REQUEST.
// TestSubmitReadyAtPublish: a close published with submit and already
// carrying enough weight is submitted from its first version, with no sign.
func TestSubmitReadyAtPublish(t *testing.T) {
	r := rdStart(t, false)
	account, keys := r.account([]int32{1, 1, 1}, 0, 0, 2)
	unsigned, _ := ledgertest.BuildClose(keys[2], planDest, rdSeq, 0, rdPass)
	id := sbID(unsigned)
	res := sbPublish(t, r.Client, r.URL, ledgertest.SignXDR(unsigned, rdPass, keys[0], keys[1]), map[string]any{"submit": true})
	if res.status != http.StatusOK {
		t.Fatalf("publish: %d %s", res.status, res.body)
	}
	if got := sbWaitState(t, r.Client, r.URL, id, "submitted"); got.Hash != id {
		t.Errorf("submitted hash %q, want the plan id %s", got.Hash, id)
	}
	sbAccountGone(t, r, account)
}

func TestSubmitRefusals(t *testing.T) { eachLedgerAPI(t, testSubmitRefusals) }

func testSubmitRefusals(t *testing.T, api string) {
	r := rdStartAPI(t, false, api)
	_, keys := r.account([]int32{1, 1, 1}, 0, 0, 2)
	closing := keys[2].Address()
	payer := keypair.MustRandom()
	feePaid := func(maxTime int64) string {
		x, _ := ledgertest.BuildTx(payer.Address(), rdSeq, maxTime, rdPass,
			[]txnbuild.Operation{&txnbuild.AccountMerge{Destination: planDest, SourceAccount: closing}}, keys[0])
		return x
	}
	x := feePaid(0)

	planWantErr(t, sbPublish(t, r.Client, r.URL, x, map[string]any{"submit": true}), http.StatusBadRequest, "SUBMIT_UNSUPPORTED")
	// EXPIRED comes first.
	planWantErr(t, sbPublish(t, r.Client, r.URL, feePaid(time.Now().Add(-time.Hour).Unix()), map[string]any{"submit": true}), http.StatusBadRequest, "EXPIRED")
	// NOT_A_CLOSE (guard 3) comes before it too.
	payment, _ := ledgertest.BuildPayment(keys[2], keypair.MustRandom().Address(), rdSeq, rdPass, keys[0])
	planWantErr(t, sbPublish(t, r.Client, r.URL, payment, map[string]any{"submit": true}), http.StatusBadRequest, "NOT_A_CLOSE")

	// Without submit it is published; a re-publish that sets submit is
	// refused and leaves submit unset.
	id := planWantPublished(t, sbPublish(t, r.Client, r.URL, x, nil), ledgertest.Hash(x, rdPass))
	planWantErr(t, sbPublish(t, r.Client, r.URL, x, map[string]any{"submit": true}), http.StatusBadRequest, "SUBMIT_UNSUPPORTED")
	if st := sbGetStatus(t, r.Client, r.URL, id); st.Submit {
		t.Errorf("a refused re-publish set submit: %+v", st)
	}
	if res := sbPublish(t, r.Client, r.URL, x, map[string]any{"submit": false}); res.status != http.StatusOK {
		t.Errorf("submit false on a fee-paid close: %d %s", res.status, res.body)
	}

	// A submit that is not a boolean.
	for _, v := range []any{"true", 1, nil, map[string]any{}} {
		planWantErr(t, sbPublish(t, r.Client, r.URL, x, map[string]any{"submit": v}), http.StatusBadRequest, "BAD_REQUEST")
	}
	if v := metricValue(t, r.m, "closerelay_rejections_total", "route", metrics.RoutePlanPublish, "code", "SUBMIT_UNSUPPORTED"); v != 2 {
		t.Errorf("rejections_total{plan_publish,SUBMIT_UNSUPPORTED} = %v, want 2", v)
	}
}

// A close the ledger would refuse (tx_bad_seq: the account's sequence number
// moved) is found by the preflight before the first try and never posted
// (CONTRACT section 14): status blocked with its code and `event:
// submit_failed`; a change of the envelope that keeps the submit-ready
// envelope does not try again, one that changes it (a heavier signer) is
// checked again, and, the account being back in step, posted once.
func TestSubmitFailedThenRetriedOnNewEnvelope(t *testing.T) {
	eachLedgerAPI(t, testSubmitFailedThenRetriedOnNewEnvelope)
}

func testSubmitFailedThenRetriedOnNewEnvelope(t *testing.T, api string) {
	r := rdStartAPI(t, false, api)
	// A, B, C of weight 1 and the master D of weight 2; the close needs 2.
	account, keys := r.account([]int32{1, 1, 1, 2}, 0, 0, 2)
	unsigned, _ := ledgertest.BuildClose(keys[3], planDest, rdSeq, 0, rdPass)
	id := sbID(unsigned)
	if !r.Horizon.SetSequence(account, rdSeq+5) {
		t.Fatal("the double does not know the account")
	}

	if res := sbPublish(t, r.Client, r.URL, ledgertest.SignXDR(unsigned, rdPass, keys[0]), map[string]any{"submit": true}); res.status != http.StatusOK {
		t.Fatalf("publish: %d %s", res.status, res.body)
	}
	s := sseOpen(t, r.Client, r.URL, id, nil)
	r.sign(t, id, unsigned, keys[1]) // A+B: ready, submitted, refused

	ev := sbNext(t, s)
	if ev.Type != "submit_failed" {
		t.Fatalf("event = %+v, want submit_failed", ev)
	}
	d := sbEventData(t, ev, "id", "code", "reason")
	var gotID, code, reason string
	_ = json.Unmarshal(d["id"], &gotID)
	_ = json.Unmarshal(d["code"], &code)
	_ = json.Unmarshal(d["reason"], &reason)
	if gotID != id || code != "tx_bad_seq" || reason == "" {
		t.Errorf("submit_failed data = %s, want id %s, code tx_bad_seq and a reason", ev.Data, id)
	}
	sub := sbGetStatus(t, r.Client, r.URL, id).submission(t)
	if sub == nil || sub.State != "blocked" || sub.Code != "tx_bad_seq" || sub.Ledger != 0 {
		t.Errorf("status.submission = %+v, want blocked with code tx_bad_seq", sub)
	}
	if v := metricValue(t, r.m, "closerelay_submissions_total", "result", metrics.SubmissionFailed); v != 1 {
		t.Errorf("submissions_total{failed} = %v, want 1", v)
	}
	if n := r.Horizon.Submissions(); n != 0 {
		t.Fatalf("%d submissions of a blocked close, want none", n)
	}

	// C changes the envelope but not the submit-ready one (A+B stay the
	// earliest of equal weights): no new try.
	r.Horizon.SetSequence(account, rdSeq-1)
	r.sign(t, id, unsigned, keys[2])
	// The loop decides before it answers the sign, and a submission it
	// starts is pending at once: the status check below is the proof; no
	// need to wait.
	if n := r.Horizon.Submissions(); n != 0 {
		t.Fatalf("%d submissions after a change that kept the submit-ready envelope, want 0", n)
	}
	if sub := sbGetStatus(t, r.Client, r.URL, id).submission(t); sub.State != "blocked" {
		t.Errorf("status.submission = %+v, want still blocked", sub)
	}

	// D (weight 2) alone reaches the threshold: a new submit-ready
	// envelope, one new try, which the ledger takes.
	if got := r.sign(t, id, unsigned, keys[3]); !got.Ready {
		t.Fatalf("sign D: %+v", got)
	}
	if ev := sbNext(t, s); ev.Type != "submitted" {
		t.Fatalf("event = %+v, want submitted", ev)
	}
	if sub := sbGetStatus(t, r.Client, r.URL, id).submission(t); sub.State != "submitted" || sub.Hash != id {
		t.Errorf("status.submission = %+v, want submitted", sub)
	}
	if n := r.Horizon.Submissions(); n != 1 {
		t.Errorf("%d submissions, want 1", n)
	}
	if ready := r.ready(t, id); len(ready.Signers) != 1 || ready.Signers[0] != keys[3].Address() {
		t.Errorf("the submit-ready envelope is signed by %v, want D alone", ready.Signers)
	}
	sbAccountGone(t, r, account)
}

// A submission whose first two tries time out (HORIZON_TIMEOUT, 5 s each)
// is retried with the same envelope and then taken: retried counts 2. While
// it is stalled, merges and a stream go on as ever. Run in a synctest
// bubble, so the timeouts and the backoff take no real time.
func TestSubmitRetriesTimeouts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := metrics.New()
		r := startBubbleRelay(httpapi.Options{Metrics: m})
		defer r.Stop(t)
		acct := ledgertest.NewAccount(2, 1)
		acct.Thresholds.HighThreshold = 2
		r.Horizon.AddAccount(acct)
		unsigned, _ := ledgertest.BuildClose(acct.Master, planDest, rdSeq, 0, rdPass)
		id := sbID(unsigned)
		r.Horizon.StallSubmissions(2)

		if res := sbPublish(t, r.Client, r.Base, ledgertest.SignXDR(unsigned, rdPass, acct.Keys[0], acct.Keys[1]), map[string]any{"submit": true}); res.status != http.StatusOK {
			t.Fatalf("publish: %d %s", res.status, res.body)
		}
		s := sseOpen(t, r.Client, r.Base, id, nil)
		if ev := s.next(t, time.Second); ev.Type != "message" || ev.ID != "1" {
			t.Fatalf("first event = %+v", ev)
		}
		synctest.Wait()
		if sub := sbGetStatus(t, r.Client, r.Base, id).submission(t); sub == nil || sub.State != "pending" {
			t.Fatalf("status.submission while stalled = %+v, want pending", sub)
		}
		// The first try is stalled: a merge answers and the stream tells it.
		code, body, err := ssePost(t.Context(), r.Client, r.Base+"/api/plan/"+id+"/sign", map[string]string{"xdr": ledgertest.SignXDR(unsigned, rdPass, acct.Master)})
		if err != nil || code != http.StatusOK {
			t.Fatalf("sign while a submission is stalled: %d %s %v", code, body, err)
		}
		if ev := s.next(t, time.Second); ev.Type != "message" || ev.ID != "2" {
			t.Fatalf("event while stalled = %+v, want state 2", ev)
		}
		if sub := sbGetStatus(t, r.Client, r.Base, id).submission(t); sub.State != "pending" {
			t.Fatalf("status.submission = %+v, want pending", sub)
		}

		ev := sbNext(t, s)
		if ev.Type != "submitted" {
			t.Fatalf("event = %+v, want submitted", ev)
		}
		if sub := sbGetStatus(t, r.Client, r.Base, id).submission(t); sub.State != "submitted" || sub.Hash != id || sub.Ledger <= 0 {
			t.Errorf("status.submission = %+v, want submitted", sub)
		}
		if n := r.Horizon.Submissions(); n != 3 {
			t.Errorf("the double got %d submissions, want 3", n)
		}
		if v := metricValue(t, m, "closerelay_submissions_total", "result", metrics.SubmissionRetried); v != 2 {
			t.Errorf("submissions_total{retried} = %v, want 2", v)
		}
		if v := metricValue(t, m, "closerelay_submissions_total", "result", metrics.SubmissionSubmitted); v != 1 {
			t.Errorf("submissions_total{submitted} = %v, want 1", v)
		}
		s.Close()
	})
}

// A submission still in flight when the relay stops is abandoned: Stop
// returns, nothing is left running, and no outcome was told.
func TestSubmitAbandonedOnStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startBubbleRelay()
		acct := ledgertest.NewAccount(0, 1)
		r.Horizon.AddAccount(acct)
		unsigned, _ := ledgertest.BuildClose(acct.Master, planDest, rdSeq, 0, rdPass)
		id := sbID(unsigned)
		r.Horizon.StallSubmissions(100)
		if res := sbPublish(t, r.Client, r.Base, ledgertest.SignXDR(unsigned, rdPass, acct.Master), map[string]any{"submit": true}); res.status != http.StatusOK {
			t.Fatalf("publish: %d %s", res.status, res.body)
		}
		time.Sleep(7 * time.Second) // into the second try
		if sub := sbGetStatus(t, r.Client, r.Base, id).submission(t); sub == nil || sub.State != "pending" {
			t.Fatalf("status.submission = %+v, want pending", sub)
		}
		r.Stop(t)
	})
}
