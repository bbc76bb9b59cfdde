package ledger_test

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// BuildForward makes exactly CONTRACT 16's forward: source the mediator,
// its next sequence number, 2 × the fee per operation, time bounds 0 to
// now + 300 s, the committed memo, op0 a native payment of (balance − fee
// − 1 unit) to the destination, op1 a merge into it.
func TestBuildForward(t *testing.T) {
	med, dest := keypair.MustRandom().Address(), keypair.MustRandom().Address()
	now := time.Unix(1_800_000_000, 0)
	memo := xdr.MemoID(77)
	for _, tc := range []struct {
		name     string
		balance  int64
		feePerOp int64
		fee      int64
	}{
		{"base fee", 52_0000000, 100, 200},
		{"the close's higher bid", 52_0000000, 5000, 10000},
		{"below the base fee", 52_0000000, 10, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ledger.BuildForward(ledger.ForwardSpec{
				Mediator:    ledger.AccountState{ID: med, Sequence: 41, Balance: tc.balance},
				Destination: dest, Memo: memo, FeePerOp: tc.feePerOp, Now: now,
			})
			if err != nil {
				t.Fatal(err)
			}
			tx := f.Envelope.V1.Tx
			if tx.SourceAccount.Address() != med || tx.SeqNum != 42 || int64(tx.Fee) != tc.fee {
				t.Errorf("source %s seq %d fee %d", tx.SourceAccount.Address(), tx.SeqNum, tx.Fee)
			}
			if tb := tx.Cond.TimeBounds; tb == nil || tb.MinTime != 0 || int64(tb.MaxTime) != now.Unix()+300 || f.MaxTime != now.Unix()+300 {
				t.Errorf("time bounds %+v", tx.Cond.TimeBounds)
			}
			if tx.Memo.Type != xdr.MemoTypeMemoId || *tx.Memo.Id != 77 {
				t.Errorf("memo %+v", tx.Memo)
			}
			want := tc.balance - tc.fee - 1_0000000
			pay := tx.Operations[0].Body.PaymentOp
			if len(tx.Operations) != 2 || pay == nil || pay.Destination.Address() != dest || int64(pay.Amount) != want || f.Amount != want ||
				pay.Asset.Type != xdr.AssetTypeAssetTypeNative || tx.Operations[0].SourceAccount != nil {
				t.Errorf("op0 = %+v, want %d native to %s", tx.Operations[0], want, dest)
			}
			if m := tx.Operations[1]; m.Body.Type != xdr.OperationTypeAccountMerge || m.Body.Destination.Address() != dest || m.SourceAccount != nil {
				t.Errorf("op1 = %+v", m)
			}
		})
	}
	_, err := ledger.BuildForward(ledger.ForwardSpec{Mediator: ledger.AccountState{ID: med, Balance: 1_0000200}, Destination: dest, FeePerOp: 100, Now: now})
	if !errors.Is(err, ledger.ErrForwardUnfunded) {
		t.Errorf("a mediator of 1.00002 units: %v, want ErrForwardUnfunded", err)
	}
}

// The fee per operation is the larger of 100 stroops and the close's bid
// divided by its operations.
func TestForwardFeePerOp(t *testing.T) {
	for _, tc := range []struct {
		fee  uint32
		ops  int
		want int64
	}{{200, 2, 100}, {150, 3, 100}, {3000, 3, 1000}, {1001, 2, 500}} {
		ops := make([]xdr.Operation, tc.ops)
		env := xdr.TransactionEnvelope{Type: xdr.EnvelopeTypeEnvelopeTypeTx, V1: &xdr.TransactionV1Envelope{Tx: xdr.Transaction{Fee: xdr.Uint32(tc.fee), Operations: ops}}}
		if got := ledger.ForwardFeePerOp(env); got != tc.want {
			t.Errorf("fee %d over %d ops: %d, want %d", tc.fee, tc.ops, got, tc.want)
		}
	}
}

// CheckMediatorClose passes exactly a close whose op0 creates the mediator
// with 2 units and whose merges go into it.
func TestCheckMediatorClose(t *testing.T) {
	med, other := keypair.MustRandom().Address(), keypair.MustRandom().Address()
	create := func(to string, amt xdr.Int64) xdr.Operation {
		return xdr.Operation{Body: xdr.OperationBody{Type: xdr.OperationTypeCreateAccount,
			CreateAccountOp: &xdr.CreateAccountOp{Destination: xdr.MustAddress(to), StartingBalance: amt}}}
	}
	merge := func(to string) xdr.Operation {
		d := xdr.MustMuxedAddress(to)
		return xdr.Operation{Body: xdr.OperationBody{Type: xdr.OperationTypeAccountMerge, Destination: &d}}
	}
	env := func(ops ...xdr.Operation) xdr.TransactionEnvelope {
		return xdr.TransactionEnvelope{Type: xdr.EnvelopeTypeEnvelopeTypeTx, V1: &xdr.TransactionV1Envelope{Tx: xdr.Transaction{Operations: ops}}}
	}
	for _, tc := range []struct {
		name string
		env  xdr.TransactionEnvelope
		want string
	}{
		{"good", env(create(med, 2_0000000), merge(med)), ""},
		{"merge first", env(merge(med), create(med, 2_0000000)), "first operation must be create_account"},
		{"creates another", env(create(other, 2_0000000), merge(med)), "not the flow's mediator"},
		{"2.0000001 units", env(create(med, 2_0000001), merge(med)), "exactly 2 units"},
		{"merges elsewhere", env(create(med, 2_0000000), merge(other)), "merges into " + other},
	} {
		got := ledger.CheckMediatorClose(tc.env, med)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// ForwardPayment is the one computation of the forward's amount, shared
// by the relay's forward and the client's: the fee is two operations at
// no less than the base fee and no more than a 32-bit fee carries, and the
// payment leaves the mediator ForwardKept. A fee per operation too large
// to double stays within the fee field rather than wrapping negative.
func TestForwardPayment(t *testing.T) {
	for _, tc := range []struct {
		balance, perOp, pay, fee int64
		unfunded                 bool
	}{
		{102_0000000, 100, 100_9999800, 200, false},
		{102_0000000, 0, 100_9999800, 200, false},
		{1_0000201, 100, 1, 200, false},
		{1_0000200, 100, 0, 200, true},
		{5000_0000000, 1 << 62, 5000_0000000 - 4294967294 - 1_0000000, 4294967294, false},
		{5000_0000000, math.MaxInt64, 5000_0000000 - 4294967294 - 1_0000000, 4294967294, false},
	} {
		pay, fee, err := ledger.ForwardPayment(tc.balance, tc.perOp)
		if tc.unfunded != errors.Is(err, ledger.ErrForwardUnfunded) || (!tc.unfunded && err != nil) {
			t.Errorf("ForwardPayment(%d, %d): %v", tc.balance, tc.perOp, err)
			continue
		}
		if fee != tc.fee || (!tc.unfunded && pay != tc.pay) {
			t.Errorf("ForwardPayment(%d, %d) = %d, fee %d; want %d, fee %d", tc.balance, tc.perOp, pay, fee, tc.pay, tc.fee)
		}
	}
}
