package ledger

import (
	"encoding/base64"
	"encoding/binary"
	"unsafe"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// EnvelopeEncoder encodes one classic envelope under signature lists that
// change, as a plan's versions do: the transaction is encoded once, and each
// version encodes only its signatures after it.
//
// In a V0 or V1 envelope the signature list is the last field, so the XDR
// of the envelope with sigs is the XDR of everything before the list (the
// head), then the list's length and each DecoratedSignature (a 4-byte hint,
// then the signature as variable opaque: its length, its bytes, zeros to a
// multiple of 4). Base64 maps each 3 bytes to 4 characters on its own, so
// the head's longest prefix of a multiple of 3 bytes is kept encoded too.
type EnvelopeEncoder struct {
	env    xdr.TransactionEnvelope // the envelope given, whose signatures Encode replaces
	head   []byte                  // the XDR before the signature list's length
	head64 string                  // base64 of head[:len(head)-len(head)%3]
	fast   bool                    // head is known: env is classic and encodes
}

// NewEnvelopeEncoder prepares env's encoding. An envelope that is not
// classic, or does not encode, is encoded the long way by Encode.
func NewEnvelopeEncoder(env xdr.TransactionEnvelope) *EnvelopeEncoder {
	e := &EnvelopeEncoder{env: env}
	if !isClassic(env) {
		return e
	}
	raw, err := WithSignatures(env, nil).MarshalBinary()
	if err != nil || len(raw) < 4 {
		return e
	}
	e.head = raw[:len(raw)-4] // less the empty list's length
	e.head64 = base64.StdEncoding.EncodeToString(e.head[:len(e.head)-len(e.head)%3])
	e.fast = true
	return e
}

// Encode returns the envelope with sigs as its signature list, and its
// base64 XDR, the same string as EncodeEnvelope(WithSignatures(env, sigs)).
// Unlike WithSignatures it does not copy sigs: the envelope shares them, so
// the caller must never change them afterwards (a plan's admitted
// signatures never change). An envelope NewEnvelopeEncoder could not
// prepare, or a signature longer than the 64 bytes XDR allows, is encoded
// the long way (and copied, by WithSignatures).
func (e *EnvelopeEncoder) Encode(sigs []xdr.DecoratedSignature) (xdr.TransactionEnvelope, string, error) {
	if !e.fast {
		return e.slow(sigs)
	}
	tail := len(e.head) % 3
	n := tail + 4
	for _, s := range sigs {
		if len(s.Signature) > 64 {
			return e.slow(sigs)
		}
		n += 8 + (len(s.Signature)+3)&^3
	}
	// The signatures' XDR is encoded only to be base64'd: on the stack
	// when it fits, as it does up to MaxSignatures of 64 bytes.
	var stack [rawOnStack]byte
	raw := stack[:0]
	if n > len(stack) {
		raw = make([]byte, 0, n)
	}
	raw = append(raw, e.head[len(e.head)-tail:]...)
	raw = binary.BigEndian.AppendUint32(raw, uint32(len(sigs)))
	for _, s := range sigs {
		raw = append(raw, s.Hint[:]...)
		raw = binary.BigEndian.AppendUint32(raw, uint32(len(s.Signature)))
		raw = append(raw, s.Signature...)
		for range (4 - len(s.Signature)%4) % 4 {
			raw = append(raw, 0)
		}
	}
	out := make([]byte, len(e.head64)+base64.StdEncoding.EncodedLen(len(raw)))
	copy(out, e.head64)
	base64.StdEncoding.Encode(out[len(e.head64):], raw)
	// out is never written again, so the string may share it: one
	// envelope-sized allocation and copy fewer per version, as
	// strings.Builder does.
	return e.with(sigs), unsafe.String(unsafe.SliceData(out), len(out)), nil
}

// Extend is Encode(sigs) for a list that extends one already encoded: prev
// must be what Encode returned for sigs[:n], the list of the version a
// merge appends sigs[n:] to. Between the two encodings only the list's
// length changes, in the first 6 bytes after the head's full groups of 3,
// and bytes are added at the end; every group of 3 bytes in between is the
// same, and so are its 4 characters, which Extend copies from prev rather
// than encoding again. It falls back to Encode when n is not 1 to
// len(sigs), when a signature is not 64 bytes (all of ed25519's are), or
// when prev is not as long as, or does not begin and end as, sigs[:n]'s
// encoding.
func (e *EnvelopeEncoder) Extend(prev string, sigs []xdr.DecoratedSignature, n int) (xdr.TransactionEnvelope, string, error) {
	if !e.fast || n < 1 || n > len(sigs) {
		return e.Encode(sigs)
	}
	for _, s := range sigs {
		if len(s.Signature) != 64 {
			return e.Encode(sigs)
		}
	}
	// The bytes after the head's full groups ("rel"): the head's last t
	// bytes, the list's length, then 72 bytes a signature (its hint, its
	// length, its 64 bytes).
	t := len(e.head) % 3
	relPrev := t + 4 + 72*n
	full := relPrev / 3 * 3 // rel's bytes in prev's full groups
	r := relPrev - full     // the last r bytes of sigs[n-1]'s signature follow them
	h := len(e.head64)
	enc := base64.StdEncoding
	if len(prev) != h+enc.EncodedLen(relPrev) || prev[:h] != e.head64 {
		return e.Encode(sigs)
	}
	// prev's last full group is 3 bytes of sigs[n-1]'s signature.
	var group [4]byte
	last := sigs[n-1].Signature
	enc.Encode(group[:], last[64-r-3:64-r])
	if prev[h+full/3*4-4:h+full/3*4] != string(group[:]) {
		return e.Encode(sigs)
	}

	out := make([]byte, h+enc.EncodedLen(t+4+72*len(sigs)))
	w := copy(out, e.head64)
	// rel's first 6 bytes (t+4 is 4 to 6): the head's tail, the new
	// length, the first 2-t bytes of signature 0's hint.
	var first [6]byte
	copy(first[:], e.head[len(e.head)-t:])
	binary.BigEndian.PutUint32(first[t:], uint32(len(sigs)))
	copy(first[t+4:], sigs[0].Hint[:2-t])
	enc.Encode(out[w:], first[:])
	w += 8
	// Up to prev's last full group, nothing changed (relPrev is at least 76).
	w += copy(out[w:], prev[h+8:h+full/3*4])
	// Then the end of signature n-1 and the new signatures, from a group
	// boundary.
	var stack [rawOnStack]byte
	raw := append(stack[:0], last[64-r:]...)
	for _, s := range sigs[n:] {
		raw = append(raw, s.Hint[:]...)
		raw = binary.BigEndian.AppendUint32(raw, 64)
		raw = append(raw, s.Signature...)
	}
	enc.Encode(out[w:], raw)
	return e.with(sigs), unsafe.String(unsafe.SliceData(out), len(out)), nil
}

// rawOnStack holds the tail of an envelope and MaxSignatures signatures of
// 64 bytes: 2 bytes of the head, the list's length, and 72 bytes each.
const rawOnStack = 2 + 4 + MaxSignatures*72

// with is env with sigs as its signature list, shared.
func (e *EnvelopeEncoder) with(sigs []xdr.DecoratedSignature) xdr.TransactionEnvelope {
	env := e.env
	switch env.Type {
	case xdr.EnvelopeTypeEnvelopeTypeTx:
		v1 := *env.V1
		v1.Signatures = sigs
		env.V1 = &v1
	case xdr.EnvelopeTypeEnvelopeTypeTxV0:
		v0 := *env.V0
		v0.Signatures = sigs
		env.V0 = &v0
	}
	return env
}

func (e *EnvelopeEncoder) slow(sigs []xdr.DecoratedSignature) (xdr.TransactionEnvelope, string, error) {
	env := WithSignatures(e.env, sigs)
	s, err := EncodeEnvelope(env)
	return env, s, err
}
