// Package corever verifies ed25519 signatures by stellar-core's acceptance
// rule rather than Go's.
//
// It exists because the relay may admit a signature only if the ledger will
// accept it (CONTRACT section 10): a signature core refuses would turn a
// "ready" envelope into a tx_bad_auth failure. Ed25519 implementations do not
// agree on which signatures are valid, and Go's crypto/ed25519 accepts some
// that stellar-core refuses: it does no small-order check on the public key A
// or on R, and it accepts a non-canonical encoding of A. A signature under a
// small-order key verifies for many messages at once and binds nothing.
//
// The rule, which stellar-core applies to every transaction signature, is
// cofactorless RFC 8032 verification with these checks, each one a refusal:
//
//   - A must be a canonical encoding (y < p, and no sign bit on x = 0) of a
//     point on the curve that is not of small order;
//   - R likewise: a canonical encoding of a curve point not of small order;
//   - S must be below the group order L;
//   - [S]B must equal R + [k]A, k = SHA-512(R || A || M) mod L, compared by
//     encoding (the cofactorless equation; the cofactored [8] form that
//     ZIP-215 uses is not enough).
//
// This is libsodium 1.0.18's crypto_sign_verify_detached, which core pins.
// From protocol 25, core instead verifies with ed25519-dalek's
// verify_strict. It follows the same rule except that it does not refuse a
// non-canonical A of large order. Nobody can sign for such a key: its point
// has a y-coordinate below 19, and no one knows its discrete log. So the two
// never disagree on a signature anyone can produce, and this package keeps
// the stricter libsodium rule. testdata/README.md cites the sources and
// derives core's verdict for every vector kept there.
//
// The arithmetic and every check but one are those of
// github.com/oasisprotocol/curve25519-voi's primitives/ed25519 under
// VerifyOptions{CofactorlessVerify: true} with every Allow* option off. The
// one is R's small order: voi finds it by decompressing R, a square root that
// costs about a seventh of a verification, and this package instead compares
// R's bytes with the encodings of the 8 small-order points, as libsodium
// does (ge25519_has_small_order), and lets voi skip the decompression
// (AllowSmallOrderR). The two agree on every signature: an R that voi
// would find undecodable or non-canonical can never equal the canonical
// encoding the cofactorless check computes, and a canonical R is of small
// order exactly when it is one of those 8 encodings.
package corever

import (
	"crypto/ed25519"

	"github.com/oasisprotocol/curve25519-voi/curve"
	voi "github.com/oasisprotocol/curve25519-voi/primitives/ed25519"
)

// coreOptions is stellar-core's rule in curve25519-voi's terms but for R's
// small order, which smallOrderR checks. With these options the library
// refuses a small-order or non-canonical A, a non-canonical R and S >= L,
// and it checks the cofactorless equation by comparing R's encoding (which
// refuses an R that does not decode). AllowSmallOrderR only spares it
// decompressing R. Never modified.
var coreOptions = &voi.Options{
	Verify: &voi.VerifyOptions{
		AllowSmallOrderA:   false,
		AllowSmallOrderR:   true, // smallOrderR refuses these first
		AllowNonCanonicalA: false,
		AllowNonCanonicalR: false,
		CofactorlessVerify: true,
	},
}

// smallOrderEncodings are the canonical encodings of the 8 points of small
// order, computed from curve25519-voi's table of them.
var smallOrderEncodings = func() (out [8][32]byte) {
	for i, p := range curve.EIGHT_TORSION {
		var c curve.CompressedEdwardsY
		c.SetEdwardsPoint(p)
		out[i] = c
	}
	return out
}()

// smallOrderR reports whether sig's R is the canonical encoding of a point
// of small order. Non-canonical encodings of those points are refused by
// coreOptions' canonical check on R.
func smallOrderR(sig []byte) bool {
	for i := range smallOrderEncodings {
		if string(sig[:32]) == string(smallOrderEncodings[i][:]) {
			return true
		}
	}
	return false
}

// Key is a public key expanded for repeated verification: decoded and checked
// once, with its precomputed table kept, so each Verify skips that work. Make
// one per candidate signer per plan. A Key is immutable and safe for
// concurrent use. A nil *Key verifies nothing.
type Key struct {
	exp *voi.ExpandedPublicKey
}

// NewKey expands pub. It reports false, and returns nil, when no signature
// can ever verify under pub by core's rule: pub is not 32 bytes, is not a
// canonical encoding of a curve point, or is a point of small order.
func NewKey(pub ed25519.PublicKey) (*Key, bool) {
	if !validKey(pub) {
		return nil, false
	}
	exp, err := voi.NewExpandedPublicKey(voi.PublicKey(pub))
	if err != nil {
		return nil, false // unreachable: validKey decoded the same bytes
	}
	return &Key{exp: exp}, true
}

// Verify reports whether sig is a signature of msg by k that stellar-core
// accepts. It is false for a nil k and for a sig that is not 64 bytes.
func (k *Key) Verify(msg, sig []byte) bool {
	if k == nil || len(sig) != ed25519.SignatureSize || smallOrderR(sig) {
		return false
	}
	return voi.VerifyExpandedWithOptions(k.exp, msg, sig, coreOptions)
}

// Verify reports whether sig is a signature of msg by pub that stellar-core
// accepts. Unlike crypto/ed25519.Verify it never panics: a pub that is not 32
// bytes or a sig that is not 64 bytes is simply refused. For several
// signatures under the same key, NewKey once and Key.Verify is cheaper.
func Verify(pub ed25519.PublicKey, msg, sig []byte) bool {
	if len(pub) != ed25519.PublicKeySize || len(sig) != ed25519.SignatureSize || smallOrderR(sig) {
		return false
	}
	return voi.VerifyWithOptions(voi.PublicKey(pub), msg, sig, coreOptions)
}

// validKey reports whether pub can pass core's checks on A: 32 bytes, a
// canonical encoding, a point on the curve, not of small order. These are the
// same curve25519-voi predicates that VerifyWithOptions applies under
// coreOptions; NewKey runs them up front only so that it can report them.
func validKey(pub ed25519.PublicKey) bool {
	var enc curve.CompressedEdwardsY
	if _, err := enc.SetBytes(pub); err != nil {
		return false
	}
	if !enc.IsCanonicalVartime() {
		return false
	}
	var p curve.EdwardsPoint
	if _, err := p.SetCompressedY(&enc); err != nil {
		return false
	}
	return !p.IsSmallOrder()
}
