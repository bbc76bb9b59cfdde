package ledger_test

import (
	"encoding/base64"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// fastAndFull are the same plan's canonical twice: as NewCanonical makes
// it, with the fast path of merge checks 6 to 8, and built field by field,
// which takes the full checks every time.
func fastAndFull(t testing.TB, canonicalXDR string, set *ledger.SignerSet) (fast, full *ledger.Canonical) {
	t.Helper()
	fast, err := ledger.NewCanonical(canonicalXDR, testPass, set)
	if err != nil {
		t.Fatal(err)
	}
	full = &ledger.Canonical{XDR: fast.XDR, Passphrase: fast.Passphrase, Hash: fast.Hash, Signers: fast.Signers}
	return fast, full
}

// agree fails unless both canonicals answer partial alike: the same
// admitted signatures, or the same code.
func agree(t *testing.T, fast, full *ledger.Canonical, partial, what string) {
	t.Helper()
	a, errA := fast.CheckPartial(t.Context(), gate, partial, nil)
	b, errB := full.CheckPartial(t.Context(), gate, partial, nil)
	var ea, eb *ledger.Error
	switch {
	case errA == nil && errB == nil:
		if !slices.EqualFunc(a, b, func(x, y ledger.Admitted) bool {
			return x.Signer == y.Signer && x.Sig.Hint == y.Sig.Hint && string(x.Sig.Signature) == string(y.Sig.Signature)
		}) {
			t.Errorf("%s: fast path admitted %v, full checks %v", what, signerIDs(a), signerIDs(b))
		}
	case errors.As(errA, &ea) && errors.As(errB, &eb):
		if ea.Code != eb.Code {
			t.Errorf("%s: fast path %v, full checks %v", what, errA, errB)
		}
	default:
		t.Errorf("%s: fast path %v, full checks %v", what, errA, errB)
	}
}

// TestFastPathAgrees: the fast path of merge checks 6 to 8 answers every
// partial exactly as the full checks do: the plan's transaction with 0 to
// 21 signatures, with trailing bytes, short and padded signatures, another
// transaction, and thousands of random mutations of each.
func TestFastPathAgrees(t *testing.T) {
	acct := ledgertest.DeterministicAccount(3, 21, 1)
	set := setOf(acct.Keys...)
	unsigned, hash := ledgertest.BuildClose(acct.Master, ledgertest.Keypair(997).Address(), 9, 0, testPass)
	canonical := ledgertest.AppendSignatures(unsigned, ledgertest.Signature(hash, acct.Keys[0]))
	fast, full := fastAndFull(t, canonical, set)

	var sigs []xdr.DecoratedSignature
	for _, k := range acct.Keys {
		sigs = append(sigs, ledgertest.Signature(hash, k))
	}
	partials := map[string]string{"unsigned": unsigned}
	for n := 1; n <= 21; n++ {
		partials["signers "+string(rune('A'+n))] = ledgertest.AppendSignatures(unsigned, sigs[:n]...)
	}
	raw, _ := base64.StdEncoding.DecodeString(partials["signers C"])
	partials["a trailing byte"] = base64.StdEncoding.EncodeToString(append(slices.Clone(raw), 0))
	partials["a short signature"] = mutate(t, partials["signers C"], func(e *xdr.TransactionEnvelope) {
		e.V1.Signatures[1].Signature = e.V1.Signatures[1].Signature[:63]
	})
	other, _ := ledgertest.BuildClose(acct.Master, ledgertest.Keypair(997).Address(), 10, 0, testPass, acct.Keys[1])
	partials["another transaction"] = other
	partials["line-broken"] = partials["signers C"][:40] + "\n" + partials["signers C"][40:]

	rng := rand.New(rand.NewPCG(1, 2))
	for name, p := range partials {
		agree(t, fast, full, p, name)
		b, err := base64.StdEncoding.DecodeString(p)
		if err != nil {
			continue
		}
		for range 150 {
			m := slices.Clone(b)
			switch rng.IntN(3) {
			case 0: // a byte flipped, in the signatures more often than not
				i := len(m) - 1 - rng.IntN(min(len(m), 300))
				m[i] ^= byte(1 << rng.IntN(8))
			case 1: // cut short
				m = m[:rng.IntN(len(m))]
			case 2: // a byte added
				i := rng.IntN(len(m) + 1)
				m = slices.Insert(m, i, byte(rng.IntN(256)))
			}
			agree(t, fast, full, base64.StdEncoding.EncodeToString(m), name+" mutated")
		}
	}
}

// FuzzFastPathAgrees is TestFastPathAgrees's comparison on any bytes.
func FuzzFastPathAgrees(f *testing.F) {
	acct := ledgertest.DeterministicAccount(4, 3, 1)
	set := setOf(acct.Keys...)
	unsigned, hash := ledgertest.BuildClose(acct.Master, ledgertest.Keypair(996).Address(), 11, 0, testPass)
	canonical := ledgertest.AppendSignatures(unsigned, ledgertest.Signature(hash, acct.Keys[0]))
	for _, k := range acct.Keys {
		p, _ := base64.StdEncoding.DecodeString(ledgertest.AppendSignatures(unsigned, ledgertest.Signature(hash, k)))
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fast, full := fastAndFull(t, canonical, set)
		agree(t, fast, full, base64.StdEncoding.EncodeToString(b), "fuzzed")
	})
}
