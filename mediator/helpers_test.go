package mediator

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"testing"
	"time"

	mt "github.com/closerelay/closerelay/mediator/mediatortest"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Fixed keys, from mediatortest so both test suites agree on them.
const (
	testSecret  = mt.Secret
	otherSecret = mt.OtherSecret
	testDest    = mt.Dest
	otherDest   = mt.OtherDest
	testNonce   = "00112233445566778899aabbccddeeff"
	// testMediator stands in for a derived mediator where only its address
	// matters (ValidateForward is given the address); fuzzMediator holds
	// its seed.
	testMediator = "GATNJZHBWAG5GMFVAGDWXMH2OO4UE7XBIOXGRN57WEXV5IKMLV44ROO3"
)

// badChecksum is testSecret with its last character changed: it passes the
// environment-level check and fails the strict one.
var badChecksum = testSecret[:55] + "A"

// t0 is the fixed "now" of tests that do not run in a synctest bubble.
var t0 = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

func testMaster(t testing.TB) Master {
	t.Helper()
	m, err := ParseMaster(testSecret)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func otherMaster(t testing.TB) Master {
	t.Helper()
	m, err := ParseMaster(otherSecret)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// must is v, or a panic (which fails the test) when err is not nil: for a
// builder's result in an expression.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// validForward is the accepted forward for testMediator and testDest at t0.
func validForward() string {
	return mt.NewForward(testMediator, testDest, uint64(t0.Unix())+300).B64()
}

// fixedClock is a Now that always answers t.
func fixedClock(t time.Time) func() time.Time { return func() time.Time { return t } }

// newTestService is a service on secret whose clock stands at t0.
func newTestService(secret string) *Service {
	return New(Options{Secret: secret, Now: fixedClock(t0), Rand: rand.Reader})
}

// minted returns a fresh flow on svc and the forward that it accepts.
func minted(t *testing.T, svc *Service, dest string) (token, mediator string, f *mt.Forward) {
	t.Helper()
	token, mediator, err := svc.Mint(dest)
	if err != nil {
		t.Fatal(err)
	}
	return token, mediator, mt.NewForward(mediator, dest, uint64(t0.Unix())+600)
}

// verifyCosigned checks a Cosign result independently: the hash is the SDK's
// hash of the returned transaction under the network, and the last signature
// verifies under the mediator's public key with the key's hint.
func verifyCosigned(t *testing.T, signedXDR, hashHex, mediator, passphrase string) xdr.TransactionEnvelope {
	t.Helper()
	var env xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(signedXDR, &env); err != nil {
		t.Fatalf("signedXdr does not decode: %v", err)
	}
	hash, err := network.HashTransactionInEnvelope(env, passphrase)
	if err != nil {
		t.Fatal(err)
	}
	if hashHex != hex.EncodeToString(hash[:]) {
		t.Fatalf("hash %s, want %x", hashHex, hash)
	}
	sigs := env.Signatures()
	if len(sigs) == 0 {
		t.Fatal("no signatures")
	}
	last := sigs[len(sigs)-1]
	pub := strkey.MustDecode(strkey.VersionByteAccountID, mediator)
	if !ed25519.Verify(pub, hash[:], last.Signature) {
		t.Fatal("mediator signature does not verify over the hash")
	}
	if !bytes.Equal(last.Hint[:], pub[28:]) {
		t.Fatalf("hint %x, want %x", last.Hint, pub[28:])
	}
	return env
}

// signed renders a token whose MAC is correct for whatever parts it is given,
// so a case can break exactly one check.
func signed(m Master, nonce, expiry, dest string) string {
	return nonce + "." + expiry + "." + dest + "." + m.TokenMAC(nonce, expiry, dest)
}

// flipHex changes the first hex digit, keeping the string lowercase hex.
func flipHex(s string) string {
	c := byte('0')
	if s[0] == '0' {
		c = '1'
	}
	return string(c) + s[1:]
}

// signedMemo is signed for a five-part token with memo part part.
func signedMemo(m Master, nonce, expiry, dest, part string) string {
	return nonce + "." + expiry + "." + dest + "." + part + "." + m.TokenMemoMAC(nonce, expiry, dest, part)
}
