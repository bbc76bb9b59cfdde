package ledgerapi

import (
	"context"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/closerelay/closerelay/ledger"
)

// The backoff between submission tries when Options.SubmitBackoff and
// SubmitBackoffCap are not set: the first retry waits DefaultSubmitBackoff,
// each following one twice as long, never more than DefaultSubmitBackoffCap.
const (
	DefaultSubmitBackoff    = time.Second
	DefaultSubmitBackoffCap = 30 * time.Second
)

// SubmitState is how a submission ended. Submitted and failed are the
// CONTRACT section 10 states of the same names; abandoned is not one: the
// client gave up without an answer, which happens only when its context
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
// other refusals of the ledger API the last segment of its problem type
// (bad_request, transaction_malformed, …) or, when it has none we can use,
// "http_" and the status (http_404).
const (
	// SubmitCodeUnconfigured: no usable ledger API for the network; nothing
	// was sent.
	SubmitCodeUnconfigured = "no_account_api"
	// SubmitCodeMalformed: the envelope does not decode or hash, checked
	// before anything is sent. The account API names its own refusal of an
	// envelope the same way.
	SubmitCodeMalformed = "transaction_malformed"
	// SubmitCodeRefused: a transaction_failed problem whose transaction
	// result code is missing or not one we can pass on.
	SubmitCodeRefused = "transaction_failed"
	// SubmitCodeRPCError: Stellar RPC refused the call with a JSON-RPC
	// error other than invalid params (the envelope's) or internal
	// (retried).
	SubmitCodeRPCError = "rpc_error"
)

// Why a try is retried (Try.Cause, SubmitAttempt.Cause).
const (
	RetryTimeout     = "timeout"      // no answer within the timeout, or 408 / 504
	RetryRateLimited = "rate_limited" // 429
	RetryServerError = "server_error" // another 5xx
	RetryUnreachable = "unreachable"  // a transport error: no answer at all
	RetryBadAnswer   = "bad_answer"   // a 2xx that does not parse or is not this transaction's
	// RetryTryAgainLater: Stellar RPC's sendTransaction answered
	// TRY_AGAIN_LATER (its core is too busy to take it now), retried as a
	// rate limit is.
	RetryTryAgainLater = "try_again_later"
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
	// the ledger API lists them.
	OpCodes []string
	// Reason is, when failed or abandoned, a sentence of ours that says why.
	// It never carries the upstream's text, so it may be shown to anyone.
	Reason string
	// Tries is the number of tries sent; 0 when nothing was sent.
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

// Failed is a failed outcome with code and reason, for backends.
func Failed(code, reason string) SubmitOutcome {
	return SubmitOutcome{State: SubmitFailed, Code: code, Reason: reason}
}

// Refused is the outcome of the ledger's refusal of the transaction with
// hash hash: transaction result code code (as Horizon spells it; a backend
// that has none it can pass on gives SubmitCodeRefused) and, for tx_failed,
// the operations' codes ops.
func Refused(hash, code string, ops []string) SubmitOutcome {
	reason := ledger.RefusalReason(code, ops)
	if code == SubmitCodeRefused {
		reason = "the ledger refused the transaction; the account API did not say why"
	}
	out := Failed(code, reason)
	out.Hash = hash
	if code == ledger.TxFailed {
		out.OpCodes = ops
	}
	return out
}

func backoffPolicy(initial, limit time.Duration) (time.Duration, time.Duration) {
	if initial <= 0 {
		initial = DefaultSubmitBackoff
	}
	if limit <= 0 {
		limit = DefaultSubmitBackoffCap
	}
	return initial, max(limit, initial)
}

// Backoff is the wait before retry number retry (1 for the first retry, the
// second try), without any Retry-After: the first wait doubled retry-1
// times, at most the cap.
func (c *Client) Backoff(retry int) time.Duration {
	d := c.backoff
	for i := 1; i < retry && d < c.backoffCap; i++ {
		if d > c.backoffCap/2 {
			d = c.backoffCap
		} else {
			d *= 2
		}
	}
	return min(d, c.backoffCap)
}

// Submit posts envelopeXDR (standard base64, a classic or fee-bump envelope)
// to network n's ledger API and returns how that ended. Each try is bounded
// by the timeout; the same envelope is sent again, after the backoff, when a
// try times out, is answered 408, 429 or 5xx, gets no answer at all, or gets
// a 2xx that does not parse or names another transaction. A try whose
// upstream asked for a wait (Retry-After) waits at least that long (never
// more than the backoff's cap). Sending the same envelope again is safe: the
// ledger takes a transaction once, and the ledger API answers a transaction
// it already has with its success.
//
// Submit returns when:
//   - the ledger API answers success: SubmitSubmitted with Hash and Ledger;
//   - it answers the ledger's refusal: SubmitFailed with Code the
//     transaction result code and, for tx_failed, OpCodes;
//   - it refuses the request otherwise (another 4xx): SubmitFailed with
//     Code the problem type's name, or http_<status>;
//   - nothing can be sent (no usable backend for n, an envelope that does
//     not decode): SubmitFailed with Tries 0 and a code named beside
//     SubmitCodeUnconfigured;
//   - ctx ends first, while waiting or during a try (whose outcome is then
//     unknown): SubmitAbandoned with Err ctx's error. The caller passes a ctx
//     that ends at the plan's expiry.
//
// observe, unless nil, is called on Submit's goroutine just before each
// retry is sent, for closerelay_submissions_total{result="retried"}. Submit
// starts no goroutine.
func (c *Client) Submit(ctx context.Context, n ledger.Network, envelopeXDR string, observe func(SubmitAttempt)) SubmitOutcome {
	env, err := ledger.DecodeEnvelope(envelopeXDR)
	if err != nil {
		return Failed(SubmitCodeMalformed, "the envelope does not decode")
	}
	if n.Passphrase() == "" {
		return Failed(SubmitCodeUnconfigured, fmt.Sprintf("%q is not a network", string(n)))
	}
	sum, err := ledger.HashEnvelope(env, n.Passphrase())
	if err != nil {
		return Failed(SubmitCodeMalformed, "the envelope has no transaction hash")
	}
	hash := hex.EncodeToString(sum[:])
	b, why := c.usable(n)
	if b == nil {
		out := Failed(SubmitCodeUnconfigured, why)
		out.Hash = hash
		return out
	}

	var last Try
	for try := 1; ; try++ {
		var wait time.Duration
		if try > 1 {
			wait = c.Backoff(try - 1)
			if last.RetryAfter > 0 {
				wait = min(max(wait, last.RetryAfter), c.backoffCap)
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
				return abandoned(ctx, hash, 0, "the submission was given up before the first try")
			}
			return abandoned(ctx, hash, try-1, "the submission was given up while waiting to retry after "+describe(last))
		}
		if try > 1 && observe != nil {
			observe(SubmitAttempt{Try: try, Cause: last.Cause, Status: last.Status, Waited: wait})
		}
		last = c.send(ctx, b, envelopeXDR, hash)
		switch {
		case last.Outcome != nil:
			out := *last.Outcome
			out.Tries = try
			return out
		case ctx.Err() != nil:
			return abandoned(ctx, hash, try, "the submission was given up during a try; whether the ledger took the transaction is unknown")
		}
	}
}

// send is one try, bounded by the timeout. The caller tells a try cut short
// by ctx from a timeout.
func (c *Client) send(ctx context.Context, b Backend, envelopeXDR, hash string) Try {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	return b.Send(ctx, envelopeXDR, hash)
}

func describe(r Try) string {
	switch r.Cause {
	case RetryTimeout:
		if r.Status != 0 {
			return fmt.Sprintf("a timeout (status %d)", r.Status)
		}
		return "a timeout"
	case RetryRateLimited:
		return "a rate limit (status 429)"
	case RetryServerError:
		return fmt.Sprintf("a server error (status %d)", r.Status)
	case RetryBadAnswer:
		return "an answer that does not parse"
	case RetryTryAgainLater:
		return "a TRY_AGAIN_LATER answer"
	}
	return "a transport error"
}

func abandoned(ctx context.Context, hash string, tries int, reason string) SubmitOutcome {
	return SubmitOutcome{State: SubmitAbandoned, Hash: hash, Reason: reason, Tries: tries, Err: ctx.Err()}
}
