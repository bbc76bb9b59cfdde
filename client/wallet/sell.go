package wallet

import (
	"context"
	"fmt"
	"math/big"

	"github.com/closerelay/closerelay/ledger"
	horizonapi "github.com/closerelay/closerelay/ledgerapi/horizon"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/clients/horizonclient"
	hProtocol "github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// DefaultSlippage is the share of the quoted XLM a sale may fall short of,
// in basis points (1 %).
const DefaultSlippage = 100

// SellQuote is what a balance sold for XLM must fetch at least, and the
// assets its path goes through.
type SellQuote struct {
	Min  int64 // stroops of XLM: the best quote less the slippage
	Path []txnbuild.Asset
}

// SellQuotes asks Horizon's /paths/strict-send, for each non-native
// balance of lines, the most XLM it sells for, and keeps that less
// slippage (basis points) as the sale's minimum, by "CODE:ISSUER". A
// balance with no path to XLM, or whose minimum comes to nothing, has no
// entry (CleanUp then refuses to sell it, naming it).
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
		if least.Int64() > 0 {
			out[asset.Code+":"+asset.Issuer] = SellQuote{Min: least.Int64(), Path: path}
		}
	}
	return out, nil
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
