// Package ledgerapi is how closerelay talks to the ledger: it reads an
// account's state, reads ledger entries by key, and submits a transaction
// and learns how it ended, through one Backend per network (Horizon in
// package horizon; Stellar RPC, CONTRACT section 15, beside it).
//
// What does not depend on the backend lives here, so both backends keep
// the same bounds, errors, retries and metrics: Client shares one call
// between the concurrent callers that need the same account, holds at most
// HORIZON_CONCURRENCY calls in flight, bounds each by HORIZON_TIMEOUT
// (CONTRACT section 9), and retries a submission with backoff (section 10).
// Everything is configured at construction (Options); nothing is set later.
//
// The Stellar rules that read what comes back (which signers are
// candidates, what a result code means) are package ledger's, which does no
// I/O. This package knows no plan.
package ledgerapi

import (
	"context"
	"errors"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// ErrAccountUnreachable is wrapped by every failure to read an account: not
// found, timeout, no free call slot, transport error, an answer that does
// not parse. Publish answers it with ACCOUNT_UNREACHABLE (guard 6).
var ErrAccountUnreachable = errors.New("account unreachable")

// ErrNoAccount is wrapped, beside ErrAccountUnreachable, by a read of an
// account the ledger does not hold: the preflight reads a destination's
// absence as a fact (op_no_account), not as a failure.
var ErrNoAccount = errors.New("no such account")

// AccountReader reads an account's candidate signer set, with the account's
// thresholds. Implemented by *Client; the HTTP layer depends on this much
// only, so its tests may substitute their own.
type AccountReader interface {
	Signers(ctx context.Context, network ledger.Network, account string) (*ledger.SignerSet, error)
}

// Backend is one network's ledger API. Client calls it with a context that
// already carries the call's timeout, and only after taking a call slot, so
// a backend bounds nothing itself; it may be called concurrently.
//
// A backend's errors are Unreachable errors with a reason of its own (never
// text from the upstream's answer, which may be anything).
type Backend interface {
	// Account reads account's entry. An account the ledger does not hold is
	// an error, as any other failure to read it.
	Account(ctx context.Context, account string) (ledger.AccountState, error)
	// Offers lists account's offers, at most max of them; complete says
	// whether that is all of them.
	Offers(ctx context.Context, account string, max int) (offers []ledger.Offer, complete bool, err error)
	// Entries reads the ledger entries named by keys, in one call where the
	// API allows it. A key the ledger does not hold has no entry in the
	// answer; the answer's order is not the keys'.
	Entries(ctx context.Context, keys []xdr.LedgerKey) ([]xdr.LedgerEntry, error)
	// Latest reads the ledger the network closed last: its sequence
	// number and close time. An answer without either is an error.
	Latest(ctx context.Context) (ledger.LatestLedger, error)
	// Send submits envelopeXDR (whose transaction hash, lower-case hex, is
	// hash) once and waits for the ledger's outcome, or for ctx to end.
	Send(ctx context.Context, envelopeXDR, hash string) Try
}

// Try is how one Backend.Send ended: a final outcome, or why to send the
// same envelope again.
type Try struct {
	// Outcome is final when not nil (Client sets its Tries); nil to retry.
	Outcome *SubmitOutcome
	// Cause is, when Outcome is nil, why the try is retried: one of the
	// Retry… constants.
	Cause string
	// Status is the answer's HTTP status; 0 when there was none.
	Status int
	// RetryAfter is how long the upstream asked to wait (a 429's or 503's
	// Retry-After); 0 when it did not.
	RetryAfter time.Duration
}

// Unusable is the Backend of a network whose configuration cannot be used
// (a URL that is not http(s), say). Client sends nothing to it: a read
// fails with ErrAccountUnreachable and Reason, a submission with
// SubmitCodeUnconfigured, neither taking a slot nor being observed, as for
// a network with no backend at all.
type Unusable struct{ Reason string }

var _ Backend = Unusable{}

// Account implements Backend.
func (u Unusable) Account(context.Context, string) (ledger.AccountState, error) {
	return ledger.AccountState{}, Unreachable(u.Reason, nil)
}

// Offers implements Backend.
func (u Unusable) Offers(context.Context, string, int) ([]ledger.Offer, bool, error) {
	return nil, false, Unreachable(u.Reason, nil)
}

// Entries implements Backend.
func (u Unusable) Entries(context.Context, []xdr.LedgerKey) ([]xdr.LedgerEntry, error) {
	return nil, Unreachable(u.Reason, nil)
}

// Latest implements Backend.
func (u Unusable) Latest(context.Context) (ledger.LatestLedger, error) {
	return ledger.LatestLedger{}, Unreachable(u.Reason, nil)
}

// Send implements Backend.
func (u Unusable) Send(_ context.Context, _, hash string) Try {
	out := Failed(SubmitCodeUnconfigured, u.Reason)
	out.Hash = hash
	return Try{Outcome: &out}
}

// Unreachable is an error wrapping ErrAccountUnreachable (and cause, a
// context's error or nil) whose text is reason alone after the sentinel's.
// Backends build their failures with it so that no upstream text reaches a
// client.
func Unreachable(reason string, cause error) error {
	return &accountError{reason: reason, cause: cause}
}

// accountError is a failure to read an account. Its text is ours alone.
type accountError struct {
	reason string
	cause  error // a context error, or nil
}

func (e *accountError) Error() string { return ErrAccountUnreachable.Error() + ": " + e.reason }

func (e *accountError) Unwrap() []error {
	if e.cause == nil {
		return []error{ErrAccountUnreachable}
	}
	return []error{ErrAccountUnreachable, e.cause}
}

// IsTimeout reports whether err is a deadline or a network timeout; the
// backends and Client tell a timeout from other transport failures by it.
func IsTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &t) && t.Timeout()
}
