package web

import (
	"strconv"
	"time"

	"github.com/closerelay/closerelay/ledger"
)

// preflightView is the preflight as the page tells it to a co-signer
// (CONTRACT section 14): the verdict, and for a blocked close each blocker
// in plain words, where it is, and the relay's reason.
type preflightView struct {
	State      string // landable, blocked, uncertain, unchecked; "" when none ran
	Blockers   []blockerView
	Checked    string // when the state was read, as the page writes times
	CheckedISO string
	// FeeLow: the close's bid is below the network's fee (docs/API.md
	// section 12, preflight.fee), with the two, in stroops per operation,
	// for the page's words; plan.js keeps them current from /status.
	FeeLow     bool
	FeeBid     int64
	FeeNetwork int64
}

// blockerView is one blocker on the page.
type blockerView struct {
	Code   string // as Horizon spells it, or memo_required
	Plain  string // what it means, in a co-signer's words
	Where  string // "The transaction" or "Operation 2 (account merge)"
	Reason string // the relay's reason: what remains, what is missing
}

// blockerWords are the codes of CONTRACT section 14 in a co-signer's
// words; plan.js writes the same words (preflight_test checks it).
var blockerWords = map[string]string{
	"op_has_sub_entries":      "The account still holds entries that must be removed before it can be closed",
	"op_is_sponsor":           "The account pays the reserve of other accounts' entries",
	"op_immutable_set":        "The account is marked immutable and can never be closed",
	"op_no_account":           "The account the lumens go to does not exist",
	"op_no_destination":       "The account the funds go to does not exist",
	"op_already_exists":       "The account this close creates exists already",
	"tx_bad_seq":              "The account has been used since this close was built",
	"tx_insufficient_balance": "The account cannot pay the fee",
	"tx_insufficient_fee":     "The fee is below the network's minimum",
	"tx_no_source_account":    "The account does not exist",
	ledger.MemoRequired:       "The destination requires a memo, and this close has none: the funds would not be credited",
}

// forwardWhere is where a blocker of the relay's forward is; plan.js
// writes it too.
const forwardWhere = "The mediator's forward"

// blockerFallback is the words for any other code; plan.js writes them too.
const blockerFallback = "The ledger would refuse this operation"

func blockerPlain(code string) string {
	if w, ok := blockerWords[code]; ok {
		return w
	}
	return blockerFallback
}

// blockerWhere names the blocker's place: the relay's forward (CONTRACT
// section 18), the transaction, or the operation by its 1-based number and
// type (when the page decoded it).
func blockerWhere(op int, tx *Summary) string {
	switch {
	case op == ledger.ForwardBlocker: // CONTRACT 18: what would stop the relay-run forward
		return forwardWhere
	case op < 0:
		return "The transaction"
	}
	s := "Operation " + strconv.Itoa(op+1)
	if tx != nil && op < len(tx.Operations) {
		s += " (" + tx.Operations[op].Type + ")"
	}
	return s
}

func viewPreflight(run ledger.PreflightRun, tx *Summary) preflightView {
	v := preflightView{State: string(run.State)}
	if v.State == "" {
		return v
	}
	if !run.Checked.IsZero() {
		v.Checked = when(run.Checked)
		v.CheckedISO = run.Checked.UTC().Format(time.RFC3339)
	}
	for _, b := range run.Blockers {
		v.Blockers = append(v.Blockers, blockerView{Code: b.Code, Plain: blockerPlain(b.Code), Where: blockerWhere(b.Op, tx), Reason: b.Reason})
	}
	if run.Fee.Low() {
		v.FeeLow, v.FeeBid, v.FeeNetwork = true, run.Fee.Bid, run.Fee.Stats.Network
	}
	return v
}
