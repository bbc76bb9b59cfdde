// Package natstest runs real NATS servers with JetStream inside a test
// process, on loopback, for cluster mode's tests (CONTRACT section 12): one
// server, or a cluster of several with routes between them. A server can be
// shut down and started again on the same ports, empty as a memory-only
// NATS server comes back.
package natstest

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/internal/testport"
	"github.com/nats-io/nats-server/v2/server"
)

// Server is one embedded NATS server.
type Server struct {
	// URL is its client URL, nats://127.0.0.1:port; it stays the same
	// across Restart.
	URL string

	t    testing.TB
	opts server.Options
	srv  *server.Server
}

// Start runs one NATS server with JetStream until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	return StartCluster(t, 1)[0]
}

// StartCluster runs n NATS servers with JetStream, clustered with routes to
// each other when n > 1, and waits until JetStream answers on each.
func StartCluster(t testing.TB, n int) []*Server {
	t.Helper()
	ports := testport.Free(t, 2*n)
	clientPorts, routePorts := ports[:n], ports[n:]
	servers := make([]*Server, n)
	for i := range n {
		opts := server.Options{
			ServerName: fmt.Sprintf("nats-%d", i),
			Host:       "127.0.0.1",
			Port:       clientPorts[i],
			JetStream:  true,
			// JetStream needs a directory even when every stream is in
			// memory, as closerelay's bucket is.
			StoreDir:           t.TempDir(),
			JetStreamMaxMemory: 256 << 20,
			NoLog:              true,
			NoSigs:             true,
		}
		if n > 1 {
			opts.Cluster = server.ClusterOpts{Name: "closerelay-test", Host: "127.0.0.1", Port: routePorts[i]}
			for j := range n {
				if j != i {
					opts.Routes = append(opts.Routes, &url.URL{Scheme: "nats", Host: fmt.Sprintf("127.0.0.1:%d", routePorts[j])})
				}
			}
		}
		servers[i] = &Server{URL: fmt.Sprintf("nats://127.0.0.1:%d", clientPorts[i]), t: t, opts: opts}
	}
	for _, s := range servers {
		s.start()
		t.Cleanup(s.Shutdown)
	}
	for _, s := range servers {
		s.waitJetStream()
	}
	return servers
}

// URLs joins the servers' URLs as NATS_URL takes them.
func URLs(servers []*Server) string {
	urls := make([]string, len(servers))
	for i, s := range servers {
		urls[i] = s.URL
	}
	return strings.Join(urls, ",")
}

func (s *Server) start() {
	s.t.Helper()
	opts := s.opts // NewServer keeps and changes its options
	srv, err := server.NewServer(&opts)
	if err != nil {
		s.t.Fatalf("natstest: %v", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		s.t.Fatalf("natstest: %s not ready for connections", s.opts.ServerName)
	}
	s.srv = srv
}

// waitJetStream waits until the server's JetStream is enabled (and, in a
// cluster, has a meta leader).
func (s *Server) waitJetStream() {
	s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if s.srv.JetStreamEnabled() && (!s.srv.JetStreamIsClustered() || s.srv.JetStreamIsCurrent()) {
			return
		}
		time.Sleep(20 * time.Millisecond) // polling a condition, not timing an assertion
	}
	s.t.Fatalf("natstest: JetStream of %s not ready", s.opts.ServerName)
}

// Shutdown stops the server; its memory streams are gone with it.
func (s *Server) Shutdown() {
	if s.srv != nil {
		s.srv.Shutdown()
		s.srv.WaitForShutdown()
		s.srv = nil
	}
}

// Restart starts a shut-down server again on the same ports.
func (s *Server) Restart() {
	s.t.Helper()
	s.Shutdown()
	s.start()
	s.waitJetStream()
}
