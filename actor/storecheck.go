package actor

import (
	"errors"
	"fmt"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/plan"
	"github.com/closerelay/closerelay/planstore"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// A plan's entry is whatever anything that can write the bucket wrote, so
// an instance checks what it reads before it serves it or merges it in
// (CONTRACT section 9, round 4): the envelope is the published close and
// its signatures verify (ledger.RestorePlan when a plan is restored,
// ledger.RestoreSignatures when a held plan takes a change in), and every
// other field it trusts is in shape (checkRecord). A record that fails is
// refused: a plan not held here is as if absent (404 NOT_FOUND), a plan
// held keeps its own view and writes it back over the record; either way
// the refusal is logged and counted in
// closerelay_store_records_refused_total{reason}.

// refusedReason is the reason label of a refusal of a stored record, ok
// false for an error that is no refusal (the store unreachable, a bug).
func refusedReason(err error) (reason string, ok bool) {
	switch {
	case errors.Is(err, planstore.ErrCorrupt):
		return metrics.StoreRefusedValue, true
	case errors.Is(err, ledger.ErrStoredEnvelope):
		return metrics.StoreRefusedEnvelope, true
	case errors.Is(err, ledger.ErrStoredHash):
		return metrics.StoreRefusedHash, true
	case errors.Is(err, ledger.ErrStoredSignature):
		return metrics.StoreRefusedSignature, true
	case errors.Is(err, ledger.ErrStoredFields):
		return metrics.StoreRefusedFields, true
	case errors.Is(err, ErrStoredFlow):
		return metrics.StoreRefusedFlow, true
	}
	return "", false
}

// refused logs and counts the refusal err of plan id's entry at revision,
// and reports whether err is one (false: another failure, for the caller).
func (s *Supervisor) refused(id string, revision uint64, err error) bool {
	reason, ok := refusedReason(err)
	if !ok {
		return false
	}
	s.metrics.StoreRecordRefused(reason)
	s.log.Error("plan store: a stored plan fails its check; refused", "id", id, "revision", revision, "reason", reason, "err", err)
	return true
}

// FlowCheck verifies a flow token as a plan keeps it (Options.FlowCheck):
// the flow it commits to (Token unset) and the flow's mediator address.
type FlowCheck func(token string) (flow plan.Flow, mediatorAddress string, err error)

// ErrStoredFlow: a stored flow does not verify (its token's MAC under the
// master, the flow it commits to, the close merging into its mediator).
var ErrStoredFlow = errors.New("actor: the stored plan's flow does not verify")

// checkFlow checks f, a stored flow of the plan whose close is env, with
// check: its token verifies and commits to f's nonce, destination and
// memo, and the close creates and merges into the flow's mediator
// (ledger.CheckMediatorClose, as publish checked it). The token is the
// master's word; the record's fields beside it are the store's.
//
// Without a check (no master configured here) the flow cannot be told
// from a forgery, and is no refusal either: the plan is unavailable here
// (ErrUnavailable, 503), never served without its flow nor written over
// (which would lose the flow of a plan an instance with a master took).
// Every instance of a cluster has the same MEDIATOR_SECRET.
func checkFlow(check FlowCheck, f *planstore.ForwardRecord, env xdr.TransactionEnvelope) error {
	if check == nil {
		return fmt.Errorf("%w: the plan's mediator flow cannot be checked without a master", ErrUnavailable)
	}
	got, mediator, err := check(f.Token)
	if err != nil {
		return fmt.Errorf("%w: its token does not verify", ErrStoredFlow)
	}
	if !got.Same(plan.Flow{Nonce: f.Nonce, Destination: f.Destination, Memo: f.Memo}) {
		return fmt.Errorf("%w: its token commits to another flow", ErrStoredFlow)
	}
	if reason := ledger.CheckMediatorClose(env, mediator); reason != "" {
		return fmt.Errorf("%w: %s", ErrStoredFlow, reason)
	}
	return nil
}

// checkHeldFlow checks f, the flow of a change of the plan whose view is
// cur: the plan's own flow (same token) needs no check, another flow than
// the plan's is refused (a flow is set once), and a flow new to the plan,
// or a new token of its flow, is checked (checkFlow).
func (k *planParts) checkHeldFlow(cur *planState, f *planstore.ForwardRecord) error {
	if f == nil || f.Nonce == "" {
		return nil
	}
	if held := cur.fwd.Flow; held != nil {
		if !held.Same(plan.Flow{Nonce: f.Nonce, Destination: f.Destination, Memo: f.Memo}) {
			return fmt.Errorf("%w: another flow than the plan's", ErrStoredFlow)
		}
		if held.Token == f.Token {
			return nil
		}
	}
	return checkFlow(k.flowCheck, f, k.published.Envelope())
}

// maxStoredText bounds a stored code or reason: they are shown to clients
// (status, events), and the relay's own are a line.
const maxStoredText = 1024

// maxOperations is the most operations a transaction has (the ledger's
// rule), and maxStoredBlockers bounds a preflight run's blockers: a few per
// operation (memo_required and its failure), the transaction's own (op -1)
// and the forward's (op -2).
const (
	maxOperations     = 100
	maxStoredBlockers = 4*maxOperations + 8
)

// checkRecord checks the fields of r that the envelope cannot: the
// submission's, the forward's and the preflight runs', each in shape (a
// known state, a hash of 64 lowercase hex characters, a G… destination, a
// 32-hex nonce, a memo the forward can carry, bounded text), and the
// signer set's weights. It does not look at the envelope, its signatures,
// network, account, threshold or expiry (ledger.RestorePlan and union do).
func checkRecord(r planstore.Record) error {
	for _, sg := range r.Set {
		if sg.Weight < 0 || sg.Weight > ledger.MaxSignerWeight {
			return fieldsError("a signer's weight %d is outside 0 to %d", sg.Weight, ledger.MaxSignerWeight)
		}
	}
	sub := r.Submission
	switch sub.State {
	case "", plan.SubmissionPending, plan.SubmissionSubmitted, plan.SubmissionFailed, plan.SubmissionBlocked:
	default:
		return fieldsError("submission state %q", sub.State)
	}
	if err := checkOutcome("submission", sub.Hash, sub.Ledger, sub.Code, sub.Reason); err != nil {
		return err
	}
	if len(sub.Tried) > ledger.MaxXDRLength {
		return fieldsError("the submission's tried envelope is %d characters", len(sub.Tried))
	}
	for _, run := range []*planstore.PreflightRecord{r.Preflight, sub.Preflight} {
		if err := checkPreflight(run); err != nil {
			return err
		}
	}
	if f := r.Forward; f != nil {
		if err := checkForward(f); err != nil {
			return err
		}
	}
	return nil
}

// checkForward checks a stored forward's shape: its flow (set together,
// or not at all) and its state.
func checkForward(f *planstore.ForwardRecord) error {
	if f.Nonce != "" || f.Destination != "" || f.Memo != "" || f.Token != "" {
		if !isLowerHex(f.Nonce, 32) {
			return fieldsError("the flow's nonce %q is not 32 lowercase hex characters", f.Nonce)
		}
		if !strkey.IsValidEd25519PublicKey(f.Destination) {
			return fieldsError("the flow's destination %q is not a G… account", f.Destination)
		}
		if f.Memo == "" || f.Token == "" || len(f.Memo) > maxStoredText || len(f.Token) > maxStoredText {
			return fieldsError("the flow has no memo or token, or an oversized one")
		}
	}
	switch f.State {
	case "", plan.ForwardPending, plan.ForwardForwarded, plan.ForwardFailed:
	default:
		return fieldsError("forward state %q", f.State)
	}
	if len(f.Amount) > 32 {
		return fieldsError("the forward's amount is %d characters", len(f.Amount))
	}
	return checkOutcome("forward", f.Hash, f.Ledger, f.Code, f.Reason)
}

// checkOutcome checks the parts a submission and a forward share.
func checkOutcome(what, hash string, ledgerSeq int64, code, reason string) error {
	switch {
	case hash != "" && !isLowerHex(hash, 64):
		return fieldsError("the %s's hash %q is not 64 lowercase hex characters", what, hash)
	case ledgerSeq < 0:
		return fieldsError("the %s's ledger %d", what, ledgerSeq)
	case len(code) > maxStoredText || len(reason) > maxStoredText:
		return fieldsError("the %s's code or reason is above %d bytes", what, maxStoredText)
	}
	return nil
}

// checkPreflight checks a stored preflight run's shape; nil is no run.
func checkPreflight(run *planstore.PreflightRecord) error {
	if run == nil {
		return nil
	}
	switch ledger.PreflightState(run.State) {
	case ledger.PreflightLandable, ledger.PreflightUncertain, ledger.PreflightUnchecked:
		if len(run.Blockers) != 0 {
			return fieldsError("a %s preflight run with blockers", run.State)
		}
	case ledger.PreflightBlocked:
		if len(run.Blockers) == 0 {
			return fieldsError("a blocked preflight run without blockers")
		}
	default:
		return fieldsError("preflight state %q", run.State)
	}
	if len(run.Reason) > maxStoredText {
		return fieldsError("a preflight run's reason is above %d bytes", maxStoredText)
	}
	if len(run.Blockers) > maxStoredBlockers {
		return fieldsError("a preflight run with %d blockers", len(run.Blockers))
	}
	for _, b := range run.Blockers {
		if b.Op < -2 || b.Op >= maxOperations || b.Code == "" || len(b.Code) > maxStoredText || len(b.Reason) > maxStoredText {
			return fieldsError("a preflight blocker out of shape (op %d, code %q)", b.Op, b.Code)
		}
	}
	return nil
}

// maxClockSkew is how far another instance's clock may run ahead of this
// one's: its publish's expiry is the signing window from its own now.
const maxClockSkew = 5 * time.Minute

// checkExpiry bounds a stored expiry: a plan lives at most the signing
// window from its publish, which is before now (on the publishing
// instance's clock, within maxClockSkew of this one's).
func checkExpiry(expiry, now time.Time) error {
	if expiry.After(now.Add(ledger.SigningWindow + maxClockSkew)) {
		return fieldsError("expiry %s is more than the signing window ahead", expiry.UTC().Format(time.RFC3339))
	}
	return nil
}

// checkHeld checks the fields of r, a change of plan k's entry, that the
// plan holds itself: a record of the plan names its network, its closing
// account, its threshold and thresholds and its signer set, which never
// change after publish. (Its expiry is compared by the callers: another
// expiry is a successor's entry, not a forgery.)
func (k *planParts) checkHeld(r planstore.Record) error {
	pub := k.published
	t := pub.Canonical().Signers.Thresholds()
	switch {
	case r.Network != string(pub.Network()):
		return fieldsError("network %q, the plan's is %s", r.Network, pub.Network())
	case r.Account != pub.Account():
		return fieldsError("account %s, the plan closes %s", r.Account, pub.Account())
	case r.Threshold != pub.Threshold() || r.Thresholds != [3]uint8{t.Low, t.Medium, t.High}:
		return fieldsError("threshold %d %v, the plan's are %d %v", r.Threshold, r.Thresholds, pub.Threshold(), t)
	case len(r.Set) != len(k.addresses):
		return fieldsError("%d signers, the plan has %d", len(r.Set), len(k.addresses))
	}
	for i, sg := range pub.Canonical().Signers.Signers() {
		if r.Set[i].Address != sg.Address || r.Set[i].Weight != sg.Weight {
			return fieldsError("signer %d is %s (weight %d), the plan's is %s (weight %d)", i, r.Set[i].Address, r.Set[i].Weight, sg.Address, sg.Weight)
		}
	}
	return checkRecord(r)
}

func fieldsError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ledger.ErrStoredFields, fmt.Sprintf(format, args...))
}

// isLowerHex reports whether s is n lowercase hex characters.
func isLowerHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := range len(s) {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
