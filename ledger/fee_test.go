package ledger_test

import (
	"errors"
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
)

// TestCheckFeeBumpSignatures: a fee-bump's own signatures against its fee
// source (FeeBumpTransactionFrame.cpp checkAllTransactionSignatures, then
// checkAllSignaturesUsed): the fee source's low threshold over the
// fee-bump's hash, each signature used; the inner signatures are not
// counted. A classic envelope is ErrNotFeeBump.
func TestCheckFeeBumpSignatures(t *testing.T) {
	k := keys(300, 4)
	inner, _ := ledgertest.BuildClose(k[0], k[3].Address(), 1<<32+1, 0, testPass, k[0])
	payer := k[1]
	auth := func(low uint8) map[string]ledger.AccountAuth {
		return map[string]ledger.AccountAuth{payer.Address(): {
			Signers:    []ledger.Signer{{Address: payer.Address(), Weight: 1}, {Address: k[2].Address(), Weight: 1}},
			Thresholds: ledger.Thresholds{Low: low, Medium: 2, High: 2},
		}}
	}
	bump := ledgertest.FeeBump(inner, payer, testPass)
	bumpHash := ledgertest.Hash(bump, testPass)
	both := ledgertest.AppendSignatures(bump, ledgertest.Signature(bumpHash, k[2]))
	extra := ledgertest.AppendSignatures(bump, ledgertest.Signature(bumpHash, k[3]))
	for _, tc := range []struct {
		name     string
		xdr      string
		accounts map[string]ledger.AccountAuth
		code     string
	}{
		{"the fee source's key at low 1", bump, auth(1), ""},
		{"one key short of low 2", bump, auth(2), ledger.TxBadAuth},
		{"both keys at low 2", both, auth(2), ""},
		{"a signature of no signer", extra, auth(1), ledger.TxBadAuthExtra},
		{"no fee source", bump, map[string]ledger.AccountAuth{}, ledger.TxNoSourceAccount},
	} {
		env, err := ledger.DecodeEnvelope(tc.xdr)
		if err != nil {
			t.Fatal(err)
		}
		hash, err := ledger.HashEnvelope(env, testPass)
		if err != nil {
			t.Fatal(err)
		}
		res, err := ledger.CheckFeeBumpSignatures(env, hash, tc.accounts)
		if err != nil || res.Code != tc.code {
			t.Errorf("%s: code %q (%v), want %q", tc.name, res.Code, err, tc.code)
		}
	}
	env, _ := ledger.DecodeEnvelope(inner)
	if _, err := ledger.CheckFeeBumpSignatures(env, [32]byte{}, auth(1)); !errors.Is(err, ledger.ErrNotFeeBump) {
		t.Errorf("a classic envelope: %v", err)
	}
}

// TestParseFeeStats: statistics with every field, agreeing with
// themselves, are read; a missing field or a contradiction is unknown.
func TestParseFeeStats(t *testing.T) {
	s := func(v string) *string { return &v }
	if st, why := ledger.ParseFeeStats(s("150"), s("100"), s("900"), s("100"), true); why != "" || st.Network != 150 || st.BaseFee != 100 {
		t.Fatalf("ParseFeeStats = %+v, %q", st, why)
	}
	if st, why := ledger.ParseFeeStats(s("150"), s("100"), s("900"), nil, false); why != "" || st.Network != 150 || st.BaseFee != 0 {
		t.Fatalf("without a base fee: %+v, %q", st, why)
	}
	for name, c := range map[string][4]*string{
		"no p70": {nil, s("100"), s("900"), s("100")}, "no min": {s("150"), nil, s("900"), s("100")},
		"no base fee": {s("150"), s("100"), s("900"), nil}, "not decimal": {s("1e3"), s("100"), s("900"), s("100")},
		"p70 above max": {s("901"), s("100"), s("900"), s("100")}, "p70 below min": {s("99"), s("100"), s("900"), s("100")},
		"zeros": {s("0"), s("0"), s("0"), s("100")}, "negative base fee": {s("150"), s("100"), s("900"), s("-1")},
	} {
		if st, why := ledger.ParseFeeStats(c[0], c[1], c[2], c[3], true); why == "" {
			t.Errorf("%s: read as %+v", name, st)
		}
	}
	bid := ledger.FeeAdvice{Bid: 100, Stats: &ledger.FeeStats{Network: 101}}
	if !bid.Known() || !bid.Low() || (ledger.FeeAdvice{Bid: 100}).Low() || (ledger.FeeAdvice{Bid: 101, Stats: &ledger.FeeStats{Network: 101}}).Low() {
		t.Error("Low is not bid < network, unknown never low")
	}
}
