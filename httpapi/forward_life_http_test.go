package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/mediator"
	mt "github.com/closerelay/closerelay/mediator/mediatortest"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/plan"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// A pending forward outlives its plan's signing window (issue 24): the
// plan lives on for its forward, GET /status answers it, every other
// route answers as SPEC says of an expired plan.

// flLateClose sets up a single-signer mediator close to a memo-required
// exchange whose signing window ends 10 s from now (maxTime now + 70 s,
// less SPEC's 60 s grace), and publishes it with submit and the flow, so
// that the close lands at once, 10 s before the window's end. The
// mediator's reads fail from the start (SetUnreadable): the forward's
// first tries find the ledger API failing.
func flLateClose(t *testing.T, r *bubbleRelay) (id, exchange, med string, close string) {
	t.Helper()
	acct := ledgertest.NewAccount(0, 1)
	r.Horizon.AddAccount(acct)
	r.Horizon.Fund(acct.Address, 50_0000000)
	exchange = keypair.MustRandom().Address()
	r.Horizon.Fund(exchange, 10_0000000)
	if !r.Horizon.SetMemoRequired(exchange) {
		t.Fatal("SetMemoRequired")
	}
	token, med := fwMint(t, exchange, fwMemo, time.Now())
	r.Horizon.SetUnreadable(med, true)
	close, _ = ledgertest.BuildTx(acct.Address, rdSeq, time.Now().Add(70*time.Second).Unix(), rdPass, []txnbuild.Operation{
		&txnbuild.CreateAccount{Destination: med, Amount: "2"},
		&txnbuild.AccountMerge{Destination: med},
	})
	close = ledgertest.SignXDR(close, rdPass, acct.Master)
	if res := sbPublish(t, r.Client, r.Base, close, map[string]any{"submit": true, "flowToken": token}); res.status != http.StatusOK {
		t.Fatalf("publish: %d %s", res.status, res.body)
	}
	return sbID(close), exchange, med, close
}

// flStatus is GET /status's answer: its status code and, on 200, its
// forward (nil for null) and expiry.
func flStatus(t *testing.T, r *bubbleRelay, id string) (int, map[string]any) {
	t.Helper()
	res := send(t, r.Client, http.MethodGet, r.Base+"/api/plan/"+id+"/status", nil, nil)
	if res.status != http.StatusOK {
		return res.status, nil
	}
	return res.status, fwStatus(t, r.Client, r.Base, id)
}

// The close lands 10 s before the plan's signing window ends, and the
// ledger API fails the forward's first tries: the mediator's reads answer
// 503 past the window's end, then its first submission hangs until the
// relay's HORIZON_TIMEOUT. The plan lives on: past the window GET /status
// answers 200 with status.forward pending while GET, sign, ready and the
// stream answer 404 NOT_FOUND as for any expired plan (and the stream's
// subscriber was told expired); then the forward lands, the exchange is
// credited once with the memo, and status.forward says forwarded. An hour
// (the retention) after that, the plan is gone everywhere and its slot is
// free. Without the fix the plan was deleted at the window's end with its
// forward abandoned: status answered 404 and nothing was credited.
func TestForwardOutlivesTheSigningWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := metrics.New()
		r := startBubbleRelay(httpapi.Options{Mediator: mediator.New(mediator.Options{Secret: mt.Secret}), Metrics: m})
		defer r.Stop(t)
		start := time.Now()
		id, exchange, med, close := flLateClose(t, r)
		s := sseOpen(t, r.Client, r.Base, id, nil)
		defer s.Close()
		synctest.Wait()
		if code, f := flStatus(t, r, id); code != http.StatusOK || f == nil || f["state"] != "pending" {
			t.Fatalf("status before the window's end: %d forward %v, want pending", code, f)
		}

		// The window ends (10 s) while the forward still cannot read its
		// mediator.
		time.Sleep(15 * time.Second)
		for ev := sbNext(t, s); ev.Type != "expired"; ev = sbNext(t, s) {
			if ev.Type != "submitted" {
				t.Fatalf("stream: event %+v, want submitted then expired", ev)
			}
		}
		code, f := flStatus(t, r, id)
		if code != http.StatusOK || f == nil || f["state"] != "pending" {
			t.Fatalf("status past the window's end: %d forward %v, want 200 pending", code, f)
		}
		for _, route := range []struct{ method, path, body string }{
			{http.MethodGet, "/api/plan/" + id, ""},
			{http.MethodGet, "/api/plan/" + id + "/ready", ""},
			{http.MethodPost, "/api/plan/" + id + "/sign", `{"xdr":"` + close + `"}`},
		} {
			var body *strings.Reader
			if route.body != "" {
				body = strings.NewReader(route.body)
			}
			var res response
			if body != nil {
				res = send(t, r.Client, route.method, r.Base+route.path, body, map[string]string{"Content-Type": "application/json"})
			} else {
				res = send(t, r.Client, route.method, r.Base+route.path, nil, nil)
			}
			if res.status != http.StatusNotFound || !strings.Contains(string(res.body), `"NOT_FOUND"`) {
				t.Errorf("%s %s past the window: %d %s, want 404 NOT_FOUND", route.method, route.path, res.status, res.body)
			}
		}
		if res := send(t, r.Client, http.MethodGet, r.Base+"/api/plan/"+id+"/events", nil, nil); res.status != http.StatusNotFound {
			t.Errorf("events past the window: %d, want 404", res.status)
		}
		if n, _ := r.Plans.Open(t.Context()); n != 1 {
			t.Errorf("%d plans open while the forward is pending, want 1: it holds its slot", n)
		}

		// The mediator can be read again; the forward's first submission
		// then hangs until the relay gives up on it, and the next lands.
		sent := r.Horizon.Submissions()
		r.Horizon.StallSubmissions(1)
		r.Horizon.SetUnreadable(med, false)
		time.Sleep(2 * time.Minute)
		if r.Horizon.Submissions() < sent+2 {
			t.Errorf("the double got %d forward submissions, want the hung one and its retry", r.Horizon.Submissions()-sent)
		}
		code, f = flStatus(t, r, id)
		if code != http.StatusOK || f == nil || f["state"] != "forwarded" || f["hash"] == nil {
			t.Fatalf("status once the forward landed: %d forward %v, want forwarded", code, f)
		}
		credits := r.Horizon.Credits(exchange)
		if len(credits) != 2 || credits[0].Merge || credits[0].From != med || credits[0].Memo.Type != xdr.MemoTypeMemoText ||
			credits[0].Memo.MustText() != "deposit 42" || !credits[1].Merge || credits[1].Hash != credits[0].Hash {
			t.Fatalf("exchange credits = %+v, want one forward (payment with the memo, then the merge)", credits)
		}
		if v := metricValue(t, m, "closerelay_forwards_total", "result", metrics.ForwardForwarded); v != 1 {
			t.Errorf("forwards_total{forwarded} = %v, want 1", v)
		}

		// Kept for the retention after the forward settled (within the
		// last 2 minutes), then gone.
		time.Sleep(actor.DefaultForwardRetention - 3*time.Minute)
		if code, f := flStatus(t, r, id); code != http.StatusOK || f["state"] != "forwarded" {
			t.Errorf("status within the retention: %d %v, want forwarded", code, f)
		}
		time.Sleep(3 * time.Minute)
		if code, _ := flStatus(t, r, id); code != http.StatusNotFound {
			t.Errorf("status %v after publish, past the retention: %d, want 404", time.Since(start), code)
		}
		if n, _ := r.Plans.Open(t.Context()); n != 0 {
			t.Errorf("%d plans open after the retention, want 0", n)
		}
		if got := len(r.Horizon.Credits(exchange)); got != 2 {
			t.Errorf("exchange credited %d times in the end, want the one forward", got)
		}
	})
}

// A forward whose ledger API never recovers runs out of its retry budget
// (actor.DefaultForwardBudget from the close's landing): status.forward
// then says failed with forward_timed_out, forwards_total counts the
// failure, and the plan is released after the retention: status 404, no
// plan open. Without the budget the plan (and its slot) was held as long
// as the forward retried: for ever.
func TestForwardBudgetRunsOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := metrics.New()
		r := startBubbleRelay(httpapi.Options{Mediator: mediator.New(mediator.Options{Secret: mt.Secret}), Metrics: m})
		defer r.Stop(t)
		id, exchange, _, _ := flLateClose(t, r)
		time.Sleep(actor.DefaultForwardBudget - time.Minute)
		if code, f := flStatus(t, r, id); code != http.StatusOK || f["state"] != "pending" {
			t.Fatalf("status just before the budget's end: %d %v, want pending", code, f)
		}
		time.Sleep(2 * time.Minute)
		code, f := flStatus(t, r, id)
		if code != http.StatusOK || f["state"] != "failed" || f["code"] != plan.ForwardCodeTimedOut {
			t.Fatalf("status past the budget's end: %d %v, want failed %s", code, f, plan.ForwardCodeTimedOut)
		}
		if v := metricValue(t, m, "closerelay_forwards_total", "result", metrics.ForwardFailed); v != 1 {
			t.Errorf("forwards_total{failed} = %v, want 1", v)
		}
		if n, _ := r.Plans.Open(t.Context()); n != 1 {
			t.Errorf("%d plans open within the retention, want 1", n)
		}
		time.Sleep(actor.DefaultForwardRetention)
		if code, _ := flStatus(t, r, id); code != http.StatusNotFound {
			t.Errorf("status after the retention: %d, want 404", code)
		}
		if n, _ := r.Plans.Open(t.Context()); n != 0 {
			t.Errorf("%d plans open after the retention, want 0: the plan is released", n)
		}
		if c := r.Horizon.Credits(exchange); len(c) != 0 {
			t.Errorf("the exchange was credited: %+v", c)
		}
	})
}

// A close whose submission is still in flight when its plan's signing
// window ends: the ledger API fails its first two posts, applies the
// third but loses the answer (the relay times out on it), and answers the
// fourth, past the window's end, with the success. The plan lives on for
// it: the submission is not abandoned, and the forward follows, so the
// exchange is credited with the memo. Without the fix the plan ended with
// its window, abandoning the submission of a close the ledger had applied:
// status answered 404, and the funds stayed in the mediator.
func TestSubmissionInFlightAtTheWindowsEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startBubbleRelay(httpapi.Options{Mediator: mediator.New(mediator.Options{Secret: mt.Secret})})
		defer r.Stop(t)
		r.Horizon.FailSubmissions(2, http.StatusServiceUnavailable)
		r.Horizon.DropAnswers(1)
		id, exchange, med, _ := func() (string, string, string, string) {
			id, exchange, med, close := flLateClose(t, r)
			r.Horizon.SetUnreadable(med, false) // only the close's posts fail here
			return id, exchange, med, close
		}()
		time.Sleep(10*time.Second + time.Millisecond)
		if res := send(t, r.Client, http.MethodGet, r.Base+"/api/plan/"+id, nil, nil); res.status != http.StatusNotFound {
			t.Errorf("GET past the window: %d, want 404", res.status)
		}
		res := send(t, r.Client, http.MethodGet, r.Base+"/api/plan/"+id+"/status", nil, nil)
		if res.status != http.StatusOK || !strings.Contains(string(res.body), `"submission":{"state":"pending"}`) {
			t.Fatalf("status at the window's end: %d %s, want 200 with the submission pending", res.status, res.body)
		}
		time.Sleep(2 * time.Minute)
		code, f := flStatus(t, r, id)
		if code != http.StatusOK || f == nil || f["state"] != "forwarded" {
			t.Fatalf("status: %d forward %v, want forwarded", code, f)
		}
		credits := r.Horizon.Credits(exchange)
		if len(credits) != 2 || credits[0].From != med || credits[0].Memo.Type != xdr.MemoTypeMemoText || credits[0].Memo.MustText() != "deposit 42" {
			t.Fatalf("exchange credits = %+v, want one forward with the memo", credits)
		}
		if _, ok := r.Horizon.Balance(med); ok {
			t.Error("the mediator account still holds the funds")
		}
	})
}
