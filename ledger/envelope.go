package ledger

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// maxDecodeDepth bounds XDR nesting while decoding. A classic envelope nests
// a few dozen levels at most (claim predicates are the deepest classic
// shape); the SDK's default of 1500 exists for Soroban values, which no
// account close carries. The lower bound keeps hostile input from buying
// deep recursion.
const maxDecodeDepth = 200

// maxDecodeMemory (plus 16 bytes per input byte) bounds what one decode may
// allocate. The decoder sizes arrays against the remaining input, but a
// Go value is larger than its XDR, and nested arrays each pre-allocate; the
// largest classic envelope (100 operations, 20 signatures) needs under 64 KiB.
const maxDecodeMemory = 1 << 20

// DecodeEnvelope decodes standard base64 XDR into a transaction envelope.
//
// It is strict so that one envelope has one accepted spelling: padding bits
// must be zero, line breaks (which Go's base64 decoder would otherwise skip)
// are refused, and every decoded byte must belong to the envelope, so
// trailing bytes are an error. Nesting depth and allocation are bounded
// (see maxDecodeDepth and maxDecodeMemory), and the work is linear in
// len(b64); callers cap that length (MaxXDRLength) before calling.
func DecodeEnvelope(b64 string) (xdr.TransactionEnvelope, error) {
	var env xdr.TransactionEnvelope
	if b64 == "" {
		return env, errors.New("envelope is empty")
	}
	if strings.ContainsAny(b64, "\r\n") {
		return env, errors.New("envelope base64 contains a line break")
	}
	raw, err := base64.StdEncoding.Strict().DecodeString(b64)
	if err != nil {
		return env, errors.New("envelope is not valid base64")
	}
	n, err := xdr.UnmarshalWithOptions(bytes.NewReader(raw), &env, xdr.DecodeOptions{
		MaxDepth:       maxDecodeDepth,
		MaxInputLen:    len(raw),
		MaxMemoryBytes: maxDecodeMemory + 16*int64(len(raw)),
	})
	if err != nil {
		return xdr.TransactionEnvelope{}, fmt.Errorf("envelope does not decode: %w", err)
	}
	if n != len(raw) {
		return xdr.TransactionEnvelope{}, fmt.Errorf("envelope has %d trailing bytes", len(raw)-n)
	}
	return env, nil
}

// EncodeEnvelope encodes an envelope as standard base64 XDR.
func EncodeEnvelope(env xdr.TransactionEnvelope) (string, error) {
	return xdr.MarshalBase64(env)
}

// WithSignatures returns env with its signature list replaced by a copy of
// sigs. Only classic envelopes (V0 and V1) have a list to replace; any other
// envelope is returned unchanged.
//
// env's V0 and V1 arms are pointers, so the envelope struct is copied before
// the list is replaced: neither the caller's envelope nor sigs is modified,
// and the result shares no signature bytes with either.
func WithSignatures(env xdr.TransactionEnvelope, sigs []xdr.DecoratedSignature) xdr.TransactionEnvelope {
	switch env.Type {
	case xdr.EnvelopeTypeEnvelopeTypeTx:
		if env.V1 == nil {
			return env
		}
		v1 := *env.V1
		v1.Signatures = copySignatures(sigs)
		env.V1 = &v1
	case xdr.EnvelopeTypeEnvelopeTypeTxV0:
		if env.V0 == nil {
			return env
		}
		v0 := *env.V0
		v0.Signatures = copySignatures(sigs)
		env.V0 = &v0
	}
	return env
}

func copySignatures(sigs []xdr.DecoratedSignature) []xdr.DecoratedSignature {
	out := make([]xdr.DecoratedSignature, len(sigs))
	for i, s := range sigs {
		out[i] = xdr.DecoratedSignature{Hint: s.Hint, Signature: bytes.Clone(s.Signature)}
	}
	return out
}

// HashEnvelope is the transaction hash that signers sign: the hash of the
// envelope's transaction under the network passphrase. For a fee-bump it is
// the outer transaction's hash.
func HashEnvelope(env xdr.TransactionEnvelope, passphrase string) ([32]byte, error) {
	if strings.TrimSpace(passphrase) == "" {
		return [32]byte{}, errors.New("network passphrase is empty")
	}
	if !isClassic(env) && (env.Type != xdr.EnvelopeTypeEnvelopeTypeTxFeeBump || env.FeeBump == nil) {
		return [32]byte{}, errors.New("envelope has no transaction")
	}
	return network.HashTransactionInEnvelope(env, passphrase)
}

// isClassic reports whether env is a V0 or V1 transaction envelope whose arm
// is present; decoded envelopes always have it, hand-built ones may not.
func isClassic(env xdr.TransactionEnvelope) bool {
	switch env.Type {
	case xdr.EnvelopeTypeEnvelopeTypeTx:
		return env.V1 != nil
	case xdr.EnvelopeTypeEnvelopeTypeTxV0:
		return env.V0 != nil
	}
	return false
}
