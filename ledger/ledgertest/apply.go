package ledgertest

import (
	"bytes"
	"slices"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// The operations the double applies, each rule with the stellar-core source
// file it follows (src/transactions/, protocol 23 and later). An operation
// is checked in two steps, as core does: doCheckValid (validate, below),
// run when the transaction is validated, whose failure refuses the whole
// transaction and changes nothing; and doApply (applyOp), run once the fee
// is charged and the sequence number consumed, whose failure makes the
// transaction tx_failed, rolls back its operations and keeps the fee and
// the sequence number.
//
// Modelled: create_account, payment, manage_sell_offer and
// manage_buy_offer deleting an offer (amount 0), change_trust (credit
// assets and pool shares; creating, changing the limit of and removing a
// trustline), manage_data, set_options, account_merge, bump_sequence,
// claim_claimable_balance (claimable.go) and path_payment_strict_send
// through one hop of the order book (paths.go). Not modelled, refused in
// validation with op_not_supported (an outer code core gives an operation
// its ledger does not support), so that no test
// takes a silent success for the network's answer: every other operation
// type, and offers with a nonzero amount (offer crossing: creating or
// updating an offer would need the order book).

// ledgerView is a change set over the double's accounts: an operation's or
// a transaction's, discarded on failure, committed into its parent on
// success (core's nested LedgerTxn).
type ledgerView struct {
	h      *Handler
	parent *ledgerView
	accts  map[string]*account // changed or created; nil is removed
	offer  int64               // the last offer id handed out

	cbs map[string]*claimable // claimable balances claimed (nil), claimable.go
}

func (h *Handler) view() *ledgerView {
	return &ledgerView{h: h, accts: map[string]*account{}, offer: h.lastOffer}
}

func (v *ledgerView) child() *ledgerView {
	return &ledgerView{h: v.h, parent: v, accts: map[string]*account{}, offer: v.offer}
}

// get is account id for changing, nil when it does not exist.
func (v *ledgerView) get(id string) *account {
	if a, ok := v.accts[id]; ok {
		return a
	}
	a := v.peek(id)
	if a == nil {
		return nil
	}
	c := a.clone()
	c.raw = nil
	v.accts[id] = c
	return c
}

// peek is account id, not to be changed.
func (v *ledgerView) peek(id string) *account {
	for w := v; w != nil; w = w.parent {
		if a, ok := w.accts[id]; ok {
			return a
		}
	}
	return v.h.accounts[id]
}

func (v *ledgerView) commit() {
	v.commitClaimables()
	if v.parent != nil {
		for id, a := range v.accts {
			v.parent.accts[id] = a
		}
		v.parent.offer = v.offer
		return
	}
	for id, a := range v.accts {
		if a == nil {
			delete(v.h.accounts, id)
		} else {
			v.h.accounts[id] = a
		}
	}
	v.h.lastOffer = v.offer
}

// removeSponsored undoes the sponsorship of an entry of owner, mult
// reserves paid by sponsor (SponsorshipUtils.cpp
// removeEntryWithPossibleSponsorship: the sponsor's numSponsoring and the
// owner's numSponsored go down; numSubEntries goes down with the entry).
func (v *ledgerView) removeSponsored(owner *account, sponsor string, mult int64) {
	if sponsor == "" || sponsor == owner.id {
		return
	}
	owner.numSponsored -= min(owner.numSponsored, uint32(mult))
	if sponsor == owner.id {
		return
	}
	if s := v.get(sponsor); s != nil {
		s.numSponsor -= min(s.numSponsor, uint32(mult))
	}
}

// canCreate is SponsorshipUtils.cpp canCreateEntryWithoutSponsorship for a
// sub-entry of a counting mult: too many sub-entries (more than 1000), or
// an available balance below mult base reserves. The double does not model
// sponsoring future reserves (begin_sponsoring_future_reserves is
// refused), so a new entry is always the owner's.
func canCreate(a *account, mult int64) (lowReserve, tooMany bool) {
	if a.numSubEntries() > subEntryLimit-mult {
		return false, true
	}
	return a.available() < mult*BaseReserve, false
}

// validate is the operation's doCheckValid; it returns the refusal's result,
// or ok.
func validate(op xdr.Operation, source string) (xdr.OperationResult, bool) {
	b := op.Body
	switch b.Type {
	case xdr.OperationTypeCreateAccount:
		// CreateAccountOpFrame.cpp doCheckValid: starting balance < 0
		// (from protocol 14), or the destination is the source.
		c := b.MustCreateAccountOp()
		if c.StartingBalance < 0 || c.Destination.Address() == source {
			return createAccountResult(xdr.CreateAccountResultCodeCreateAccountMalformed), false
		}
	case xdr.OperationTypePayment:
		// PaymentOpFrame.cpp doCheckValid: amount <= 0, or an invalid asset.
		p := b.MustPaymentOp()
		if p.Amount <= 0 || !assetValid(p.Asset) {
			return paymentResult(xdr.PaymentResultCodePaymentMalformed), false
		}
	case xdr.OperationTypeManageSellOffer, xdr.OperationTypeManageBuyOffer:
		// ManageOfferOpFrameBase.cpp doCheckValid: invalid or equal
		// assets, a negative amount, a price not above 0, deleting offer
		// 0, a negative offer id.
		sell, buy, amt, price, id := offerOp(b)
		if !assetValid(sell) || !assetValid(buy) || sell.Equals(buy) || amt < 0 ||
			price.N <= 0 || price.D <= 0 || (id == 0 && amt == 0) || id < 0 {
			return offerResult(b.Type, xdr.ManageSellOfferResultCodeManageSellOfferMalformed), false
		}
		if amt != 0 {
			return outer(xdr.OperationResultCodeOpNotSupported), false // the double does not cross offers
		}
	case xdr.OperationTypeChangeTrust:
		// ChangeTrustOpFrame.cpp doCheckValid: a negative limit, an
		// invalid or native asset, the source is the asset's issuer.
		c := b.MustChangeTrustOp()
		if c.Limit < 0 || c.Line.Type == xdr.AssetTypeAssetTypeNative {
			return changeTrustResult(xdr.ChangeTrustResultCodeChangeTrustMalformed), false
		}
		if c.Line.Type == xdr.AssetTypeAssetTypePoolShare {
			cp := c.Line.LiquidityPool.ConstantProduct
			// ChangeTrustOpFrame.cpp / TransactionUtils.cpp isAssetValid
			// for a pool: valid assets, A < B, the protocol's fee.
			if !assetValid(cp.AssetA) || !assetValid(cp.AssetB) || !cp.AssetA.LessThan(cp.AssetB) || cp.Fee != xdr.LiquidityPoolFeeV18 {
				return changeTrustResult(xdr.ChangeTrustResultCodeChangeTrustMalformed), false
			}
		} else {
			asset := c.Line.ToAsset()
			if !assetValid(asset) || asset.GetIssuer() == source {
				return changeTrustResult(xdr.ChangeTrustResultCodeChangeTrustMalformed), false
			}
		}
	case xdr.OperationTypeManageData:
		// ManageDataOpFrame.cpp doCheckValid: an empty name or one that
		// is not a valid string (isStringValid: no control character, no
		// byte above 0x7f).
		if name := string(b.MustManageDataOp().DataName); name == "" || !stringValid(name) {
			return manageDataResult(xdr.ManageDataResultCodeManageDataInvalidName), false
		}
	case xdr.OperationTypeSetOptions:
		if code, ok := validSetOptions(b.MustSetOptionsOp(), source); !ok {
			return setOptionsResult(code), false
		}
	case xdr.OperationTypeAccountMerge:
		// MergeOpFrame.cpp doCheckValid: merging into itself.
		if b.MustDestination().ToAccountId().Address() == source {
			return mergeResult(xdr.AccountMergeResultCodeAccountMergeMalformed, 0), false
		}
	case xdr.OperationTypeClaimClaimableBalance:
		// ClaimClaimableBalanceOpFrame.cpp doCheckValid accepts every
		// operation (claimable.go).
	case xdr.OperationTypePathPaymentStrictSend:
		if r, ok := validStrictSend(b.MustPathPaymentStrictSendOp()); !ok {
			return r, false // paths.go
		}
	case xdr.OperationTypeBumpSequence:
		// BumpSequenceOpFrame.cpp doCheckValid: bump_to < 0.
		if b.MustBumpSequenceOp().BumpTo < 0 {
			return bumpResult(xdr.BumpSequenceResultCodeBumpSequenceBadSeq), false
		}
	default:
		return outer(xdr.OperationResultCodeOpNotSupported), false
	}
	return xdr.OperationResult{}, true
}

// validSetOptions is SetOptionsOpFrame.cpp doCheckValid.
func validSetOptions(o xdr.SetOptionsOp, source string) (xdr.SetOptionsResultCode, bool) {
	if (o.SetFlags != nil && uint32(*o.SetFlags)&^allAccountAuthFlags != 0) ||
		(o.ClearFlags != nil && uint32(*o.ClearFlags)&^allAccountAuthFlags != 0) {
		return xdr.SetOptionsResultCodeSetOptionsUnknownFlag, false
	}
	if o.SetFlags != nil && o.ClearFlags != nil && *o.SetFlags&*o.ClearFlags != 0 {
		return xdr.SetOptionsResultCodeSetOptionsBadFlags, false
	}
	for _, t := range []*xdr.Uint32{o.MasterWeight, o.LowThreshold, o.MedThreshold, o.HighThreshold} {
		if t != nil && *t > 255 {
			return xdr.SetOptionsResultCodeSetOptionsThresholdOutOfRange, false
		}
	}
	if s := o.Signer; s != nil {
		key, err := s.Key.GetAddress()
		if err != nil || key == source || s.Weight > 255 ||
			(s.Key.Type == xdr.SignerKeyTypeSignerKeyTypeEd25519SignedPayload && len(s.Key.Ed25519SignedPayload.Payload) == 0) {
			return xdr.SetOptionsResultCodeSetOptionsBadSigner, false
		}
	}
	if o.HomeDomain != nil && !stringValid(string(*o.HomeDomain)) {
		return xdr.SetOptionsResultCodeSetOptionsInvalidHomeDomain, false
	}
	return 0, true
}

// applyOp is the operation's doApply against v, for source, in the ledger
// being closed (ledgerSeq). It reports the result and whether it succeeded.
func applyOp(v *ledgerView, op xdr.Operation, source string, ledgerSeq int32) (xdr.OperationResult, bool) {
	// OperationFrame.cpp checkValid (forApply): the source account must
	// exist when the operation is applied (an earlier merge may have
	// removed it).
	src := v.get(source)
	if src == nil {
		return outer(xdr.OperationResultCodeOpNoAccount), false
	}
	src.modified = uint32(ledgerSeq)
	b := op.Body
	switch b.Type {
	case xdr.OperationTypeCreateAccount:
		return applyCreateAccount(v, src, b.MustCreateAccountOp(), ledgerSeq)
	case xdr.OperationTypePayment:
		return applyPayment(v, src, b.MustPaymentOp())
	case xdr.OperationTypeManageSellOffer, xdr.OperationTypeManageBuyOffer:
		return applyDeleteOffer(v, src, b)
	case xdr.OperationTypeChangeTrust:
		return applyChangeTrust(v, src, b.MustChangeTrustOp(), ledgerSeq)
	case xdr.OperationTypeManageData:
		return applyManageData(v, src, b.MustManageDataOp())
	case xdr.OperationTypeSetOptions:
		return applySetOptions(v, src, b.MustSetOptionsOp())
	case xdr.OperationTypeAccountMerge:
		return applyMerge(v, src, b.MustDestination().ToAccountId().Address(), ledgerSeq)
	case xdr.OperationTypeClaimClaimableBalance:
		return applyClaim(v, src, b.MustClaimClaimableBalanceOp())
	case xdr.OperationTypePathPaymentStrictSend:
		return applyStrictSend(v, src, b.MustPathPaymentStrictSendOp())
	case xdr.OperationTypeBumpSequence:
		// BumpSequenceOpFrame.cpp doApply: the sequence number only goes
		// up; the ledger and close time of the change are recorded even
		// when it does not (maybeUpdateAccountOnLedgerSeqUpdate).
		if to := int64(b.MustBumpSequenceOp().BumpTo); to > src.seq {
			src.seq = to
		}
		src.seqLedger, src.seqTime = uint32(ledgerSeq), v.h.closeTime
		return bumpResult(xdr.BumpSequenceResultCodeBumpSequenceSuccess), true
	}
	return outer(xdr.OperationResultCodeOpNotSupported), false
}

// applyCreateAccount follows CreateAccountOpFrame.cpp doApply and
// doApplyFromV14.
func applyCreateAccount(v *ledgerView, src *account, c xdr.CreateAccountOp, ledgerSeq int32) (xdr.OperationResult, bool) {
	dest := c.Destination.Address()
	if v.peek(dest) != nil {
		return createAccountResult(xdr.CreateAccountResultCodeCreateAccountAlreadyExist), false
	}
	start := int64(c.StartingBalance)
	// SponsorshipUtils.cpp canCreateEntryWithoutSponsorship for an
	// account: its balance must cover its own minimum balance (2 base
	// reserves).
	if start < 2*BaseReserve {
		return createAccountResult(xdr.CreateAccountResultCodeCreateAccountLowReserve), false
	}
	if src.available() < start {
		return createAccountResult(xdr.CreateAccountResultCodeCreateAccountUnderfunded), false
	}
	src.addNative(-start)
	// A new account: master weight 1, thresholds 0, sequence number the
	// ledger's starting sequence number (TransactionUtils.cpp
	// getStartingSequenceNumber: ledgerSeq << 32).
	v.accts[dest] = &account{
		id: dest, balance: start, seq: int64(ledgerSeq) << 32, masterWeight: 1,
		data: map[string]dataEntry{}, modified: uint32(ledgerSeq),
	}
	return createAccountResult(xdr.CreateAccountResultCodeCreateAccountSuccess), true
}

// applyPayment follows PaymentOpFrame.cpp doApply, which applies a payment
// as a path payment strict receive with no path
// (PathPaymentStrictReceiveOpFrame.cpp doApply, PathPaymentOpFrameBase.cpp
// updateDestBalance then updateSourceBalance). From protocol 13 the issuer
// is not checked (checkIssuer), so op_no_issuer is never given.
func applyPayment(v *ledgerView, src *account, p xdr.PaymentOp) (xdr.OperationResult, bool) {
	destID := p.Destination.ToAccountId().Address()
	native := p.Asset.Type == xdr.AssetTypeAssetTypeNative
	// A native payment to oneself succeeds at once (PaymentOpFrame.cpp).
	if native && destID == src.id {
		return paymentResult(xdr.PaymentResultCodePaymentSuccess), true
	}
	amt := int64(p.Amount)
	// shouldBypassIssuerCheck: a credit payment to its issuer skips the
	// destination's existence.
	bypass := !native && p.Asset.GetIssuer() == destID
	if !bypass && v.peek(destID) == nil {
		return paymentResult(xdr.PaymentResultCodePaymentNoDestination), false
	}
	// updateDestBalance.
	if native {
		if !v.get(destID).addNative(amt) {
			return paymentResult(xdr.PaymentResultCodePaymentLineFull), false
		}
	} else if p.Asset.GetIssuer() != destID { // the issuer's own "trustline" takes anything
		dest := v.get(destID)
		tl := dest.trustline(p.Asset)
		switch {
		case tl == nil:
			return paymentResult(xdr.PaymentResultCodePaymentNoTrust), false
		case tl.flags&TrustAuthorized == 0:
			return paymentResult(xdr.PaymentResultCodePaymentNotAuthorized), false
		case !dest.addLine(tl, amt):
			return paymentResult(xdr.PaymentResultCodePaymentLineFull), false
		}
	}
	// updateSourceBalance; src may be the destination, changed above.
	src = v.get(src.id)
	if native {
		if amt > src.available() {
			return paymentResult(xdr.PaymentResultCodePaymentUnderfunded), false
		}
		src.addNative(-amt)
	} else if p.Asset.GetIssuer() != src.id {
		tl := src.trustline(p.Asset)
		switch {
		case tl == nil:
			return paymentResult(xdr.PaymentResultCodePaymentSrcNoTrust), false
		case tl.flags&TrustAuthorized == 0:
			return paymentResult(xdr.PaymentResultCodePaymentSrcNotAuthorized), false
		case !src.addLine(tl, -amt):
			return paymentResult(xdr.PaymentResultCodePaymentUnderfunded), false
		}
	}
	return paymentResult(xdr.PaymentResultCodePaymentSuccess), true
}

// applyDeleteOffer follows ManageOfferOpFrameBase.cpp doApply for amount 0
// (checkOfferValid skips the trustlines when deleting): the offer must be
// the source's (loadOffer(source, offerID)), else op_offer_not_found; its
// liabilities go with it, and its reserve (removeEntryWithPossibleSponsorship).
func applyDeleteOffer(v *ledgerView, src *account, b xdr.OperationBody) (xdr.OperationResult, bool) {
	_, _, _, _, id := offerOp(b)
	i, o := src.offer(id)
	if o == nil {
		return offerResult(b.Type, xdr.ManageSellOfferResultCodeManageSellOfferNotFound), false
	}
	src.offers = slices.Delete(src.offers, i, i+1)
	v.removeSponsored(src, o.sponsor, 1)
	return offerResult(b.Type, xdr.ManageSellOfferResultCodeManageSellOfferSuccess), true
}

// applyChangeTrust follows ChangeTrustOpFrame.cpp doApply.
func applyChangeTrust(v *ledgerView, src *account, c xdr.ChangeTrustOp, ledgerSeq int32) (xdr.OperationResult, bool) {
	limit := int64(c.Limit)
	var tl *trustline
	var pool *poolShare
	var asset xdr.Asset
	if c.Line.Type == xdr.AssetTypeAssetTypePoolShare {
		cp := c.Line.LiquidityPool.ConstantProduct
		id, err := xdr.NewPoolId(cp.AssetA, cp.AssetB, cp.Fee)
		if err != nil {
			return changeTrustResult(xdr.ChangeTrustResultCodeChangeTrustMalformed), false
		}
		pool = &poolShare{id: id, a: cp.AssetA, b: cp.AssetB}
		tl = src.poolLine(id)
	} else {
		asset = c.Line.ToAsset()
		tl = src.trustline(asset)
	}
	if tl != nil {
		// Changing an existing trustline: the limit may not go below
		// balance + buying liabilities (getMinimumLimit), which for limit
		// 0 means the line must be empty and have no offer buying its
		// asset.
		buying := int64(0)
		if tl.pool == nil {
			buying, _ = src.lineLiabilities(tl.asset)
		}
		if limit < tl.balance+buying {
			return changeTrustResult(xdr.ChangeTrustResultCodeChangeTrustInvalidLimit), false
		}
		if limit == 0 {
			// A credit trustline a pool-share trustline of the account
			// uses (liquidityPoolUseCount != 0) cannot go.
			if tl.pool == nil && src.poolUseCount(tl.asset) != 0 {
				return changeTrustResult(xdr.ChangeTrustResultCodeChangeTrustCannotDelete), false
			}
			i := slices.Index(src.trustlines, tl)
			src.trustlines = slices.Delete(src.trustlines, i, i+1)
			v.removeSponsored(src, tl.sponsor, tl.mult())
			return changeTrustResult(xdr.ChangeTrustResultCodeChangeTrustSuccess), true
		}
		if tl.pool == nil && v.peek(asset.GetIssuer()) == nil {
			return changeTrustResult(xdr.ChangeTrustResultCodeChangeTrustNoIssuer), false
		}
		tl.limit = limit
		tl.modified = uint32(ledgerSeq)
		return changeTrustResult(xdr.ChangeTrustResultCodeChangeTrustSuccess), true
	}

	// A new trustline.
	if limit == 0 {
		return changeTrustResult(xdr.ChangeTrustResultCodeChangeTrustInvalidLimit), false
	}
	line := &trustline{asset: asset, pool: pool, limit: limit, modified: uint32(ledgerSeq)}
	if pool == nil {
		issuer := v.peek(asset.GetIssuer())
		if issuer == nil {
			return changeTrustResult(xdr.ChangeTrustResultCodeChangeTrustNoIssuer), false
		}
		if issuer.flags&AuthRequired == 0 {
			line.flags = TrustAuthorized
		}
		if issuer.flags&AuthClawbackEnabled != 0 {
			line.flags |= TrustClawbackEnabled
		}
	} else {
		// tryIncrementPoolUseCount: each credit asset of the pool needs a
		// trustline of the source (unless it issues it) authorized at
		// least to maintain liabilities.
		for _, a := range []xdr.Asset{pool.a, pool.b} {
			if a.Type == xdr.AssetTypeAssetTypeNative || a.GetIssuer() == src.id {
				continue
			}
			under := src.trustline(a)
			if under == nil {
				return changeTrustResult(xdr.ChangeTrustResultCodeChangeTrustTrustLineMissing), false
			}
			if under.flags&trustAuthorizedOrMaintainFlags == 0 {
				return changeTrustResult(xdr.ChangeTrustResultCodeChangeTrustNotAuthMaintainLiabilities), false
			}
		}
	}
	lowReserve, tooMany := canCreate(src, line.mult())
	switch {
	case tooMany:
		return outer(xdr.OperationResultCodeOpTooManySubentries), false
	case lowReserve:
		return changeTrustResult(xdr.ChangeTrustResultCodeChangeTrustLowReserve), false
	}
	src.trustlines = append(src.trustlines, line)
	return changeTrustResult(xdr.ChangeTrustResultCodeChangeTrustSuccess), true
}

// applyManageData follows ManageDataOpFrame.cpp doApply.
func applyManageData(v *ledgerView, src *account, m xdr.ManageDataOp) (xdr.OperationResult, bool) {
	name := string(m.DataName)
	old, exists := src.data[name]
	if m.DataValue == nil {
		if !exists {
			return manageDataResult(xdr.ManageDataResultCodeManageDataNameNotFound), false
		}
		delete(src.data, name)
		v.removeSponsored(src, old.sponsor, 1)
		return manageDataResult(xdr.ManageDataResultCodeManageDataSuccess), true
	}
	if exists {
		old.value = bytes.Clone(*m.DataValue)
		src.data[name] = old
		return manageDataResult(xdr.ManageDataResultCodeManageDataSuccess), true
	}
	lowReserve, tooMany := canCreate(src, 1)
	switch {
	case tooMany:
		return outer(xdr.OperationResultCodeOpTooManySubentries), false
	case lowReserve:
		return manageDataResult(xdr.ManageDataResultCodeManageDataLowReserve), false
	}
	src.data[name] = dataEntry{value: bytes.Clone(*m.DataValue)}
	return manageDataResult(xdr.ManageDataResultCodeManageDataSuccess), true
}

// applySetOptions follows SetOptionsOpFrame.cpp doApply, in its order.
func applySetOptions(v *ledgerView, src *account, o xdr.SetOptionsOp) (xdr.OperationResult, bool) {
	fail := func(code xdr.SetOptionsResultCode) (xdr.OperationResult, bool) { return setOptionsResult(code), false }
	if o.InflationDest != nil {
		if id := o.InflationDest.Address(); id != src.id && v.peek(id) == nil {
			return fail(xdr.SetOptionsResultCodeSetOptionsInvalidInflation)
		}
	}
	immutable := src.flags&AuthImmutable != 0
	if o.ClearFlags != nil {
		if uint32(*o.ClearFlags)&allAccountAuthFlags != 0 && immutable {
			return fail(xdr.SetOptionsResultCodeSetOptionsCantChange)
		}
		src.flags &^= uint32(*o.ClearFlags)
	}
	if o.SetFlags != nil {
		if uint32(*o.SetFlags)&allAccountAuthFlags != 0 && immutable {
			return fail(xdr.SetOptionsResultCodeSetOptionsCantChange)
		}
		src.flags |= uint32(*o.SetFlags)
	}
	// accountFlagClawbackIsValid: clawback needs revocable.
	if (o.SetFlags != nil || o.ClearFlags != nil) && src.flags&AuthClawbackEnabled != 0 && src.flags&AuthRevocable == 0 {
		return fail(xdr.SetOptionsResultCodeSetOptionsAuthRevocableRequired)
	}
	if o.HomeDomain != nil {
		src.homeDomain = string(*o.HomeDomain)
	}
	if o.MasterWeight != nil {
		src.masterWeight = byte(*o.MasterWeight)
	}
	if o.LowThreshold != nil {
		src.low = byte(*o.LowThreshold)
	}
	if o.MedThreshold != nil {
		src.med = byte(*o.MedThreshold)
	}
	if o.HighThreshold != nil {
		src.high = byte(*o.HighThreshold)
	}
	if s := o.Signer; s != nil {
		key, _ := s.Key.GetAddress() // validated
		i := slices.IndexFunc(src.signers, func(x signer) bool { return x.key == key })
		switch {
		case s.Weight == 0 && i >= 0: // deleteSigner
			old := src.signers[i]
			src.signers = slices.Delete(src.signers, i, i+1)
			if i < src.masterAt {
				src.masterAt--
			}
			v.removeSponsored(src, old.sponsor, 1)
		case s.Weight == 0: // removing a signer the account lacks: nothing
		case i >= 0: // addOrChangeSigner: a known signer's weight changes
			src.signers[i].weight = int32(s.Weight)
		case len(src.signers) == maxSigners:
			return fail(xdr.SetOptionsResultCodeSetOptionsTooManySigners)
		default:
			lowReserve, tooMany := canCreate(src, 1)
			switch {
			case tooMany:
				return outer(xdr.OperationResultCodeOpTooManySubentries), false
			case lowReserve:
				return fail(xdr.SetOptionsResultCodeSetOptionsLowReserve)
			}
			src.signers = append(src.signers, signer{key: key, typ: signerType(s.Key), weight: int32(s.Weight)})
		}
	}
	return setOptionsResult(xdr.SetOptionsResultCodeSetOptionsSuccess), true
}

// applyMerge follows MergeOpFrame.cpp doApplyFromV16, in its order.
func applyMerge(v *ledgerView, src *account, destID string, ledgerSeq int32) (xdr.OperationResult, bool) {
	fail := func(code xdr.AccountMergeResultCode) (xdr.OperationResult, bool) { return mergeResult(code, 0), false }
	if v.peek(destID) == nil {
		return fail(xdr.AccountMergeResultCodeAccountMergeNoAccount)
	}
	if src.flags&AuthImmutable != 0 {
		return fail(xdr.AccountMergeResultCodeAccountMergeImmutableSet)
	}
	// Signers are sub-entries that do not block a merge: numSubEntries
	// must equal signers.size().
	if src.numSubEntries() != int64(len(src.signers)) {
		return fail(xdr.AccountMergeResultCodeAccountMergeHasSubEntries)
	}
	// isSeqnumTooFar: the account's sequence number may not reach the
	// starting sequence number of the ledger being closed, or the
	// account could be re-created with a sequence number it already used.
	if src.seq >= int64(ledgerSeq)<<32 {
		return fail(xdr.AccountMergeResultCodeAccountMergeSeqnumTooFar)
	}
	if src.numSponsor > 0 {
		return fail(xdr.AccountMergeResultCodeAccountMergeIsSponsor)
	}
	// The signers go (removeSignerWithPossibleSponsorship), then the
	// balance goes to the destination (addBalance: op_dest_full when it
	// would pass INT64_MAX - buying liabilities).
	for _, s := range src.signers {
		v.removeSponsored(src, s.sponsor, 1)
	}
	src.signers = nil
	balance := src.balance
	if !v.get(destID).addNative(balance) {
		return fail(xdr.AccountMergeResultCodeAccountMergeDestFull)
	}
	// removeEntryWithPossibleSponsorship of the account itself (2
	// reserves).
	if src.sponsor != "" {
		if s := v.get(src.sponsor); s != nil {
			s.numSponsor -= min(s.numSponsor, 2)
		}
	}
	v.accts[src.id] = nil
	return mergeResult(xdr.AccountMergeResultCodeAccountMergeSuccess, balance), true
}

// offerOp is a manage offer's selling and buying assets, amount, price and
// offer id.
func offerOp(b xdr.OperationBody) (sell, buy xdr.Asset, amt int64, price xdr.Price, id int64) {
	if b.Type == xdr.OperationTypeManageBuyOffer {
		o := b.MustManageBuyOfferOp()
		return o.Selling, o.Buying, int64(o.BuyAmount), o.Price, int64(o.OfferId)
	}
	o := b.MustManageSellOfferOp()
	return o.Selling, o.Buying, int64(o.Amount), o.Price, int64(o.OfferId)
}

// assetValid is TransactionUtils.cpp isAssetValid for a native or credit
// asset: a credit code of 1 to 4 (or 5 to 12) characters of [A-Za-z0-9],
// zero-padded, with no character after the first zero.
func assetValid(a xdr.Asset) bool {
	var code []byte
	switch a.Type {
	case xdr.AssetTypeAssetTypeNative:
		return true
	case xdr.AssetTypeAssetTypeCreditAlphanum4:
		c := a.MustAlphaNum4().AssetCode
		code = c[:]
	case xdr.AssetTypeAssetTypeCreditAlphanum12:
		c := a.MustAlphaNum12().AssetCode
		code = c[:]
	default:
		return false
	}
	n := 0
	zeros := false
	for _, ch := range code {
		switch {
		case ch == 0:
			zeros = true
		case zeros:
			return false
		case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z', ch >= '0' && ch <= '9':
			n++
		default:
			return false
		}
	}
	if a.Type == xdr.AssetTypeAssetTypeCreditAlphanum4 {
		return n >= 1
	}
	return n > 4
}

// stringValid is core's isStringValid (util/types.cpp): no control
// character and no byte above 0x7f.
func stringValid(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}
