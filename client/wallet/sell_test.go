package wallet_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/client/wallet"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// TestCheckSale: a quote passes down to exactly the balance at the best
// bid less maxLoss, and one stroop below it is refused; with no bid it is
// refused as unchecked (issue 39).
func TestCheckSale(t *testing.T) {
	bid := &xdr.Price{N: 3, D: 2} // 1.5 XLM per unit
	const balance = 10_0000000    // 10 units: 15 XLM at the bid
	for _, tc := range []struct {
		name    string
		q       wallet.SellQuote
		maxLoss int64
		want    string // "" passes; "x" is an error, not a refusal
	}{
		{"at the bid", wallet.SellQuote{Quote: 15_0000000, Bid: bid}, 0, ""},
		{"above the bid", wallet.SellQuote{Quote: 20_0000000, Bid: bid}, 0, ""},
		{"one stroop below, no loss allowed", wallet.SellQuote{Quote: 15_0000000 - 1, Bid: bid}, 0, "0.00 % less than the 15.0000000 XLM"},
		{"at the limit", wallet.SellQuote{Quote: 14_2500000, Bid: bid}, wallet.DefaultMaxLoss, ""},
		{"one stroop past the limit", wallet.SellQuote{Quote: 14_2500000 - 1, Bid: bid}, wallet.DefaultMaxLoss, "5.00 % less than the 15.0000000 XLM"},
		{"1.5 % allowed", wallet.SellQuote{Quote: 14_7000000, Bid: bid}, 150, "2.00 % less than the 15.0000000 XLM the order book USD:GX/XLM gives for it at its best bid (1.5000000 XLM each), more than --max-loss 1.5 % allows"},
		{"no bid", wallet.SellQuote{Quote: 15_0000000}, wallet.DefaultMaxLoss, "the order book USD:GX/XLM has no bid, so nothing checks that quote"},
		// A maximum loss of 100 % or more would let any quote pass.
		{"maxLoss 100 %", wallet.SellQuote{Quote: 1, Bid: bid}, 10_000, "x"},
		{"maxLoss negative", wallet.SellQuote{Quote: 15_0000000, Bid: bid}, -1, "x"},
	} {
		err := wallet.CheckSale("USD:GX", balance, tc.q, tc.maxLoss)
		var r *wallet.Refusal
		switch {
		case tc.want == "x":
			if err == nil || errors.As(err, &r) {
				t.Errorf("%s: %v, want an error that is no refusal", tc.name, err)
			}
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want it to pass", tc.name, err)
		case tc.want != "" && (!errors.As(err, &r) || !strings.Contains(r.Reason, tc.want)):
			t.Errorf("%s: %v, want a refusal with %q", tc.name, err, tc.want)
		}
	}
}
