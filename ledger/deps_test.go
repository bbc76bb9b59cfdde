package ledger_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestRulesOnly: ledger is Stellar's rules and nothing that talks to the
// ledger, so that a rule can be read, tested and fuzzed without a network
// in mind, and Horizon and Stellar RPC feed the same rules. Talking to the
// ledger is ledgerapi's; a change that brings I/O back here fails.
func TestRulesOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, d := range strings.Fields(string(out)) {
		switch {
		case d == "net" || strings.HasPrefix(d, "net/"),
			strings.HasPrefix(d, "github.com/closerelay/closerelay/ledgerapi"),
			strings.HasPrefix(d, "github.com/stellar/go-stellar-sdk/clients/"):
			t.Errorf("ledger links %s", d)
		}
	}
}
