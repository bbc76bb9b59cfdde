package testport

import (
	"fmt"
	"net"
	"testing"
)

// TestFreeIsBelowTheEphemeralRange: every port is distinct, bindable and
// below the ephemeral range (a port from 127.0.0.1:0, as the cluster tests
// took before, is inside it).
func TestFreeIsBelowTheEphemeralRange(t *testing.T) {
	low := EphemeralLow()
	ports := Free(t, 20)
	seen := map[int]bool{}
	for _, p := range ports {
		if p < lowest || p >= low {
			t.Errorf("port %d outside [%d, %d)", p, lowest, low)
		}
		if seen[p] {
			t.Errorf("port %d twice", p)
		}
		seen[p] = true
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			t.Errorf("port %d: %v", p, err)
			continue
		}
		ln.Close()
	}
}
