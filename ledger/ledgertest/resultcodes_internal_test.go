package ledgertest

import (
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// TestResultCodesAgree: the double's spelling of its own results (what its
// Horizon face answers) and ledger.OpResultCode (what the Stellar RPC
// backend reads from resultXdr) agree on every code of every operation the
// double models, so a submission's code is the same under both faces.
func TestResultCodesAgree(t *testing.T) {
	for _, typ := range []xdr.OperationType{
		xdr.OperationTypeCreateAccount, xdr.OperationTypePayment, xdr.OperationTypeManageSellOffer,
		xdr.OperationTypeManageBuyOffer, xdr.OperationTypeChangeTrust, xdr.OperationTypeManageData,
		xdr.OperationTypeSetOptions, xdr.OperationTypeAccountMerge, xdr.OperationTypeBumpSequence,
	} {
		for c := int32(-15); c <= 0; c++ {
			r, ok := successOf(typ)
			if !ok {
				t.Fatalf("%s: not modelled", typ)
			}
			setCode(r.Tr, c)
			if got, want := ledger.OpResultCode(r), opCode(r); got != want {
				t.Errorf("%s code %d: ledger %q, the double %q", typ, c, got, want)
			}
		}
	}
	for _, c := range []xdr.OperationResultCode{
		xdr.OperationResultCodeOpBadAuth, xdr.OperationResultCodeOpNoAccount, xdr.OperationResultCodeOpNotSupported,
		xdr.OperationResultCodeOpTooManySubentries, xdr.OperationResultCodeOpExceededWorkLimit, xdr.OperationResultCodeOpTooManySponsoring,
	} {
		if got, want := ledger.OpResultCode(outer(c)), opCode(outer(c)); got != want {
			t.Errorf("outer %d: ledger %q, the double %q", c, got, want)
		}
	}
}

// TestTxResultCodesAgree: every transaction code the double's Horizon face
// answers is the name ledger.TxResultCode gives its XDR code (what the
// Stellar RPC face's errorResultXdr reads as), Horizon's spelling in
// services/horizon/internal/codes.
func TestTxResultCodesAgree(t *testing.T) {
	for name, c := range txCodes {
		if got := ledger.TxResultCode(c); got != name {
			t.Errorf("%s: ledger %q, the double %q", c, got, name)
		}
	}
}

func setCode(tr *xdr.OperationResultTr, c int32) {
	switch tr.Type {
	case xdr.OperationTypeCreateAccount:
		tr.CreateAccountResult.Code = xdr.CreateAccountResultCode(c)
	case xdr.OperationTypePayment:
		tr.PaymentResult.Code = xdr.PaymentResultCode(c)
	case xdr.OperationTypeManageSellOffer:
		tr.ManageSellOfferResult.Code = xdr.ManageSellOfferResultCode(c)
	case xdr.OperationTypeManageBuyOffer:
		tr.ManageBuyOfferResult.Code = xdr.ManageBuyOfferResultCode(c)
	case xdr.OperationTypeChangeTrust:
		tr.ChangeTrustResult.Code = xdr.ChangeTrustResultCode(c)
	case xdr.OperationTypeManageData:
		tr.ManageDataResult.Code = xdr.ManageDataResultCode(c)
	case xdr.OperationTypeSetOptions:
		tr.SetOptionsResult.Code = xdr.SetOptionsResultCode(c)
	case xdr.OperationTypeAccountMerge:
		tr.AccountMergeResult.Code = xdr.AccountMergeResultCode(c)
	case xdr.OperationTypeBumpSequence:
		tr.BumpSeqResult.Code = xdr.BumpSequenceResultCode(c)
	}
}
