package ledgertest

import (
	"crypto/ed25519"
	"crypto/sha512"
	"encoding/binary"
	"io"

	"filippo.io/edwards25519"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// AltSignature is another valid signature of hash by kp, different for each
// n, under kp's own hint.
//
// Ed25519 signers derive their nonce from the key and the message, so an
// honest signer produces one signature per message. Nothing forces a holder
// of the key to: any nonce gives a signature that verifies. A malicious
// co-signer can thus send many distinct valid signatures, which is why
// admission deduplicates by recovered signer and not by signature bytes.
func AltSignature(hash [32]byte, kp *keypair.Full, n int) xdr.DecoratedSignature {
	seed, err := strkey.Decode(strkey.VersionByteSeed, kp.Seed())
	if err != nil {
		panic("ledgertest: seed: " + err.Error())
	}
	return xdr.DecoratedSignature{
		Hint:      xdr.SignatureHint(kp.Hint()),
		Signature: AltSign(ed25519.NewKeyFromSeed(seed), hash[:], uint64(n)),
	}
}

// AltSign is a valid ed25519 signature of msg by priv whose nonce comes from
// n instead of from the key: a different signature for each n, every one of
// which crypto/ed25519.Verify accepts. It runs on filippo.io/edwards25519,
// the curve code crypto/ed25519 itself is built on, fast enough for the load
// kit's thousands of payload signatures. Not constant-time: test material
// only.
func AltSign(priv ed25519.PrivateKey, msg []byte, n uint64) []byte {
	h := sha512.Sum512(priv.Seed())
	a, err := edwards25519.NewScalar().SetBytesWithClamping(h[:32])
	if err != nil {
		panic("ledgertest: clamp: " + err.Error()) // 32 bytes always clamp
	}

	var nb [8]byte
	binary.LittleEndian.PutUint64(nb[:], n)
	nonce := sha512.New()
	nonce.Write([]byte("closerelay ledgertest alt nonce"))
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
		panic("ledgertest: scalar: " + err.Error()) // 64 bytes always reduce
	}
	return s
}
