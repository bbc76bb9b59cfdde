package ctl

import (
	"fmt"
	"io"
	"strings"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/wire"
)

// The command line honours the relay's verdict (CONTRACT section 18): sign
// and submit read the plan's status first and refuse a close the ledger
// would refuse, publish and build say so in their exit status, unless
// --force. This file is what they share.

// forceUsage is the --force flag's text on sign, submit and publish.
const forceUsage = "act as if the relay had given no verdict: sign, submit or publish a close its preflight says the ledger would refuse"

// blockedError is a refusal to act on a close the relay's preflight (or
// its submission) found blocked. It carries the preflight, so that Fail
// prints the blockers (text) or the preflight object (--json).
type blockedError struct {
	msg string
	pf  *wire.Preflight
}

func (e *blockedError) Error() string { return e.msg }

// blockedBy is why st says not to act on its close: the preflight's
// blocked verdict, or a submission the relay found blocked (its code);
// "" when neither.
func blockedBy(st wire.Status) string {
	if pf := st.Preflight; pf != nil && pf.State == client.PreflightBlocked {
		return strings.Join(blockerCodes(pf.Blockers), ", ")
	}
	if sub := st.Submission; sub != nil && sub.State == "blocked" {
		return sub.Code
	}
	return ""
}

// blockerCodes are the blockers' codes, in order.
func blockerCodes(blockers []wire.Blocker) []string {
	codes := make([]string, len(blockers))
	for i, b := range blockers {
		codes[i] = b.Code
	}
	return codes
}

// refuseBlocked is the refusal to verb ("sign", "submit") a blocked
// close; done is the verb's past ("signed", "submitted").
func refuseBlocked(st wire.Status, verb, done string) error {
	return &blockedError{
		msg: fmt.Sprintf("not %s: the relay says the ledger would refuse this close (%s); --force would %s it anyway", done, blockedBy(st), verb),
		pf:  st.Preflight,
	}
}

// writeVerdict prints the relay's verdict on st's close for a person about
// to verb it ("sign", "submit"): a blocked close with its blockers, an
// uncertain or unchecked one with what that means, a landable one in a
// line.
func writeVerdict(w io.Writer, st wire.Status, verb string) {
	pf := st.Preflight
	switch {
	case pf != nil && pf.State == client.PreflightBlocked:
		fmt.Fprintf(w, "do not %s this close: the ledger would refuse it\n", verb)
		writeBlockers(w, pf.Blockers)
	case st.Submission != nil && st.Submission.State == "blocked":
		fmt.Fprintf(w, "the relay did not submit this close: the ledger would refuse it (%s)\n", st.Submission.Code)
	}
	fmt.Fprintf(w, "the relay's verdict: %s\n", PreflightText(pf))
}
