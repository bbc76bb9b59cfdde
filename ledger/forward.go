package ledger

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The mediator forward the relay runs itself (CONTRACT section 16): what a
// mediator close must look like for the relay to take its flow, and the
// forward built from the mediator's account once the close has landed.

// Stroops in one unit of the native asset.
const oneUnit = 10_000_000

// MediatorFunding is the starting balance a mediator close gives the
// mediator (SPEC "Limits": 2 units of the native asset).
const MediatorFunding = 2 * oneUnit

// ForwardKept is what the forward's payment leaves in the mediator for the
// merge to carry: 1 unit, so that the payment never takes the mediator
// below its minimum balance (2 base reserves of 0.5) whatever the fee.
const ForwardKept = oneUnit

// ForwardTimeout is how far past its build time a forward's maxTime lies;
// a forward that has not landed by then is built again.
const ForwardTimeout = 300 * time.Second

// BaseFeePerOp is the network's minimum fee per operation, in stroops.
const BaseFeePerOp = 100

// ErrForwardUnfunded: the mediator's balance does not cover the forward's
// fee, the kept unit and a payment of at least one stroop.
var ErrForwardUnfunded = errors.New("ledger: the mediator's balance does not cover the forward's fee and a payment")

// CheckMediatorClose is CONTRACT section 16's check of a close published
// with a flow: its first operation is create_account of mediator with a
// starting balance of exactly MediatorFunding, and every ACCOUNT_MERGE it
// carries merges into mediator (addresses compared as strings: mediator is
// a G… account, and an M… spelling of it is another address). It returns
// "" when env passes, else a reason that names what is wrong.
func CheckMediatorClose(env xdr.TransactionEnvelope, mediator string) string {
	ops := env.Operations()
	if len(ops) == 0 {
		return "the close has no operations"
	}
	first := ops[0].Body
	if first.Type != xdr.OperationTypeCreateAccount || first.CreateAccountOp == nil {
		return "the close's first operation must be create_account of the flow's mediator"
	}
	if got := first.CreateAccountOp.Destination.Address(); got != mediator {
		return fmt.Sprintf("the close's first operation creates %s, not the flow's mediator %s", got, mediator)
	}
	if first.CreateAccountOp.StartingBalance != MediatorFunding {
		return fmt.Sprintf("the close's create_account must fund the mediator with exactly 2 units of the native asset, not %s",
			amount.String(first.CreateAccountOp.StartingBalance))
	}
	for i, op := range ops {
		if op.Body.Type != xdr.OperationTypeAccountMerge || op.Body.Destination == nil {
			continue
		}
		if got, err := op.Body.Destination.GetAddress(); err != nil || got != mediator {
			return fmt.Sprintf("operation %d merges into %s, not the flow's mediator %s", i+1, got, mediator)
		}
	}
	return ""
}

// ForwardFeePerOp is the forward's fee per operation: the larger of the
// base fee and the close's fee bid divided by its number of operations
// (CONTRACT section 16), so that a close bid up to land in a busy ledger
// has its forward bid the same.
func ForwardFeePerOp(close xdr.TransactionEnvelope) int64 {
	ops := len(close.Operations())
	if ops == 0 {
		return BaseFeePerOp
	}
	return max(BaseFeePerOp, int64(close.Fee())/int64(ops))
}

// ForwardPayment is the forward's payment and fee, in stroops, from the
// mediator's native balance and the fee per operation (taken as at least
// BaseFeePerOp, and at most what a transaction's 32-bit fee carries for
// two operations): the fee is two operations' worth, and the payment the
// balance less the fee and ForwardKept, which the merge then carries.
// ErrForwardUnfunded when that payment would not be positive. The relay's
// forward (BuildForward) and the client's (mediator forward) both take
// their amount from here, so they cannot disagree.
func ForwardPayment(balance, feePerOp int64) (pay, fee int64, err error) {
	fee = 2 * min(max(feePerOp, BaseFeePerOp), math.MaxUint32/2)
	if balance <= fee+ForwardKept {
		return 0, fee, ErrForwardUnfunded
	}
	return balance - fee - ForwardKept, fee, nil
}

// ForwardSpec is what a forward is built from: the mediator's account as
// the ledger API read it, and the flow's commitments.
type ForwardSpec struct {
	Mediator    AccountState // ID, Sequence and Balance are read
	Destination string       // the committed G… destination
	Memo        xdr.Memo     // the committed memo
	FeePerOp    int64        // ForwardFeePerOp of the close
	Now         time.Time    // the build time: maxTime is Now + ForwardTimeout
}

// Forward is a built forward, unsigned.
type Forward struct {
	Envelope xdr.TransactionEnvelope
	// Amount is op0's payment, in stroops: the mediator's balance less the
	// fee and ForwardKept. The merge then carries ForwardKept, so the
	// destination receives everything but the fee.
	Amount int64
	// MaxTime is the envelope's upper time bound (Unix seconds).
	MaxTime int64
}

// BuildForward builds CONTRACT section 16's forward: source the mediator,
// its next sequence number, a fee of 2 × FeePerOp, time bounds 0 to Now +
// ForwardTimeout, the committed memo, op0 a native payment to the
// destination of (balance − fee − ForwardKept), op1 an account merge into
// the same destination. ErrForwardUnfunded when that payment would not be
// positive.
func BuildForward(s ForwardSpec) (Forward, error) {
	var src xdr.MuxedAccount
	if err := src.SetAddress(s.Mediator.ID); err != nil || src.Type != xdr.CryptoKeyTypeKeyTypeEd25519 {
		return Forward{}, fmt.Errorf("ledger: the mediator %q is not a G… account", s.Mediator.ID)
	}
	var dest xdr.MuxedAccount
	if err := dest.SetAddress(s.Destination); err != nil || dest.Type != xdr.CryptoKeyTypeKeyTypeEd25519 {
		return Forward{}, fmt.Errorf("ledger: the destination %q is not a G… account", s.Destination)
	}
	if s.Mediator.Sequence == math.MaxInt64 {
		return Forward{}, errors.New("ledger: the mediator's sequence number is exhausted")
	}
	pay, fee, err := ForwardPayment(s.Mediator.Balance, s.FeePerOp)
	if err != nil {
		return Forward{}, err
	}
	maxTime := s.Now.Add(ForwardTimeout).Unix()
	tx := xdr.Transaction{
		SourceAccount: src,
		Fee:           xdr.Uint32(fee),
		SeqNum:        xdr.SequenceNumber(s.Mediator.Sequence + 1),
		Cond: xdr.Preconditions{Type: xdr.PreconditionTypePrecondTime,
			TimeBounds: &xdr.TimeBounds{MinTime: 0, MaxTime: xdr.TimePoint(maxTime)}},
		Memo: s.Memo,
		Operations: []xdr.Operation{
			{Body: xdr.OperationBody{Type: xdr.OperationTypePayment, PaymentOp: &xdr.PaymentOp{
				Destination: dest, Asset: xdr.MustNewNativeAsset(), Amount: xdr.Int64(pay)}}},
			{Body: xdr.OperationBody{Type: xdr.OperationTypeAccountMerge, Destination: &dest}},
		},
	}
	env := xdr.TransactionEnvelope{Type: xdr.EnvelopeTypeEnvelopeTypeTx, V1: &xdr.TransactionV1Envelope{Tx: tx}}
	return Forward{Envelope: env, Amount: pay, MaxTime: maxTime}, nil
}

// Units renders stroops as a decimal string of native units, as Horizon
// writes amounts: seven decimals ("12.3456789", "3.0000000").
func Units(stroops int64) string { return amount.StringFromInt64(stroops) }
