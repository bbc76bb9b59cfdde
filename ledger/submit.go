package ledger

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/stellar/go-stellar-sdk/clients/horizonclient"
)

// The backoff between submission tries when Submitter.WithBackoff is never
// given other values: the first retry waits DefaultSubmitBackoff, each
// following one twice as long, never more than DefaultSubmitBackoffCap.
const (
	DefaultSubmitBackoff    = time.Second
	DefaultSubmitBackoffCap = 30 * time.Second
)

// SubmitState is how a submission ended. Submitted and failed are the
// CONTRACT section 10 states of the same names; abandoned is not one: the
// submitter gave up without an answer, which happens only when its context
// ends (the plan's expiry, or the relay stopping).
type SubmitState string

// The states a submission ends in.
const (
	SubmitSubmitted SubmitState = "submitted"
	SubmitFailed    SubmitState = "failed"
	SubmitAbandoned SubmitState = "abandoned"
)

// Codes of failed submissions that the ledger did not give. The ledger's own
// refusals carry its transaction result code (tx_bad_seq, tx_failed, …), and
// other refusals of the account API the last segment of its problem type
// (bad_request, transaction_malformed, …) or, when it has none we can use,
// "http_" and the status (http_404).
const (
	// SubmitCodeUnconfigured: no usable account API URL for the network;
	// nothing was sent.
	SubmitCodeUnconfigured = "no_account_api"
	// SubmitCodeMalformed: the envelope does not decode or hash, checked
	// before anything is sent. The account API names its own refusal of an
	// envelope the same way.
	SubmitCodeMalformed = "transaction_malformed"
	// SubmitCodeRefused: a transaction_failed problem whose transaction
	// result code is missing or not one we can pass on.
	SubmitCodeRefused = "transaction_failed"
)

// Why a try is retried (SubmitAttempt.Cause).
const (
	RetryTimeout     = "timeout"      // no answer within the timeout, or 408 / 504
	RetryRateLimited = "rate_limited" // 429
	RetryServerError = "server_error" // another 5xx
	RetryUnreachable = "unreachable"  // a transport error: no answer at all
	RetryBadAnswer   = "bad_answer"   // a 2xx that does not parse or is not this transaction's
)

// SubmitOutcome is how one Submit ended.
type SubmitOutcome struct {
	State SubmitState
	// Hash is the transaction hash (lower-case hex) under the network's
	// passphrase, computed here; "" only when the envelope does not hash.
	Hash string
	// Ledger is, when submitted, the ledger the transaction closed in.
	Ledger int
	// Code is, when failed, the transaction result code for a ledger
	// refusal (for example tx_bad_seq, tx_bad_auth_extra, tx_failed), or one
	// of the codes named beside SubmitCodeUnconfigured.
	Code string
	// OpCodes is, for tx_failed, each operation's result code in order, as
	// the account API lists them.
	OpCodes []string
	// Reason is, when failed or abandoned, a sentence of ours that says why.
	// It never carries the upstream's text, so it may be shown to anyone.
	Reason string
	// Tries is the number of POSTs sent; 0 when nothing was sent.
	Tries int
	// Err is, when abandoned, the error of the context that ended:
	// context.DeadlineExceeded at the plan's expiry, context.Canceled when
	// the caller stopped.
	Err error
}

// SubmitAttempt describes one retry, handed to Submit's observe just before
// the retry is sent (so a retry that the context's end prevents is not
// observed).
type SubmitAttempt struct {
	Try    int           // the number of the try about to be sent: 2 for the first retry
	Cause  string        // why the previous try is retried: one of the Retry… constants
	Status int           // the previous try's HTTP status; 0 when it had no answer
	Waited time.Duration // the backoff just waited
}

// Submitter posts submit-ready envelopes to each network's account API host
// (Horizon's POST /transactions), through the endpoints, HTTP clients and
// timeout of the AccountClient it comes from (AccountClient.Submitter).
//
// It is a small value, safe for concurrent use, and starts no goroutine:
// Submit runs on its caller's goroutine until it has an outcome. It does not
// take the AccountClient's concurrency slots: a submission can legitimately
// stall for a whole timeout on each try (Horizon waits for the ledger to
// close) while reads are fast, and publishes must not queue behind it. At
// most one submission runs per ready plan, which bounds them.
//
// The zero Submitter has no account API: every Submit fails with
// SubmitCodeUnconfigured.
type Submitter struct {
	c          *AccountClient
	backoff    time.Duration // the first retry's wait; 0 is DefaultSubmitBackoff
	backoffCap time.Duration // the longest wait; 0 is DefaultSubmitBackoffCap
}

// Submitter returns a Submitter that posts to c's per-network URLs through
// c's HTTP clients (the transport set with WithTransport included), each try
// bounded by c's timeout (HORIZON_TIMEOUT). Configure c before taking it.
func (c *AccountClient) Submitter() Submitter { return Submitter{c: c} }

// WithBackoff returns s with another backoff: the first retry waits
// initial, each following one twice as long as the one before, never more
// than limit. initial <= 0 is DefaultSubmitBackoff, limit <= 0
// DefaultSubmitBackoffCap, and limit is at least initial.
func (s Submitter) WithBackoff(initial, limit time.Duration) Submitter {
	s.backoff, s.backoffCap = max(initial, 0), max(limit, 0)
	return s
}

// Backoff is the wait before retry number retry (1 for the first retry, the
// second try), without any Retry-After: initial doubled retry-1 times, at
// most the cap.
func (s Submitter) Backoff(retry int) time.Duration {
	initial, limit := s.policy()
	d := initial
	for i := 1; i < retry && d < limit; i++ {
		if d > limit/2 {
			d = limit
		} else {
			d *= 2
		}
	}
	return min(d, limit)
}

func (s Submitter) policy() (initial, limit time.Duration) {
	initial, limit = s.backoff, s.backoffCap
	if initial <= 0 {
		initial = DefaultSubmitBackoff
	}
	if limit <= 0 {
		limit = DefaultSubmitBackoffCap
	}
	return initial, max(limit, initial)
}

// Submit posts envelopeXDR (standard base64, a classic or fee-bump envelope)
// to network n's account API and returns how that ended. Each try is bounded
// by the timeout; the same envelope is sent again, after the backoff, when a
// try times out, is answered 408, 429 or 5xx, gets no answer at all, or gets
// a 2xx that does not parse or names another transaction. A 429 or 503 that
// carries Retry-After waits at least that long (never more than the
// backoff's cap). Sending the same envelope again is safe: the ledger takes
// a transaction once, and the account API answers a transaction it already
// has with its success.
//
// Submit returns when:
//   - the account API answers success: SubmitSubmitted with Hash and Ledger;
//   - it answers the ledger's refusal (400 transaction_failed): SubmitFailed
//     with Code the transaction result code and, for tx_failed, OpCodes;
//   - it refuses the request otherwise (another 4xx): SubmitFailed with
//     Code the problem type's name, or http_<status>;
//   - nothing can be sent (no usable URL for n, an envelope that does not
//     decode): SubmitFailed with Tries 0 and a code named beside
//     SubmitCodeUnconfigured;
//   - ctx ends first, while waiting or during a try (whose outcome is then
//     unknown): SubmitAbandoned with Err ctx's error. The caller passes a ctx
//     that ends at the plan's expiry.
//
// observe, unless nil, is called on Submit's goroutine just before each
// retry is sent, for closerelay_submissions_total{result="retried"}.
func (s Submitter) Submit(ctx context.Context, n Network, envelopeXDR string, observe func(SubmitAttempt)) SubmitOutcome {
	env, err := DecodeEnvelope(envelopeXDR)
	if err != nil {
		return failed(SubmitCodeMalformed, "the envelope does not decode")
	}
	if n.Passphrase() == "" {
		return failed(SubmitCodeUnconfigured, fmt.Sprintf("%q is not a network", string(n)))
	}
	hash, err := HashEnvelope(env, n.Passphrase())
	if err != nil {
		return failed(SubmitCodeMalformed, "the envelope has no transaction hash")
	}
	var ep *endpoint
	if s.c != nil {
		ep = s.c.endpoints[n]
	}
	if ep == nil || ep.invalid != "" {
		out := failed(SubmitCodeUnconfigured, fmt.Sprintf("no account API is configured for network %q", string(n)))
		out.Hash = hex.EncodeToString(hash[:])
		return out
	}
	sub := submission{
		ep:      ep,
		timeout: s.c.timeout,
		xdr:     envelopeXDR,
		hash:    hex.EncodeToString(hash[:]),
	}
	_, limit := s.policy()

	var last tryResult
	for try := 1; ; try++ {
		var wait time.Duration
		if try > 1 {
			wait = s.Backoff(try - 1)
			if last.retryAfter > 0 {
				wait = min(max(wait, last.retryAfter), limit)
			}
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
			}
		}
		if ctx.Err() != nil {
			if try == 1 {
				return sub.abandoned(ctx, 0, "the submission was given up before the first try")
			}
			return sub.abandoned(ctx, try-1, "the submission was given up while waiting to retry after "+last.describe())
		}
		if try > 1 && observe != nil {
			observe(SubmitAttempt{Try: try, Cause: last.cause, Status: last.status, Waited: wait})
		}
		last = sub.try(ctx)
		switch {
		case last.out != nil:
			last.out.Tries = try
			return *last.out
		case ctx.Err() != nil:
			return sub.abandoned(ctx, try, "the submission was given up during a try; whether the ledger took the transaction is unknown")
		}
	}
}

// submission is one Submit's fixed inputs.
type submission struct {
	ep      *endpoint
	timeout time.Duration
	xdr     string // the envelope, sent unchanged on every try
	hash    string // its transaction hash, lower-case hex
}

// tryResult is one try: its outcome, or why it is to be retried.
type tryResult struct {
	out        *SubmitOutcome // final; nil to retry
	cause      string         // a Retry… constant, when out is nil
	status     int            // the answer's status; 0 for none
	retryAfter time.Duration  // from a 429's or 503's Retry-After; 0 when none
}

func (r tryResult) describe() string {
	switch r.cause {
	case RetryTimeout:
		if r.status != 0 {
			return fmt.Sprintf("a timeout (status %d)", r.status)
		}
		return "a timeout"
	case RetryRateLimited:
		return "a rate limit (status 429)"
	case RetryServerError:
		return fmt.Sprintf("a server error (status %d)", r.status)
	case RetryBadAnswer:
		return "an answer that does not parse"
	}
	return "a transport error"
}

func (sub submission) abandoned(ctx context.Context, tries int, reason string) SubmitOutcome {
	return SubmitOutcome{State: SubmitAbandoned, Hash: sub.hash, Reason: reason, Tries: tries, Err: ctx.Err()}
}

func failed(code, reason string) SubmitOutcome {
	return SubmitOutcome{State: SubmitFailed, Code: code, Reason: reason}
}

// try posts the envelope once, bounded by the timeout, and classifies the
// answer. The caller tells a try cut short by ctx from a timeout.
func (sub submission) try(ctx context.Context) tryResult {
	ctx, cancel := context.WithTimeout(ctx, sub.timeout)
	defer cancel()
	// As in AccountClient.read: the SDK puts a context.Background-derived
	// context on each request, so the per-try doer puts ctx back.
	doer := &submitDoer{HorizonDoer: HorizonDoer{Ctx: ctx, Client: sub.ep.http}}
	hc := &horizonclient.Client{HorizonURL: sub.ep.url, HTTP: doer}
	hc.SetHorizonTimeout(sub.timeout)

	tx, err := hc.SubmitTransactionXDR(sub.xdr)
	status := doer.Status
	if err == nil {
		switch {
		case !strings.EqualFold(tx.Hash, sub.hash) || tx.Ledger <= 0:
			return tryResult{cause: RetryBadAnswer, status: status}
		case !tx.Successful:
			out := sub.refused(TxFailed, nil)
			out.Reason = "the ledger recorded the transaction as failed"
			return tryResult{out: &out}
		}
		out := SubmitOutcome{State: SubmitSubmitted, Hash: sub.hash, Ledger: int(tx.Ledger)}
		return tryResult{out: &out}
	}

	if status != 0 {
		if r, retry := retryable(status); retry {
			r.retryAfter = doer.retryAfter
			return r
		}
	}
	var herr *horizonclient.Error
	switch {
	case errors.As(err, &herr) && status != 0:
		return tryResult{out: sub.problem(herr, status)}
	case ctx.Err() != nil, isTimeout(err):
		return tryResult{cause: RetryTimeout}
	case status >= 200 && status <= 299:
		// The body did not parse, or was larger than the cap.
		return tryResult{cause: RetryBadAnswer, status: status}
	case status != 0:
		// A refusal whose body is not a problem.
		out := failed(fmt.Sprintf("http_%d", status), fmt.Sprintf("the account API refused the submission with status %d", status))
		out.Hash = sub.hash
		return tryResult{out: &out}
	}
	return tryResult{cause: RetryUnreachable}
}

// retryable reports whether status is retried, and why.
func retryable(status int) (tryResult, bool) {
	switch {
	case status == http.StatusRequestTimeout, status == http.StatusGatewayTimeout:
		return tryResult{cause: RetryTimeout, status: status}, true
	case status == http.StatusTooManyRequests:
		return tryResult{cause: RetryRateLimited, status: status}, true
	case status >= 500 && status <= 599:
		return tryResult{cause: RetryServerError, status: status}, true
	}
	return tryResult{}, false
}

// problem is the outcome of a refusal (a non-2xx status not retried) that
// came with Horizon's problem JSON.
func (sub submission) problem(herr *horizonclient.Error, status int) *SubmitOutcome {
	kind := problemName(herr.Problem.Type)
	if kind == SubmitCodeRefused {
		code := SubmitCodeRefused
		var ops []string
		if rc, err := herr.ResultCodes(); err == nil {
			if c, ok := resultCode(rc.TransactionCode); ok {
				code = c
			}
			ops = opCodes(rc.OperationCodes)
		}
		out := sub.refused(code, ops)
		return &out
	}
	code := kind
	if code == "" {
		code = fmt.Sprintf("http_%d", status)
	}
	out := failed(code, fmt.Sprintf("the account API refused the submission with status %d (%s)", status, code))
	out.Hash = sub.hash
	return &out
}

// refused is the outcome of the ledger's refusal with transaction result
// code code and operation codes ops.
func (sub submission) refused(code string, ops []string) SubmitOutcome {
	out := failed(code, refusalReason(code, ops))
	out.Hash = sub.hash
	if code == TxFailed {
		out.OpCodes = ops
	}
	return out
}

// problemName is the last segment of a problem type
// (https://stellar.org/horizon-errors/transaction_failed → transaction_failed),
// or "" when it is not a plain name.
func problemName(typ string) string {
	if i := strings.LastIndexByte(typ, '/'); i >= 0 {
		typ = typ[i+1:]
	}
	name, _ := resultCode(typ)
	return name
}

// resultCode passes on s when it looks like a result code or problem name:
// 1 to 64 of a-z, 0-9 and _. Anything else from the upstream is not echoed.
func resultCode(s string) (string, bool) {
	if s == "" || len(s) > 64 {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return "", false
		}
	}
	return s, true
}

// maxOps is the most operations a transaction has.
const maxOps = 100

// opCodes is the operations' result codes as passed on: at most maxOps, and
// op_unknown for one that does not look like a code.
func opCodes(in []string) []string {
	if len(in) == 0 {
		return nil
	}
	out := make([]string, 0, min(len(in), maxOps))
	for _, c := range in[:min(len(in), maxOps)] {
		if c, ok := resultCode(c); ok {
			out = append(out, c)
		} else {
			out = append(out, "op_unknown")
		}
	}
	return out
}

// txReasons says what a transaction result code means, in our words.
var txReasons = map[string]string{
	"tx_bad_seq":                "the transaction's sequence number is not the source account's next one",
	TxBadAuth:                   "the signatures do not reach the source account's threshold",
	TxBadAuthExtra:              "the envelope carries a signature that the ledger's checks did not use",
	"tx_too_early":              "the transaction's time bounds have not begun",
	"tx_too_late":               "the transaction's time bounds have passed",
	TxNoSourceAccount:           "the transaction's source account does not exist",
	"tx_insufficient_fee":       "the transaction's fee is below what the network asks now",
	"tx_insufficient_balance":   "the fee would take the source account below its reserve",
	"tx_missing_operation":      "the transaction has no operation",
	"tx_bad_min_seq_age_or_gap": "the transaction's sequence preconditions are not met",
	"tx_bad_sponsorship":        "the transaction leaves a sponsorship open",
	"tx_malformed":              "the transaction is malformed",
	"tx_not_supported":          "the network does not support this transaction",
	"tx_internal_error":         "the ledger failed internally",
	SubmitCodeRefused:           "the ledger refused the transaction; the account API did not say why",
}

func refusalReason(code string, ops []string) string {
	if code == TxFailed {
		for i, op := range ops {
			if op != OpSuccess {
				return fmt.Sprintf("operation %d failed with %s", i+1, op)
			}
		}
		return "an operation failed"
	}
	if r, ok := txReasons[code]; ok {
		return r
	}
	return "the ledger refused the transaction (" + code + ")"
}

// submitDoer is HorizonDoer that also keeps a 429's or 503's Retry-After.
// SubmitTransactionXDR sends through Do only.
type submitDoer struct {
	HorizonDoer
	retryAfter time.Duration
}

// Do implements horizonclient.HTTP.
func (d *submitDoer) Do(req *http.Request) (*http.Response, error) {
	resp, err := d.HorizonDoer.Do(req)
	if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		d.retryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	}
	return resp, err
}

// parseRetryAfter reads Retry-After (seconds, or an HTTP date) as a wait
// from now; 0 when absent, unreadable or past.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseUint(v, 10, 64); err == nil {
		// Beyond a day is beyond any cap; keep the product in range.
		return time.Duration(min(secs, 24*60*60)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0)
	}
	return 0
}
