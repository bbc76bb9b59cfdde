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
// (an import in the composition root, say) fails here. So does test code
// that a library drags in: the SDK's horizonclient and protocols/horizon
// link testify, net/http/httptest and logrus's test hook, which is why
// ledgerapi/horizon speaks Horizon's REST itself.
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
		"net/http/httptest",
		"github.com/stretchr/testify",
		"github.com/sirupsen/logrus/hooks/test",
		"github.com/stellar/go-stellar-sdk/clients/horizonclient", // links the three above
	}
	for _, d := range deps {
		for _, f := range forbidden {
			if d == f || strings.HasPrefix(d, f+"/") {
				t.Errorf("the server links %s", d)
			}
		}
		if testPackage(d) {
			t.Errorf("the server links %s, a package for tests", d)
		}
	}
}

// testPackage reports whether d, outside the standard library, is named as
// a package for tests (ledgertest, natstest, logrus/hooks/test, a mock):
// the list above cannot name every double a dependency may bring.
func testPackage(d string) bool {
	if first, _, _ := strings.Cut(d, "/"); !strings.Contains(first, ".") {
		return false // the standard library's internal/testlog and the like
	}
	last := d[strings.LastIndexByte(d, '/')+1:]
	return strings.HasSuffix(last, "test") || strings.HasSuffix(last, "mock") || strings.HasPrefix(last, "testutil")
}
