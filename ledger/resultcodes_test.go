package ledger_test

import (
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/xdr"
)

func innerResult(tr xdr.OperationResultTr) xdr.OperationResult {
	return xdr.OperationResult{Code: xdr.OperationResultCodeOpInner, Tr: &tr}
}

// TestOpResultCodeEveryCode spells every code of every operation type the
// double models as Horizon's result_codes does: a literal table, so that a
// change of spelling is a change of this test.
func TestOpResultCodeEveryCode(t *testing.T) {
	cases := []struct {
		name string
		make func(int32) xdr.OperationResult
		want []row
		// valid reports whether code is a value of the XDR enum.
		valid func(int32) bool
	}{
		{"create_account", func(c int32) xdr.OperationResult {
			return innerResult(xdr.OperationResultTr{Type: xdr.OperationTypeCreateAccount, CreateAccountResult: &xdr.CreateAccountResult{Code: xdr.CreateAccountResultCode(c)}})
		}, []row{{0, "op_success"}, {-1, "op_malformed"}, {-2, "op_underfunded"}, {-3, "op_low_reserve"}, {-4, "op_already_exists"}},
			func(c int32) bool { return xdr.CreateAccountResultCode(0).ValidEnum(c) }},
		{"payment", func(c int32) xdr.OperationResult {
			return innerResult(xdr.OperationResultTr{Type: xdr.OperationTypePayment, PaymentResult: &xdr.PaymentResult{Code: xdr.PaymentResultCode(c)}})
		}, []row{{0, "op_success"}, {-1, "op_malformed"}, {-2, "op_underfunded"}, {-3, "op_src_no_trust"}, {-4, "op_src_not_authorized"},
			{-5, "op_no_destination"}, {-6, "op_no_trust"}, {-7, "op_not_authorized"}, {-8, "op_line_full"}, {-9, "op_no_issuer"}},
			func(c int32) bool { return xdr.PaymentResultCode(0).ValidEnum(c) }},
		{"manage_sell_offer", func(c int32) xdr.OperationResult {
			return innerResult(xdr.OperationResultTr{Type: xdr.OperationTypeManageSellOffer, ManageSellOfferResult: &xdr.ManageSellOfferResult{Code: xdr.ManageSellOfferResultCode(c)}})
		}, offerRows(), func(c int32) bool { return xdr.ManageSellOfferResultCode(0).ValidEnum(c) }},
		{"manage_buy_offer", func(c int32) xdr.OperationResult {
			return innerResult(xdr.OperationResultTr{Type: xdr.OperationTypeManageBuyOffer, ManageBuyOfferResult: &xdr.ManageBuyOfferResult{Code: xdr.ManageBuyOfferResultCode(c)}})
		}, offerRows(), func(c int32) bool { return xdr.ManageBuyOfferResultCode(0).ValidEnum(c) }},
		{"change_trust", func(c int32) xdr.OperationResult {
			return innerResult(xdr.OperationResultTr{Type: xdr.OperationTypeChangeTrust, ChangeTrustResult: &xdr.ChangeTrustResult{Code: xdr.ChangeTrustResultCode(c)}})
		}, []row{{0, "op_success"}, {-1, "op_malformed"}, {-2, "op_no_issuer"}, {-3, "op_invalid_limit"}, {-4, "op_low_reserve"},
			{-5, "op_self_not_allowed"}, {-6, "op_trust_line_missing"}, {-7, "op_cannot_delete"}, {-8, "op_not_auth_maintain_liabilities"}},
			func(c int32) bool { return xdr.ChangeTrustResultCode(0).ValidEnum(c) }},
		{"manage_data", func(c int32) xdr.OperationResult {
			return innerResult(xdr.OperationResultTr{Type: xdr.OperationTypeManageData, ManageDataResult: &xdr.ManageDataResult{Code: xdr.ManageDataResultCode(c)}})
		}, []row{{0, "op_success"}, {-1, "op_not_supported_yet"}, {-2, "op_data_name_not_found"}, {-3, "op_low_reserve"}, {-4, "op_data_invalid_name"}},
			func(c int32) bool { return xdr.ManageDataResultCode(0).ValidEnum(c) }},
		{"set_options", func(c int32) xdr.OperationResult {
			return innerResult(xdr.OperationResultTr{Type: xdr.OperationTypeSetOptions, SetOptionsResult: &xdr.SetOptionsResult{Code: xdr.SetOptionsResultCode(c)}})
		}, []row{{0, "op_success"}, {-1, "op_low_reserve"}, {-2, "op_too_many_signers"}, {-3, "op_bad_flags"}, {-4, "op_invalid_inflation"},
			{-5, "op_cant_change"}, {-6, "op_unknown_flag"}, {-7, "op_threshold_out_of_range"}, {-8, "op_bad_signer"},
			{-9, "op_invalid_home_domain"}, {-10, "op_auth_revocable_required"}},
			func(c int32) bool { return xdr.SetOptionsResultCode(0).ValidEnum(c) }},
		{"account_merge", func(c int32) xdr.OperationResult {
			return innerResult(xdr.OperationResultTr{Type: xdr.OperationTypeAccountMerge, AccountMergeResult: &xdr.AccountMergeResult{Code: xdr.AccountMergeResultCode(c)}})
		}, []row{{0, "op_success"}, {-1, "op_malformed"}, {-2, "op_no_account"}, {-3, "op_immutable_set"}, {-4, "op_has_sub_entries"},
			{-5, "op_seq_num_too_far"}, {-6, "op_dest_full"}, {-7, "op_is_sponsor"}},
			func(c int32) bool { return xdr.AccountMergeResultCode(0).ValidEnum(c) }},
		{"bump_sequence", func(c int32) xdr.OperationResult {
			return innerResult(xdr.OperationResultTr{Type: xdr.OperationTypeBumpSequence, BumpSeqResult: &xdr.BumpSequenceResult{Code: xdr.BumpSequenceResultCode(c)}})
		}, []row{{0, "op_success"}, {-1, "op_bad_seq"}},
			func(c int32) bool { return xdr.BumpSequenceResultCode(0).ValidEnum(c) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			listed := map[int32]bool{}
			for _, r := range tc.want {
				listed[r.code] = true
				if got := ledger.OpResultCode(tc.make(r.code)); got != r.want {
					t.Errorf("code %d: %q, want %q", r.code, got, r.want)
				}
			}
			// Every value of the XDR enum is in the table: a code the SDK
			// gains shows here.
			for c := int32(-64); c <= 0; c++ {
				if tc.valid(c) && !listed[c] {
					t.Errorf("code %d of the XDR enum has no row", c)
				}
			}
			if got := ledger.OpResultCode(tc.make(-99)); got != "op_unknown" {
				t.Errorf("an unknown code: %q, want op_unknown", got)
			}
		})
	}
}

type row struct {
	code int32
	want string
}

func offerRows() []row {
	return []row{{0, "op_success"}, {-1, "op_malformed"}, {-2, "op_sell_no_trust"}, {-3, "op_buy_no_trust"}, {-4, "sell_not_authorized"},
		{-5, "buy_not_authorized"}, {-6, "op_line_full"}, {-7, "op_underfunded"}, {-8, "op_cross_self"},
		{-9, "op_sell_no_issuer"}, {-10, "buy_no_issuer"}, {-11, "op_offer_not_found"}, {-12, "op_low_reserve"}}
}

func TestOpResultCodeOuter(t *testing.T) {
	for c, want := range map[xdr.OperationResultCode]string{
		xdr.OperationResultCodeOpBadAuth:           "op_bad_auth",
		xdr.OperationResultCodeOpNoAccount:         "op_no_source_account",
		xdr.OperationResultCodeOpNotSupported:      "op_not_supported",
		xdr.OperationResultCodeOpTooManySubentries: "op_too_many_subentries",
		xdr.OperationResultCodeOpExceededWorkLimit: "op_exceeded_work_limit",
		xdr.OperationResultCodeOpTooManySponsoring: "op_too_many_sponsoring",
		xdr.OperationResultCode(-42):               "op_unknown",
	} {
		if got := ledger.OpResultCode(xdr.OperationResult{Code: c}); got != want {
			t.Errorf("%d: %q, want %q", c, got, want)
		}
	}
	// An inner result without its arm, or of a type not in the tables.
	if got := ledger.OpResultCode(xdr.OperationResult{Code: xdr.OperationResultCodeOpInner}); got != "op_unknown" {
		t.Errorf("no Tr: %q", got)
	}
	if got := ledger.OpResultCode(innerResult(xdr.OperationResultTr{Type: xdr.OperationTypePayment})); got != "op_unknown" {
		t.Errorf("no arm: %q", got)
	}
	if got := ledger.OpResultCode(innerResult(xdr.OperationResultTr{Type: xdr.OperationTypeInvokeHostFunction})); got != "op_unknown" {
		t.Errorf("a type not in the tables: %q", got)
	}
}

func TestTxResultCodes(t *testing.T) {
	want := map[xdr.TransactionResultCode]string{
		xdr.TransactionResultCodeTxFeeBumpInnerSuccess: "tx_fee_bump_inner_success",
		xdr.TransactionResultCodeTxSuccess:             "tx_success",
		xdr.TransactionResultCodeTxFailed:              "tx_failed",
		xdr.TransactionResultCodeTxTooEarly:            "tx_too_early",
		xdr.TransactionResultCodeTxTooLate:             "tx_too_late",
		xdr.TransactionResultCodeTxMissingOperation:    "tx_missing_operation",
		xdr.TransactionResultCodeTxBadSeq:              "tx_bad_seq",
		xdr.TransactionResultCodeTxBadAuth:             "tx_bad_auth",
		xdr.TransactionResultCodeTxInsufficientBalance: "tx_insufficient_balance",
		xdr.TransactionResultCodeTxNoAccount:           "tx_no_source_account",
		xdr.TransactionResultCodeTxInsufficientFee:     "tx_insufficient_fee",
		xdr.TransactionResultCodeTxBadAuthExtra:        "tx_bad_auth_extra",
		xdr.TransactionResultCodeTxInternalError:       "tx_internal_error",
		xdr.TransactionResultCodeTxNotSupported:        "tx_not_supported",
		xdr.TransactionResultCodeTxFeeBumpInnerFailed:  "tx_fee_bump_inner_failed",
		xdr.TransactionResultCodeTxBadSponsorship:      "tx_bad_sponsorship",
		xdr.TransactionResultCodeTxBadMinSeqAgeOrGap:   "tx_bad_minseq_age_or_gap",
		xdr.TransactionResultCodeTxMalformed:           "tx_malformed",
		xdr.TransactionResultCodeTxSorobanInvalid:      "tx_soroban_invalid",
		xdr.TransactionResultCodeTxFrozenKeyAccessed:   "tx_frozen_key_accessed",
	}
	for c := int32(-64); c <= 64; c++ {
		if xdr.TransactionResultCode(0).ValidEnum(c) {
			if _, ok := want[xdr.TransactionResultCode(c)]; !ok {
				t.Errorf("transaction result code %d of the XDR enum has no row", c)
			}
		}
	}
	for c, w := range want {
		if got, ops := ledger.TxResultCodes(xdr.TransactionResult{Result: xdr.TransactionResultResult{Code: c}}); got != w || ops != nil {
			t.Errorf("%d: %q %v, want %q", c, got, ops, w)
		}
	}
	if got := ledger.TxResultCode(xdr.TransactionResultCode(-77)); got != "tx_unknown" {
		t.Errorf("unknown: %q", got)
	}
	results := []xdr.OperationResult{
		innerResult(xdr.OperationResultTr{Type: xdr.OperationTypeManageData, ManageDataResult: &xdr.ManageDataResult{Code: 0}}),
		innerResult(xdr.OperationResultTr{Type: xdr.OperationTypeAccountMerge, AccountMergeResult: &xdr.AccountMergeResult{Code: xdr.AccountMergeResultCodeAccountMergeSeqnumTooFar}}),
	}
	code, ops := ledger.TxResultCodes(xdr.TransactionResult{Result: xdr.TransactionResultResult{Code: xdr.TransactionResultCodeTxFailed, Results: &results}})
	if code != "tx_failed" || len(ops) != 2 || ops[0] != "op_success" || ops[1] != "op_seq_num_too_far" {
		t.Errorf("tx_failed: %q %v", code, ops)
	}
}
