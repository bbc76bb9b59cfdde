package ledger_test

import (
	"math"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The transaction's own rules (CONTRACT section 18), against the latest
// ledger (ledger 1000, closed at latest.CloseTime) and the plan's window.

// closePre is the closing account's close of ops then the merge into dest,
// at sequence number seq, under the preconditions pre.
func (w *world) closePre(t *testing.T, seq int64, pre txnbuild.Preconditions, ops ...txnbuild.Operation) xdr.TransactionEnvelope {
	t.Helper()
	ops = append(ops, merge(w.dest))
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount: &txnbuild.SimpleAccount{AccountID: w.closing, Sequence: seq},
		Operations:    ops,
		BaseFee:       100,
		Preconditions: pre,
	})
	if err != nil {
		t.Fatal(err)
	}
	return tx.ToXDR()
}

func TestPreflightTransactionRules(t *testing.T) {
	now := latest.CloseTime.Unix()
	hour := int64(time.Hour / time.Second)
	window := int64(ledger.WindowLedgers)
	times := func(min, max int64) txnbuild.Preconditions {
		return txnbuild.Preconditions{TimeBounds: txnbuild.NewTimebounds(min, max)}
	}
	ledgers := func(min, max int64) txnbuild.Preconditions {
		return txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout(), LedgerBounds: &txnbuild.LedgerBounds{MinLedger: uint32(min), MaxLedger: uint32(max)}}
	}
	seqAge := func(age uint64, gap uint32) txnbuild.Preconditions {
		return txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout(), MinSequenceNumberAge: age, MinSequenceNumberLedgerGap: gap}
	}
	infinite := txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout()}
	for _, tc := range []struct {
		name  string
		seq   int64 // the account's; the close's is one more
		pre   txnbuild.Preconditions
		ops   []txnbuild.Operation
		state ledger.PreflightState
		code  string
		// edit makes what txnbuild refuses to build.
		edit func(env *xdr.TransactionEnvelope)
	}{
		{"time bounds around now", 100, times(now-hour, now+hour), nil, ledger.PreflightLandable, "", nil},
		{"min time 80 hours ahead, past the window", 100, times(now+80*hour, 0), nil, ledger.PreflightBlocked, "tx_too_early", nil},
		{"min time 1 hour ahead, within the window", 100, times(now+hour, 0), nil, ledger.PreflightUncertain, "", nil},
		{"min time at the window's end", 100, times(now+72*hour, 0), nil, ledger.PreflightUncertain, "", nil},
		{"min time after max time", 100, times(now+2*hour, 0), nil, ledger.PreflightBlocked, "tx_too_early", func(env *xdr.TransactionEnvelope) {
			env.V1.Tx.Cond.TimeBounds.MaxTime = xdr.TimePoint(now + hour)
		}},
		{"max time passed", 100, times(0, now-1), nil, ledger.PreflightBlocked, "tx_too_late", nil},
		{"max time the latest close", 100, times(0, now), nil, ledger.PreflightLandable, "", nil},
		{"min ledger a million ahead", 100, ledgers(1000+1_000_000, 0), nil, ledger.PreflightBlocked, "tx_too_early", nil},
		{"min ledger past the window", 100, ledgers(1000+window+1, 0), nil, ledger.PreflightBlocked, "tx_too_early", nil},
		{"min ledger the window's last", 100, ledgers(1000+window, 0), nil, ledger.PreflightUncertain, "", nil},
		{"min ledger the next", 100, ledgers(1001, 0), nil, ledger.PreflightLandable, "", nil},
		{"min ledger at max ledger", 100, ledgers(1100, 1100), nil, ledger.PreflightBlocked, "tx_too_early", nil},
		{"max ledger 2", 100, ledgers(0, 2), nil, ledger.PreflightBlocked, "tx_too_late", nil},
		{"max ledger the next", 100, ledgers(0, 1001), nil, ledger.PreflightBlocked, "tx_too_late", nil},
		{"max ledger after the next", 100, ledgers(0, 1002), nil, ledger.PreflightLandable, "", nil},
		{"min ledger ahead, max time passed", 100, txnbuild.Preconditions{TimeBounds: txnbuild.NewTimebounds(0, now-1), LedgerBounds: &txnbuild.LedgerBounds{MinLedger: 1100}}, nil, ledger.PreflightBlocked, "tx_too_early", nil},
		{"sequence age reached", 100, seqAge(60, 0), nil, ledger.PreflightLandable, "", nil},
		{"sequence age within the window", 100, seqAge(uint64(2*hour), 0), nil, ledger.PreflightUncertain, "", nil},
		{"sequence age past the window", 100, seqAge(uint64(80*hour), 0), nil, ledger.PreflightBlocked, "tx_bad_minseq_age_or_gap", nil},
		{"sequence gap reached", 100, seqAge(0, 2), nil, ledger.PreflightLandable, "", nil},
		{"sequence gap within the window", 100, seqAge(0, 500), nil, ledger.PreflightUncertain, "", nil},
		{"sequence gap past the window", 100, seqAge(0, 1_000_000), nil, ledger.PreflightBlocked, "tx_bad_minseq_age_or_gap", nil},
		{"sequence number far ahead", 5000 << 32, infinite, nil, ledger.PreflightBlocked, "op_seq_num_too_far", nil},
		{"sequence number just below the next ledger's", 1001<<32 - 2, infinite, nil, ledger.PreflightLandable, "", nil},
		{"the next ledger's starting sequence number", 1001<<32 - 1, infinite, nil, ledger.PreflightBlocked, "tx_bad_seq", nil},
		{"bumped far ahead", 100, infinite, []txnbuild.Operation{&txnbuild.BumpSequence{BumpTo: 5000 << 32}}, ledger.PreflightBlocked, "op_seq_num_too_far", nil},
		{"bumped below", 100, infinite, []txnbuild.Operation{&txnbuild.BumpSequence{BumpTo: 50}}, ledger.PreflightLandable, "", nil},
		{"bumped to a negative number", 100, infinite, []txnbuild.Operation{&txnbuild.BumpSequence{BumpTo: 1}}, ledger.PreflightBlocked, "op_bad_seq", func(env *xdr.TransactionEnvelope) {
			env.V1.Tx.Operations[0].Body.BumpSequenceOp.BumpTo = -1
		}},
		{"far ahead, waiting for a min time", 1100 << 32, times(now+hour, 0), nil, ledger.PreflightUncertain, "", nil},
		{"far ahead past the window, waiting for a min time", (1000 + window + 5) << 32, times(now+hour, 0), nil, ledger.PreflightBlocked, "op_seq_num_too_far", nil},
		{"far ahead, within a min ledger", 1100 << 32, ledgers(1200, 0), nil, ledger.PreflightUncertain, "", nil},
		{"sequence age reached only after max time", 100, txnbuild.Preconditions{TimeBounds: txnbuild.NewTimebounds(0, now+hour), MinSequenceNumberAge: uint64(2 * hour)}, nil, ledger.PreflightBlocked, "tx_bad_minseq_age_or_gap", nil},
		{"sequence gap reached only after max ledger", 100, txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout(), LedgerBounds: &txnbuild.LedgerBounds{MaxLedger: 1050}, MinSequenceNumberLedgerGap: 100}, nil, ledger.PreflightBlocked, "tx_bad_minseq_age_or_gap", nil},
		{"far ahead, passing only after max ledger", 1100 << 32, txnbuild.Preconditions{TimeBounds: txnbuild.NewTimebounds(now+hour, 0), LedgerBounds: &txnbuild.LedgerBounds{MaxLedger: 1050}}, nil, ledger.PreflightBlocked, "op_seq_num_too_far", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.acc().Sequence = tc.seq
			// The sequence number last changed a minute ago, at the
			// ledger before the latest.
			w.acc().SeqTime, w.acc().SeqLedger = uint64(now-60), 999
			env := w.closePre(t, tc.seq+1, tc.pre, tc.ops...)
			if tc.edit != nil {
				tc.edit(&env)
			}
			got := ledger.CheckClose(env, w.state)
			if tc.code == "" {
				wantVerdict(t, got, tc.state)
			} else {
				wantVerdict(t, got, tc.state, tc.code)
			}
		})
	}
}

// TestPreflightWithoutTheLatestLedger: a state read without the latest
// ledger cannot tell the merge's sequence rule, nor any bound: never
// landable.
func TestPreflightWithoutTheLatestLedger(t *testing.T) {
	w := newWorld(t)
	w.state.Latest = ledger.LatestLedger{}
	wantVerdict(t, ledger.CheckClose(w.close(t, nil, merge(w.dest)), w.state), ledger.PreflightUncertain)
	// A rule that does not need it still blocks.
	w.acc().NumSubEntries = 1
	w.acc().Data = map[string][]byte{"x": []byte("1")}
	wantVerdict(t, ledger.CheckClose(w.close(t, nil, merge(w.dest)), w.state), ledger.PreflightBlocked, "op_has_sub_entries")
}

// TestPreflightMergesAnAccountItCreated: an account created in the close
// has the starting sequence number of its ledger, so merging it in the
// same close fails (MergeOpFrame.cpp isSeqnumTooFar).
func TestPreflightMergesAnAccountItCreated(t *testing.T) {
	w := newWorld(t)
	env := w.close(t, nil,
		&txnbuild.CreateAccount{Destination: w.other, Amount: "2"},
		&txnbuild.AccountMerge{Destination: w.dest, SourceAccount: w.other},
		merge(w.dest))
	wantVerdict(t, ledger.CheckClose(env, w.state), ledger.PreflightBlocked, "op_seq_num_too_far")
}

func TestAccountContradiction(t *testing.T) {
	w := newWorld(t)
	a := w.acc()
	if why := a.Contradiction(); why != "" {
		t.Fatalf("a plain account: %q", why)
	}
	w.hold(t, usd, 0)
	if why := a.Contradiction(); why != "" {
		t.Fatalf("a trustline counted: %q", why)
	}
	a.NumSubEntries = 0
	if why := a.Contradiction(); why == "" {
		t.Error("a trustline listed and no sub-entry counted: no contradiction")
	}
	a.NumSubEntries = math.MaxUint32
	if why := a.Contradiction(); why != "" {
		t.Errorf("more sub-entries counted than listed (not all listed): %q", why)
	}
}
