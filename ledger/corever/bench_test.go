package corever_test

import (
	"crypto/ed25519"
	"crypto/sha256"
	"testing"

	"github.com/closerelay/closerelay/ledger/corever"
)

// BenchmarkVerify compares one verification of a Stellar-sized message (a
// transaction hash, 32 bytes) by Go's crypto/ed25519, by corever.Verify,
// which decodes the key on each call, and by a Key made once, as a plan
// makes one per candidate signer. NewKey is the one-off cost of the last.
func BenchmarkVerify(b *testing.B) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		b.Fatal(err)
	}
	hash := sha256.Sum256([]byte("a transaction's signature payload"))
	msg := hash[:]
	sig := ed25519.Sign(priv, msg)
	k, ok := corever.NewKey(pub)
	if !ok {
		b.Fatal("NewKey refuses an honest key")
	}

	b.Run("stdlib", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !ed25519.Verify(pub, msg, sig) {
				b.Fatal("refused")
			}
		}
	})
	b.Run("corever-fresh-key", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !corever.Verify(pub, msg, sig) {
				b.Fatal("refused")
			}
		}
	})
	b.Run("corever-expanded-key", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !k.Verify(msg, sig) {
				b.Fatal("refused")
			}
		}
	})
	b.Run("NewKey", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := corever.NewKey(pub); !ok {
				b.Fatal("refused")
			}
		}
	})
}
