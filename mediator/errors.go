package mediator

import (
	"errors"

	"github.com/closerelay/closerelay/errcode"
)

// Every refusal of this package is an *errcode.Error: its code and status
// come from the one vocabulary (package errcode), and its reason is safe to
// show. Any other error is internal (for instance the random source
// failing) and should be answered as a 500 without its text.

// ForwardCodes returns SPEC's 13 forward validation codes in the order
// ValidateForward runs its checks (errcode.ForwardCodes). It is a fresh slice
// each call, so callers (tests, metrics pre-registration) may keep or modify
// it.
func ForwardCodes() []errcode.Code { return errcode.ForwardCodes() }

// ForwardCodesWithMemo returns every forward refusal Cosign can answer, in
// check order: the 13 of ForwardCodes with errcode.MemoNotCommitted
// (CONTRACT section 13) right after errcode.DestinationNotCommitted. A
// forward under a four-part token never gets errcode.MemoNotCommitted. A
// fresh slice each call.
func ForwardCodesWithMemo() []errcode.Code { return errcode.ForwardCodesWithMemo() }

// ErrNotConfigured is the cause of a MEDIATOR_NOT_CONFIGURED error when
// MEDIATOR_SECRET is empty.
var ErrNotConfigured = errors.New("mediator secret is not set")

// ErrMalformedSecret is the cause of a MEDIATOR_NOT_CONFIGURED error when
// MEDIATOR_SECRET is set but does not decode as an ed25519 seed strkey.
// Its text never includes the value.
var ErrMalformedSecret = errors.New("mediator secret is not a valid ed25519 seed")

// ErrSecretFormat is ParseSecretEnv's answer for a non-empty value that is not
// "S" followed by 55 characters. Its text never includes the value.
var ErrSecretFormat = errors.New("MEDIATOR_SECRET must be 56 characters starting with S (value not shown)")

// notConfigured is the MEDIATOR_NOT_CONFIGURED refusal; it unwraps to cause
// (ErrNotConfigured or ErrMalformedSecret) so the operator's log can tell an
// unset secret from a malformed one. Clients should be told only the code.
func notConfigured(cause error) *errcode.Error {
	return errcode.Wrap(errcode.MediatorNotConfigured, cause.Error(), cause)
}
