package ledger

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"strings"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// A co-signer's partial repeats the plan's envelope byte for byte up to the
// signature list: the envelope type and the transaction. Comparing those
// bytes with the canonical envelope's tells the same transaction without
// decoding the partial's transaction and hashing it again (merge checks 6
// to 8), which cost about a tenth of a new signature's CPU outside its
// verification. Only the signature list is parsed, by hand and strictly.
// Anything the fast path does not take (another spelling of the same
// transaction, a V0 partial of a V1 plan, padding the XDR decoder would
// tolerate) goes the full way, so the fast path changes no answer.

// unsignedPrefix is the raw bytes of env's encoding (encoded, standard
// base64) before its signature list; nil when they cannot be told apart.
func unsignedPrefix(encoded string, env xdr.TransactionEnvelope) []byte {
	raw, err := base64.StdEncoding.Strict().DecodeString(encoded)
	if err != nil {
		return nil
	}
	list := 4 // the list's length
	for _, s := range env.Signatures() {
		list += 8 + (len(s.Signature)+3)&^3 // hint, length, padded bytes
	}
	if list > len(raw) {
		return nil
	}
	return raw[:len(raw)-list]
}

// fastSignatures returns the signatures of partial when it is the
// transaction whose encoding begins with prefix, ok false when the full
// checks must decide. Its decoding is as strict as DecodeEnvelope's and
// stricter: standard base64 without line breaks, at most MaxSignatures
// signatures of at most 64 bytes, zero padding, no trailing byte.
func fastSignatures(prefix []byte, partial string) (sigs []xdr.DecoratedSignature, ok bool) {
	if len(prefix) == 0 || strings.ContainsAny(partial, "\r\n") {
		return nil, false
	}
	raw, err := base64.StdEncoding.Strict().DecodeString(partial)
	if err != nil || !bytes.HasPrefix(raw, prefix) {
		return nil, false
	}
	b := raw[len(prefix):]
	if len(b) < 4 {
		return nil, false
	}
	n := binary.BigEndian.Uint32(b)
	b = b[4:]
	if n > MaxSignatures {
		return nil, false
	}
	sigs = make([]xdr.DecoratedSignature, n)
	for i := range sigs {
		if len(b) < 8 {
			return nil, false
		}
		copy(sigs[i].Hint[:], b[:4])
		size := binary.BigEndian.Uint32(b[4:8])
		b = b[8:]
		padded := (uint64(size) + 3) &^ 3
		if size > 64 || uint64(len(b)) < padded {
			return nil, false
		}
		for _, p := range b[size:padded] {
			if p != 0 {
				return nil, false
			}
		}
		sigs[i].Signature = xdr.Signature(bytes.Clone(b[:size]))
		b = b[padded:]
	}
	return sigs, len(b) == 0
}
