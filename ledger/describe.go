package ledger

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"strings"
	"unicode"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// Describe says in words what one operation of a close does: what it moves,
// to whom in full, at what price. The co-signers' page, `closerelayctl
// build` and `closerelayctl sign` all show a close this way, so a co-signer
// reads the same words wherever they look. txSource is the transaction's
// source, the operation's when it names none.
func Describe(op xdr.Operation, txSource xdr.MuxedAccount) string {
	source := txSource
	if op.SourceAccount != nil {
		source = *op.SourceAccount
	}
	from := accountAddress(source)
	b := op.Body
	switch b.Type {
	case xdr.OperationTypeCreateAccount:
		c := b.MustCreateAccountOp()
		return fmt.Sprintf("create account %s with %s XLM", c.Destination.Address(), stroops(int64(c.StartingBalance)))
	case xdr.OperationTypePayment:
		p := b.MustPaymentOp()
		to := shown(p.Destination)
		if p.Asset.Type != xdr.AssetTypeAssetTypeNative && accountAddress(p.Destination) == assetIssuer(p.Asset) {
			return fmt.Sprintf("return %s %s to its issuer %s", stroops(int64(p.Amount)), assetCode(p.Asset), to)
		}
		return fmt.Sprintf("send %s %s to %s", stroops(int64(p.Amount)), assetName(p.Asset), to)
	case xdr.OperationTypePathPaymentStrictSend:
		p := b.MustPathPaymentStrictSendOp()
		to := shown(p.Destination)
		if accountAddress(p.Destination) == from {
			return fmt.Sprintf("sell %s %s for at least %s %s%s", stroops(int64(p.SendAmount)), assetName(p.SendAsset), stroops(int64(p.DestMin)), assetName(p.DestAsset), through(p.Path))
		}
		return fmt.Sprintf("send %s %s to %s, who receives at least %s %s%s", stroops(int64(p.SendAmount)), assetName(p.SendAsset), to, stroops(int64(p.DestMin)), assetName(p.DestAsset), through(p.Path))
	case xdr.OperationTypePathPaymentStrictReceive:
		p := b.MustPathPaymentStrictReceiveOp()
		return fmt.Sprintf("pay up to %s %s so that %s receives %s %s%s", stroops(int64(p.SendMax)), assetName(p.SendAsset), shown(p.Destination), stroops(int64(p.DestAmount)), assetName(p.DestAsset), through(p.Path))
	case xdr.OperationTypeManageSellOffer:
		o := b.MustManageSellOfferOp()
		if o.Amount == 0 {
			return fmt.Sprintf("cancel offer %d: sell %s for %s", o.OfferId, assetName(o.Selling), assetName(o.Buying))
		}
		verb := "offer to sell"
		if o.OfferId != 0 {
			verb = fmt.Sprintf("change offer %d to sell", o.OfferId)
		}
		return fmt.Sprintf("%s %s %s for %s at %s %s each", verb, stroops(int64(o.Amount)), assetName(o.Selling), assetName(o.Buying), price(o.Price), assetCode(o.Buying))
	case xdr.OperationTypeManageBuyOffer:
		o := b.MustManageBuyOfferOp()
		if o.BuyAmount == 0 {
			return fmt.Sprintf("cancel offer %d: buy %s with %s", o.OfferId, assetName(o.Buying), assetName(o.Selling))
		}
		verb := "offer to buy"
		if o.OfferId != 0 {
			verb = fmt.Sprintf("change offer %d to buy", o.OfferId)
		}
		return fmt.Sprintf("%s %s %s with %s at %s %s each", verb, stroops(int64(o.BuyAmount)), assetName(o.Buying), assetName(o.Selling), price(o.Price), assetCode(o.Selling))
	case xdr.OperationTypeCreatePassiveSellOffer:
		o := b.MustCreatePassiveSellOfferOp()
		return fmt.Sprintf("offer to sell %s %s for %s at %s %s each (passive)", stroops(int64(o.Amount)), assetName(o.Selling), assetName(o.Buying), price(o.Price), assetCode(o.Buying))
	case xdr.OperationTypeChangeTrust:
		c := b.MustChangeTrustOp()
		line := "a pool share"
		if c.Line.Type != xdr.AssetTypeAssetTypePoolShare {
			line = assetName(c.Line.ToAsset())
		}
		if c.Limit == 0 {
			return "remove the trustline to " + line
		}
		return fmt.Sprintf("trust %s up to %s", line, stroops(int64(c.Limit)))
	case xdr.OperationTypeManageData:
		d := b.MustManageDataOp()
		if d.DataValue == nil {
			return fmt.Sprintf("delete data entry %q", string(d.DataName))
		}
		return fmt.Sprintf("set data entry %q", string(d.DataName))
	case xdr.OperationTypeSetOptions:
		return describeSetOptions(b.MustSetOptionsOp())
	case xdr.OperationTypeAccountMerge:
		return fmt.Sprintf("close account %s: all its remaining XLM goes to %s", from, shown(b.MustDestination()))
	case xdr.OperationTypeCreateClaimableBalance:
		c := b.MustCreateClaimableBalanceOp()
		to := make([]string, len(c.Claimants))
		for i, cl := range c.Claimants {
			to[i] = cl.MustV0().Destination.Address()
		}
		return fmt.Sprintf("give %s %s away as a claimable balance for %s", stroops(int64(c.Amount)), assetName(c.Asset), strings.Join(to, ", "))
	case xdr.OperationTypeClaimClaimableBalance:
		c := b.MustClaimClaimableBalanceOp()
		return "claim claimable balance " + balanceID(c.BalanceId)
	case xdr.OperationTypeBumpSequence:
		return fmt.Sprintf("set the account's sequence number to %d", b.MustBumpSequenceOp().BumpTo)
	}
	return opName(b.Type)
}

// through names a path payment's intermediate assets, each with its
// issuer: the ledger trades through exactly these, so a hop nobody named
// (an asset its issuer prices at will) must not pass unseen by a signer.
// "" for a direct path.
func through(path []xdr.Asset) string {
	if len(path) == 0 {
		return ""
	}
	hops := make([]string, len(path))
	for i, a := range path {
		hops[i] = assetName(a)
	}
	return " through " + strings.Join(hops, ", then ")
}

// shown is a destination as its owner gave it: an M… address keeps its
// muxed id, which an exchange reads to credit the right customer.
func shown(m xdr.MuxedAccount) string {
	return m.Address()
}

func describeSetOptions(o xdr.SetOptionsOp) string {
	var parts []string
	if o.Signer != nil {
		if o.Signer.Weight == 0 {
			parts = append(parts, "remove signer "+o.Signer.Key.Address())
		} else {
			parts = append(parts, fmt.Sprintf("make %s a signer of weight %d", o.Signer.Key.Address(), o.Signer.Weight))
		}
	}
	if o.MasterWeight != nil {
		parts = append(parts, fmt.Sprintf("set the master key's weight to %d", *o.MasterWeight))
	}
	if o.LowThreshold != nil || o.MedThreshold != nil || o.HighThreshold != nil {
		parts = append(parts, "change the thresholds")
	}
	if o.SetFlags != nil || o.ClearFlags != nil {
		parts = append(parts, "change the account's flags")
	}
	if o.InflationDest != nil {
		parts = append(parts, "set the inflation destination to "+o.InflationDest.Address())
	}
	if o.HomeDomain != nil {
		parts = append(parts, fmt.Sprintf("set the home domain to %q", string(*o.HomeDomain)))
	}
	if len(parts) == 0 {
		return "set options (no change)"
	}
	return strings.Join(parts, "; ")
}

// assetCode is an asset's code alone, XLM for the native asset.
func assetCode(a xdr.Asset) string {
	if a.Type == xdr.AssetTypeAssetTypeNative {
		return "XLM"
	}
	code, _ := assetParts(a)
	return code
}

// price writes a price n/d as a decimal with up to seven places.
func price(p xdr.Price) string {
	if p.D == 0 {
		return "?"
	}
	r := new(big.Rat).SetFrac64(int64(p.N), int64(p.D))
	s := strings.TrimRight(strings.TrimRight(r.FloatString(7), "0"), ".")
	return s
}

func balanceID(id xdr.ClaimableBalanceId) string {
	raw, err := id.MarshalBinary()
	if err != nil {
		return "(undecodable)"
	}
	return hex.EncodeToString(raw)
}

// opName is an operation type in words: "liquidity pool deposit".
func opName(t xdr.OperationType) string {
	name := strings.TrimPrefix(t.String(), "OperationType")
	var b strings.Builder
	for i, r := range name {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte(' ')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
