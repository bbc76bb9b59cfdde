package wallet

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// An account with sub-entries cannot be merged (op_has_sub_entries), and a
// multisig close through the relay is one transaction whose every operation
// acts on the closing account. So the clean-up that makes the merge land
// goes in the same transaction, before the merge, in the order the ledger
// needs it (CONTRACT section 17): offers first (they hold liabilities that
// would keep a balance or a trustline), then each non-native balance sent,
// returned or sold, then every trustline and data entry removed. What no
// operation of the account can undo is refused before anyone signs.

// AssetDisposal is what a close does with a non-native balance.
type AssetDisposal string

const (
	// AssetsSend sends each balance to the destination (the default).
	AssetsSend AssetDisposal = "send"
	// AssetsReturn pays each balance back to its issuer, which always
	// lands: a payment to an asset's issuer needs neither its account nor
	// a trustline.
	AssetsReturn AssetDisposal = "return"
	// AssetsSell sells each balance for XLM with a strict-send path
	// payment to the account itself, before the merge takes the XLM.
	AssetsSell AssetDisposal = "sell"
)

// ClaimableBalance is a native claimable balance the account can claim now.
type ClaimableBalance struct {
	ID     string // hex of the balance id, as Horizon lists it
	Amount int64  // stroops
}

// CleanUpParams is what the clean-up of an account is built from.
type CleanUpParams struct {
	Account     string             // the closing account
	Destination string             // where its funds go: the merge's destination
	State       ledger.LedgerState // the account, the destination and the issuers, as read
	Assets      AssetDisposal      // "" is AssetsSend
	// Sell holds, for AssetsSell, the least XLM each balance must fetch
	// and the path it goes by, by "CODE:ISSUER": the ledger API's best
	// path less the slippage allowed (Horizon.SellQuotes). A balance with
	// no entry has no path to XLM.
	Sell map[string]SellQuote
	// MaxLoss is how far (basis points) a sale's quote may fall below the
	// balance at its order book's best bid (CheckSale); 0 allows no shortfall,
	// DefaultMaxLoss is the command line's default.
	MaxLoss int64
	// Claimable are the native claimable balances the account can claim
	// until the close's time bound ends (SortClaimable); Claim claims
	// them before the merge.
	Claimable []ClaimableBalance
	Claim     bool
	// Mediator says the destination is a mediator the close goes through
	// (it holds no trustlines). HasMemo says the close carries a memo.
	// Force builds what is refused only as a precaution: a direct close
	// with a memo into an account that requires one (SEP-29), and a sale
	// whose quote the order book does not vouch for (CheckSale).
	Mediator, HasMemo, Force bool
	// Reserved is how many operations the rest of the close takes (the
	// merge, a mediator's creation), counted against MaxOperations.
	Reserved int
}

// Refusal is a close that cannot be built: what stands in the way and what
// to do about it, in words.
type Refusal struct{ Reason string }

func (r *Refusal) Error() string { return r.Reason }

func refuse(format string, args ...any) error {
	return &Refusal{Reason: fmt.Sprintf(format, args...)}
}

// CleanUp builds the operations that empty the account before its merge:
// cancel every offer, claim native claimable balances (with Claim), dispose
// of every non-native balance, remove every trustline and data entry. It
// refuses, with a *Refusal that names the thing and the way out, what the
// account cannot undo in one transaction.
func CleanUp(p CleanUpParams) ([]txnbuild.Operation, error) {
	acc, read := p.State.Accounts[p.Account]
	if !read || acc == nil {
		return nil, errors.New("wallet: the account to close was not read, or does not exist")
	}
	if acc.Flags.AuthImmutable {
		return nil, refuse("the account has AUTH_IMMUTABLE set, and the ledger never merges such an account (op_immutable_set): it cannot be closed; move its funds out with payments instead")
	}
	if acc.NumSponsoring > 0 {
		return nil, refuse("the account pays the reserve of %d entries of other accounts (num_sponsoring): end or transfer those sponsorships (revoke_sponsorship) before closing it (op_is_sponsor)", acc.NumSponsoring)
	}
	for _, t := range acc.Trustlines {
		if t.IsPoolShare() {
			return nil, refuse("the account holds shares of liquidity pool %s: withdraw from the pool (liquidity_pool_withdraw) and remove its trustline before closing", t.PoolID)
		}
	}
	dest, destRead := p.State.Accounts[p.Destination]
	if destRead && dest.MemoRequiredBy() && !p.Mediator && !(p.HasMemo && p.Force) {
		// A direct close hands the funds over by account_merge, which
		// exchanges credit inconsistently even with a memo; the mediator's
		// forward pays them with a payment that carries it (CONTRACT 17).
		if p.HasMemo {
			return nil, refuse("the destination %s requires a memo (SEP-29), and a direct close pays it by account_merge, which exchanges credit inconsistently even with a memo: "+
				"close through a mediator (--mediator and --token from closerelayctl mediator mint --memo …), whose forward pays it with a payment carrying the memo, "+
				"or add --force if you are sure it credits a merge with this memo", p.Destination)
		}
		return nil, refuse("the destination %s requires a memo (SEP-29), and this close carries none: close through a mediator (--mediator and --token from closerelayctl mediator mint --memo …), "+
			"or give --memo and --force if you are sure it credits a merge with that memo", p.Destination)
	}
	disposal := p.Assets
	if disposal == "" {
		disposal = AssetsSend
	}

	var ops []txnbuild.Operation
	for _, o := range acc.Offers {
		op, err := cancelOffer(o)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	if !acc.OffersComplete {
		return nil, refuse("the account has more offers than the ledger API listed: list them all before closing")
	}
	if p.Claim {
		for _, cb := range p.Claimable {
			ops = append(ops, &txnbuild.ClaimClaimableBalance{BalanceID: cb.ID})
		}
	}
	for _, t := range acc.Trustlines {
		if t.Balance > 0 {
			op, err := p.dispose(t, disposal, dest, destRead, acc.Offers)
			if err != nil {
				return nil, err
			}
			ops = append(ops, op)
		}
		line, err := changeTrustAsset(t.Asset)
		if err != nil {
			return nil, err
		}
		ops = append(ops, &txnbuild.ChangeTrust{Line: line, Limit: "0"})
	}
	for _, name := range sortedKeys(acc.Data) {
		ops = append(ops, &txnbuild.ManageData{Name: name})
	}
	if n := len(ops) + p.Reserved; n > MaxOperations {
		return nil, refuse("the close needs %d operations, more than a transaction's %d: cancel some offers or remove some trustlines or data entries in an earlier transaction first", n, MaxOperations)
	}
	return ops, nil
}

// dispose moves a trustline's balance out as the disposal says.
func (p CleanUpParams) dispose(t ledger.Trustline, how AssetDisposal, dest *ledger.AccountState, destRead bool, own []ledger.Offer) (txnbuild.Operation, error) {
	asset, err := creditAsset(t.Asset)
	if err != nil {
		return nil, err
	}
	name := asset.Code + ":" + asset.Issuer
	if t.Flags&xdr.TrustLineFlagsAuthorizedFlag == 0 {
		return nil, refuse("the issuer of %s has not authorized the account to send it (op_src_not_authorized): %s of it cannot leave the account; ask the issuer to authorize or claw it back", name, amount.StringFromInt64(t.Balance))
	}
	value := amount.StringFromInt64(t.Balance)
	switch how {
	case AssetsReturn:
		return &txnbuild.Payment{Destination: asset.Issuer, Amount: value, Asset: asset}, nil
	case AssetsSell:
		q, ok := p.Sell[name]
		if !ok || q.Min <= 0 {
			return nil, refuse("no path sells %s %s for XLM: use --assets return to pay it back to its issuer", value, name)
		}
		// The ledger API quotes the path over the whole order book, the
		// account's own offers included; the close cancels those first,
		// so a quote that counts one may promise more than the sale gets.
		if o, ok := ownOfferOnPath(own, t.Asset, q.Path); ok {
			return nil, refuse("the quote for selling %s %s may count the account's own offer %d, which the close cancels first, so the sale could fall short of it: cancel the offer in an earlier transaction, or use --assets return", value, name, o)
		}
		if !p.Force {
			if err := CheckSale(name, t.Balance, q, p.MaxLoss); err != nil {
				return nil, err
			}
		}
		return &txnbuild.PathPaymentStrictSend{
			SendAsset: asset, SendAmount: value, Destination: p.Account,
			DestAsset: txnbuild.NativeAsset{}, DestMin: amount.StringFromInt64(q.Min), Path: q.Path,
		}, nil
	case AssetsSend:
		if p.Destination == asset.Issuer {
			return &txnbuild.Payment{Destination: p.Destination, Amount: value, Asset: asset}, nil
		}
		if !destRead {
			return nil, errors.New("wallet: the destination was not read")
		}
		if why := cannotReceive(dest, t, p.Mediator); why != "" {
			return nil, refuse("the destination %s cannot receive %s %s: %s; use --assets return to pay it back to its issuer, or --assets sell", p.Destination, value, name, why)
		}
		return &txnbuild.Payment{Destination: p.Destination, Amount: value, Asset: asset}, nil
	}
	return nil, fmt.Errorf("wallet: --assets %q is not one of send, return, sell", how)
}

// ownOfferOnPath is an offer of own that a sale of asset to XLM through
// path could cross: one that sells a hop's next asset for its previous
// one.
func ownOfferOnPath(own []ledger.Offer, asset xdr.Asset, path []txnbuild.Asset) (int64, bool) {
	hops := []xdr.Asset{asset}
	for _, a := range path {
		x, err := a.ToXDR()
		if err != nil {
			return 0, false
		}
		hops = append(hops, x)
	}
	hops = append(hops, xdr.MustNewNativeAsset())
	for i := 1; i < len(hops); i++ {
		for _, o := range own {
			if o.Selling.Equals(hops[i]) && o.Buying.Equals(hops[i-1]) {
				return o.ID, true
			}
		}
	}
	return 0, false
}

// cannotReceive says why dest cannot take t's whole balance, or "" when it
// can (PathPaymentOpFrameBase.cpp updateDestBalance).
func cannotReceive(dest *ledger.AccountState, t ledger.Trustline, mediator bool) string {
	switch {
	case mediator:
		return "a mediator holds no trustlines"
	case dest == nil:
		return "it does not exist"
	}
	for _, d := range dest.Trustlines {
		if d.IsPoolShare() || !d.Asset.Equals(t.Asset) {
			continue
		}
		if d.Flags&xdr.TrustLineFlagsAuthorizedFlag == 0 {
			return "its trustline is not authorized by the issuer"
		}
		if d.Balance > d.Limit-d.Buying-t.Balance {
			return "its trustline's limit is too low"
		}
		return ""
	}
	return "it has no trustline to the asset"
}

// cancelOffer deletes offer o: a manage offer of amount 0 with its id, its
// assets and its price (which must still be valid, ManageOfferOpFrameBase
// doCheckValid).
func cancelOffer(o ledger.Offer) (txnbuild.Operation, error) {
	selling, err := assetOf(o.Selling)
	if err != nil {
		return nil, fmt.Errorf("wallet: offer %d: %w", o.ID, err)
	}
	buying, err := assetOf(o.Buying)
	if err != nil {
		return nil, fmt.Errorf("wallet: offer %d: %w", o.ID, err)
	}
	if o.Price.N <= 0 || o.Price.D <= 0 {
		return nil, fmt.Errorf("wallet: offer %d has no valid price", o.ID)
	}
	return &txnbuild.ManageSellOffer{Selling: selling, Buying: buying, Amount: "0", Price: o.Price, OfferID: o.ID}, nil
}

func assetOf(a xdr.Asset) (txnbuild.Asset, error) {
	if a.Type == xdr.AssetTypeAssetTypeNative {
		return txnbuild.NativeAsset{}, nil
	}
	return creditAsset(a)
}

func creditAsset(a xdr.Asset) (txnbuild.CreditAsset, error) {
	var typ xdr.AssetType
	var code, issuer string
	if err := a.Extract(&typ, &code, &issuer); err != nil || typ == xdr.AssetTypeAssetTypeNative {
		return txnbuild.CreditAsset{}, errors.New("wallet: a trustline's asset is not a credit asset")
	}
	return txnbuild.CreditAsset{Code: code, Issuer: issuer}, nil
}

func changeTrustAsset(a xdr.Asset) (txnbuild.ChangeTrustAsset, error) {
	c, err := creditAsset(a)
	if err != nil {
		return nil, err
	}
	return c.ToChangeTrustAsset()
}

// sortedKeys are m's keys in order, so that an account always builds the
// same close.
func sortedKeys(m map[string][]byte) []string { return slices.Sorted(maps.Keys(m)) }
