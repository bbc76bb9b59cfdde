package ledger_test

import (
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// TestDescribe: each operation of a close in words, with what it moves, to
// whom in full and at what price (CONTRACT section 9's round-3 bullet).
func TestDescribe(t *testing.T) {
	w := newWorld(t)
	scam := txnbuild.CreditAsset{Code: "SCAM", Issuer: w.other}
	eur := txnbuild.CreditAsset{Code: "EURO", Issuer: w.dest}
	for _, tc := range []struct {
		op   txnbuild.Operation
		want string
	}{
		{&txnbuild.ManageSellOffer{Selling: usd, Buying: txnbuild.NativeAsset{}, Amount: "0", Price: xdr.Price{N: 1, D: 2}, OfferID: 12345}, "cancel offer 12345: sell USD (" + w.issuer + ") for XLM"},
		{&txnbuild.ManageSellOffer{Selling: txnbuild.NativeAsset{}, Buying: usd, Amount: "5000", Price: xdr.Price{N: 1, D: 1000000}}, "offer to sell 5000 XLM for USD (" + w.issuer + ") at 0.000001 USD each"},
		{&txnbuild.Payment{Destination: w.dest, Amount: "50", Asset: usd}, "send 50 USD (" + w.issuer + ") to " + w.dest},
		{&txnbuild.Payment{Destination: w.issuer, Amount: "50", Asset: usd}, "return 50 USD to its issuer " + w.issuer},
		{&txnbuild.ChangeTrust{Line: usd.MustToChangeTrustAsset(), Limit: "0"}, "remove the trustline to USD (" + w.issuer + ")"},
		{&txnbuild.ManageData{Name: "note"}, `delete data entry "note"`},
		{&txnbuild.CreateAccount{Destination: w.other, Amount: "2"}, "create account " + w.other + " with 2 XLM"},
		{&txnbuild.CreateClaimableBalance{Amount: "9000", Asset: txnbuild.NativeAsset{}, Destinations: []txnbuild.Claimant{txnbuild.NewClaimant(w.other, nil)}}, "give 9000 XLM away as a claimable balance for " + w.other},
		{&txnbuild.AccountMerge{Destination: w.dest}, "close account " + w.closing + ": all its remaining XLM goes to " + w.dest},
		{&txnbuild.PathPaymentStrictSend{SendAsset: usd, SendAmount: "50", Destination: w.closing, DestAsset: txnbuild.NativeAsset{}, DestMin: "12.5"}, "sell 50 USD (" + w.issuer + ") for at least 12.5 XLM"},
		// Every hop of a path is named with its issuer (issue 39).
		{&txnbuild.PathPaymentStrictSend{SendAsset: usd, SendAmount: "1000", Destination: w.closing, DestAsset: txnbuild.NativeAsset{}, DestMin: "0.00002", Path: []txnbuild.Asset{scam}},
			"sell 1000 USD (" + w.issuer + ") for at least 0.00002 XLM through SCAM (" + w.other + ")"},
		{&txnbuild.PathPaymentStrictSend{SendAsset: usd, SendAmount: "50", Destination: w.dest, DestAsset: txnbuild.NativeAsset{}, DestMin: "12.5", Path: []txnbuild.Asset{scam, txnbuild.NativeAsset{}, eur}},
			"send 50 USD (" + w.issuer + ") to " + w.dest + ", who receives at least 12.5 XLM through SCAM (" + w.other + "), then XLM, then EURO (" + w.dest + ")"},
		{&txnbuild.PathPaymentStrictReceive{SendAsset: usd, SendMax: "50", Destination: w.dest, DestAsset: txnbuild.NativeAsset{}, DestAmount: "12.5", Path: []txnbuild.Asset{scam}},
			"pay up to 50 USD (" + w.issuer + ") so that " + w.dest + " receives 12.5 XLM through SCAM (" + w.other + ")"},
		{&txnbuild.PathPaymentStrictReceive{SendAsset: usd, SendMax: "50", Destination: w.dest, DestAsset: txnbuild.NativeAsset{}, DestAmount: "12.5"},
			"pay up to 50 USD (" + w.issuer + ") so that " + w.dest + " receives 12.5 XLM"},
	} {
		env := w.close(t, nil, tc.op)
		if got := ledger.Describe(env.Operations()[0], env.SourceAccount()); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

// TestDescribeKeepsAMuxedDestination: an M… destination is shown as given,
// with its muxed id, not as the G… account under it.
func TestDescribeKeepsAMuxedDestination(t *testing.T) {
	w := newWorld(t)
	muxed, err := xdr.MuxedAccountFromAccountId(w.dest, 42)
	if err != nil {
		t.Fatal(err)
	}
	m := muxed.Address()
	env := w.close(t, nil, &txnbuild.AccountMerge{Destination: m})
	if got, want := ledger.Describe(env.Operations()[0], env.SourceAccount()), "close account "+w.closing+": all its remaining XLM goes to "+m; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
