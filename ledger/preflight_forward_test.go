package ledger_test

import (
	"math"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The forward's preflight (CONTRACT section 18): a mediator close is
// checked with the forward the relay runs after it, and what would stop
// the forward is a blocker with Op ForwardBlocker, after the close's.

// mediatorClose is the closing account's close through mediator med:
// create_account of med with 2 units, any ops, then the merge into med.
func (w *world) mediatorClose(t *testing.T, med string, ops ...txnbuild.Operation) xdr.TransactionEnvelope {
	t.Helper()
	all := append([]txnbuild.Operation{&txnbuild.CreateAccount{Destination: med, Amount: "2"}}, ops...)
	return w.close(t, nil, append(all, merge(med))...)
}

// withMediator is w with a mediator address read and found absent, as the
// preflight reads it before the close creates it.
func (w *world) withMediator() string {
	med := keypair.MustRandom().Address()
	w.state.Accounts[med] = nil
	return med
}

var committed = xdr.MemoText("deposit 42")

func TestForwardPreflightLandsToAnAccountThatExists(t *testing.T) {
	w := newWorld(t)
	med := w.withMediator()
	env := w.mediatorClose(t, med)
	wantVerdict(t, ledger.CheckCloseForward(env, w.state, &ledger.FlowForward{Destination: w.dest, Memo: committed}), ledger.PreflightLandable)
	// Without a flow it is CheckClose's verdict.
	if got, want := ledger.CheckCloseForward(env, w.state, nil), ledger.CheckClose(env, w.state); got.State != want.State || len(got.Blockers) != len(want.Blockers) {
		t.Errorf("CheckCloseForward(nil) = %+v, CheckClose = %+v", got, want)
	}
	if w.state.Accounts[med] != nil || w.acc().Balance != 100*xlm || w.state.Accounts[w.dest].Balance != 10*xlm {
		t.Error("the preflight changed the state it was given")
	}
}

// The adversarial run of issue 39: a flow to an account that does not
// exist. The close lands, the forward's payment would fail with
// op_no_destination, and the blocker says the funds stop in the mediator.
func TestForwardPreflightNoDestination(t *testing.T) {
	w := newWorld(t)
	med := w.withMediator()
	got := ledger.CheckCloseForward(w.mediatorClose(t, med), w.state, &ledger.FlowForward{Destination: w.other, Memo: committed})
	wantVerdict(t, got, ledger.PreflightBlocked, "op_no_destination")
	b := got.Blockers[0]
	if b.Op != ledger.ForwardBlocker || !strings.Contains(b.Reason, "stop in the mediator "+med) || !strings.Contains(b.Reason, w.other) {
		t.Errorf("blocker %+v, want op -2 naming the destination and the mediator the funds stop in", b)
	}
}

// SEP-29 on the forward: a destination that requires a memo is satisfied
// by the committed memo, and blocks a flow that commits none.
func TestForwardPreflightMemoRequired(t *testing.T) {
	w := newWorld(t)
	med := w.withMediator()
	w.state.Accounts[w.dest].Data = map[string][]byte{"config.memo_required": []byte("1")}
	w.state.Accounts[w.dest].NumSubEntries = 1
	env := w.mediatorClose(t, med)
	wantVerdict(t, ledger.CheckCloseForward(env, w.state, &ledger.FlowForward{Destination: w.dest, Memo: committed}), ledger.PreflightLandable)
	got := ledger.CheckCloseForward(env, w.state, &ledger.FlowForward{Destination: w.dest, Memo: xdr.Memo{Type: xdr.MemoTypeMemoNone}})
	// Listed for both of the forward's operations, as for a close's.
	wantVerdict(t, got, ledger.PreflightBlocked, ledger.MemoRequired, ledger.MemoRequired)
	for _, b := range got.Blockers {
		if b.Op != ledger.ForwardBlocker || !strings.Contains(b.Reason, med) {
			t.Errorf("blocker %+v, want op -2 naming the mediator", b)
		}
	}
}

// PaymentOpFrame.cpp (PathPaymentOpFrameBase.cpp updateDestBalance): a
// native payment the destination cannot hold under INT64_MAX, less its
// buying liabilities, is op_line_full.
func TestForwardPreflightLineFull(t *testing.T) {
	w := newWorld(t)
	med := w.withMediator()
	w.state.Accounts[w.dest].Balance = math.MaxInt64 - 50*xlm
	got := ledger.CheckCloseForward(w.mediatorClose(t, med), w.state, &ledger.FlowForward{Destination: w.dest, Memo: committed})
	wantVerdict(t, got, ledger.PreflightBlocked, "op_line_full")
	if got.Blockers[0].Op != ledger.ForwardBlocker {
		t.Errorf("blocker %+v, want op -2", got.Blockers[0])
	}
}

// A close that fails never reaches its forward: only the close's blocker.
func TestForwardPreflightAfterAFailingClose(t *testing.T) {
	w := newWorld(t)
	med := w.withMediator()
	w.hold(t, usd, 0)
	got := ledger.CheckCloseForward(w.mediatorClose(t, med), w.state, &ledger.FlowForward{Destination: w.other, Memo: committed})
	wantVerdict(t, got, ledger.PreflightBlocked, "op_has_sub_entries")
	if got.Blockers[0].Op != 1 {
		t.Errorf("blocker %+v, want op 1 (the merge)", got.Blockers[0])
	}
}

// After the close's own blockers: a close that lands but whose payment to
// a memo-required account carries no memo is blocked by SEP-29, and its
// forward's blocker follows.
func TestForwardPreflightBlockersInOrder(t *testing.T) {
	w := newWorld(t)
	med := w.withMediator()
	w.state.Accounts[w.dest].Data = map[string][]byte{"config.memo_required": []byte("1")}
	w.state.Accounts[w.dest].NumSubEntries = 1
	env := w.mediatorClose(t, med, &txnbuild.Payment{Destination: w.dest, Amount: "1", Asset: txnbuild.NativeAsset{}})
	got := ledger.CheckCloseForward(env, w.state, &ledger.FlowForward{Destination: w.other, Memo: committed})
	wantVerdict(t, got, ledger.PreflightBlocked, ledger.MemoRequired, "op_no_destination")
	if got.Blockers[0].Op != 1 || got.Blockers[1].Op != ledger.ForwardBlocker {
		t.Errorf("blockers %+v, want op 1 then op -2", got.Blockers)
	}
}

// A close whose outcome is uncertain (a path payment's receive side) still
// has its forward's destination judged as read: one that does not exist,
// or requires a memo the flow does not commit, blocks; one that exists
// leaves the verdict uncertain. A destination the close itself creates is
// not judged.
func TestForwardPreflightUncertainClose(t *testing.T) {
	w := newWorld(t)
	med := w.withMediator()
	w.hold(t, usd, 5*xlm)
	sell := &txnbuild.PathPaymentStrictSend{SendAsset: usd, SendAmount: "5", Destination: w.closing, DestAsset: txnbuild.NativeAsset{}, DestMin: "1"}
	env := w.mediatorClose(t, med, sell, &txnbuild.ChangeTrust{Line: usd.MustToChangeTrustAsset(), Limit: "0"})
	wantVerdict(t, ledger.CheckCloseForward(env, w.state, &ledger.FlowForward{Destination: w.dest, Memo: committed}), ledger.PreflightUncertain)
	got := ledger.CheckCloseForward(env, w.state, &ledger.FlowForward{Destination: w.other, Memo: committed})
	wantVerdict(t, got, ledger.PreflightBlocked, "op_no_destination")
	if got.Blockers[0].Op != ledger.ForwardBlocker || !strings.Contains(got.Blockers[0].Reason, med) {
		t.Errorf("blocker %+v, want op -2 naming the mediator", got.Blockers[0])
	}
	w.state.Accounts[w.dest].Data = map[string][]byte{"config.memo_required": []byte("1")}
	w.state.Accounts[w.dest].NumSubEntries = 1
	wantVerdict(t, ledger.CheckCloseForward(env, w.state, &ledger.FlowForward{Destination: w.dest}), ledger.PreflightBlocked, ledger.MemoRequired)

	creates := w.mediatorClose(t, med, &txnbuild.CreateAccount{Destination: w.other, Amount: "1"}, sell)
	wantVerdict(t, ledger.CheckCloseForward(creates, w.state, &ledger.FlowForward{Destination: w.other, Memo: committed}), ledger.PreflightUncertain)
}

// A flow to the closing account itself: the close merges it away, so the
// forward has no destination.
func TestForwardPreflightToTheClosingAccount(t *testing.T) {
	w := newWorld(t)
	med := w.withMediator()
	got := ledger.CheckCloseForward(w.mediatorClose(t, med), w.state, &ledger.FlowForward{Destination: w.closing, Memo: committed})
	wantVerdict(t, got, ledger.PreflightBlocked, "op_no_destination")
}

// A destination the relay did not read leaves a landable close
// uncertain: the forward's outcome cannot be told.
func TestForwardPreflightDestinationNotRead(t *testing.T) {
	w := newWorld(t)
	med := w.withMediator()
	got := ledger.CheckCloseForward(w.mediatorClose(t, med), w.state, &ledger.FlowForward{Destination: keypair.MustRandom().Address(), Memo: committed})
	wantVerdict(t, got, ledger.PreflightUncertain)
}

// The forward's fee follows the close's bid per operation (ForwardFeePerOp);
// a close that bids nearly all it holds leaves the mediator less than the
// forward's fee and kept unit: forward_underfunded, the forwarder's code.
func TestForwardPreflightUnderfunded(t *testing.T) {
	w := newWorld(t)
	med := w.withMediator()
	w.acc().Balance = 401 * xlm
	ops := []txnbuild.Operation{&txnbuild.CreateAccount{Destination: med, Amount: "2"}, merge(med)}
	env := w.closeWith(t, 101, 400*xlm, nil, ops...)
	wantVerdict(t, ledger.CheckClose(env, w.state), ledger.PreflightLandable)
	got := ledger.CheckCloseForward(env, w.state, &ledger.FlowForward{Destination: w.dest, Memo: committed})
	wantVerdict(t, got, ledger.PreflightBlocked, ledger.CodeForwardUnderfunded)
	if !strings.Contains(got.Blockers[0].Reason, med) {
		t.Errorf("reason %q does not name the mediator", got.Blockers[0].Reason)
	}
}

// A close whose fee another account pays (the transaction's source is not
// the account closed): the forward is applied all the same once the
// closing account is merged away.
func TestForwardPreflightFeePayer(t *testing.T) {
	w := newWorld(t)
	med := w.withMediator()
	w.state.Accounts[w.dest].Balance = math.MaxInt64 - 50*xlm
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount: &txnbuild.SimpleAccount{AccountID: w.issuer, Sequence: 8},
		Operations: []txnbuild.Operation{
			&txnbuild.CreateAccount{Destination: med, Amount: "2", SourceAccount: w.closing},
			&txnbuild.AccountMerge{Destination: med, SourceAccount: w.closing},
		},
		BaseFee:       100,
		Preconditions: txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout()},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := ledger.CheckCloseForward(tx.ToXDR(), w.state, &ledger.FlowForward{Destination: w.dest, Memo: committed})
	wantVerdict(t, got, ledger.PreflightBlocked, "op_line_full")
}

// The latest ledger not read: the close is uncertain (its merge's sequence
// rule cannot be told), yet its forward's destination still is, and the
// forward's merge is not taken for one in the mediator's own ledger.
func TestForwardPreflightLatestNotRead(t *testing.T) {
	w := newWorld(t)
	med := w.withMediator()
	w.state.Latest = ledger.LatestLedger{}
	env := w.mediatorClose(t, med)
	wantVerdict(t, ledger.CheckCloseForward(env, w.state, &ledger.FlowForward{Destination: w.dest, Memo: committed}), ledger.PreflightUncertain)
	wantVerdict(t, ledger.CheckCloseForward(env, w.state, &ledger.FlowForward{Destination: w.other, Memo: committed}), ledger.PreflightBlocked, "op_no_destination")
}
