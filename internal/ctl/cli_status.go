package ctl

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/wire"
)

// checkPlanID refuses locally what cannot be a plan id, so that a truncated
// or mistyped id is never sent (issue 26 item 3). The value is not echoed:
// a secret pasted in its place should not reach the terminal's logs.
func checkPlanID(id string) error {
	if wire.ValidPlanID(id) {
		return nil
	}
	return Usagef("PLAN_ID must be the 64 hex characters of the close's transaction hash (as publish prints it); this one has %d character(s)", len(id))
}

func (c *CLI) status(args []string) int {
	fs := NewFlagSet("status", "status [flags] PLAN_ID",
		"Print a plan's state as the relay reports it: whether the close would land\n"+
			"(the preflight, docs/API.md section 12; a blocked close is printed first, with\n"+
			"each blocker's code and reason: do not sign it), its version, the weight of\n"+
			"its signers against the close's threshold, its expiry and the relay's\n"+
			"submission, the mediator forward it runs of a close published with a\n"+
			"flow token (pending, forwarded with its amount and hash, or failed), and its\n"+
			"fee bid against the network's (preflight.fee: when low, how to bump it).\n"+
			"--json prints the relay's answer as it is. It makes one request\n"+
			"and no ledger call: the relay ran the preflight at publish (and runs it again\n"+
			"before it submits).")
	o := c.CommonFlags(fs, 30*time.Second)
	pos, code, done := c.Parse(fs, args, 1, "PLAN_ID")
	if done {
		return code
	}
	if err := checkPlanID(pos[0]); err != nil {
		return c.Fail("status", o.JSON, err)
	}
	cl, err := c.Client(o)
	if err != nil {
		return c.Fail("status", o.JSON, err)
	}
	ctx, cancel := o.Context(context.Background())
	defer cancel()
	st, err := cl.StatusWire(ctx, pos[0])
	if err != nil {
		return c.Fail("status", o.JSON, err)
	}
	if o.JSON {
		c.PrintJSON(st)
		return ExitOK
	}
	c.printStatus(c.Stdout, st, time.Now())
	return ExitOK
}

// printStatus writes st for a person, the outcome first (CONTRACT 18): a
// submission's outcome once there is one, else a blocked preflight; then
// the plan, its submission before its readiness, expiry and verdict.
func (c *CLI) printStatus(w io.Writer, st wire.Status, now time.Time) {
	pf := st.Preflight
	if lead := outcomeText(st, c.Name()); lead != "" {
		fmt.Fprintln(w, lead)
	}
	if pf != nil && pf.State == client.PreflightBlocked && !submitted(st) {
		fmt.Fprintln(w, "do not sign this close: the ledger would refuse it")
		writeBlockers(w, pf.Blockers)
	}
	fmt.Fprintf(w, "plan %s on %s\n", st.ID, st.Network)
	fmt.Fprintf(w, "  submission: %s\n", submissionText(st))
	if st.Forward != nil {
		fmt.Fprintf(w, "  forward: %s\n", forwardText(st.Forward))
	}
	fmt.Fprintf(w, "  version %d, weight %d/%d: %s\n", st.Version, st.Weight, st.Threshold, c.readinessText(st))
	if len(st.Signers) > 0 {
		keys := make([]string, len(st.Signers))
		for i, k := range st.Signers {
			keys[i] = ShortKey(k)
		}
		fmt.Fprintf(w, "  signers: %s\n", strings.Join(keys, ", "))
	}
	if exp, err := time.Parse(time.RFC3339, st.Expiry); err == nil {
		fmt.Fprintf(w, "  expires %s (in %s)\n", st.Expiry, max(exp.Sub(now), 0).Round(time.Second))
	}
	if submitted(st) {
		// The verdict was a forecast; the outcome above replaced it.
		fmt.Fprintf(w, "  preflight, before it landed: %s\n", PreflightText(pf))
		return
	}
	fmt.Fprintf(w, "  preflight: %s\n", PreflightText(pf))
	if f := FeeText(pf, st.ID, c.Name()); f != "" {
		fmt.Fprintf(w, "  fee: %s\n", f)
	}
}

// FeeText is the preflight's word on the fee bid (docs/API.md section 12,
// preflight.fee): the bid, the network's fee when known, and, when the bid
// is low, how to bump it without collecting the signatures again. "" when
// the relay reported none.
func FeeText(pf *wire.Preflight, id, name string) string {
	if pf == nil || pf.Fee == nil {
		return ""
	}
	f := pf.Fee
	s := fmt.Sprintf("%d stroops per operation", f.Bid)
	switch {
	case f.Network == nil || f.Low == nil:
		return s + " (the network's fee statistics are unknown)"
	case !*f.Low:
		return s + fmt.Sprintf(" (the network charges %d now)", *f.Network)
	}
	return s + fmt.Sprintf(", below the %d the network charges now: the close may wait, or be refused if fees rise; "+
		"any account can pay a fee-bump around it, its signatures kept: %s", *f.Network, bumpCommand(name, id))
}

// bumpCommand is the command that bumps plan id's fee.
func bumpCommand(name, id string) string {
	return name + " bump " + id + " --fee-source G…"
}

// submitted reports whether the relay's submission of st's close landed.
func submitted(st wire.Status) bool {
	return st.Submission != nil && st.Submission.State == "submitted"
}

// outcomeText is the line status leads with once the close has an outcome
// (landed, and a flow's forward; blocked; failed: refused for its fee, how
// to bump it), "" before one; name is the command's.
func outcomeText(st wire.Status, name string) string {
	sub := st.Submission
	if sub == nil {
		return ""
	}
	switch sub.State {
	case "submitted":
		s := fmt.Sprintf("landed: the relay submitted the close, transaction %s in ledger %d", sub.Hash, sub.Ledger)
		switch f := st.Forward; {
		case f == nil:
		case f.State == "forwarded":
			s += fmt.Sprintf("; forwarded: %s XLM paid to the committed destination with the committed memo", f.Amount)
		case f.State == "failed":
			s += "; but the forward failed (" + f.Code + "): the funds wait in the mediator"
		default:
			s += "; the forward to the committed destination is " + f.State
		}
		return s
	case "blocked":
		return "not submitted: the ledger would refuse this close (" + sub.Code + "), so the relay did not post it; fix what blocks it, then build and publish a new close"
	case "failed":
		if sub.Code == "tx_insufficient_fee" {
			return "the relay's submission failed: tx_insufficient_fee: the fee bid is below the network's; " +
				"any account can pay a fee-bump around the close, its signatures kept: " + bumpCommand(name, st.ID)
		}
		return "the relay's submission failed: " + sub.Code + "; the next change of the submit-ready envelope tries again"
	}
	return ""
}

// readinessText is the weight's meaning: "ready to submit" only while the
// plan is ready, not blocked and not submitted (CONTRACT 18).
func (c *CLI) readinessText(st wire.Status) string {
	switch {
	case !st.Ready:
		return fmt.Sprintf("%d more needed", st.Threshold-st.Weight)
	case submitted(st):
		return "threshold met"
	case blockedBy(st) != "":
		return "threshold met, but the ledger would refuse this close: do not submit it"
	case st.Submit:
		return "threshold met: the relay submits it"
	}
	return fmt.Sprintf("threshold met (%s ready %s prints the envelope to submit)", c.Name(), st.ID)
}

// writeBlockers lists a blocked preflight's blockers, one a line: where,
// the code, the reason.
func writeBlockers(w io.Writer, blockers []wire.Blocker) {
	for _, b := range blockers {
		where := "the transaction"
		switch {
		case b.Op >= 0:
			where = fmt.Sprintf("operation %d", b.Op+1)
		case b.Op == ledger.ForwardBlocker:
			where = "the mediator's forward" // CONTRACT 18: what would stop the relay-run forward
		}
		fmt.Fprintf(w, "  %s: %s: %s\n", where, b.Code, b.Reason)
	}
}

// PreflightText is the preflight's verdict in words, with when the relay
// read the ledger.
func PreflightText(pf *wire.Preflight) string {
	if pf == nil {
		return "not reported (a relay older than the preflight)"
	}
	var s string
	switch pf.State {
	case client.PreflightLandable:
		s = "landable: the close would land as it is"
	case client.PreflightBlocked:
		codes := make([]string, len(pf.Blockers))
		for i, b := range pf.Blockers {
			codes[i] = b.Code
		}
		s = "blocked (" + strings.Join(codes, ", ") + "): the ledger would refuse the close; do not sign it"
	case client.PreflightUncertain:
		s = "uncertain: the outcome depends on what the relay did not read"
	case client.PreflightUnchecked:
		s = "unchecked: the relay could not read the ledger"
	default:
		s = pf.State
	}
	if pf.Checked != "" {
		s += " (checked " + pf.Checked + ")"
	}
	return s
}

// submissionText is st.submission in words.
func submissionText(st wire.Status) string {
	sub := st.Submission
	switch {
	case sub == nil && st.Submit:
		return "the relay submits the close once it is ready"
	case sub == nil:
		return "none (not published with --submit)"
	}
	switch sub.State {
	case "pending":
		return "pending: the relay is submitting the close"
	case "submitted":
		return fmt.Sprintf("submitted: transaction %s in ledger %d", sub.Hash, sub.Ledger)
	case "failed":
		return "failed: " + sub.Code + "; the next change of the submit-ready envelope tries again"
	case "blocked":
		return "blocked: " + sub.Code + "; the relay did not post a close the ledger would refuse"
	}
	return sub.State
}

// forwardText is st.forward in words (CONTRACT section 16): the mediator
// forward the relay runs once it has submitted a close published with a
// flow token. A plan without one has none, and status prints no line.
func forwardText(f *wire.Forward) string {
	switch f.State {
	case "pending":
		return "pending: the relay is building, signing and submitting the mediator's forward to the committed destination"
	case "forwarded":
		return fmt.Sprintf("forwarded: transaction %s in ledger %d paid %s XLM to the committed destination with the committed memo, and merged the mediator into it",
			f.Hash, f.Ledger, f.Amount)
	case "failed":
		s := "failed: " + f.Code + "; the relay gave up after its retries and the funds wait in the mediator: only the relay's operator, who holds the master secret, can move them"
		if f.Hash != "" {
			s += " (last forward sent: " + f.Hash + ")"
		}
		return s
	}
	return f.State
}
