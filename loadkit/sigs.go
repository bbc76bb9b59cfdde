package loadkit

import (
	"crypto/ed25519"
	"crypto/sha512"
	"encoding/binary"
	"io"

	"filippo.io/edwards25519"
)

// AltSignature is a valid ed25519 signature of msg by priv whose nonce comes
// from n instead of from the key: a different signature for each n, every
// one of which crypto/ed25519.Verify accepts.
//
// An honest signer derives its nonce from its key and the message, so it
// makes one signature per message; a holder of the key may make as many as
// it likes. The relay must therefore pay a verification for each such
// signature it has not admitted yet, which is what the payload's Fresh
// partials measure. This is ledgertest.AltSignature's arithmetic on
// filippo.io/edwards25519 (the curve code crypto/ed25519 itself is built on)
// instead of math/big: about a thousand times faster, which a payload of
// thousands of fresh signatures needs. It is not constant-time and is meant
// for test material only.
func AltSignature(priv ed25519.PrivateKey, msg []byte, n uint64) []byte {
	h := sha512.Sum512(priv.Seed())
	a, err := edwards25519.NewScalar().SetBytesWithClamping(h[:32])
	if err != nil {
		panic("loadkit: clamp: " + err.Error()) // 32 bytes always clamp
	}

	var nb [8]byte
	binary.LittleEndian.PutUint64(nb[:], n)
	nonce := sha512.New()
	nonce.Write([]byte("closerelay loadkit alt nonce"))
	nonce.Write(nb[:])
	nonce.Write(h[32:])
	nonce.Write(msg)
	r := uniformScalar(nonce.Sum(nil))
	R := new(edwards25519.Point).ScalarBaseMult(r).Bytes()

	kh := sha512.New()
	kh.Write(R)
	kh.Write(priv.Public().(ed25519.PublicKey))
	kh.Write(msg)
	k := uniformScalar(kh.Sum(nil))
	S := edwards25519.NewScalar().MultiplyAdd(k, a, r)
	return append(R, S.Bytes()...)
}

// ExpensiveSignature is an invalid signature that costs a verifier as much
// as a valid one: R is a point on the curve and S a canonical scalar
// (S < L), so neither of ed25519's cheap early refusals (a non-canonical S,
// an R that does not decode) applies, and every candidate key a relay tries
// it against costs one full verification. Both come from rand; the chance
// that the result verifies under any key is negligible (about 2^-252).
func ExpensiveSignature(rand io.Reader) ([]byte, error) {
	var buf [128]byte
	if _, err := io.ReadFull(rand, buf[:]); err != nil {
		return nil, err
	}
	R := new(edwards25519.Point).ScalarBaseMult(uniformScalar(buf[:64])).Bytes()
	S := uniformScalar(buf[64:])
	return append(R, S.Bytes()...), nil
}

// uniformScalar reduces 64 bytes modulo the group order L.
func uniformScalar(b []byte) *edwards25519.Scalar {
	s, err := edwards25519.NewScalar().SetUniformBytes(b)
	if err != nil {
		panic("loadkit: scalar: " + err.Error()) // 64 bytes always reduce
	}
	return s
}
