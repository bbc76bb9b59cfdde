package ledger_test

import (
	"bytes"
	"crypto/ed25519"
	"slices"
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"
)

func TestNewSignerSet(t *testing.T) {
	k := keys(20, 3)
	set := ledger.NewSignerSet([]ledger.Signer{
		{Address: k[0].Address(), Weight: 1},                           // key from the address
		{Key: rawKey(t, k[1].Address()), Weight: 2},                    // address from the key
		{Address: k[2].Address(), Hint: xdr.SignatureHint{1, 2, 3, 4}}, // a supplied hint is not trusted
		{Key: ed25519.PublicKey{1, 2, 3}},                              // not a key: kept, never a candidate
	})
	got := set.Signers()
	if len(got) != 4 || set.Len() != 4 {
		t.Fatalf("set has %d signers, want 4", len(got))
	}
	for i, kp := range k {
		if got[i].Address != kp.Address() || len(got[i].Key) != ed25519.PublicKeySize || got[i].Hint != hintOf(kp) {
			t.Errorf("signer %d = %+v, want %s with hint %x", i, got[i], kp.Address(), kp.Hint())
		}
		if ledger.HintOf(got[i].Key) != hintOf(kp) {
			t.Errorf("HintOf(signer %d) differs from the SDK's Hint()", i)
		}
	}
	if got[1].Weight != 2 {
		t.Errorf("weight = %d, want 2", got[1].Weight)
	}
	hash := [32]byte{9}
	// A signature by no one, sized right, must not panic on the bad key.
	if _, ok := recoverSig(t, set, hash, xdr.DecoratedSignature{Hint: got[3].Hint, Signature: make([]byte, 64)}); ok {
		t.Error("zero signature recovered")
	}
	if i, ok := recoverSig(t, set, hash, ledgertest.Signature(hash, k[2])); !ok || i != 2 {
		t.Errorf("Recover = %d, %v; want 2", i, ok)
	}
}

func rawKey(t *testing.T, address string) ed25519.PublicKey {
	t.Helper()
	raw, err := strkey.Decode(strkey.VersionByteAccountID, address)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestRecover(t *testing.T) {
	k := keys(30, 6)
	set := setOf(k[:5]...)
	hash := [32]byte{1, 2, 3}
	stranger := k[5]
	good := ledgertest.Signature(hash, k[3])
	tests := []struct {
		name string
		sig  xdr.DecoratedSignature
		want int // -1: no match
	}{
		{"own hint", good, 3},
		{"another signer's hint", ledgertest.ForgedSignature(hash, k[3], k[0].Hint()), 3},
		{"random hint", ledgertest.ForgedSignature(hash, k[3], [4]byte{0xde, 0xad, 0xbe, 0xef}), 3},
		{"first signer, forged hint", ledgertest.ForgedSignature(hash, k[0], k[4].Hint()), 0},
		{"stranger", ledgertest.Signature(hash, stranger), -1},
		{"stranger under a signer's hint", ledgertest.ForgedSignature(hash, stranger, k[1].Hint()), -1},
		{"another hash", ledgertest.Signature([32]byte{4, 5, 6}, k[3]), -1},
		{"flipped bit", func() xdr.DecoratedSignature {
			s := ledgertest.Signature(hash, k[3])
			s.Signature = bytes.Clone(s.Signature)
			s.Signature[10] ^= 1
			return s
		}(), -1},
		{"63 bytes", xdr.DecoratedSignature{Hint: good.Hint, Signature: good.Signature[:63]}, -1},
		{"65 bytes", xdr.DecoratedSignature{Hint: good.Hint, Signature: append(bytes.Clone(good.Signature), 0)}, -1},
		{"empty", xdr.DecoratedSignature{Hint: good.Hint}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i, ok := recoverSig(t, set, hash, tt.sig)
			if tt.want < 0 {
				if ok {
					t.Fatalf("Recover matched signer %d, want no match", i)
				}
				return
			}
			if !ok || i != tt.want {
				t.Fatalf("Recover = %d, %v; want %d", i, ok, tt.want)
			}
		})
	}
	var nilSet *ledger.SignerSet
	if _, ok := recoverSig(t, nilSet, hash, good); ok {
		t.Error("nil set recovered a signature")
	}
}

// TestRecoverDuplicateKey: a key listed twice always recovers to its lower
// index, whatever the hint, so it can never count twice.
func TestRecoverDuplicateKey(t *testing.T) {
	k := keys(40, 2)
	set := setOf(k[0], k[1], k[0])
	hash := [32]byte{7}
	for _, hint := range [][4]byte{k[0].Hint(), k[1].Hint(), {}} {
		if i, ok := recoverSig(t, set, hash, ledgertest.ForgedSignature(hash, k[0], hint)); !ok || i != 0 {
			t.Errorf("hint %x: Recover = %d, %v; want 0", hint, i, ok)
		}
	}
}

func TestAdmitAll(t *testing.T) {
	k := keys(50, 5)
	set := setOf(k[:4]...) // k[4] is a stranger
	hash := [32]byte{42}
	sig := func(i int) xdr.DecoratedSignature { return ledgertest.Signature(hash, k[i]) }
	forged := func(i int, hint [4]byte) xdr.DecoratedSignature { return ledgertest.ForgedSignature(hash, k[i], hint) }
	garbage := xdr.DecoratedSignature{Hint: hintOf(k[0]), Signature: make([]byte, 64)}

	tests := []struct {
		name       string
		sigs       []xdr.DecoratedSignature
		want       []int
		duplicates int
		dropped    int
	}{
		{"none", nil, []int{}, 0, 0},
		{"one", []xdr.DecoratedSignature{sig(1)}, []int{1}, 0, 0},
		{"envelope order kept", []xdr.DecoratedSignature{sig(2), sig(0), sig(3)}, []int{2, 0, 3}, 0, 0},
		{"forged hint admitted", []xdr.DecoratedSignature{forged(2, k[0].Hint())}, []int{2}, 0, 0},
		{
			"one signature under five hints stored once",
			[]xdr.DecoratedSignature{
				forged(1, k[0].Hint()), sig(1), forged(1, k[2].Hint()), forged(1, [4]byte{1}), forged(1, [4]byte{2}),
			},
			[]int{1}, 4, 0,
		},
		{
			// Distinct valid bytes by one key (any nonce verifies): keying on
			// bytes would let one co-signer fill the envelope.
			"three distinct signatures by one signer stored once",
			[]xdr.DecoratedSignature{ledgertest.AltSignature(hash, k[2], 1), sig(2), ledgertest.AltSignature(hash, k[2], 2)},
			[]int{2}, 2, 0,
		},
		{"non-signer dropped", []xdr.DecoratedSignature{sig(0), sig(4)}, []int{0}, 0, 1},
		{"garbage dropped", []xdr.DecoratedSignature{garbage, sig(3)}, []int{3}, 0, 1},
		{"short signature dropped", []xdr.DecoratedSignature{{Hint: hintOf(k[0]), Signature: sig(0).Signature[:32]}}, []int{}, 0, 1},
		{"everything at once", []xdr.DecoratedSignature{sig(4), forged(3, [4]byte{}), garbage, sig(3), sig(0), forged(0, k[3].Hint())}, []int{3, 0}, 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := make([]xdr.DecoratedSignature, len(tt.sigs))
			for i, s := range tt.sigs {
				before[i] = xdr.DecoratedSignature{Hint: s.Hint, Signature: bytes.Clone(s.Signature)}
			}
			admitted, n, err := ledger.AdmitAllCounted(t.Context(), gate, set, hash, tt.sigs)
			if err != nil {
				t.Fatal(err)
			}
			dups, dropped := n.Duplicates, n.Dropped
			if n.Admitted != len(admitted) {
				t.Errorf("counted %d admitted, returned %d", n.Admitted, len(admitted))
			}
			if got := signerIDs(admitted); !slices.Equal(got, tt.want) {
				t.Fatalf("admitted signers = %v, want %v", got, tt.want)
			}
			if dups != tt.duplicates || dropped != tt.dropped {
				t.Errorf("duplicates, dropped = %d, %d; want %d, %d", dups, dropped, tt.duplicates, tt.dropped)
			}
			if len(admitted)+dups+dropped != len(tt.sigs) {
				t.Errorf("counts do not add up to %d signatures", len(tt.sigs))
			}
			if plain := admitAll(t, set, hash, tt.sigs); !slices.Equal(signerIDs(plain), tt.want) {
				t.Errorf("AdmitAll = %v, want %v", signerIDs(plain), tt.want)
			}
			for _, a := range admitted {
				// Re-stamped with the signer's canonical hint, and valid.
				if a.Sig.Hint != hintOf(k[a.Signer]) {
					t.Errorf("signer %d stamped with hint %x, want %x", a.Signer, a.Sig.Hint, k[a.Signer].Hint())
				}
				if !ed25519.Verify(set.Signers()[a.Signer].Key, hash[:], a.Sig.Signature) {
					t.Errorf("admitted signature of signer %d does not verify", a.Signer)
				}
			}
			for i := range tt.sigs {
				if tt.sigs[i].Hint != before[i].Hint || !bytes.Equal(tt.sigs[i].Signature, before[i].Signature) {
					t.Fatalf("input signature %d was modified", i)
				}
			}
		})
	}
}

// TestAdmitAllCap: an account may list 21 signers, but no envelope carries
// more than 20 signatures, and admission never returns more.
func TestAdmitAllCap(t *testing.T) {
	k := keys(60, 25)
	set := setOf(k...)
	hash := [32]byte{5}
	sigs := make([]xdr.DecoratedSignature, len(k))
	for i := range k {
		sigs[i] = ledgertest.Signature(hash, k[i])
	}
	admitted, n, err := ledger.AdmitAllCounted(t.Context(), gate, set, hash, sigs)
	if err != nil {
		t.Fatal(err)
	}
	dups, dropped := n.Duplicates, n.Dropped
	if len(admitted) != ledger.MaxSignatures {
		t.Fatalf("admitted %d, want %d", len(admitted), ledger.MaxSignatures)
	}
	if want := make([]int, ledger.MaxSignatures); !slices.Equal(signerIDs(admitted), func() []int {
		for i := range want {
			want[i] = i
		}
		return want
	}()) {
		t.Errorf("admitted %v, want the first 20 in order", signerIDs(admitted))
	}
	if dups != 0 || dropped != len(k)-ledger.MaxSignatures {
		t.Errorf("duplicates, dropped = %d, %d; want 0, %d", dups, dropped, len(k)-ledger.MaxSignatures)
	}
}
