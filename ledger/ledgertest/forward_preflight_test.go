package ledgertest_test

import (
	"context"
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// TestForwardPreflightAgreesWithTheDouble: the forward's preflight
// (ledger.CheckCloseForward, CONTRACT section 18) on the state the double
// serves, under both of its faces, against what the double answers when
// the close and then the forward the relay would build
// (ledger.BuildForward) are posted: a forward blocker of the ledger's is
// the double's refusal code of the forward; none, and the forward lands.
// memo_required is SEP-29's and not the ledger's: the double takes such a
// forward.
func TestForwardPreflightAgreesWithTheDouble(t *testing.T) {
	const xlm = 10_000_000
	committed := xdr.MemoText("deposit 42")
	none := xdr.Memo{Type: xdr.MemoTypeMemoNone}
	for _, tc := range []struct {
		name    string
		setup   func(h *ledgertest.Handler, dest string)
		memo    xdr.Memo
		toSelf  bool   // the flow pays the closing account itself
		want    string // the forward blocker's code; "" for none
		refused string // the double's code for the forward; "" when it lands
	}{
		{name: "exists", setup: func(h *ledgertest.Handler, d string) { h.Fund(d, 10*xlm) }, memo: committed},
		{name: "missing", setup: func(*ledgertest.Handler, string) {}, memo: committed, want: "op_no_destination", refused: "op_no_destination"},
		{name: "native line full", setup: func(h *ledgertest.Handler, d string) { h.Fund(d, math.MaxInt64-50*xlm) }, memo: committed, want: "op_line_full", refused: "op_line_full"},
		{name: "memo required, committed", setup: func(h *ledgertest.Handler, d string) { h.Fund(d, 10*xlm); h.SetMemoRequired(d) }, memo: committed},
		{name: "memo required, none", setup: func(h *ledgertest.Handler, d string) { h.Fund(d, 10*xlm); h.SetMemoRequired(d) }, memo: none, want: ledger.MemoRequired},
		{name: "the closing account", setup: func(*ledgertest.Handler, string) {}, memo: committed, toSelf: true, want: "op_no_destination", refused: "op_no_destination"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := ledgertest.NewHandler()
			closing, med := keypair.MustRandom(), keypair.MustRandom()
			h.Fund(closing.Address(), 100*xlm)
			dest := keypair.MustRandom().Address()
			if tc.toSelf {
				dest = closing.Address()
			}
			tc.setup(h, dest)
			seq, _ := h.Sequence(closing.Address())
			env := signed(t, closing, seq+1, 200, none,
				&txnbuild.CreateAccount{Destination: med.Address(), Amount: "2"},
				&txnbuild.AccountMerge{Destination: med.Address()})
			f := &ledger.FlowForward{Destination: dest, Memo: tc.memo}

			horizon, err := h.ReadState(closing.Address(), append(ledger.Destinations(env), dest)...)
			if err != nil {
				t.Fatal(err)
			}
			rpc, err := ledgertest.InProcessRPCClient(h, 5*time.Second).CloseState(context.Background(), ledger.Testnet, env, []string{dest})
			if err != nil {
				t.Fatal(err)
			}
			got := ledger.CheckCloseForward(env, horizon, f)
			if viaRPC := ledger.CheckCloseForward(env, rpc, f); viaRPC.State != got.State || len(viaRPC.Blockers) != len(got.Blockers) {
				t.Fatalf("Horizon's state gives %+v, Stellar RPC's %+v", got, viaRPC)
			}
			var code string
			for _, b := range got.Blockers {
				if b.Op != ledger.ForwardBlocker {
					t.Fatalf("blocker %+v of the close, want only the forward's", b)
				}
				code = b.Code
			}
			if code != tc.want {
				t.Fatalf("preflight %s %+v, want the forward's %q", got.State, got.Blockers, tc.want)
			}

			// The double's answer: the close lands, then the forward.
			if status, c := (&propertyCase{h: h}).submit(t, env); status != http.StatusOK {
				t.Fatalf("the double refused the close: %d %s", status, c)
			}
			after, err := h.ReadState(med.Address())
			if err != nil {
				t.Fatal(err)
			}
			fwd, err := ledger.BuildForward(ledger.ForwardSpec{Mediator: *after.Accounts[med.Address()], Destination: dest, Memo: tc.memo,
				FeePerOp: ledger.ForwardFeePerOp(env), Now: time.Now()})
			if err != nil {
				t.Fatal(err)
			}
			fenv := sign(t, fwd.Envelope, med)
			status, refused := (&propertyCase{h: h}).submit(t, fenv)
			if (status == http.StatusOK) != (tc.refused == "") || refused != tc.refused {
				t.Errorf("the double answered the forward %d %q, want %q", status, refused, tc.refused)
			}
		})
	}
}

// signed is a transaction of src at sequence seq with fee and memo,
// signed by src.
func signed(t *testing.T, src *keypair.Full, seq, fee int64, memo xdr.Memo, ops ...txnbuild.Operation) xdr.TransactionEnvelope {
	t.Helper()
	var m txnbuild.Memo
	if memo.Type == xdr.MemoTypeMemoText {
		m = txnbuild.MemoText(memo.MustText())
	}
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount: &txnbuild.SimpleAccount{AccountID: src.Address(), Sequence: seq},
		Operations:    ops, BaseFee: fee / int64(len(ops)), Memo: m,
		Preconditions: txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout()},
	})
	if err != nil {
		t.Fatal(err)
	}
	return sign(t, tx.ToXDR(), src)
}

// sign is env signed by kp on the test network.
func sign(t *testing.T, env xdr.TransactionEnvelope, kp *keypair.Full) xdr.TransactionEnvelope {
	t.Helper()
	b64, err := xdr.MarshalBase64(env)
	if err != nil {
		t.Fatal(err)
	}
	var out xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(ledgertest.SignXDR(b64, network.TestNetworkPassphrase, kp), &out); err != nil {
		t.Fatal(err)
	}
	return out
}
