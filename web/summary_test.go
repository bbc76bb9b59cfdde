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
		{Number: 1, Type: "create account", Source: closing.Address(), Destination: mediator, Amount: "2.0000000", Asset: "XLM",
			Words: "create account " + mediator + " with 2 XLM", Elsewhere: true, Moves: true, Native: 20_000_000},
		{Number: 2, Type: "payment", Source: closing.Address(), Destination: mediator, Amount: "0.0000001", Asset: "USD:" + usd.Issuer,
			Words: "send 0.0000001 USD (" + usd.Issuer + ") to " + mediator, Elsewhere: true, Moves: true},
		{Number: 3, Type: "bump sequence", Source: closing.Address(), Words: "set the account's sequence number to 99"},
		{Number: 4, Type: "account merge", Source: closing.Address(), Destination: muxed.Address(),
			Words: "close account " + closing.Address() + ": all its remaining XLM goes to " + muxed.Address()},
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

// giveAwayClose is a testnet close of key 1's account into key 2 that also
// gives 9,000 XLM to key 6 as a claimable balance and offers 5,000 XLM for
// USD at 1/1,000,000 USD each (issue 25's attack 7), as page data.
func giveAwayClose(t *testing.T) (web.PageData, string, string, string) {
	t.Helper()
	closing := ledgertest.Keypair(1)
	dest, third := ledgertest.Keypair(2).Address(), ledgertest.Keypair(6).Address()
	usd := txnbuild.CreditAsset{Code: "USD", Issuer: ledgertest.Keypair(8).Address()}
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount: &txnbuild.SimpleAccount{AccountID: closing.Address(), Sequence: 42},
		Operations: []txnbuild.Operation{
			&txnbuild.CreateClaimableBalance{Amount: "9000", Asset: txnbuild.NativeAsset{},
				Destinations: []txnbuild.Claimant{txnbuild.NewClaimant(third, nil)}},
			&txnbuild.ManageSellOffer{Selling: txnbuild.NativeAsset{}, Buying: usd, Amount: "5000",
				Price: xdr.Price{N: 1, D: 1_000_000}},
			&txnbuild.AccountMerge{Destination: dest},
		},
		BaseFee:       100,
		Preconditions: txnbuild.Preconditions{TimeBounds: txnbuild.NewTimebounds(0, now.Add(time.Hour).Unix())},
	})
	if err != nil {
		t.Fatal(err)
	}
	b64, err := tx.Base64()
	if err != nil {
		t.Fatal(err)
	}
	return web.PageData{ID: strings.Repeat("c", 64), Network: "testnet", XDR: b64, Expiry: now.Add(30 * time.Minute)},
		third, usd.Issuer, closing.Address()
}

// TestEveryOperationInWords: the page says what each operation of a close
// does, in ledger.Describe's words, not only its type: a claimable balance
// to a third party and an offer at a ruinous price read plainly (amount,
// who in full, the price) and are marked as funds that go elsewhere than
// the destination. Before, the page showed "create claimable balance" and
// "manage sell offer" and "Payments before the merge: none".
func TestEveryOperationInWords(t *testing.T) {
	d, third, issuer, closing := giveAwayClose(t)
	srv := newServer(t, &fakePlans{plans: map[string]web.PageData{d.ID: d}})
	doc := parseHTML(t, get(t, srv, "/plan/"+d.ID).body)
	ops := doc.byID(t, "ops").byTag("li")
	const mark = " ⚠ funds go to someone other than the destination"
	want := []string{
		"give 9000 XLM away as a claimable balance for " + third + mark + " (create claimable balance)",
		"offer to sell 5000 XLM for USD (" + issuer + ") at 0.000001 USD each" + mark + " (manage sell offer)",
		"close account " + closing + ": all its remaining XLM goes to " + ledgertest.Keypair(2).Address() + " (account merge)",
	}
	if len(ops) != len(want) {
		t.Fatalf("%d operations listed, want %d", len(ops), len(want))
	}
	for i, w := range want {
		if got := ops[i].textContent(); got != w {
			t.Errorf("operation %d: %q\nwant %q", i+1, got, w)
		}
		if marked := ops[i].attr["class"] == "elsewhere"; marked != (i < 2) {
			t.Errorf("operation %d marked %v", i+1, marked)
		}
	}
	if strings.Contains(doc.textContent(), "Payments before the merge") {
		t.Error("a list of payments that says none while the close gives funds away")
	}
}
