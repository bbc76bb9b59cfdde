// Package layers holds the tests of DESIGN's layer rules that span the
// module: one test per arrow that must not exist.
package layers

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/closerelay/closerelay/"

// links is every package pkg links, itself excluded (go list -deps).
func links(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", module+pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 2 {
		t.Fatalf("go list -deps %s answered %q", pkg, deps)
	}
	return deps[:len(deps)-1] // the package itself comes last
}

// within reports whether dep is pkg or one of its sub-packages.
func within(dep, pkg string) bool {
	return dep == module+pkg || strings.HasPrefix(dep, module+pkg+"/")
}

// TestLayers: each row is an arrow DESIGN rules out; the test fails when
// the package links the other (directly or not).
func TestLayers(t *testing.T) {
	for _, rule := range []struct {
		pkg, never, why string
	}{
		// plan is pure: values and transitions, no loop, no store, no I/O.
		{"plan", "actor", "plan's values are run by actor, never the other way"},
		{"plan", "planstore", "planstore encodes plan's values"},
		{"plan", "ledgerapi", "plan does no I/O"},
		{"plan", "relay", "plan is under the use cases"},
		// The wire maps values; it never reaches the loop or the store.
		{"web", "actor", "web maps plan values from relay's Plans"},
		{"web", "planstore", "web never sees the store"},
		{"web", "relay", "httpapi's adapter gives web its Plans"},
		{"wire", "actor", "wire is shapes only"},
		{"wire", "planstore", "wire is shapes only"},
		{"client", "actor", "the client talks to a relay over HTTP"},
		{"client", "planstore", "the client talks to a relay over HTTP"},
		{"client", "relay", "the client talks to a relay over HTTP"},
		// The forwarder runs a plan.ForwardJob; it never reaches the loop.
		{"forwarder", "actor", "the forwarder is an effect the loop runs"},
		// The store knows no plan logic.
		{"planstore", "actor", "planstore is under the loop"},
		// A ledger backend never reaches the other one (Horizon's side).
		{"ledgerapi/horizon", "ledgerapi/rpc", "the two backends are peers behind ledgerapi"},
	} {
		for _, d := range links(t, rule.pkg) {
			if within(d, rule.never) {
				t.Errorf("%s links %s: %s", rule.pkg, d, rule.why)
			}
		}
	}
}
