package ledgertest_test

import (
	"encoding/hex"
	"testing"

	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The double serves SEP-29's marker as Horizon does (a data entry
// config.memo_required, base64 "1"), and records what applied transactions
// credited and with which memo: create_account (CreateAccountOpFrame.cpp),
// a payment with the transaction's memo (PaymentOpFrame.cpp) and an
// account_merge's whole balance (MergeOpFrame.cpp), the source's balance
// going down by as much plus the fee. A refused transaction credits
// nobody.
func TestCreditsWithTheirMemo(t *testing.T) {
	w := newWorld(t)
	if !w.h.SetMemoRequired(w.other.Address) {
		t.Fatal("SetMemoRequired")
	}
	if v := w.state(t, w.other.Address).Data[ledgertest.MemoRequiredKey]; v != "MQ==" {
		t.Fatalf("data %s = %q, want base64 of 1", ledgertest.MemoRequiredKey, v)
	}
	fresh := ledgertest.Keypair(203).Address()
	before, _ := w.h.Balance(w.src.Address)
	otherBefore, _ := w.h.Balance(w.other.Address)
	seq, _ := w.h.Sequence(w.src.Address)
	x, _ := ledgertest.BuildTx(w.src.Address, seq+1, 0, pass, []txnbuild.Operation{
		&txnbuild.CreateAccount{Destination: fresh, Amount: "2"},
		&txnbuild.Payment{Destination: w.other.Address, Amount: "3", Asset: txnbuild.NativeAsset{}},
		&txnbuild.AccountMerge{Destination: w.other.Address},
	})
	x = mutate(t, x, func(env *xdr.TransactionEnvelope) { env.V1.Tx.Memo = xdr.MemoText("deposit 9") })
	hash := ledgertest.Hash(x, pass)
	if _, err := w.hc.SubmitTransactionXDR(ledgertest.SignXDR(x, pass, w.src.Master)); err != nil {
		t.Fatal(err)
	}
	got := w.h.Credits(w.other.Address)
	if len(got) != 2 {
		t.Fatalf("credits = %+v, want the payment and the merge", got)
	}
	merged := before - 300 - 2*xlm - 3*xlm
	if p := got[0]; p.Merge || p.Amount != 3*xlm || p.From != w.src.Address || p.Asset != "native" || p.Memo.MustText() != "deposit 9" || p.Hash != hex.EncodeToString(hash[:]) {
		t.Errorf("payment = %+v", p)
	}
	if m := got[1]; !m.Merge || m.Amount != merged || m.Memo.MustText() != "deposit 9" || m.Hash != got[0].Hash {
		t.Errorf("merge = %+v, want %d", m, merged)
	}
	if bal, _ := w.h.Balance(w.other.Address); bal != otherBefore+3*xlm+merged {
		t.Errorf("other's balance = %d, want %d", bal, otherBefore+3*xlm+merged)
	}
	if bal, _ := w.h.Balance(fresh); bal != 2*xlm {
		t.Errorf("the created account holds %d", bal)
	}
	if len(w.h.Credits(fresh)) != 0 {
		t.Error("a create_account is not a credit of a payment or merge")
	}
	// A refused transaction (tx_bad_seq) credits nobody.
	y, _ := ledgertest.BuildPayment(w.other.Master, w.src.Address, 1, pass, w.other.Master)
	if _, err := w.hc.SubmitTransactionXDR(y); err == nil {
		t.Fatal("a bad sequence number was applied")
	}
	if c := w.h.Credits(w.src.Address); len(c) != 0 {
		t.Errorf("a refused transaction credited %+v", c)
	}
}
