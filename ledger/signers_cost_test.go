package ledger_test

import (
	"crypto/ed25519"
	"crypto/rand"
	mrand "math/rand/v2"
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/loadkit"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// worstCase is the bound written on CheckPartial: every signature of the
// largest envelope, each tried against every candidate of the largest set.
const worstCase = ledger.MaxSignatures * ledger.MaxPlanSignerSet

func privOf(t testing.TB, kp *keypair.Full) ed25519.PrivateKey {
	t.Helper()
	seed, err := strkey.Decode(strkey.VersionByteSeed, kp.Seed())
	if err != nil {
		t.Fatal(err)
	}
	return ed25519.NewKeyFromSeed(seed)
}

func expensive(t testing.TB, hint xdr.SignatureHint) xdr.DecoratedSignature {
	t.Helper()
	sig, err := ledgertest.ExpensiveSignature(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return xdr.DecoratedSignature{Hint: hint, Signature: sig}
}

// TestCheckPartialWorstCase: the worst partial reaches the bound and no
// hostile partial passes it. The worst one carries 19 distinct valid
// signatures of the last candidate in sweep order, under a hint nobody has
// (each sweeps every candidate; none repeats an earlier one's bytes, so
// none is skipped as a duplicate), then an expensive invalid signature,
// which sweeps every candidate again and refuses the partial.
func TestCheckPartialWorstCase(t *testing.T) {
	p := newPlan(t, 20)
	k := p.acct.Keys
	if p.set.Len() != ledger.MaxPlanSignerSet {
		t.Fatalf("set of %d", p.set.Len())
	}
	last := privOf(t, k[len(k)-1])
	unsigned := ledgertest.StripSignatures(p.xdr)
	sigs := make([]xdr.DecoratedSignature, 0, ledger.MaxSignatures)
	for n := range uint64(ledger.MaxSignatures - 1) {
		sigs = append(sigs, xdr.DecoratedSignature{Hint: loadkit.ForgedHint, Signature: ledgertest.AltSign(last, p.hash[:], n)})
	}
	sigs = append(sigs, expensive(t, loadkit.ForgedHint))
	worst := ledgertest.AppendSignatures(unsigned, sigs...)
	g, verifications := ledger.NewCountingSweepGate(1)
	_, err := p.canon.CheckPartial(t.Context(), g, worst, nil)
	if n := verifications(); n != worstCase {
		t.Errorf("the worst partial cost %d verifications, want the bound %d", n, worstCase)
	}
	wantCode(t, err, ledger.CodeRejected)

	// Random hostile partials of every kind of signature stay within it.
	rng := mrand.New(mrand.NewPCG(7, 7))
	stranger := ledgertest.Keypair(4242)
	kinds := []func() xdr.DecoratedSignature{
		func() xdr.DecoratedSignature { return ledgertest.Signature(p.hash, k[rng.IntN(len(k))]) },
		func() xdr.DecoratedSignature {
			return ledgertest.ForgedSignature(p.hash, k[rng.IntN(len(k))], hintOf(k[rng.IntN(len(k))]))
		},
		func() xdr.DecoratedSignature {
			return xdr.DecoratedSignature{Hint: loadkit.ForgedHint, Signature: ledgertest.AltSign(privOf(t, k[rng.IntN(len(k))]), p.hash[:], rng.Uint64())}
		},
		func() xdr.DecoratedSignature { return expensive(t, hintOf(k[rng.IntN(len(k))])) },
		func() xdr.DecoratedSignature { return ledgertest.Signature(p.hash, stranger) },
	}
	for range 20 {
		n := 1 + rng.IntN(ledger.MaxSignatures)
		sigs := make([]xdr.DecoratedSignature, n)
		for i := range sigs {
			sigs[i] = kinds[rng.IntN(len(kinds))]()
		}
		partial := ledgertest.AppendSignatures(unsigned, sigs...)
		g, verifications := ledger.NewCountingSweepGate(1)
		_, _ = p.canon.CheckPartial(t.Context(), g, partial, nil)
		if got := verifications(); got > worstCase {
			t.Fatalf("a partial of %d signatures cost %d verifications, over the bound %d", n, got, worstCase)
		}
	}
}

// TestCheckPartialStopsAtFirstUnrecoverable: an expensive invalid signature
// first, then valid ones: one sweep, and the valid ones are never tried.
func TestCheckPartialStopsAtFirstUnrecoverable(t *testing.T) {
	p := newPlan(t, 20)
	k := p.acct.Keys
	partial := ledgertest.AppendSignatures(ledgertest.StripSignatures(p.xdr),
		expensive(t, hintOf(k[3])), ledgertest.Signature(p.hash, k[4]), ledgertest.Signature(p.hash, k[5]))
	g, verifications := ledger.NewCountingSweepGate(1)
	_, err := p.canon.CheckPartial(t.Context(), g, partial, nil)
	if n := verifications(); n != ledger.MaxPlanSignerSet {
		t.Errorf("%d verifications, want %d (one sweep of the first signature)", n, ledger.MaxPlanSignerSet)
	}
	wantCode(t, err, ledger.CodeRejected)
}
