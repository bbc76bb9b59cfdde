package ledgertest

import (
	"encoding/json"
	"math"
	"math/big"
	"net/http"
	"slices"
	"strings"

	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/support/render/problem"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The order book: path_payment_strict_send through one hop, and Horizon's
// GET /paths/strict-send over the same crossing.
//
// What the double models: a payment whose path is empty, converting the
// send asset straight into the destination asset by crossing the offers of
// the book that sell the destination asset for the send asset, best price
// first and, at one price, oldest (lowest id) first, each crossed with
// core's exchangeV10 under PATH_PAYMENT_STRICT_SEND rounding
// (OfferExchange.cpp), its seller paid and the offer reduced or removed.
//
// What it does not model, refused with op_not_supported so that no test
// takes a guess for the network's answer: a path with intermediate assets;
// liquidity pools (core crosses a pool instead of the book when the pool
// gives more, protocol 18 on); and an offer that core's adjustOffer would
// change as it is crossed: one its seller cannot fully fund or receive
// for, or whose amount the price's rounding shrinks (manage_sell_offer
// stores offers adjusted, AddOffer as given). Those are refused when
// applied, after the fee, with op_not_supported too. A path through
// other assets is refused in validation.
// /paths/strict-send finds only those same direct paths, where Horizon
// would also find paths through other assets and pools.

// maxOffersToCross is core's getMaxOffersToCross (MAX_OFFERS_TO_CROSS,
// TransactionUtils.h): a path payment that crosses more fails with
// op_exceeded_work_limit.
const maxOffersToCross = 1000

var strictSendCodes = map[int32]string{
	-1: "op_malformed", -2: "op_underfunded", -3: "op_src_no_trust", -4: "op_src_not_authorized",
	-5: "op_no_destination", -6: "op_no_trust", -7: "op_not_authorized", -8: "op_line_full", -9: "op_no_issuer",
	-10: "op_too_few_offers", -11: "op_cross_self", -12: "op_under_dest_min",
}

// strictSendResult is a result of code c; a success's last payment is
// last, or (for an operation validated but not applied) one of nothing to
// the zero key.
func strictSendResult(c xdr.PathPaymentStrictSendResultCode, last *xdr.SimplePaymentResult) xdr.OperationResult {
	r := &xdr.PathPaymentStrictSendResult{Code: c}
	if c == xdr.PathPaymentStrictSendResultCodePathPaymentStrictSendSuccess {
		if last == nil {
			last = &xdr.SimplePaymentResult{Destination: xdr.AccountId{Type: xdr.PublicKeyTypePublicKeyTypeEd25519, Ed25519: &xdr.Uint256{}}, Asset: xdr.MustNewNativeAsset()}
		}
		r.Success = &xdr.PathPaymentStrictSendResultSuccess{Last: *last}
	}
	return innerOf(xdr.OperationResultTr{Type: xdr.OperationTypePathPaymentStrictSend, PathPaymentStrictSendResult: r})
}

// validStrictSend is PathPaymentStrictSendOpFrame.cpp doCheckValid: amounts
// above 0, valid assets.
func validStrictSend(p xdr.PathPaymentStrictSendOp) (xdr.OperationResult, bool) {
	if p.SendAmount <= 0 || p.DestMin <= 0 || !assetValid(p.SendAsset) || !assetValid(p.DestAsset) {
		return strictSendResult(xdr.PathPaymentStrictSendResultCodePathPaymentStrictSendMalformed, nil), false
	}
	for _, a := range p.Path {
		if !assetValid(a) {
			return strictSendResult(xdr.PathPaymentStrictSendResultCodePathPaymentStrictSendMalformed, nil), false
		}
	}
	if len(p.Path) > 0 {
		return outer(xdr.OperationResultCodeOpNotSupported), false // not modelled: see above
	}
	return xdr.OperationResult{}, true
}

// applyStrictSend follows PathPaymentStrictSendOpFrame.cpp doApply, in its
// order: the destination must exist, the source pays first
// (PathPaymentOpFrameBase.cpp updateSourceBalance), the book converts, the
// result must reach dest_min, then the destination is paid
// (updateDestBalance). From protocol 13 checkIssuer checks nothing.
func applyStrictSend(v *ledgerView, src *account, p xdr.PathPaymentStrictSendOp) (xdr.OperationResult, bool) {
	fail := func(c xdr.PathPaymentStrictSendResultCode) (xdr.OperationResult, bool) {
		return strictSendResult(c, nil), false
	}
	destID := p.Destination.ToAccountId().Address()
	// shouldBypassIssuerCheck: the same credit asset, no path, paid to its
	// issuer.
	bypass := p.DestAsset.Type != xdr.AssetTypeAssetTypeNative && p.SendAsset.Equals(p.DestAsset) && p.DestAsset.GetIssuer() == destID
	if !bypass && v.peek(destID) == nil {
		return fail(xdr.PathPaymentStrictSendResultCodePathPaymentStrictSendNoDestination)
	}
	send := int64(p.SendAmount)
	// updateSourceBalance.
	if p.SendAsset.Type == xdr.AssetTypeAssetTypeNative {
		if send > src.available() {
			return fail(xdr.PathPaymentStrictSendResultCodePathPaymentStrictSendUnderfunded)
		}
		src.addNative(-send)
	} else if p.SendAsset.GetIssuer() != src.id {
		tl := src.trustline(p.SendAsset)
		switch {
		case tl == nil:
			return fail(xdr.PathPaymentStrictSendResultCodePathPaymentStrictSendSrcNoTrust)
		case tl.flags&TrustAuthorized == 0:
			return fail(xdr.PathPaymentStrictSendResultCodePathPaymentStrictSendSrcNotAuthorized)
		case !src.addLine(tl, -send):
			return fail(xdr.PathPaymentStrictSendResultCodePathPaymentStrictSendUnderfunded)
		}
	}
	received := send
	if !p.SendAsset.Equals(p.DestAsset) {
		got, res, ok := v.cross(src.id, p.SendAsset, send, p.DestAsset)
		if !ok {
			return res, false
		}
		received = got
	}
	if received < int64(p.DestMin) {
		return fail(xdr.PathPaymentStrictSendResultCodePathPaymentStrictSendUnderDestmin)
	}
	// updateDestBalance; the destination may be the source, changed above.
	if p.DestAsset.Type == xdr.AssetTypeAssetTypeNative {
		if !v.get(destID).addNative(received) {
			return fail(xdr.PathPaymentStrictSendResultCodePathPaymentStrictSendLineFull)
		}
	} else if p.DestAsset.GetIssuer() != destID {
		dest := v.get(destID)
		tl := dest.trustline(p.DestAsset)
		switch {
		case tl == nil:
			return fail(xdr.PathPaymentStrictSendResultCodePathPaymentStrictSendNoTrust)
		case tl.flags&TrustAuthorized == 0:
			return fail(xdr.PathPaymentStrictSendResultCodePathPaymentStrictSendNotAuthorized)
		case !dest.addLine(tl, received):
			return fail(xdr.PathPaymentStrictSendResultCodePathPaymentStrictSendLineFull)
		}
	}
	last := xdr.SimplePaymentResult{Destination: p.Destination.ToAccountId(), Asset: p.DestAsset, Amount: xdr.Int64(received)}
	return strictSendResult(xdr.PathPaymentStrictSendResultCodePathPaymentStrictSendSuccess, &last), true
}

// cross converts exactly amount of sheep (what the taker sends) into wheat
// (what it receives) by crossing the book's offers selling wheat for
// sheep, as OfferExchange.cpp convertWithOffers and crossOfferV10 do for
// a strict-send path payment: best price first, each offer's seller paid
// sheep and debited wheat, the offer reduced (and adjusted again) or
// removed. taker "" is nobody (a path search). ok false carries the
// operation's failing result.
func (v *ledgerView) cross(taker string, sheep xdr.Asset, amount int64, wheat xdr.Asset) (received int64, res xdr.OperationResult, ok bool) {
	remaining := amount
	for crossed := 0; remaining > 0; crossed++ {
		o := v.bestOffer(wheat, sheep)
		switch {
		case o == nil:
			// checkTransfer (strict send): everything must be sent.
			return 0, strictSendResult(xdr.PathPaymentStrictSendResultCodePathPaymentStrictSendTooFewOffers, nil), false
		case o.seller == taker:
			// convertWithOffers stops at the taker's own offer.
			return 0, strictSendResult(xdr.PathPaymentStrictSendResultCodePathPaymentStrictSendOfferCrossSelf, nil), false
		case crossed == maxOffersToCross:
			return 0, outer(xdr.OperationResultCodeOpExceededWorkLimit), false
		}
		seller := v.get(o.seller)
		_, off := seller.offer(o.id)
		// crossOfferV10: the offer's liabilities are released first, then
		// the offer is adjusted to what its seller can sell and buy.
		full := off.amount
		off.amount = 0
		canSell, canBuy, known := canTrade(seller, wheat, sheep)
		if !known || adjustOffer(off.price, min(full, canSell), canBuy) != full {
			return 0, outer(xdr.OperationResultCodeOpNotSupported), false // an offer core would adjust: not modelled
		}
		wheatOut, sheepIn, _ := exchangeV10(off.price, full, math.MaxInt64, remaining, canBuy, true)
		if sheepIn == 0 {
			// applyPriceErrorThresholds throws on a strict send that
			// sends no sheep; it cannot happen with sheep left to send.
			return 0, outer(xdr.OperationResultCodeOpNotSupported), false
		}
		if !payWith(seller, wheat, -wheatOut) || !payWith(seller, sheep, sheepIn) {
			return 0, outer(xdr.OperationResultCodeOpNotSupported), false
		}
		left := full - wheatOut
		if left > 0 {
			canSell, canBuy, _ = canTrade(seller, wheat, sheep)
			left = adjustOffer(off.price, min(left, canSell), canBuy)
		}
		if left == 0 {
			i, _ := seller.offer(o.id)
			seller.offers = slices.Delete(seller.offers, i, i+1)
			v.removeSponsored(seller, off.sponsor, 1)
		} else {
			off.amount = left
		}
		received += wheatOut
		remaining -= sheepIn
	}
	return received, xdr.OperationResult{}, true
}

// bestOffer is the book's best offer selling wheat for sheep: the lowest
// price (sheep per wheat), then the lowest id (LedgerTxn's order book).
func (v *ledgerView) bestOffer(wheat, sheep xdr.Asset) *offer {
	var best *offer
	for _, id := range v.accountIDs() {
		a := v.peek(id)
		if a == nil {
			continue
		}
		for _, o := range a.offers {
			if o.amount <= 0 || !o.selling.Equals(wheat) || !o.buying.Equals(sheep) {
				continue
			}
			if best == nil {
				best = o
				continue
			}
			// n1/d1 < n2/d2, exactly (n and d are int32).
			l, r := int64(o.price.N)*int64(best.price.D), int64(best.price.N)*int64(o.price.D)
			if l < r || (l == r && o.id < best.id) {
				best = o
			}
		}
	}
	return best
}

// accountIDs are the ids of every account v may know, in v or the ledger.
func (v *ledgerView) accountIDs() []string {
	seen := map[string]bool{}
	var ids []string
	for w := v; w != nil; w = w.parent {
		for id := range w.accts {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	for id := range v.h.accounts {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids
}

// canTrade is OfferExchange.cpp canSellAtMost(wheat) and canBuyAtMost(sheep)
// for a seller; known is false for a seller core would not let trade (a
// missing or unauthorized trustline: core removes such offers, which the
// double does not model).
func canTrade(a *account, wheat, sheep xdr.Asset) (canSell, canBuy int64, known bool) {
	switch {
	case wheat.Type == xdr.AssetTypeAssetTypeNative:
		canSell = max(a.available(), 0)
	case wheat.GetIssuer() == a.id:
		canSell = math.MaxInt64
	default:
		tl := a.trustline(wheat)
		if tl == nil || tl.flags&TrustAuthorized == 0 {
			return 0, 0, false
		}
		_, selling := a.lineLiabilities(wheat)
		canSell = max(tl.balance-selling, 0)
	}
	switch {
	case sheep.Type == xdr.AssetTypeAssetTypeNative:
		buying, _ := a.nativeLiabilities()
		canBuy = max(math.MaxInt64-a.balance-buying, 0)
	case sheep.GetIssuer() == a.id:
		canBuy = math.MaxInt64
	default:
		tl := a.trustline(sheep)
		if tl == nil || tl.flags&TrustAuthorized == 0 {
			return 0, 0, false
		}
		buying, _ := a.lineLiabilities(sheep)
		canBuy = max(tl.limit-tl.balance-buying, 0)
	}
	return canSell, canBuy, true
}

// payWith adds delta of asset to a's balance (core's addBalance).
func payWith(a *account, asset xdr.Asset, delta int64) bool {
	switch {
	case asset.Type == xdr.AssetTypeAssetTypeNative:
		return a.addNative(delta)
	case asset.GetIssuer() == a.id:
		return true
	}
	tl := a.trustline(asset)
	return tl != nil && a.addLine(tl, delta)
}

// adjustOffer is OfferExchange.cpp adjustOffer: what an offer on the book
// can still sell, crossed by a taker without limits under NORMAL rounding.
func adjustOffer(price xdr.Price, maxWheatSend, maxSheepReceive int64) int64 {
	w, _, _ := exchangeV10(price, maxWheatSend, math.MaxInt64, math.MaxInt64, maxSheepReceive, false)
	return w
}

// exchangeV10 is OfferExchange.cpp exchangeV10 (with
// applyPriceErrorThresholds) for the two roundings the double uses: NORMAL
// (strictSend false) and PATH_PAYMENT_STRICT_SEND.
func exchangeV10(price xdr.Price, maxWheatSend, maxWheatReceive, maxSheepSend, maxSheepReceive int64, strictSend bool) (wheatReceive, sheepSend int64, wheatStays bool) {
	n, d := big.NewInt(int64(price.N)), big.NewInt(int64(price.D))
	value := func(p, q *big.Int, send, recv int64) *big.Int { // calculateOfferValue
		a := new(big.Int).Mul(big.NewInt(send), p)
		b := new(big.Int).Mul(big.NewInt(recv), q)
		if a.Cmp(b) < 0 {
			return a
		}
		return b
	}
	div := func(x, y *big.Int, up bool) int64 {
		q, m := new(big.Int).QuoRem(x, y, new(big.Int))
		if up && m.Sign() > 0 {
			q.Add(q, big.NewInt(1))
		}
		return q.Int64()
	}
	wheatValue := value(n, d, maxWheatSend, maxSheepReceive)
	sheepValue := value(d, n, maxSheepSend, maxWheatReceive)
	wheatStays = wheatValue.Cmp(sheepValue) > 0
	nGtD := price.N > price.D
	if wheatStays {
		switch {
		case strictSend:
			wheatReceive = div(sheepValue, n, false)
			sheepSend = min(maxSheepSend, maxSheepReceive)
		case nGtD:
			wheatReceive = div(sheepValue, n, false)
			sheepSend = div(new(big.Int).Mul(big.NewInt(wheatReceive), n), d, true)
		default:
			sheepSend = div(sheepValue, d, false)
			wheatReceive = div(new(big.Int).Mul(big.NewInt(sheepSend), d), n, false)
		}
	} else if nGtD {
		wheatReceive = div(wheatValue, n, false)
		sheepSend = div(new(big.Int).Mul(big.NewInt(wheatReceive), n), d, false)
	} else {
		sheepSend = div(wheatValue, d, false)
		wheatReceive = div(new(big.Int).Mul(big.NewInt(sheepSend), d), n, true)
	}
	// applyPriceErrorThresholds: under NORMAL rounding a trade more than
	// 1% off the price does not happen (checkPriceErrorBound).
	if wheatReceive > 0 && sheepSend > 0 {
		if !strictSend && !priceErrorWithin(price, wheatReceive, sheepSend) {
			return 0, 0, wheatStays
		}
	} else if !strictSend {
		return 0, 0, wheatStays
	}
	return wheatReceive, sheepSend, wheatStays
}

// priceErrorWithin is OfferExchange.cpp checkPriceErrorBound with
// canFavorWheat false: |100·n·wheat - 100·d·sheep| <= n·wheat.
func priceErrorWithin(price xdr.Price, wheat, sheep int64) bool {
	lhs := new(big.Int).Mul(big.NewInt(100*int64(price.N)), big.NewInt(wheat))
	rhs := new(big.Int).Mul(big.NewInt(100*int64(price.D)), big.NewInt(sheep))
	diff := new(big.Int).Abs(new(big.Int).Sub(lhs, rhs))
	return diff.Cmp(new(big.Int).Mul(big.NewInt(int64(price.N)), big.NewInt(wheat))) <= 0
}

// strictSendPaths serves GET /paths/strict-send as Horizon does for the
// paths the double finds (direct ones, see above): for source_amount of
// the source asset, one record per destination asset
// (destination_assets, a comma-separated list of "native" and
// "CODE:ISSUER", or the assets destination_account holds) that the book
// converts it into in full, best first.
func (h *Handler) strictSendPaths(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	src, err := queryAsset(q.Get("source_asset_type"), q.Get("source_asset_code"), q.Get("source_asset_issuer"))
	if err != nil {
		writeProblem(w, invalidField("source_asset_type", "The source asset is not valid."))
		return
	}
	send, err := amount.ParseInt64(q.Get("source_amount"))
	if err != nil || send <= 0 {
		writeProblem(w, invalidField("source_amount", "The source amount must be a positive amount."))
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.requests++
	if h.failing {
		writeProblem(w, problem.ServerError)
		return
	}
	var dests []xdr.Asset
	switch list, acct := q.Get("destination_assets"), q.Get("destination_account"); {
	case (list == "") == (acct == ""):
		writeProblem(w, invalidField("destination_assets", "Give one of destination_assets and destination_account."))
		return
	case list != "":
		for _, s := range strings.Split(list, ",") {
			a, err := parseAssetString(s)
			if err != nil {
				writeProblem(w, invalidField("destination_assets", "An asset is not valid."))
				return
			}
			dests = append(dests, a)
		}
	default:
		dests = append(dests, Native())
		if a := h.accounts[acct]; a != nil {
			for _, tl := range a.trustlines {
				if tl.pool == nil {
					dests = append(dests, tl.asset)
				}
			}
		}
	}
	var page horizon.PathsPage
	page.Embedded.Records = []horizon.Path{}
	for _, dest := range dests {
		if dest.Equals(src) {
			continue
		}
		got, _, ok := h.view().cross("", src, send, dest) // a throwaway view: nothing changes
		if !ok || got <= 0 {
			continue
		}
		p := horizon.Path{SourceAmount: amount.StringFromInt64(send), DestinationAmount: amount.StringFromInt64(got), Path: []horizon.Asset{}}
		sa, da := horizonAsset(src), horizonAsset(dest)
		p.SourceAssetType, p.SourceAssetCode, p.SourceAssetIssuer = sa.Type, sa.Code, sa.Issuer
		p.DestinationAssetType, p.DestinationAssetCode, p.DestinationAssetIssuer = da.Type, da.Code, da.Issuer
		page.Embedded.Records = append(page.Embedded.Records, p)
	}
	slices.SortStableFunc(page.Embedded.Records, func(x, y horizon.Path) int {
		a, _ := amount.ParseInt64(x.DestinationAmount)
		b, _ := amount.ParseInt64(y.DestinationAmount)
		return cmpInt64(b, a)
	})
	if h.pathsLie != nil {
		page.Embedded.Records = h.pathsLie(src, send, page.Embedded.Records)
	}
	w.Header().Set("Content-Type", "application/hal+json; charset=utf-8")
	_ = json.NewEncoder(w).Encode(page)
}

// SetStrictSendPaths makes /paths/strict-send answer, for each request,
// what lie returns from the request's source asset and amount and the
// records the double found honestly (best first); nil makes it honest
// again. It is a Horizon whose path finder lies, or is fooled: the order
// book, the accounts and the ledger applying transactions stay as they are.
func (h *Handler) SetStrictSendPaths(lie func(source xdr.Asset, sourceAmount int64, honest []horizon.Path) []horizon.Path) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.pathsLie = lie
}

// SetStrictSendPaths is Handler.SetStrictSendPaths.
func (s *Server) SetStrictSendPaths(lie func(source xdr.Asset, sourceAmount int64, honest []horizon.Path) []horizon.Path) {
	s.h.SetStrictSendPaths(lie)
}

func queryAsset(typ, code, issuer string) (xdr.Asset, error) {
	if typ == "native" {
		return Native(), nil
	}
	return xdr.BuildAsset(typ, issuer, code)
}

func parseAssetString(s string) (xdr.Asset, error) {
	if s == "native" {
		return Native(), nil
	}
	code, issuer, _ := strings.Cut(s, ":")
	typ := "credit_alphanum4"
	if len(code) > 4 {
		typ = "credit_alphanum12"
	}
	return xdr.BuildAsset(typ, issuer, code)
}
