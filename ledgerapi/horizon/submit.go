package horizon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
)

// transaction is the part of Horizon's transaction resource the relay
// reads, with the field types of the SDK's protocols/horizon.Transaction.
type transaction struct {
	Hash       string `json:"hash"`
	Ledger     int32  `json:"ledger"`
	Successful bool   `json:"successful"`
}

// problem is a non-2xx answer that carries Horizon's problem JSON (the
// SDK's problem.P).
type problem struct {
	body struct {
		Type   string                     `json:"type"`
		Title  string                     `json:"title"`
		Status int                        `json:"status"`
		Detail string                     `json:"detail,omitempty"`
		Extras map[string]json.RawMessage `json:"extras,omitempty"`
	}
}

func (p *problem) Error() string { return "horizon problem " + p.body.Type }

// resultCodes is a transaction_failed problem's extras.result_codes.
type resultCodes struct {
	Transaction string   `json:"transaction"`
	Operations  []string `json:"operations,omitempty"`
}

// Send implements ledgerapi.Backend with POST /transactions (form field
// tx), and classifies the answer: the ledger's outcome, or why to retry.
// ctx carries the try's timeout; a try cut short by the caller's own
// context is told apart by the caller.
func (b *Backend) Send(ctx context.Context, envelopeXDR, hash string) ledgerapi.Try {
	form := url.Values{}
	form.Set("tx", envelopeXDR)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.base+"/transactions", strings.NewReader(form.Encode()))
	if err != nil {
		return ledgerapi.Try{Cause: ledgerapi.RetryUnreachable}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")

	var tx transaction
	status, header, err := b.do(req, &tx)
	var retryAfter time.Duration
	if status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable {
		retryAfter = parseRetryAfter(header.Get("Retry-After"), time.Now())
	}
	var p *problem
	errors.As(err, &p)
	if err == nil {
		switch {
		case !strings.EqualFold(tx.Hash, hash) || tx.Ledger <= 0:
			return ledgerapi.Try{Cause: ledgerapi.RetryBadAnswer, Status: status}
		case !tx.Successful:
			out := ledgerapi.Refused(hash, ledger.TxFailed, nil)
			out.Reason = "the ledger recorded the transaction as failed"
			return ledgerapi.Try{Outcome: &out}
		}
		out := ledgerapi.SubmitOutcome{State: ledgerapi.SubmitSubmitted, Hash: hash, Ledger: int(tx.Ledger)}
		return ledgerapi.Try{Outcome: &out}
	}

	if status != 0 {
		if r, retry := retryable(status); retry {
			r.RetryAfter = retryAfter
			return r
		}
	}
	switch {
	case p != nil:
		return ledgerapi.Try{Outcome: refusal(hash, p, status)}
	case ctx.Err() != nil, ledgerapi.IsTimeout(err):
		return ledgerapi.Try{Cause: ledgerapi.RetryTimeout}
	case status >= 200 && status <= 299:
		// The body did not parse, or was larger than the cap.
		return ledgerapi.Try{Cause: ledgerapi.RetryBadAnswer, Status: status}
	case status != 0:
		// A refusal whose body is not a problem.
		out := ledgerapi.Failed(fmt.Sprintf("http_%d", status), fmt.Sprintf("the account API refused the submission with status %d", status))
		out.Hash = hash
		return ledgerapi.Try{Outcome: &out}
	}
	return ledgerapi.Try{Cause: ledgerapi.RetryUnreachable}
}

// retryable reports whether status is retried, and why.
func retryable(status int) (ledgerapi.Try, bool) {
	switch {
	case status == http.StatusRequestTimeout, status == http.StatusGatewayTimeout:
		return ledgerapi.Try{Cause: ledgerapi.RetryTimeout, Status: status}, true
	case status == http.StatusTooManyRequests:
		return ledgerapi.Try{Cause: ledgerapi.RetryRateLimited, Status: status}, true
	case status >= 500 && status <= 599:
		return ledgerapi.Try{Cause: ledgerapi.RetryServerError, Status: status}, true
	}
	return ledgerapi.Try{}, false
}

// refusal is the outcome of a refusal (a non-2xx status not retried) that
// came with Horizon's problem JSON.
func refusal(hash string, p *problem, status int) *ledgerapi.SubmitOutcome {
	kind := problemName(p.body.Type)
	if kind == ledgerapi.SubmitCodeRefused {
		code := ledgerapi.SubmitCodeRefused
		var ops []string
		if raw, ok := p.body.Extras["result_codes"]; ok {
			var rc resultCodes
			if json.Unmarshal(raw, &rc) == nil {
				if c, ok := resultCode(rc.Transaction); ok {
					code = c
				}
				ops = opCodes(rc.Operations)
			}
		}
		out := ledgerapi.Refused(hash, code, ops)
		return &out
	}
	code := kind
	if code == "" {
		code = fmt.Sprintf("http_%d", status)
	}
	out := ledgerapi.Failed(code, fmt.Sprintf("the account API refused the submission with status %d (%s)", status, code))
	out.Hash = hash
	return &out
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

// ParseRetryAfter is parseRetryAfter, for the Stellar RPC backend, which
// honours Retry-After the same way.
func ParseRetryAfter(v string, now time.Time) time.Duration { return parseRetryAfter(v, now) }

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
