package ledger

// TEMPORARY: signatures of the ledger API, so that dependants compile while the
// bodies are written. The ledger implementer replaces every function here with a
// real one in the file named in its comment, then deletes this file.

import (
	"context"
	"time"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// ResolveNetwork maps an identifier to a Network; any unknown string resolves to
// Testnet (SPEC guard 2 then compares the result with the input). network.go
func ResolveNetwork(s string) Network { panic("todo") }

// ParseNetwork accepts only the exact identifiers of CONTRACT section 2. network.go
func ParseNetwork(s string) (Network, bool) { panic("todo") }

// Passphrase is the network's passphrase (SDK network package). network.go
func (n Network) Passphrase() string { panic("todo") }

// DecodeEnvelope decodes base64 XDR into an envelope; it refuses trailing bytes. envelope.go
func DecodeEnvelope(b64 string) (xdr.TransactionEnvelope, error) { panic("todo") }

// EncodeEnvelope encodes an envelope as base64 XDR. envelope.go
func EncodeEnvelope(env xdr.TransactionEnvelope) (string, error) { panic("todo") }

// WithSignatures returns env with its signature list replaced by sigs (classic
// envelopes only; V0 and V1). envelope.go
func WithSignatures(env xdr.TransactionEnvelope, sigs []xdr.DecoratedSignature) xdr.TransactionEnvelope {
	panic("todo")
}

// ParseClose decodes and classifies a publish's xdr: classic, at least one
// operation, an ACCOUNT_MERGE whose effective source every operation shares, a G…
// account (muxed refused). Failures are *Error with CodeNotAClose. close.go
func ParseClose(b64 string, n Network) (*Close, error) { panic("todo") }

// PlanExpiry is the earlier of publish+SigningWindow and maxTime-ExpiryGrace
// (maxTime 0 means unbounded). expiry.go
func PlanExpiry(publish time.Time, maxTime uint64) time.Time { panic("todo") }

// NewSignerSet builds a candidate set. signers.go
func NewSignerSet(signers []Signer) *SignerSet { panic("todo") }

// Signers lists the candidates; callers must not modify the slice. signers.go
func (s *SignerSet) Signers() []Signer { panic("todo") }

// Recover finds the signer whose key verifies sig over hash: pass one by hint,
// pass two sweeping the rest. signers.go
func (s *SignerSet) Recover(hash [32]byte, sig xdr.DecoratedSignature) (int, bool) { panic("todo") }

// AdmitAll is publish-time admission: drops unrecoverable signatures and
// duplicates by recovered key, re-stamps hints, keeps envelope order. admission.go
func AdmitAll(set *SignerSet, hash [32]byte, sigs []xdr.DecoratedSignature) []Admitted {
	panic("todo")
}

// KnownFunc reports whether a signature's 64 bytes were already admitted on a
// plan, and by which signer: a replay then costs a lookup, not a verification.
type KnownFunc func(sig []byte) (signer int, ok bool)

// Canonical is the immutable half of a plan that the merge checks need; it is
// safe for concurrent use, so partials are checked in request goroutines.
type Canonical struct {
	XDR        string // the envelope as published (canonicalized)
	Passphrase string
	Hash       [32]byte
	Signers    *SignerSet
}

// NewCanonical runs merge checks 1 to 4 on the canonical envelope. merge.go
func NewCanonical(canonicalXDR string, passphrase string, signers *SignerSet) (*Canonical, error) {
	panic("todo")
}

// CheckPartial runs merge checks 5 to 9 on one partial and returns its admitted
// signatures (deduplicated by signer, hints re-stamped, in envelope order).
// Failures: *Error with CodeBadXDR (empty or undecodable) or CodeRejected
// (fee-bump, hash mismatch, a signature no candidate recovers). known may be nil. merge.go
func (c *Canonical) CheckPartial(partial string, known KnownFunc) ([]Admitted, error) {
	panic("todo")
}

// AccountClient reads signer sets from Horizon's account API, one client per
// network, each call bounded by Timeout. client.go
type AccountClient struct{}

// NewAccountClient builds a client for the given per-network base URLs. client.go
func NewAccountClient(urls map[Network]string, timeout time.Duration) *AccountClient {
	panic("todo")
}

// Signers implements AccountReader. client.go
func (c *AccountClient) Signers(ctx context.Context, n Network, account string) (*SignerSet, error) {
	panic("todo")
}
