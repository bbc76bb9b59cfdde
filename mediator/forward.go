package mediator

import (
	"time"

	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// MaxForwardHorizon is how far past now a forward's maxTime may lie. A short
// horizon bounds how long a co-signed forward stays submittable.
const MaxForwardHorizon = 3600 * time.Second

// The two MISSING_TIME_BOUNDS sites answer different reasons so a client can
// tell which field to fix.
const (
	reasonNoTimeBounds = "forward transaction has no time bounds"
	reasonNoMaxTime    = "forward transaction's maxTime must be a positive integer (0 means unbounded)"
)

// ValidateForward checks that envelopeB64 is exactly the accepted forward
// shape for mediatorAddress and committedDestination (SPEC "Accepted forward
// envelope") and returns nil, or an *errcode.Error carrying the first failing
// code of ForwardCodes' order. All addresses are compared as strkey strings, so a
// muxed M… account is never the mediator and never the committed destination,
// and a payment to M… with a merge to G… of the same key is a mismatch.
//
// No check depends on the network: the passphrase only matters for the hash
// that Service.Cosign signs. A maxTime already past is accepted; the ledger
// refuses such a transaction on its own.
//
// The forward's memo is not checked: this is the check of a four-part token,
// which commits no memo. ValidateForwardMemo is the check of a five-part one.
func ValidateForward(envelopeB64, mediatorAddress, committedDestination string, now time.Time) error {
	return ValidateForwardMemo(envelopeB64, mediatorAddress, committedDestination, Memo{}, now)
}

// ValidateForwardMemo is ValidateForward for a flow that also commits a memo
// (CONTRACT section 13): right after FORWARD_DESTINATION_NOT_COMMITTED, and
// so before the time bounds, a forward whose memo is not exactly
// committedMemo (same type, same value; MEMO_NONE never matches) is refused
// with FORWARD_MEMO_NOT_COMMITTED. The zero Memo commits nothing and accepts any
// memo, exactly as ValidateForward.
func ValidateForwardMemo(envelopeB64, mediatorAddress, committedDestination string, committedMemo Memo, now time.Time) error {
	if _, err := parseForward(envelopeB64, mediatorAddress, committedDestination, committedMemo, now); err != nil {
		return err
	}
	return nil // not `return err`: a nil *errcode.Error would be a non-nil error
}

// parseForward is ValidateForwardMemo that also hands back the decoded
// envelope, so co-signing decodes once.
func parseForward(envelopeB64, mediator, committed string, memo Memo, now time.Time) (xdr.TransactionEnvelope, *errcode.Error) {
	// The relay's one decoder: strict base64 (no line breaks, zero padding
	// bits), no trailing bytes, bounded depth and allocation, so hostile
	// input costs linear work and cannot panic, and one envelope has one
	// accepted spelling on every route.
	env, err := ledger.DecodeEnvelope(envelopeB64)
	if err != nil {
		return env, errcode.New(errcode.MalformedXDR, "envelope is not a base64 XDR transaction envelope")
	}

	var (
		source string
		ops    []xdr.Operation
		tb     *xdr.TimeBounds
		txMemo xdr.Memo
	)
	switch env.Type {
	case xdr.EnvelopeTypeEnvelopeTypeTxFeeBump:
		return env, errcode.New(errcode.FeeBumpNotAllowed, "forward must be a classic transaction, not a fee-bump")
	case xdr.EnvelopeTypeEnvelopeTypeTx:
		tx := env.V1.Tx
		source = address(&tx.SourceAccount)
		ops = tx.Operations
		txMemo = tx.Memo
		switch tx.Cond.Type {
		case xdr.PreconditionTypePrecondTime:
			tb = tx.Cond.TimeBounds
		case xdr.PreconditionTypePrecondV2:
			tb = tx.Cond.V2.TimeBounds
		}
	case xdr.EnvelopeTypeEnvelopeTypeTxV0:
		tx := env.V0.Tx
		// A V0 source is a bare ed25519 key: always a G… account.
		source, _ = strkey.Encode(strkey.VersionByteAccountID, tx.SourceAccountEd25519[:])
		ops = tx.Operations
		txMemo = tx.Memo
		tb = tx.TimeBounds
	default:
		// The decoder only yields the three arms above; this guards a future SDK.
		return env, errcode.New(errcode.MalformedXDR, "envelope is not a transaction envelope")
	}

	if source != mediator {
		return env, errcode.New(errcode.TxSourceNotMediator, "transaction source must be the flow's mediator account")
	}
	if len(ops) != 2 {
		return env, errcode.New(errcode.WrongOperationCount, "forward must have exactly 2 operations: payment, then account merge")
	}
	pay := ops[0].Body.PaymentOp
	if ops[0].Body.Type != xdr.OperationTypePayment || pay == nil {
		return env, errcode.New(errcode.Op0NotPayment, "operation 0 must be a payment")
	}
	if pay.Asset.Type != xdr.AssetTypeAssetTypeNative {
		return env, errcode.New(errcode.Op0AssetNotNative, "operation 0 must pay the native asset")
	}
	if !sourceIsMediator(ops[0].SourceAccount, mediator) {
		return env, errcode.New(errcode.Op0SourceNotMediator, "operation 0 source must be the mediator or omitted")
	}
	mergeTo := ops[1].Body.Destination
	if ops[1].Body.Type != xdr.OperationTypeAccountMerge || mergeTo == nil {
		return env, errcode.New(errcode.Op1NotAccountMerge, "operation 1 must be an account merge")
	}
	if !sourceIsMediator(ops[1].SourceAccount, mediator) {
		return env, errcode.New(errcode.Op1SourceNotMediator, "operation 1 source must be the mediator or omitted")
	}
	dest := address(&pay.Destination)
	if dest != address(mergeTo) {
		return env, errcode.New(errcode.DestinationMismatch, "payment and account merge must target the same destination")
	}
	if dest != committed {
		return env, errcode.New(errcode.DestinationNotCommitted, "destination differs from the one committed in the flow token")
	}
	if !memo.IsZero() && !memo.matches(txMemo) {
		return env, errcode.New(errcode.MemoNotCommitted, "memo differs from the one committed in the flow token (type and value must both match)")
	}
	if tb == nil {
		return env, errcode.New(errcode.MissingTimeBounds, reasonNoTimeBounds)
	}
	if tb.MaxTime == 0 {
		return env, errcode.New(errcode.MissingTimeBounds, reasonNoMaxTime)
	}
	if exceedsHorizon(uint64(tb.MaxTime), now) {
		return env, errcode.New(errcode.TimeBoundsExcessive, "maxTime must be at most 3600 seconds in the future")
	}
	return env, nil
}

// exceedsHorizon compares in whole seconds: for an integer maxTime,
// maxTime > floor(now)+3600 is exactly maxTime > now+3600.
func exceedsHorizon(maxTime uint64, now time.Time) bool {
	limit := now.Unix() + int64(MaxForwardHorizon/time.Second)
	if limit < 0 {
		return true // maxTime is positive here, so it lies beyond any negative limit
	}
	return maxTime > uint64(limit)
}

// sourceIsMediator: an omitted operation source inherits the transaction's,
// which has already been checked to be the mediator.
func sourceIsMediator(src *xdr.MuxedAccount, mediator string) bool {
	return src == nil || address(src) == mediator
}

// address renders a muxed account as its strkey (G… or M…). A decoded account
// always renders; "" for the impossible failure can never equal a G… key.
func address(m *xdr.MuxedAccount) string {
	s, err := m.GetAddress()
	if err != nil {
		return ""
	}
	return s
}
