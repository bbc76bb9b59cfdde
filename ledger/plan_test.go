package ledger_test

import (
	"context"
	"encoding/hex"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
)

// TestAdmitPlan: the plan a publish creates agrees with itself: its id is
// the hash's hex, its envelope carries exactly the admitted signatures
// (re-stamped, deduplicated, in order) and encodes as its canonical XDR,
// which passes merge checks 1 to 4 under the network's passphrase, and its
// expiry is PlanExpiry's. The counts add up to the signatures given.
func TestAdmitPlan(t *testing.T) {
	acct := ledgertest.DeterministicAccount(1, 3, 1)
	k := acct.Keys // 0..2 extra signers, 3 the master
	set := setOf(k...)
	maxTime := int64(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).Unix())
	unsigned, hash := ledgertest.BuildClose(acct.Master, ledgertest.Keypair(999).Address(), 1<<32+1, maxTime, testPass)
	published := ledgertest.AppendSignatures(unsigned,
		ledgertest.ForgedSignature(hash, k[2], k[0].Hint()), // admitted, re-stamped
		ledgertest.Signature(hash, ledgertest.Keypair(555)), // a stranger's: dropped
		ledgertest.Signature(hash, k[2]),                    // the same signer again: a duplicate
		ledgertest.Signature(hash, acct.Master),             // admitted
	)
	c, err := ledger.ParseClose(published, ledger.Testnet)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2029, 12, 31, 0, 0, 0, 0, time.UTC)
	p, counts, err := ledger.AdmitPlan(t.Context(), gate, c, set, now)
	if err != nil {
		t.Fatal(err)
	}
	if counts != (ledger.SignatureCounts{Admitted: 2, Duplicates: 1, Dropped: 1}) {
		t.Errorf("counts = %+v", counts)
	}
	if p.ID() != hex.EncodeToString(hash[:]) || p.Network() != ledger.Testnet || p.Account() != acct.Master.Address() {
		t.Errorf("id, network, account = %s, %s, %s", p.ID(), p.Network(), p.Account())
	}
	if want := ledger.PlanExpiry(now, uint64(maxTime)); !p.Expiry().Equal(want) {
		t.Errorf("expiry = %v, want %v", p.Expiry(), want)
	}
	if ids := signerIDs(p.Admitted()); !slices.Equal(ids, []int{2, 3}) {
		t.Fatalf("admitted %v, want [2 3]", ids)
	}
	sigs := p.Envelope().Signatures()
	if len(sigs) != 2 {
		t.Fatalf("the envelope carries %d signatures, want 2", len(sigs))
	}
	for i, a := range p.Admitted() {
		if sigs[i].Hint != hintOf(k[a.Signer]) || string(sigs[i].Signature) != string(a.Sig.Signature) || a.Sig.Hint != sigs[i].Hint {
			t.Errorf("signature %d is not admitted signer %d's under its hint", i, a.Signer)
		}
	}
	canon := p.Canonical()
	if encoded, err := ledger.EncodeEnvelope(p.Envelope()); err != nil || encoded != canon.XDR {
		t.Errorf("the canonical XDR is not the envelope's encoding (%v)", err)
	}
	again, err := ledger.NewCanonical(canon.XDR, ledger.Testnet.Passphrase(), set)
	if err != nil || again.Hash != hash || canon.Hash != hash || canon.Passphrase != testPass || canon.Signers != set {
		t.Errorf("canonical = %+v (%v); want hash %x under the testnet passphrase, signers the set", canon, err, hash)
	}
	// The plan shares no signature bytes with the close it came from.
	c.Envelope.Signatures()[3].Signature[0] ^= 0xff
	if p.Envelope().Signatures()[1].Signature[0] == c.Envelope.Signatures()[3].Signature[0] {
		t.Error("the plan shares signature bytes with the close")
	}
}

// TestAdmitPlanRefusals: no admitted signature is ErrUnsigned, with the
// dropped ones counted; a Close ParseClose did not make is a caller's bug.
func TestAdmitPlanRefusals(t *testing.T) {
	acct := ledgertest.DeterministicAccount(1, 2, 1)
	set := setOf(acct.Keys...)
	unsigned, hash := ledgertest.BuildClose(acct.Master, ledgertest.Keypair(999).Address(), 1<<32+1, 0, testPass)
	strangers := ledgertest.AppendSignatures(unsigned, ledgertest.Signature(hash, ledgertest.Keypair(555)), ledgertest.Signature(hash, ledgertest.Keypair(556)))
	for name, b64 := range map[string]string{"unsigned": unsigned, "strangers only": strangers} {
		c, err := ledger.ParseClose(b64, ledger.Testnet)
		if err != nil {
			t.Fatal(err)
		}
		p, counts, err := ledger.AdmitPlan(t.Context(), gate, c, set, time.Now())
		if !errors.Is(err, ledger.ErrUnsigned) || p != nil {
			t.Errorf("%s: %v, %v; want ErrUnsigned", name, p, err)
		}
		if want := len(c.Envelope.Signatures()); counts != (ledger.SignatureCounts{Dropped: want}) {
			t.Errorf("%s: counts = %+v, want %d dropped", name, counts, want)
		}
	}
	c, err := ledger.ParseClose(ledgertest.SignXDR(unsigned, testPass, acct.Master), ledger.Testnet)
	if err != nil {
		t.Fatal(err)
	}
	handMade := &ledger.Close{Envelope: c.Envelope, Hash: c.Hash, Account: c.Account}
	for name, c := range map[string]*ledger.Close{"nil": nil, "hand-made": handMade} {
		if p, _, err := ledger.AdmitPlan(t.Context(), gate, c, set, time.Now()); err == nil || p != nil || errors.Is(err, ledger.ErrUnsigned) {
			t.Errorf("%s close: %v, %v; want a plain error", name, p, err)
		}
	}
}

// TestAdmitPlanEndedContext: a publish whose client has gone stops at the
// first signature that needs a sweep, and answers the context's error.
func TestAdmitPlanEndedContext(t *testing.T) {
	acct := ledgertest.DeterministicAccount(1, 2, 1)
	set := setOf(acct.Keys...)
	unsigned, hash := ledgertest.BuildClose(acct.Master, ledgertest.Keypair(999).Address(), 1<<32+1, 0, testPass)
	forged := ledgertest.AppendSignatures(unsigned, ledgertest.ForgedSignature(hash, acct.Master, [4]byte{0xde, 0xad, 0xbe, 0xef}))
	c, err := ledger.ParseClose(forged, ledger.Testnet)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if p, _, err := ledger.AdmitPlan(ctx, gate, c, set, time.Now()); !errors.Is(err, context.Canceled) || p != nil {
		t.Errorf("AdmitPlan = %v, %v; want context.Canceled", p, err)
	}
}
