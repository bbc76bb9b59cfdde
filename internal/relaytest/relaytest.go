// Package relaytest runs a real closerelay, started through the composition
// root (internal/server) like the server binary, with the ledgertest
// account-API double behind it, for the end-to-end tests of the client
// packages and the load tools.
package relaytest

import (
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/internal/memlisten"
	"github.com/closerelay/closerelay/internal/server"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/metrics"
	"github.com/stellar/go-stellar-sdk/keypair"
)

// Options tune a relay; the zero value is the production shape with rate
// limits off (tests send bursts no client would).
type Options struct {
	RateLimits     bool
	NoMediator     bool          // MEDIATOR_SECRET unset
	Heartbeat      time.Duration // SSE heartbeat; 25 s when zero
	MaxSubscribers int           // per plan; 50 when zero
}

// Relay is a running relay on loopback.
type Relay struct {
	URL     string
	OpsURL  string // the relay's /metrics, on a listener of its own
	Metrics *metrics.Metrics
	Horizon *ledgertest.Server // the account API the relay reads
	API     *httpapi.Server
	Plans   *actor.Supervisor

	relay *server.Relay
	conns *tracked
}

// Start runs a relay until the test ends.
func Start(t testing.TB, opts Options) *Relay {
	t.Helper()
	h := ledgertest.New()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conns := &tracked{Listener: ln, open: map[net.Conn]struct{}{}}
	cfg := config(opts)
	cfg.OpsAddr = "127.0.0.1:0"
	cfg.HorizonTimeout = 5 * time.Second
	rel, err := server.Start(server.Options{
		Config: cfg, Listener: conns, Ledger: h.Backends(), MaxSubscribers: opts.MaxSubscribers,
	})
	if err != nil {
		t.Fatal(err)
	}
	r := &Relay{
		URL: rel.APIURL, OpsURL: rel.OpsURL, Metrics: rel.Metrics, Horizon: h,
		API: rel.API, Plans: rel.Plans, relay: rel, conns: conns,
	}
	t.Cleanup(func() {
		r.Stop(t)
		h.Close()
	})
	return r
}

// Stop drains and ends the relay now; later requests fail to connect, as
// against a relay that is gone. It may be called again.
func (r *Relay) Stop(t testing.TB) {
	if err := r.relay.Stop(); err != nil {
		t.Errorf("relaytest: stop: %v", err)
	}
}

// DropConnections closes every client connection the relay holds, streams
// included, as a proxy that restarts would; the relay goes on serving.
func (r *Relay) DropConnections() { r.conns.closeAll() }

// config is the production configuration with opts applied.
func config(opts Options) server.Config {
	cfg := server.Defaults()
	cfg.RateLimits = opts.RateLimits
	cfg.ShutdownTimeout = 5 * time.Second
	if opts.Heartbeat > 0 {
		cfg.SSEHeartbeat = opts.Heartbeat
	}
	if !opts.NoMediator {
		cfg.MediatorSecret = keypair.MustRandom().Seed()
	}
	return cfg
}

// tracked remembers the connections it accepted, so DropConnections can
// close them.
type tracked struct {
	net.Listener
	mu   sync.Mutex
	open map[net.Conn]struct{}
}

func (l *tracked) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.mu.Lock()
		l.open[c] = struct{}{}
		l.mu.Unlock()
	}
	return c, err
}

func (l *tracked) closeAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for c := range l.open {
		_ = c.Close()
		delete(l.open, c)
	}
}

// InMemoryRelay is a relay for a testing/synctest bubble: served on in-memory
// listeners and reading an in-process account API, so that no goroutine
// waits on a socket and the bubble's clock can carry a plan to its expiry.
type InMemoryRelay struct {
	URL     string       // a base URL that only Client reaches
	Client  *http.Client // dials the relay in memory
	Horizon *ledgertest.Handler
	API     *httpapi.Server
	Plans   *actor.Supervisor
}

// StartInMemory runs a relay until the test ends. Call it inside the bubble;
// everything stops in the test's cleanup, still inside the bubble.
func StartInMemory(t *testing.T, opts Options) *InMemoryRelay {
	t.Helper()
	h := ledgertest.NewHandler()
	ln := memlisten.New()
	cfg := config(opts)
	cfg.HorizonTimeout = 5 * time.Second
	rel, err := server.Start(server.Options{
		Config: cfg, Listener: ln, OpsListener: memlisten.New(),
		Ledger: h.Backends(), MaxSubscribers: opts.MaxSubscribers,
	})
	if err != nil {
		t.Fatal(err)
	}
	r := &InMemoryRelay{URL: "http://relay.test", Client: ln.Client(), Horizon: h, API: rel.API, Plans: rel.Plans}
	t.Cleanup(func() {
		r.Client.CloseIdleConnections()
		if err := rel.Stop(); err != nil {
			t.Errorf("relaytest: stop: %v", err)
		}
	})
	return r
}
