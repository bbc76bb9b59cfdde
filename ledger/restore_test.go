package ledger_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
)

// TestRestorePlan: a plan rebuilt from what an instance stores (cluster
// mode) equals the admitted one, part by part; a record whose parts
// disagree is refused whole.
func TestRestorePlan(t *testing.T) {
	acct := ledgertest.DeterministicAccount(2, 3, 1)
	k := acct.Keys
	set := setOf(k...).WithThresholds(ledger.Thresholds{Low: 1, Medium: 2, High: 3})
	unsigned, hash := ledgertest.BuildClose(acct.Master, ledgertest.Keypair(998).Address(), 7, 0, testPass)
	signed := ledgertest.AppendSignatures(unsigned, ledgertest.Signature(hash, k[2]), ledgertest.Signature(hash, k[0]))
	c, err := ledger.ParseClose(signed, ledger.Testnet)
	if err != nil {
		t.Fatal(err)
	}
	published := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	orig, _, err := ledger.AdmitPlan(context.Background(), ledger.NewSweepGate(1), c, set, published)
	if err != nil {
		t.Fatal(err)
	}
	signerOf := signerIDs(orig.Admitted())
	got, err := ledger.RestorePlan(ledger.Testnet, orig.Canonical().XDR, signerOf, set, orig.Expiry(), orig.Account(), orig.Threshold())
	if err != nil {
		t.Fatal(err)
	}
	if got.ID() != orig.ID() || got.Canonical().Hash != orig.Canonical().Hash || got.Canonical().XDR != orig.Canonical().XDR ||
		!got.Expiry().Equal(orig.Expiry()) || got.Account() != orig.Account() || got.Threshold() != orig.Threshold() ||
		!slices.Equal(signerIDs(got.Admitted()), signerOf) {
		t.Fatalf("restored %+v, want %+v", got, orig)
	}

	for name, bad := range map[string]struct {
		xdr      string
		signerOf []int
		network  ledger.Network
	}{
		"an index too few":         {orig.Canonical().XDR, signerOf[:1], ledger.Testnet},
		"a signer outside the set": {orig.Canonical().XDR, []int{signerOf[0], 9}, ledger.Testnet},
		"the wrong signer's index": {orig.Canonical().XDR, []int{signerOf[1], signerOf[0]}, ledger.Testnet},
		"a signer twice":           {orig.Canonical().XDR, []int{signerOf[0], signerOf[0]}, ledger.Testnet},
		"an envelope not decoding": {"AAAA", signerOf, ledger.Testnet},
		"no known network":         {orig.Canonical().XDR, signerOf, ledger.Network("nowhere")},
		"no signature at all":      {unsigned, nil, ledger.Testnet},
	} {
		if _, err := ledger.RestorePlan(bad.network, bad.xdr, bad.signerOf, set, orig.Expiry(), orig.Account(), orig.Threshold()); err == nil {
			t.Errorf("%s: restored", name)
		}
	}
}
