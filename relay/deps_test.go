package relay_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestRelayKnowsNoWire: the service sits under the wire (DESIGN's
// layers: httpapi and web decode, call relay, encode), so it links neither
// of them nor the HTTP framework. The co-signers' page data was once built
// here, in web's types; it is httpapi's adapter now.
func TestRelayKnowsNoWire(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/closerelay/closerelay/actor") {
		t.Fatalf("go list -deps answered %d packages without actor: %q", len(deps), deps)
	}
	for _, d := range deps {
		for _, f := range []string{
			"github.com/closerelay/closerelay/web",
			"github.com/closerelay/closerelay/httpapi",
			"github.com/labstack/echo",
		} {
			if d == f || strings.HasPrefix(d, f+"/") {
				t.Errorf("relay links %s", d)
			}
		}
	}
}
