package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestServerLinksNoToolingOrTestCode: the server binary carries the service
// and nothing else. The account-API double, the load kit, the client and
// the command line live in other packages, and a change that pulls one in
// (an import in the composition root, say) fails here.
func TestServerLinksNoToolingOrTestCode(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 || !slices.Contains(deps, "github.com/closerelay/closerelay/internal/server") {
		t.Fatalf("go list -deps answered %d packages without the composition root: %q", len(deps), deps)
	}
	forbidden := []string{
		"filippo.io/edwards25519", // signature forging for the load kit
		"github.com/closerelay/closerelay/ledger/ledgertest",
		"github.com/closerelay/closerelay/loadkit",
		"github.com/closerelay/closerelay/client",
		"github.com/closerelay/closerelay/cmd/closerelayctl",
		"github.com/closerelay/closerelay/cmd/closerelaylab",
		"github.com/closerelay/closerelay/internal/ctl",
		"github.com/closerelay/closerelay/internal/lab",
		"github.com/closerelay/closerelay/internal/relaytest",
		"github.com/closerelay/closerelay/internal/memlisten",
		"github.com/closerelay/closerelay/internal/syncbuf",
		"github.com/closerelay/closerelay/internal/natstest",
		"github.com/nats-io/nats-server", // cluster mode's tests embed NATS; the server is a client of one
		"testing",
	}
	for _, d := range deps {
		for _, f := range forbidden {
			if d == f || strings.HasPrefix(d, f+"/") {
				t.Errorf("the server links %s", d)
			}
		}
	}
}
