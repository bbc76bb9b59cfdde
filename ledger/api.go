// Package ledger holds closerelay's Stellar rules: network identifiers and
// passphrases, envelope decoding and encoding, the account-close
// classification, transaction hashes, signature recovery and admission, the
// candidate signer set of an account's state, the merge checks, plan expiry
// arithmetic and what a ledger refusal means.
//
// It does no I/O and starts no goroutine, so every rule can be tested, fuzzed
// and benchmarked on values alone; reading the ledger and submitting to it is
// package ledgerapi's. It holds no package-level mutable state; everything
// here is a pure function of its inputs except SweepGate, a value its caller
// creates and passes in, which bounds how many expensive signature
// recoveries run at once.
package ledger

// This file holds the types and constants other packages build on. The
// behaviour lives beside it: network.go, envelope.go, close.go, expiry.go,
// signers.go, account.go, admission.go, merge.go, plan.go and refusal.go.

import (
	"crypto/ed25519"
	"time"

	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/ledger/corever"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Network is one of the identifiers of CONTRACT section 2.
type Network string

// The network identifiers closerelay accepts.
const (
	Mainnet   Network = "mainnet"
	Testnet   Network = "testnet"
	Futurenet Network = "futurenet"
)

// Limits from SPEC "Limits" that belong to the ledger's rules.
const (
	MaxXDRLength     = 12000          // characters of base64, publish and sign
	MaxSignatures    = 20             // the ledger's signature cap on one envelope
	SigningWindow    = 72 * time.Hour // plan life from publish
	ExpiryGrace      = 60 * time.Second
	MaxPlanSignerSet = 21 // 20 extra signers plus the master key
)

// Code and Error are errcode's: ledger's failures are coded in the one
// vocabulary (package errcode), and the HTTP layer answers them as they are.
type (
	Code  = errcode.Code
	Error = errcode.Error
)

// The codes this package produces, under the names its files and tests use;
// they are errcode's constants, not a list of their own (new code may name
// errcode directly).
const (
	CodeBadXDR     = errcode.BadXDR
	CodeNotAClose  = errcode.NotAClose
	CodeRejected   = errcode.Rejected
	CodeBadNetwork = errcode.BadNetwork
)

// CodeOf returns the Code carried by err, or "" when err carries none.
func CodeOf(err error) Code { return errcode.CodeOf(err) }

// Signer is one candidate key of an account's signer set.
type Signer struct {
	Address string            // G… strkey
	Key     ed25519.PublicKey // 32 bytes
	Weight  int32
	Hint    xdr.SignatureHint // the key's canonical hint (its last 4 bytes)
}

// SignerSet is an account's candidate set, with the account's thresholds,
// immutable after construction and safe for concurrent use. Index i of
// Signers() is the signer's stable id.
type SignerSet struct {
	signers    []Signer
	keys       []*corever.Key // by index: the expanded key, nil for no candidate
	byHint     map[xdr.SignatureHint][]int
	usable     int        // candidates: signers with an expanded key, those in byHint
	thresholds Thresholds // the account's, as the account API read them
}

// Close is a decoded, classified account-close transaction (see ParseClose).
type Close struct {
	Envelope xdr.TransactionEnvelope // classic (V0 or V1), never fee-bump
	Hash     [32]byte                // under the plan's network passphrase
	Account  string                  // G… account being closed
	MaxTime  uint64                  // 0 when absent or unbounded
	network  Network                 // the one Hash is under; set by ParseClose only
}

// Admitted is one signature that passed admission: Signer is its index in the
// SignerSet, Sig carries the canonical hint of that signer.
type Admitted struct {
	Signer int
	Sig    xdr.DecoratedSignature
}
