package ledger_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"sync"
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// BenchmarkEd25519Verify is one raw crypto/ed25519 verification: the
// physical limit the other figures are read against.
func BenchmarkEd25519Verify(b *testing.B) {
	kp := ledgertest.Keypair(0)
	hash := [32]byte{1}
	sig := ledgertest.Signature(hash, kp)
	key := ed25519.PublicKey(setOf(kp).Signers()[0].Key)
	for b.Loop() {
		if !ed25519.Verify(key, hash[:], sig.Signature) {
			b.Fatal("does not verify")
		}
	}
}

// BenchmarkRawEd25519Verify is raw crypto/ed25519 verification from
// GOMAXPROCS goroutines at once: at -cpu 1 its ns/op is one core's cost of a
// verification, at -cpu 2 the wall time per verification when two cores
// verify, so 1e9/ns/op is the one-core and the two-core rate. make
// bench-load reads both and states its figures as ratios to them.
func BenchmarkRawEd25519Verify(b *testing.B) {
	kp := ledgertest.Keypair(0)
	hash := [32]byte{1}
	sig := ledgertest.Signature(hash, kp).Signature
	key := ed25519.PublicKey(setOf(kp).Signers()[0].Key)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if !ed25519.Verify(key, hash[:], sig) {
				b.Error("does not verify")
				return
			}
		}
	})
}

// BenchmarkRecoverByHint: an honest signature among 21 candidates, found in
// pass one: one verification.
func BenchmarkRecoverByHint(b *testing.B) {
	k := keys(0, ledger.MaxPlanSignerSet)
	set := setOf(k...)
	hash := [32]byte{1}
	sig := ledgertest.Signature(hash, k[len(k)-1])
	for b.Loop() {
		if _, ok, err := set.Recover(b.Context(), gate, hash, sig); !ok || err != nil {
			b.Fatal("not recovered")
		}
	}
}

// BenchmarkRecoverSweep: a valid signature under a forged hint that matches
// no candidate, its signer last of 20: pass two verifies all 20.
func BenchmarkRecoverSweep(b *testing.B) {
	k := keys(0, 20)
	set := setOf(k...)
	hash := [32]byte{1}
	sig := ledgertest.ForgedSignature(hash, k[len(k)-1], [4]byte{0xde, 0xad, 0xbe, 0xef})
	for b.Loop() {
		if i, ok, err := set.Recover(b.Context(), gate, hash, sig); !ok || err != nil || i != len(k)-1 {
			b.Fatal("not recovered")
		}
	}
}

// BenchmarkCheckPartialReplay: a partial whose one signature the plan has
// already admitted: decode, hash, one lookup.
func BenchmarkCheckPartialReplay(b *testing.B) {
	p := newPlan(b, 20)
	sig := ledgertest.Signature(p.hash, p.acct.Keys[7])
	partial := ledgertest.AppendSignatures(ledgertest.StripSignatures(p.xdr), sig)
	known := knownAs(sig.Signature, 7)
	for b.Loop() {
		if got, err := p.canon.CheckPartial(b.Context(), gate, partial, known); err != nil || len(got) != 1 {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckPartialNew: a partial carrying one new, honest signature:
// decode, hash, one verification.
func BenchmarkCheckPartialNew(b *testing.B) {
	p := newPlan(b, 20)
	partial := ledgertest.SignXDR(ledgertest.StripSignatures(p.xdr), testPass, p.acct.Keys[7])
	known := knownAs(nil, 0)
	for b.Loop() {
		if got, err := p.canon.CheckPartial(b.Context(), gate, partial, known); err != nil || len(got) != 1 {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckPartialHostile: the worst partial of the cost comment: 19
// valid signatures under a forged hint, each found last in its sweep order,
// then one that nobody signed. It is refused.
func BenchmarkCheckPartialHostile(b *testing.B) {
	p := newPlan(b, 20)
	k := p.acct.Keys
	sigs := make([]xdr.DecoratedSignature, 0, 20)
	for i := len(k) - 1; len(sigs) < 19; i-- {
		sigs = append(sigs, ledgertest.ForgedSignature(p.hash, k[i], [4]byte{0xde, 0xad, 0xbe, 0xef}))
	}
	sigs = append(sigs, ledgertest.ForgedSignature(p.hash, ledgertest.Keypair(555), [4]byte{0xde, 0xad, 0xbe, 0xef}))
	partial := ledgertest.AppendSignatures(ledgertest.StripSignatures(p.xdr), sigs...)
	for b.Loop() {
		if _, err := p.canon.CheckPartial(b.Context(), gate, partial, nil); err == nil {
			b.Fatal("hostile partial accepted")
		}
	}
}

// BenchmarkAdmitAllPublish: publish-time admission of one honest signature
// among 21 candidates, after ParseClose.
func BenchmarkAdmitAllPublish(b *testing.B) {
	p := newPlan(b, 20)
	for b.Loop() {
		c, err := ledger.ParseClose(p.xdr, ledger.Testnet)
		if err != nil {
			b.Fatal(err)
		}
		if got, err := ledger.AdmitAll(b.Context(), gate, p.set, c.Hash, c.Envelope.Signatures()); err != nil || len(got) != 1 {
			b.Fatal("not admitted")
		}
	}
}

// BenchmarkCheckPartialOtherPlan is bullet 4 of the fast path: a new honest
// signature on one plan (one verification), with no load and while
// goroutines hammer another plan of 21 candidates with expensive invalid
// partials (21 verifications each). The sweep gates leave that other plan
// one core at most, so at -cpu 2 the honest figure should stay near the
// quiet one; ungated, it shares the cores with every attacker.
func BenchmarkCheckPartialOtherPlan(b *testing.B) {
	p := newPlan(b, 20)
	honest := ledgertest.SignXDR(ledgertest.StripSignatures(p.xdr), testPass, p.acct.Keys[7])
	otherXDR, _ := ledgertest.BuildClose(p.acct.Master, ledgertest.Keypair(998).Address(), 1<<32+1, 0, testPass, p.acct.Master)
	other, err := ledger.NewCanonical(otherXDR, testPass, p.set)
	if err != nil {
		b.Fatal(err)
	}
	bad, err := ledgertest.ExpensiveSignature(rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	attack := ledgertest.AppendSignatures(ledgertest.StripSignatures(otherXDR), xdr.DecoratedSignature{Hint: hintOf(p.acct.Keys[0]), Signature: bad})
	for _, attackers := range []int{0, 32} {
		b.Run(fmt.Sprintf("attackers=%d", attackers), func(b *testing.B) {
			stop := make(chan struct{})
			var wg sync.WaitGroup
			for range attackers {
				wg.Go(func() {
					for {
						select {
						case <-stop:
							return
						default:
						}
						if _, err := other.CheckPartial(b.Context(), gate, attack, nil); err == nil {
							b.Error("the expensive partial was accepted")
						}
					}
				})
			}
			for b.Loop() {
				if got, err := p.canon.CheckPartial(b.Context(), gate, honest, nil); err != nil || len(got) != 1 {
					b.Fatal(err)
				}
			}
			close(stop)
			wg.Wait()
		})
	}
}
