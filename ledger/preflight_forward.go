package ledger

import (
	"errors"
	"math"
	"time"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// The forward's preflight (CONTRACT section 18): a close through a
// mediator whose forward the relay runs (section 16) lands in two
// transactions, and the second is the one that moves the funds to their
// destination. A plan is only worth signing when both land, so the
// forward is applied too, after the close, with the same rules: its
// blockers come after the close's (the forward runs once the close has
// landed), with Op ForwardBlocker.

// ForwardBlocker is the Op of a blocker of the relay's forward.
const ForwardBlocker = -2

// CodeForwardUnderfunded is a forward's failure when the mediator's
// balance does not cover the forward's fee, the unit it keeps and a
// payment (ErrForwardUnfunded): the relay's code, not the ledger's, since
// no forward is ever built.
const CodeForwardUnderfunded = "forward_underfunded"

// FlowForward is what a plan's flow commits its forward to (CONTRACT
// section 13): the destination it pays and merges into, and the memo it
// carries (MemoTypeMemoNone when the flow commits none).
type FlowForward struct {
	Destination string
	Memo        xdr.Memo
}

// CheckCloseForward is CheckClose of env, a close through a mediator (as
// CheckMediatorClose accepts it), followed by the forward the relay runs
// once it lands. With a nil f it is CheckClose.
//
// The forward is applied to the state the close leaves when every
// operation of the close applies: built as the forwarder builds it
// (BuildForward, from the mediator that the close created and merged
// into), its fee and sequence number taken, then its payment and merge
// applied (PaymentOpFrame.cpp, MergeOpFrame.cpp, as for the close), SEP-29
// judged against the committed memo. When the close would fail, the
// forward never runs and adds nothing. When the close's outcome is
// uncertain, the forward's destination is judged as read, for what no
// operation of the close can change: whether it exists and whether it
// requires a memo.
func CheckCloseForward(env xdr.TransactionEnvelope, state LedgerState, f *FlowForward) Preflight {
	p := newPreflight(env, state)
	out := p.run()
	if f == nil || len(p.blockers) > 0 {
		// No flow, or the ledger refuses the close: nothing is forwarded
		// (SEP-29's blockers do not stop the ledger, p.blockers are the
		// ledger's own).
		return out
	}
	var bs []Blocker
	v := vUncertain
	if p.closed() {
		bs, v = p.forward(*f)
	} else {
		bs = p.forwardAsRead(*f)
	}
	if len(bs) > 0 {
		return Preflight{State: PreflightBlocked, Blockers: append(out.Blockers, bs...)}
	}
	if v == vUncertain && out.State == PreflightLandable {
		// The close lands, and what its forward does cannot be told.
		out.State = PreflightUncertain
	}
	return out
}

// closed reports whether the run applied every operation of the close: the
// closing account is merged away, which only the last operation that can
// apply does (an operation after a merge has no source account).
func (p *preflight) closed() bool {
	acc := p.closing()
	src, read := p.accounts[acc]
	return acc != "" && read && src == nil
}

// closing is the account the close merges away: its merge's source (the
// transaction's source may be another account, which pays the fee); ""
// for a transaction without a merge.
func (p *preflight) closing() string {
	for _, op := range p.ops {
		if op.Body.Type == xdr.OperationTypeAccountMerge {
			return p.opSource(op)
		}
	}
	return ""
}

// mediator is the flow's mediator: the account the close's first
// operation creates (CheckMediatorClose); "" for a close that does not.
func (p *preflight) mediator() string {
	if len(p.ops) == 0 || p.ops[0].Body.Type != xdr.OperationTypeCreateAccount {
		return ""
	}
	return p.ops[0].Body.MustCreateAccountOp().Destination.Address()
}

// forward applies the forward to the state the close left (p's, which it
// goes on changing): its blockers, or vApplied, or vUncertain.
func (p *preflight) forward(f FlowForward) ([]Blocker, verdict) {
	med := p.mediator()
	acc := p.accounts[med]
	if acc == nil {
		return nil, vUncertain // not a mediator close: no forward to tell
	}
	// The forward's time bounds are the forwarder's to set at each try;
	// only its operations, fee and sequence number matter here.
	spec := *acc
	if spec.Sequence == math.MaxInt64 {
		// The latest ledger was not read, so neither is the mediator's
		// sequence number (createAccount): the run is uncertain already,
		// and what the forward pays can still be told.
		spec.Sequence = 0
	}
	fwd, err := BuildForward(ForwardSpec{Mediator: spec, Destination: f.Destination, Memo: f.Memo,
		FeePerOp: ForwardFeePerOp(p.env), Now: time.Unix(0, 0)})
	switch {
	case errors.Is(err, ErrForwardUnfunded):
		return []Blocker{{Op: ForwardBlocker, Code: CodeForwardUnderfunded, Reason: "the mediator " + med +
			" would hold " + stroops(acc.Balance) + " XLM, which does not cover the forward's fee and the unit it keeps: the funds would stop in the mediator"}}, vFailed
	case err != nil:
		return nil, vUncertain
	}
	q := &preflight{env: fwd.Envelope, ops: fwd.Envelope.Operations(), reserve: p.reserve, baseFee: p.baseFee,
		latest: p.forwardLatest(), accounts: p.accounts, own: p.own}
	for i, op := range q.ops {
		if q.validateOperation(i, op) == vFailed {
			return q.forwardBlockers(med, i), vFailed
		}
	}
	// TransactionFrame.cpp processFeeSeqNum, as for the close.
	src := q.mutable(med)
	src.Balance -= q.feeCharged()
	src.Sequence = q.env.SeqNum()
	for i, op := range q.ops {
		switch q.apply(i, op) {
		case vFailed:
			return q.forwardBlockers(med, i), vFailed
		case vUncertain:
			return q.forwardBlockers(med, i), vUncertain
		}
	}
	bs := q.forwardBlockers(med, len(q.ops)-1)
	if len(bs) > 0 {
		return bs, vFailed
	}
	return nil, vApplied
}

// forwardLatest is the latest ledger as the forward's run sees it: the
// forward is sent once the close has landed, so it applies at the
// earliest in the ledger after the first the close can apply in (the
// mediator's sequence number, that ledger's starting one, is then behind
// the forward's and its merge is not op_seq_num_too_far). Not read, it
// stays unread.
func (p *preflight) forwardLatest() LatestLedger {
	first, known := p.firstLedger()
	if !known || first >= math.MaxUint32 {
		return LatestLedger{}
	}
	return LatestLedger{Sequence: uint32(first), CloseTime: p.latest.CloseTime}
}

// forwardBlockers are q's blockers (q a run of the forward) for its
// operations up to last, SEP-29's with the ledger's as finish lists them,
// as blockers of the forward: each reason says where the funds would stop.
func (q *preflight) forwardBlockers(med string, last int) []Blocker {
	var out []Blocker
	for _, b := range q.finish(PreflightLandable, last).Blockers {
		if b.Code == MemoRequired {
			b.Reason = "the relay's forward from the mediator " + med + ": " + b.Reason
		} else {
			b.Reason = "the relay's forward from the mediator " + med + " would fail: " + b.Reason +
				"; the funds would stop in the mediator " + med + ", which only the relay's master can move"
		}
		b.Op = ForwardBlocker
		out = append(out, b)
	}
	return out
}

// forwardAsRead judges the forward's destination as read, for a close
// whose outcome is uncertain: it does not exist, or it requires a memo the
// flow does not commit. Only when no operation of the close can change
// that: the destination is not the closing account (merged away) and no
// operation creates it.
func (p *preflight) forwardAsRead(f FlowForward) []Blocker {
	med := p.mediator()
	if med == "" || f.Destination == p.closing() {
		return nil
	}
	for _, op := range p.ops {
		if op.Body.Type == xdr.OperationTypeCreateAccount && op.Body.MustCreateAccountOp().Destination.Address() == f.Destination {
			return nil
		}
	}
	d, read := p.accounts[f.Destination]
	switch {
	case !read:
		return nil
	case d == nil:
		// PaymentOpFrame.cpp (PathPaymentOpFrameBase.cpp): the forward's
		// payment fails first.
		return []Blocker{{Op: ForwardBlocker, Code: "op_no_destination", Reason: "the relay's forward from the mediator " + med +
			" would fail: the destination " + f.Destination + " does not exist; the funds would stop in the mediator " + med +
			", which only the relay's master can move"}}
	case d.MemoRequiredBy() && f.Memo.Type == xdr.MemoTypeMemoNone:
		return []Blocker{{Op: ForwardBlocker, Code: MemoRequired, Reason: "the relay's forward from the mediator " + med +
			": the destination " + f.Destination + " requires a memo (SEP-29), and the flow commits none: the funds would arrive and not be credited"}}
	}
	return nil
}
