package mediator

import (
	"errors"
	"net/http"
	"slices"
)

// Code is a machine-readable failure code answered to clients.
type Code string

// Codes of the mint and co-sign steps that precede forward validation.
const (
	// CodeInvalidDestination: the destination to mint a flow for is missing
	// or not a G… account (a muxed M… address is refused too).
	CodeInvalidDestination Code = "INVALID_DESTINATION"
	// CodeNotConfigured: MEDIATOR_SECRET is unset or not a valid seed. The
	// *Error unwraps to ErrNotConfigured or ErrMalformedSecret for the
	// operator's log; clients should be told only the code.
	CodeNotConfigured Code = "MEDIATOR_NOT_CONFIGURED"
	// CodeInvalidFlowToken: the flow token failed verification (any of the
	// seven checks; which one is deliberately not said).
	CodeInvalidFlowToken Code = "INVALID_FLOW_TOKEN"
	// CodeBadNetwork: the network is not exactly mainnet, testnet or futurenet.
	CodeBadNetwork Code = "BAD_NETWORK"
	// CodeInvalidMemo: the memo to commit a flow to is not one of text:,
	// id:, hash:, return: with a valid value (CONTRACT section 13; see
	// ParseMemo). Minting checks it after the destination and before the
	// configuration.
	CodeInvalidMemo Code = "INVALID_MEMO"
)

// The forward validation codes, in the order the checks run; the first failure
// wins (SPEC "Forward validation codes").
const (
	CodeMalformedXDR            Code = "MALFORMED_XDR"
	CodeFeeBumpNotAllowed       Code = "FEE_BUMP_NOT_ALLOWED"
	CodeTxSourceNotMediator     Code = "FORWARD_TX_SOURCE_NOT_MEDIATOR"
	CodeWrongOperationCount     Code = "WRONG_OPERATION_COUNT"
	CodeOp0NotPayment           Code = "FORWARD_OP0_NOT_PAYMENT"
	CodeOp0AssetNotNative       Code = "FORWARD_OP0_ASSET_NOT_NATIVE"
	CodeOp0SourceNotMediator    Code = "FORWARD_OP0_SOURCE_NOT_MEDIATOR"
	CodeOp1NotAccountMerge      Code = "FORWARD_OP1_NOT_ACCOUNT_MERGE"
	CodeOp1SourceNotMediator    Code = "FORWARD_OP1_SOURCE_NOT_MEDIATOR"
	CodeDestinationMismatch     Code = "FORWARD_DESTINATION_MISMATCH"
	CodeDestinationNotCommitted Code = "FORWARD_DESTINATION_NOT_COMMITTED"
	// CodeMemoNotCommitted is not one of SPEC's 13: CONTRACT section 13 adds
	// it, for a forward under a token that commits a memo, right after
	// CodeDestinationNotCommitted. ForwardCodes leaves it out;
	// ForwardCodesWithMemo has it in its place.
	CodeMemoNotCommitted    Code = "FORWARD_MEMO_NOT_COMMITTED"
	CodeMissingTimeBounds   Code = "MISSING_TIME_BOUNDS"
	CodeTimeBoundsExcessive Code = "TIME_BOUNDS_EXCESSIVE"
)

// ForwardCodes returns the 13 forward validation codes in check order. It is
// a fresh slice each call, so callers (tests, metrics pre-registration) may
// keep or modify it.
func ForwardCodes() []Code {
	return []Code{
		CodeMalformedXDR,
		CodeFeeBumpNotAllowed,
		CodeTxSourceNotMediator,
		CodeWrongOperationCount,
		CodeOp0NotPayment,
		CodeOp0AssetNotNative,
		CodeOp0SourceNotMediator,
		CodeOp1NotAccountMerge,
		CodeOp1SourceNotMediator,
		CodeDestinationMismatch,
		CodeDestinationNotCommitted,
		CodeMissingTimeBounds,
		CodeTimeBoundsExcessive,
	}
}

// ForwardCodesWithMemo returns every forward refusal Cosign can answer, in
// check order: the 13 of ForwardCodes with CodeMemoNotCommitted (CONTRACT
// section 13) right after CodeDestinationNotCommitted. A forward under a
// four-part token never gets CodeMemoNotCommitted. A fresh slice each call.
func ForwardCodesWithMemo() []Code {
	codes := ForwardCodes()
	return slices.Insert(codes, slices.Index(codes, CodeDestinationNotCommitted)+1, CodeMemoNotCommitted)
}

// ErrNotConfigured is the cause of a CodeNotConfigured error when
// MEDIATOR_SECRET is empty.
var ErrNotConfigured = errors.New("mediator secret is not set")

// ErrMalformedSecret is the cause of a CodeNotConfigured error when
// MEDIATOR_SECRET is set but does not decode as an ed25519 seed strkey.
// Its text never includes the value.
var ErrMalformedSecret = errors.New("mediator secret is not a valid ed25519 seed")

// ErrSecretFormat is ParseSecretEnv's answer for a non-empty value that is not
// "S" followed by 55 characters. Its text never includes the value.
var ErrSecretFormat = errors.New("MEDIATOR_SECRET must be 56 characters starting with S (value not shown)")

// Error is a classified failure. Code and Status are for the client; Reason is
// a human sentence that never contains the secret, the master or a derived key.
// Any error from this package that is not an *Error is an internal failure
// (for instance the random source failing) and should be answered as a 500
// without its text.
type Error struct {
	Code   Code
	Reason string
	Status int   // HTTP status the route answers with
	cause  error // a sentinel such as ErrNotConfigured, for errors.Is
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Reason }

// Unwrap exposes the sentinel behind a CodeNotConfigured error so the
// operator's log can tell an unset secret from a malformed one.
func (e *Error) Unwrap() error { return e.cause }

// CodeOf returns the Code carried by err, or "" when err carries none.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// StatusOf returns the HTTP status carried by err: 0 for nil, 500 for an
// error that carries no code, since such an error is internal.
func StatusOf(err error) int {
	if err == nil {
		return 0
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Status
	}
	return http.StatusInternalServerError
}

func clientError(code Code, reason string) *Error {
	return &Error{Code: code, Reason: reason, Status: http.StatusBadRequest}
}

func notConfigured(cause error) *Error {
	return &Error{Code: CodeNotConfigured, Reason: cause.Error(), Status: http.StatusInternalServerError, cause: cause}
}
