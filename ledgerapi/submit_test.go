package ledgerapi_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/closerelay/closerelay/ledgerapi/horizon"
)

// Every test here runs under testing/synctest: the account API double is
// reached in process (no listener), so timeouts and backoffs elapse in the
// bubble's clock, and the times asserted are exact.

const (
	subTimeout = 10 * time.Second // HORIZON_TIMEOUT of every rig
	subSeq     = 1<<32 + 1        // the next sequence number of the double's accounts
)

var (
	subPass = ledger.Testnet.Passphrase()
	subDest = ledgertest.Keypair(97).Address()
)

// subRig is a client submitting to the double, its wire recorded.
type subRig struct {
	h     *ledgertest.Handler
	wire  *subWire
	s     *ledgerapi.Client
	a     ledgertest.Account // known to the double: 3 signers of weight 1, merge needs 2
	start time.Time

	mu      sync.Mutex
	retries []subRetry // what observe saw, in order
}

// subRetry is one observe call and when it came.
type subRetry struct {
	At time.Duration // since the rig's start
	ledgerapi.SubmitAttempt
}

// newSubRig must run inside the bubble.
func newSubRig(t *testing.T) *subRig {
	t.Helper()
	h := ledgertest.NewHandler()
	t.Cleanup(h.Release)
	h.Fund(subDest, 10_0000000) // the closes' destination must exist
	a := subAccount(41)
	h.AddAccount(a)
	start := time.Now()
	wire := &subWire{rt: h.Transport(), start: start}
	return &subRig{h: h, wire: wire, s: wire.client(0, 0), a: a, start: start}
}

// client submits to testnet's Horizon through w, with the backoff given
// (0 for the default's).
func (w *subWire) client(backoff, limit time.Duration) *ledgerapi.Client {
	urls := map[ledger.Network]string{ledger.Testnet: "http://horizon.invalid"}
	return ledgerapi.New(ledgerapi.Options{
		Backends: horizon.Backends(urls, w), Timeout: subTimeout,
		SubmitBackoff: backoff, SubmitBackoffCap: limit,
	})
}

// subAccount is a 2-of-3 account: two extra signers and the master, weight
// 1 each; low threshold 1, medium and high 2.
func subAccount(seed int) ledgertest.Account {
	a := ledgertest.DeterministicAccount(seed, 2, 1)
	a.Thresholds.LowThreshold, a.Thresholds.MedThreshold, a.Thresholds.HighThreshold = 1, 2, 2
	return a
}

// ready is the rig account's submit-ready close: the next sequence number,
// two signatures.
func (r *subRig) ready() string {
	b64, _ := ledgertest.BuildClose(r.a.Master, subDest, subSeq, 0, subPass, r.a.Keys[0], r.a.Keys[1])
	return b64
}

func (r *subRig) observe(a ledgerapi.SubmitAttempt) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.retries = append(r.retries, subRetry{At: time.Since(r.start), SubmitAttempt: a})
}

func (r *subRig) submit(ctx context.Context, b64 string) ledgerapi.SubmitOutcome {
	return r.s.Submit(ctx, ledger.Testnet, b64, r.observe)
}

func (r *subRig) elapsed() time.Duration { return time.Since(r.start) }

// wantPosts fails unless the wire carried exactly one POST /transactions of
// b64 at each of the times at, and the double counted them.
func (r *subRig) wantPosts(t *testing.T, b64 string, at ...time.Duration) {
	t.Helper()
	posts := r.wire.sent()
	var times []time.Duration
	for i, p := range posts {
		times = append(times, p.at)
		if p.method != http.MethodPost || p.path != "/transactions" || p.tx != b64 {
			t.Errorf("post %d = %s %s tx=%.24s…, want POST /transactions with the same envelope", i+1, p.method, p.path, p.tx)
		}
	}
	if !slices.Equal(times, at) {
		t.Errorf("posts at %v, want %v", times, at)
	}
}

// wantRetries fails unless observe saw exactly want.
func (r *subRig) wantRetries(t *testing.T, want ...subRetry) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if !slices.Equal(r.retries, want) {
		t.Errorf("observed retries\n got %+v\nwant %+v", r.retries, want)
	}
}

// subWire records every request as the relay sends it, in bubble time, and
// passes it to the double unless a scripted answer comes first.
type subWire struct {
	rt    http.RoundTripper
	start time.Time

	mu         sync.Mutex
	posts      []subPost
	script     []subAnswer // answers for the next requests, in order, before rt
	retryAfter string      // added to the double's 429 and 503 answers when set
}

type subPost struct {
	at     time.Duration
	method string
	path   string
	tx     string // the form's tx
}

// subAnswer answers a request in place of the double.
type subAnswer func(*http.Request) (*http.Response, error)

func (w *subWire) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		_ = req.Body.Close()
	}
	form, _ := url.ParseQuery(string(body))
	out := req.Clone(req.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))

	w.mu.Lock()
	w.posts = append(w.posts, subPost{at: time.Since(w.start), method: req.Method, path: req.URL.Path, tx: form.Get("tx")})
	var next subAnswer
	if len(w.script) > 0 {
		next, w.script = w.script[0], w.script[1:]
	}
	retryAfter := w.retryAfter
	w.mu.Unlock()

	if next != nil {
		return next(out)
	}
	resp, err := w.rt.RoundTrip(out)
	if resp != nil && retryAfter != "" &&
		(resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		resp.Header.Set("Retry-After", retryAfter)
	}
	return resp, err
}

func (w *subWire) then(answers ...subAnswer) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.script = append(w.script, answers...)
}

func (w *subWire) sent() []subPost {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.posts)
}

// answer is a scripted answer of status with the given body.
func answer(status int, contentType, body string) subAnswer {
	return func(req *http.Request) (*http.Response, error) {
		return &http.Response{
			Status:     fmt.Sprintf("%d %s", status, http.StatusText(status)),
			StatusCode: status,
			Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header:        http.Header{"Content-Type": {contentType}},
			Body:          io.NopCloser(strings.NewReader(body)),
			ContentLength: int64(len(body)),
			Request:       req,
		}, nil
	}
}

// transportError is a scripted answer that never comes: the connection
// fails.
func transportError(req *http.Request) (*http.Response, error) {
	return nil, errors.New("dial tcp 192.0.2.1:443: connect: connection refused")
}

// hashOf is the lower-case hex hash the relay names the envelope by.
func hashOf(b64 string) string {
	h := ledgertest.Hash(b64, subPass)
	return fmt.Sprintf("%x", h[:])
}

// wantOutcome compares an outcome field by field (Err with errors.Is).
func wantOutcome(t *testing.T, got, want ledgerapi.SubmitOutcome) {
	t.Helper()
	if got.State != want.State || got.Hash != want.Hash || got.Ledger != want.Ledger || got.Code != want.Code ||
		!slices.Equal(got.OpCodes, want.OpCodes) || got.Tries != want.Tries || !errors.Is(got.Err, want.Err) ||
		(want.Err == nil) != (got.Err == nil) {
		t.Errorf("outcome\n got %+v\nwant %+v (reason aside)", got, want)
	}
	if (got.Reason == "") != (got.State == ledgerapi.SubmitSubmitted) {
		t.Errorf("outcome %s with reason %q", got.State, got.Reason)
	}
}

// TestSubmitSuccess: one POST of the envelope; the ledger takes it (the
// account is merged away) and the outcome names its hash and ledger.
func TestSubmitSuccess(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newSubRig(t)
		b64 := r.ready()
		out := r.submit(t.Context(), b64)
		wantOutcome(t, out, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitSubmitted, Hash: hashOf(b64), Ledger: 2, Tries: 1})
		r.wantPosts(t, b64, 0)
		r.wantRetries(t)
		if _, ok := r.h.Sequence(r.a.Address); ok || r.h.Applied() != 1 {
			t.Errorf("the double did not apply the close (applied %d)", r.h.Applied())
		}
		// observe may be nil; a second submission of the same envelope
		// answers the stored success.
		again := r.s.Submit(t.Context(), ledger.Testnet, b64, nil)
		wantOutcome(t, again, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitSubmitted, Hash: hashOf(b64), Ledger: 2, Tries: 1})
		if r.h.Applied() != 1 {
			t.Errorf("applied %d transactions, want 1", r.h.Applied())
		}
	})
}

// TestSubmitRetriesTimeouts: two tries stall until the timeout; the same
// envelope is sent again after 1 s, then 2 s, and the third try lands.
func TestSubmitRetriesTimeouts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newSubRig(t)
		r.h.StallSubmissions(2)
		b64 := r.ready()
		out := r.submit(t.Context(), b64)
		wantOutcome(t, out, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitSubmitted, Hash: hashOf(b64), Ledger: 2, Tries: 3})
		// 0: try 1, stalls until 10 s; waits 1 s; 11 s: try 2, stalls until
		// 21 s; waits 2 s; 23 s: try 3.
		r.wantPosts(t, b64, 0, 11*time.Second, 23*time.Second)
		r.wantRetries(t,
			subRetry{11 * time.Second, ledgerapi.SubmitAttempt{Try: 2, Cause: ledgerapi.RetryTimeout, Waited: time.Second}},
			subRetry{23 * time.Second, ledgerapi.SubmitAttempt{Try: 3, Cause: ledgerapi.RetryTimeout, Waited: 2 * time.Second}},
		)
		if got := r.elapsed(); got != 23*time.Second {
			t.Errorf("Submit returned after %v, want 23s", got)
		}
		if r.h.Submissions() != 3 || r.h.Applied() != 1 {
			t.Errorf("the double saw %d submissions and applied %d, want 3 and 1", r.h.Submissions(), r.h.Applied())
		}
	})
}

// TestSubmitRetriesBusy: 429, 5xx and 408 answers are retried with the
// backoff, each observed with its cause and status.
func TestSubmitRetriesBusy(t *testing.T) {
	for _, tc := range []struct {
		statuses []int
		causes   []string
	}{
		{[]int{429, 503}, []string{ledgerapi.RetryRateLimited, ledgerapi.RetryServerError}},
		{[]int{500, 502}, []string{ledgerapi.RetryServerError, ledgerapi.RetryServerError}},
		{[]int{504, 408}, []string{ledgerapi.RetryTimeout, ledgerapi.RetryTimeout}},
		{[]int{599, 429}, []string{ledgerapi.RetryServerError, ledgerapi.RetryRateLimited}},
	} {
		t.Run(fmt.Sprint(tc.statuses), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newSubRig(t)
				for _, s := range tc.statuses {
					r.h.FailSubmissions(1, s)
				}
				b64 := r.ready()
				out := r.submit(t.Context(), b64)
				wantOutcome(t, out, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitSubmitted, Hash: hashOf(b64), Ledger: 2, Tries: 3})
				r.wantPosts(t, b64, 0, time.Second, 3*time.Second)
				r.wantRetries(t,
					subRetry{time.Second, ledgerapi.SubmitAttempt{Try: 2, Cause: tc.causes[0], Status: tc.statuses[0], Waited: time.Second}},
					subRetry{3 * time.Second, ledgerapi.SubmitAttempt{Try: 3, Cause: tc.causes[1], Status: tc.statuses[1], Waited: 2 * time.Second}},
				)
			})
		})
	}
}

// TestSubmitBackoffCap: the wait doubles from 1 s up to 30 s and stays
// there; Options.SubmitBackoff and SubmitBackoffCap change both ends.
func TestSubmitBackoffCap(t *testing.T) {
	t.Run("default", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			r := newSubRig(t)
			r.h.FailSubmissions(7, http.StatusServiceUnavailable)
			b64 := r.ready()
			out := r.submit(t.Context(), b64)
			wantOutcome(t, out, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitSubmitted, Hash: hashOf(b64), Ledger: 2, Tries: 8})
			// Waits 1, 2, 4, 8, 16, 30, 30.
			r.wantPosts(t, b64, 0, 1*time.Second, 3*time.Second, 7*time.Second, 15*time.Second,
				31*time.Second, 61*time.Second, 91*time.Second)
		})
	})
	t.Run("Options", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			r := newSubRig(t)
			r.s = r.wire.client(100*time.Millisecond, 250*time.Millisecond)
			r.h.FailSubmissions(3, http.StatusInternalServerError)
			b64 := r.ready()
			out := r.submit(t.Context(), b64)
			wantOutcome(t, out, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitSubmitted, Hash: hashOf(b64), Ledger: 2, Tries: 4})
			r.wantPosts(t, b64, 0, 100*time.Millisecond, 300*time.Millisecond, 550*time.Millisecond)
		})
	})
	t.Run("Backoff", func(t *testing.T) {
		s := ledgerapi.New(ledgerapi.Options{})
		var got []time.Duration
		for retry := 1; retry <= 8; retry++ {
			got = append(got, s.Backoff(retry))
		}
		want := []time.Duration{1, 2, 4, 8, 16, 30, 30, 30}
		for i := range want {
			want[i] *= time.Second
		}
		if !slices.Equal(got, want) {
			t.Errorf("Backoff(1…8) = %v, want %v", got, want)
		}
		if d := s.Backoff(10_000); d != 30*time.Second {
			t.Errorf("Backoff(10000) = %v, want the cap", d)
		}
		with := func(initial, limit time.Duration) *ledgerapi.Client {
			return ledgerapi.New(ledgerapi.Options{SubmitBackoff: initial, SubmitBackoffCap: limit})
		}
		if d := with(time.Minute, time.Second).Backoff(3); d != time.Minute {
			t.Errorf("a cap below the first wait: Backoff(3) = %v, want 1m", d)
		}
		if d := with(time.Hour, 1<<62).Backoff(64); d != 1<<62 {
			t.Errorf("a huge cap: Backoff(64) = %v, want the cap", d)
		}
	})
}

// TestSubmitRetryAfter: a 429's or 503's Retry-After (seconds or an HTTP
// date) is waited, at least the backoff and at most its cap.
func TestSubmitRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		name       string
		status     int
		retryAfter func(start time.Time) string
		wait       time.Duration
	}{
		{"seconds", 429, func(time.Time) string { return "7" }, 7 * time.Second},
		{"beyond the cap", 429, func(time.Time) string { return "120" }, 30 * time.Second},
		{"huge", 429, func(time.Time) string { return "99999999999999999999" }, time.Second},
		{"below the backoff", 429, func(time.Time) string { return "0" }, time.Second},
		{"HTTP date", 429, func(s time.Time) string { return s.Add(12 * time.Second).UTC().Format(http.TimeFormat) }, 12 * time.Second},
		{"past date", 429, func(s time.Time) string { return s.Add(-time.Hour).UTC().Format(http.TimeFormat) }, time.Second},
		{"garbage", 429, func(time.Time) string { return "soon" }, time.Second},
		{"503", 503, func(time.Time) string { return "5" }, 5 * time.Second},
		{"500 ignores it", 500, func(time.Time) string { return "5" }, time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newSubRig(t)
				r.wire.retryAfter = tc.retryAfter(r.start)
				if tc.status == 500 {
					// The wire only adds Retry-After to 429 and 503; a 500
					// carrying one is scripted.
					r.wire.retryAfter = ""
					r.wire.then(func(req *http.Request) (*http.Response, error) {
						resp, _ := answer(500, "application/problem+json", `{"type":"server_error","status":500}`)(req)
						resp.Header.Set("Retry-After", "5")
						return resp, nil
					})
				} else {
					r.h.FailSubmissions(1, tc.status)
				}
				b64 := r.ready()
				out := r.submit(t.Context(), b64)
				wantOutcome(t, out, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitSubmitted, Hash: hashOf(b64), Ledger: 2, Tries: 2})
				r.wantPosts(t, b64, 0, tc.wait)
				cause := ledgerapi.RetryServerError
				if tc.status == http.StatusTooManyRequests {
					cause = ledgerapi.RetryRateLimited
				}
				r.wantRetries(t, subRetry{tc.wait, ledgerapi.SubmitAttempt{Try: 2, Cause: cause, Status: tc.status, Waited: tc.wait}})
			})
		})
	}
}

// TestSubmitRefusals: the ledger's refusal ends the submission at once with
// the transaction result code; nothing is retried and nothing changes.
func TestSubmitRefusals(t *testing.T) {
	other := subAccount(42) // unknown to the double
	for _, tc := range []struct {
		name     string
		envelope func(r *subRig) string
		code     string
		ops      []string
	}{
		{"wrong sequence", func(r *subRig) string {
			b64, _ := ledgertest.BuildClose(r.a.Master, subDest, subSeq+4, 0, subPass, r.a.Keys[0], r.a.Keys[1])
			return b64
		}, "tx_bad_seq", nil},
		{"used sequence", func(r *subRig) string {
			b64, _ := ledgertest.BuildClose(r.a.Master, subDest, subSeq-1, 0, subPass, r.a.Keys[0], r.a.Keys[1])
			return b64
		}, "tx_bad_seq", nil},
		{"every signature", func(r *subRig) string {
			b64, _ := ledgertest.BuildClose(r.a.Master, subDest, subSeq, 0, subPass, r.a.Keys...)
			return b64
		}, ledger.TxBadAuthExtra, nil},
		{"one signature", func(r *subRig) string {
			b64, _ := ledgertest.BuildClose(r.a.Master, subDest, subSeq, 0, subPass, r.a.Keys[2])
			return b64
		}, ledger.TxFailed, []string{ledger.OpBadAuth}},
		{"no signature", func(r *subRig) string {
			b64, _ := ledgertest.BuildClose(r.a.Master, subDest, subSeq, 0, subPass)
			return b64
		}, ledger.TxBadAuth, nil},
		{"too late", func(r *subRig) string {
			b64, _ := ledgertest.BuildClose(r.a.Master, subDest, subSeq, r.start.Unix()-1, subPass, r.a.Keys[0], r.a.Keys[1])
			return b64
		}, "tx_too_late", nil},
		{"no source account", func(*subRig) string {
			b64, _ := ledgertest.BuildClose(other.Master, subDest, subSeq, 0, subPass, other.Keys[0], other.Keys[1])
			return b64
		}, ledger.TxNoSourceAccount, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newSubRig(t)
				b64 := tc.envelope(r)
				out := r.submit(t.Context(), b64)
				wantOutcome(t, out, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitFailed, Hash: hashOf(b64), Code: tc.code, OpCodes: tc.ops, Tries: 1})
				r.wantPosts(t, b64, 0)
				r.wantRetries(t)
				if r.elapsed() != 0 {
					t.Errorf("a refusal took %v", r.elapsed())
				}
				if seq, ok := r.h.Sequence(r.a.Address); !ok || seq != subSeq-1 || r.h.Applied() != 0 {
					t.Errorf("a refusal changed the double: sequence %d, %v; applied %d", seq, ok, r.h.Applied())
				}
			})
		})
	}
}

// TestSubmitOtherRefusals: a refusal that is not the ledger's ends the
// submission with the problem's name, or http_<status>; a refusal's text
// never reaches the outcome, and codes that do not look like codes are not
// passed on.
func TestSubmitOtherRefusals(t *testing.T) {
	const secret = "UPSTREAM-SECRET"
	for _, tc := range []struct {
		name    string
		script  subAnswer // nil: the double answers
		feeBump bool
		code    string
		ops     []string
	}{
		{name: "fee-bump whose fee source does not exist", feeBump: true, code: ledger.TxNoSourceAccount},
		{name: "bad request", code: "bad_request",
			script: answer(400, "application/problem+json", `{"type":"https://stellar.org/horizon-errors/bad_request","title":"Bad Request","status":400,"detail":"`+secret+`"}`)},
		{name: "malformed", code: "transaction_malformed",
			script: answer(400, "application/problem+json", `{"type":"https://stellar.org/horizon-errors/transaction_malformed","title":"Transaction Malformed","status":400,"detail":"`+secret+`"}`)},
		{name: "not found, html", code: "http_404",
			script: answer(404, "text/html", "<html>"+secret+"</html>")},
		{name: "hostile problem type", code: "http_400",
			script: answer(400, "application/problem+json", `{"type":"https://x/`+secret+`<script>","status":400,"detail":"`+secret+`"}`)},
		{name: "hostile transaction code", code: ledgerapi.SubmitCodeRefused,
			script: answer(400, "application/problem+json", `{"type":"transaction_failed","status":400,"detail":"`+secret+`",`+
				`"extras":{"result_codes":{"transaction":"TX `+secret+`","operations":["op_success"]}}}`)},
		{name: "hostile operation codes", code: ledger.TxFailed, ops: []string{"op_unknown", "op_success"},
			script: answer(400, "application/problem+json", `{"type":"transaction_failed","status":400,"detail":"`+secret+`",`+
				`"extras":{"result_codes":{"transaction":"tx_failed","operations":["`+secret+`","op_success"]}}}`)},
		{name: "transaction_failed without codes", code: ledgerapi.SubmitCodeRefused,
			script: answer(400, "application/problem+json", `{"type":"https://stellar.org/horizon-errors/transaction_failed","status":400}`)},
		{name: "tx_failed from upstream", code: ledger.TxFailed, ops: []string{"op_success", "op_underfunded"},
			script: answer(400, "application/problem+json", `{"type":"https://stellar.org/horizon-errors/transaction_failed","status":400,`+
				`"extras":{"result_codes":{"transaction":"tx_failed","operations":["op_success","op_underfunded"]}}}`)},
		{name: "an unknown tx code", code: "tx_new_rule",
			script: answer(400, "application/problem+json", `{"type":"https://stellar.org/horizon-errors/transaction_failed","status":400,`+
				`"extras":{"result_codes":{"transaction":"tx_new_rule"}}}`)},
		{name: "payload too large", code: "http_413",
			script: answer(413, "text/plain", secret)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newSubRig(t)
				b64 := r.ready()
				if tc.feeBump {
					b64 = ledgertest.FeeBump(b64, ledgertest.Keypair(98), subPass)
				}
				if tc.script != nil {
					r.wire.then(tc.script)
				}
				out := r.submit(t.Context(), b64)
				wantOutcome(t, out, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitFailed, Hash: hashOf(b64), Code: tc.code, OpCodes: tc.ops, Tries: 1})
				if strings.Contains(out.Reason, secret) || strings.Contains(out.Reason, "<") {
					t.Errorf("reason %q carries the upstream's text", out.Reason)
				}
				r.wantPosts(t, b64, 0)
				r.wantRetries(t)
			})
		})
	}
}

// TestSubmitNothingSent: an envelope that does not decode, a network with
// no usable account API, and a client with no backend fail before any
// POST.
func TestSubmitNothingSent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newSubRig(t)
		b64 := r.ready()
		out := r.submit(t.Context(), "not an envelope")
		wantOutcome(t, out, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitFailed, Code: ledgerapi.SubmitCodeMalformed})

		out = r.s.Submit(t.Context(), ledger.Mainnet, b64, r.observe)
		want := ledgerapi.SubmitOutcome{State: ledgerapi.SubmitFailed, Code: ledgerapi.SubmitCodeUnconfigured}
		want.Hash = fmt.Sprintf("%x", ledgertest.Hash(b64, ledger.Mainnet.Passphrase()))
		wantOutcome(t, out, want)

		out = r.s.Submit(t.Context(), ledger.Network("devnet"), b64, r.observe)
		wantOutcome(t, out, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitFailed, Code: ledgerapi.SubmitCodeUnconfigured})

		bad := ledgerapi.New(ledgerapi.Options{
			Backends: horizon.Backends(map[ledger.Network]string{ledger.Testnet: "ftp://horizon.invalid"}, r.wire),
			Timeout:  subTimeout,
		})
		out = bad.Submit(t.Context(), ledger.Testnet, b64, r.observe)
		wantOutcome(t, out, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitFailed, Hash: hashOf(b64), Code: ledgerapi.SubmitCodeUnconfigured})

		out = ledgerapi.New(ledgerapi.Options{}).Submit(t.Context(), ledger.Testnet, b64, nil)
		wantOutcome(t, out, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitFailed, Hash: hashOf(b64), Code: ledgerapi.SubmitCodeUnconfigured})

		r.wantPosts(t, "")
		r.wantRetries(t)
	})
}

// TestSubmitAbandoned: the context (the plan's expiry) ending stops the
// submission, during a backoff, during a try, or before it starts; the
// outcome says so and carries the context's error.
func TestSubmitAbandoned(t *testing.T) {
	t.Run("during the backoff", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			r := newSubRig(t)
			r.h.FailSubmissions(100, http.StatusServiceUnavailable)
			ctx, cancel := context.WithDeadline(t.Context(), r.start.Add(5*time.Second))
			defer cancel()
			b64 := r.ready()
			out := r.submit(ctx, b64)
			// Tries at 0, 1 s and 3 s; the next would be at 7 s.
			wantOutcome(t, out, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitAbandoned, Hash: hashOf(b64), Tries: 3, Err: context.DeadlineExceeded})
			if r.elapsed() != 5*time.Second {
				t.Errorf("Submit returned after %v, want at the deadline, 5s", r.elapsed())
			}
			r.wantPosts(t, b64, 0, time.Second, 3*time.Second)
			r.wantRetries(t,
				subRetry{time.Second, ledgerapi.SubmitAttempt{Try: 2, Cause: ledgerapi.RetryServerError, Status: 503, Waited: time.Second}},
				subRetry{3 * time.Second, ledgerapi.SubmitAttempt{Try: 3, Cause: ledgerapi.RetryServerError, Status: 503, Waited: 2 * time.Second}},
			)
			if !strings.Contains(out.Reason, "503") {
				t.Errorf("reason %q does not name the last answer", out.Reason)
			}
		})
	})
	t.Run("during a try", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			r := newSubRig(t)
			r.h.StallSubmissions(1)
			ctx, cancel := context.WithDeadline(t.Context(), r.start.Add(4*time.Second))
			defer cancel()
			b64 := r.ready()
			out := r.submit(ctx, b64)
			wantOutcome(t, out, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitAbandoned, Hash: hashOf(b64), Tries: 1, Err: context.DeadlineExceeded})
			if r.elapsed() != 4*time.Second {
				t.Errorf("Submit returned after %v, want at the deadline, 4s", r.elapsed())
			}
			if !strings.Contains(out.Reason, "unknown") {
				t.Errorf("reason %q does not say the try's outcome is unknown", out.Reason)
			}
			r.wantPosts(t, b64, 0)
			r.wantRetries(t)
		})
	})
	t.Run("cancelled first", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			r := newSubRig(t)
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			b64 := r.ready()
			out := r.submit(ctx, b64)
			wantOutcome(t, out, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitAbandoned, Hash: hashOf(b64), Err: context.Canceled})
			r.wantPosts(t, "")
		})
	})
	t.Run("cancelled while waiting", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			r := newSubRig(t)
			r.h.FailSubmissions(1, http.StatusTooManyRequests)
			ctx, cancel := context.WithCancel(t.Context())
			b64 := r.ready()
			done := make(chan ledgerapi.SubmitOutcome)
			go func() { done <- r.submit(ctx, b64) }()
			synctest.Wait() // the first try answered, the backoff under way
			cancel()
			out := <-done
			wantOutcome(t, out, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitAbandoned, Hash: hashOf(b64), Tries: 1, Err: context.Canceled})
			if r.elapsed() != 0 {
				t.Errorf("Submit returned after %v, want at once", r.elapsed())
			}
			r.wantRetries(t)
		})
	})
}

// TestSubmitDroppedAnswer: the ledger takes the transaction but the answer
// is lost (the try times out); the retry of the same envelope gets the
// stored success: one transaction applied, one outcome.
func TestSubmitDroppedAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newSubRig(t)
		r.h.DropAnswers(1)
		b64 := r.ready()
		out := r.submit(t.Context(), b64)
		wantOutcome(t, out, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitSubmitted, Hash: hashOf(b64), Ledger: 2, Tries: 2})
		r.wantPosts(t, b64, 0, 11*time.Second)
		r.wantRetries(t, subRetry{11 * time.Second, ledgerapi.SubmitAttempt{Try: 2, Cause: ledgerapi.RetryTimeout, Waited: time.Second}})
		if r.h.Submissions() != 2 || r.h.Applied() != 1 {
			t.Errorf("the double saw %d submissions and applied %d, want 2 and 1", r.h.Submissions(), r.h.Applied())
		}
	})
}

// TestSubmitNoAnswer: a transport error, and a 2xx that does not parse, is
// too large, or names another transaction, are retried (the transaction may
// have been taken; sending it again is safe).
func TestSubmitNoAnswer(t *testing.T) {
	other := func(r *subRig) string {
		b64, _ := ledgertest.BuildClose(r.a.Master, subDest, subSeq+9, 0, subPass)
		return hashOf(b64)
	}
	for _, tc := range []struct {
		name   string
		script func(r *subRig) subAnswer
		cause  string
		status int
	}{
		{"transport error", func(*subRig) subAnswer { return transportError }, ledgerapi.RetryUnreachable, 0},
		{"not json", func(*subRig) subAnswer { return answer(200, "application/hal+json", "<html>ok</html>") }, ledgerapi.RetryBadAnswer, 200},
		{"another transaction", func(r *subRig) subAnswer {
			return answer(200, "application/hal+json", `{"hash":"`+other(r)+`","ledger":7,"successful":true}`)
		}, ledgerapi.RetryBadAnswer, 200},
		{"no ledger", func(r *subRig) subAnswer {
			return answer(200, "application/hal+json", `{"hash":"`+hashOf(r.ready())+`","successful":true}`)
		}, ledgerapi.RetryBadAnswer, 200},
		{"too large", func(*subRig) subAnswer {
			return answer(200, "application/hal+json", `{"hash":"`+strings.Repeat("a", 5<<20)+`"}`)
		}, ledgerapi.RetryBadAnswer, 200},
		{"5xx not json", func(*subRig) subAnswer { return answer(502, "text/html", "<html>bad gateway</html>") }, ledgerapi.RetryServerError, 502},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newSubRig(t)
				r.wire.then(tc.script(r))
				b64 := r.ready()
				out := r.submit(t.Context(), b64)
				wantOutcome(t, out, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitSubmitted, Hash: hashOf(b64), Ledger: 2, Tries: 2})
				r.wantPosts(t, b64, 0, time.Second)
				r.wantRetries(t, subRetry{time.Second, ledgerapi.SubmitAttempt{Try: 2, Cause: tc.cause, Status: tc.status, Waited: time.Second}})
			})
		})
	}
}

// TestSubmitRecordedFailure: a 200 that says the transaction failed in the
// ledger is final.
func TestSubmitRecordedFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newSubRig(t)
		b64 := r.ready()
		r.wire.then(answer(200, "application/hal+json", `{"hash":"`+hashOf(b64)+`","ledger":9,"successful":false}`))
		out := r.submit(t.Context(), b64)
		wantOutcome(t, out, ledgerapi.SubmitOutcome{State: ledgerapi.SubmitFailed, Hash: hashOf(b64), Code: ledger.TxFailed, Tries: 1})
		r.wantPosts(t, b64, 0)
	})
}

// TestSubmitConcurrent: one Submitter serves many submissions at once, each
// with its own retries.
func TestSubmitConcurrent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newSubRig(t)
		const n = 20
		envelopes := make([]string, n)
		for i := range envelopes {
			a := subAccount(100 + i)
			r.h.AddAccount(a)
			envelopes[i], _ = ledgertest.BuildClose(a.Master, subDest, subSeq, 0, subPass, a.Keys[0], a.Keys[1])
		}
		// Every first try meets a 503 (all are sent at 0, before any retry).
		r.h.FailSubmissions(n, http.StatusServiceUnavailable)
		outs := make([]ledgerapi.SubmitOutcome, n)
		var wg sync.WaitGroup
		for i, b64 := range envelopes {
			wg.Go(func() { outs[i] = r.submit(t.Context(), b64) })
		}
		wg.Wait()
		ledgers := map[int]bool{}
		for i, out := range outs {
			if out.State != ledgerapi.SubmitSubmitted || out.Hash != hashOf(envelopes[i]) || out.Tries != 2 || ledgers[out.Ledger] {
				t.Errorf("submission %d: %+v", i, out)
			}
			ledgers[out.Ledger] = true
		}
		if r.h.Applied() != n || r.h.Submissions() != 2*n || len(r.retries) != n || r.elapsed() != time.Second {
			t.Errorf("applied %d, %d submissions, %d retries, after %v; want %d, %d, %d, 1s",
				r.h.Applied(), r.h.Submissions(), len(r.retries), r.elapsed(), n, 2*n, n)
		}
	})
}
