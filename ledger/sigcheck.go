package ledger

// The ledger's signature checks, as stellar-core makes them when it validates
// a transaction (TransactionFrame::checkValid), as a pure function, and the
// readiness arithmetic of CONTRACT section 10 built on the same rules.
//
// What core does (src/transactions/SignatureChecker.cpp, TransactionFrame.cpp,
// OperationFrame.cpp, at stellar/stellar-core a9b8613, 2026-08):
//
//   - One SignatureChecker per transaction holds the envelope's signatures and
//     a "used" flag for each. Every check hands it a signer list and a needed
//     weight: checkSignature walks the signatures in envelope order; for each
//     one it tries the signers not yet matched in this check, in list order;
//     the first that matches marks the signature used, adds its weight
//     (capped at 255 from protocol 10), and the check passes as soon as the
//     total reaches the needed weight (so later signatures are left unused by
//     this check); otherwise that signer is removed from this check's list,
//     so a signer counts at most once per check. A check that runs out of
//     signatures fails. The needed weight is compared only after a match, so
//     a needed weight of 0 still takes one matching signature.
//   - Signers are split by kind and matched kind by kind: pre-auth-tx
//     signers first (no signature: the key is the transaction hash), then
//     hash-x, then ed25519, then ed25519 signed payload. A signature matches
//     an ed25519 key only if its hint is the key's last four bytes and it
//     verifies over the transaction hash.
//   - An account's signer list is its master key (weight = master weight,
//     left out when that is 0) followed by its signers.
//   - The transaction's source account is checked at its low threshold, then
//     the V2 precondition's extra signers (weight 1 each, all needed); a
//     failure is tx_bad_auth. Then each operation's source account (its own,
//     else the transaction's; a muxed account counts as its G… account) at
//     the level the operation needs (getThresholdLevel: LevelOf here); the
//     first failure is tx_failed with op_bad_auth for that operation. An
//     operation whose explicit source does not exist is checked against that
//     key alone, weight 1, needed 0. Last, any signature no check used fails
//     the transaction with tx_bad_auth_extra.
//   - From protocol 28 a checker performs at most 1000 ed25519
//     verifications (counting only signatures whose hint matches and that
//     are 64 bytes long); past that nothing more matches.
//
// What is not modelled: an account's signers other than ed25519 keys
// (pre-auth-tx, hash-x and signed-payload signers of an account; the relay
// never admits a signature for them), and protocol 7's "everything passes".
// Extra signers of every kind are modelled.

import (
	"bytes"
	"cmp"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"slices"

	"github.com/closerelay/closerelay/ledger/corever"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// ThresholdLevel is which of an account's thresholds a check needs.
type ThresholdLevel uint8

// The three threshold levels, in core's order.
const (
	LevelLow ThresholdLevel = iota
	LevelMedium
	LevelHigh
)

func (l ThresholdLevel) String() string {
	switch l {
	case LevelLow:
		return "low"
	case LevelMedium:
		return "medium"
	case LevelHigh:
		return "high"
	}
	return "unknown"
}

// Thresholds are an account's low, medium and high thresholds.
type Thresholds struct {
	Low, Medium, High uint8
}

// At is the threshold of level l.
func (t Thresholds) At(l ThresholdLevel) int {
	switch l {
	case LevelLow:
		return int(t.Low)
	case LevelMedium:
		return int(t.Medium)
	default:
		return int(t.High)
	}
}

// LevelOf is the threshold level the ledger checks an operation's source
// account at (each operation frame's getThresholdLevel in stellar-core):
//
//   - high: ACCOUNT_MERGE; SET_OPTIONS when it sets the master weight, a
//     threshold or a signer;
//   - low: ALLOW_TRUST and SET_TRUST_LINE_FLAGS (TrustFlagsOpFrameBase),
//     BUMP_SEQUENCE, CLAIM_CLAIMABLE_BALANCE, INFLATION,
//     EXTEND_FOOTPRINT_TTL, RESTORE_FOOTPRINT;
//   - medium: every other operation (OperationFrame's default), SET_OPTIONS
//     that changes none of the above included.
func LevelOf(op xdr.Operation) ThresholdLevel {
	switch op.Body.Type {
	case xdr.OperationTypeAccountMerge:
		return LevelHigh
	case xdr.OperationTypeSetOptions:
		if so := op.Body.SetOptionsOp; so != nil && (so.MasterWeight != nil || so.LowThreshold != nil ||
			so.MedThreshold != nil || so.HighThreshold != nil || so.Signer != nil) {
			return LevelHigh
		}
		return LevelMedium
	case xdr.OperationTypeAllowTrust, xdr.OperationTypeSetTrustLineFlags,
		xdr.OperationTypeBumpSequence, xdr.OperationTypeClaimClaimableBalance,
		xdr.OperationTypeInflation, xdr.OperationTypeExtendFootprintTtl,
		xdr.OperationTypeRestoreFootprint:
		return LevelLow
	}
	return LevelMedium
}

// CloseThreshold is CONTRACT 10's threshold of a close of account: the
// largest threshold among the levels the ledger checks that account at (low
// when it is the transaction's source, and each operation whose source it
// is at LevelOf), and at least 1. account is a G… address; sources are
// compared as the ledger compares them, a muxed M… source being its G…
// account. An envelope that is not classic has threshold 1.
func CloseThreshold(env xdr.TransactionEnvelope, account string, t Thresholds) int {
	threshold := 1
	if !isClassic(env) {
		return threshold
	}
	key, err := strkey.Decode(strkey.VersionByteAccountID, account)
	if err != nil {
		return threshold
	}
	txSource, txOK := accountKey(env.SourceAccount())
	if txOK && bytes.Equal(txSource[:], key) {
		threshold = max(threshold, t.At(LevelLow))
	}
	for _, op := range env.Operations() {
		src, ok := opSourceKey(op, txSource, txOK)
		if ok && bytes.Equal(src[:], key) {
			threshold = max(threshold, t.At(LevelOf(op)))
		}
	}
	return threshold
}

// MaxSignerWeight is the most a signer's weight counts for: core caps every
// weight at 255 (UINT8_MAX) from protocol 10.
const MaxSignerWeight = 255

// signerWeight is w as the ledger counts it: at most MaxSignerWeight, and a
// weight of 0 or less is no weight.
func signerWeight(w int32) int { return int(min(max(w, 0), MaxSignerWeight)) }

// Weight is CONTRACT 10's weight of a set of admitted signatures: the sum of
// the weights of the distinct signers of set they carry (each capped at
// MaxSignerWeight, as the ledger caps it). An index outside set counts
// nothing.
func Weight(set *SignerSet, admitted []Admitted) int {
	total := 0
	eachCounted(set, admitted, func(_ int, w int32) { total += signerWeight(w) })
	return total
}

// eachCounted calls f with the index and signer weight of each admitted
// signature the ledger counts: its signer is in set and no earlier
// signature in the list is that signer's. A plan's set holds at most
// MaxPlanSignerSet signers, a bit each, so weighing a plan's version does not
// allocate; a larger set (never a real account's) falls back to a map.
func eachCounted(set *SignerSet, admitted []Admitted, f func(i int, w int32)) {
	signers := set.Signers()
	var bits uint64
	var seen map[int]bool
	if len(signers) > 64 {
		seen = make(map[int]bool, len(admitted))
	}
	for i, a := range admitted {
		if a.Signer < 0 || a.Signer >= len(signers) {
			continue
		}
		if seen != nil {
			if seen[a.Signer] {
				continue
			}
			seen[a.Signer] = true
		} else {
			if bits&(1<<a.Signer) != 0 {
				continue
			}
			bits |= 1 << a.Signer
		}
		f(i, signers[a.Signer].Weight)
	}
}

// SelectReady is CONTRACT 10's submit-ready selection. weights[i] is the
// weight of the signer of the i-th admitted signature, in admission order,
// one entry per distinct signer. It returns the indexes of the fewest
// signatures whose weights reach threshold, in the order the envelope must
// carry them: largest weight first, and among equal weights the earliest
// admitted; ok is false, and selected nil, when all of them together do not
// reach threshold.
//
// Taking the largest weights first makes the selection the fewest
// signatures, and it makes every one of them needed: the sum of all but the
// last stays below threshold, and dropping any other instead loses at least
// as much as the last. In that order each of the ledger's checks of the
// closing account (none needs more than threshold, CloseThreshold's
// definition) stops at the last signature or before, and the check that
// needs threshold itself walks them all: every signature is used, so the
// envelope never fails with tx_bad_auth_extra, and none can be removed.
//
// When the transaction's source is another account (a fee payer), the
// ledger also checks that account, with its own signature, which the relay
// does not hold: the relay cannot submit such a close, but the selection is
// still the closing account's signatures, and the payer's signature added
// anywhere leaves them all used (unless the payer's key is also a signer of
// the closing account).
//
// A threshold below 1 is taken as 1: the ledger's checks always take one
// matching signature. Weights count as the ledger counts them (0 or less is
// nothing, more than MaxSignerWeight is MaxSignerWeight); a signature of
// weight 0 is never selected.
func SelectReady(weights []int32, threshold int) (selected []int, ok bool) {
	threshold = max(threshold, 1)
	order := make([]int, 0, len(weights))
	for i, w := range weights {
		if signerWeight(w) > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Compare(signerWeight(weights[b]), signerWeight(weights[a]))
	})
	total := 0
	for n, i := range order {
		total += signerWeight(weights[i])
		if total >= threshold {
			return order[:n+1], true
		}
	}
	return nil, false
}

// ReadySignatures is SelectReady over a plan's admitted signatures: the
// submit-ready signatures, in the envelope's order. A signature whose signer
// was already admitted earlier is never selected (admission never keeps
// one), nor is one whose index is outside set.
func ReadySignatures(set *SignerSet, admitted []Admitted, threshold int) ([]Admitted, bool) {
	weights := make([]int32, len(admitted)) // 0, not selected, unless counted
	eachCounted(set, admitted, func(i int, w int32) { weights[i] = w })
	idx, ok := SelectReady(weights, threshold)
	if !ok {
		return nil, false
	}
	out := make([]Admitted, len(idx))
	for n, i := range idx {
		out[n] = admitted[i]
	}
	return out, true
}

// AccountAuth is what the ledger's signature checks read of one account.
type AccountAuth struct {
	// Signers are the account's ed25519 signers with their weights, the
	// master key included with the master weight (as the account API lists
	// them, or as SignerSet.Signers gives them). One whose weight is 0 or
	// less is no signer: core leaves out a master key of weight 0, and the
	// ledger keeps no other signer of weight 0. The key is Key, or when
	// that is empty the key of Address; Hint is not read (core takes the
	// key's last four bytes).
	Signers    []Signer
	Thresholds Thresholds
}

// VerifyFunc reports whether sig is key's valid ed25519 signature of msg.
// It must not panic on any input lengths.
type VerifyFunc func(key ed25519.PublicKey, msg, sig []byte) bool

// VerifyCore is stellar-core's verification (ledger/corever): cofactorless,
// canonical encodings, no small-order points (CONTRACT section 10). It is
// the default of SigRules, so the checks refuse exactly what the ledger
// refuses.
func VerifyCore(key ed25519.PublicKey, msg, sig []byte) bool { return corever.Verify(key, msg, sig) }

// CoreVerifyBudget is the most ed25519 verifications one transaction's
// checks make in stellar-core from protocol 28
// (SignatureChecker::TX_ED25519_VERIFY_BUDGET).
const CoreVerifyBudget = 1000

// SigRules are the parameters of CheckSignatures.
type SigRules struct {
	// Verify verifies one ed25519 signature; nil is VerifyCore.
	Verify VerifyFunc
	// VerifyBudget bounds the verifications of one transaction's checks as
	// core does from protocol 28: a signature whose hint matches a signer's
	// and which is 64 bytes long costs one, and once VerifyBudget are spent
	// nothing more matches. 0 is CoreVerifyBudget; a negative budget is none
	// (the rule before protocol 28). It only bites beyond 1000
	// verifications: a check walks at most 20 signatures, so an envelope
	// needs more than 50 checks (operations) for it to matter.
	VerifyBudget int
}

// Result codes of the signature checks, as Horizon spells them in
// extras.result_codes.
const (
	TxBadAuth         = "tx_bad_auth"
	TxBadAuthExtra    = "tx_bad_auth_extra"
	TxFailed          = "tx_failed"
	TxNoSourceAccount = "tx_no_source_account"
	OpBadAuth         = "op_bad_auth"
	OpNoSourceAccount = "op_no_source_account"
	OpSuccess         = "op_success"
)

// CheckOutcome is one of the ledger's signature checks.
type CheckOutcome struct {
	// Account is the G… account whose signers the check reads; "" for the
	// extra-signers check.
	Account string
	Level   ThresholdLevel // the level checked (low for the transaction's source)
	Needed  int            // the weight needed: the account's threshold at Level
	Weight  int            // the weight the check gathered before it stopped
	Passed  bool
	// Missing reports an account absent from the accounts given (the
	// ledger's "no account"); the check then did not pass, except an
	// operation's explicit source, checked as core checks an account that
	// does not exist: against its own key, weight 1, needed 0.
	Missing bool
}

// SignatureCheck is what the ledger's signature checks make of an envelope.
type SignatureCheck struct {
	// Code is the transaction result code core would give for the
	// signatures alone, in Horizon's spelling: "" when every check passes and
	// every signature is used; otherwise the first failure in core's order:
	// TxNoSourceAccount, TxBadAuth (the source's check or the extra
	// signers'), TxFailed (an operation's check; see OpCodes),
	// TxBadAuthExtra (a signature no check used).
	Code string
	// OpCodes, when Code is TxFailed, is Horizon's result code of each
	// operation: OpBadAuth or OpNoSourceAccount for the first that failed
	// (core stops there), OpSuccess for the others. Nil otherwise.
	OpCodes []string

	Source CheckOutcome   // the transaction's source at its low threshold
	Extra  *CheckOutcome  // the extra signers of a V2 precondition, nil when none
	Ops    []CheckOutcome // Ops[i] is operation i's source at LevelOf(op i)
	// Used[i] reports whether any check used the envelope's signature i.
	// Every check is made, including those core would skip after a failure,
	// so Used and the outcomes after the first failure are for diagnosis.
	Used []bool
}

// Unused lists the indexes of the signatures no check used, in order.
func (r SignatureCheck) Unused() []int {
	var out []int
	for i, u := range r.Used {
		if !u {
			out = append(out, i)
		}
	}
	return out
}

// ErrNotClassic is CheckSignatures' error for an envelope that is not a
// classic (V0 or V1) transaction.
var ErrNotClassic = errors.New("envelope is not a classic transaction")

// CheckSignatures is SigRules{}.Check: crypto/ed25519 verification and
// core's verification budget.
func CheckSignatures(env xdr.TransactionEnvelope, hash [32]byte, accounts map[string]AccountAuth) (SignatureCheck, error) {
	return SigRules{}.Check(env, hash, accounts)
}

// Check makes the ledger's signature checks of env, whose transaction hash
// (under the network's passphrase) is hash, against the accounts it names:
// accounts maps G… addresses to their signers and thresholds, and an
// address it lacks is an account that does not exist. See the top of
// sigcheck.go for the rules. The only error is ErrNotClassic.
func (rules SigRules) Check(env xdr.TransactionEnvelope, hash [32]byte, accounts map[string]AccountAuth) (SignatureCheck, error) {
	if !isClassic(env) {
		return SignatureCheck{}, ErrNotClassic
	}
	c := rules.checker(env.Signatures(), hash)
	res := SignatureCheck{Used: c.used}

	txKey, txOK := accountKey(env.SourceAccount())
	res.Source = c.checkAccount(txKey, txOK, accounts, LevelLow, false)
	if extra := env.ExtraSigners(); len(extra) > 0 {
		out := CheckOutcome{Level: LevelLow, Needed: len(extra)}
		signers := make([]sigSigner, 0, len(extra))
		for _, k := range extra {
			if s, ok := extraSigner(k); ok {
				signers = append(signers, s)
			}
		}
		out.Passed, out.Weight = c.check(signers, len(extra))
		res.Extra = &out
	}
	ops := env.Operations()
	res.Ops = make([]CheckOutcome, len(ops))
	for i, op := range ops {
		key, ok := opSourceKey(op, txKey, txOK)
		res.Ops[i] = c.checkAccount(key, ok, accounts, LevelOf(op), op.SourceAccount != nil)
	}

	switch {
	case res.Source.Missing:
		res.Code = TxNoSourceAccount
	case !res.Source.Passed || (res.Extra != nil && !res.Extra.Passed):
		res.Code = TxBadAuth
	default:
		for i, o := range res.Ops {
			if o.Passed {
				continue
			}
			res.Code = TxFailed
			res.OpCodes = make([]string, len(ops))
			for j := range res.OpCodes {
				res.OpCodes[j] = OpSuccess
			}
			res.OpCodes[i] = OpBadAuth
			if o.Missing && ops[i].SourceAccount == nil {
				// core's opNO_ACCOUNT; an explicit source that does not
				// exist was checked against its own key: op_bad_auth.
				res.OpCodes[i] = OpNoSourceAccount
			}
			return res, nil
		}
		if slices.Contains(res.Used, false) {
			res.Code = TxBadAuthExtra
		}
	}
	return res, nil
}

// checker is the SignatureChecker of sigs over hash under rules (core's
// verification and budget unless set).
func (rules SigRules) checker(sigs []xdr.DecoratedSignature, hash [32]byte) *checker {
	c := &checker{sigs: sigs, hash: hash, verify: rules.Verify, budget: rules.VerifyBudget}
	if c.verify == nil {
		c.verify = VerifyCore
	}
	if c.budget == 0 {
		c.budget = CoreVerifyBudget
	}
	c.used = make([]bool, len(c.sigs))
	return c
}

// checker is one transaction's SignatureChecker.
type checker struct {
	sigs          []xdr.DecoratedSignature
	hash          [32]byte
	verify        VerifyFunc
	budget        int // < 0: none
	verifications int
	used          []bool
}

// sigSigner is one signer as a check sees it.
type sigSigner struct {
	kind    xdr.SignerKeyType
	key     [32]byte // ed25519 key, pre-auth-tx hash or hash-x hash
	payload []byte   // signed payload
	hint    xdr.SignatureHint
	weight  int
}

// checkAccount is TransactionFrame::checkSignature for the account of key
// at level (or checkSignatureNoAccount when the account does not exist and
// explicit says the operation names it).
func (c *checker) checkAccount(key xdr.Uint256, ok bool, accounts map[string]AccountAuth, level ThresholdLevel, explicit bool) CheckOutcome {
	if !ok {
		return CheckOutcome{Level: level, Missing: true}
	}
	address, err := strkey.Encode(strkey.VersionByteAccountID, key[:])
	if err != nil {
		return CheckOutcome{Level: level, Missing: true}
	}
	out := CheckOutcome{Account: address, Level: level}
	auth, known := accounts[address]
	if !known {
		out.Missing = true
		if explicit {
			out.Passed, out.Weight = c.check([]sigSigner{ed25519Signer(key, 1)}, 0)
		}
		return out
	}
	out.Needed = auth.Thresholds.At(level)
	signers := make([]sigSigner, 0, len(auth.Signers))
	for _, s := range auth.Signers {
		w := signerWeight(s.Weight)
		key := s.Key
		if len(key) == 0 && s.Address != "" {
			key, _ = strkey.Decode(strkey.VersionByteAccountID, s.Address)
		}
		if w == 0 || len(key) != ed25519.PublicKeySize {
			continue
		}
		signers = append(signers, ed25519Signer(xdr.Uint256(key), w))
	}
	out.Passed, out.Weight = c.check(signers, out.Needed)
	return out
}

// check is SignatureChecker::checkSignature: it reports whether the
// signatures reach needed, and the weight gathered when it stopped.
func (c *checker) check(signers []sigSigner, needed int) (bool, int) {
	total := 0
	for _, s := range signers {
		if s.kind == xdr.SignerKeyTypeSignerKeyTypePreAuthTx && s.key == c.hash {
			total += s.weight
			if total >= needed {
				return true, total
			}
		}
	}
	for _, kind := range []xdr.SignerKeyType{
		xdr.SignerKeyTypeSignerKeyTypeHashX,
		xdr.SignerKeyTypeSignerKeyTypeEd25519,
		xdr.SignerKeyTypeSignerKeyTypeEd25519SignedPayload,
	} {
		var remaining []sigSigner
		for _, s := range signers {
			if s.kind == kind {
				remaining = append(remaining, s)
			}
		}
		if kind == xdr.SignerKeyTypeSignerKeyTypeEd25519SignedPayload && c.overBudget() {
			return false, total // core gives up after the ed25519 pass
		}
		for i, sig := range c.sigs {
			for j, s := range remaining {
				if !c.matches(sig, s) {
					continue
				}
				c.used[i] = true
				total += s.weight
				if total >= needed {
					return true, total
				}
				remaining = slices.Delete(remaining, j, j+1)
				break
			}
		}
	}
	return false, total
}

func (c *checker) overBudget() bool { return c.budget > 0 && c.verifications >= c.budget }

// matches is SignatureUtils' verify, verifyHashX and
// verifyEd25519SignedPayload, with the verification budget.
func (c *checker) matches(sig xdr.DecoratedSignature, s sigSigner) bool {
	switch s.kind {
	case xdr.SignerKeyTypeSignerKeyTypeHashX:
		return sig.Hint == s.hint && sha256.Sum256(sig.Signature) == s.key
	case xdr.SignerKeyTypeSignerKeyTypeEd25519, xdr.SignerKeyTypeSignerKeyTypeEd25519SignedPayload:
		if c.overBudget() || sig.Hint != s.hint || len(sig.Signature) != ed25519.SignatureSize {
			return false
		}
		c.verifications++
		msg := c.hash[:]
		if s.kind == xdr.SignerKeyTypeSignerKeyTypeEd25519SignedPayload {
			msg = s.payload
		}
		return c.verify(ed25519.PublicKey(s.key[:]), msg, sig.Signature)
	}
	return false
}

func ed25519Signer(key xdr.Uint256, weight int) sigSigner {
	return sigSigner{kind: xdr.SignerKeyTypeSignerKeyTypeEd25519, key: key, hint: hintOf(key[:]), weight: weight}
}

// extraSigner is an extra signer of a V2 precondition: weight 1.
func extraSigner(k xdr.SignerKey) (sigSigner, bool) {
	switch k.Type {
	case xdr.SignerKeyTypeSignerKeyTypeEd25519:
		if k.Ed25519 != nil {
			return ed25519Signer(*k.Ed25519, 1), true
		}
	case xdr.SignerKeyTypeSignerKeyTypePreAuthTx:
		if k.PreAuthTx != nil {
			return sigSigner{kind: k.Type, key: *k.PreAuthTx, weight: 1}, true
		}
	case xdr.SignerKeyTypeSignerKeyTypeHashX:
		if k.HashX != nil {
			return sigSigner{kind: k.Type, key: *k.HashX, hint: hintOf(k.HashX[:]), weight: 1}, true
		}
	case xdr.SignerKeyTypeSignerKeyTypeEd25519SignedPayload:
		if p := k.Ed25519SignedPayload; p != nil {
			// core's getSignedPayloadHint: the key's hint XOR the payload's.
			hint := hintOf(p.Ed25519[:])
			ph := hintOf(p.Payload)
			for i := range hint {
				hint[i] ^= ph[i]
			}
			return sigSigner{kind: k.Type, key: p.Ed25519, payload: p.Payload, hint: hint, weight: 1}, true
		}
	}
	return sigSigner{}, false
}

// hintOf is core's getHint: the last four bytes, or for a shorter slice its
// bytes followed by zeros.
func hintOf(b []byte) xdr.SignatureHint {
	var h xdr.SignatureHint
	if len(b) < len(h) {
		copy(h[:], b)
		return h
	}
	copy(h[:], b[len(b)-len(h):])
	return h
}

// accountKey is the ed25519 key of the G… account of m, as core's
// toAccountID makes it: a muxed account is its G… account.
func accountKey(m xdr.MuxedAccount) (xdr.Uint256, bool) {
	switch m.Type {
	case xdr.CryptoKeyTypeKeyTypeEd25519:
		if m.Ed25519 != nil {
			return *m.Ed25519, true
		}
	case xdr.CryptoKeyTypeKeyTypeMuxedEd25519:
		if m.Med25519 != nil {
			return m.Med25519.Ed25519, true
		}
	}
	return xdr.Uint256{}, false
}

// opSourceKey is the key of op's source account: its own, else the
// transaction's (txSource, when txOK).
func opSourceKey(op xdr.Operation, txSource xdr.Uint256, txOK bool) (xdr.Uint256, bool) {
	if op.SourceAccount != nil {
		return accountKey(*op.SourceAccount)
	}
	return txSource, txOK
}

// ErrNotFeeBump is CheckFeeBumpSignatures' error for an envelope that is
// not a fee-bump.
var ErrNotFeeBump = errors.New("envelope is not a fee-bump transaction")

// CheckFeeBumpSignatures is SigRules{}.CheckFeeBump.
func CheckFeeBumpSignatures(env xdr.TransactionEnvelope, hash [32]byte, accounts map[string]AccountAuth) (SignatureCheck, error) {
	return SigRules{}.CheckFeeBump(env, hash, accounts)
}

// CheckFeeBump makes the ledger's checks of a fee-bump's own signatures
// (FeeBumpTransactionFrame.cpp checkAllTransactionSignatures, then
// checkAllSignaturesUsed): the outer envelope's signatures, over hash (the
// fee-bump's hash under the network's passphrase), must reach the fee
// source's low threshold, and each must be used. The inner transaction's
// signatures are not looked at: Check makes those on the inner envelope.
// Code is "" when both pass, else TxNoSourceAccount (the fee source is not
// in accounts), TxBadAuth or TxBadAuthExtra; Source is the fee source's
// check. The only error is ErrNotFeeBump.
func (rules SigRules) CheckFeeBump(env xdr.TransactionEnvelope, hash [32]byte, accounts map[string]AccountAuth) (SignatureCheck, error) {
	if env.Type != xdr.EnvelopeTypeEnvelopeTypeTxFeeBump || env.FeeBump == nil {
		return SignatureCheck{}, ErrNotFeeBump
	}
	c := rules.checker(env.FeeBumpSignatures(), hash)
	res := SignatureCheck{Used: c.used}
	key, ok := accountKey(env.FeeBumpAccount())
	res.Source = c.checkAccount(key, ok, accounts, LevelLow, false)
	switch {
	case res.Source.Missing:
		res.Code = TxNoSourceAccount
	case !res.Source.Passed:
		res.Code = TxBadAuth
	case slices.Contains(res.Used, false):
		res.Code = TxBadAuthExtra
	}
	return res, nil
}
