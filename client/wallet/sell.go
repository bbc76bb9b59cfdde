package wallet

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/closerelay/closerelay/ledger"
	horizonapi "github.com/closerelay/closerelay/ledgerapi/horizon"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/clients/horizonclient"
	hProtocol "github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// DefaultSlippage is the share of the quoted XLM a sale may fall short of,
// in basis points (1 %).
const DefaultSlippage = 100

// DefaultMaxLoss is how far, in basis points (5 %), a sale's quote may
// fall below what the order book's best bid gives for the balance before
// CleanUp refuses it (CheckSale).
const DefaultMaxLoss = 500

// SellQuote is what a balance sold for XLM must fetch at least, the
// assets its path goes through, and what the quote is checked against.
type SellQuote struct {
	Min   int64 // stroops of XLM: the best quote less the slippage
	Path  []txnbuild.Asset
	Quote int64 // stroops of XLM: the best path's quote, before the slippage
	// Bid is the best bid of the direct order book (the asset against
	// XLM), in XLM per unit of the asset; nil when nobody bids.
	Bid *xdr.Price
}

// SellQuotes asks Horizon's /paths/strict-send, for each non-native
// balance of lines, the most XLM it sells for, and keeps that less
// slippage (basis points) as the sale's minimum, by "CODE:ISSUER", with
// the best bid of the asset's order book against XLM (/order_book), which
// CleanUp checks the quote against. A balance with no path to XLM, or
// whose minimum comes to nothing, has no entry (CleanUp then refuses to
// sell it, naming it).
func (h *Horizon) SellQuotes(ctx context.Context, lines []ledger.Trustline, slippage int64) (map[string]SellQuote, error) {
	if slippage < 0 || slippage >= 10_000 {
		return nil, fmt.Errorf("wallet: slippage of %d basis points is not below 100 %%", slippage)
	}
	hc := &horizonclient.Client{HorizonURL: h.url, HTTP: &horizonapi.HorizonDoer{Ctx: ctx, Client: h.http}}
	out := map[string]SellQuote{}
	for _, t := range lines {
		if t.IsPoolShare() || t.Balance <= 0 {
			continue
		}
		asset, err := creditAsset(t.Asset)
		if err != nil {
			return nil, err
		}
		typ := horizonclient.AssetType4
		if len(asset.Code) > 4 {
			typ = horizonclient.AssetType12
		}
		page, err := hc.StrictSendPaths(horizonclient.StrictSendPathsRequest{
			SourceAssetType: typ, SourceAssetCode: asset.Code, SourceAssetIssuer: asset.Issuer,
			SourceAmount: amount.StringFromInt64(t.Balance), DestinationAssets: "native",
		})
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("wallet: read the paths selling %s:%s: %w", asset.Code, asset.Issuer, err)
		}
		best, path, err := bestPath(page.Embedded.Records, t.Balance)
		if err != nil {
			return nil, fmt.Errorf("wallet: the paths selling %s:%s: %w", asset.Code, asset.Issuer, err)
		}
		least := new(big.Int).Mul(big.NewInt(best), big.NewInt(10_000-slippage))
		least.Quo(least, big.NewInt(10_000))
		if least.Int64() <= 0 {
			continue
		}
		bid, err := bestBid(hc, typ, asset)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("wallet: read the order book of %s:%s against XLM: %w", asset.Code, asset.Issuer, err)
		}
		out[asset.Code+":"+asset.Issuer] = SellQuote{Min: least.Int64(), Path: path, Quote: best, Bid: bid}
	}
	return out, nil
}

// bestBid is the top bid of asset's order book against XLM: the most XLM
// anyone offers for one unit of it, nil when nobody does. Horizon gives a
// bid's price already inverted, in XLM (the counter) per unit (the base).
func bestBid(hc *horizonclient.Client, typ horizonclient.AssetType, asset txnbuild.CreditAsset) (*xdr.Price, error) {
	book, err := hc.OrderBook(horizonclient.OrderBookRequest{
		SellingAssetType: typ, SellingAssetCode: asset.Code, SellingAssetIssuer: asset.Issuer,
		BuyingAssetType: horizonclient.AssetTypeNative, Limit: 1,
	})
	if err != nil {
		return nil, err
	}
	if len(book.Bids) == 0 {
		return nil, nil
	}
	r := book.Bids[0].PriceR
	if r.N <= 0 || r.D <= 0 {
		return nil, fmt.Errorf("the best bid's price %d/%d cannot be read", r.N, r.D)
	}
	return &xdr.Price{N: xdr.Int32(r.N), D: xdr.Int32(r.D)}, nil
}

// CheckSale refuses to sell balance (stroops) of the asset named name at
// quote q when the quote comes to more than maxLoss (basis points) less
// than the balance at the order book's best bid, or when nobody bids for
// the asset in XLM so that nothing vouches for the quote (issue 39): a
// path finder that lies, or a path through an asset its issuer prices at
// will (SCAM:attacker), would otherwise have the close sign away the
// balance for nearly nothing.
//
// The best bid is the fair reference because it is what the market pays
// now for the first unit, by the most direct route, and it comes from the
// book itself, not from the path finder being checked. Its limits: a sale
// larger than the top bid's depth walks down the book, so an honest quote
// for it is below balance × best bid, and a thin book refuses it (sell in
// parts, raise --max-loss, or --force); a path through other assets may
// honestly beat the direct book, which passes. The account's own bid, which
// the close cancels first, may raise the reference: a refusal, never a
// pass. Nor does it help when the same Horizon lies about the book too.
func CheckSale(name string, balance int64, q SellQuote, maxLoss int64) error {
	if maxLoss < 0 || maxLoss >= 10_000 {
		return fmt.Errorf("wallet: a maximum loss of %d basis points is not from 0 up to 100 %%", maxLoss)
	}
	var via string
	for i, a := range q.Path {
		sep := ", then "
		if i == 0 {
			sep = " through "
		}
		if a.IsNative() {
			via += sep + "XLM"
			continue
		}
		via += sep + a.GetCode() + ":" + a.GetIssuer()
	}
	sale := fmt.Sprintf("the sale of %s %s for XLM is refused: the best path quotes %s XLM for it%s", amount.StringFromInt64(balance), name, amount.StringFromInt64(q.Quote), via)
	if q.Bid == nil {
		return refuse("%s, and the order book %s/XLM has no bid, so nothing checks that quote: "+
			"use --assets return to pay it back to its issuer, or add --force to sell at the quote unchecked", sale, name)
	}
	// fair = balance × N/D, in stroops of XLM; the quote must reach
	// fair × (1 - maxLoss).
	fair := new(big.Int).Mul(big.NewInt(balance), big.NewInt(int64(q.Bid.N)))
	fair.Quo(fair, big.NewInt(int64(q.Bid.D)))
	need := new(big.Int).Mul(fair, big.NewInt(10_000-maxLoss))
	if got := new(big.Int).Mul(big.NewInt(q.Quote), big.NewInt(10_000)); got.Cmp(need) >= 0 {
		return nil
	}
	loss, _ := new(big.Rat).SetFrac(new(big.Int).Sub(fair, big.NewInt(q.Quote)), fair).Float64()
	fairXLM, err := amount.IntStringToAmount(fair.String())
	if err != nil {
		return err
	}
	return refuse("%s, %.2f %% less than the %s XLM the order book %s/XLM gives for it at its best bid (%s XLM each), more than --max-loss %s %% allows: "+
		"use --assets return to pay it back to its issuer, or add --force to sell at the quote all the same",
		sale, 100*loss, fairXLM, name, q.Bid.String(), percent(maxLoss))
}

// percent writes basis points as a percentage: 500 is "5", 150 "1.5".
func percent(bp int64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%d.%02d", bp/100, bp%100), "0"), ".")
}

// bestPath is the record that gives the most XLM for exactly send, and its
// intermediate assets; 0 when there is none.
func bestPath(recs []hProtocol.Path, send int64) (int64, []txnbuild.Asset, error) {
	var best int64
	var path []txnbuild.Asset
	for _, r := range recs {
		src, err := amount.ParseInt64(r.SourceAmount)
		if err != nil || src != send || r.DestinationAssetType != "native" {
			continue // not a quote for this sale
		}
		got, err := amount.ParseInt64(r.DestinationAmount)
		if err != nil || got < 0 {
			return 0, nil, fmt.Errorf("a path's destination amount %q cannot be read", r.DestinationAmount)
		}
		if got <= best {
			continue
		}
		via := make([]txnbuild.Asset, 0, len(r.Path))
		for _, a := range r.Path {
			if a.Type == "native" {
				via = append(via, txnbuild.NativeAsset{})
				continue
			}
			via = append(via, txnbuild.CreditAsset{Code: a.Code, Issuer: a.Issuer})
		}
		best, path = got, via
	}
	return best, path, nil
}
