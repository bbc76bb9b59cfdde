package ledgertest

import (
	"encoding/base64"
	"encoding/hex"
	"math/bits"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/support/render/problem"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Fee-bump transactions (CAP-15), on both faces: POST /transactions and
// sendTransaction hand them to applyFeeBump. A fee-bump wraps a classic V1
// transaction, its hash and signatures unchanged, and its fee source pays
// the fee; the inner transaction's source pays nothing.
//
// Validation is FeeBumpTransactionFrame.cpp checkValid, in its order:
//
//  0. a negative outer fee (XDRProvidesValidFee): tx_malformed;
//  1. commonValidPreSeqNum: the outer fee bid below the minimum for the
//     inner operations plus one (TransactionUtils.cpp getMinInclusionFee
//     over FeeBumpTransactionFrame getNumOperations, inner + 1):
//     tx_insufficient_fee;
//  2. its rate below the inner transaction's (outer fee × inner minimum <
//     inner fee × outer minimum, bigMultiply): tx_insufficient_fee;
//  3. the fee source unknown to the double: tx_no_source_account;
//  4. commonValid: the fee-bump's signatures (over its own hash) below the
//     fee source's low threshold (checkAllTransactionSignatures,
//     ledger.CheckFeeBumpSignatures): tx_bad_auth;
//  5. the outer fee bid above the fee source's available balance
//     (getAvailableBalance): tx_insufficient_balance;
//  6. a fee-bump signature no check used (checkAllSignaturesUsed):
//     tx_bad_auth_extra;
//  7. the inner transaction's own checks (TransactionFrame.cpp
//     checkValidWithOptionallyChargedFee with chargeFee false: its fee bid
//     and its source's balance for it are not checked):
//     tx_fee_bump_inner_failed, with the inner code (and operation codes)
//     in result_codes and the inner result in result_xdr.
//
// A refusal changes nothing. Application: the fee source is charged the
// base fee for each inner operation plus one (FeeBumpTransactionFrame.cpp
// getFee, no surge pricing, at most the outer bid) and loses the one-time
// signer of the fee-bump's hash (removeOneTimeSignerKeyFromFeeSource); then
// the inner transaction is applied as a classic one with no fee charged
// (TransactionFrame apply with chargeFee false): its sequence number, its
// one-time signer, its operations. An inner operation that fails makes the
// fee-bump tx_fee_bump_inner_failed (inner tx_failed), the fee spent. A
// success is tx_fee_bump_inner_success. Horizon's JSON names the fee
// source as fee_account, the outer signatures and max_fee, and the inner
// transaction's hash, signatures and max_fee under inner_transaction; the
// inner hash answers the same, with its own hash, as Horizon finds a
// transaction by its inner hash.

// applyFeeBump is apply for the fee-bump env (b64). h.mu is held.
func (h *Handler) applyFeeBump(b64 string, env xdr.TransactionEnvelope) (horizon.Transaction, *problem.P, bool) {
	passphrase := h.network.Passphrase()
	inner := xdr.TransactionEnvelope{Type: xdr.EnvelopeTypeEnvelopeTypeTx, V1: env.FeeBump.Tx.InnerTx.V1}
	hash, err := ledger.HashEnvelope(env, passphrase)
	innerHash, errInner := ledger.HashEnvelope(inner, passphrase)
	if err != nil || errInner != nil {
		p := badRequest("the fee-bump transaction cannot be hashed")
		return horizon.Transaction{}, &p, false
	}
	if tx, ok := h.applied[hash]; ok {
		return tx, nil, false
	}
	if p, ok := h.failed[hash]; ok {
		return horizon.Transaction{}, &p, false
	}
	outerFee := env.FeeBumpFee()
	innerOps := int64(max(len(inner.Operations()), 1))
	outerMin := h.baseFee() * (innerOps + 1)
	charged := min(outerFee, outerMin)
	refuse := func(code string) (horizon.Transaction, *problem.P, bool) {
		p := transactionFailed(b64, code, nil, charged)
		return horizon.Transaction{}, &p, false
	}
	// commonValidPreSeqNum: the outer bid's minimum, then its rate
	// against the inner bid's (v1 < v2, in 128 bits as core's).
	if outerFee < 0 {
		return refuse("tx_malformed") // checkValid's XDRProvidesValidFee
	}
	if outerFee < outerMin {
		return refuse("tx_insufficient_fee")
	}
	innerMin := h.baseFee() * innerOps
	if bigLess(outerFee, innerMin, int64(inner.Fee()), outerMin) {
		return refuse("tx_insufficient_fee")
	}
	feeSourceID := env.FeeBumpAccount().ToAccountId().Address()
	feeSource := h.accounts[feeSourceID]
	if feeSource == nil {
		return refuse(ledger.TxNoSourceAccount) // txNO_ACCOUNT
	}
	// commonValid: the fee source's signatures at its low threshold, then
	// its balance for the full outer bid; then checkAllSignaturesUsed.
	sigs, err := ledger.CheckFeeBumpSignatures(env, hash, map[string]ledger.AccountAuth{feeSourceID: authOf(feeSource)})
	if err != nil {
		p := badRequest(err.Error())
		return horizon.Transaction{}, &p, false
	}
	if sigs.Code == ledger.TxBadAuth {
		return refuse(ledger.TxBadAuth)
	}
	if feeSource.available() < outerFee {
		return refuse("tx_insufficient_balance")
	}
	if sigs.Code != "" {
		return refuse(sigs.Code) // tx_bad_auth_extra
	}
	ledgerSeq, closeTime := h.nextLedger()
	code, results, err := h.check(inner, innerHash, false, ledgerSeq, closeTime)
	if err != nil {
		p := badRequest(err.Error())
		return horizon.Transaction{}, &p, false
	}
	if code != "" {
		p := bumpFailed(b64, innerHash, code, results, charged)
		return horizon.Transaction{}, &p, false
	}

	h.chargeFee(feeSource, charged, ledgerSeq)
	h.lastLedger = ledgerSeq // the signer's removal is in this ledger
	h.removeOneTimeSigner(hash, []string{feeSourceID}, ledgerSeq)
	results, ok := h.run(inner, innerHash, ledgerSeq, closeTime)
	if !ok {
		p := bumpFailed(b64, innerHash, ledger.TxFailed, results, charged)
		h.failed[hash], h.failed[innerHash] = p, p
		return horizon.Transaction{}, &p, false
	}
	t := h.transaction(b64, env, hash, charged, encodeBumpResult(xdr.TransactionResultCodeTxFeeBumpInnerSuccess, innerHash, xdr.TransactionResultCodeTxSuccess, results, charged))
	t.FeeAccount = feeSourceID
	t.FeeAccountMuxed, t.FeeAccountMuxedID = "", 0
	if fa := env.FeeBumpAccount(); fa.Type == xdr.CryptoKeyTypeKeyTypeMuxedEd25519 {
		t.FeeAccountMuxed, _ = fa.GetAddress()
		t.FeeAccountMuxedID = uint64(fa.Med25519.Id)
	}
	t.MaxFee = outerFee
	outerSigs := encodeSignatures(env.FeeBumpSignatures())
	t.Signatures = outerSigs
	t.FeeBumpTransaction = &horizon.FeeBumpTransaction{Hash: t.Hash, Signatures: outerSigs}
	t.InnerTransaction = &horizon.InnerTransaction{
		Hash: hex.EncodeToString(innerHash[:]), Signatures: encodeSignatures(inner.Signatures()), MaxFee: int64(inner.Fee()),
	}
	h.applied[hash] = t
	byInner := t
	byInner.ID, byInner.Hash = t.InnerTransaction.Hash, t.InnerTransaction.Hash
	h.applied[innerHash] = byInner
	return t, nil, h.takeDrop()
}

// bigLess reports whether a×b < c×d for non-negative a, b, c, d, as
// stellar-core compares them (bigMultiply, 128 bits).
func bigLess(a, b, c, d int64) bool {
	hi1, lo1 := bits.Mul64(uint64(a), uint64(b))
	hi2, lo2 := bits.Mul64(uint64(c), uint64(d))
	return hi1 < hi2 || hi1 == hi2 && lo1 < lo2
}

// bumpFailed is Horizon's problem for a fee-bump whose inner transaction
// failed with innerCode (and, for tx_failed, its operations' results):
// tx_fee_bump_inner_failed, the inner code in result_codes'
// inner_transaction.
func bumpFailed(b64 string, innerHash [32]byte, innerCode string, results []xdr.OperationResult, charged int64) problem.P {
	p := transactionFailed(b64, "tx_fee_bump_inner_failed", results, charged)
	codes := p.Extras["result_codes"].(horizon.TransactionResultCodes)
	codes.InnerTransactionCode = innerCode
	p.Extras["result_codes"] = codes
	delete(p.Extras, "result_xdr")
	if xc, ok := txCodes[innerCode]; ok {
		if s := encodeBumpResult(xdr.TransactionResultCodeTxFeeBumpInnerFailed, innerHash, xc, results, charged); s != "" {
			p.Extras["result_xdr"] = s
		}
	}
	return p
}

// encodeBumpResult is the base64 TransactionResult of a fee-bump: code
// (tx_fee_bump_inner_success or _failed), charged stroops charged, and the
// inner transaction's result pair, innerCode with its operations' results
// (for tx_success and tx_failed), its own fee charged 0 (the fee source
// paid). "" when it cannot be built.
func encodeBumpResult(code xdr.TransactionResultCode, innerHash [32]byte, innerCode xdr.TransactionResultCode, results []xdr.OperationResult, charged int64) string {
	in := xdr.InnerTransactionResult{Result: xdr.InnerTransactionResultResult{Code: innerCode}}
	if innerCode == xdr.TransactionResultCodeTxSuccess || innerCode == xdr.TransactionResultCodeTxFailed {
		for _, r := range results {
			if r.Code == xdr.OperationResultCodeOpInner && r.Tr == nil {
				return "" // an operation the double does not model at op_success
			}
		}
		in.Result.Results = &results
	}
	tr := xdr.TransactionResult{FeeCharged: xdr.Int64(charged), Result: xdr.TransactionResultResult{
		Code: code, InnerResultPair: &xdr.InnerTransactionResultPair{TransactionHash: innerHash, Result: in},
	}}
	out, err := xdr.MarshalBase64(tr)
	if err != nil {
		return ""
	}
	return out
}

// encodeSignatures is Horizon's list of signatures: each base64.
func encodeSignatures(sigs []xdr.DecoratedSignature) []string {
	out := []string{}
	for _, s := range sigs {
		out = append(out, base64.StdEncoding.EncodeToString(s.Signature))
	}
	return out
}
