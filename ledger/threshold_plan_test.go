package ledger_test

import (
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// TestSignerSetWithThresholds: WithThresholds makes a new set with the same
// signers; the original keeps its thresholds, and a nil set has none.
func TestSignerSetWithThresholds(t *testing.T) {
	set := setOf(keys(310, 2)...)
	with := set.WithThresholds(ledger.Thresholds{Low: 1, Medium: 2, High: 3})
	if set.Thresholds() != (ledger.Thresholds{}) {
		t.Errorf("the original set's thresholds changed: %+v", set.Thresholds())
	}
	if with.Thresholds() != (ledger.Thresholds{Low: 1, Medium: 2, High: 3}) || with.Len() != 2 || with.Signers()[1].Address != set.Signers()[1].Address {
		t.Errorf("with = %+v, %d signers", with.Thresholds(), with.Len())
	}
	var none *ledger.SignerSet
	if none.Thresholds() != (ledger.Thresholds{}) || none.WithThresholds(ledger.Thresholds{High: 1}).Thresholds().High != 1 {
		t.Error("a nil set's thresholds")
	}
	// The new set recovers as the old one does.
	hash := [32]byte{1}
	kp := ledgertest.Keypair(311)
	if i, ok := recoverSig(t, with, hash, ledgertest.Signature(hash, kp)); !ok || i != 1 {
		t.Errorf("recover under the new set: %d %v", i, ok)
	}
}

// TestAdmitPlanThreshold: the plan's threshold is CloseThreshold of its
// transaction under the signer set's thresholds: the merge at high, the
// transaction's source at low, every other operation of the closing account
// at its level, and at least 1.
func TestAdmitPlanThreshold(t *testing.T) {
	acct := ledgertest.DeterministicAccount(31, 1, 1)
	payer := ledgertest.Keypair(3199)
	dest := ledgertest.Keypair(3198).Address()
	maxTime := time.Now().Add(time.Hour).Unix()
	merge := &txnbuild.AccountMerge{Destination: dest}
	mergeFrom := &txnbuild.AccountMerge{Destination: dest, SourceAccount: acct.Address}
	payment := &txnbuild.Payment{Destination: dest, Amount: "1", Asset: txnbuild.NativeAsset{}}
	paymentFrom := &txnbuild.Payment{Destination: dest, Amount: "1", Asset: txnbuild.NativeAsset{}, SourceAccount: acct.Address}
	bump := &txnbuild.BumpSequence{BumpTo: 0}

	for _, tt := range []struct {
		name   string
		source string
		ops    []txnbuild.Operation
		t      ledger.Thresholds
		want   int
	}{
		{"merge only: high", acct.Address, []txnbuild.Operation{merge}, ledger.Thresholds{Low: 1, Medium: 2, High: 3}, 3},
		{"all thresholds 0: 1", acct.Address, []txnbuild.Operation{merge}, ledger.Thresholds{}, 1},
		{"low above high: the source counts", acct.Address, []txnbuild.Operation{merge}, ledger.Thresholds{Low: 5, Medium: 1, High: 2}, 5},
		{"medium above high, merge only: high", acct.Address, []txnbuild.Operation{merge}, ledger.Thresholds{Low: 1, Medium: 4, High: 2}, 2},
		{"medium above high, a payment first: medium", acct.Address, []txnbuild.Operation{payment, merge}, ledger.Thresholds{Low: 1, Medium: 4, High: 2}, 4},
		{"a bump (low) before the merge", acct.Address, []txnbuild.Operation{bump, merge}, ledger.Thresholds{Low: 3, Medium: 4, High: 2}, 3},
		{"a fee payer: the closing account's low does not count", payer.Address(), []txnbuild.Operation{mergeFrom}, ledger.Thresholds{Low: 9, Medium: 4, High: 2}, 2},
		{"a fee payer, a payment of the closing account", payer.Address(), []txnbuild.Operation{paymentFrom, mergeFrom}, ledger.Thresholds{Low: 9, Medium: 4, High: 2}, 4},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b64, _ := ledgertest.BuildTx(tt.source, 1<<32+1, maxTime, testPass, tt.ops, acct.Master)
			c, err := ledger.ParseClose(b64, ledger.Testnet)
			if err != nil {
				t.Fatal(err)
			}
			set := setOf(acct.Keys...).WithThresholds(tt.t)
			p, _, err := ledger.AdmitPlan(t.Context(), gate, c, set, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if p.Threshold() != tt.want {
				t.Errorf("threshold = %d, want %d", p.Threshold(), tt.want)
			}
			if want := ledger.CloseThreshold(c.Envelope, acct.Address, tt.t); p.Threshold() != want {
				t.Errorf("threshold = %d, CloseThreshold = %d", p.Threshold(), want)
			}
		})
	}
}

// TestWeightLargeSetsAndAllocations: Weight counts each signer once in a
// set of any size (a plan's has at most 21 signers, weighed without
// allocating; a larger one still counts right).
func TestWeightLargeSetsAndAllocations(t *testing.T) {
	for _, n := range []int{ledger.MaxPlanSignerSet, 64, 65, 130} {
		signers := make([]ledger.Signer, n)
		for i := range signers {
			signers[i] = ledger.Signer{Address: ledgertest.Keypair(4000 + i).Address(), Weight: int32(i%3 + 1)}
		}
		set := ledger.NewSignerSet(signers)
		var admitted []ledger.Admitted
		want := 0
		for i := n - 1; i >= 0; i -= 2 {
			admitted = append(admitted, ledger.Admitted{Signer: i}, ledger.Admitted{Signer: i}) // each twice
			want += i%3 + 1
		}
		admitted = append(admitted, ledger.Admitted{Signer: n}, ledger.Admitted{Signer: -1}) // outside the set
		if got := ledger.Weight(set, admitted); got != want {
			t.Errorf("%d signers: Weight = %d, want %d", n, got, want)
		}
		if n <= 64 {
			if allocs := testing.AllocsPerRun(10, func() { ledger.Weight(set, admitted) }); allocs != 0 {
				t.Errorf("%d signers: Weight allocates %v times", n, allocs)
			}
		}
	}
}
