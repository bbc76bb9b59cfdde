package ledgertest

import (
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Operation results, and their codes as Horizon spells them in
// extras.result_codes (Horizon's codes package: services/horizon/internal/
// codes; some, such as op_data_name_not_found and op_seq_num_too_far, are
// not the XDR names).

func outer(code xdr.OperationResultCode) xdr.OperationResult {
	return xdr.OperationResult{Code: code}
}

func innerOf(tr xdr.OperationResultTr) xdr.OperationResult {
	return xdr.OperationResult{Code: xdr.OperationResultCodeOpInner, Tr: &tr}
}

func createAccountResult(c xdr.CreateAccountResultCode) xdr.OperationResult {
	return innerOf(xdr.OperationResultTr{Type: xdr.OperationTypeCreateAccount, CreateAccountResult: &xdr.CreateAccountResult{Code: c}})
}

func paymentResult(c xdr.PaymentResultCode) xdr.OperationResult {
	return innerOf(xdr.OperationResultTr{Type: xdr.OperationTypePayment, PaymentResult: &xdr.PaymentResult{Code: c}})
}

// offerResult is a manage sell or buy offer's result; the codes of both
// have the same values, so c is given as a sell offer's.
func offerResult(typ xdr.OperationType, c xdr.ManageSellOfferResultCode) xdr.OperationResult {
	var success *xdr.ManageOfferSuccessResult
	if c == xdr.ManageSellOfferResultCodeManageSellOfferSuccess {
		success = &xdr.ManageOfferSuccessResult{Offer: xdr.ManageOfferSuccessResultOffer{Effect: xdr.ManageOfferEffectManageOfferDeleted}}
	}
	if typ == xdr.OperationTypeManageBuyOffer {
		return innerOf(xdr.OperationResultTr{Type: typ, ManageBuyOfferResult: &xdr.ManageBuyOfferResult{Code: xdr.ManageBuyOfferResultCode(c), Success: success}})
	}
	return innerOf(xdr.OperationResultTr{Type: typ, ManageSellOfferResult: &xdr.ManageSellOfferResult{Code: c, Success: success}})
}

func changeTrustResult(c xdr.ChangeTrustResultCode) xdr.OperationResult {
	return innerOf(xdr.OperationResultTr{Type: xdr.OperationTypeChangeTrust, ChangeTrustResult: &xdr.ChangeTrustResult{Code: c}})
}

func manageDataResult(c xdr.ManageDataResultCode) xdr.OperationResult {
	return innerOf(xdr.OperationResultTr{Type: xdr.OperationTypeManageData, ManageDataResult: &xdr.ManageDataResult{Code: c}})
}

func setOptionsResult(c xdr.SetOptionsResultCode) xdr.OperationResult {
	return innerOf(xdr.OperationResultTr{Type: xdr.OperationTypeSetOptions, SetOptionsResult: &xdr.SetOptionsResult{Code: c}})
}

func mergeResult(c xdr.AccountMergeResultCode, balance int64) xdr.OperationResult {
	r := &xdr.AccountMergeResult{Code: c}
	if c == xdr.AccountMergeResultCodeAccountMergeSuccess {
		b := xdr.Int64(balance)
		r.SourceAccountBalance = &b
	}
	return innerOf(xdr.OperationResultTr{Type: xdr.OperationTypeAccountMerge, AccountMergeResult: r})
}

func bumpResult(c xdr.BumpSequenceResultCode) xdr.OperationResult {
	return innerOf(xdr.OperationResultTr{Type: xdr.OperationTypeBumpSequence, BumpSeqResult: &xdr.BumpSequenceResult{Code: c}})
}

// successOf is the result a validated but not yet applied operation of
// type typ stands at in a refusal (core leaves it op_inner with code 0).
func successOf(typ xdr.OperationType) (xdr.OperationResult, bool) {
	switch typ {
	case xdr.OperationTypeCreateAccount:
		return createAccountResult(0), true
	case xdr.OperationTypePayment:
		return paymentResult(0), true
	case xdr.OperationTypeManageSellOffer, xdr.OperationTypeManageBuyOffer:
		r := offerResult(typ, 0)
		return r, true
	case xdr.OperationTypeChangeTrust:
		return changeTrustResult(0), true
	case xdr.OperationTypeManageData:
		return manageDataResult(0), true
	case xdr.OperationTypeSetOptions:
		return setOptionsResult(0), true
	case xdr.OperationTypeAccountMerge:
		return mergeResult(0, 0), true
	case xdr.OperationTypeBumpSequence:
		return bumpResult(0), true
	case xdr.OperationTypeClaimClaimableBalance:
		return claimResult(0), true
	case xdr.OperationTypePathPaymentStrictSend:
		return strictSendResult(0, nil), true
	}
	return xdr.OperationResult{Code: xdr.OperationResultCodeOpInner}, false
}

// opCode is r's code as Horizon spells it.
func opCode(r xdr.OperationResult) string {
	switch r.Code {
	case xdr.OperationResultCodeOpInner:
	case xdr.OperationResultCodeOpBadAuth:
		return "op_bad_auth"
	case xdr.OperationResultCodeOpNoAccount:
		return "op_no_source_account"
	case xdr.OperationResultCodeOpNotSupported:
		return "op_not_supported"
	case xdr.OperationResultCodeOpTooManySubentries:
		return "op_too_many_subentries"
	case xdr.OperationResultCodeOpExceededWorkLimit:
		return "op_exceeded_work_limit"
	case xdr.OperationResultCodeOpTooManySponsoring:
		return "op_too_many_sponsoring"
	default:
		return "op_unknown"
	}
	tr := r.Tr
	if tr == nil { // an operation type the double does not model, not reached
		return "op_success"
	}
	var code int32
	var names map[int32]string
	switch tr.Type {
	case xdr.OperationTypeCreateAccount:
		code, names = int32(tr.CreateAccountResult.Code), createAccountCodes
	case xdr.OperationTypePayment:
		code, names = int32(tr.PaymentResult.Code), paymentCodes
	case xdr.OperationTypeManageSellOffer:
		code, names = int32(tr.ManageSellOfferResult.Code), offerCodes
	case xdr.OperationTypeManageBuyOffer:
		code, names = int32(tr.ManageBuyOfferResult.Code), offerCodes
	case xdr.OperationTypeChangeTrust:
		code, names = int32(tr.ChangeTrustResult.Code), changeTrustCodes
	case xdr.OperationTypeManageData:
		code, names = int32(tr.ManageDataResult.Code), manageDataCodes
	case xdr.OperationTypeSetOptions:
		code, names = int32(tr.SetOptionsResult.Code), setOptionsCodes
	case xdr.OperationTypeAccountMerge:
		code, names = int32(tr.AccountMergeResult.Code), mergeCodes
	case xdr.OperationTypeBumpSequence:
		code, names = int32(tr.BumpSeqResult.Code), map[int32]string{-1: "op_bad_seq"}
	case xdr.OperationTypeClaimClaimableBalance:
		code, names = int32(tr.ClaimClaimableBalanceResult.Code), claimCodes
	case xdr.OperationTypePathPaymentStrictSend:
		code, names = int32(tr.PathPaymentStrictSendResult.Code), strictSendCodes
	}
	if code == 0 {
		return "op_success"
	}
	if s, ok := names[code]; ok {
		return s
	}
	return "op_unknown"
}

var createAccountCodes = map[int32]string{
	-1: "op_malformed", -2: "op_underfunded", -3: "op_low_reserve", -4: "op_already_exists",
}

var paymentCodes = map[int32]string{
	-1: "op_malformed", -2: "op_underfunded", -3: "op_src_no_trust", -4: "op_src_not_authorized",
	-5: "op_no_destination", -6: "op_no_trust", -7: "op_not_authorized", -8: "op_line_full", -9: "op_no_issuer",
}

// offerCodes: Horizon spells three of them without the op_ prefix.
var offerCodes = map[int32]string{
	-1: "op_malformed", -2: "op_sell_no_trust", -3: "op_buy_no_trust", -4: "sell_not_authorized",
	-5: "buy_not_authorized", -6: "op_line_full", -7: "op_underfunded", -8: "op_cross_self",
	-9: "op_sell_no_issuer", -10: "buy_no_issuer", -11: "op_offer_not_found", -12: "op_low_reserve",
}

var changeTrustCodes = map[int32]string{
	-1: "op_malformed", -2: "op_no_issuer", -3: "op_invalid_limit", -4: "op_low_reserve",
	-5: "op_self_not_allowed", -6: "op_trust_line_missing", -7: "op_cannot_delete",
	-8: "op_not_auth_maintain_liabilities",
}

var manageDataCodes = map[int32]string{
	-1: "op_not_supported_yet", -2: "op_data_name_not_found", -3: "op_low_reserve", -4: "op_data_invalid_name",
}

var setOptionsCodes = map[int32]string{
	-1: "op_low_reserve", -2: "op_too_many_signers", -3: "op_bad_flags", -4: "op_invalid_inflation",
	-5: "op_cant_change", -6: "op_unknown_flag", -7: "op_threshold_out_of_range", -8: "op_bad_signer",
	-9: "op_invalid_home_domain", -10: "op_auth_revocable_required",
}

var mergeCodes = map[int32]string{
	-1: "op_malformed", -2: "op_no_account", -3: "op_immutable_set", -4: "op_has_sub_entries",
	-5: "op_seq_num_too_far", -6: "op_dest_full", -7: "op_is_sponsor",
}
