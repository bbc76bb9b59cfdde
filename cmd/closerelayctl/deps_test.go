package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestCommandLineLinksNoServer: closerelayctl is what people install to
// talk to a relay, so it is a client and nothing more. The commands that
// start a relay and a double in process (demo, load) live in closerelaylab
// (internal/lab); a change that pulls a server package, the double or the
// load kit back in (an import of the composition root for a new command,
// say) fails here.
func TestCommandLineLinksNoServer(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 || !slices.Contains(deps, "github.com/closerelay/closerelay/client") {
		t.Fatalf("go list -deps answered %d packages without the client: %q", len(deps), deps)
	}
	forbidden := []string{
		"github.com/closerelay/closerelay/actor",
		"github.com/closerelay/closerelay/httpapi",
		"github.com/closerelay/closerelay/planstore",
		"github.com/closerelay/closerelay/relay",
		"github.com/closerelay/closerelay/internal/server",
		"github.com/closerelay/closerelay/web",
		"github.com/closerelay/closerelay/mediator",
		"github.com/closerelay/closerelay/internal/lab",      // closerelaylab's demo and load tools
		"github.com/closerelay/closerelay/ledger/ledgertest", // the account-API double
		"github.com/closerelay/closerelay/loadkit",
		"filippo.io/edwards25519", // the load kit's signature forging
		"github.com/nats-io/",     // the cluster store's client and server
		"testing",
	}
	for _, d := range deps {
		for _, f := range forbidden {
			if d == f || strings.HasPrefix(d, f+"/") || strings.HasSuffix(f, "/") && strings.HasPrefix(d, f) {
				t.Errorf("the command line links %s", d)
			}
		}
	}
}
