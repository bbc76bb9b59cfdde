package ledgertest

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"math"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/support/render/hal"
	"github.com/stellar/go-stellar-sdk/support/render/problem"
	"github.com/stellar/go-stellar-sdk/toid"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// POST /transactions, as Horizon takes it (form field tx) and as stellar-core
// validates it (TransactionFrame.cpp checkValidWithOptionallyChargedFee:
// commonValidPreSeqNum, commonValid, each operation's checkValid,
// checkAllSignaturesUsed), in core's order:
//
//  1. a V2 precondition's extra signers equal, or a signed-payload one with
//     no payload: tx_malformed;
//  2. no operation: tx_missing_operation;
//  3. Soroban operations mixed with others, or a classic transaction with
//     Soroban data: tx_malformed;
//  4. time and ledger bounds against the double's clock (SetClock) and the
//     ledger the transaction would close in: a min_time after the close
//     time or a min_ledger after the ledger is tx_too_early, a max_time
//     before it or a max_ledger at or before the ledger tx_too_late (0 is
//     no bound);
//  5. a fee bid below the base fee per operation (BaseFee, or SetBaseFee's):
//     tx_insufficient_fee;
//  6. the source account unknown to the double: tx_no_source_account;
//  7. the sequence number: the account's plus one (or, with a V2
//     precondition's min_seq_num, one the account's number is in
//     [min_seq_num, tx's) of), never the ledger's starting number: else
//     tx_bad_seq; then min_seq_age and min_seq_ledger_gap against the
//     account's sequence_time and sequence_ledger:
//     tx_bad_minseq_age_or_gap;
//  8. the source's signatures at its low threshold and the extra signers
//     (ledger.CheckSignatures, under the passphrase of SetNetwork's network,
//     Testnet by default): tx_bad_auth;
//  9. the fee bid above the source's available balance (its reserve and
//     selling liabilities kept): tx_insufficient_balance;
//  10. each operation in turn: its source's signatures at the operation's
//     threshold level (op_bad_auth), an explicit source that does not exist
//     (checked against its own key), its own doCheckValid: tx_failed;
//  11. a signature no check used: tx_bad_auth_extra.
//
// A refusal is Horizon's 400 transaction_failed problem with
// extras.result_codes, extras.envelope_xdr and extras.result_xdr, and
// changes nothing. A transaction that passes is applied (processFeeSeqNum,
// processSeqNum, processSignatures, applyOperations): the fee (the base fee
// per operation, no surge pricing, at most the bid) is charged, the sequence
// number consumed, the one-time pre-auth signer of its hash removed from
// its source accounts; then the operations run (apply.go). If one fails,
// the transaction is tx_failed (400, with every operation's result) and all
// of their effects roll back, but the fee, the sequence number and the
// signer removal stay, as on the network. A success closes one ledger and
// answers Horizon's transaction JSON. A transaction already applied answers
// its success (or its tx_failed) again, as Horizon answers for a
// transaction it has.
//
// A fee-bump envelope is applied by feebump.go's rules, its inner
// transaction by these with no fee charged to it.
//
// Not modelled, and refused rather than accepted: Soroban transactions (op_not_supported); an account's
// pre-auth-tx, hash-x and signed-payload signers matching anything (the
// double refuses with tx_bad_auth, op_bad_auth or tx_bad_auth_extra where
// core would count them).
//
// The request gates of the account route apply too (SetHeld, SetDelay,
// SetStalled, SetFailing), and FailSubmissions, StallSubmissions and
// DropAnswers script the next submissions' faults.

// maxSubmitBody bounds a submission's form; an envelope is at most
// ledger.MaxXDRLength characters of base64.
const maxSubmitBody = 256 << 10

// submitFault is one scripted answer to a submission: a problem with status
// status, or with status 0 no answer until the client gives up.
type submitFault struct{ status int }

// FailSubmissions makes the next n submissions answer status with Horizon's
// problem for it (429 rate_limit_exceeded, 500 server_error, 503
// service_unavailable, 504 timeout, others a problem of that status) without
// reading them: the ledger does not change. Faults queue behind those
// already scripted.
func (h *Handler) FailSubmissions(n, status int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for range n {
		h.faults = append(h.faults, submitFault{status: status})
	}
}

// StallSubmissions makes the next n submissions answer nothing and change
// nothing until their client gives up (or Release): a submission timeout.
// Faults queue behind those already scripted.
func (h *Handler) StallSubmissions(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for range n {
		h.faults = append(h.faults, submitFault{})
	}
}

// DropAnswers makes the next n submissions that succeed take effect, then
// answer nothing until their client gives up (or Release): Horizon timing
// out on a transaction that made it into the ledger. Sending the same
// transaction again then answers its success.
func (h *Handler) DropAnswers(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.dropAnswers += n
}

// SetNetwork sets the network under whose passphrase submitted transactions
// are hashed and their signatures checked; Testnet until set. (Server.URLs
// maps every network to one double, so a test submitting on another network
// says which.)
func (h *Handler) SetNetwork(n ledger.Network) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.network = n
}

// SetClock sets the close time that time bounds are checked against; nil is
// time.Now (under testing/synctest, the bubble's clock).
func (h *Handler) SetClock(now func() time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.clock = now
}

// SetSequence sets account id's sequence number; it reports false, and does
// nothing, when the double does not know id.
func (h *Handler) SetSequence(id string, seq int64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	acc := h.accounts[id]
	if acc != nil {
		acc.seq = seq
		acc.raw = nil
	}
	return acc != nil
}

// Sequence is account id's sequence number, if the double knows id.
func (h *Handler) Sequence(id string) (int64, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if acc := h.accounts[id]; acc != nil {
		return acc.seq, true
	}
	return 0, false
}

// Submissions is the number of POST /transactions requests received.
func (h *Handler) Submissions() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.submissions
}

// Applied is the number of transactions the double has applied.
func (h *Handler) Applied() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.applied)
}

func (h *Handler) submit(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.submissions++
	held := h.held
	h.mu.Unlock()
	if !h.wait(w, r, held) {
		return
	}

	h.mu.Lock()
	failing := h.failing
	var fault *submitFault
	if !failing && len(h.faults) > 0 {
		f := h.faults[0]
		fault = &f
		h.faults = h.faults[1:]
	}
	h.mu.Unlock()
	switch {
	case failing:
		writeProblem(w, problem.ServerError)
		return
	case fault != nil && fault.status == 0:
		h.stall(w, r)
		return
	case fault != nil:
		writeProblem(w, faultProblem(fault.status))
		return
	}

	r.Body = http.MaxBytesReader(w, r.Body, maxSubmitBody)
	if err := r.ParseForm(); err != nil {
		writeProblem(w, badRequest("the request body is not a form of at most 256 KiB"))
		return
	}
	b64 := r.PostForm.Get("tx")
	env, err := ledger.DecodeEnvelope(b64)
	if err != nil {
		writeProblem(w, problem.P{
			Type: "transaction_malformed", Title: "Transaction Malformed", Status: http.StatusBadRequest,
			Detail: "Horizon could not decode the transaction envelope in this request.",
			Extras: map[string]any{"envelope_xdr": b64},
		})
		return
	}
	h.mu.Lock()
	tx, refusal, drop := h.apply(b64, env)
	h.mu.Unlock()
	switch {
	case refusal != nil:
		writeProblem(w, *refusal)
	case drop:
		h.stall(w, r)
	default:
		w.Header().Set("Content-Type", "application/hal+json; charset=utf-8")
		_ = json.NewEncoder(w).Encode(tx)
	}
}

// stall answers nothing until the client gives up, or 503 on Release.
func (h *Handler) stall(w http.ResponseWriter, r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-h.done:
		writeProblem(w, serviceUnavailable())
	}
}

// apply validates env (the envelope b64 decodes to) and, if the ledger
// would take it, applies it. It returns the success to answer, or the
// refusal, and whether the success's answer is to be dropped. h.mu is held.
// A fee-bump goes to applyFeeBump.
//
// Validation follows TransactionFrame.cpp checkValidWithOptionallyChargedFee
// (check). Application follows processFeeSeqNum, processSeqNum,
// processSignatures (commonPreApply) and applyOperations (run): the fee is
// charged, the sequence number consumed and the one-time signer removed
// first, outside the operations' change set; then every operation is
// applied in order, each in its own change set on top of the earlier ones,
// and core goes on after a failed operation (from protocol 14 it commits
// only a successful one), so the operations after it report their own
// codes; if any failed, the transaction is tx_failed and all of them roll
// back.
func (h *Handler) apply(b64 string, env xdr.TransactionEnvelope) (horizon.Transaction, *problem.P, bool) {
	if env.IsFeeBump() {
		return h.applyFeeBump(b64, env)
	}
	hash, err := ledger.HashEnvelope(env, h.network.Passphrase())
	if err != nil {
		p := badRequest("the transaction cannot be hashed: " + err.Error())
		return horizon.Transaction{}, &p, false
	}
	if tx, ok := h.applied[hash]; ok {
		return tx, nil, false
	}
	if p, ok := h.failed[hash]; ok {
		return horizon.Transaction{}, &p, false
	}
	charged := h.charge(env)
	ledgerSeq, closeTime := h.nextLedger()
	code, results, err := h.check(env, hash, true, ledgerSeq, closeTime)
	if err != nil {
		p := badRequest(err.Error())
		return horizon.Transaction{}, &p, false
	}
	if code != "" {
		p := transactionFailed(b64, code, results, charged)
		return horizon.Transaction{}, &p, false
	}
	// processFeeSeqNum: the fee, as much of it as the balance holds (the
	// balance may go below the reserve here; commonValid checked it
	// would not).
	h.chargeFee(h.accounts[env.SourceAccount().ToAccountId().Address()], charged, ledgerSeq)
	results, ok := h.run(env, hash, ledgerSeq, closeTime)
	if !ok {
		p := transactionFailed(b64, ledger.TxFailed, results, charged)
		h.failed[hash] = p
		return horizon.Transaction{}, &p, false
	}
	t := h.transaction(b64, env, hash, charged, encodeResult(xdr.TransactionResultCodeTxSuccess, charged, results))
	h.applied[hash] = t
	return t, nil, h.takeDrop()
}

// takeDrop reports whether the answer of a success is to be dropped
// (DropAnswers), counting it. h.mu is held.
func (h *Handler) takeDrop() bool {
	drop := h.dropAnswers > 0
	if drop {
		h.dropAnswers--
	}
	return drop
}

// nextLedger is the ledger a transaction submitted now would close in,
// and its close time: the double's clock (never before 1970). h.mu is held.
func (h *Handler) nextLedger() (int32, uint64) {
	return max(h.lastLedger, 1) + 1, uint64(max(h.now().Unix(), 0))
}

// check is TransactionFrame.cpp checkValidWithOptionallyChargedFee of the
// classic env (hash its hash) for a ledger ledgerSeq closing at closeTime,
// in core's order (commonValidPreSeqNum, then commonValid, then each
// operation's checkValid, then checkAllSignaturesUsed). chargeFee is core's
// flag of that name: false for the inner transaction of a fee-bump, whose
// fee the fee source pays, so that neither the inner fee bid's minimum nor
// its source's balance for it is checked. It returns "" when the ledger
// would take env, else the result code (and, for tx_failed, every
// operation's result). The error is a signature check's that cannot be
// made. h.mu is held.
func (h *Handler) check(env xdr.TransactionEnvelope, hash [32]byte, chargeFee bool, ledgerSeq int32, closeTime uint64) (string, []xdr.OperationResult, error) {
	ops := env.Operations()
	// commonValidPreSeqNum, in its order.
	if malformedExtraSigners(env) {
		return "tx_malformed", nil, nil
	}
	if len(ops) == 0 {
		return "tx_missing_operation", nil, nil
	}
	if malformedSoroban(env) {
		return "tx_malformed", nil, nil
	}
	if tooEarly(env, closeTime, ledgerSeq) {
		return "tx_too_early", nil, nil
	}
	if tooLate(env, closeTime, ledgerSeq) {
		return "tx_too_late", nil, nil
	}
	// The fee bid must reach the minimum, the base fee per operation
	// (TransactionUtils.cpp getMinInclusionFee: baseFee * max(1, ops)),
	// when the transaction pays its own fee (chargeFee).
	if chargeFee && int64(env.Fee()) < h.baseFee()*int64(len(ops)) {
		return "tx_insufficient_fee", nil, nil
	}
	sourceID := env.SourceAccount().ToAccountId().Address()
	source := h.accounts[sourceID]
	if source == nil {
		return ledger.TxNoSourceAccount, nil, nil // txNO_ACCOUNT
	}
	// commonValid: the sequence number, then the V2 precondition's
	// min_seq_age and min_seq_ledger_gap, then the signatures.
	if badSeq(source.seq, env, ledgerSeq) {
		return "tx_bad_seq", nil, nil
	}
	if tooEarlyForAccount(env, source, closeTime, ledgerSeq) {
		return txBadMinSeqAgeOrGap, nil, nil
	}

	accounts := map[string]ledger.AccountAuth{}
	sources := opSources(env)
	for _, id := range append([]string{sourceID}, sources...) { // before any merge
		if acc := h.accounts[id]; acc != nil {
			accounts[id] = authOf(acc)
		}
	}
	// ledger.CheckSignatures is SignatureChecker.cpp checkSignature under
	// TransactionFrame.cpp checkAllTransactionSignatures (the source at its
	// low threshold, then the extra signers) and OperationFrame.cpp
	// checkSignature (each operation's source at getThresholdLevel:
	// ledger.LevelOf), all on one checker so each signature's "used" flag
	// spans the checks.
	res, err := ledger.CheckSignatures(env, hash, accounts)
	if err != nil {
		return "", nil, err
	}
	if res.Code == ledger.TxBadAuth {
		return res.Code, nil, nil
	}
	// commonValid, after the signatures: the source's available balance
	// (TransactionUtils.cpp getAvailableBalance: above its reserve and
	// selling liabilities) must cover the full fee bid; nothing when the
	// fee is not charged to it (feeToPay 0).
	if chargeFee && source.available() < int64(env.Fee()) {
		return "tx_insufficient_balance", nil, nil
	}
	// Each operation's checkValid, in order, up to the first that fails:
	// its signatures (and its source's existence), then doCheckValid. The
	// others stand at op_inner with code 0, as core leaves them.
	for i, op := range ops {
		var r xdr.OperationResult
		switch {
		case res.Code == ledger.TxFailed && res.OpCodes[i] == ledger.OpBadAuth:
			r = outer(xdr.OperationResultCodeOpBadAuth)
		case res.Code == ledger.TxFailed && res.OpCodes[i] == ledger.OpNoSourceAccount:
			r = outer(xdr.OperationResultCodeOpNoAccount)
		default:
			var ok bool
			if r, ok = validate(op, sources[i]); ok {
				continue
			}
		}
		results := make([]xdr.OperationResult, len(ops))
		for j, o := range ops {
			results[j], _ = successOf(o.Body.Type)
		}
		results[i] = r
		return ledger.TxFailed, results, nil
	}
	// checkValidWithOptionallyChargedFee's last step,
	// SignatureChecker.cpp checkAllSignaturesUsed: tx_bad_auth_extra, or "".
	return res.Code, nil, nil
}

// chargeFee is processFeeSeqNum's charge of fee to payer (the
// transaction's source, or a fee-bump's fee source): as much of it as the
// balance holds. h.mu is held.
func (h *Handler) chargeFee(payer *account, fee int64, ledgerSeq int32) {
	payer.balance -= min(payer.balance, fee)
	payer.modified = uint32(ledgerSeq)
	payer.raw = nil
}

// run applies the classic env (hash its hash), checked already and its
// fee charged, in ledger ledgerSeq closing at closeTime: processSeqNum (the
// sequence number, and, maybeUpdateAccountOnLedgerSeqUpdate in
// TransactionUtils.cpp, the ledger and close time it changed at), the
// one-time signer's removal (processSignatures), then applyOperations. It
// returns every operation's result and whether all succeeded; the sequence
// number and the signer removal stay when one failed, the operations'
// effects do not. h.mu is held.
func (h *Handler) run(env xdr.TransactionEnvelope, hash [32]byte, ledgerSeq int32, closeTime uint64) ([]xdr.OperationResult, bool) {
	sourceID := env.SourceAccount().ToAccountId().Address()
	sources := opSources(env)
	source := h.accounts[sourceID]
	source.seq = env.SeqNum()
	source.seqLedger, source.seqTime = uint32(ledgerSeq), closeTime
	source.modified = uint32(ledgerSeq) // the number changes the entry
	source.raw = nil
	h.lastLedger = ledgerSeq
	h.closeTime = closeTime
	h.removeOneTimeSigner(hash, append([]string{sourceID}, sources...), ledgerSeq)

	tx := h.view()
	ops := env.Operations()
	results := make([]xdr.OperationResult, len(ops))
	success := true
	for i, op := range ops {
		v := tx.child()
		var ok bool
		if results[i], ok = applyOp(v, op, sources[i], ledgerSeq); ok {
			v.commit()
		} else {
			success = false
		}
	}
	if !success {
		return results, false
	}
	tx.commit()
	h.recordCredits(env, hash, ledgerSeq, results)
	return results, true
}

func (h *Handler) now() time.Time {
	if h.clock != nil {
		return h.clock()
	}
	return time.Now()
}

// removeOneTimeSigner is processSignatures' removal of the one-time signer
// (TransactionFrame.cpp removeOneTimeSignerFromAllSourceAccounts and
// removeAccountSigner): the pre-auth-tx signer whose key is the
// transaction's hash leaves the transaction's source account and every
// operation's, its sponsorship undone (removeSignerWithPossibleSponsorship).
// Core does it before the operations run and keeps it when they fail.
// h.mu is held.
func (h *Handler) removeOneTimeSigner(hash [32]byte, accounts []string, ledgerSeq int32) {
	key, err := strkey.Encode(strkey.VersionByteHashTx, hash[:])
	if err != nil {
		return
	}
	for _, id := range accounts {
		acc := h.accounts[id]
		if acc == nil {
			continue
		}
		i := slices.IndexFunc(acc.signers, func(s signer) bool { return s.key == key })
		if i < 0 {
			continue
		}
		old := acc.signers[i]
		acc.signers = slices.Delete(acc.signers, i, i+1)
		if i < acc.masterAt {
			acc.masterAt--
		}
		h.unsponsor(acc, old.sponsor, 1)
		acc.modified = uint32(ledgerSeq)
		acc.raw = nil
	}
}

// txBadMinSeqAgeOrGap is Horizon's spelling of txBAD_MIN_SEQ_AGE_OR_GAP
// (services/horizon/internal/codes).
const txBadMinSeqAgeOrGap = "tx_bad_minseq_age_or_gap"

// malformedExtraSigners is commonValidPreSeqNum's check of a V2
// precondition's extra signers (TransactionFrame.cpp): two equal signers,
// or a signed-payload signer with an empty payload, are txMALFORMED.
func malformedExtraSigners(env xdr.TransactionEnvelope) bool {
	extra := env.ExtraSigners()
	if len(extra) == 2 {
		a, errA := extra[0].MarshalBinary()
		b, errB := extra[1].MarshalBinary()
		if errA != nil || errB != nil || bytes.Equal(a, b) {
			return true
		}
	}
	for _, k := range extra {
		if k.Type == xdr.SignerKeyTypeSignerKeyTypeEd25519SignedPayload &&
			(k.Ed25519SignedPayload == nil || len(k.Ed25519SignedPayload.Payload) == 0) {
			return true
		}
	}
	return false
}

// malformedSoroban is commonValidPreSeqNum's txMALFORMED for the shape of
// a transaction (TransactionFrame.cpp validateSorobanOpsConsistency, and
// the protocol 21 rule for classic transactions): Soroban operations mixed
// with others or more than one of them, or a classic transaction carrying
// Soroban data (ext v1). A lone Soroban operation is not modelled: it goes
// on to op_not_supported.
func malformedSoroban(env xdr.TransactionEnvelope) bool {
	ops := env.Operations()
	soroban := 0
	for _, op := range ops {
		switch op.Body.Type {
		case xdr.OperationTypeInvokeHostFunction, xdr.OperationTypeExtendFootprintTtl, xdr.OperationTypeRestoreFootprint:
			soroban++
		}
	}
	if soroban > 0 {
		return soroban != len(ops) || len(ops) != 1
	}
	return env.Type == xdr.EnvelopeTypeEnvelopeTypeTx && env.V1 != nil && env.V1.Tx.Ext.V != 0
}

// tooEarly is TransactionFrame.cpp isTooEarly (protocol 19 and later) for a
// ledger ledgerSeq closing at closeTime: a min_time after the close time,
// or a min_ledger after the ledger.
func tooEarly(env xdr.TransactionEnvelope, closeTime uint64, ledgerSeq int32) bool {
	if tb := env.TimeBounds(); tb != nil && tb.MinTime != 0 && uint64(tb.MinTime) > closeTime {
		return true
	}
	lb := env.LedgerBounds()
	return lb != nil && int64(lb.MinLedger) > int64(ledgerSeq)
}

// tooLate is TransactionFrame.cpp isTooLate: a max_time before the close
// time, or a max_ledger (0 is none) at or before the ledger.
func tooLate(env xdr.TransactionEnvelope, closeTime uint64, ledgerSeq int32) bool {
	if tb := env.TimeBounds(); tb != nil && tb.MaxTime != 0 && uint64(tb.MaxTime) < closeTime {
		return true
	}
	lb := env.LedgerBounds()
	return lb != nil && lb.MaxLedger != 0 && int64(lb.MaxLedger) <= int64(ledgerSeq)
}

// tooEarlyForAccount is TransactionFrame.cpp isTooEarlyForAccount: the
// source's sequence number must have last changed at least min_seq_age
// seconds and min_seq_ledger_gap ledgers before this ledger. Without either
// precondition the check cannot fail on the network, close times only
// going forward; the double skips it then, so that a test moving its clock
// back does not fail every later transaction.
func tooEarlyForAccount(env xdr.TransactionEnvelope, source *account, closeTime uint64, ledgerSeq int32) bool {
	var age uint64
	if a := env.MinSeqAge(); a != nil {
		age = uint64(*a)
	}
	var gap uint64
	if g := env.MinSeqLedgerGap(); g != nil {
		gap = uint64(*g)
	}
	if age == 0 && gap == 0 {
		return false
	}
	if age > closeTime || closeTime-age < source.seqTime {
		return true
	}
	seq := uint64(max(ledgerSeq, 0))
	return gap > seq || seq-gap < uint64(source.seqLedger)
}

// badSeq is core's isBadSeq (TransactionFrame.cpp) for an account at
// sequence number current, in ledger ledgerSeq: a transaction may not use
// the ledger's starting sequence number; with min_seq_num, min_seq_num <=
// current < seq; else current + 1 == seq.
func badSeq(current int64, env xdr.TransactionEnvelope, ledgerSeq int32) bool {
	seq := env.SeqNum()
	if seq == int64(ledgerSeq)<<32 {
		return true
	}
	if minSeq := env.MinSeqNum(); minSeq != nil {
		return current < *minSeq || current >= seq
	}
	return current == math.MaxInt64 || current+1 != seq
}

// opSources lists each operation's source account (its own, else the
// transaction's) as a G… address.
func opSources(env xdr.TransactionEnvelope) []string {
	ops := env.Operations()
	out := make([]string, len(ops))
	for i, op := range ops {
		m := env.SourceAccount()
		if op.SourceAccount != nil {
			m = *op.SourceAccount
		}
		out[i] = m.ToAccountId().Address()
	}
	return out
}

// authOf is what the signature checks read of an account: its ed25519
// signers (the master key among them, with its weight; left out at weight
// 0, as TransactionFrame.cpp checkSignature leaves it) and its thresholds.
// Signers of other kinds (pre-auth-tx, hash-x, signed payload) are kept in
// the account, and count for its reserve, but never match a signature
// here: where core would count them the double refuses.
func authOf(acc *account) ledger.AccountAuth {
	a := ledger.AccountAuth{Thresholds: ledger.Thresholds{Low: acc.low, Medium: acc.med, High: acc.high}}
	for _, s := range acc.horizonAccount().Signers {
		if s.Type == "ed25519_public_key" {
			a.Signers = append(a.Signers, ledger.Signer{Address: s.Key, Weight: s.Weight})
		}
	}
	return a
}

// charge is what the double charges the classic env: TransactionFrame.cpp
// getFee when applying, the base fee per operation (no surge pricing), at
// most the fee bid. h.mu is held.
func (h *Handler) charge(env xdr.TransactionEnvelope) int64 {
	return min(int64(env.Fee()), h.baseFee()*int64(max(len(env.Operations()), 1)))
}

// baseFee is the ledger's base fee per operation: BaseFee until SetBaseFee
// raises it. h.mu is held.
func (h *Handler) baseFee() int64 {
	if h.floor > 0 {
		return h.floor
	}
	return BaseFee
}

// SetBaseFee sets the ledger's base fee per operation, in stroops (the
// network's fee floor, last_ledger_base_fee in the fee statistics): from
// then on a transaction bidding less per operation is refused with
// tx_insufficient_fee, a fee-bump bidding less than it for each inner
// operation and the bump itself likewise, and transactions are charged
// it. 0 or less is BaseFee again. It is how a test makes fees rise so that
// only a bumped close lands.
func (h *Handler) SetBaseFee(stroops int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.floor = max(stroops, 0)
}

// txCodes are the transaction result codes the double gives, by Horizon's
// name.
var txCodes = map[string]xdr.TransactionResultCode{
	"tx_missing_operation":    xdr.TransactionResultCodeTxMissingOperation,
	"tx_too_early":            xdr.TransactionResultCodeTxTooEarly,
	"tx_too_late":             xdr.TransactionResultCodeTxTooLate,
	"tx_bad_seq":              xdr.TransactionResultCodeTxBadSeq,
	"tx_insufficient_fee":     xdr.TransactionResultCodeTxInsufficientFee,
	"tx_insufficient_balance": xdr.TransactionResultCodeTxInsufficientBalance,
	"tx_malformed":            xdr.TransactionResultCodeTxMalformed,
	txBadMinSeqAgeOrGap:       xdr.TransactionResultCodeTxBadMinSeqAgeOrGap,
	ledger.TxNoSourceAccount:  xdr.TransactionResultCodeTxNoAccount,
	ledger.TxBadAuth:          xdr.TransactionResultCodeTxBadAuth,
	ledger.TxBadAuthExtra:     xdr.TransactionResultCodeTxBadAuthExtra,
	ledger.TxFailed:           xdr.TransactionResultCodeTxFailed,
}

// encodeResult is the base64 TransactionResult of code, charged stroops
// charged, with the operation results results (tx_success and tx_failed
// only); "" when it cannot be built.
func encodeResult(code xdr.TransactionResultCode, charged int64, results []xdr.OperationResult) string {
	tr := xdr.TransactionResult{FeeCharged: xdr.Int64(charged), Result: xdr.TransactionResultResult{Code: code}}
	if code == xdr.TransactionResultCodeTxSuccess || code == xdr.TransactionResultCodeTxFailed {
		tr.Result.Results = &results
	}
	out, err := xdr.MarshalBase64(tr)
	if err != nil {
		return ""
	}
	return out
}

// transactionFailed is Horizon's problem for a transaction the ledger
// refused with code (and, for tx_failed, the operations' results), whose
// result charges charged.
func transactionFailed(b64 string, code string, results []xdr.OperationResult, charged int64) problem.P {
	var opCodes []string
	for _, r := range results {
		opCodes = append(opCodes, opCode(r))
	}
	extras := map[string]any{
		"envelope_xdr": b64,
		"result_codes": horizon.TransactionResultCodes{TransactionCode: code, OperationCodes: opCodes},
	}
	buildable := true // not when an operation the double does not model stands at op_success
	for _, r := range results {
		buildable = buildable && (r.Code != xdr.OperationResultCodeOpInner || r.Tr != nil)
	}
	if xc, ok := txCodes[code]; ok && buildable {
		if s := encodeResult(xc, charged, results); s != "" {
			extras["result_xdr"] = s
		}
	}
	return problem.P{
		Type:   "transaction_failed",
		Title:  "Transaction Failed",
		Status: http.StatusBadRequest,
		Detail: "The transaction failed when submitted to the stellar network. The `extras.result_codes` field on this response contains further details.",
		Extras: extras,
	}
}

func badRequest(detail string) problem.P {
	return problem.P{Type: "bad_request", Title: "Bad Request", Status: http.StatusBadRequest, Detail: detail}
}

// faultProblem is Horizon's problem for a scripted fault of status status.
func faultProblem(status int) problem.P {
	switch status {
	case http.StatusTooManyRequests:
		return problem.P{Type: "rate_limit_exceeded", Title: "Rate Limit Exceeded", Status: status,
			Detail: "The rate limit for the requesting IP address is over its alloted limit."}
	case http.StatusInternalServerError:
		return problem.ServerError
	case http.StatusServiceUnavailable:
		return serviceUnavailable()
	case http.StatusGatewayTimeout:
		return problem.P{Type: "timeout", Title: "Timeout", Status: status,
			Detail: "Your request timed out before completing. Please try your request again."}
	}
	return problem.P{Type: "fault", Title: http.StatusText(status), Status: status}
}

// transaction is Horizon's JSON for the applied classic transaction env
// (b64), charged charged stroops, in the ledger just closed.
func (h *Handler) transaction(b64 string, env xdr.TransactionEnvelope, hash [32]byte, charged int64, resultXDR string) horizon.Transaction {
	id := hex.EncodeToString(hash[:])
	source := env.SourceAccount()
	tx := horizon.Transaction{
		ID:              id,
		PT:              toid.New(h.lastLedger, 1, 0).String(),
		Successful:      true,
		Hash:            id,
		Ledger:          h.lastLedger,
		LedgerCloseTime: h.now().UTC().Truncate(time.Second),
		Account:         source.ToAccountId().Address(),
		AccountSequence: env.SeqNum(),
		FeeAccount:      source.ToAccountId().Address(),
		FeeCharged:      charged,
		MaxFee:          int64(env.Fee()),
		OperationCount:  int32(len(env.Operations())),
		EnvelopeXdr:     b64,
		ResultXdr:       resultXDR,
		Signatures:      []string{},
	}
	if source.Type == xdr.CryptoKeyTypeKeyTypeMuxedEd25519 {
		tx.AccountMuxed, _ = source.GetAddress()
		tx.AccountMuxedID = uint64(source.Med25519.Id)
		tx.FeeAccountMuxed, tx.FeeAccountMuxedID = tx.AccountMuxed, tx.AccountMuxedID
	}
	for _, s := range env.Signatures() {
		tx.Signatures = append(tx.Signatures, base64.StdEncoding.EncodeToString(s.Signature))
	}
	memo := env.Memo()
	switch memo.Type {
	case xdr.MemoTypeMemoText:
		tx.MemoType, tx.Memo = "text", memo.MustText()
	case xdr.MemoTypeMemoId:
		tx.MemoType, tx.Memo = "id", strconv.FormatUint(uint64(memo.MustId()), 10)
	case xdr.MemoTypeMemoHash:
		mh := memo.MustHash()
		tx.MemoType, tx.Memo = "hash", base64.StdEncoding.EncodeToString(mh[:])
	case xdr.MemoTypeMemoReturn:
		mh := memo.MustRetHash()
		tx.MemoType, tx.Memo = "return", base64.StdEncoding.EncodeToString(mh[:])
	default:
		tx.MemoType = "none"
	}
	if tb := env.TimeBounds(); tb != nil {
		bounds := &horizon.TransactionPreconditionsTimebounds{MinTime: strconv.FormatUint(uint64(tb.MinTime), 10)}
		if tb.MaxTime != 0 {
			bounds.MaxTime = strconv.FormatUint(uint64(tb.MaxTime), 10)
		}
		tx.Preconditions = &horizon.TransactionPreconditions{TimeBounds: bounds}
	}
	self := "/transactions/" + id
	tx.Links.Self = hal.Link{Href: self}
	tx.Links.Transaction = hal.Link{Href: self}
	tx.Links.Account = hal.Link{Href: "/accounts/" + tx.Account}
	tx.Links.Ledger = hal.Link{Href: "/ledgers/" + strconv.Itoa(int(h.lastLedger))}
	tx.Links.Operations = hal.Link{Href: self + "/operations{?cursor,limit,order}", Templated: true}
	tx.Links.Effects = hal.Link{Href: self + "/effects{?cursor,limit,order}", Templated: true}
	tx.Links.Precedes = hal.Link{Href: "/transactions?order=asc&cursor=" + tx.PT}
	tx.Links.Succeeds = hal.Link{Href: "/transactions?order=desc&cursor=" + tx.PT}
	return tx
}
