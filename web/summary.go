package web

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Summary is what a co-signer needs to read before signing: who is closed
// into whom, what else moves, what it costs and when it is valid. Every
// string is plain text for html/template to escape; text that came from the
// transaction and holds control or format characters (a bidi override, a
// NUL) is shown Go-quoted instead, with its Quoted flag set.
type Summary struct {
	Source           string // the transaction's source: it pays the fee
	ClosingAccount   string // the first ACCOUNT_MERGE's effective source
	MergeDestination string // where the closing account's lumens go (G… or M…)
	Operations       []Operation
	Payments         []Payment // the PAYMENT operations, in order
	FeeStroops       uint32
	Fee              string // FeeStroops in XLM, 7 decimals
	Sequence         int64
	TimeBounds       bool      // the transaction has time bounds
	MinTime, MaxTime time.Time // zero when 0 (unbounded)
	Memo             Memo
	Signatures       int
}

// Operation is one operation in plain words.
type Operation struct {
	Number      int    // 1-based
	Type        string // "payment", "account merge", "create account", …
	Source      string // the effective source
	Destination string // payment, merge, create account, path payments
	Amount      string // with Asset: the amount sent or the starting balance
	Asset       string // "XLM" or "CODE:ISSUER"
	Quoted      bool   // Asset had to be quoted (see Summary)

	// Words is what the operation does, said as ledger.Describe says it
	// (the command line's build and sign use the same words): what it
	// moves, to whom in full, at what price. WordsQuoted: Words held text
	// from the transaction that had to be quoted (see Summary).
	Words       string
	WordsQuoted bool
	// Elsewhere: the operation sends value away from the closing account
	// to someone other than the merge's destination, or offers it for
	// sale to anyone (a payment, a claimable balance, an offer), so the
	// page marks it. Returning an asset to its issuer is not marked: a
	// close does that to remove its trustlines.
	Elsewhere bool

	// Moves: the operation sends value out of the closing account (a
	// payment, a path payment, a new account's starting balance, a
	// claimable balance, an offer that sells, a pool deposit); the merge
	// is not counted here. Native is the XLM it sends, in stroops, when
	// the transaction says it exactly (a payment or a starting balance);
	// NativeUnknown: it may send XLM by an amount only the ledger knows
	// (a path payment's send side, an offer, a claimable balance).
	Moves         bool
	Native        int64
	NativeUnknown bool
}

// Payment is a PAYMENT operation.
type Payment struct {
	Destination string
	Amount      string
	Asset       string
	Quoted      bool
}

// Memo is the transaction's memo.
type Memo struct {
	Type   string // "none", "text", "id", "hash", "return"
	Value  string
	Quoted bool
}

// Summarize decodes a base64 transaction envelope (V0 or V1; a fee-bump is
// refused) into a Summary.
func Summarize(b64 string) (*Summary, error) {
	var env xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(b64, &env); err != nil {
		return nil, fmt.Errorf("the envelope does not decode: %w", err)
	}
	switch env.Type {
	case xdr.EnvelopeTypeEnvelopeTypeTx, xdr.EnvelopeTypeEnvelopeTypeTxV0:
	default:
		return nil, errors.New("not a classic transaction envelope")
	}
	txSource := env.SourceAccount()
	s := &Summary{
		Source:     address(&txSource),
		FeeStroops: env.Fee(),
		Fee:        amount.StringFromInt64(int64(env.Fee())),
		Sequence:   env.SeqNum(),
		Memo:       memo(env.Memo()),
		Signatures: len(env.Signatures()),
	}
	if tb := env.TimeBounds(); tb != nil {
		s.TimeBounds = true
		s.MinTime = unix(uint64(tb.MinTime))
		s.MaxTime = unix(uint64(tb.MaxTime))
	}
	for i, op := range env.Operations() {
		src := txSource
		if op.SourceAccount != nil {
			src = *op.SourceAccount
		}
		o := Operation{Number: i + 1, Type: opType(op.Body.Type), Source: address(&src)}
		o.Words, o.WordsQuoted = display(ledger.Describe(op, txSource))
		switch op.Body.Type {
		case xdr.OperationTypeAccountMerge:
			if d, ok := op.Body.GetDestination(); ok {
				o.Destination = address(&d)
			}
			if s.ClosingAccount == "" {
				s.ClosingAccount, s.MergeDestination = o.Source, o.Destination
			}
		case xdr.OperationTypePayment:
			p := op.Body.MustPaymentOp()
			o.Destination = address(&p.Destination)
			o.Amount = amount.String(p.Amount)
			o.Asset, o.Quoted = asset(p.Asset)
			if p.Asset.Type == xdr.AssetTypeAssetTypeNative {
				o.Native = int64(p.Amount)
			}
			s.Payments = append(s.Payments, Payment{Destination: o.Destination, Amount: o.Amount, Asset: o.Asset, Quoted: o.Quoted})
		case xdr.OperationTypeCreateAccount:
			c := op.Body.MustCreateAccountOp()
			o.Destination = c.Destination.Address()
			o.Amount, o.Asset = amount.String(c.StartingBalance), "XLM"
			o.Native = int64(c.StartingBalance)
		case xdr.OperationTypePathPaymentStrictReceive:
			p := op.Body.MustPathPaymentStrictReceiveOp()
			o.Destination = address(&p.Destination)
			o.Amount = amount.String(p.DestAmount)
			o.Asset, o.Quoted = asset(p.DestAsset)
		case xdr.OperationTypePathPaymentStrictSend:
			p := op.Body.MustPathPaymentStrictSendOp()
			o.Destination = address(&p.Destination)
			o.Amount = amount.String(p.DestMin)
			o.Asset, o.Quoted = asset(p.DestAsset)
		}
		s.Operations = append(s.Operations, o)
	}
	for i, op := range env.Operations() {
		o := &s.Operations[i]
		o.Elsewhere = elsewhere(op, o.Destination, s.MergeDestination)
		o.Moves, o.NativeUnknown = moves(op)
		if o.Source != s.ClosingAccount {
			// Another account's operation: what it moves is not the
			// closing account's (the page marks its source).
			o.Moves, o.Native, o.NativeUnknown = false, 0, false
		}
	}
	return s, nil
}

// elsewhere reports whether op sends value to someone other than the
// merge's destination (to, when op has one destination) or offers it to
// anyone: see Operation.Elsewhere.
func elsewhere(op xdr.Operation, to, mergeDest string) bool {
	b := op.Body
	switch b.Type {
	case xdr.OperationTypePayment:
		p := b.MustPaymentOp()
		if p.Asset.Type != xdr.AssetTypeAssetTypeNative {
			var typ, code, issuer string
			if p.Asset.Extract(&typ, &code, &issuer) == nil && issuer == p.Destination.ToAccountId().Address() {
				return false // back to its issuer
			}
		}
		return to != mergeDest
	case xdr.OperationTypeCreateAccount, xdr.OperationTypePathPaymentStrictSend, xdr.OperationTypePathPaymentStrictReceive:
		return to != mergeDest
	case xdr.OperationTypeManageSellOffer:
		return b.MustManageSellOfferOp().Amount != 0 // 0 cancels the offer
	case xdr.OperationTypeManageBuyOffer:
		return b.MustManageBuyOfferOp().BuyAmount != 0
	case xdr.OperationTypeCreateClaimableBalance, xdr.OperationTypeCreatePassiveSellOffer,
		xdr.OperationTypeLiquidityPoolDeposit:
		return true
	}
	return false
}

// moves reports whether op sends value out of its source, and whether the
// XLM it sends is known only to the ledger (see Operation.Moves).
func moves(op xdr.Operation) (moves, nativeUnknown bool) {
	b := op.Body
	native := func(a xdr.Asset) bool { return a.Type == xdr.AssetTypeAssetTypeNative }
	switch b.Type {
	case xdr.OperationTypePayment, xdr.OperationTypeCreateAccount:
		return true, false
	case xdr.OperationTypePathPaymentStrictSend:
		return true, native(b.MustPathPaymentStrictSendOp().SendAsset)
	case xdr.OperationTypePathPaymentStrictReceive:
		return true, native(b.MustPathPaymentStrictReceiveOp().SendAsset)
	case xdr.OperationTypeManageSellOffer:
		o := b.MustManageSellOfferOp()
		return o.Amount != 0, o.Amount != 0 && native(o.Selling)
	case xdr.OperationTypeManageBuyOffer:
		o := b.MustManageBuyOfferOp()
		return o.BuyAmount != 0, o.BuyAmount != 0 && native(o.Selling)
	case xdr.OperationTypeCreatePassiveSellOffer:
		return true, native(b.MustCreatePassiveSellOfferOp().Selling)
	case xdr.OperationTypeCreateClaimableBalance:
		return true, native(b.MustCreateClaimableBalanceOp().Asset)
	case xdr.OperationTypeLiquidityPoolDeposit:
		return true, true
	}
	return false, false
}

func address(m *xdr.MuxedAccount) string {
	a, err := m.GetAddress()
	if err != nil || a == "" {
		return "(unreadable account)"
	}
	return a
}

func unix(t uint64) time.Time {
	if t == 0 || t > uint64(1<<62) {
		return time.Time{}
	}
	return time.Unix(int64(t), 0).UTC()
}

func asset(a xdr.Asset) (string, bool) {
	if a.Type == xdr.AssetTypeAssetTypeNative {
		return "XLM", false
	}
	var typ, code, issuer string
	if err := a.Extract(&typ, &code, &issuer); err != nil {
		return "(unreadable asset)", false
	}
	return display(code + ":" + issuer)
}

func memo(m xdr.Memo) Memo {
	switch m.Type {
	case xdr.MemoTypeMemoText:
		v, q := display(m.MustText())
		return Memo{Type: "text", Value: v, Quoted: q}
	case xdr.MemoTypeMemoId:
		return Memo{Type: "id", Value: strconv.FormatUint(uint64(m.MustId()), 10)}
	case xdr.MemoTypeMemoHash:
		h := m.MustHash()
		return Memo{Type: "hash", Value: fmt.Sprintf("%x", h[:])}
	case xdr.MemoTypeMemoReturn:
		h := m.MustRetHash()
		return Memo{Type: "return", Value: fmt.Sprintf("%x", h[:])}
	}
	return Memo{Type: "none"}
}

// display is s as shown to a person: unchanged when it is valid UTF-8 of
// graphic characters only, else Go-quoted (control, format and bidi
// characters, invalid bytes escaped) with quoted true. html/template escapes
// either form.
func display(s string) (string, bool) {
	if utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsGraphic(r) }) < 0 {
		return s, false
	}
	return strconv.QuoteToGraphic(s), true
}

// opType is "bump sequence" for OperationTypeBumpSequence.
func opType(t xdr.OperationType) string {
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
