package web

import (
	"strconv"
	"strings"

	"github.com/closerelay/closerelay/plan"
	"github.com/stellar/go-stellar-sdk/amount"
)

// mediatorStart is the starting balance a close through a mediator gives
// the mediator account it creates (CONTRACT section 16), in stroops.
const mediatorStart = 2 * 10_000_000

// decisionView is what the page says first: which account closes, where
// its funds go and how much, in a co-signer's words.
type decisionView struct {
	Heading string // the page's h1 without the network: "Close account GABCD…VWXYZ and send its funds to …"
	Closing string // G…, the account closed
	Dest    string // where the merge sends the lumens: the destination, or the mediator

	// Mediator: the close creates Dest with 2 XLM (its first operation)
	// and merges into it: the funds go through a mediator, which passes
	// them on. Flow names where to, when known.
	Mediator bool
	Flow     *flowView

	// ToDest is the XLM that reaches Dest, "" when the balance is not
	// known; AtMost: an operation may send XLM by an amount only the
	// ledger knows, so ToDest is an upper bound.
	ToDest  string
	AtMost  bool
	Balance string // the balance read, in XLM
	Read    string // when it was read, as the page writes times
	Fee     string // the fee, in XLM; "" when another account pays it
	Short   bool   // the balance read does not cover what the close sends

	// Leaves is every other operation that sends value out of the
	// account, in words (ledger.Describe's), the merge and the mediator's
	// creation aside.
	Leaves []Operation
}

// flowView is a mediator flow's committed destination and memo, as shown.
type flowView struct {
	Destination string
	Memo        string // "text: …", "id: …"; "" for no memo
	MemoQuoted  bool   // Memo had to be quoted (control or invisible characters)
}

// decide builds the decision of d's close, whose decoded transaction is tx
// (nil when it did not decode: the page then says what it can).
func decide(tx *Summary, d PageData) decisionView {
	if tx == nil || tx.ClosingAccount == "" {
		return decisionView{Heading: "Account close"}
	}
	v := decisionView{Closing: tx.ClosingAccount, Dest: tx.MergeDestination}
	first := -1
	if len(tx.Operations) > 0 {
		o := tx.Operations[0]
		if o.Type == "create account" && o.Source == tx.ClosingAccount && o.Destination == tx.MergeDestination && o.Native == mediatorStart {
			v.Mediator, first = true, 0
		}
	}
	if v.Mediator && d.Flow != nil {
		f := &flowView{Destination: d.Flow.Destination}
		if typ, val, ok := strings.Cut(d.Flow.Memo, ":"); ok && val != "" {
			val, f.MemoQuoted = display(val)
			f.Memo = typ + ": " + val
		}
		v.Flow = f
	}
	switch {
	case v.Flow != nil:
		v.Heading = "Close account " + short(v.Closing) + " and send its funds through a mediator to " + short(v.Flow.Destination)
	case v.Mediator:
		v.Heading = "Close account " + short(v.Closing) + " and send its funds through a mediator"
	default:
		v.Heading = "Close account " + short(v.Closing) + " and send its funds to " + short(v.Dest)
	}

	// What reaches the destination: the balance, less the fee when the
	// account pays it, less the XLM the operations send elsewhere.
	var out int64
	for i, o := range tx.Operations {
		if !o.Moves || i == first {
			continue
		}
		v.Leaves = append(v.Leaves, o)
		if o.Destination != tx.MergeDestination {
			out += o.Native
		}
		v.AtMost = v.AtMost || o.NativeUnknown
	}
	fee := int64(0)
	if tx.Source == tx.ClosingAccount {
		fee = int64(tx.FeeStroops)
		v.Fee = xlm(fee)
	}
	if d.Funds != nil {
		v.Balance = xlm(d.Funds.Native)
		v.Read = when(d.Funds.Read)
		left := d.Funds.Native - fee - out
		if left < 0 {
			v.Short, left = true, 0
		}
		v.ToDest = xlm(left)
	}
	return v
}

// short is a G… key as a heading names it: its first and last five
// characters, joined so that a line never breaks inside it (U+2060, word
// joiner, on each side of the ellipsis); the full key follows under the
// heading.
func short(key string) string {
	if len(key) <= 12 {
		return key
	}
	return key[:5] + "\u2060…\u2060" + key[len(key)-5:]
}

// xlm is stroops in XLM, without trailing zeros: "12.5", "2".
func xlm(stroops int64) string {
	s := amount.StringFromInt64(stroops)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// outcomeView is the submission's and the forward's outcome in words;
// plan.js writes the same words (outcomeWords there).
type outcomeView struct {
	Submission string // "" when none has started
	SubState   string
	SubHash    string
	Forward    string // "" when none has started
	FwdState   string
	FwdHash    string
}

// outcomeOf says sub and fwd in words.
func outcomeOf(sub plan.Submission, fwd *plan.Forward) outcomeView {
	v := outcomeView{SubState: sub.State, SubHash: sub.Hash}
	switch sub.State {
	case "pending":
		v.Submission = "Submitting the close to the ledger."
	case "submitted":
		v.Submission = "Submitted: the ledger closed the account in ledger " + strconv.FormatInt(sub.Ledger, 10) + "."
	case "failed":
		v.Submission = "The ledger refused the close (" + sub.Code + "). The relay tries again when the envelope changes."
	case "blocked":
		v.Submission = "Not submitted: the ledger check just before submitting found that the close cannot land (" + sub.Code + ")."
	}
	if fwd != nil {
		v.FwdState, v.FwdHash = fwd.State, fwd.Hash
		switch fwd.State {
		case "pending":
			v.Forward = "Forwarding the funds from the mediator to the destination."
		case "forwarded":
			v.Forward = "Forwarded: " + fwd.Amount + " XLM reached the destination in ledger " + strconv.FormatInt(fwd.Ledger, 10) + "."
		case "failed":
			v.Forward = "The mediator's forward failed (" + fwd.Code + ")."
		}
	}
	return v
}

// The reasons the ways to sign are gone; plan.js writes the same words.
const (
	closedReady     = "Signing is over: the signatures collected reach the threshold. Nothing more is needed from co-signers."
	closedSubmitted = "Signing is over: the close has been submitted to the ledger."
	closedExpired   = "Signing is over: the plan has expired. The close must be rebuilt and published again."
	closedBlocked   = "Signing is closed: the ledger would refuse this close as it stands. Ask whoever published it for a new close that fixes what the ledger check found."
)

// signClosed is why the ways to sign no longer apply, or "" while they do.
// A blocked close offers none (CONTRACT 18). (An expired plan's page is
// the 404 page; plan.js says closedExpired.)
func signClosed(ready, blocked bool, submission string) string {
	switch {
	case submission == "submitted":
		return closedSubmitted
	case blocked:
		return closedBlocked
	case ready:
		return closedReady
	}
	return ""
}

// leadView is what the page says first once the close has an outcome
// (CONTRACT 18): landed (with the forward's state, for a flow), not
// submitted because the ledger would refuse it, or refused by the ledger.
// plan.js writes the same words (leadWords there).
type leadView struct {
	State string // the submission's state; "" before an outcome
	Title string
	Text  string
	Hash  string // the close's transaction, once landed
}

// leadOf is the lead of sub and fwd.
func leadOf(sub plan.Submission, fwd *plan.Forward) leadView {
	v := leadView{State: sub.State}
	switch sub.State {
	case "submitted":
		v.Title, v.Hash = "The close landed", sub.Hash
		v.Text = "The ledger closed the account in ledger " + strconv.FormatInt(sub.Ledger, 10) + "."
		if fwd != nil {
			switch fwd.State {
			case "pending":
				v.Text += " The relay is forwarding the funds from the mediator to the destination."
			case "forwarded":
				v.Text += " Forwarded: " + fwd.Amount + " XLM reached the destination in ledger " + strconv.FormatInt(fwd.Ledger, 10) + "."
			case "failed":
				v.Text += " But the mediator's forward failed (" + fwd.Code + "): the funds wait in the mediator, and only the relay's operator can move them."
			}
		}
	case "blocked":
		v.Title = "Not submitted: this close cannot land"
		v.Text = "The ledger check just before submitting found that the ledger would refuse it (" + sub.Code + "), so the relay did not post it. Ask whoever published it for a new close."
	case "failed":
		v.Title = "The ledger refused the close"
		v.Text = "The ledger refused it (" + sub.Code + "). The relay tries again when the envelope changes."
	default:
		v.State = ""
	}
	return v
}
