package rpc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/closerelay/closerelay/ledgerapi/horizon"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The wait between getTransaction polls: short at first (a loopback node,
// or a ledger about to close), doubling to about a fifth of a ledger's
// close time, so that a try learns its outcome soon after the ledger closes
// without polling a busy node many times a second.
const (
	firstPoll = 50 * time.Millisecond
	maxPoll   = time.Second
)

// JSON-RPC error codes read by Send.
const (
	codeInvalidParams = -32602 // the envelope does not decode: RPC's refusal of it
	codeInternal      = -32603 // the node failed: retried as a 5xx is
)

type sendAnswer struct {
	Status         string `json:"status"`
	Hash           string `json:"hash"`
	ErrorResultXDR string `json:"errorResultXdr"`
}

type txAnswer struct {
	Status    string `json:"status"`
	Ledger    uint32 `json:"ledger"`
	ResultXDR string `json:"resultXdr"`
}

// Send implements ledgerapi.Backend: sendTransaction, then getTransaction
// until the ledger's outcome (SUCCESS or FAILED) or ctx's end. Its
// outcomes are the Horizon backend's for the same ledger answer: success
// with the ledger; the ledger's refusal with the transaction result code
// (from errorResultXdr or resultXdr, spelled as Horizon spells it) and,
// for tx_failed, the operations' codes; a retry for TRY_AGAIN_LATER, a
// timeout, a 408, 429 or 5xx, no answer, or an answer that does not parse.
// DUPLICATE (the node has the transaction already: an earlier try's)
// is followed like PENDING.
func (b *Backend) Send(ctx context.Context, envelopeXDR, hash string) ledgerapi.Try {
	var sent sendAnswer
	status, err := b.call(ctx, "sendTransaction", struct {
		Transaction string `json:"transaction"`
	}{envelopeXDR}, &sent)
	if err != nil {
		return failedCall(ctx, err, status, hash)
	}
	if !strings.EqualFold(sent.Hash, hash) {
		return ledgerapi.Try{Cause: ledgerapi.RetryBadAnswer, Status: status}
	}
	switch sent.Status {
	case "PENDING", "DUPLICATE":
		return b.await(ctx, hash)
	case "TRY_AGAIN_LATER":
		return ledgerapi.Try{Cause: ledgerapi.RetryTryAgainLater, Status: status}
	case "ERROR":
		out := refusal(hash, sent.ErrorResultXDR)
		return ledgerapi.Try{Outcome: &out}
	}
	return ledgerapi.Try{Cause: ledgerapi.RetryBadAnswer, Status: status}
}

// await polls getTransaction for hash until its outcome, a failed poll
// (retried as a whole try: sending again answers DUPLICATE), or ctx's end.
func (b *Backend) await(ctx context.Context, hash string) ledgerapi.Try {
	wait := firstPoll
	for {
		var tx txAnswer
		status, err := b.call(ctx, "getTransaction", struct {
			Hash string `json:"hash"`
		}{hash}, &tx)
		if err != nil {
			return failedCall(ctx, err, status, hash)
		}
		switch tx.Status {
		case "SUCCESS":
			if tx.Ledger == 0 || tx.Ledger > 1<<31-1 {
				return ledgerapi.Try{Cause: ledgerapi.RetryBadAnswer, Status: status}
			}
			out := ledgerapi.SubmitOutcome{State: ledgerapi.SubmitSubmitted, Hash: hash, Ledger: int(tx.Ledger)}
			return ledgerapi.Try{Outcome: &out}
		case "FAILED":
			out := refusal(hash, tx.ResultXDR)
			return ledgerapi.Try{Outcome: &out}
		case "NOT_FOUND":
		default:
			return ledgerapi.Try{Cause: ledgerapi.RetryBadAnswer, Status: status}
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ledgerapi.Try{Cause: ledgerapi.RetryTimeout}
		}
		wait = min(2*wait, maxPoll)
	}
}

// refusal is the outcome of the ledger's refusal whose TransactionResult is
// resultXDR; SubmitCodeRefused when it is missing or does not decode, as
// the Horizon backend answers a refusal without result codes.
func refusal(hash, resultXDR string) ledgerapi.SubmitOutcome {
	var tr xdr.TransactionResult
	if resultXDR == "" || xdr.SafeUnmarshalBase64(resultXDR, &tr) != nil {
		return ledgerapi.Refused(hash, ledgerapi.SubmitCodeRefused, nil)
	}
	code, ops := ledger.TxResultCodes(tr)
	if code == "tx_success" || code == "tx_fee_bump_inner_success" {
		// A refusal that says success is not one we can pass on.
		code = ledgerapi.SubmitCodeRefused
	}
	return ledgerapi.Refused(hash, code, ops)
}

// failedCall is the Try of a call that got no JSON-RPC result.
func failedCall(ctx context.Context, err error, status int, hash string) ledgerapi.Try {
	var re *rpcError
	switch {
	case status != 0 && (status < 200 || status > 299):
		if t, ok := retryable(status); ok {
			// As the Horizon backend: a 429's or 503's Retry-After is the
			// least wait before the next try.
			var se *statusError
			if (status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable) && errors.As(err, &se) {
				t.RetryAfter = horizon.ParseRetryAfter(se.retryAfter, time.Now())
			}
			return t
		}
		out := ledgerapi.Failed(fmt.Sprintf("http_%d", status), fmt.Sprintf("the account API refused the submission with status %d", status))
		out.Hash = hash
		return ledgerapi.Try{Outcome: &out}
	case errors.As(err, &re) && re.Code == codeInvalidParams:
		out := ledgerapi.Failed(ledgerapi.SubmitCodeMalformed, "the account API refused the envelope as malformed")
		out.Hash = hash
		return ledgerapi.Try{Outcome: &out}
	case errors.As(err, &re) && re.Code == codeInternal:
		return ledgerapi.Try{Cause: ledgerapi.RetryServerError, Status: status}
	case errors.As(err, &re):
		out := ledgerapi.Failed(ledgerapi.SubmitCodeRPCError, fmt.Sprintf("the account API refused the submission with JSON-RPC error %d", re.Code))
		out.Hash = hash
		return ledgerapi.Try{Outcome: &out}
	case ctx.Err() != nil, ledgerapi.IsTimeout(err):
		return ledgerapi.Try{Cause: ledgerapi.RetryTimeout}
	case status != 0:
		return ledgerapi.Try{Cause: ledgerapi.RetryBadAnswer, Status: status}
	}
	return ledgerapi.Try{Cause: ledgerapi.RetryUnreachable}
}

// retryable reports whether status is retried, and why: the Horizon
// backend's rule (section 10).
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
