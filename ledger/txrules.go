package ledger

import (
	"fmt"
	"math"
	"time"
)

// The transaction's own rules in the preflight (CONTRACT section 18): its
// time and ledger bounds, its minimum sequence age and gap, and the merge's
// sequence rule, against the latest ledger the relay read (LedgerState's
// Latest). The close applies, at the earliest, in the ledger after it,
// closing no earlier than it did.
//
// A close is not applied the moment it is checked: co-signers sign over
// the plan's window (SigningWindow from the run), and the relay submits
// once the threshold is met. So a bound that the next ledger does not meet
// but a later one within the window will (a min_time, a min_ledger, a
// minimum sequence age or gap) leaves the verdict uncertain; one that no
// ledger within the window can meet is the ledger's code. A window counted
// in ledgers is WindowLedgers long: ledgers close at most once per
// LedgerInterval, so no more of them can close within it.

// closeTime is the latest ledger's close time, in Unix seconds as the
// ledger's time bounds count them.
func (p *preflight) closeTime() uint64 {
	return uint64(max(p.latest.CloseTime.Unix(), 0))
}

// windowEnd is the last close time within the plan's window.
func (p *preflight) windowEnd() uint64 {
	return p.closeTime() + uint64(SigningWindow/time.Second)
}

// lastLedger is the last ledger that can close within the plan's window.
func (p *preflight) lastLedger() uint64 {
	return uint64(p.latest.Sequence) + uint64(WindowLedgers)
}

// lastTime and lastApplyLedger are the last close time and the last
// ledger the close can apply at: the window's, or its own bounds' when
// they end sooner (max_time, max_ledger).
func (p *preflight) lastTime() uint64 {
	end := p.windowEnd()
	if tb := p.env.TimeBounds(); tb != nil && tb.MaxTime != 0 {
		end = min(end, uint64(tb.MaxTime))
	}
	return end
}

func (p *preflight) lastApplyLedger() uint64 {
	last := p.lastLedger()
	if lb := p.env.LedgerBounds(); lb != nil && lb.MaxLedger != 0 {
		last = min(last, uint64(lb.MaxLedger)-1)
	}
	return last
}

// firstLedger is the first ledger the close can apply in: the one after
// the latest, or its min_ledger when later; false when the latest ledger
// was not read.
func (p *preflight) firstLedger() (uint64, bool) {
	if p.latest.Sequence == 0 {
		return 0, false
	}
	first := uint64(p.latest.Sequence) + 1
	if lb := p.env.LedgerBounds(); lb != nil {
		first = max(first, uint64(lb.MinLedger))
	}
	return first, true
}

// startingSeq is TransactionUtils.cpp getStartingSequenceNumber, ledgerSeq
// << 32; math.MaxInt64 past what a sequence number can hold (no account
// can reach it, and core refuses such a ledger).
func startingSeq(ledgerSeq uint64) int64 {
	if ledgerSeq > math.MaxInt32 {
		return math.MaxInt64
	}
	return int64(ledgerSeq) << 32
}

// bounds is TransactionFrame.cpp isTooEarly then isTooLate (protocol 19
// and later: time bounds, then ledger bounds; 0 is no bound), in the
// ledger after the latest one and over the plan's window.
func (p *preflight) bounds() verdict {
	tb, lb := p.env.TimeBounds(), p.env.LedgerBounds()
	var minTime, maxTime, minLedger, maxLedger uint64
	if tb != nil {
		minTime, maxTime = uint64(tb.MinTime), uint64(tb.MaxTime)
	}
	if lb != nil {
		minLedger, maxLedger = uint64(lb.MinLedger), uint64(lb.MaxLedger)
	}
	if minTime == 0 && maxTime == 0 && minLedger == 0 && maxLedger == 0 {
		return vApplied
	}
	if p.latest.Sequence == 0 {
		p.pending = true
		return vApplied
	}
	now, next := p.closeTime(), uint64(p.latest.Sequence)+1
	// isTooEarly: a min_time after the close time, a min_ledger after
	// the ledger. Core answers it before isTooLate, so a close that is
	// both too early and too late is told too early.
	if early := minTime > now || minLedger > next; early {
		switch {
		case minTime > p.windowEnd():
			return p.block(TxBlocker, "tx_too_early", fmt.Sprintf("the transaction is valid only from %s, after the plan's %s window ends", unixTime(minTime), windowWords()))
		case minLedger > p.lastLedger():
			return p.block(TxBlocker, "tx_too_early", fmt.Sprintf("the transaction is valid only from ledger %d, and at most %d ledgers close within the plan's %s window after ledger %d", minLedger, WindowLedgers, windowWords(), p.latest.Sequence))
		case maxTime != 0 && minTime > maxTime:
			return p.block(TxBlocker, "tx_too_early", fmt.Sprintf("the transaction's time bounds never hold: it is valid from %s and until %s", unixTime(minTime), unixTime(maxTime)))
		case maxLedger != 0 && minLedger >= maxLedger:
			return p.block(TxBlocker, "tx_too_early", fmt.Sprintf("the transaction's ledger bounds never hold: it is valid from ledger %d and before ledger %d", minLedger, maxLedger))
		case (maxTime != 0 && maxTime < now) || (maxLedger != 0 && maxLedger <= next):
			return p.block(TxBlocker, "tx_too_early", "the transaction is not valid yet, and its other bound has already passed: it can never apply")
		}
		// Reached within the window: the verdict waits for it.
		p.pending = true
		return vApplied
	}
	// isTooLate: a max_time before the close time, a max_ledger at or
	// before the ledger.
	if maxTime != 0 && maxTime < now {
		return p.block(TxBlocker, "tx_too_late", fmt.Sprintf("the transaction was valid until %s, and the latest ledger closed at %s", unixTime(maxTime), unixTime(now)))
	}
	if maxLedger != 0 && maxLedger <= next {
		return p.block(TxBlocker, "tx_too_late", fmt.Sprintf("the transaction is valid only before ledger %d, and the next ledger to close is %d", maxLedger, next))
	}
	return vApplied
}

// seqAgeAndGap is TransactionFrame.cpp isTooEarlyForAccount: the source's
// sequence number must have last changed at least min_seq_age seconds and
// min_seq_ledger_gap ledgers before the ledger the close applies in. With
// neither, core's check cannot fail on the network (close times and
// ledgers only go forward), and it is skipped.
func (p *preflight) seqAgeAndGap(acc *AccountState) verdict {
	var age, gap uint64
	if a := p.env.MinSeqAge(); a != nil {
		age = uint64(*a)
	}
	if g := p.env.MinSeqLedgerGap(); g != nil {
		gap = uint64(*g)
	}
	if age == 0 && gap == 0 {
		return vApplied
	}
	if p.latest.Sequence == 0 {
		p.pending = true
		return vApplied
	}
	// reached reports whether at least d has passed since from at to; the
	// subtraction form, as core's, cannot overflow.
	reached := func(d, from, to uint64) bool { return d <= to && to-d >= from }
	now, next := p.closeTime(), uint64(p.latest.Sequence)+1
	if reached(age, acc.SeqTime, now) && reached(gap, uint64(acc.SeqLedger), next) {
		return vApplied
	}
	// Reached only once the window, or the close's own bounds, have
	// ended: the ledger refuses it until then, and it never applies.
	if !reached(age, acc.SeqTime, p.lastTime()) {
		return p.block(TxBlocker, "tx_bad_minseq_age_or_gap", fmt.Sprintf("the transaction needs the account's sequence number unchanged for %d seconds, since %s: not before the plan's %s window or the transaction's time bounds end", age, unixTime(acc.SeqTime), windowWords()))
	}
	if !reached(gap, uint64(acc.SeqLedger), p.lastApplyLedger()) {
		return p.block(TxBlocker, "tx_bad_minseq_age_or_gap", fmt.Sprintf("the transaction needs the account's sequence number unchanged for %d ledgers, since ledger %d: not before the plan's %s window or the transaction's ledger bounds end", gap, acc.SeqLedger, windowWords()))
	}
	p.pending = true
	return vApplied
}

// seqTooFar is MergeOpFrame.cpp isSeqnumTooFar for an account at sequence
// number seq (after any bump_sequence before the merge): at or past the
// starting sequence number of the ledger the merge applies in, the account
// could be created again with a number it has used, and the merge fails.
// When the close cannot apply in the next ledger (a bound it waits for),
// the ledger it applies in is not known: a later one may let the merge
// pass.
func (p *preflight) seqTooFar(i int, seq int64) verdict {
	first, known := p.firstLedger()
	if !known {
		p.pending = true
		return vApplied
	}
	if seq < startingSeq(first) {
		return vApplied
	}
	if p.pending && seq < startingSeq(p.lastApplyLedger()+1) {
		p.pending = true
		return vApplied
	}
	return p.block(i, "op_seq_num_too_far", fmt.Sprintf("the account's sequence number %d is at or past %d, the starting sequence number of ledger %d, the first the close can apply in: an account so far ahead cannot be merged", seq, startingSeq(first), first))
}

func unixTime(s uint64) string {
	if s > math.MaxInt64 {
		s = math.MaxInt64
	}
	return time.Unix(int64(s), 0).UTC().Format(time.RFC3339)
}

func windowWords() string {
	return fmt.Sprintf("%d-hour", int(SigningWindow/time.Hour))
}
