// Package testport picks loopback ports for tests that start servers in
// other processes (relays, NATS servers, HAProxy), which must be told a
// port rather than handed a listener.
//
// A port from listening on 127.0.0.1:0 comes from the kernel's ephemeral
// range, the same range every outgoing connection takes its source port
// from: between the pick and the server's bind, or while a killed server
// restarts on its port, a client's connection can hold it, and the bind
// fails with "address already in use" (it did, once, in CI). Ports below
// that range are never given to outgoing connections.
package testport

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
)

// lowest is the first port Free considers: above the well-known and the
// commonly registered service ports a developer's machine may run.
const lowest = 10000

// Free returns n distinct loopback ports below the ephemeral range that
// nothing listens on now.
func Free(t testing.TB, n int) []int {
	t.Helper()
	top := EphemeralLow()
	if top-lowest < 100*n {
		t.Fatalf("testport: the ephemeral range starts at %d, leaving too few ports below it", top)
	}
	var ports []int
	var held []net.Listener
	defer func() {
		for _, ln := range held {
			_ = ln.Close()
		}
	}()
	for tries := 0; len(ports) < n; tries++ {
		if tries > 1000 {
			t.Fatalf("testport: no free port among 1000 tries below %d", top)
		}
		// Held until every port is picked, so no two are the same.
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", lowest+rand.IntN(top-lowest)))
		if err != nil {
			continue
		}
		held = append(held, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

// EphemeralLow is the first port of the kernel's ephemeral range (Linux's
// net.ipv4.ip_local_port_range), 32768 where it cannot be read.
func EphemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 32768
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 32768
	}
	low, err := strconv.Atoi(f[0])
	if err != nil || low <= lowest {
		return 32768
	}
	return low
}
