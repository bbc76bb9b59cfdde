package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/web"
)

func TestSummarizeShapes(t *testing.T) {
	closing, payer := ledgertest.Keypair(1), ledgertest.Keypair(9)
	mediator := ledgertest.Keypair(7).Address()
	muxed, err := xdr.MuxedAccountFromAccountId(ledgertest.Keypair(2).Address(), 12345)
	if err != nil {
		t.Fatal(err)
	}
	usd := txnbuild.CreditAsset{Code: "USD", Issuer: ledgertest.Keypair(8).Address()}
	// A separate fee payer; create account (a mediator flow); a credit
	// payment; a bump sequence; the merge into a muxed account; no time
	// bounds; a hash memo.
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount: &txnbuild.SimpleAccount{AccountID: payer.Address(), Sequence: 7},
		Operations: []txnbuild.Operation{
			&txnbuild.CreateAccount{Destination: mediator, Amount: "2", SourceAccount: closing.Address()},
			&txnbuild.Payment{Destination: mediator, Amount: "0.0000001", Asset: usd, SourceAccount: closing.Address()},
			&txnbuild.BumpSequence{BumpTo: 99, SourceAccount: closing.Address()},
			&txnbuild.AccountMerge{Destination: muxed.Address(), SourceAccount: closing.Address()},
		},
		BaseFee:       250,
		Memo:          txnbuild.MemoHash{1, 2, 3},
		Preconditions: txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout()},
	})
	if err != nil {
		t.Fatal(err)
	}
	if tx, err = tx.Sign(network.TestNetworkPassphrase, closing, payer); err != nil {
		t.Fatal(err)
	}
	b64, err := tx.Base64()
	if err != nil {
		t.Fatal(err)
	}
	s, err := web.Summarize(b64)
	if err != nil {
		t.Fatal(err)
	}
	if s.Source != payer.Address() || s.ClosingAccount != closing.Address() || s.MergeDestination != muxed.Address() ||
		!strings.HasPrefix(s.MergeDestination, "M") {
		t.Errorf("accounts: %+v", s)
	}
	if s.FeeStroops != 1000 || s.Fee != "0.0001000" || s.Sequence != 7 || s.Signatures != 2 {
		t.Errorf("fee/seq/sigs: %d %s %d %d", s.FeeStroops, s.Fee, s.Sequence, s.Signatures)
	}
	if !s.TimeBounds || !s.MinTime.IsZero() || !s.MaxTime.IsZero() {
		t.Errorf("time bounds: %v %v %v", s.TimeBounds, s.MinTime, s.MaxTime)
	}
	if s.Memo.Type != "hash" || s.Memo.Value != "0102030000000000000000000000000000000000000000000000000000000000" {
		t.Errorf("memo %+v", s.Memo)
	}
	if len(s.Payments) != 1 || s.Payments[0] != (web.Payment{Destination: mediator, Amount: "0.0000001", Asset: "USD:" + usd.Issuer}) {
		t.Errorf("payments %+v", s.Payments)
	}
	wantOps := []web.Operation{
		{Number: 1, Type: "create account", Source: closing.Address(), Destination: mediator, Amount: "2.0000000", Asset: "XLM"},
		{Number: 2, Type: "payment", Source: closing.Address(), Destination: mediator, Amount: "0.0000001", Asset: "USD:" + usd.Issuer},
		{Number: 3, Type: "bump sequence", Source: closing.Address()},
		{Number: 4, Type: "account merge", Source: closing.Address(), Destination: muxed.Address()},
	}
	if len(s.Operations) != len(wantOps) {
		t.Fatalf("%d operations", len(s.Operations))
	}
	for i, want := range wantOps {
		if s.Operations[i] != want {
			t.Errorf("operation %d: %+v, want %+v", i+1, s.Operations[i], want)
		}
	}

	// The page names the fee payer.
	d := web.PageData{ID: strings.Repeat("e", 64), Network: "testnet", XDR: b64, Expiry: now.Add(88 * time.Minute)}
	srv := newServer(t, &fakePlans{plans: map[string]web.PageData{d.ID: d}})
	doc := parseHTML(t, get(t, srv, "/plan/"+d.ID).body)
	if got := fact(t, doc, "Fee paid by"); !strings.HasPrefix(got, payer.Address()) {
		t.Errorf("fee payer %q", got)
	}
	if got := fact(t, doc, "Valid"); got != "from now with no end" {
		t.Errorf("valid %q", got)
	}
}

func TestSummarizeRefuses(t *testing.T) {
	env := ledgertest.FeeBump(sampleXDR(t), ledgertest.Keypair(9), network.TestNetworkPassphrase)
	for name, b64 := range map[string]string{
		"empty":     "",
		"not xdr":   "hello",
		"truncated": sampleXDR(t)[:40],
		"fee-bump":  env,
	} {
		if _, err := web.Summarize(b64); err == nil {
			t.Errorf("%s: summarized", name)
		}
	}
	// A V0 envelope reads like a V1 one.
	s, err := web.Summarize(ledgertest.ToV0(sampleXDR(t)))
	if err != nil || s.ClosingAccount != ledgertest.Keypair(1).Address() || len(s.Payments) != 1 {
		t.Errorf("V0: %v %+v", err, s)
	}
}

func sampleXDR(t *testing.T) string {
	t.Helper()
	return buildClose(t, nil, 0).XDR
}
