package ledger

import (
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// The preflight (CONTRACT section 14): a close applied, in order, to what
// the relay read of the ledger, with stellar-core's rules, to tell before
// anyone signs whether the ledger will take it. It is pure: the reads are
// the caller's, and it changes nothing it is given.
//
// It follows stellar-core in two phases, as TransactionFrame does. First the
// checks made before a transaction is accepted (TransactionFrame.cpp
// commonValidPreSeqNum and commonValid: the time and ledger bounds, the
// fee, the source account, the sequence number, the minimum sequence age
// and gap, the balance for the fee; then each operation's doCheckValid),
// the transaction's own rules against the latest ledger (txrules.go); a
// failure there
// means the transaction is never applied. Then the operations are applied
// one after the other to a copy of the state, the fee already taken, and the
// first that fails is the transaction's failure. Each rule names the
// stellar-core file it comes from.

// PreflightState is a preflight's verdict.
type PreflightState string

const (
	// PreflightLandable: every operation applies on the state read.
	PreflightLandable PreflightState = "landable"
	// PreflightBlocked: the ledger would refuse the close (or, for
	// memo_required, take it without the exchange crediting it).
	PreflightBlocked PreflightState = "blocked"
	// PreflightUncertain: an operation's outcome depends on what was not
	// read, and nothing before it fails; or a bound of the transaction is
	// not reached yet but will be within the plan's window (txrules.go),
	// and nothing blocks.
	PreflightUncertain PreflightState = "uncertain"
	// PreflightUnchecked: the reads failed, or an answer contradicts
	// itself; the close was not looked at.
	PreflightUnchecked PreflightState = "unchecked"
)

// MemoRequired is the blocker code of SEP-29: a payment or merge into an
// account that requires a memo, in a transaction that has none.
const MemoRequired = "memo_required"

// TxBlocker is the Op of a blocker of the transaction itself.
const TxBlocker = -1

// Blocker is one reason a close would not land: the operation's index (or
// TxBlocker, or ForwardBlocker), its result code as Horizon spells it in
// result_codes, and a reason in words.
type Blocker struct {
	Op     int
	Code   string
	Reason string
}

// Preflight is the verdict on a close and, when blocked, why. Blockers are
// in operation order, the transaction's first; only PreflightBlocked has any.
type Preflight struct {
	State    PreflightState
	Blockers []Blocker
}

// Landable is the preflight's answer to "will it land?": true, false, or
// nil when it cannot tell (uncertain, unchecked).
func (p Preflight) Landable() *bool {
	var v bool
	switch p.State {
	case PreflightLandable:
		v = true
	case PreflightBlocked:
		v = false
	default:
		return nil
	}
	return &v
}

// Stellar's amounts, in stroops.
const (
	// DefaultBaseReserve and DefaultBaseFee are the public networks' (since
	// protocol 10 and 11): a LedgerState that leaves them 0 uses them.
	DefaultBaseReserve = 5_000_000
	DefaultBaseFee     = 100
	// maxSigners is stellar-core's MAX_SIGNERS (SetOptionsOpFrame.cpp).
	maxSigners = 20
)

// LedgerState is what the relay read of the ledger for a close.
type LedgerState struct {
	BaseReserve int64 // 0 is DefaultBaseReserve
	BaseFee     int64 // 0 is DefaultBaseFee
	// Latest is the ledger the network closed last, when the state was
	// read: the transaction's own rules (time and ledger bounds, the
	// minimum sequence age and gap, the merge's sequence rule) are checked
	// against it. Its zero value is a ledger not read: those rules then
	// cannot be told, and the verdict is at best uncertain.
	Latest LatestLedger
	// Accounts holds every account read, by G… address. A nil value is an
	// account read and found not to exist; an address missing from the map
	// was not read, and an operation that needs it is uncertain.
	Accounts map[string]*AccountState
	// Claimables holds every claimable balance read, by ClaimableID. A nil
	// value is one read and found not to exist; a claim of one not read is
	// uncertain.
	Claimables map[string]*ClaimableBalance
}

// LatestLedger is the ledger the network closed last, as the ledger API
// gives it (Horizon's root history_latest_ledger and
// history_latest_ledger_closed_at; Stellar RPC's getLatestLedger sequence
// and closeTime).
type LatestLedger struct {
	Sequence  uint32 // 0 is not read
	CloseTime time.Time
}

// LedgerInterval is the network's target time between two ledgers. Ledgers
// close at that pace or slower, so at most WindowLedgers of them close
// within a plan's signing window: a bound counted in ledgers further away
// than that can never be met while the plan is open.
const LedgerInterval = 5 * time.Second

// WindowLedgers is the most ledgers that close within SigningWindow (72
// hours at one ledger per LedgerInterval: 51,840).
const WindowLedgers = uint32(SigningWindow / LedgerInterval)

// Trustline is one trustline: to a credit asset, or a pool share.
type Trustline struct {
	Asset  xdr.Asset // a credit asset; unset for a pool share
	PoolID string    // the pool's id, for a pool share
	// Balance, Limit and the liabilities are in stroops.
	Balance, Limit  int64
	Buying, Selling int64
	Flags           xdr.TrustLineFlags
	Sponsored       bool // another account pays its reserve
	// PoolUse is how many of the account's pool-share trustlines use this
	// asset (the entry's liquidityPoolUseCount): read from the entry
	// (Stellar RPC), or worked out from the pool shares Horizon lists
	// (PoolUseFromShares); AccountState.PoolUseKnown says which holds.
	PoolUse int32
}

// IsPoolShare reports whether t is a pool share's trustline.
func (t Trustline) IsPoolShare() bool { return t.PoolID != "" }

// Offer is one of the account's offers.
type Offer struct {
	ID              int64
	Selling, Buying xdr.Asset
	Amount          int64 // of Selling, in stroops
	Price           xdr.Price
	Sponsored       bool
}

// memoRequiredKey is SEP-29's data entry, and its value that asks for a memo.
const memoRequiredKey = "config.memo_required"

// MemoRequiredBy reports whether a requires a memo on payments to it
// (SEP-29: its data entry config.memo_required is "1").
func (a *AccountState) MemoRequiredBy() bool {
	return a != nil && string(a.Data[memoRequiredKey]) == "1"
}

// CheckClose runs the preflight of env (a close as ParseClose accepts it)
// against state.
func CheckClose(env xdr.TransactionEnvelope, state LedgerState) Preflight {
	p := newPreflight(env, state)
	return p.run()
}

// preflight is one run: the state as the operations change it.
type preflight struct {
	env     xdr.TransactionEnvelope
	ops     []xdr.Operation
	reserve int64
	baseFee int64
	latest  LatestLedger
	// pending: a rule cannot be told yet (a bound not reached, but that
	// will be within the plan's window; the latest ledger not read): the
	// verdict is at best uncertain, and the other rules still run.
	pending  bool
	accounts map[string]*AccountState // copied on first change (own)
	own      map[string]bool
	// claimables are the state's, a claimed one set to nil (a copy: the
	// entries themselves are never changed).
	claimables map[string]*ClaimableBalance
	blockers   []Blocker
}

func newPreflight(env xdr.TransactionEnvelope, s LedgerState) *preflight {
	p := &preflight{
		env:      env,
		ops:      env.Operations(),
		reserve:  s.BaseReserve,
		baseFee:  s.BaseFee,
		latest:   s.Latest,
		accounts: make(map[string]*AccountState, len(s.Accounts)),
		own:      make(map[string]bool),
	}
	if p.reserve == 0 {
		p.reserve = DefaultBaseReserve
	}
	if p.baseFee == 0 {
		p.baseFee = DefaultBaseFee
	}
	for k, v := range s.Accounts {
		p.accounts[k] = v
	}
	p.claimables = maps.Clone(s.Claimables)
	if p.claimables == nil {
		p.claimables = map[string]*ClaimableBalance{}
	}
	return p
}

// verdict is what applying one operation (or the transaction's checks) found.
type verdict int

const (
	vApplied verdict = iota
	vFailed
	vUncertain
)

func (p *preflight) block(op int, code, reason string) verdict {
	p.blockers = append(p.blockers, Blocker{Op: op, Code: code, Reason: reason})
	return vFailed
}

func (p *preflight) run() Preflight {
	state := PreflightLandable
	last := len(p.ops) - 1 // the last operation SEP-29's blockers are listed for
	source := accountAddress(p.env.SourceAccount())
	switch p.validateTransaction(source) {
	case vFailed:
	case vUncertain:
		state = PreflightUncertain
	default:
		for i, op := range p.ops {
			if p.validateOperation(i, op) == vFailed {
				return p.finish(state, i)
			}
		}
		// TransactionFrame.cpp processFeeSeqNum: the fee and the sequence
		// number are taken before any operation applies.
		src := p.mutable(source)
		src.Balance -= p.feeCharged()
		src.Sequence = p.env.SeqNum()
		for i, op := range p.ops {
			switch p.apply(i, op) {
			case vFailed:
				return p.finish(state, i)
			case vUncertain:
				return p.finish(PreflightUncertain, last)
			}
		}
	}
	return p.finish(state, last)
}

// finish is the verdict: blocked when anything blocks, with SEP-29's
// blockers for the operations up to last among the ledger's. SEP-29 is not
// the ledger's rule (the close lands, and the exchange does not credit it),
// so it blocks whatever the ledger would say.
func (p *preflight) finish(state PreflightState, last int) Preflight {
	var out []Blocker
	for _, b := range p.blockers {
		if b.Op == TxBlocker {
			out = append(out, b)
		}
	}
	for i := 0; i <= last && i < len(p.ops); i++ {
		if b, ok := p.memoBlocker(i, p.ops[i]); ok {
			out = append(out, b)
		}
		for _, b := range p.blockers {
			if b.Op == i {
				out = append(out, b)
			}
		}
	}
	if len(out) > 0 {
		return Preflight{State: PreflightBlocked, Blockers: out}
	}
	if p.pending && state == PreflightLandable {
		state = PreflightUncertain
	}
	return Preflight{State: state}
}

// feeCharged is what the ledger takes for the transaction when it applies:
// the bid, or less when the network's base fee for its operations is less
// (TransactionFrame.cpp getFee, with no surge pricing).
func (p *preflight) feeCharged() int64 {
	bid := int64(p.env.Fee())
	return min(bid, p.baseFee*int64(max(1, len(p.ops))))
}

// validateTransaction is TransactionFrame.cpp commonValidPreSeqNum's and
// commonValid's checks that the relay can make (the signatures are the
// relay's own), in their order: the time and ledger bounds, the fee bid,
// the source account, the sequence number, the minimum sequence age and
// gap, and the balance for the fee.
func (p *preflight) validateTransaction(source string) verdict {
	if p.bounds() == vFailed {
		return vFailed
	}
	if bid, least := int64(p.env.Fee()), p.baseFee*int64(max(1, len(p.ops))); bid < least {
		return p.block(TxBlocker, "tx_insufficient_fee", fmt.Sprintf("the fee bid %s XLM is below the network's %s XLM for %d operations", stroops(bid), stroops(least), len(p.ops)))
	}
	acc, read := p.accounts[source]
	if !read {
		return vUncertain
	}
	if acc == nil {
		return p.block(TxBlocker, "tx_no_source_account", "the transaction's source account "+source+" does not exist")
	}
	if !p.seqFits(acc.Sequence) {
		return p.block(TxBlocker, "tx_bad_seq", fmt.Sprintf("the account's sequence number is %d, and the transaction's %d does not follow it: the account has been used since the close was built", acc.Sequence, p.env.SeqNum()))
	}
	if first, known := p.firstLedger(); known && !p.pending && p.env.SeqNum() == startingSeq(first) {
		// TransactionFrame.cpp isBadSeq: a transaction may not use the
		// starting sequence number of the ledger it applies in.
		return p.block(TxBlocker, "tx_bad_seq", fmt.Sprintf("the transaction's sequence number %d is the starting sequence number of ledger %d, which no transaction may use", p.env.SeqNum(), first))
	}
	if p.seqAgeAndGap(acc) == vFailed {
		return vFailed
	}
	if avail := p.available(acc); avail < int64(p.env.Fee()) {
		return p.block(TxBlocker, "tx_insufficient_balance", fmt.Sprintf("the source account has %s XLM available above its reserve, less than the fee bid of %s XLM", stroops(max(avail, 0)), stroops(int64(p.env.Fee()))))
	}
	return vApplied
}

// seqFits is TransactionFrame.cpp isBadSeq, negated: the transaction's
// sequence number follows the account's, or, with a min_seq_num
// precondition, the account's is in [min_seq_num, the transaction's).
func (p *preflight) seqFits(current int64) bool {
	tx := p.env.SeqNum()
	if current == math.MaxInt64 {
		return false
	}
	if p.env.Type == xdr.EnvelopeTypeEnvelopeTypeTx {
		if pre := p.env.V1.Tx.Cond; pre.Type == xdr.PreconditionTypePrecondV2 && pre.V2.MinSeqNum != nil {
			min := int64(*pre.V2.MinSeqNum)
			return min <= current && current < tx
		}
	}
	return current+1 == tx
}

// minBalance is stellar-core's getMinBalance (ledger/LedgerTxnUtils,
// TransactionUtils.cpp): (2 + sub-entries + sponsoring − sponsored) reserves.
func (p *preflight) minBalance(a *AccountState) int64 {
	n := 2 + int64(a.NumSubEntries) + int64(a.NumSponsoring) - int64(a.NumSponsored)
	return n * p.reserve
}

// available is TransactionUtils.cpp getAvailableBalance: what the account
// can send of its native balance, above its reserve and its native selling
// liabilities.
func (p *preflight) available(a *AccountState) int64 {
	return a.Balance - p.minBalance(a) - a.NativeSelling
}

// validateOperation is each operation's doCheckValid, for the operations
// the preflight knows; the others are looked at when they apply.
func (p *preflight) validateOperation(i int, op xdr.Operation) verdict {
	source := p.opSource(op)
	switch op.Body.Type {
	case xdr.OperationTypeCreateAccount:
		// CreateAccountOpFrame.cpp doCheckValid.
		b := op.Body.MustCreateAccountOp()
		if b.StartingBalance < 0 {
			return p.block(i, "op_malformed", "a negative starting balance")
		}
		if b.Destination.Address() == source {
			return p.block(i, "op_malformed", "an account cannot create itself")
		}
	case xdr.OperationTypePayment:
		// PaymentOpFrame.cpp doCheckValid.
		b := op.Body.MustPaymentOp()
		if b.Amount <= 0 {
			return p.block(i, "op_malformed", "a payment's amount must be positive")
		}
		if !assetValid(b.Asset) {
			return p.block(i, "op_malformed", "the payment's asset is not valid")
		}
	case xdr.OperationTypeManageSellOffer, xdr.OperationTypeManageBuyOffer:
		// ManageOfferOpFrameBase.cpp doCheckValid.
		o := offerOp(op)
		if !assetValid(o.selling) || !assetValid(o.buying) || o.selling.Equals(o.buying) ||
			o.amount < 0 || o.price.N <= 0 || o.price.D <= 0 || o.id < 0 || (o.id == 0 && o.amount == 0) {
			return p.block(i, "op_malformed", "the offer operation is malformed")
		}
	case xdr.OperationTypeChangeTrust:
		// ChangeTrustOpFrame.cpp doCheckValid.
		b := op.Body.MustChangeTrustOp()
		if b.Limit < 0 {
			return p.block(i, "op_malformed", "a negative trustline limit")
		}
		if b.Line.Type == xdr.AssetTypeAssetTypeNative {
			return p.block(i, "op_malformed", "the native asset has no trustline")
		}
		if b.Line.Type != xdr.AssetTypeAssetTypePoolShare && !assetValid(b.Line.ToAsset()) {
			return p.block(i, "op_malformed", "the trustline's asset is not valid")
		}
	case xdr.OperationTypeManageData:
		// ManageDataOpFrame.cpp doCheckValid.
		b := op.Body.MustManageDataOp()
		if name := string(b.DataName); name == "" || !stringValid(name) {
			return p.block(i, "op_data_invalid_name", "the data entry's name is not valid")
		}
	case xdr.OperationTypeSetOptions:
		return p.validateSetOptions(i, op.Body.MustSetOptionsOp(), source)
	case xdr.OperationTypeBumpSequence:
		// BumpSequenceOpFrame.cpp doCheckValid.
		if op.Body.MustBumpSequenceOp().BumpTo < 0 {
			return p.block(i, "op_bad_seq", "a bump_sequence to a negative sequence number")
		}
	case xdr.OperationTypeAccountMerge:
		// MergeOpFrame.cpp doCheckValid.
		if accountAddress(op.Body.MustDestination()) == source {
			return p.block(i, "op_malformed", "an account cannot merge into itself")
		}
	}
	return vApplied
}

// validateSetOptions is SetOptionsOpFrame.cpp doCheckValid.
func (p *preflight) validateSetOptions(i int, b xdr.SetOptionsOp, source string) verdict {
	const known = xdr.AccountFlags(xdr.AccountFlagsAuthRequiredFlag | xdr.AccountFlagsAuthRevocableFlag |
		xdr.AccountFlagsAuthImmutableFlag | xdr.AccountFlagsAuthClawbackEnabledFlag)
	if (b.SetFlags != nil && xdr.AccountFlags(*b.SetFlags)&^known != 0) || (b.ClearFlags != nil && xdr.AccountFlags(*b.ClearFlags)&^known != 0) {
		return p.block(i, "op_unknown_flag", "an unknown account flag")
	}
	if b.SetFlags != nil && b.ClearFlags != nil && *b.SetFlags&*b.ClearFlags != 0 {
		return p.block(i, "op_bad_flags", "a flag both set and cleared")
	}
	for _, t := range []*xdr.Uint32{b.MasterWeight, b.LowThreshold, b.MedThreshold, b.HighThreshold} {
		if t != nil && *t > math.MaxUint8 {
			return p.block(i, "op_threshold_out_of_range", "a weight or threshold above 255")
		}
	}
	if b.Signer != nil {
		key := b.Signer.Key.Address()
		if key == source || b.Signer.Weight > math.MaxUint8 {
			return p.block(i, "op_bad_signer", "the signer is the account's own key or weighs more than 255")
		}
	}
	if b.HomeDomain != nil && !stringValid(string(*b.HomeDomain)) {
		return p.block(i, "op_invalid_home_domain", "the home domain is not valid")
	}
	return vApplied
}

// apply applies op to the state, or says why it fails or cannot be told.
func (p *preflight) apply(i int, op xdr.Operation) verdict {
	source := p.opSource(op)
	if _, read := p.accounts[source]; !read {
		return vUncertain
	}
	if p.accounts[source] == nil {
		// OperationFrame.cpp checkValid: an operation's source must exist.
		return p.block(i, "op_no_source_account", "the operation's source account "+source+" does not exist")
	}
	switch op.Body.Type {
	case xdr.OperationTypeCreateAccount:
		return p.createAccount(i, source, op.Body.MustCreateAccountOp())
	case xdr.OperationTypePayment:
		return p.payment(i, source, op.Body.MustPaymentOp())
	case xdr.OperationTypeManageSellOffer, xdr.OperationTypeManageBuyOffer:
		return p.manageOffer(i, source, offerOp(op))
	case xdr.OperationTypeChangeTrust:
		return p.changeTrust(i, source, op.Body.MustChangeTrustOp())
	case xdr.OperationTypeManageData:
		return p.manageData(i, source, op.Body.MustManageDataOp())
	case xdr.OperationTypeSetOptions:
		return p.setOptions(i, source, op.Body.MustSetOptionsOp())
	case xdr.OperationTypeAccountMerge:
		return p.merge(i, source, accountAddress(op.Body.MustDestination()))
	case xdr.OperationTypeClaimClaimableBalance:
		return p.claim(i, source, op.Body.MustClaimClaimableBalanceOp())
	case xdr.OperationTypeBumpSequence:
		// BumpSequenceOpFrame.cpp doApply: the sequence number only goes
		// up (a bump to a lower number succeeds and changes nothing).
		src := p.mutable(source)
		if to := int64(op.Body.MustBumpSequenceOp().BumpTo); to > src.Sequence {
			src.Sequence = to
		}
		return vApplied
	}
	// A path payment's receive side, a pool withdrawal: what they move
	// depends on the order books and pools not read.
	return vUncertain
}

// mergesInto reports whether an operation of the close merges into dest.
func (p *preflight) mergesInto(dest string) bool {
	for _, op := range p.env.Operations() {
		if op.Body.Type != xdr.OperationTypeAccountMerge || op.Body.Destination == nil {
			continue
		}
		if got, err := op.Body.Destination.GetAddress(); err == nil && got == dest {
			return true
		}
	}
	return false
}

// createAccount is CreateAccountOpFrame.cpp doApply (from protocol 14).
func (p *preflight) createAccount(i int, source string, b xdr.CreateAccountOp) verdict {
	dest := b.Destination.Address()
	d, read := p.accounts[dest]
	if !read {
		return vUncertain
	}
	if d != nil {
		if i == 0 && p.mergesInto(dest) {
			// A mediator close (CONTRACT 16): the mediator's address is in
			// the published close, so anyone can create it first, for one
			// unit, and stop the close for good.
			return p.block(i, "op_already_exists", "the mediator "+dest+", which this close creates before merging into it, already exists: someone else created it, and the close can never land; mint a new flow and build the close again")
		}
		return p.block(i, "op_already_exists", "the account to create, "+dest+", already exists")
	}
	// createEntryWithPossibleSponsorship: an account needs two reserves.
	if least := 2 * p.reserve; int64(b.StartingBalance) < least {
		return p.block(i, "op_low_reserve", fmt.Sprintf("a new account needs at least %s XLM; the operation gives %s XLM", stroops(least), stroops(int64(b.StartingBalance))))
	}
	src := p.mutable(source)
	if avail := p.available(src); avail < int64(b.StartingBalance) {
		return p.block(i, "op_underfunded", fmt.Sprintf("the account has %s XLM available above its reserve, less than the %s XLM the new account is given", stroops(max(avail, 0)), stroops(int64(b.StartingBalance))))
	}
	src.Balance -= int64(b.StartingBalance)
	// A new account's sequence number is the starting sequence number of
	// the ledger it is created in (getStartingSequenceNumber); the ledger
	// is the first the close can apply in, or, not read, one no account
	// reaches (its merge is then pending, never passed).
	seq := int64(math.MaxInt64)
	if first, known := p.firstLedger(); known {
		seq = startingSeq(first)
	}
	p.accounts[dest] = &AccountState{ID: dest, Balance: int64(b.StartingBalance), Sequence: seq, OffersComplete: true,
		Signers: []AccountSigner{{Type: SignerEd25519, Key: dest, Weight: 1}}}
	p.own[dest] = true
	return vApplied
}

// payment is PaymentOpFrame.cpp doApply: a payment to oneself in XLM is
// nothing; any other is PathPaymentStrictReceiveOpFrame.cpp doApply with
// no path: the destination's side first (PathPaymentOpFrameBase.cpp
// updateDestBalance), then the source's (updateSourceBalance). A payment of
// an asset back to its issuer needs no destination account
// (shouldBypassIssuerCheck), and the issuer's side of a payment never fails.
func (p *preflight) payment(i int, source string, b xdr.PaymentOp) verdict {
	dest := accountAddress(b.Destination)
	native := b.Asset.Type == xdr.AssetTypeAssetTypeNative
	amount := int64(b.Amount)
	if dest == source && native {
		return vApplied
	}
	issuer := assetIssuer(b.Asset)
	destIsIssuer := !native && dest == issuer
	if !destIsIssuer {
		d, read := p.accounts[dest]
		if !read {
			return vUncertain
		}
		if d == nil {
			return p.block(i, "op_no_destination", "the destination "+dest+" does not exist")
		}
	}
	// The destination's side.
	switch {
	case native:
		d := p.mutable(dest)
		if d.Balance > math.MaxInt64-d.NativeBuying-amount {
			return p.block(i, "op_line_full", "the destination cannot hold that much XLM")
		}
		d.Balance += amount
	case destIsIssuer:
	default:
		d := p.mutable(dest)
		tl := d.trustline(b.Asset)
		if tl == nil {
			return p.block(i, "op_no_trust", "the destination "+dest+" has no trustline to "+assetName(b.Asset))
		}
		if !authorized(tl.Flags) {
			return p.block(i, "op_not_authorized", "the destination is not authorized to hold "+assetName(b.Asset))
		}
		if tl.Balance > tl.Limit-tl.Buying-amount {
			return p.block(i, "op_line_full", "the destination's trustline to "+assetName(b.Asset)+" cannot hold that much")
		}
		tl.Balance += amount
	}
	// The source's side.
	switch {
	case native:
		src := p.mutable(source)
		if avail := p.available(src); amount > avail {
			return p.block(i, "op_underfunded", fmt.Sprintf("the account has %s XLM available above its reserve and liabilities, less than the %s XLM paid", stroops(max(avail, 0)), stroops(amount)))
		}
		src.Balance -= amount
	case source == issuer:
	default:
		src := p.mutable(source)
		tl := src.trustline(b.Asset)
		if tl == nil {
			return p.block(i, "op_src_no_trust", "the account has no trustline to "+assetName(b.Asset))
		}
		if !authorized(tl.Flags) {
			return p.block(i, "op_src_not_authorized", "the account is not authorized to send "+assetName(b.Asset))
		}
		if tl.Balance-amount < tl.Selling {
			return p.block(i, "op_underfunded", fmt.Sprintf("the account holds %s %s, %s of it promised to offers, less than the %s paid", stroops(tl.Balance), assetName(b.Asset), stroops(tl.Selling), stroops(amount)))
		}
		tl.Balance -= amount
	}
	return vApplied
}

// offerArgs is a manage sell or buy offer, as the preflight needs it.
type offerArgs struct {
	selling, buying xdr.Asset
	amount          int64
	price           xdr.Price
	id              int64
}

func offerOp(op xdr.Operation) offerArgs {
	if op.Body.Type == xdr.OperationTypeManageBuyOffer {
		b := op.Body.MustManageBuyOfferOp()
		return offerArgs{selling: b.Selling, buying: b.Buying, amount: int64(b.BuyAmount), price: b.Price, id: int64(b.OfferId)}
	}
	b := op.Body.MustManageSellOfferOp()
	return offerArgs{selling: b.Selling, buying: b.Buying, amount: int64(b.Amount), price: b.Price, id: int64(b.OfferId)}
}

// manageOffer is ManageOfferOpFrameBase.cpp doApply for deleting an offer
// (amount 0): no trustline is looked at (checkOfferValid), an offer the
// account does not have is op_offer_not_found, and the offer's liabilities
// and sub-entry go. Creating or changing an offer crosses the order book,
// which the relay does not read.
func (p *preflight) manageOffer(i int, source string, o offerArgs) verdict {
	if o.amount != 0 {
		return vUncertain
	}
	src := p.mutable(source)
	at := slices.IndexFunc(src.Offers, func(x Offer) bool { return x.ID == o.id })
	if at < 0 {
		if !src.OffersComplete && !slices.Contains(src.OffersRead, o.id) {
			return vUncertain
		}
		return p.block(i, "op_offer_not_found", fmt.Sprintf("the account has no offer %d", o.id))
	}
	off := src.Offers[at]
	src.Offers = slices.Delete(src.Offers, at, at+1)
	src.releaseLiabilities(off)
	src.NumSubEntries--
	if off.Sponsored {
		src.NumSponsored--
	}
	return vApplied
}

// changeTrust is ChangeTrustOpFrame.cpp doApply for removing a trustline
// (limit 0). Adding or changing one needs the issuer's account, which the
// relay does not read.
func (p *preflight) changeTrust(i int, source string, b xdr.ChangeTrustOp) verdict {
	if b.Line.Type != xdr.AssetTypeAssetTypePoolShare && assetIssuer(b.Line.ToAsset()) == source {
		return p.block(i, "op_self_not_allowed", "an account cannot trust its own asset")
	}
	if b.Limit != 0 {
		return vUncertain
	}
	src := p.mutable(source)
	at := -1
	if b.Line.Type == xdr.AssetTypeAssetTypePoolShare {
		id, err := xdr.NewPoolId(b.Line.LiquidityPool.ConstantProduct.AssetA, b.Line.LiquidityPool.ConstantProduct.AssetB, b.Line.LiquidityPool.ConstantProduct.Fee)
		if err != nil {
			return p.block(i, "op_malformed", "the pool share's parameters are not valid")
		}
		want := xdr.Hash(id).HexString()
		at = slices.IndexFunc(src.Trustlines, func(t Trustline) bool { return t.PoolID == want })
	} else {
		asset := b.Line.ToAsset()
		at = slices.IndexFunc(src.Trustlines, func(t Trustline) bool { return !t.IsPoolShare() && t.Asset.Equals(asset) })
	}
	if at < 0 {
		return p.block(i, "op_invalid_limit", "the account has no such trustline to remove")
	}
	tl := src.Trustlines[at]
	// getMinimumLimit: balance plus buying liabilities.
	if tl.Balance+tl.Buying > 0 {
		return p.block(i, "op_invalid_limit", fmt.Sprintf("the trustline to %s still holds %s (and %s promised to it by offers): it can only be removed empty", tl.name(), stroops(tl.Balance), stroops(tl.Buying)))
	}
	if !tl.IsPoolShare() {
		switch {
		case !src.PoolUseKnown && src.hasPoolShares():
			// A pool share may use the asset, and which ones do is not
			// known: op_cannot_delete, or not.
			return vUncertain
		case tl.PoolUse > 0:
			// ChangeTrustOpFrame.cpp doApply: a trustline whose
			// liquidityPoolUseCount is not 0 cannot be deleted.
			return p.block(i, "op_cannot_delete", fmt.Sprintf("the trustline to %s is used by %d of the account's pool shares: remove them first", tl.name(), tl.PoolUse))
		}
	}
	src.Trustlines = slices.Delete(src.Trustlines, at, at+1)
	n := uint32(1)
	if tl.IsPoolShare() {
		n = 2
		// ChangeTrustOpFrame.cpp managePoolOnDeletedTrustLine
		// (decrementPoolUseCount): each credit asset of the pool, but one
		// the account issues, has one use less on the account's line.
		cp := b.Line.LiquidityPool.ConstantProduct
		for _, a := range []xdr.Asset{cp.AssetA, cp.AssetB} {
			if a.Type == xdr.AssetTypeAssetTypeNative || assetIssuer(a) == source {
				continue
			}
			if j := slices.IndexFunc(src.Trustlines, func(t Trustline) bool { return !t.IsPoolShare() && t.Asset.Equals(a) }); j >= 0 && src.Trustlines[j].PoolUse > 0 {
				src.Trustlines[j].PoolUse--
			}
		}
	}
	src.NumSubEntries -= n
	if tl.Sponsored {
		src.NumSponsored -= n
	}
	return vApplied
}

// manageData is ManageDataOpFrame.cpp doApply.
func (p *preflight) manageData(i int, source string, b xdr.ManageDataOp) verdict {
	src := p.mutable(source)
	name := string(b.DataName)
	_, exists := src.Data[name]
	if b.DataValue == nil {
		if !exists {
			return p.block(i, "op_data_name_not_found", fmt.Sprintf("the account has no data entry %q", name))
		}
		delete(src.Data, name)
		src.NumSubEntries--
		if src.DataSponsored[name] {
			src.NumSponsored--
			delete(src.DataSponsored, name)
		}
		return vApplied
	}
	if !exists {
		// createEntryWithPossibleSponsorship: the new entry's reserve.
		src.NumSubEntries++
		if src.Balance < p.minBalance(src)+src.NativeSelling {
			src.NumSubEntries--
			return p.block(i, "op_low_reserve", "the account's balance cannot cover the reserve of a new data entry")
		}
	}
	if src.Data == nil {
		src.Data = make(map[string][]byte)
	}
	src.Data[name] = slices.Clone([]byte(*b.DataValue))
	return vApplied
}

// setOptions is SetOptionsOpFrame.cpp doApply.
func (p *preflight) setOptions(i int, source string, b xdr.SetOptionsOp) verdict {
	src := p.mutable(source)
	if b.InflationDest != nil {
		if dest := b.InflationDest.Address(); dest != source {
			d, read := p.accounts[dest]
			if !read {
				return vUncertain
			}
			if d == nil {
				return p.block(i, "op_invalid_inflation", "the inflation destination "+dest+" does not exist")
			}
		}
	}
	const auth = xdr.AccountFlags(xdr.AccountFlagsAuthRequiredFlag | xdr.AccountFlagsAuthRevocableFlag |
		xdr.AccountFlagsAuthImmutableFlag | xdr.AccountFlagsAuthClawbackEnabledFlag)
	immutable := src.Flags.AuthImmutable
	flags := flagMask(src.Flags)
	if b.ClearFlags != nil {
		if xdr.AccountFlags(*b.ClearFlags)&auth != 0 && immutable {
			return p.block(i, "op_cant_change", "the account's flags are immutable")
		}
		flags &^= xdr.AccountFlags(*b.ClearFlags)
	}
	if b.SetFlags != nil {
		if xdr.AccountFlags(*b.SetFlags)&auth != 0 && immutable {
			return p.block(i, "op_cant_change", "the account's flags are immutable")
		}
		flags |= xdr.AccountFlags(*b.SetFlags)
	}
	src.Flags = flagsOf(flags)
	if (b.SetFlags != nil || b.ClearFlags != nil) && src.Flags.AuthClawbackEnabled && !src.Flags.AuthRevocable {
		// accountFlagClawbackIsValid.
		return p.block(i, "op_auth_revocable_required", "clawback needs the revocable flag")
	}
	if b.Signer == nil {
		return vApplied
	}
	key := b.Signer.Key.Address()
	at := slices.IndexFunc(src.Signers, func(s AccountSigner) bool { return s.Key == key })
	switch {
	case b.Signer.Weight == 0 && at >= 0:
		// deleteSigner; a signer's sponsorship is not shown, so its
		// reserve is taken as the account's own.
		src.Signers = slices.Delete(src.Signers, at, at+1)
		src.NumSubEntries--
	case b.Signer.Weight == 0:
	case at >= 0: // a new weight only
	default:
		// addOrChangeSigner.
		if src.extraSigners(source) >= maxSigners {
			return p.block(i, "op_too_many_signers", "the account already has 20 signers")
		}
		src.NumSubEntries++
		if src.Balance < p.minBalance(src)+src.NativeSelling {
			src.NumSubEntries--
			return p.block(i, "op_low_reserve", "the account's balance cannot cover the reserve of a new signer")
		}
		src.Signers = append(src.Signers, AccountSigner{Type: signerType(b.Signer.Key), Key: key, Weight: int32(b.Signer.Weight)})
	}
	return vApplied
}

// merge is MergeOpFrame.cpp doApplyFromV16, in its order.
func (p *preflight) merge(i int, source, dest string) verdict {
	d, read := p.accounts[dest]
	if !read {
		return vUncertain
	}
	if d == nil {
		return p.block(i, "op_no_account", "the account to merge into, "+dest+", does not exist")
	}
	src := p.mutable(source)
	if src.Flags.AuthImmutable {
		return p.block(i, "op_immutable_set", "the account has AUTH_IMMUTABLE set, and an account with it can never be merged")
	}
	if int(src.NumSubEntries) != src.extraSigners(source) {
		return p.block(i, "op_has_sub_entries", "the account still holds "+src.remaining(source)+": each must be removed before the merge")
	}
	if p.seqTooFar(i, src.Sequence) == vFailed {
		return vFailed
	}
	if src.NumSponsoring > 0 {
		return p.block(i, "op_is_sponsor", fmt.Sprintf("the account pays the reserve of %d entries of other accounts: those sponsorships must end before the merge", src.NumSponsoring))
	}
	dst := p.mutable(dest)
	if dst.Balance > math.MaxInt64-dst.NativeBuying-src.Balance {
		return p.block(i, "op_dest_full", "the destination cannot hold the account's XLM")
	}
	dst.Balance += src.Balance
	p.accounts[source] = nil
	return vApplied
}

// memoBlocker is SEP-29's blocker for op when it pays or merges into an
// account that requires a memo and the transaction has none.
func (p *preflight) memoBlocker(i int, op xdr.Operation) (Blocker, bool) {
	if p.env.Memo().Type != xdr.MemoTypeMemoNone {
		return Blocker{}, false
	}
	var dest string
	switch op.Body.Type {
	case xdr.OperationTypePayment:
		dest = accountAddress(op.Body.MustPaymentOp().Destination)
	case xdr.OperationTypePathPaymentStrictReceive:
		dest = accountAddress(op.Body.MustPathPaymentStrictReceiveOp().Destination)
	case xdr.OperationTypePathPaymentStrictSend:
		dest = accountAddress(op.Body.MustPathPaymentStrictSendOp().Destination)
	case xdr.OperationTypeAccountMerge:
		dest = accountAddress(op.Body.MustDestination())
	default:
		return Blocker{}, false
	}
	// SEP-29 is about another account crediting a deposit; an account
	// paying itself (a close selling a balance for XLM to itself, with
	// config.memo_required among the entries it deletes) credits nobody.
	if dest == p.opSource(op) {
		return Blocker{}, false
	}
	if !p.accounts[dest].MemoRequiredBy() {
		return Blocker{}, false
	}
	return Blocker{Op: i, Code: MemoRequired, Reason: "the destination " + dest + " requires a memo (SEP-29), and the transaction has none: the funds would arrive and not be credited"}, true
}

// opSource is the G… address an operation acts on.
func (p *preflight) opSource(op xdr.Operation) string {
	if op.SourceAccount != nil {
		return accountAddress(*op.SourceAccount)
	}
	return accountAddress(p.env.SourceAccount())
}

// mutable is the run's own copy of an account, made on first change so the
// caller's state is never written; nil for an account not read or absent.
func (p *preflight) mutable(id string) *AccountState {
	a := p.accounts[id]
	if a == nil || p.own[id] {
		return a
	}
	c := *a
	c.Signers = slices.Clone(a.Signers)
	c.Trustlines = slices.Clone(a.Trustlines)
	c.Offers = slices.Clone(a.Offers)
	c.Data = make(map[string][]byte, len(a.Data))
	for k, v := range a.Data {
		c.Data[k] = v
	}
	c.DataSponsored = make(map[string]bool, len(a.DataSponsored))
	for k, v := range a.DataSponsored {
		c.DataSponsored[k] = v
	}
	p.accounts[id] = &c
	p.own[id] = true
	return &c
}

// extraSigners counts the signers other than the account's master key:
// each is a sub-entry, and the only kind a merge allows.
func (a *AccountState) extraSigners(self string) int {
	n := 0
	for _, s := range a.Signers {
		if s.Key != self {
			n++
		}
	}
	return n
}

// flagMask and flagsOf convert the account's flags to and from the
// ledger's bit mask, which set_options changes.
func flagMask(f AccountFlags) xdr.AccountFlags {
	var m xdr.AccountFlags
	for bit, on := range map[xdr.AccountFlags]bool{
		xdr.AccountFlagsAuthRequiredFlag: f.AuthRequired, xdr.AccountFlagsAuthRevocableFlag: f.AuthRevocable,
		xdr.AccountFlagsAuthImmutableFlag: f.AuthImmutable, xdr.AccountFlagsAuthClawbackEnabledFlag: f.AuthClawbackEnabled,
	} {
		if on {
			m |= bit
		}
	}
	return m
}

func flagsOf(m xdr.AccountFlags) AccountFlags {
	return AccountFlags{
		AuthRequired:        m&xdr.AccountFlagsAuthRequiredFlag != 0,
		AuthRevocable:       m&xdr.AccountFlagsAuthRevocableFlag != 0,
		AuthImmutable:       m&xdr.AccountFlagsAuthImmutableFlag != 0,
		AuthClawbackEnabled: m&xdr.AccountFlagsAuthClawbackEnabledFlag != 0,
	}
}

// signerType is a signer key's type as the ledger APIs name it.
func signerType(k xdr.SignerKey) SignerType {
	switch k.Type {
	case xdr.SignerKeyTypeSignerKeyTypePreAuthTx:
		return SignerPreAuthTx
	case xdr.SignerKeyTypeSignerKeyTypeHashX:
		return SignerHashX
	case xdr.SignerKeyTypeSignerKeyTypeEd25519SignedPayload:
		return SignerSignedPayload
	}
	return SignerEd25519
}

func (a *AccountState) trustline(asset xdr.Asset) *Trustline {
	for i := range a.Trustlines {
		if !a.Trustlines[i].IsPoolShare() && a.Trustlines[i].Asset.Equals(asset) {
			return &a.Trustlines[i]
		}
	}
	return nil
}

func (a *AccountState) hasPoolShares() bool {
	return slices.ContainsFunc(a.Trustlines, Trustline.IsPoolShare)
}

// releaseLiabilities takes a deleted offer's liabilities off the balances
// they were on (OfferExchange's releaseLiabilities): its amount from what
// is sold, and what it would buy from what is bought. What it would buy is
// computed as the ledger does to the stroop only for offers the ledger has
// adjusted; when no offer left sells or buys an asset, none of its
// liabilities can remain, whatever rounding the ledger used.
func (a *AccountState) releaseLiabilities(off Offer) {
	buying := offerBuying(off)
	sub := func(native *int64, asset xdr.Asset, amount int64, sells bool) {
		// With a partial listing an offer not read may still use the asset.
		still := !a.OffersComplete || slices.ContainsFunc(a.Offers, func(o Offer) bool {
			if sells {
				return o.Selling.Equals(asset)
			}
			return o.Buying.Equals(asset)
		})
		if asset.Type == xdr.AssetTypeAssetTypeNative {
			*native = liabilityLeft(*native, amount, still)
			return
		}
		if tl := a.trustline(asset); tl != nil {
			if sells {
				tl.Selling = liabilityLeft(tl.Selling, amount, still)
			} else {
				tl.Buying = liabilityLeft(tl.Buying, amount, still)
			}
		}
	}
	sub(&a.NativeSelling, off.Selling, off.Amount, true)
	sub(&a.NativeBuying, off.Buying, buying, false)
}

func liabilityLeft(had, released int64, still bool) int64 {
	if !still {
		return 0
	}
	return max(had-released, 0)
}

// offerBuying is how much of its buying asset an offer would take: its
// amount times its price, rounded up (the most it can promise).
func offerBuying(o Offer) int64 {
	if o.Price.D <= 0 {
		return 0
	}
	n := new(big.Int).Mul(big.NewInt(o.Amount), big.NewInt(int64(o.Price.N)))
	d := big.NewInt(int64(o.Price.D))
	n.Add(n, d).Sub(n, big.NewInt(1)).Quo(n, d)
	if !n.IsInt64() {
		return math.MaxInt64
	}
	return n.Int64()
}

// remaining says what sub-entries the account still holds, by name where
// they are listed and by count where they are not.
func (a *AccountState) remaining(self string) string {
	var parts []string
	var lines []string
	for _, t := range a.Trustlines {
		lines = append(lines, t.name())
	}
	if len(lines) > 0 {
		parts = append(parts, countOf(len(lines), "trustline")+": "+strings.Join(lines, ", "))
	}
	if len(a.Offers) > 0 {
		ids := make([]string, len(a.Offers))
		for i, o := range a.Offers {
			ids[i] = fmt.Sprintf("%d", o.ID)
		}
		// "id": a bare "1 offer: 1" reads as a count twice.
		label := "id "
		if len(ids) > 1 {
			label = "ids "
		}
		parts = append(parts, countOf(len(a.Offers), "offer")+": "+label+strings.Join(ids, ", "))
	}
	if len(a.Data) > 0 {
		names := make([]string, 0, len(a.Data))
		for k := range a.Data {
			names = append(names, fmt.Sprintf("%q", k))
		}
		sort.Strings(names)
		parts = append(parts, countOf(len(names), "data entry")+": "+strings.Join(names, ", "))
	}
	if unlisted := int(a.NumSubEntries) - a.listed(); unlisted > 0 {
		parts = append(parts, countOf(unlisted, "sub-entry")+" the ledger API did not list")
	}
	if len(parts) == 0 {
		return fmt.Sprintf("%d sub-entries", int(a.NumSubEntries)-a.extraSigners(self))
	}
	return strings.Join(parts, "; ")
}

func countOf(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "entry") {
		return fmt.Sprintf("%d %sentries", n, strings.TrimSuffix(what, "entry"))
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// name is how a trustline is named to a co-signer: CODE (GABC…) or the
// pool share's id.
func (t Trustline) name() string {
	if t.IsPoolShare() {
		return "pool share " + t.PoolID
	}
	return assetName(t.Asset)
}

func assetName(a xdr.Asset) string {
	if a.Type == xdr.AssetTypeAssetTypeNative {
		return "XLM"
	}
	code, issuer := assetParts(a)
	return code + " (" + issuer + ")"
}

func assetIssuer(a xdr.Asset) string {
	if a.Type == xdr.AssetTypeAssetTypeNative {
		return ""
	}
	_, issuer := assetParts(a)
	return issuer
}

func assetParts(a xdr.Asset) (code, issuer string) {
	var typ xdr.AssetType
	_ = a.Extract(&typ, &code, &issuer)
	return code, issuer
}

// assetValid is TransactionUtils.cpp isAssetValid for classic assets: a
// code of the right length, of letters and digits, padded with zeros only
// at its end, and not all padding.
func assetValid(a xdr.Asset) bool {
	var raw []byte
	switch a.Type {
	case xdr.AssetTypeAssetTypeNative:
		return true
	case xdr.AssetTypeAssetTypeCreditAlphanum4:
		c := a.MustAlphaNum4().AssetCode
		raw = c[:]
	case xdr.AssetTypeAssetTypeCreditAlphanum12:
		c := a.MustAlphaNum12().AssetCode
		raw = c[:]
	default:
		return false
	}
	n := 0
	for n < len(raw) && raw[n] != 0 {
		ch := raw[n]
		if !(ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z') {
			return false
		}
		n++
	}
	for _, ch := range raw[n:] {
		if ch != 0 {
			return false
		}
	}
	if a.Type == xdr.AssetTypeAssetTypeCreditAlphanum12 {
		return n > 4
	}
	return n > 0
}

// stringValid is stellar-core's isStringValid: printable ASCII only.
func stringValid(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// authorized is TrustLineWrapper's isAuthorized: fully authorized, not only
// to keep liabilities.
func authorized(f xdr.TrustLineFlags) bool {
	return f&xdr.TrustLineFlagsAuthorizedFlag != 0
}

func accountAddress(m xdr.MuxedAccount) string {
	acc := m.ToAccountId()
	return acc.Address()
}

// stroops writes an amount of stroops as Stellar's seven-decimal amount.
func stroops(v int64) string {
	neg := v < 0
	if neg {
		v = -v
	}
	s := fmt.Sprintf("%d.%07d", v/10_000_000, v%10_000_000)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if neg {
		s = "-" + s
	}
	return s
}

// PreflightRun is one run of the preflight on a plan: its verdict and when
// the state it read was read.
type PreflightRun struct {
	Preflight
	Checked time.Time
	// Native is the closing account's native balance, in stroops, as the
	// run read it: what the page says the close sends. 0 when the run did
	// not read the account (an account that exists holds its reserve).
	Native int64
	// Fee is the run's word on the close's fee bid: its bid per operation
	// and the network's fee statistics, when known.
	Fee FeeAdvice
	// Reason, for an uncertain or unchecked run only, says why the
	// preflight could not tell when a bound of the relay's own stopped it
	// (accounts it did not read, ledger calls it did not make); empty
	// otherwise.
	Reason string
}

// Unchecked is the run of a preflight whose reads failed at checked.
func Unchecked(checked time.Time) PreflightRun {
	return PreflightRun{Preflight: Preflight{State: PreflightUnchecked}, Checked: checked}
}

// UncheckedBecause is Unchecked with the reason a bound of the relay's own
// gives for making no reads.
func UncheckedBecause(checked time.Time, reason string) PreflightRun {
	r := Unchecked(checked)
	r.Reason = reason
	return r
}

// Destinations are the accounts other than its operations' source that a
// close pays, creates, merges into or names as inflation destination: what
// the preflight reads besides the closing account, in operation order,
// each once.
func Destinations(env xdr.TransactionEnvelope) []string {
	var out []string
	add := func(id string) {
		if id != "" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	for _, op := range env.Operations() {
		b := op.Body
		switch b.Type {
		case xdr.OperationTypeCreateAccount:
			add(b.MustCreateAccountOp().Destination.Address())
		case xdr.OperationTypePayment:
			add(accountAddress(b.MustPaymentOp().Destination))
		case xdr.OperationTypePathPaymentStrictReceive:
			add(accountAddress(b.MustPathPaymentStrictReceiveOp().Destination))
		case xdr.OperationTypePathPaymentStrictSend:
			add(accountAddress(b.MustPathPaymentStrictSendOp().Destination))
		case xdr.OperationTypeAccountMerge:
			add(accountAddress(b.MustDestination()))
		case xdr.OperationTypeSetOptions:
			if d := b.MustSetOptionsOp().InflationDest; d != nil {
				add(d.Address())
			}
		}
	}
	return out
}
