package ledger

import (
	"bytes"
	"slices"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// The preflight's reads through a ledger API that reads entries by key
// only (Stellar RPC, CONTRACT section 15): it cannot list an account's
// trustlines, offers or data, so the relay reads the entries the close's
// operations name, all in one call, and the rules run on that partial
// listing. A sub-entry the close does not name is not listed; the
// account's numSubEntries still counts it, so a merge that would fail on it
// fails here too (op_has_sub_entries gives a count for it).

// CloseKeys is every ledger entry the preflight of env reads: each account
// the transaction or an operation names (source, destination, inflation
// destination), the data entry config.memo_required of each account paid
// or merged into, the trustlines payments and change_trust name (the
// source's and the destination's), the offers manage offer operations name
// (the operation's source's, by id), the data entries manage_data
// names and the claimable balances claim_claimable_balance claims. Each
// key once, accounts first.
func CloseKeys(env xdr.TransactionEnvelope) []xdr.LedgerKey { return CloseKeysAnd(env, nil) }

// CloseKeysAnd is CloseKeys with, for each G… address of also, its
// account and its data entry config.memo_required: the keys of an account
// paid in the native asset by a transaction after the close (the relay's
// forward, CONTRACT section 18). An address that does not parse is left
// out; each key still once, accounts first.
func CloseKeysAnd(env xdr.TransactionEnvelope, also []string) []xdr.LedgerKey {
	var ks keySet
	src := env.SourceAccount().ToAccountId()
	ks.account(src)
	ops := env.Operations()
	for _, op := range ops {
		if op.SourceAccount != nil {
			ks.account(op.SourceAccount.ToAccountId())
		}
	}
	var rest keySet
	for _, op := range ops {
		source := src
		if op.SourceAccount != nil {
			source = op.SourceAccount.ToAccountId()
		}
		switch op.Body.Type {
		case xdr.OperationTypeCreateAccount:
			ks.account(op.Body.CreateAccountOp.Destination)
		case xdr.OperationTypePayment:
			b := op.Body.PaymentOp
			dest := b.Destination.ToAccountId()
			ks.account(dest)
			rest.memo(dest)
			if b.Asset.Type != xdr.AssetTypeAssetTypeNative {
				rest.trustline(source, b.Asset.ToTrustLineAsset())
				rest.trustline(dest, b.Asset.ToTrustLineAsset())
			}
		case xdr.OperationTypePathPaymentStrictReceive:
			dest := op.Body.PathPaymentStrictReceiveOp.Destination.ToAccountId()
			ks.account(dest)
			rest.memo(dest)
		case xdr.OperationTypePathPaymentStrictSend:
			dest := op.Body.PathPaymentStrictSendOp.Destination.ToAccountId()
			ks.account(dest)
			rest.memo(dest)
		case xdr.OperationTypeAccountMerge:
			dest := op.Body.Destination.ToAccountId()
			ks.account(dest)
			rest.memo(dest)
		case xdr.OperationTypeSetOptions:
			if d := op.Body.SetOptionsOp.InflationDest; d != nil {
				ks.account(xdr.AccountId(*d))
			}
		case xdr.OperationTypeManageSellOffer, xdr.OperationTypeManageBuyOffer:
			if id := offerOp(op).id; id != 0 {
				rest.add(xdr.LedgerKey{Type: xdr.LedgerEntryTypeOffer, Offer: &xdr.LedgerKeyOffer{SellerId: source, OfferId: xdr.Int64(id)}})
			}
		case xdr.OperationTypeChangeTrust:
			line := op.Body.ChangeTrustOp.Line
			if line.Type == xdr.AssetTypeAssetTypePoolShare {
				lp := line.LiquidityPool.ConstantProduct
				if id, err := xdr.NewPoolId(lp.AssetA, lp.AssetB, lp.Fee); err == nil {
					rest.trustline(source, xdr.TrustLineAsset{Type: xdr.AssetTypeAssetTypePoolShare, LiquidityPoolId: &id})
				}
			} else {
				rest.trustline(source, line.ToAsset().ToTrustLineAsset())
			}
		case xdr.OperationTypeManageData:
			rest.data(source, string(op.Body.ManageDataOp.DataName))
		}
	}
	for _, k := range ClaimKeys(env) {
		rest.add(k)
	}
	for _, a := range also {
		if id, err := xdr.AddressToAccountId(a); err == nil {
			ks.account(id)
			rest.memo(id)
		}
	}
	return append(ks.keys, rest.keys...)
}

// keySet is a list of ledger keys without repeats.
type keySet struct {
	keys []xdr.LedgerKey
	seen [][]byte
}

func (s *keySet) add(k xdr.LedgerKey) {
	raw, err := k.MarshalBinary()
	if err != nil || slices.ContainsFunc(s.seen, func(b []byte) bool { return bytes.Equal(b, raw) }) {
		return
	}
	s.seen = append(s.seen, raw)
	s.keys = append(s.keys, k)
}

func (s *keySet) account(id xdr.AccountId) {
	s.add(xdr.LedgerKey{Type: xdr.LedgerEntryTypeAccount, Account: &xdr.LedgerKeyAccount{AccountId: id}})
}

func (s *keySet) trustline(id xdr.AccountId, asset xdr.TrustLineAsset) {
	s.add(xdr.LedgerKey{Type: xdr.LedgerEntryTypeTrustline, TrustLine: &xdr.LedgerKeyTrustLine{AccountId: id, Asset: asset}})
}

func (s *keySet) data(id xdr.AccountId, name string) {
	s.add(xdr.LedgerKey{Type: xdr.LedgerEntryTypeData, Data: &xdr.LedgerKeyData{AccountId: id, DataName: xdr.String64(name)}})
}

func (s *keySet) memo(id xdr.AccountId) { s.data(id, memoRequiredKey) }

// StateFromEntries is the preflight's state from a read of keys (as
// CloseKeys names them) that answered entries: each account key's account
// (nil when the ledger does not hold it), with the trustlines, offers and
// data entries read attached to their owners. An account's listing is
// partial (OffersComplete false, OffersRead the offers looked for) unless
// what was read accounts for every sub-entry its numSubEntries counts.
// An account entry that does not convert is an error.
func StateFromEntries(keys []xdr.LedgerKey, entries []xdr.LedgerEntry) (LedgerState, error) {
	out := LedgerState{Accounts: map[string]*AccountState{}}
	for _, k := range keys {
		if k.Type == xdr.LedgerEntryTypeAccount && k.Account != nil {
			if id, ok := address(k.Account.AccountId); ok {
				out.Accounts[id] = nil
			}
		}
	}
	for _, e := range entries {
		if e.Data.Type != xdr.LedgerEntryTypeAccount {
			continue
		}
		st, err := AccountFromEntry(e)
		if err != nil {
			return LedgerState{}, err
		}
		if _, asked := out.Accounts[st.ID]; !asked {
			continue
		}
		st.Data, st.DataSponsored = map[string][]byte{}, map[string]bool{}
		// Each trustline read carries its own liquidityPoolUseCount.
		st.PoolUseKnown = true
		out.Accounts[st.ID] = &st
	}
	claimables, err := ClaimablesFromEntries(keys, entries)
	if err != nil {
		return LedgerState{}, err
	}
	out.Claimables = claimables
	for _, k := range keys {
		if k.Type == xdr.LedgerEntryTypeOffer && k.Offer != nil {
			if a := out.owner(k.Offer.SellerId); a != nil {
				a.OffersRead = append(a.OffersRead, int64(k.Offer.OfferId))
			}
		}
	}
	for _, e := range entries {
		sponsored := e.Ext.V == 1 && e.Ext.V1 != nil && e.Ext.V1.SponsoringId != nil
		switch {
		case e.Data.Type == xdr.LedgerEntryTypeTrustline && e.Data.TrustLine != nil:
			tl := e.Data.TrustLine
			a := out.owner(tl.AccountId)
			if a == nil {
				continue
			}
			t := Trustline{Balance: int64(tl.Balance), Limit: int64(tl.Limit), Flags: xdr.TrustLineFlags(tl.Flags), Sponsored: sponsored}
			if tl.Asset.Type == xdr.AssetTypeAssetTypePoolShare {
				if tl.Asset.LiquidityPoolId == nil {
					continue
				}
				t.PoolID = xdr.Hash(*tl.Asset.LiquidityPoolId).HexString()
			} else {
				if (tl.Asset.Type == xdr.AssetTypeAssetTypeCreditAlphanum4 && tl.Asset.AlphaNum4 == nil) ||
					(tl.Asset.Type == xdr.AssetTypeAssetTypeCreditAlphanum12 && tl.Asset.AlphaNum12 == nil) {
					continue // not an entry a ledger holds; its arm is read below
				}
				t.Asset = tl.Asset.ToAsset()
			}
			if v1 := tl.Ext.V1; tl.Ext.V == 1 && v1 != nil {
				t.Buying, t.Selling = int64(v1.Liabilities.Buying), int64(v1.Liabilities.Selling)
				if v1.Ext.V == 2 && v1.Ext.V2 != nil {
					t.PoolUse = int32(v1.Ext.V2.LiquidityPoolUseCount)
				}
			}
			a.Trustlines = append(a.Trustlines, t)
		case e.Data.Type == xdr.LedgerEntryTypeOffer && e.Data.Offer != nil:
			o := e.Data.Offer
			a := out.owner(o.SellerId)
			if a == nil {
				continue
			}
			a.Offers = append(a.Offers, Offer{ID: int64(o.OfferId), Selling: o.Selling, Buying: o.Buying, Amount: int64(o.Amount), Price: o.Price, Sponsored: sponsored})
		case e.Data.Type == xdr.LedgerEntryTypeData && e.Data.Data != nil:
			d := e.Data.Data
			a := out.owner(d.AccountId)
			if a == nil {
				continue
			}
			name := string(d.DataName)
			a.Data[name] = slices.Clone([]byte(d.DataValue))
			if sponsored {
				a.DataSponsored[name] = true
			}
		}
	}
	for _, a := range out.Accounts {
		if a == nil {
			continue
		}
		// Everything the account holds was read: the listing is whole,
		// as Horizon's is.
		a.OffersComplete = a.listed() == int(a.NumSubEntries)
	}
	return out, nil
}

// owner is the account read for id; nil when it was not read, is absent, or
// id is not an address.
func (s LedgerState) owner(id xdr.AccountId) *AccountState {
	a, ok := address(id)
	if !ok {
		return nil
	}
	return s.Accounts[a]
}

// ClaimablesFromEntries is the claimable balances of a read of keys that
// answered entries: each claimable balance key's entry (ClaimableFromEntry),
// nil when the ledger does not hold it; nil when keys name none. An entry
// that does not convert is an error.
func ClaimablesFromEntries(keys []xdr.LedgerKey, entries []xdr.LedgerEntry) (map[string]*ClaimableBalance, error) {
	var out map[string]*ClaimableBalance
	for _, k := range keys {
		if k.Type != xdr.LedgerEntryTypeClaimableBalance || k.ClaimableBalance == nil {
			continue
		}
		if id, ok := ClaimableID(k.ClaimableBalance.BalanceId); ok {
			if out == nil {
				out = map[string]*ClaimableBalance{}
			}
			out[id] = nil
		}
	}
	for _, e := range entries {
		if e.Data.Type != xdr.LedgerEntryTypeClaimableBalance {
			continue
		}
		cb, err := ClaimableFromEntry(e)
		if err != nil {
			return nil, err
		}
		if _, asked := out[cb.ID]; asked {
			out[cb.ID] = &cb
		}
	}
	return out, nil
}

// ClaimKeys are the keys of the claimable balances env claims, each once.
func ClaimKeys(env xdr.TransactionEnvelope) []xdr.LedgerKey {
	var ks keySet
	for _, op := range env.Operations() {
		if op.Body.Type == xdr.OperationTypeClaimClaimableBalance && op.Body.ClaimClaimableBalanceOp != nil {
			ks.add(xdr.LedgerKey{Type: xdr.LedgerEntryTypeClaimableBalance, ClaimableBalance: &xdr.LedgerKeyClaimableBalance{BalanceId: op.Body.ClaimClaimableBalanceOp.BalanceId}})
		}
	}
	return ks.keys
}
