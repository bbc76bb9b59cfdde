package ledgertest

import (
	"crypto/ed25519"
	"crypto/sha512"
	"encoding/binary"
	"math/big"
	"slices"

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
// This helper makes such signatures, with textbook (slow, not constant-time)
// curve arithmetic that is fit for tests only.
func AltSignature(hash [32]byte, kp *keypair.Full, n int) xdr.DecoratedSignature {
	seed, err := strkey.Decode(strkey.VersionByteSeed, kp.Seed())
	if err != nil {
		panic("ledgertest: seed: " + err.Error())
	}
	h := sha512.Sum512(seed)
	h[0] &= 248
	h[31] &= 127
	h[31] |= 64
	a := leInt(h[:32])
	pub := ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)

	var nb [8]byte
	binary.LittleEndian.PutUint64(nb[:], uint64(n))
	rh := sha512.Sum512(append(append([]byte("ledgertest alt nonce"), nb[:]...), hash[:]...))
	r := new(big.Int).Mod(leInt(rh[:]), edL)
	R := edEncode(edMul(r, edBase()))

	kh := sha512.New()
	kh.Write(R)
	kh.Write(pub)
	kh.Write(hash[:])
	k := new(big.Int).Mod(leInt(kh.Sum(nil)), edL)
	s := new(big.Int).Mul(k, a)
	s.Add(s, r).Mod(s, edL)

	sig := append(R, leBytes(s)...)
	if !ed25519.Verify(pub, hash[:], sig) {
		panic("ledgertest: alternative signature does not verify")
	}
	return xdr.DecoratedSignature{Hint: xdr.SignatureHint(kp.Hint()), Signature: sig}
}

var (
	edP = func() *big.Int { p := new(big.Int).Lsh(big.NewInt(1), 255); return p.Sub(p, big.NewInt(19)) }()
	edL = func() *big.Int {
		l, _ := new(big.Int).SetString("27742317777372353535851937790883648493", 10)
		return l.Add(l, new(big.Int).Lsh(big.NewInt(1), 252))
	}()
	// edD is -121665/121666 mod p.
	edD = func() *big.Int {
		d := new(big.Int).ModInverse(big.NewInt(121666), edP)
		d.Mul(d, big.NewInt(-121665))
		return d.Mod(d, edP)
	}()
)

type edPoint struct{ x, y *big.Int }

func edBase() edPoint {
	x, _ := new(big.Int).SetString("15112221349535400772501151409588531511454012693041857206046113283949847762202", 10)
	y, _ := new(big.Int).SetString("46316835694926478169428394003475163141307993866256225615783033603165251855960", 10)
	return edPoint{x, y}
}

// edAdd is the twisted Edwards (a = -1) addition law in affine coordinates.
func edAdd(p, q edPoint) edPoint {
	x1y2 := new(big.Int).Mul(p.x, q.y)
	y1x2 := new(big.Int).Mul(p.y, q.x)
	y1y2 := new(big.Int).Mul(p.y, q.y)
	x1x2 := new(big.Int).Mul(p.x, q.x)
	t := new(big.Int).Mul(x1x2, y1y2)
	t.Mul(t, edD).Mod(t, edP)
	xDen := new(big.Int).Add(big.NewInt(1), t)
	yDen := new(big.Int).Sub(big.NewInt(1), t)
	x := new(big.Int).Add(x1y2, y1x2)
	x.Mul(x, xDen.ModInverse(xDen.Mod(xDen, edP), edP)).Mod(x, edP)
	y := new(big.Int).Add(y1y2, x1x2)
	y.Mul(y, yDen.ModInverse(yDen.Mod(yDen, edP), edP)).Mod(y, edP)
	return edPoint{x, y}
}

func edMul(k *big.Int, p edPoint) edPoint {
	acc := edPoint{big.NewInt(0), big.NewInt(1)}
	for i := k.BitLen() - 1; i >= 0; i-- {
		acc = edAdd(acc, acc)
		if k.Bit(i) == 1 {
			acc = edAdd(acc, p)
		}
	}
	return acc
}

func edEncode(p edPoint) []byte {
	b := leBytes(p.y)
	b[31] |= byte(p.x.Bit(0)) << 7
	return b
}

func leInt(b []byte) *big.Int {
	be := slices.Clone(b)
	slices.Reverse(be)
	return new(big.Int).SetBytes(be)
}

func leBytes(v *big.Int) []byte {
	b := v.FillBytes(make([]byte, 32))
	slices.Reverse(b)
	return b
}
