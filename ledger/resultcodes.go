package ledger

import "github.com/stellar/go-stellar-sdk/xdr"

// Result codes as Horizon spells them in result_codes, from the XDR a
// ledger API that does not spell them (Stellar RPC's resultXdr and
// errorResultXdr) gives. A submission's code must not depend on the API the
// relay talks to (CONTRACT section 15), so both backends report Horizon's
// spelling, which section 10 and the preflight's blockers already use. The
// tables follow Horizon's services/horizon/internal/codes.

// TxResultCodes is tr's transaction result code and, when the transaction
// was applied and failed (tx_failed), each operation's code in order. A
// fee-bump's inner failure is tx_fee_bump_inner_failed with no operation
// codes, as Horizon's result_codes.transaction gives it. A code this table
// does not know is tx_unknown.
func TxResultCodes(tr xdr.TransactionResult) (code string, ops []string) {
	code = TxResultCode(tr.Result.Code)
	if tr.Result.Code == xdr.TransactionResultCodeTxFailed && tr.Result.Results != nil {
		for _, r := range *tr.Result.Results {
			ops = append(ops, OpResultCode(r))
		}
	}
	return code, ops
}

// TxResultCode is c as Horizon spells it; tx_unknown for a code it does not
// know.
func TxResultCode(c xdr.TransactionResultCode) string {
	if s, ok := txResultNames[c]; ok {
		return s
	}
	return "tx_unknown"
}

var txResultNames = map[xdr.TransactionResultCode]string{
	xdr.TransactionResultCodeTxFeeBumpInnerSuccess: "tx_fee_bump_inner_success",
	xdr.TransactionResultCodeTxSuccess:             "tx_success",
	xdr.TransactionResultCodeTxFailed:              TxFailed,
	xdr.TransactionResultCodeTxTooEarly:            "tx_too_early",
	xdr.TransactionResultCodeTxTooLate:             "tx_too_late",
	xdr.TransactionResultCodeTxMissingOperation:    "tx_missing_operation",
	xdr.TransactionResultCodeTxBadSeq:              "tx_bad_seq",
	xdr.TransactionResultCodeTxBadAuth:             TxBadAuth,
	xdr.TransactionResultCodeTxInsufficientBalance: "tx_insufficient_balance",
	xdr.TransactionResultCodeTxNoAccount:           TxNoSourceAccount,
	xdr.TransactionResultCodeTxInsufficientFee:     "tx_insufficient_fee",
	xdr.TransactionResultCodeTxBadAuthExtra:        TxBadAuthExtra,
	xdr.TransactionResultCodeTxInternalError:       "tx_internal_error",
	xdr.TransactionResultCodeTxNotSupported:        "tx_not_supported",
	xdr.TransactionResultCodeTxFeeBumpInnerFailed:  "tx_fee_bump_inner_failed",
	xdr.TransactionResultCodeTxBadSponsorship:      "tx_bad_sponsorship",
	xdr.TransactionResultCodeTxBadMinSeqAgeOrGap:   "tx_bad_minseq_age_or_gap",
	xdr.TransactionResultCodeTxMalformed:           "tx_malformed",
	xdr.TransactionResultCodeTxSorobanInvalid:      "tx_soroban_invalid",
	xdr.TransactionResultCodeTxFrozenKeyAccessed:   "tx_frozen_key_accessed",
}

// OpResultCode is r's code as Horizon spells it: op_success for an applied
// operation, the outer code (op_bad_auth, op_no_source_account, …) when the
// operation was not run, else the operation type's own code. A code or
// operation type this table does not know is op_unknown.
func OpResultCode(r xdr.OperationResult) string {
	if r.Code != xdr.OperationResultCodeOpInner {
		if s, ok := opOuterNames[r.Code]; ok {
			return s
		}
		return "op_unknown"
	}
	if r.Tr == nil {
		return "op_unknown"
	}
	code, names, ok := innerCode(*r.Tr)
	switch {
	case !ok:
		return "op_unknown"
	case code == 0:
		return OpSuccess
	}
	if s, ok := names[code]; ok {
		return s
	}
	return "op_unknown"
}

var opOuterNames = map[xdr.OperationResultCode]string{
	xdr.OperationResultCodeOpBadAuth:           OpBadAuth,
	xdr.OperationResultCodeOpNoAccount:         OpNoSourceAccount,
	xdr.OperationResultCodeOpNotSupported:      "op_not_supported",
	xdr.OperationResultCodeOpTooManySubentries: "op_too_many_subentries",
	xdr.OperationResultCodeOpExceededWorkLimit: "op_exceeded_work_limit",
	xdr.OperationResultCodeOpTooManySponsoring: "op_too_many_sponsoring",
}

// innerCode is an operation result's own code and its type's names; ok is
// false for a type not in the tables (nor its union arm set).
func innerCode(tr xdr.OperationResultTr) (int32, map[int32]string, bool) {
	// The arms are read through their pointers: the SDK's Get… methods
	// dereference them, and an answer from a ledger API may leave one nil.
	switch {
	case tr.Type == xdr.OperationTypeCreateAccount && tr.CreateAccountResult != nil:
		return int32(tr.CreateAccountResult.Code), createAccountNames, true
	case tr.Type == xdr.OperationTypePayment && tr.PaymentResult != nil:
		return int32(tr.PaymentResult.Code), paymentNames, true
	case tr.Type == xdr.OperationTypeManageSellOffer && tr.ManageSellOfferResult != nil:
		return int32(tr.ManageSellOfferResult.Code), offerNames, true
	case tr.Type == xdr.OperationTypeManageBuyOffer && tr.ManageBuyOfferResult != nil:
		return int32(tr.ManageBuyOfferResult.Code), offerNames, true
	case tr.Type == xdr.OperationTypeChangeTrust && tr.ChangeTrustResult != nil:
		return int32(tr.ChangeTrustResult.Code), changeTrustNames, true
	case tr.Type == xdr.OperationTypeManageData && tr.ManageDataResult != nil:
		return int32(tr.ManageDataResult.Code), manageDataNames, true
	case tr.Type == xdr.OperationTypeSetOptions && tr.SetOptionsResult != nil:
		return int32(tr.SetOptionsResult.Code), setOptionsNames, true
	case tr.Type == xdr.OperationTypeAccountMerge && tr.AccountMergeResult != nil:
		return int32(tr.AccountMergeResult.Code), mergeNames, true
	case tr.Type == xdr.OperationTypeBumpSequence && tr.BumpSeqResult != nil:
		return int32(tr.BumpSeqResult.Code), bumpSeqNames, true
	}
	return 0, nil, false
}

var createAccountNames = map[int32]string{
	-1: "op_malformed", -2: "op_underfunded", -3: "op_low_reserve", -4: "op_already_exists",
}

var paymentNames = map[int32]string{
	-1: "op_malformed", -2: "op_underfunded", -3: "op_src_no_trust", -4: "op_src_not_authorized",
	-5: "op_no_destination", -6: "op_no_trust", -7: "op_not_authorized", -8: "op_line_full", -9: "op_no_issuer",
}

// offerNames: Horizon spells three of them without the op_ prefix.
var offerNames = map[int32]string{
	-1: "op_malformed", -2: "op_sell_no_trust", -3: "op_buy_no_trust", -4: "sell_not_authorized",
	-5: "buy_not_authorized", -6: "op_line_full", -7: "op_underfunded", -8: "op_cross_self",
	-9: "op_sell_no_issuer", -10: "buy_no_issuer", -11: "op_offer_not_found", -12: "op_low_reserve",
}

var changeTrustNames = map[int32]string{
	-1: "op_malformed", -2: "op_no_issuer", -3: "op_invalid_limit", -4: "op_low_reserve",
	-5: "op_self_not_allowed", -6: "op_trust_line_missing", -7: "op_cannot_delete",
	-8: "op_not_auth_maintain_liabilities",
}

var manageDataNames = map[int32]string{
	-1: "op_not_supported_yet", -2: "op_data_name_not_found", -3: "op_low_reserve", -4: "op_data_invalid_name",
}

var setOptionsNames = map[int32]string{
	-1: "op_low_reserve", -2: "op_too_many_signers", -3: "op_bad_flags", -4: "op_invalid_inflation",
	-5: "op_cant_change", -6: "op_unknown_flag", -7: "op_threshold_out_of_range", -8: "op_bad_signer",
	-9: "op_invalid_home_domain", -10: "op_auth_revocable_required",
}

var mergeNames = map[int32]string{
	-1: "op_malformed", -2: "op_no_account", -3: "op_immutable_set", -4: "op_has_sub_entries",
	-5: "op_seq_num_too_far", -6: "op_dest_full", -7: "op_is_sponsor",
}

var bumpSeqNames = map[int32]string{-1: "op_bad_seq"}
