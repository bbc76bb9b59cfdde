package ledgertest_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"testing"

	"filippo.io/edwards25519"
	"github.com/closerelay/closerelay/ledger/ledgertest"
)

func TestAltSign(t *testing.T) {
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
	pub := priv.Public().(ed25519.PublicKey)
	msg := []byte("a transaction hash, 32 bytes....")
	honest := ed25519.Sign(priv, msg)
	seen := map[string]bool{string(honest): true}
	for n := range uint64(8) {
		sig := ledgertest.AltSign(priv, msg, n)
		if !ed25519.Verify(pub, msg, sig) {
			t.Fatalf("alt signature %d does not verify", n)
		}
		if seen[string(sig)] {
			t.Fatalf("alt signature %d repeats an earlier one", n)
		}
		seen[string(sig)] = true
	}
	if ed25519.Verify(pub, []byte("another message"), ledgertest.AltSign(priv, msg, 1)) {
		t.Fatal("an alt signature verifies over another message")
	}
}

func TestExpensiveSignature(t *testing.T) {
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	for range 16 {
		sig, err := ledgertest.ExpensiveSignature(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if len(sig) != ed25519.SignatureSize {
			t.Fatalf("length %d", len(sig))
		}
		if _, err := new(edwards25519.Point).SetBytes(sig[:32]); err != nil {
			t.Fatalf("R is not a curve point: %v", err)
		}
		if _, err := edwards25519.NewScalar().SetCanonicalBytes(sig[32:]); err != nil {
			t.Fatalf("S is not canonical: %v", err)
		}
		if ed25519.Verify(pub, make([]byte, 32), sig) {
			t.Fatal("an expensive signature verifies")
		}
	}
}

// TestBuildPlan checks every kind of partial against the relay's own merge
// checks, on a plan published by the account's master key.
