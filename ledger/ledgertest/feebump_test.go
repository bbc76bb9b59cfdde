package ledgertest_test

import (
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// outcome is how one submission through one of the double's faces ended:
// whether the face said the ledger applied it (RPC: PENDING, then its
// outcome; Horizon: 200, never for a tx_failed), the TransactionResult
// the face gave, and (Horizon) the transaction JSON or the result codes.
type outcome struct {
	applied   bool
	result    xdr.TransactionResult
	tx        map[string]any // Horizon's success JSON
	codes     map[string]any // Horizon's extras.result_codes
	rpcStatus string         // sendTransaction's status
}

// face submits an envelope through one face of the double.
type face struct {
	name   string
	submit func(t *testing.T, h *ledgertest.Handler, b64 string) outcome
}

var faces = []face{
	{"horizon", func(t *testing.T, h *ledgertest.Handler, b64 string) outcome {
		t.Helper()
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/transactions", strings.NewReader(url.Values{"tx": {b64}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		h.ServeHTTP(rec, req)
		var body map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatalf("POST /transactions: %d %s", rec.Code, rec.Body.String())
		}
		var o outcome
		var res string
		switch rec.Code {
		case http.StatusOK:
			o.applied, o.tx = true, body
			res, _ = body["result_xdr"].(string)
		case http.StatusBadRequest:
			extras, _ := body["extras"].(map[string]any)
			o.codes, _ = extras["result_codes"].(map[string]any)
			res, _ = extras["result_xdr"].(string)
		default:
			t.Fatalf("POST /transactions: %d %s", rec.Code, rec.Body.String())
		}
		if err := xdr.SafeUnmarshalBase64(res, &o.result); err != nil {
			t.Fatalf("result_xdr %q: %v (%s)", res, err, rec.Body.String())
		}
		return o
	}},
	{"rpc", func(t *testing.T, h *ledgertest.Handler, b64 string) outcome {
		t.Helper()
		_, out := rpcCall(t, h, `{"jsonrpc":"2.0","id":1,"method":"sendTransaction","params":{"transaction":"`+b64+`"}}`)
		r, _ := out["result"].(map[string]any)
		o := outcome{}
		o.rpcStatus, _ = r["status"].(string)
		var res string
		switch o.rpcStatus {
		case "ERROR":
			res, _ = r["errorResultXdr"].(string)
		case "PENDING":
			hash, _ := r["hash"].(string)
			_, got := rpcCall(t, h, `{"jsonrpc":"2.0","id":2,"method":"getTransaction","params":{"hash":"`+hash+`"}}`)
			g, _ := got["result"].(map[string]any)
			o.applied = true
			res, _ = g["resultXdr"].(string)
			if s, _ := g["status"].(string); s != "SUCCESS" && s != "FAILED" {
				t.Fatalf("getTransaction: %v", got)
			}
		default:
			t.Fatalf("sendTransaction: %v", out)
		}
		if err := xdr.SafeUnmarshalBase64(res, &o.result); err != nil {
			t.Fatalf("result %q: %v (%v)", res, err, out)
		}
		return o
	}},
}

// bumpOf wraps the classic V1 envelope inner in a fee-bump of fee stroops
// paid by feeSource, signed by signers: built by hand, so that a test can
// make the bumps txnbuild refuses to build.
func bumpOf(t *testing.T, inner, feeSource string, fee int64, signers ...*keypair.Full) string {
	t.Helper()
	var in xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(inner, &in); err != nil || in.V1 == nil {
		t.Fatalf("inner: %v", err)
	}
	env := xdr.TransactionEnvelope{Type: xdr.EnvelopeTypeEnvelopeTypeTxFeeBump, FeeBump: &xdr.FeeBumpTransactionEnvelope{
		Tx: xdr.FeeBumpTransaction{FeeSource: xdr.MustMuxedAddress(feeSource), Fee: xdr.Int64(fee),
			InnerTx: xdr.FeeBumpTransactionInnerTx{Type: xdr.EnvelopeTypeEnvelopeTypeTx, V1: in.V1}},
	}}
	hash, err := network.HashTransactionInEnvelope(env, pass)
	if err != nil {
		t.Fatal(err)
	}
	for _, kp := range signers {
		env.FeeBump.Signatures = append(env.FeeBump.Signatures, ledgertest.Signature(hash, kp))
	}
	b64, err := xdr.MarshalBase64(env)
	if err != nil {
		t.Fatal(err)
	}
	return b64
}

// innerWithFee is a close of a at seq bidding fee stroops, signed by a's
// master (a needs 1).
func innerWithFee(t *testing.T, a ledgertest.Account, fee int64) string {
	t.Helper()
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount: &txnbuild.SimpleAccount{AccountID: a.Address, Sequence: startSeq + 1},
		Operations:    []txnbuild.Operation{&txnbuild.AccountMerge{Destination: dest}},
		BaseFee:       fee, Preconditions: txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout()},
	})
	if err == nil {
		tx, err = tx.Sign(pass, a.Master)
	}
	if err != nil {
		t.Fatal(err)
	}
	b64, err := tx.Base64()
	if err != nil {
		t.Fatal(err)
	}
	return b64
}

// bumpWorld is a double holding a one-signature account to close, its
// destination, and a fee source whose low threshold is 2 (two keys of
// weight 1 each).
type bumpWorld struct {
	h        *ledgertest.Handler
	a        ledgertest.Account
	payer    ledgertest.Account
	close    string // a's submit-ready close, bidding 100
	balanceA int64
}

func newBumpWorld(t *testing.T) *bumpWorld {
	t.Helper()
	h := ledgertest.NewHandler()
	a := ledgertest.DeterministicAccount(41, 0, 1)
	h.AddAccount(a)
	h.Fund(dest, 5_000_0000000)
	payer := ledgertest.DeterministicAccount(42, 1, 1)
	payer.Thresholds.LowThreshold = 2
	h.AddAccount(payer)
	w := &bumpWorld{h: h, a: a, payer: payer}
	w.close, _ = ledgertest.BuildClose(a.Master, dest, startSeq+1, 0, pass, a.Master)
	w.balanceA, _ = h.Balance(a.Address)
	return w
}

func (w *bumpWorld) balance(t *testing.T, id string) int64 {
	t.Helper()
	b, ok := w.h.Balance(id)
	if !ok {
		return -1
	}
	return b
}

// TestFeeBumpRules: the double applies fee-bumps with stellar-core's rules
// (FeeBumpTransactionFrame.cpp checkValid, then the inner transaction's
// TransactionFrame.cpp checks with no fee charged to it), each refusal
// changing nothing, on both faces.
func TestFeeBumpRules(t *testing.T) {
	type tc struct {
		name  string
		setup func(w *bumpWorld)
		bump  func(t *testing.T, w *bumpWorld) string
		code  xdr.TransactionResultCode
		inner xdr.TransactionResultCode // for tx_fee_bump_inner_failed
		// applied: the fee source pays and the inner sequence number is
		// spent (an inner operation failing at apply).
		applied bool
	}
	both := func(w *bumpWorld) []*keypair.Full { return w.payer.Keys }
	cases := []tc{
		{name: "outer fee below (operations + 1) × base fee", code: xdr.TransactionResultCodeTxInsufficientFee,
			bump: func(t *testing.T, w *bumpWorld) string { return bumpOf(t, w.close, w.payer.Address, 199, both(w)...) }},
		{name: "outer rate below the inner rate", code: xdr.TransactionResultCodeTxInsufficientFee,
			// inner 1000 for 1 op; outer 1999 for 2 is 999.5 a slot.
			bump: func(t *testing.T, w *bumpWorld) string {
				return bumpOf(t, innerWithFee(t, w.a, 1000), w.payer.Address, 1999, both(w)...)
			}},
		{name: "negative outer fee", code: xdr.TransactionResultCodeTxMalformed,
			bump: func(t *testing.T, w *bumpWorld) string { return bumpOf(t, w.close, w.payer.Address, -1, both(w)...) }},
		{name: "fee source unknown", code: xdr.TransactionResultCodeTxNoAccount,
			bump: func(t *testing.T, w *bumpWorld) string {
				k := ledgertest.Keypair(4399)
				return bumpOf(t, w.close, k.Address(), 200, k)
			}},
		{name: "fee source signatures below its low threshold", code: xdr.TransactionResultCodeTxBadAuth,
			bump: func(t *testing.T, w *bumpWorld) string {
				return bumpOf(t, w.close, w.payer.Address, 200, w.payer.Master)
			}},
		{name: "inner signatures do not sign the fee-bump", code: xdr.TransactionResultCodeTxBadAuth,
			bump: func(t *testing.T, w *bumpWorld) string { return bumpOf(t, w.close, w.a.Address, 200) }},
		{name: "fee source balance below the outer fee", code: xdr.TransactionResultCodeTxInsufficientBalance,
			setup: func(w *bumpWorld) { w.h.SetBalance(w.payer.Address, 2*5_000_000+5_000_000+199) }, // reserve: 2 + 1 signer
			bump:  func(t *testing.T, w *bumpWorld) string { return bumpOf(t, w.close, w.payer.Address, 200, both(w)...) }},
		{name: "a fee-bump signature no check used", code: xdr.TransactionResultCodeTxBadAuthExtra,
			bump: func(t *testing.T, w *bumpWorld) string {
				return bumpOf(t, w.close, w.payer.Address, 200, append(both(w), ledgertest.Keypair(4400))...)
			}},
		{name: "inner sequence number", code: xdr.TransactionResultCodeTxFeeBumpInnerFailed, inner: xdr.TransactionResultCodeTxBadSeq,
			bump: func(t *testing.T, w *bumpWorld) string {
				stale, _ := ledgertest.BuildClose(w.a.Master, dest, startSeq+2, 0, pass, w.a.Master)
				return bumpOf(t, stale, w.payer.Address, 200, both(w)...)
			}},
		{name: "inner unsigned", code: xdr.TransactionResultCodeTxFeeBumpInnerFailed, inner: xdr.TransactionResultCodeTxBadAuth,
			bump: func(t *testing.T, w *bumpWorld) string {
				return bumpOf(t, ledgertest.StripSignatures(w.close), w.payer.Address, 200, both(w)...)
			}},
		{name: "inner operation fails when applied", code: xdr.TransactionResultCodeTxFeeBumpInnerFailed, inner: xdr.TransactionResultCodeTxFailed, applied: true,
			bump: func(t *testing.T, w *bumpWorld) string {
				nowhere, _ := ledgertest.BuildClose(w.a.Master, ledgertest.Keypair(4401).Address(), startSeq+1, 0, pass, w.a.Master)
				return bumpOf(t, nowhere, w.payer.Address, 200, both(w)...)
			}},
	}
	for _, f := range faces {
		for _, c := range cases {
			t.Run(f.name+"/"+c.name, func(t *testing.T) {
				w := newBumpWorld(t)
				if c.setup != nil {
					c.setup(w)
				}
				payerBefore := w.balance(t, w.payer.Address)
				b64 := c.bump(t, w)
				o := f.submit(t, w.h, b64)
				// Horizon answers 400 for a fee-bump applied with its inner
				// transaction failed as for one refused: the state tells.
				if o.result.Result.Code != c.code || (f.name == "rpc" && o.applied != c.applied) {
					t.Fatalf("result %v applied %v, want %v applied %v", o.result.Result.Code, o.applied, c.code, c.applied)
				}
				if c.code == xdr.TransactionResultCodeTxFeeBumpInnerFailed {
					pair := o.result.Result.InnerResultPair
					if pair == nil || pair.Result.Result.Code != c.inner || pair.Result.FeeCharged != 0 {
						t.Fatalf("inner result %+v, want %v charging nothing", pair, c.inner)
					}
				}
				if f.name == "horizon" {
					wantCode := map[xdr.TransactionResultCode]string{
						xdr.TransactionResultCodeTxInsufficientFee: "tx_insufficient_fee", xdr.TransactionResultCodeTxMalformed: "tx_malformed",
						xdr.TransactionResultCodeTxNoAccount: "tx_no_source_account", xdr.TransactionResultCodeTxBadAuth: "tx_bad_auth",
						xdr.TransactionResultCodeTxInsufficientBalance: "tx_insufficient_balance", xdr.TransactionResultCodeTxBadAuthExtra: "tx_bad_auth_extra",
						xdr.TransactionResultCodeTxFeeBumpInnerFailed: "tx_fee_bump_inner_failed",
					}[c.code]
					wantInner := map[xdr.TransactionResultCode]string{xdr.TransactionResultCodeTxBadSeq: "tx_bad_seq",
						xdr.TransactionResultCodeTxBadAuth: "tx_bad_auth", xdr.TransactionResultCodeTxFailed: "tx_failed"}[c.inner]
					if inner, _ := o.codes["inner_transaction"].(string); o.codes["transaction"] != wantCode || inner != wantInner {
						t.Fatalf("result_codes %v, want %s / %q", o.codes, wantCode, wantInner)
					}
					if c.applied && strings.Join(toStrings(o.codes["operations"]), ",") != "op_no_account" {
						t.Errorf("operations %v, want op_no_account", o.codes["operations"])
					}
				}
				seq, _ := w.h.Sequence(w.a.Address)
				switch payerAfter := w.balance(t, w.payer.Address); {
				case c.applied && (payerAfter != payerBefore-200 || seq != startSeq+1 || w.balance(t, w.a.Address) != w.balanceA):
					t.Errorf("applied: fee source %d → %d, inner sequence %d, inner balance %d", payerBefore, payerAfter, seq, w.balance(t, w.a.Address))
				case !c.applied && (payerAfter != payerBefore || seq != startSeq || w.h.Applied() != 0):
					t.Errorf("refused, yet the fee source went %d → %d, the inner sequence to %d", payerBefore, payerAfter, seq)
				}
			})
		}
	}
}

func toStrings(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, s := range l {
		str, _ := s.(string)
		out = append(out, str)
	}
	return out
}

// TestFeeBumpLands: a raised fee floor refuses the close as built
// (tx_insufficient_fee) and takes it bumped: the fee source pays (the base
// fee for each inner operation plus one), the closing account pays
// nothing (the destination receives its whole balance), and the inner
// transaction keeps its hash and signatures. Sending the bump again, or
// the inner envelope alone, answers the same transaction (Horizon) or
// DUPLICATE (RPC). Both faces.
func TestFeeBumpLands(t *testing.T) {
	for _, f := range faces {
		t.Run(f.name, func(t *testing.T) {
			w := newBumpWorld(t)
			w.h.SetBaseFee(1000)
			if o := f.submit(t, w.h, w.close); o.applied || o.result.Result.Code != xdr.TransactionResultCodeTxInsufficientFee {
				t.Fatalf("the close under a raised floor: %v applied %v", o.result.Result.Code, o.applied)
			}
			if o := f.submit(t, w.h, bumpOf(t, w.close, w.payer.Address, 1999, w.payer.Keys...)); o.result.Result.Code != xdr.TransactionResultCodeTxInsufficientFee {
				t.Fatalf("a bump below the raised floor: %v", o.result.Result.Code)
			}
			payerBefore, destBefore := w.balance(t, w.payer.Address), w.balance(t, dest)
			b64 := bumpOf(t, w.close, w.payer.Address, 5000, w.payer.Keys...)
			o := f.submit(t, w.h, b64)
			innerHash := ledgertest.Hash(w.close, pass)
			if !o.applied || o.result.Result.Code != xdr.TransactionResultCodeTxFeeBumpInnerSuccess || o.result.FeeCharged != 2000 {
				t.Fatalf("the bump: %v applied %v charged %d", o.result.Result.Code, o.applied, o.result.FeeCharged)
			}
			pair := o.result.Result.InnerResultPair
			if pair == nil || pair.TransactionHash != innerHash || pair.Result.Result.Code != xdr.TransactionResultCodeTxSuccess || pair.Result.FeeCharged != 0 {
				t.Fatalf("inner result pair %+v", pair)
			}
			if got := w.balance(t, w.payer.Address); got != payerBefore-2000 {
				t.Errorf("fee source paid %d, want 2000", payerBefore-got)
			}
			if got := w.balance(t, dest); got != destBefore+w.balanceA {
				t.Errorf("destination received %d, want the closing account's whole %d", got-destBefore, w.balanceA)
			}
			if _, ok := w.h.Balance(w.a.Address); ok {
				t.Error("the closing account is still there")
			}
			if f.name == "horizon" {
				bumpHash := ledgertest.Hash(b64, pass)
				in, _ := o.tx["inner_transaction"].(map[string]any)
				fb, _ := o.tx["fee_bump_transaction"].(map[string]any)
				var env xdr.TransactionEnvelope
				_ = xdr.SafeUnmarshalBase64(w.close, &env)
				sigs := toStrings(in["signatures"])
				if o.tx["hash"] != hex.EncodeToString(bumpHash[:]) || o.tx["fee_account"] != w.payer.Address || o.tx["max_fee"] != "5000" ||
					o.tx["fee_charged"] != "2000" || in["hash"] != hex.EncodeToString(innerHash[:]) || fb["hash"] != o.tx["hash"] ||
					len(sigs) != 1 || len(toStrings(o.tx["signatures"])) != 2 || in["max_fee"] != "100" {
					t.Errorf("transaction JSON %v", o.tx)
				}
				again := f.submit(t, w.h, b64)
				byInner := f.submit(t, w.h, w.close)
				if !again.applied || again.tx["hash"] != o.tx["hash"] || !byInner.applied || byInner.tx["hash"] != hex.EncodeToString(innerHash[:]) {
					t.Errorf("resubmissions: %v / %v", again.tx["hash"], byInner.tx["hash"])
				}
			} else {
				_, out := rpcCall(t, w.h, `{"jsonrpc":"2.0","id":1,"method":"sendTransaction","params":{"transaction":"`+b64+`"}}`)
				if r, _ := out["result"].(map[string]any); r["status"] != "DUPLICATE" {
					t.Errorf("the bump again: %v", out)
				}
			}
			if w.h.Applied() < 1 {
				t.Error("nothing applied")
			}
		})
	}
}

// TestFeeStatsBothFaces: the double serves the network's fee statistics on
// both faces (Horizon's GET /fee_stats, RPC's getFeeStats), every
// percentile the base fee, which SetBaseFee raises.
func TestFeeStatsBothFaces(t *testing.T) {
	h := ledgertest.NewHandler()
	for _, base := range []int64{100, 700} {
		h.SetBaseFee(base)
		want := strconvI(base)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/fee_stats", nil))
		var st struct {
			LastLedgerBaseFee string            `json:"last_ledger_base_fee"`
			FeeCharged        map[string]string `json:"fee_charged"`
			MaxFee            map[string]string `json:"max_fee"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil || rec.Code != 200 {
			t.Fatalf("GET /fee_stats: %d %s", rec.Code, rec.Body.String())
		}
		if st.LastLedgerBaseFee != want || st.FeeCharged["p70"] != want || st.MaxFee["p70"] != want {
			t.Errorf("base fee %d: /fee_stats %+v", base, st)
		}
		_, out := rpcCall(t, h, `{"jsonrpc":"2.0","id":1,"method":"getFeeStats"}`)
		r, _ := out["result"].(map[string]any)
		inc, _ := r["inclusionFee"].(map[string]any)
		if inc["p70"] != want || inc["min"] != want || r["latestLedger"] == nil {
			t.Errorf("base fee %d: getFeeStats %v", base, out)
		}
	}
	h.FailFeeStats(true)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/fee_stats", nil))
	if rec.Code != http.StatusInternalServerError {
		t.Errorf("failing: %d", rec.Code)
	}
	if _, out := rpcCall(t, h, `{"jsonrpc":"2.0","id":1,"method":"getFeeStats"}`); out["error"] == nil {
		t.Errorf("failing getFeeStats: %v", out)
	}
	if _, out := rpcCall(t, h, `{"jsonrpc":"2.0","id":1,"method":"getLatestLedger"}`); out["error"] != nil {
		t.Errorf("failing fee statistics fail getLatestLedger: %v", out)
	}
}

func strconvI(v int64) string { return strconv.FormatInt(v, 10) }
