package ledger

import (
	"context"
	"crypto/ed25519"
	"errors"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// fullSignerSet is the largest candidate set a real account has, with the
// private keys. (This package's tests cannot use ledgertest: it imports
// ledger.)
func fullSignerSet() ([]ed25519.PrivateKey, *SignerSet) {
	privs := make([]ed25519.PrivateKey, MaxPlanSignerSet)
	signers := make([]Signer, len(privs))
	for i := range privs {
		var seed [32]byte
		seed[0] = byte(i + 1)
		privs[i] = ed25519.NewKeyFromSeed(seed[:])
		signers[i] = Signer{Key: privs[i].Public().(ed25519.PublicKey), Weight: 1}
	}
	return privs, NewSignerSet(signers)
}

// countingGate is a gate of one slot whose verifications n counts.
func countingGate(n *int) *SweepGate {
	g := NewSweepGate(1)
	g.onVerify = func() { *n++ }
	return g
}

// TestRecoverCost counts verifications: pass one tries only the candidates
// under the signature's hint, pass two never retries them, and a signature
// of the wrong length costs none.
func TestRecoverCost(t *testing.T) {
	privs, set := fullSignerSet()
	hash := [32]byte{3}
	last := len(privs) - 1
	sigBy := func(i int, hint xdr.SignatureHint) xdr.DecoratedSignature {
		return xdr.DecoratedSignature{Hint: hint, Signature: ed25519.Sign(privs[i], hash[:])}
	}
	stranger := ed25519.NewKeyFromSeed(make([]byte, 32))

	tests := []struct {
		name  string
		sig   xdr.DecoratedSignature
		want  int // verifications
		found bool
	}{
		{"own hint: one", sigBy(last, set.signers[last].Hint), 1, true},
		{"another signer's hint, found last: every candidate once", sigBy(last, set.signers[0].Hint), len(privs), true},
		{"unknown hint, found last", sigBy(last, xdr.SignatureHint{}), len(privs), true},
		{"found first in the sweep", sigBy(0, set.signers[5].Hint), 2, true},
		{"nobody's, under a signer's hint: every candidate once", xdr.DecoratedSignature{Hint: set.signers[2].Hint, Signature: ed25519.Sign(stranger, hash[:])}, len(privs), false},
		{"wrong length: none", xdr.DecoratedSignature{Hint: set.signers[0].Hint, Signature: make([]byte, 63)}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := 0
			_, found, err := set.Recover(t.Context(), countingGate(&n), hash, tt.sig)
			if err != nil {
				t.Fatal(err)
			}
			if found != tt.found || n != tt.want {
				t.Errorf("found=%v after %d verifications, want found=%v after %d", found, n, tt.found, tt.want)
			}
		})
	}
}

// TestCheckPartialCost counts verifications of whole partials: a replay that
// known recognises costs none, and the first unrecoverable signature ends
// the work.
func TestCheckPartialCost(t *testing.T) {
	privs, set := fullSignerSet()
	src := xdr.Uint256(set.signers[0].Key)
	dest := xdr.Uint256(set.signers[1].Key)
	env := xdr.TransactionEnvelope{
		Type: xdr.EnvelopeTypeEnvelopeTypeTx,
		V1: &xdr.TransactionV1Envelope{Tx: xdr.Transaction{
			SourceAccount: xdr.MuxedAccount{Type: xdr.CryptoKeyTypeKeyTypeEd25519, Ed25519: &src},
			Fee:           100,
			SeqNum:        2,
			Operations: []xdr.Operation{{Body: xdr.OperationBody{
				Type:        xdr.OperationTypeAccountMerge,
				Destination: &xdr.MuxedAccount{Type: xdr.CryptoKeyTypeKeyTypeEd25519, Ed25519: &dest},
			}}},
		}},
	}
	const pass = "Test SDF Network ; September 2015"
	b64, err := EncodeEnvelope(env)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCanonical(b64, pass, set)
	if err != nil {
		t.Fatal(err)
	}
	sign := func(i int) xdr.DecoratedSignature {
		return xdr.DecoratedSignature{Hint: set.signers[i].Hint, Signature: ed25519.Sign(privs[i], c.Hash[:])}
	}
	withHint := func(sig xdr.DecoratedSignature, h xdr.SignatureHint) xdr.DecoratedSignature {
		sig.Hint = h
		return sig
	}
	bad := xdr.DecoratedSignature{Hint: set.signers[0].Hint, Signature: make([]byte, 64)}
	partial := func(sigs ...xdr.DecoratedSignature) string {
		out, err := EncodeEnvelope(WithSignatures(env, sigs))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	replays := map[string]int{string(sign(3).Signature): 3, string(sign(4).Signature): 4}
	known := func(b []byte) (int, bool) { i, ok := replays[string(b)]; return i, ok }

	tests := []struct {
		name    string
		partial string
		known   KnownFunc
		want    int
		ok      bool
	}{
		{"replays cost a lookup", partial(sign(3), sign(4)), known, 0, true},
		{"replays under any hint cost a lookup", partial(withHint(sign(3), xdr.SignatureHint{0xde, 0xad, 0xbe, 0xef}), withHint(sign(4), set.signers[9].Hint)), known, 0, true},
		{"new signatures under own hints: one each", partial(sign(5), sign(6)), known, 2, true},
		{"bad first: one sweep, then stop", partial(bad, sign(5), sign(6), sign(7)), nil, len(privs), false},
		{"bad after a good one", partial(sign(5), bad, sign(6)), nil, 1 + len(privs), false},
		{"hash mismatch costs nothing", func() string {
			other := WithSignatures(env, []xdr.DecoratedSignature{sign(5)})
			v1 := *other.V1
			v1.Tx.SeqNum++
			other.V1 = &v1
			out, _ := EncodeEnvelope(other)
			return out
		}(), nil, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := 0
			_, err := c.CheckPartial(t.Context(), countingGate(&n), tt.partial, tt.known)
			if (err == nil) != tt.ok || n != tt.want {
				t.Errorf("err=%v after %d verifications, want ok=%v after %d", err, n, tt.ok, tt.want)
			}
		})
	}
}

// TestSweepGates: while one sweep runs, another sweep of the same plan waits
// for the plan's gate and a sweep of another plan waits for the relay-wide
// slot (one here), and neither verifies anything; a signature under its own
// hint (pass one) does not wait.
func TestSweepGates(t *testing.T) {
	privs, set := fullSignerSet()
	stranger := ed25519.NewKeyFromSeed(make([]byte, 32))
	synctest.Test(t, func(t *testing.T) {
		// Made in the bubble, so that waiting on its channels is durable.
		gate := NewSweepGate(1)
		release := make(chan struct{})
		var calls atomic.Int32
		gate.onVerify = func() {
			if calls.Add(1) == 1 {
				<-release // the first sweep holds its gates here
			}
		}
		results := make(chan bool, 3)
		sweep := func(hash [32]byte) {
			sig := xdr.DecoratedSignature{Signature: ed25519.Sign(stranger, hash[:])} // zero hint: nobody's
			go func() {
				_, ok, err := set.Recover(t.Context(), gate, hash, sig)
				results <- ok || err != nil
			}()
		}
		planA, planB := [32]byte{1}, [32]byte{2} // different gates
		sweep(planA)
		synctest.Wait()
		sweep(planA)
		sweep(planB)
		synctest.Wait()
		if n := calls.Load(); n != 1 {
			t.Fatalf("%d verifications while the first sweep held the gates, want 1", n)
		}
		own := xdr.DecoratedSignature{Hint: set.signers[4].Hint, Signature: ed25519.Sign(privs[4], planA[:])}
		if i, ok, err := set.Recover(t.Context(), gate, planA, own); !ok || i != 4 || err != nil {
			t.Fatalf("pass one during a sweep: %d, %v, %v", i, ok, err)
		}
		close(release)
		for range 3 {
			if <-results {
				t.Error("a stranger's signature was recovered, or a sweep failed")
			}
		}
		if n, want := calls.Load(), int32(3*len(privs)+1); n != want {
			t.Errorf("%d verifications in all, want %d", n, want)
		}
		if len(gate.slots) != 0 || len(gate.plans[1]) != 0 || len(gate.plans[2]) != 0 {
			t.Error("a gate was not released")
		}
	})
}

// TestSweepGateContext: a request whose context ends while its sweep waits
// stops waiting at once and verifies nothing, whether it waits for its
// plan's gate or for the relay-wide slot, and gives back what it took; one
// whose context has already ended does not sweep even with every gate free.
// Pass one still runs: it never waits.
func TestSweepGateContext(t *testing.T) {
	privs, set := fullSignerSet()
	stranger := ed25519.NewKeyFromSeed(make([]byte, 32))
	nobodys := func(hash [32]byte) xdr.DecoratedSignature {
		return xdr.DecoratedSignature{Signature: ed25519.Sign(stranger, hash[:])} // zero hint: a sweep
	}
	synctest.Test(t, func(t *testing.T) {
		gate := NewSweepGate(1)
		release := make(chan struct{})
		var calls atomic.Int32
		gate.onVerify = func() {
			if calls.Add(1) == 1 {
				<-release // the first sweep holds plan A's gate and the slot
			}
		}
		planA, planB := [32]byte{1}, [32]byte{2}
		holder := make(chan error, 1)
		go func() {
			_, _, err := set.Recover(context.Background(), gate, planA, nobodys(planA))
			holder <- err
		}()
		synctest.Wait()

		for name, hash := range map[string][32]byte{"plan gate": planA, "relay-wide slot": planB} {
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, ok, err := set.Recover(ctx, gate, hash, nobodys(hash))
				if ok {
					err = errors.New("recovered")
				}
				done <- err
			}()
			synctest.Wait()
			select {
			case err := <-done:
				t.Fatalf("waiting for the %s: returned %v before its context ended", name, err)
			default:
			}
			cancel() // the client went away
			synctest.Wait()
			select {
			case err := <-done:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("waiting for the %s: %v, want context.Canceled", name, err)
				}
			default:
				t.Fatalf("waiting for the %s: still waiting after its context ended", name)
			}
		}
		if n := calls.Load(); n != 1 {
			t.Errorf("%d verifications, want only the holder's first", n)
		}

		close(release)
		if err := <-holder; err != nil {
			t.Fatal(err)
		}
		if len(gate.slots) != 0 || len(gate.plans[1]) != 0 || len(gate.plans[2]) != 0 {
			t.Fatal("a gate was not released")
		}

		// Already ended: no sweep, however free the gates; pass one runs.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		before := calls.Load()
		if _, ok, err := set.Recover(ctx, gate, planB, nobodys(planB)); ok || !errors.Is(err, context.Canceled) {
			t.Errorf("ended context: %v, %v; want context.Canceled", ok, err)
		}
		if n := calls.Load() - before; n != 0 {
			t.Errorf("ended context: %d verifications, want none", n)
		}
		own := xdr.DecoratedSignature{Hint: set.signers[4].Hint, Signature: ed25519.Sign(privs[4], planB[:])}
		if i, ok, err := set.Recover(ctx, gate, planB, own); !ok || i != 4 || err != nil {
			t.Errorf("pass one under an ended context: %d, %v, %v", i, ok, err)
		}
	})
}
