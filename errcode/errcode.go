// Package errcode is CONTRACT.md's list of error codes: every code a
// closerelay route answers (CONTRACT sections 3 to 10 and 13, SPEC "Errors"),
// each with the HTTP status it is answered with, and Error, the coded failure
// that ledger, mediator and httpapi return.
//
// The table in this file is the only place a code is spelled or given a
// status (STYLE habit 10). A Code that is not in it is not part of the
// contract: its status is 500, and the HTTP layer answers it, like any error
// that carries no code, as INTERNAL with "internal error", keeping the detail
// for its log. Metrics create their series from the same constants.
//
// The package depends on the standard library only, so any package may
// import it.
package errcode

import (
	"errors"
	"slices"
)

// Code is a machine-readable failure code, the "code" of CONTRACT section 3's
// JSON error body.
type Code string

// Plan routes (CONTRACT sections 4, 9 and 10, SPEC "Errors: Plan routes").
const (
	// BadXDR: publish guard 1 (the xdr field is missing, not a string,
	// empty or above 12,000 characters), or a partial on the sign route
	// that is empty or does not decode.
	BadXDR Code = "BAD_XDR"
	// BadNetwork: the network is not exactly mainnet, testnet or futurenet
	// (publish guard 2, and the mediator's co-sign check 4).
	BadNetwork Code = "BAD_NETWORK"
	// NotAClose: publish guard 3, the xdr is not a classic account close
	// (an xdr that does not decode included, CONTRACT section 8).
	NotAClose Code = "NOT_A_CLOSE"
	// Expired: the plan's expiry is not in the future, after guard 3 or at
	// insert (guard 8).
	Expired Code = "EXPIRED"
	// Rejected: a merge check failed (SPEC "Merge checks"), or a partial
	// would take the envelope past 20 signatures.
	Rejected Code = "REJECTED"
	// Capacity: the relay's 500 open plans, or the closing account's
	// PLANS_PER_ACCOUNT, are reached (guards 5 and 8).
	Capacity Code = "CAPACITY"
	// AccountUnreachable: the account API could not be read in time
	// (guard 6).
	AccountUnreachable Code = "ACCOUNT_UNREACHABLE"
	// Unsigned: no signature of the published envelope comes from a signer
	// of the account (guard 7).
	Unsigned Code = "UNSIGNED"
	// SubmitUnsupported: a publish with "submit": true of a transaction
	// whose source is not the closing account, which the relay cannot
	// submit (another account must sign it); checked right after Expired
	// (CONTRACT section 10).
	SubmitUnsupported Code = "SUBMIT_UNSUPPORTED"
	// BadFlow: a publish's flowToken that the relay cannot run the forward
	// of (CONTRACT section 16): without submit, a token that does not
	// verify or commits no memo, or a close that does not fund and merge
	// into the flow's mediator, or a re-publish naming another flow than
	// the plan's; checked right after SubmitUnsupported, with a reason.
	BadFlow Code = "BAD_FLOW"
	// NotFound: an unknown or expired plan, a path id that is not 64 hex
	// characters, or no such route.
	NotFound Code = "NOT_FOUND"
	// NotReady: GET /api/plan/{id}/ready while the plan's weight is below
	// its threshold (CONTRACT section 10); the reason states both.
	NotReady Code = "NOT_READY"
)

// Every route (CONTRACT sections 3, 6 and 9).
const (
	// PayloadTooLarge: a body above 16,384 bytes.
	PayloadTooLarge Code = "PAYLOAD_TOO_LARGE"
	// RateLimited: the route's per-client-IP bucket is empty; the answer
	// carries Retry-After.
	RateLimited Code = "RATE_LIMITED"
	// BadRequest: a mediator co-sign body that is not a JSON object, or
	// whose envelopeXdr or flowToken is missing, empty or not a string; a
	// publish whose submit field is present and not a boolean.
	BadRequest Code = "BAD_REQUEST"
	// MethodNotAllowed: a method the mediator route does not serve.
	MethodNotAllowed Code = "METHOD_NOT_ALLOWED"
	// Internal: anything that is not one of the client's faults listed
	// here; its detail goes to the log, never to the client.
	Internal Code = "INTERNAL"
	// Unavailable: the relay is shutting down, or (cluster mode, CONTRACT
	// section 12) its plan store cannot be reached. A publish answers it
	// 400 (PublishStatus): SPEC's publish route has no 503.
	Unavailable Code = "UNAVAILABLE"
	// TooManySubscribers: the plan already has 50 event-stream
	// subscribers (the stream's plain-text 503).
	TooManySubscribers Code = "TOO_MANY_SUBSCRIBERS"
	// RequestTimeout: the body did not arrive within 10 s of the headers
	// (CONTRACT section 9).
	RequestTimeout Code = "REQUEST_TIMEOUT"
)

// Mediator route before forward validation (CONTRACT sections 6, 8 and 13).
const (
	// MediatorNotConfigured: MEDIATOR_SECRET is unset or not a valid seed.
	// The client is told only the code; which of the two is for the log.
	MediatorNotConfigured Code = "MEDIATOR_NOT_CONFIGURED"
	// InvalidDestination: the destination to mint a flow for is missing or
	// not a G… account (a muxed M… address included).
	InvalidDestination Code = "INVALID_DESTINATION"
	// InvalidFlowToken: the flow token failed verification (any of its
	// checks; which one is deliberately not said).
	InvalidFlowToken Code = "INVALID_FLOW_TOKEN"
	// InvalidMemo: the memo to commit a flow to is not text:, id:, hash:
	// or return: with a valid value, or is given twice.
	InvalidMemo Code = "INVALID_MEMO"
)

// The forward validation codes, in SPEC's order (the order the checks run;
// the first failure wins), with CONTRACT section 13's
// FORWARD_MEMO_NOT_COMMITTED in its place.
const (
	MalformedXDR            Code = "MALFORMED_XDR"                     // 1: does not decode (or has no room for the mediator's signature)
	FeeBumpNotAllowed       Code = "FEE_BUMP_NOT_ALLOWED"              // 2: a fee-bump
	TxSourceNotMediator     Code = "FORWARD_TX_SOURCE_NOT_MEDIATOR"    // 3
	WrongOperationCount     Code = "WRONG_OPERATION_COUNT"             // 4: not exactly 2
	Op0NotPayment           Code = "FORWARD_OP0_NOT_PAYMENT"           // 5
	Op0AssetNotNative       Code = "FORWARD_OP0_ASSET_NOT_NATIVE"      // 6
	Op0SourceNotMediator    Code = "FORWARD_OP0_SOURCE_NOT_MEDIATOR"   // 7
	Op1NotAccountMerge      Code = "FORWARD_OP1_NOT_ACCOUNT_MERGE"     // 8
	Op1SourceNotMediator    Code = "FORWARD_OP1_SOURCE_NOT_MEDIATOR"   // 9
	DestinationMismatch     Code = "FORWARD_DESTINATION_MISMATCH"      // 10
	DestinationNotCommitted Code = "FORWARD_DESTINATION_NOT_COMMITTED" // 11
	// MemoNotCommitted is not one of SPEC's 13: CONTRACT section 13 adds
	// it, for a forward under a token that commits a memo, right after
	// DestinationNotCommitted.
	MemoNotCommitted    Code = "FORWARD_MEMO_NOT_COMMITTED"
	MissingTimeBounds   Code = "MISSING_TIME_BOUNDS"   // 12
	TimeBoundsExcessive Code = "TIME_BOUNDS_EXCESSIVE" // 13
)

// The statuses the table uses (net/http's values; the package imports
// nothing but the standard library's errors and slices).
const (
	statusBadRequest         = 400
	statusNotFound           = 404
	statusMethodNotAllowed   = 405
	statusRequestTimeout     = 408
	statusConflict           = 409
	statusPayloadTooLarge    = 413
	statusTooManyRequests    = 429
	statusInternal           = 500
	statusServiceUnavailable = 503
)

// table is the one table from code to HTTP status, in CONTRACT's order: every
// code is listed, 400 included. A code added above and not here has no place
// in the contract and answers 500 INTERNAL (the package's test fails first).
// The forward codes come last, in the order their checks run: ForwardCodes
// reads them from here.
var table = []struct {
	code   Code
	status int
}{
	{BadXDR, statusBadRequest},
	{BadNetwork, statusBadRequest},
	{NotAClose, statusBadRequest},
	{Expired, statusBadRequest},
	{Rejected, statusBadRequest},
	{Capacity, statusBadRequest},
	{AccountUnreachable, statusBadRequest},
	{Unsigned, statusBadRequest},
	{SubmitUnsupported, statusBadRequest},
	{BadFlow, statusBadRequest},
	{NotFound, statusNotFound},
	{NotReady, statusConflict},

	{PayloadTooLarge, statusPayloadTooLarge},
	{RateLimited, statusTooManyRequests},
	{BadRequest, statusBadRequest},
	{MethodNotAllowed, statusMethodNotAllowed},
	{Internal, statusInternal},
	{Unavailable, statusServiceUnavailable},
	{TooManySubscribers, statusServiceUnavailable},
	{RequestTimeout, statusRequestTimeout},

	{MediatorNotConfigured, statusInternal},
	{InvalidDestination, statusBadRequest},
	{InvalidFlowToken, statusBadRequest},
	{InvalidMemo, statusBadRequest},

	{MalformedXDR, statusBadRequest},
	{FeeBumpNotAllowed, statusBadRequest},
	{TxSourceNotMediator, statusBadRequest},
	{WrongOperationCount, statusBadRequest},
	{Op0NotPayment, statusBadRequest},
	{Op0AssetNotNative, statusBadRequest},
	{Op0SourceNotMediator, statusBadRequest},
	{Op1NotAccountMerge, statusBadRequest},
	{Op1SourceNotMediator, statusBadRequest},
	{DestinationMismatch, statusBadRequest},
	{DestinationNotCommitted, statusBadRequest},
	{MemoNotCommitted, statusBadRequest},
	{MissingTimeBounds, statusBadRequest},
	{TimeBoundsExcessive, statusBadRequest},
}

var statusOf = func() map[Code]int {
	m := make(map[Code]int, len(table))
	for _, row := range table {
		m[row.code] = row.status
	}
	return m
}()

// Status is the HTTP status c is answered with: the table's, or 500 for a
// code that is not in it.
func (c Code) Status() int {
	if s, ok := statusOf[c]; ok {
		return s
	}
	return statusInternal
}

// PublishStatus is the status c is answered with on the publish route:
// SPEC gives publish no 503, so a code whose status is 503 (UNAVAILABLE,
// CONTRACT section 12) is 400 there; any other code keeps its status.
func (c Code) PublishStatus() int {
	if s := c.Status(); s != statusServiceUnavailable {
		return s
	}
	return statusBadRequest
}

// Known reports whether c is in the table, that is, whether the contract
// lets a client see it.
func (c Code) Known() bool {
	_, ok := statusOf[c]
	return ok
}

// All returns every code of the table, in the table's order. It is a fresh
// slice each call.
func All() []Code {
	out := make([]Code, len(table))
	for i, row := range table {
		out[i] = row.code
	}
	return out
}

// ForwardCodes returns SPEC's 13 forward validation codes in check order,
// without CONTRACT section 13's MemoNotCommitted. A fresh slice each call.
func ForwardCodes() []Code {
	return slices.DeleteFunc(ForwardCodesWithMemo(), func(c Code) bool { return c == MemoNotCommitted })
}

// ForwardCodesWithMemo returns every forward refusal in check order: the 13
// of ForwardCodes with MemoNotCommitted right after DestinationNotCommitted
// (CONTRACT section 13). They are the table's last rows. A fresh slice each
// call.
func ForwardCodesWithMemo() []Code {
	all := All()
	return all[slices.Index(all, MalformedXDR):]
}

// Error is a coded failure: Code for the client, Reason a human sentence that
// is safe to show (it never contains a secret, a stack trace or an upstream
// body). An optional cause, for errors.Is and the operator's log, is set
// with Wrap and never shown.
type Error struct {
	Code   Code
	Reason string
	cause  error
}

// New returns an *Error with code and reason.
func New(code Code, reason string) *Error { return &Error{Code: code, Reason: reason} }

// Wrap returns an *Error with code and reason that unwraps to cause.
func Wrap(code Code, reason string, cause error) *Error {
	return &Error{Code: code, Reason: reason, cause: cause}
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Reason }

// Unwrap returns the cause given to Wrap, or nil.
func (e *Error) Unwrap() error { return e.cause }

// Status is the HTTP status of e's code (500 for a code not in the table).
func (e *Error) Status() int { return e.Code.Status() }

// CodeOf returns the Code carried by err, or "" when err carries none.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// StatusOf returns the HTTP status err is answered with: 0 for nil, its
// code's status when it carries one, and 500 otherwise, since an error that
// carries no code is internal.
func StatusOf(err error) int {
	if err == nil {
		return 0
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Status()
	}
	return Code("").Status()
}
