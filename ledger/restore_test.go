package ledger_test

import (
	"context"
	"errors"
	"fmt"
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
	got, err := ledger.RestorePlan(orig.ID(), ledger.Testnet, orig.Canonical().XDR, signerOf, set, orig.Expiry(), orig.Account(), orig.Threshold())
	if err != nil {
		t.Fatal(err)
	}
	if got.ID() != orig.ID() || got.Canonical().Hash != orig.Canonical().Hash || got.Canonical().XDR != orig.Canonical().XDR ||
		!got.Expiry().Equal(orig.Expiry()) || got.Account() != orig.Account() || got.Threshold() != orig.Threshold() ||
		!slices.Equal(signerIDs(got.Admitted()), signerOf) {
		t.Fatalf("restored %+v, want %+v", got, orig)
	}

	// Each part of the record the envelope can check, wrong, refused with
	// its kind: the ledger's word is not the store's.
	other, _ := ledgertest.BuildClose(acct.Master, ledgertest.Keypair(997).Address(), 7, 0, testPass)
	junk := ledgertest.Signature(hash, k[2])
	junk.Signature = append([]byte(nil), junk.Signature...)
	junk.Signature[5] ^= 1
	stale := orig.Expiry().Add(time.Second)
	timed, timedHash := ledgertest.BuildClose(acct.Master, ledgertest.Keypair(998).Address(), 7, published.Add(time.Hour).Unix(), testPass)
	timed = ledgertest.AppendSignatures(timed, ledgertest.Signature(timedHash, k[2]))
	for name, bad := range map[string]struct {
		id        string
		xdr       string
		signerOf  []int
		network   ledger.Network
		account   string
		threshold int
		expiry    time.Time
		want      error
	}{
		"an index too few":         {xdr: orig.Canonical().XDR, signerOf: signerOf[:1], want: ledger.ErrStoredSignature},
		"a signer outside the set": {xdr: orig.Canonical().XDR, signerOf: []int{signerOf[0], 9}, want: ledger.ErrStoredSignature},
		"the wrong signer's index": {xdr: orig.Canonical().XDR, signerOf: []int{signerOf[1], signerOf[0]}, want: ledger.ErrStoredSignature},
		"a signer twice":           {xdr: orig.Canonical().XDR, signerOf: []int{signerOf[0], signerOf[0]}, want: ledger.ErrStoredSignature},
		"an envelope not decoding": {xdr: "AAAA", want: ledger.ErrStoredEnvelope},
		"no known network":         {network: ledger.Network("nowhere"), want: ledger.ErrStoredFields},
		"no signature at all":      {xdr: unsigned, signerOf: []int{}, want: ledger.ErrStoredSignature},
		// Another close of the account under the plan's id, its signature
		// carrying the right hint.
		"another transaction":            {xdr: ledgertest.AppendSignatures(other, ledgertest.Signature(hash, k[2])), signerOf: []int{2}, want: ledger.ErrStoredHash},
		"the plan's network, another id": {id: fmt.Sprintf("%x", [32]byte{1}), want: ledger.ErrStoredHash},
		"a signature that does not verify under its signer": {
			xdr: ledgertest.AppendSignatures(unsigned, junk), signerOf: []int{2}, want: ledger.ErrStoredSignature},
		"another account":   {account: k[1].Address(), want: ledger.ErrStoredFields},
		"another threshold": {threshold: orig.Threshold() + 1, want: ledger.ErrStoredFields},
		"an expiry past the maxTime's": {id: fmt.Sprintf("%x", timedHash), xdr: timed, signerOf: []int{2},
			expiry: published.Add(time.Hour), want: ledger.ErrStoredFields},
	} {
		// The honest record, but for the part the case names.
		if bad.id == "" {
			bad.id = orig.ID()
		}
		if bad.xdr == "" {
			bad.xdr = orig.Canonical().XDR
		}
		if bad.signerOf == nil {
			bad.signerOf = signerOf
		}
		if bad.network == "" {
			bad.network = ledger.Testnet
		}
		if bad.account == "" {
			bad.account = orig.Account()
		}
		if bad.threshold == 0 {
			bad.threshold = orig.Threshold()
		}
		if bad.expiry.IsZero() {
			bad.expiry = orig.Expiry()
		}
		_, err := ledger.RestorePlan(bad.id, bad.network, bad.xdr, bad.signerOf, set, bad.expiry, bad.account, bad.threshold)
		if !errors.Is(err, bad.want) {
			t.Errorf("%s: %v, want %v", name, err, bad.want)
		}
	}
	// The same close whose maxTime allows its expiry is restored: the
	// case above fails on the expiry alone.
	if _, err := ledger.RestorePlan(fmt.Sprintf("%x", timedHash), ledger.Testnet, timed, []int{2}, set, published.Add(time.Hour-ledger.ExpiryGrace), orig.Account(), orig.Threshold()); err != nil {
		t.Errorf("a close restored at its maxTime's expiry: %v", err)
	}
	if _, err := ledger.RestorePlan(orig.ID(), ledger.Testnet, orig.Canonical().XDR, signerOf, set, stale, orig.Account(), orig.Threshold()); err != nil {
		t.Errorf("a close without maxTime, any expiry: %v", err)
	}
}

// TestRestoreSignatures: a change of a held plan's entry is checked like a
// restored plan's: the plan's transaction (another one is ErrStoredHash
// even when it decodes), signatures that verify; those the caller holds
// are not verified again.
func TestRestoreSignatures(t *testing.T) {
	acct := ledgertest.DeterministicAccount(2, 3, 1)
	k := acct.Keys
	set := setOf(k...).WithThresholds(ledger.Thresholds{Low: 1, Medium: 2, High: 3})
	unsigned, hash := ledgertest.BuildClose(acct.Master, ledgertest.Keypair(998).Address(), 7, 0, testPass)
	signed := ledgertest.AppendSignatures(unsigned, ledgertest.Signature(hash, k[2]))
	c, err := ledger.NewCanonical(signed, ledger.Testnet.Passphrase(), set)
	if err != nil {
		t.Fatal(err)
	}
	good := ledgertest.Signature(hash, k[0])
	junk := ledgertest.Signature(hash, k[0])
	junk.Signature = append([]byte(nil), junk.Signature...)
	junk.Signature[0] ^= 1
	withGood := ledgertest.AppendSignatures(signed, good)
	withJunk := ledgertest.AppendSignatures(signed, junk)
	other, _ := ledgertest.BuildClose(acct.Master, ledgertest.Keypair(997).Address(), 7, 0, testPass)

	if got, err := ledger.RestoreSignatures(c, withGood, []int{2, 0}, nil); err != nil || !slices.Equal(signerIDs(got), []int{2, 0}) {
		t.Fatalf("an honest change: %v %v", signerIDs(got), err)
	}
	if _, err := ledger.RestoreSignatures(c, withJunk, []int{2, 0}, nil); !errors.Is(err, ledger.ErrStoredSignature) {
		t.Errorf("a junk signature under the right hint: %v", err)
	}
	if _, err := ledger.RestoreSignatures(c, ledgertest.AppendSignatures(other, ledgertest.Signature(hash, k[2])), []int{2}, nil); !errors.Is(err, ledger.ErrStoredHash) {
		t.Errorf("another transaction: %v", err)
	}
	// What the caller holds is not verified again: told it holds the junk
	// bytes (it never would), they pass; told nothing, they do not.
	var asked []int
	held := func(signer int, sig []byte) bool {
		asked = append(asked, signer)
		return signer == 0 && slices.Equal(sig, junk.Signature)
	}
	if _, err := ledger.RestoreSignatures(c, withJunk, []int{2, 0}, held); err != nil {
		t.Errorf("a held signature was verified again: %v", err)
	}
	if !slices.Equal(asked, []int{2, 0}) {
		t.Errorf("held asked about signers %v, want [2 0]", asked)
	}
}
