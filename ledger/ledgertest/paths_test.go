package ledgertest_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/clients/horizonclient"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The double's one-hop path payments against
// PathPaymentStrictSendOpFrame.cpp and OfferExchange.cpp, and its
// /paths/strict-send over the same book.

// book gives src a USD balance and other offers selling XLM for USD.
func book(usd int64, offers ...ledgertest.Offer) func(w *world) {
	return func(w *world) {
		w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd, Balance: usd})
		w.h.AddTrustline(w.other.Address, ledgertest.Trustline{Asset: w.usd})
		for _, o := range offers {
			o.Selling, o.Buying = ledgertest.Native(), w.usd
			w.h.AddOffer(w.other.Address, o)
		}
	}
}

func sellUSD(send, destMin string) func(w *world) []txnbuild.Operation {
	return func(w *world) []txnbuild.Operation {
		return []txnbuild.Operation{&txnbuild.PathPaymentStrictSend{
			SendAsset: w.txUSD(), SendAmount: send, Destination: w.src.Address, DestAsset: txnbuild.NativeAsset{}, DestMin: destMin,
		}}
	}
}

func TestApplyPathPaymentStrictSend(t *testing.T) {
	half := xdr.Price{N: 1, D: 2} // 0.5 USD per XLM
	runRules(t, []ruleCase{
		{name: "one offer, partly taken", setup: book(10*xlm, ledgertest.Offer{Amount: 100 * xlm, Price: half}), ops: sellUSD("10", "20"), check: func(t *testing.T, w *world) {
			wantNative(t, w, w.src.Address, ledgertest.DefaultBalance-100+20*xlm)
			wantNative(t, w, w.other.Address, ledgertest.DefaultBalance-20*xlm)
			other := w.state(t, w.other.Address)
			if b, _ := creditOf(other, "USD"); b.Balance != "10.0000000" {
				t.Errorf("the seller's USD %s, want 10", b.Balance)
			}
			if b, _ := creditOf(w.state(t, w.src.Address), "USD"); b.Balance != "0.0000000" {
				t.Errorf("the sender's USD %s, want 0", b.Balance)
			}
			page, err := w.hc.Offers(horizonclient.OfferRequest{ForAccount: w.other.Address})
			if err != nil || len(page.Embedded.Records) != 1 || page.Embedded.Records[0].Amount != "80.0000000" {
				t.Errorf("the offer after: %v %+v, want 80 XLM left", err, page.Embedded.Records)
			}
		}},
		{name: "best price first, then the next offer; an emptied offer goes", setup: book(10*xlm,
			ledgertest.Offer{Amount: 100 * xlm, Price: xdr.Price{N: 1, D: 1}},
			ledgertest.Offer{Amount: 4 * xlm, Price: half},
		), ops: sellUSD("10", "12"), check: func(t *testing.T, w *world) {
			// 2 USD buy the 4 XLM at 0.5, the other 8 USD buy 8 XLM at 1.
			wantNative(t, w, w.src.Address, ledgertest.DefaultBalance-100+12*xlm)
			wantSubentries(t, w, w.other.Address, 2) // the trustline and the first offer
		}},
		{name: "rounding favours the offer: 1 stroop at 3/7", setup: book(1, ledgertest.Offer{Amount: 999_999_999, Price: xdr.Price{N: 3, D: 7}}),
			ops: sellUSD("0.0000001", "0.0000002"), check: func(t *testing.T, w *world) {
				wantNative(t, w, w.src.Address, ledgertest.DefaultBalance-100+2) // floor(7/3)
			}},
		{name: "op_under_dest_min", setup: book(10*xlm, ledgertest.Offer{Amount: 100 * xlm, Price: half}), ops: sellUSD("10", "20.0000001"),
			tx: "tx_failed", opc: []string{"op_under_dest_min"}},
		{name: "op_too_few_offers: the book is too thin", setup: book(10*xlm, ledgertest.Offer{Amount: 4 * xlm, Price: half}), ops: sellUSD("10", "1"),
			tx: "tx_failed", opc: []string{"op_too_few_offers"}},
		{name: "op_too_few_offers: no book", setup: book(10 * xlm), ops: sellUSD("10", "1"), tx: "tx_failed", opc: []string{"op_too_few_offers"}},
		{name: "op_cross_self", setup: func(w *world) {
			book(10*xlm, ledgertest.Offer{Amount: 100 * xlm, Price: xdr.Price{N: 1, D: 1}})(w)
			w.h.AddOffer(w.src.Address, ledgertest.Offer{Selling: ledgertest.Native(), Buying: w.usd, Amount: xlm, Price: half})
		}, ops: sellUSD("10", "1"), tx: "tx_failed", opc: []string{"op_cross_self"}},
		{name: "op_underfunded", setup: book(5*xlm, ledgertest.Offer{Amount: 100 * xlm, Price: half}), ops: sellUSD("10", "1"),
			tx: "tx_failed", opc: []string{"op_underfunded"}},
		{name: "op_src_no_trust", setup: func(w *world) {}, ops: sellUSD("10", "1"), tx: "tx_failed", opc: []string{"op_src_no_trust"}},
		{name: "op_src_not_authorized", setup: func(w *world) {
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd, Balance: 10 * xlm, Unauthorized: true})
		}, ops: sellUSD("10", "1"), tx: "tx_failed", opc: []string{"op_src_not_authorized"}},
		{name: "op_malformed: dest_min 0", setup: book(10 * xlm), ops: sellUSD("10", "1"), edit: func(w *world, env *xdr.TransactionEnvelope) {
			env.V1.Tx.Operations[0].Body.PathPaymentStrictSendOp.DestMin = 0
		}, tx: "tx_failed", opc: []string{"op_malformed"}},
		// What the double does not model it refuses, never guesses.
		{name: "op_not_supported: a path through another asset", setup: book(10*xlm, ledgertest.Offer{Amount: 100 * xlm, Price: half}), ops: func(w *world) []txnbuild.Operation {
			ops := sellUSD("10", "1")(w)
			ops[0].(*txnbuild.PathPaymentStrictSend).Path = []txnbuild.Asset{txnbuild.CreditAsset{Code: "EUR", Issuer: w.issuer.Address}}
			return ops
		}, tx: "tx_failed", opc: []string{"op_not_supported"}},
	})
}

// TestApplyPathPaymentRefusesAnOfferCoreWouldAdjust: an offer its seller
// cannot fund in full, or whose amount the price's rounding would shrink,
// would be adjusted by core as it is crossed; the double refuses the
// payment (after the fee) instead of guessing, and changes nothing else.
func TestApplyPathPaymentRefusesAnOfferCoreWouldAdjust(t *testing.T) {
	for _, tc := range []struct {
		name  string
		offer ledgertest.Offer
		fund  int64
	}{
		{"unfunded", ledgertest.Offer{Amount: 100 * xlm, Price: xdr.Price{N: 1, D: 2}}, 50 * xlm},
		{"rounded", ledgertest.Offer{Amount: 100 * xlm, Price: xdr.Price{N: 3, D: 7}}, ledgertest.DefaultBalance},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			book(10*xlm, tc.offer)(w)
			w.h.SetBalance(w.other.Address, tc.fund)
			before, _ := w.h.AccountState(w.other.Address)
			tx, opc, err := w.submit(t, sellUSD("10", "1")(w), nil)
			if err != nil || tx != "tx_failed" || len(opc) != 1 || opc[0] != "op_not_supported" {
				t.Fatalf("%v %q %q, want tx_failed [op_not_supported]", err, tx, opc)
			}
			wantNative(t, w, w.src.Address, ledgertest.DefaultBalance-100)
			if after, _ := w.h.AccountState(w.other.Address); !reflect.DeepEqual(after, before) {
				t.Error("the seller changed")
			}
		})
	}
}

// TestStrictSendPaths: /paths/strict-send quotes what the same crossing
// gives, and nothing for an asset the book cannot convert in full.
func TestStrictSendPaths(t *testing.T) {
	w := newWorld(t)
	book(10*xlm, ledgertest.Offer{Amount: 100 * xlm, Price: xdr.Price{N: 1, D: 1}}, ledgertest.Offer{Amount: 4 * xlm, Price: xdr.Price{N: 1, D: 2}})(w)
	req := horizonclient.StrictSendPathsRequest{SourceAssetType: horizonclient.AssetType4, SourceAssetCode: "USD", SourceAssetIssuer: w.issuer.Address, SourceAmount: "10", DestinationAssets: "native"}
	page, err := w.hc.StrictSendPaths(req)
	if err != nil {
		t.Fatal(err)
	}
	if recs := page.Embedded.Records; len(recs) != 1 || recs[0].DestinationAmount != "12.0000000" || recs[0].DestinationAssetType != "native" || len(recs[0].Path) != 0 {
		t.Fatalf("paths %+v, want one direct path to 12 XLM", recs)
	}
	// The quote changed nothing.
	wantNative(t, w, w.other.Address, ledgertest.DefaultBalance)
	req.SourceAmount = "1000"
	if page, err := w.hc.StrictSendPaths(req); err != nil || len(page.Embedded.Records) != 0 {
		t.Fatalf("more than the book holds: %v %+v, want no path", err, page.Embedded.Records)
	}
	req.SourceAmount, req.SourceAssetCode = "10", "EUR"
	if page, err := w.hc.StrictSendPaths(req); err != nil || len(page.Embedded.Records) != 0 {
		t.Fatalf("an asset without a book: %v %+v, want no path", err, page.Embedded.Records)
	}
}

// TestOrderBook: /order_book, read with the SDK's client, is the double's
// offers as Horizon sums them: bids (offers buying the base with the
// counter) at the inverted price, best first, one level per price in
// lowest terms, amounts in what the offers sell; asks likewise, uninverted.
func TestOrderBook(t *testing.T) {
	w := newWorld(t)
	book(10*xlm,
		ledgertest.Offer{Amount: 100 * xlm, Price: xdr.Price{N: 1, D: 1}},
		ledgertest.Offer{Amount: 4 * xlm, Price: xdr.Price{N: 1, D: 2}},
		ledgertest.Offer{Amount: 6 * xlm, Price: xdr.Price{N: 2, D: 4}},
	)(w)
	w.h.AddTrustline(w.issuer.Address, ledgertest.Trustline{Asset: w.eur})
	w.h.AddOffer(w.src.Address, ledgertest.Offer{Selling: w.usd, Buying: ledgertest.Native(), Amount: 3 * xlm, Price: xdr.Price{N: 6, D: 2}})
	w.h.AddOffer(w.other.Address, ledgertest.Offer{Selling: ledgertest.Native(), Buying: w.eur, Amount: 7 * xlm, Price: xdr.Price{N: 1, D: 9}}) // another pair
	req := horizonclient.OrderBookRequest{SellingAssetType: horizonclient.AssetType4, SellingAssetCode: "USD", SellingAssetIssuer: w.issuer.Address, BuyingAssetType: horizonclient.AssetTypeNative}
	got, err := w.hc.OrderBook(req)
	if err != nil {
		t.Fatal(err)
	}
	want := horizon.OrderBookSummary{
		Bids: []horizon.PriceLevel{
			{PriceR: horizon.Price{N: 2, D: 1}, Price: "2.0000000", Amount: "10.0000000"},
			{PriceR: horizon.Price{N: 1, D: 1}, Price: "1.0000000", Amount: "100.0000000"},
		},
		Asks:    []horizon.PriceLevel{{PriceR: horizon.Price{N: 3, D: 1}, Price: "3.0000000", Amount: "3.0000000"}},
		Selling: horizon.Asset{Type: "credit_alphanum4", Code: "USD", Issuer: w.issuer.Address},
		Buying:  horizon.Asset{Type: "native"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the book\n%+v, want\n%+v", got, want)
	}
	req.Limit = 1
	if got, err := w.hc.OrderBook(req); err != nil || len(got.Bids) != 1 || got.Bids[0] != want.Bids[0] {
		t.Errorf("limit 1: %v %+v, want the best bid alone", err, got.Bids)
	}
	req.Limit, req.SellingAssetIssuer = 0, ""
	var perr *horizonclient.Error
	if _, err := w.hc.OrderBook(req); !errors.As(err, &perr) || perr.Problem.Status != 400 || !strings.HasSuffix(perr.Problem.Type, "/invalid_order_book") {
		t.Errorf("no issuer: %v, want invalid_order_book", err)
	}
}

// TestStrictSendPathsLie: SetStrictSendPaths rewrites the quotes, and only
// them: the book and the crossing stay honest; nil ends the lie.
func TestStrictSendPathsLie(t *testing.T) {
	w := newWorld(t)
	book(10*xlm, ledgertest.Offer{Amount: 100 * xlm, Price: xdr.Price{N: 1, D: 2}})(w)
	scam := horizon.Asset{Type: "credit_alphanum4", Code: "SCAM", Issuer: w.other.Address}
	w.h.SetStrictSendPaths(func(src xdr.Asset, send int64, honest []horizon.Path) []horizon.Path {
		if !src.Equals(w.usd) || send != 10*xlm || len(honest) != 1 || honest[0].DestinationAmount != "20.0000000" {
			t.Errorf("the lie was given %v %d %+v", src, send, honest)
		}
		lie := honest[0]
		lie.DestinationAmount, lie.Path = "0.0000200", []horizon.Asset{scam}
		return []horizon.Path{lie}
	})
	req := horizonclient.StrictSendPathsRequest{SourceAssetType: horizonclient.AssetType4, SourceAssetCode: "USD", SourceAssetIssuer: w.issuer.Address, SourceAmount: "10", DestinationAssets: "native"}
	page, err := w.hc.StrictSendPaths(req)
	if recs := page.Embedded.Records; err != nil || len(recs) != 1 || recs[0].DestinationAmount != "0.0000200" || !reflect.DeepEqual(recs[0].Path, []horizon.Asset{scam}) {
		t.Fatalf("the lie: %v %+v", err, page.Embedded.Records)
	}
	ob, err := w.hc.OrderBook(horizonclient.OrderBookRequest{SellingAssetType: horizonclient.AssetType4, SellingAssetCode: "USD", SellingAssetIssuer: w.issuer.Address, BuyingAssetType: horizonclient.AssetTypeNative})
	if err != nil || len(ob.Bids) != 1 || ob.Bids[0].Price != "2.0000000" {
		t.Errorf("the book under the lie: %v %+v", err, ob.Bids)
	}
	w.h.SetStrictSendPaths(nil)
	if page, err := w.hc.StrictSendPaths(req); err != nil || len(page.Embedded.Records) != 1 || page.Embedded.Records[0].DestinationAmount != "20.0000000" {
		t.Errorf("honest again: %v %+v", err, page.Embedded.Records)
	}
}
