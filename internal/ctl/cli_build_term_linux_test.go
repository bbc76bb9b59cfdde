package ctl

import (
	"strings"
	"testing"

	"github.com/closerelay/closerelay/internal/syncbuf"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// buildAtTerminal runs build with standard input the pseudo-terminal
// slave, answer typed on it beforehand.
func (w *claimWorld) buildAtTerminal(t *testing.T, answer string, args ...string) result {
	t.Helper()
	master, slave := openPTY(t)
	if answer != "" {
		if _, err := master.WriteString(answer); err != nil {
			t.Fatal(err)
		}
	}
	var out, errOut syncbuf.Buffer
	c := &CLI{Stdin: slave, Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return w.env[k] }}
	code := c.Run(append([]string{"build", "--account", w.acct.Address, "--destination", cliDest}, args...))
	return result{code, out.String(), errOut.String()}
}

// TestBuildSignAtATerminalAsksFirst (issue 39): build --sign with standard
// input a terminal prints what the close does, then asks; without a yes
// nothing is signed or written (exit 1), with one the close is signed, and
// --yes signs without asking.
func TestBuildSignAtATerminalAsksFirst(t *testing.T) {
	w := newClaimWorld(t, true)
	shown := "the close of " + w.acct.Address + " on testnet into " + cliDest + ", to be signed by " + w.acct.Address + ":\n" +
		"  1. sell 50 USD (" + w.issuer + ") for at least 99 XLM\n" +
		"  2. remove the trustline to USD (" + w.issuer + ")\n" +
		"  3. close account " + w.acct.Address + ": all its remaining XLM goes to " + cliDest + "\n" +
		"  preflight: uncertain\n" +
		"sign it? [y/N] "
	r := w.buildAtTerminal(t, "n\n", "--assets", "sell", "--sign")
	if r.code != ExitRefused || r.stdout != "" || !strings.HasPrefix(r.stderr, shown) || !strings.Contains(r.stderr, "not signed: you did not confirm") {
		t.Fatalf("answered n: %d %q\n%s", r.code, r.stdout, r.stderr)
	}
	signatures := func(r result) int {
		t.Helper()
		tx, err := txnbuild.TransactionFromXDR(strings.TrimSpace(r.stdout))
		if err != nil {
			t.Fatalf("stdout is no transaction: %v %q", err, r.stdout)
		}
		inner, _ := tx.Transaction()
		return len(inner.Signatures())
	}
	r = w.buildAtTerminal(t, "y\n", "--assets", "sell", "--sign")
	if r.code != ExitOK || !strings.HasPrefix(r.stderr, shown) || signatures(r) != 1 {
		t.Fatalf("answered y: %d\n%s", r.code, r.stderr)
	}
	r = w.buildAtTerminal(t, "", "--assets", "sell", "--sign", "--yes")
	if r.code != ExitOK || strings.Contains(r.stderr, "sign it?") || signatures(r) != 1 {
		t.Fatalf("--yes: %d\n%s", r.code, r.stderr)
	}
	// Unsigned, there is nothing to confirm.
	r = w.buildAtTerminal(t, "", "--assets", "sell")
	if r.code != ExitOK || strings.Contains(r.stderr, "sign it?") || signatures(r) != 0 {
		t.Fatalf("without --sign: %d\n%s", r.code, r.stderr)
	}
}
