package ledgertest

import (
	"encoding/json"
	"math/big"
	"net/http"
	"slices"
	"strconv"

	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/support/render/problem"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// invalidOrderBook is Horizon's problem for /order_book parameters that do
// not name two assets (actions/orderbook.go).
var invalidOrderBook = problem.P{
	Type:   "invalid_order_book",
	Title:  "Invalid Order Book Parameters",
	Status: http.StatusBadRequest,
	Detail: "The parameters that specify what order book to view are invalid in some way. " +
		"Please ensure that your type parameters (selling_asset_type and buying_asset_type) are one the " +
		"following valid values: native, credit_alphanum4, credit_alphanum12.  Also ensure that you " +
		"have specified selling_asset_code and selling_asset_issuer if selling_asset_type is not 'native', as well " +
		"as buying_asset_code and buying_asset_issuer if buying_asset_type is not 'native'",
}

// orderBook serves GET /order_book as Horizon does (actions/orderbook.go
// over its order book graph): for the pair selling_asset_… (the base) and
// buying_asset_… (the counter), the asks are the offers selling the base
// for the counter and the bids the offers selling the counter for the
// base, each side cheapest offer price first, offers at one price summed
// into one level, at most limit levels a side (default 20, at most 200).
// A level's price is the offer price reduced to lowest terms, inverted for
// a bid so that both sides are in counter per base; its amount is what the
// offers sell, so a bid's is in the counter asset, as Horizon gives it.
// The book is the double's offers as they stand, none adjusted (the double
// holds none that core would adjust, see paths.go).
func (h *Handler) orderBook(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	base, errB := queryAsset(q.Get("selling_asset_type"), q.Get("selling_asset_code"), q.Get("selling_asset_issuer"))
	counter, errC := queryAsset(q.Get("buying_asset_type"), q.Get("buying_asset_code"), q.Get("buying_asset_issuer"))
	limit, errL := 20, error(nil)
	if s := q.Get("limit"); s != "" {
		if limit, errL = strconv.Atoi(s); errL == nil && (limit < 1 || limit > 200) {
			errL = strconv.ErrRange
		}
	}
	if errB != nil || errC != nil || errL != nil {
		writeProblem(w, invalidOrderBook)
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.requests++
	if h.failing {
		writeProblem(w, problem.ServerError)
		return
	}
	book := horizon.OrderBookSummary{
		Selling: horizon.Asset(horizonAsset(base)),
		Buying:  horizon.Asset(horizonAsset(counter)),
		Asks:    h.priceLevels(base, counter, limit, false),
		Bids:    h.priceLevels(counter, base, limit, true),
	}
	w.Header().Set("Content-Type", "application/hal+json; charset=utf-8")
	_ = json.NewEncoder(w).Encode(book)
}

// priceLevels is one side of a book: the offers selling selling for
// buying, cheapest first, summed by price into at most limit levels, the
// price inverted for bids (Horizon's offersToPriceLevels). h.mu is held.
func (h *Handler) priceLevels(selling, buying xdr.Asset, limit int, bids bool) []horizon.PriceLevel {
	type priced struct {
		amount int64
		price  xdr.Price // in lowest terms
	}
	var offers []priced
	for _, a := range h.accounts {
		for _, o := range a.offers {
			p := o.price
			// An offer without a valid price cannot be on a ledger's book.
			if o.amount > 0 && o.selling.Equals(selling) && o.buying.Equals(buying) && p.TryNormalize() == nil {
				offers = append(offers, priced{o.amount, p})
			}
		}
	}
	slices.SortFunc(offers, func(x, y priced) int {
		l, r := int64(x.price.N)*int64(y.price.D), int64(y.price.N)*int64(x.price.D)
		return cmpInt64(l, r)
	})
	levels := []horizon.PriceLevel{}
	var sum *big.Int
	var at xdr.Price
	flush := func() {
		if sum == nil {
			return
		}
		p := at
		if bids {
			p.N, p.D = p.D, p.N // TryInvert, on a price known valid
		}
		total, _ := amount.IntStringToAmount(sum.String())
		levels = append(levels, horizon.PriceLevel{PriceR: horizon.Price{N: int32(p.N), D: int32(p.D)}, Price: p.String(), Amount: total})
	}
	for _, o := range offers {
		if sum != nil && o.price == at {
			sum.Add(sum, big.NewInt(o.amount))
			continue
		}
		flush()
		sum, at = big.NewInt(o.amount), o.price
	}
	flush()
	return levels[:min(len(levels), limit)]
}
