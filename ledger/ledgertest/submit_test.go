package ledgertest_test

import (
	"context"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	horizonapi "github.com/closerelay/closerelay/ledgerapi/horizon"
	"github.com/stellar/go-stellar-sdk/clients/horizonclient"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

const startSeq = 1 << 32 // every account's sequence number in AccountDetail

// twoOfThree is an account with two extra signers and its master, weight 1
// each, that needs 2 for a merge (and 1 for the transaction's source).
func twoOfThree(seed int) ledgertest.Account {
	a := ledgertest.DeterministicAccount(seed, 2, 1)
	a.Thresholds.LowThreshold, a.Thresholds.MedThreshold, a.Thresholds.HighThreshold = 1, 2, 2
	return a
}

var dest = ledgertest.Keypair(99).Address()

// closeOf is an unsigned close of a at sequence number seq.
func closeOf(a ledgertest.Account, seq int64) string {
	b64, _ := ledgertest.BuildClose(a.Master, dest, seq, 0, pass)
	return b64
}

// wantRefusal fails unless err is Horizon's transaction_failed problem with
// transaction code code (and operation codes ops, when given) for envelope
// b64, with a result_xdr carrying the same code.
func wantRefusal(t *testing.T, err error, b64, code string, ops ...string) {
	t.Helper()
	var herr *horizonclient.Error
	if !errors.As(err, &herr) {
		t.Fatalf("err = %v, want a horizonclient.Error", err)
	}
	p := herr.Problem
	if p.Status != 400 || p.Type != "https://stellar.org/horizon-errors/transaction_failed" || p.Title != "Transaction Failed" {
		t.Fatalf("problem = %+v, want 400 transaction_failed", p)
	}
	rc, rerr := herr.ResultCodes()
	if rerr != nil || rc.TransactionCode != code || strings.Join(rc.OperationCodes, ",") != strings.Join(ops, ",") {
		t.Fatalf("result codes = %+v (%v), want %s %v", rc, rerr, code, ops)
	}
	if env, err := herr.EnvelopeXDR(); err != nil || env != b64 {
		t.Errorf("envelope_xdr = %.20s… (%v), want the one submitted", env, err)
	}
	res, err := herr.ResultString()
	if err != nil {
		t.Fatalf("result_xdr: %v", err)
	}
	var tr xdr.TransactionResult
	if err := xdr.SafeUnmarshalBase64(res, &tr); err != nil {
		t.Fatalf("result_xdr does not decode: %v", err)
	}
	if tr.Result.Code == xdr.TransactionResultCodeTxSuccess || (code == "tx_failed") != (tr.Result.Results != nil) {
		t.Errorf("result_xdr = %+v for %s", tr.Result, code)
	}
}

// TestSubmitTwoOfThree: the account API double takes a close as the ledger
// would, through the SDK's own client (the relay's submission path).
func TestSubmitTwoOfThree(t *testing.T) {
	srv := ledgertest.New()
	defer srv.Close()
	a := twoOfThree(1)
	srv.AddAccount(a)
	srv.Fund(dest, 5_000_0000000) // the merge's destination must exist
	hc := &horizonclient.Client{HorizonURL: srv.URL}
	unsigned := closeOf(a, startSeq+1)

	// Every co-signer's signature: the merge's check stops at the second,
	// the third is unused.
	all := ledgertest.SignXDR(unsigned, pass, a.Keys...)
	_, err := hc.SubmitTransactionXDR(all)
	wantRefusal(t, err, all, "tx_bad_auth_extra")

	// One signature: the source's check (low, 1) passes, the merge's fails.
	one := ledgertest.SignXDR(unsigned, pass, a.Keys[1])
	_, err = hc.SubmitTransactionXDR(one)
	wantRefusal(t, err, one, "tx_failed", "op_bad_auth")

	if _, err := hc.AccountDetail(horizonclient.AccountRequest{AccountID: a.Address}); err != nil {
		t.Fatalf("a refused close removed the account: %v", err)
	}
	if seq, _ := srv.Sequence(a.Address); seq != startSeq {
		t.Fatalf("a refused close moved the sequence number to %d", seq)
	}

	// The submit-ready envelope: the selection's two signatures.
	env, err := ledger.DecodeEnvelope(unsigned)
	if err != nil {
		t.Fatal(err)
	}
	threshold := ledger.CloseThreshold(env, a.Address, ledger.Thresholds{Low: 1, Medium: 2, High: 2})
	sel, ok := ledger.SelectReady([]int32{1, 1, 1}, threshold)
	if !ok || len(sel) != 2 {
		t.Fatalf("SelectReady = %v, %v", sel, ok)
	}
	ready := ledgertest.SignXDR(unsigned, pass, a.Keys[sel[0]], a.Keys[sel[1]])
	tx, err := hc.SubmitTransactionXDR(ready)
	if err != nil {
		t.Fatalf("ready envelope: %v", err)
	}
	hash := ledgertest.Hash(ready, pass)
	if !tx.Successful || tx.Hash != hex.EncodeToString(hash[:]) || tx.ID != tx.Hash || tx.Ledger < 1 ||
		tx.Account != a.Address || tx.AccountSequence != startSeq+1 || tx.EnvelopeXdr != ready ||
		tx.OperationCount != 1 || len(tx.Signatures) != 2 || tx.PT == "" {
		t.Fatalf("success = %+v", tx)
	}
	var tr xdr.TransactionResult
	if err := xdr.SafeUnmarshalBase64(tx.ResultXdr, &tr); err != nil {
		t.Fatalf("result_xdr: %v", err)
	}
	if tr.Result.Code != xdr.TransactionResultCodeTxSuccess || len(*tr.Result.Results) != 1 ||
		(*tr.Result.Results)[0].Tr.AccountMergeResult.Code != xdr.AccountMergeResultCodeAccountMergeSuccess ||
		*(*tr.Result.Results)[0].Tr.AccountMergeResult.SourceAccountBalance != xdr.Int64(ledgertest.DefaultBalance-100) { // the fee was charged first
		t.Errorf("result = %+v", tr.Result)
	}

	var herr *horizonclient.Error
	if _, err := hc.AccountDetail(horizonclient.AccountRequest{AccountID: a.Address}); !errors.As(err, &herr) || herr.Problem.Status != 404 {
		t.Fatalf("merged account: %v, want 404", err)
	}
	// The same transaction again: Horizon answers the transaction it has.
	again, err := hc.SubmitTransactionXDR(ready)
	if err != nil || again.Hash != tx.Hash || again.Ledger != tx.Ledger {
		t.Fatalf("resubmission = %+v, %v; want the same success", again, err)
	}
	if srv.Applied() != 1 || srv.Submissions() != 4 {
		t.Errorf("applied %d of %d submissions, want 1 of 4", srv.Applied(), srv.Submissions())
	}
}

func TestSubmitRefusals(t *testing.T) {
	srv := ledgertest.New()
	defer srv.Close()
	hc := &horizonclient.Client{HorizonURL: srv.URL}
	now := time.Unix(1_800_000_000, 0)
	srv.SetClock(func() time.Time { return now })
	srv.Fund(dest, 5_000_0000000) // the merges' destination must exist

	submit := func(b64 string) error {
		_, err := hc.SubmitTransactionXDR(b64)
		return err
	}

	t.Run("sequence number", func(t *testing.T) {
		a := twoOfThree(2)
		srv.AddAccount(a)
		for _, seq := range []int64{startSeq, startSeq + 2, 1} {
			b64 := ledgertest.SignXDR(closeOf(a, seq), pass, a.Keys[0], a.Keys[1])
			wantRefusal(t, submit(b64), b64, "tx_bad_seq")
		}
		if !srv.SetSequence(a.Address, 41) {
			t.Fatal("SetSequence: unknown account")
		}
		b64 := ledgertest.SignXDR(closeOf(a, 42), pass, a.Keys[0], a.Keys[1])
		if err := submit(b64); err != nil {
			t.Fatalf("sequence 41+1: %v", err)
		}
	})

	t.Run("time bounds", func(t *testing.T) {
		a := twoOfThree(3)
		srv.AddAccount(a)
		late, _ := ledgertest.BuildClose(a.Master, dest, startSeq+1, now.Unix()-1, pass, a.Keys[0], a.Keys[1])
		wantRefusal(t, submit(late), late, "tx_too_late")
		early := ledgertest.SignXDR(mutate(t, closeOf(a, startSeq+1), func(env *xdr.TransactionEnvelope) {
			env.V1.Tx.Cond.TimeBounds.MinTime = xdr.TimePoint(now.Unix() + 1)
		}), pass, a.Keys[0], a.Keys[1])
		wantRefusal(t, submit(early), early, "tx_too_early")
		onTime, _ := ledgertest.BuildClose(a.Master, dest, startSeq+1, now.Unix(), pass, a.Keys[0], a.Keys[1])
		if err := submit(onTime); err != nil {
			t.Fatalf("max_time = now: %v", err)
		}
	})

	t.Run("signatures", func(t *testing.T) {
		a := twoOfThree(4)
		srv.AddAccount(a)
		unsigned := closeOf(a, startSeq+1)
		wantRefusal(t, submit(unsigned), unsigned, "tx_bad_auth")
		stranger := ledgertest.SignXDR(unsigned, pass, a.Keys[0], a.Keys[1], ledgertest.Keypair(98))
		wantRefusal(t, submit(stranger), stranger, "tx_bad_auth_extra")
		forged := ledgertest.SignXDRWithHint(ledgertest.SignXDR(unsigned, pass, a.Keys[0]), pass, a.Keys[1], a.Keys[2].Hint())
		wantRefusal(t, submit(forged), forged, "tx_failed", "op_bad_auth")

		srv.SetNetwork(ledger.Mainnet)
		testnet := ledgertest.SignXDR(unsigned, pass, a.Keys[0], a.Keys[1])
		wantRefusal(t, submit(testnet), testnet, "tx_bad_auth")
		srv.SetNetwork(ledger.Testnet)
		if err := submit(testnet); err != nil {
			t.Fatalf("back on testnet: %v", err)
		}
	})

	t.Run("fee payer", func(t *testing.T) {
		a, payer := twoOfThree(5), ledgertest.DeterministicAccount(6, 0, 1)
		srv.AddAccount(a)
		srv.AddAccount(payer)
		unsigned, _ := ledgertest.BuildTx(payer.Address, startSeq+1, 0, pass,
			[]txnbuild.Operation{&txnbuild.AccountMerge{Destination: dest, SourceAccount: a.Address}})
		closing := ledgertest.SignXDR(unsigned, pass, a.Keys[0], a.Keys[1])
		wantRefusal(t, submit(closing), closing, "tx_bad_auth")
		full := ledgertest.SignXDR(unsigned, pass, payer.Master, a.Keys[0], a.Keys[1])
		if err := submit(full); err != nil {
			t.Fatalf("payer and 2 of 3: %v", err)
		}
		if _, ok := srv.Sequence(a.Address); ok {
			t.Error("the merged account remains")
		}
		if seq, ok := srv.Sequence(payer.Address); !ok || seq != startSeq+1 {
			t.Errorf("payer's sequence = %d, %v; want %d", seq, ok, startSeq+1)
		}
	})

	t.Run("no source account", func(t *testing.T) {
		ghost := ledgertest.DeterministicAccount(7, 0, 1)
		b64, _ := ledgertest.BuildClose(ghost.Master, dest, startSeq+1, 0, pass, ghost.Master)
		wantRefusal(t, submit(b64), b64, "tx_no_source_account")
	})

	t.Run("malformed", func(t *testing.T) {
		var herr *horizonclient.Error
		err := submit("AAAA")
		if !errors.As(err, &herr) || herr.Problem.Status != 400 || herr.Problem.Type != "https://stellar.org/horizon-errors/transaction_malformed" {
			t.Errorf("undecodable: %v", err)
		}
		a := twoOfThree(8)
		fb := ledgertest.FeeBump(ledgertest.SignXDR(closeOf(a, startSeq+1), pass, a.Keys[0]), a.Master, pass)
		if err := submit(fb); !errors.As(err, &herr) || herr.Problem.Status != 400 {
			t.Errorf("fee-bump: %v, want 400", err)
		}
	})
}

// TestSubmitFaults: the scripted faults a submitter's retries are tested
// against, in fake time.
func TestSubmitFaults(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := ledgertest.NewHandler()
		a := twoOfThree(10)
		h.AddAccount(a)
		h.Fund(dest, 5_000_0000000)
		ready := ledgertest.SignXDR(closeOf(a, startSeq+1), pass, a.Keys[0], a.Keys[1])
		submit := func(timeout time.Duration) (int, error) {
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			doer := &horizonapi.HorizonDoer{Ctx: ctx, Client: &http.Client{Transport: h.Transport()}}
			hc := &horizonclient.Client{HorizonURL: "http://double.invalid/", HTTP: doer}
			_, err := hc.SubmitTransactionXDR(ready)
			return doer.Status, err
		}

		h.FailSubmissions(1, http.StatusTooManyRequests)
		h.FailSubmissions(1, http.StatusServiceUnavailable)
		h.FailSubmissions(1, http.StatusGatewayTimeout)
		h.StallSubmissions(1)
		var herr *horizonclient.Error
		for _, want := range []struct {
			status int
			typ    string
		}{{429, "rate_limit_exceeded"}, {503, "service_unavailable"}, {504, "timeout"}} {
			status, err := submit(time.Second)
			if status != want.status || !errors.As(err, &herr) || herr.Problem.Type != "https://stellar.org/horizon-errors/"+want.typ {
				t.Fatalf("got %d %v, want %d %s", status, err, want.status, want.typ)
			}
		}
		start := time.Now()
		if _, err := submit(5 * time.Second); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != 5*time.Second {
			t.Fatalf("stalled submission: %v after %v, want the deadline after 5s", err, time.Since(start))
		}
		if h.Applied() != 0 {
			t.Fatal("a fault applied the transaction")
		}

		// The answer of a success is lost: the account is gone all the
		// same, and the retry answers the success.
		h.DropAnswers(1)
		if _, err := submit(5 * time.Second); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("dropped answer: %v", err)
		}
		if _, ok := h.Sequence(a.Address); ok || h.Applied() != 1 {
			t.Fatal("the dropped success did not apply")
		}
		if status, err := submit(time.Second); status != 200 || err != nil {
			t.Fatalf("retry after a dropped answer: %d %v", status, err)
		}

		h.SetFailing(true)
		if status, _ := submit(time.Second); status != 500 {
			t.Errorf("failing double: %d, want 500", status)
		}
		h.SetFailing(false)
		if got := h.Submissions(); got != 7 {
			t.Errorf("Submissions = %d, want 7", got)
		}
	})
}

// TestSubmitMinSeqNum: a V2 precondition's min_seq_num relaxes the
// sequence check to min_seq_num <= account's < transaction's.
func TestSubmitMinSeqNum(t *testing.T) {
	srv := ledgertest.New()
	defer srv.Close()
	hc := &horizonclient.Client{HorizonURL: srv.URL}
	a := twoOfThree(11)
	srv.AddAccount(a)
	srv.Fund(dest, 5_000_0000000)
	withMin := func(seq, minSeq int64) string {
		return ledgertest.SignXDR(mutate(t, closeOf(a, seq), func(env *xdr.TransactionEnvelope) {
			m := xdr.SequenceNumber(minSeq)
			env.V1.Tx.Cond = xdr.Preconditions{Type: xdr.PreconditionTypePrecondV2, V2: &xdr.PreconditionsV2{
				TimeBounds: env.V1.Tx.Cond.TimeBounds, MinSeqNum: &m,
			}}
		}), pass, a.Keys[0], a.Keys[1])
	}
	bad := withMin(startSeq+10, startSeq+1)
	_, err := hc.SubmitTransactionXDR(bad)
	wantRefusal(t, err, bad, "tx_bad_seq")
	if _, err := hc.SubmitTransactionXDR(withMin(startSeq+10, startSeq-5)); err != nil {
		t.Fatalf("in range: %v", err)
	}
}

func mutate(t *testing.T, b64 string, f func(*xdr.TransactionEnvelope)) string {
	t.Helper()
	env, err := ledger.DecodeEnvelope(b64)
	if err != nil {
		t.Fatal(err)
	}
	f(&env)
	out, err := ledger.EncodeEnvelope(env)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
