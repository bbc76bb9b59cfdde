package corever_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"filippo.io/edwards25519"
	voi "github.com/oasisprotocol/curve25519-voi/primitives/ed25519"

	"github.com/closerelay/closerelay/ledger/corever"
)

// vector is one entry of a testdata/*.json file (testdata/README.md).
type vector struct {
	ID     string `json:"id"`
	Note   string `json:"note"`
	Msg    string `json:"msg"` // hex
	Pub    string `json:"pub"` // hex
	Sig    string `json:"sig"` // hex
	Core   bool   `json:"core"`
	Zip215 *bool  `json:"zip215"` // only where the source gives the ZIP-215 verdict
}

type decoded struct {
	vector
	msg, pub, sig []byte
}

// vectorFiles are the kept vector sets and how many vectors each holds, so a
// truncated or mangled file fails loudly.
var vectorFiles = map[string]int{
	"core_iacr_2020_1244.json": 12,
	"zip215_small_order.json":  196,
	"rfc8032.json":             3,
}

func loadVectors(t testing.TB) []decoded {
	t.Helper()
	var all []decoded
	for name, want := range vectorFiles {
		raw, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Source  string   `json:"source"`
			Vectors []vector `json:"vectors"`
		}
		if err := json.Unmarshal(raw, &f); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if f.Source == "" || len(f.Vectors) != want {
			t.Fatalf("%s: source %q, %d vectors, want %d", name, f.Source, len(f.Vectors), want)
		}
		for _, v := range f.Vectors {
			d := decoded{vector: v}
			d.msg = mustHex(t, v.ID, v.Msg)
			d.pub = mustHex(t, v.ID, v.Pub)
			d.sig = mustHex(t, v.ID, v.Sig)
			if len(d.pub) != ed25519.PublicKeySize || len(d.sig) != ed25519.SignatureSize {
				t.Fatalf("%s: pub %d bytes, sig %d bytes", v.ID, len(d.pub), len(d.sig))
			}
			all = append(all, d)
		}
	}
	return all
}

func mustHex(t testing.TB, id, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	return b
}

// TestVectors checks every kept vector is accepted or refused exactly as
// stellar-core does, by both entry points, and that the independent model of
// libsodium's rule below agrees. A ZIP-215 vector must also pass curve25519-voi's
// ZIP-215 preset, which shows the data is what its source says it is.
func TestVectors(t *testing.T) {
	vs := loadVectors(t)
	if len(vs) != 12+196+3 {
		t.Fatalf("%d vectors", len(vs))
	}
	for _, v := range vs {
		if got := corever.Verify(v.pub, v.msg, v.sig); got != v.Core {
			t.Errorf("%s: Verify = %v, core %v (%s)", v.ID, got, v.Core, v.Note)
		}
		k, ok := corever.NewKey(v.pub)
		if got := k.Verify(v.msg, v.sig); got != v.Core {
			t.Errorf("%s: NewKey ok=%v, Key.Verify = %v, core %v", v.ID, ok, got, v.Core)
		}
		if v.Core && !ok {
			t.Errorf("%s: NewKey refused the key of a signature core accepts", v.ID)
		}
		if got := sodiumVerify(v.pub, v.msg, v.sig); got != v.Core {
			t.Errorf("%s: libsodium model = %v, core %v", v.ID, got, v.Core)
		}
		if v.Zip215 != nil {
			opts := &voi.Options{Verify: voi.VerifyOptionsZIP_215}
			if got := voi.VerifyWithOptions(voi.PublicKey(v.pub), v.msg, v.sig, opts); got != *v.Zip215 {
				t.Errorf("%s: ZIP-215 verdict %v, the vector says %v", v.ID, got, *v.Zip215)
			}
		}
	}
}

// TestGoAcceptsCoreRefuses is the difference that matters: signatures Go's
// crypto/ed25519 accepts and stellar-core refuses.
func TestGoAcceptsCoreRefuses(t *testing.T) {
	// Core's own IACR 2020/1244 case 1: a key of order 8 and a signature
	// that satisfies the cofactorless equation.
	msg := mustHex(t, "iacr-1", "9bd9f44f4dcc75bd531b56b2cd280b0bb38fc1cd6d1230e14861d861de092e79")
	pub := mustHex(t, "iacr-1", "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa")
	sig := mustHex(t, "iacr-1", "f7badec5b8abeaf699583992219b7b223f1df3fbbea919844e3f7c554a43dd43"+
		"a5bb704786be79fc476f91d3f3f89b03984d8068dcf1bb7dfc6637b45450ac04")
	if !ed25519.Verify(pub, msg, sig) {
		t.Fatal("crypto/ed25519 refuses iacr-1; this test's premise is gone")
	}
	if corever.Verify(pub, msg, sig) {
		t.Error("corever accepts iacr-1, a small-order key core refuses")
	}
	if _, ok := corever.NewKey(pub); ok {
		t.Error("NewKey accepts a key of order 8")
	}

	// ZIP-215 vector 0: A = R = the identity and S = 0. Under Go that one
	// signature verifies for every message; core refuses it for all.
	pub = mustHex(t, "zip215-000", "0100000000000000000000000000000000000000000000000000000000000000")
	sig = mustHex(t, "zip215-000", "0100000000000000000000000000000000000000000000000000000000000000"+
		"0000000000000000000000000000000000000000000000000000000000000000")
	for _, m := range []string{"Zcash", "", "pay 1000 XLM to the attacker"} {
		if !ed25519.Verify(pub, []byte(m), sig) {
			t.Fatalf("crypto/ed25519 refuses the identity signature on %q; premise gone", m)
		}
		if corever.Verify(pub, []byte(m), sig) {
			t.Errorf("corever accepts the identity signature on %q", m)
		}
	}

	// Across the kept vectors: how many Go accepts that core refuses, and
	// that Go never refuses one core accepts.
	var goOnly []string
	for _, v := range loadVectors(t) {
		g := ed25519.Verify(v.pub, v.msg, v.sig)
		if g && !v.Core {
			goOnly = append(goOnly, v.ID)
		}
		if v.Core && !g {
			t.Errorf("%s: core accepts, crypto/ed25519 refuses", v.ID)
		}
	}
	if len(goOnly) == 0 {
		t.Fatal("no kept vector separates Go from core")
	}
	t.Logf("%d kept vectors are accepted by crypto/ed25519 and refused by core: %v", len(goOnly), goOnly)
}

// TestNonCanonicalKeys enumerates every non-canonical point encoding: y + p
// for the 19 field elements y < 19, with either sign bit, and the sign bit
// set on x = 0 (y = 1 and y = p-1). NewKey must refuse each. 26 of them
// encode curve points: 6 of small order (y = 0 and y = 1 as y + p, each with
// either sign bit, and the two sign-bit cases) and 20 of large order (y in
// 3, 4, 5, 6, 9, 10, 14, 15, 16, 18 as y + p, either sign bit). The 20 are
// where ed25519-dalek's verify_strict, which core uses from protocol 25,
// would not refuse, and where no one can sign (package comment).
func TestNonCanonicalKeys(t *testing.T) {
	var encs [][]byte
	for y := 0; y < 19; y++ {
		e := bytes.Repeat([]byte{0xff}, 32)
		e[0] = byte(0xed + y)
		e[31] = 0x7f
		signed := bytes.Clone(e)
		signed[31] |= 0x80
		encs = append(encs, e, signed)
	}
	one := make([]byte, 32)
	one[0], one[31] = 1, 0x80
	minusOne := bytes.Repeat([]byte{0xff}, 32)
	minusOne[0] = 0xec
	encs = append(encs, one, minusOne)

	points, small := 0, 0
	msg := []byte("any message")
	sig := make([]byte, 64)
	for _, e := range encs {
		p, err := new(edwards25519.Point).SetBytes(e) // accepts non-canonical encodings
		if err != nil {
			continue
		}
		points++
		if bytes.Equal(p.Bytes(), e) {
			t.Fatalf("%x is canonical", e)
		}
		if new(edwards25519.Point).MultByCofactor(p).Equal(edwards25519.NewIdentityPoint()) == 1 {
			small++
		}
		if _, ok := corever.NewKey(e); ok {
			t.Errorf("NewKey accepts the non-canonical %x", e)
		}
		if corever.Verify(e, msg, sig) {
			t.Errorf("Verify accepts under the non-canonical %x", e)
		}
	}
	if points != 26 || small != 6 {
		t.Fatalf("%d non-canonical point encodings, %d of small order; want 26 and 6", points, small)
	}
}

func TestLengthsAndNil(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte("m")
	sig := ed25519.Sign(priv, msg)
	if !corever.Verify(pub, msg, sig) {
		t.Fatal("an honest signature is refused")
	}
	for _, p := range [][]byte{nil, pub[:31], append(bytes.Clone(pub), 0)} {
		if corever.Verify(p, msg, sig) {
			t.Errorf("Verify accepts a %d-byte key", len(p))
		}
		if _, ok := corever.NewKey(p); ok {
			t.Errorf("NewKey accepts a %d-byte key", len(p))
		}
	}
	k, ok := corever.NewKey(pub)
	if !ok {
		t.Fatal("NewKey refuses an honest key")
	}
	for _, s := range [][]byte{nil, sig[:63], append(bytes.Clone(sig), 0)} {
		if corever.Verify(pub, msg, s) || k.Verify(msg, s) {
			t.Errorf("a %d-byte signature is accepted", len(s))
		}
	}
	var nilKey *corever.Key
	if nilKey.Verify(msg, sig) {
		t.Error("a nil Key verifies")
	}
}

// TestDifferential builds signatures on either side of each of core's checks
// (honest ones, mixed-order A and R, S + L, forged bits) and requires
// corever, Key.Verify and the libsodium model to agree on every one, and to
// give the verdict the construction implies where it implies one.
func TestDifferential(t *testing.T) {
	n := 64
	if testing.Short() {
		n = 16
	}
	torsion := smallOrderPoints(t)
	var order8 *edwards25519.Point // a point of order 8: [4]P is not the identity
	for _, T := range torsion {
		four := new(edwards25519.Point).Add(T, T)
		four.Add(four, four)
		if four.Equal(edwards25519.NewIdentityPoint()) == 0 {
			order8 = T
			break
		}
	}
	if order8 == nil {
		t.Fatal("no point of order 8 among the small-order points")
	}
	counts := map[string][2]int{}
	check := func(kind string, pub, msg, sig []byte, want int) {
		t.Helper()
		got := corever.Verify(pub, msg, sig)
		k, _ := corever.NewKey(pub)
		if kg := k.Verify(msg, sig); kg != got {
			t.Fatalf("%s: Verify %v, Key.Verify %v", kind, got, kg)
		}
		if m := sodiumVerify(pub, msg, sig); m != got {
			t.Fatalf("%s: corever %v, libsodium model %v (pub %x sig %x msg %x)", kind, got, m, pub, sig, msg)
		}
		if want >= 0 && got != (want == 1) {
			t.Fatalf("%s: corever %v, want %v", kind, got, want == 1)
		}
		c := counts[kind]
		if got {
			c[0]++
		} else {
			c[1]++
		}
		counts[kind] = c
	}
	for i := 0; i < n; i++ {
		a, r := randScalar(t), randScalar(t)
		msg := []byte(fmt.Sprintf("message %d", i))
		A := new(edwards25519.Point).ScalarBaseMult(a)
		R := new(edwards25519.Point).ScalarBaseMult(r)

		// Honest, then one bit flipped (over 64 rounds, one in each byte).
		sig := sign(a, r, A, R, msg)
		check("honest", A.Bytes(), msg, sig, 1)
		bad := bytes.Clone(sig)
		bad[i%64] ^= 1 << (i % 8)
		check("bit flipped", A.Bytes(), msg, bad, 0)

		// S + L: the same signature with a non-canonical S.
		check("S+L", A.Bytes(), msg, addL(sig), 0)

		// A + T, T of small order: the cofactorless equation leaves
		// R - [k]T, so it holds exactly when [k]T is the identity. Draw
		// nonces until there is one signature of each kind.
		T := torsion[1+i%(len(torsion)-1)]
		At := new(edwards25519.Point).Add(A, T)
		for _, want := range []int{1, 0} {
			for try := 0; ; try++ {
				if try == 200 {
					t.Fatalf("no mixed-order A signature with verdict %d in %d nonces", want, try)
				}
				nonce := randScalar(t)
				Rn := new(edwards25519.Point).ScalarBaseMult(nonce)
				kT := new(edwards25519.Point).ScalarMult(challenge(Rn, At, msg), T)
				if (kT.Equal(edwards25519.NewIdentityPoint()) == 1) == (want == 1) {
					check("mixed-order A", At.Bytes(), msg, sign(a, nonce, At, Rn, msg), want)
					break
				}
			}
		}

		// R + T: S = r + k·a fits R, not R + T; only the cofactored
		// equation (ZIP-215) would hold.
		Rt := new(edwards25519.Point).Add(R, T)
		check("mixed-order R", A.Bytes(), msg, sign(a, r, A, Rt, msg), 0)

		// A small-order R under an honest key, the equation holding: with
		// R the identity and S = k·a, [S]B - [k]A is the identity, so only
		// R's small order refuses it (libsodium's step 2). The other
		// small-order points, and the non-canonical encodings of all of
		// them, fail the equation too.
		for _, R0 := range torsion {
			check("small-order R, honest A", A.Bytes(), msg, sign(a, edwards25519.NewScalar(), A, R0, msg), 0)
		}
		for _, enc := range nonCanonicalSmallOrder() {
			S := edwards25519.NewScalar().Multiply(challengeOf(enc, A.Bytes(), msg), a)
			check("non-canonical small-order R, honest A", A.Bytes(), msg, append(bytes.Clone(enc), S.Bytes()...), 0)
		}

		// Each small-order R under a mixed-order key A + T8 (T8 of order
		// 8), the equation holding: with S = k·a, [S]B - [k](A + T8) is
		// -[k]T8, which is R for one k mod 8 in 8. Messages are drawn until
		// it is; then only R's small order refuses the signature, for each
		// of the 8 encodings.
		At8 := new(edwards25519.Point).Add(A, order8)
		for _, R0 := range torsion {
			for try := 0; ; try++ {
				if try == 400 {
					t.Fatalf("no message makes -[k]T8 equal %x in %d tries", R0.Bytes(), try)
				}
				m := []byte(fmt.Sprintf("message %d, small-order R %x, try %d", i, R0.Bytes()[:4], try))
				kT := new(edwards25519.Point).ScalarMult(challenge(R0, At8, m), order8)
				if new(edwards25519.Point).Negate(kT).Equal(R0) == 1 {
					check("small-order R, mixed-order A", At8.Bytes(), m, sign(a, edwards25519.NewScalar(), At8, R0, m), 0)
					break
				}
			}
		}

		// A small-order key T with S = 0 and each small-order R: the
		// cofactorless equation holds for the R equal to -[k]T, which Go
		// accepts; core refuses them all.
		for _, R0 := range torsion {
			s := make([]byte, 64)
			copy(s, R0.Bytes())
			check("small-order A and R", T.Bytes(), msg, s, 0)
		}
	}
	t.Logf("accepted/refused by kind: %v", counts)
}

// TestKeyConcurrent shares one Key across goroutines (run with -race).
func TestKeyConcurrent(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k, ok := corever.NewKey(pub)
	if !ok {
		t.Fatal("NewKey refuses an honest key")
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				msg := []byte(fmt.Sprintf("%d/%d", g, i))
				sig := ed25519.Sign(priv, msg)
				if !k.Verify(msg, sig) || k.Verify(append(msg, '!'), sig) {
					errs <- string(msg)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for m := range errs {
		t.Errorf("wrong verdict on %q", m)
	}
}

// sodiumVerify is a model of libsodium 1.0.18's crypto_sign_verify_detached
// (src/libsodium/crypto_sign/ed25519/ref10/open.c), the verifier stellar-core
// pins, written from that function's steps with filippo.io/edwards25519, a
// different curve library from the one corever uses, so the two check each
// other.
func sodiumVerify(pub, msg, sig []byte) bool {
	if len(pub) != 32 || len(sig) != 64 {
		return false
	}
	// sc25519_is_canonical(sig + 32): S < L.
	S, err := edwards25519.NewScalar().SetCanonicalBytes(sig[32:])
	if err != nil {
		return false
	}
	// ge25519_has_small_order(sig): R's encoding against the blocklist.
	if sodiumSmallOrder(sig[:32]) {
		return false
	}
	// ge25519_is_canonical(pk) and ge25519_has_small_order(pk).
	if !sodiumCanonical(pub) || sodiumSmallOrder(pub) {
		return false
	}
	// ge25519_frombytes_negate_vartime(&A, pk).
	A, err := new(edwards25519.Point).SetBytes(pub)
	if err != nil {
		return false
	}
	h := sha512.New()
	h.Write(sig[:32])
	h.Write(pub)
	h.Write(msg)
	k, err := edwards25519.NewScalar().SetUniformBytes(h.Sum(nil))
	if err != nil {
		panic(err)
	}
	// [k](-A) + [S]B, encoded, byte-compared with R.
	check := new(edwards25519.Point).VarTimeDoubleScalarBaseMult(k, new(edwards25519.Point).Negate(A), S)
	return bytes.Equal(check.Bytes(), sig[:32])
}

// sodiumCanonical is ge25519_is_canonical: the y encoded, sign bit aside, is
// below p = 2^255 - 19.
func sodiumCanonical(s []byte) bool {
	if s[31]&0x7f != 0x7f || s[0] < 0xed {
		return true
	}
	for _, b := range s[1:31] {
		if b != 0xff {
			return true
		}
	}
	return false
}

// sodiumBlocklist is ge25519_has_small_order's list: the y of every point of
// small order (0, 1, the two order-8 values, p-1) and the two non-canonical
// ones that fit (p, p+1). The sign bit is not compared.
var sodiumBlocklist = func() [][]byte {
	var out [][]byte
	for _, h := range []string{
		"0000000000000000000000000000000000000000000000000000000000000000",
		"0100000000000000000000000000000000000000000000000000000000000000",
		"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
		"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
		"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
	} {
		b, err := hex.DecodeString(h)
		if err != nil {
			panic(err)
		}
		out = append(out, b)
	}
	return out
}()

func sodiumSmallOrder(s []byte) bool {
	masked := bytes.Clone(s)
	masked[31] &= 0x7f
	for _, b := range sodiumBlocklist {
		if bytes.Equal(masked, b) {
			return true
		}
	}
	return false
}

// nonCanonicalSmallOrder returns the encodings in sodiumBlocklist, with
// either sign bit, that are not the canonical encoding of their point: y = p
// and y = p+1, and the sign bit set on x = 0 (y = 1 and y = p-1).
func nonCanonicalSmallOrder() [][]byte {
	var out [][]byte
	for _, b := range sodiumBlocklist {
		for _, sign := range []byte{0, 0x80} {
			e := bytes.Clone(b)
			e[31] |= sign
			p, err := new(edwards25519.Point).SetBytes(e)
			if err == nil && bytes.Equal(p.Bytes(), e) {
				continue // canonical
			}
			out = append(out, e)
		}
	}
	return out
}

// smallOrderPoints returns the 8 points of small order, the identity first.
func smallOrderPoints(t testing.TB) []*edwards25519.Point {
	t.Helper()
	seen := map[string]bool{}
	var out []*edwards25519.Point
	for _, i := range []int{1, 0, 2, 3, 4} { // y = 1, the identity, first
		b := sodiumBlocklist[i]
		for _, sign := range []byte{0, 0x80} {
			e := bytes.Clone(b)
			e[31] |= sign
			p, err := new(edwards25519.Point).SetBytes(e)
			if err != nil || seen[string(p.Bytes())] {
				continue
			}
			seen[string(p.Bytes())] = true
			out = append(out, p)
		}
	}
	if len(out) != 8 || out[0].Equal(edwards25519.NewIdentityPoint()) != 1 {
		t.Fatalf("%d small-order points", len(out))
	}
	return out
}

func randScalar(t testing.TB) *edwards25519.Scalar {
	t.Helper()
	var b [64]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	s, err := edwards25519.NewScalar().SetUniformBytes(b[:])
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func challenge(R, A *edwards25519.Point, msg []byte) *edwards25519.Scalar {
	return challengeOf(R.Bytes(), A.Bytes(), msg)
}

// challengeOf is challenge over encodings as they are, canonical or not.
func challengeOf(R, A, msg []byte) *edwards25519.Scalar {
	h := sha512.New()
	h.Write(R)
	h.Write(A)
	h.Write(msg)
	k, err := edwards25519.NewScalar().SetUniformBytes(h.Sum(nil))
	if err != nil {
		panic(err)
	}
	return k
}

// sign returns R || S with S = r + k·a and k = H(R, A, msg); A and R need not
// be [a]B and [r]B, which is how the mixed-order cases are made.
func sign(a, r *edwards25519.Scalar, A, R *edwards25519.Point, msg []byte) []byte {
	S := edwards25519.NewScalar().MultiplyAdd(challenge(R, A, msg), a, r)
	return append(R.Bytes(), S.Bytes()...)
}

// addL returns sig with L added to its S, which stays below 2^256.
func addL(sig []byte) []byte {
	L := []byte{0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10}
	out := bytes.Clone(sig)
	carry := 0
	for i := 0; i < 32; i++ {
		v := int(sig[32+i]) + int(L[i]) + carry
		out[32+i] = byte(v)
		carry = v >> 8
	}
	return out
}
