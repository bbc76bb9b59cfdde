package httpapi_test

import (
	"context"
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
)

// testRelay is a real relay on a loopback listener with the account-API
// double behind it, started through the composition root like the server
// binary: the one harness every black-box test file starts.
type testRelay struct {
	URL     string
	API     *httpapi.Server
	Plans   *actor.Supervisor
	Metrics *metrics.Metrics
	Horizon *ledgertest.Server
	Client  *http.Client // its own transport, so Stop can close its connections
	relay   *server.Relay
	stop    sync.Once
}

// serverOptions is what a test asks of the API, as the composition root's
// Options: the production configuration with the test's overrides. Its
// zero value keeps TRUSTED_PROXY_HOPS at 0 and rate limits off, as a test
// that sends bursts from one address wants.
func serverOptions(o httpapi.Options) server.Options {
	cfg := server.Defaults()
	cfg.TrustedProxyHops = o.TrustedProxyHops
	cfg.RateLimits = o.RateLimits
	cfg.CORSAllowOrigins = o.CORSAllowOrigins
	if o.Heartbeat > 0 {
		cfg.SSEHeartbeat = o.Heartbeat
	}
	cfg.ShutdownTimeout = 10 * time.Second
	return server.Options{Config: cfg, Mediator: o.Mediator, Metrics: o.Metrics, Log: o.Log, Now: o.Now}
}

// startRelay runs a relay until the test ends. opts.Plans and opts.Accounts
// are the relay's own; capacity 0 is the production 500; wrap, when not nil,
// wraps the listener (to shrink socket buffers, for instance).
func startRelay(tb testing.TB, opts httpapi.Options, capacity int, wrap func(net.Listener) net.Listener) *testRelay {
	tb.Helper()
	h := ledgertest.New()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	if wrap != nil {
		ln = wrap(ln)
	}
	so := serverOptions(opts)
	so.Config.OpsAddr = "127.0.0.1:0"
	so.Listener, so.Accounts, so.Capacity = ln, h.Client(5*time.Second), capacity
	rel, err := server.Start(so)
	if err != nil {
		tb.Fatal(err)
	}
	r := &testRelay{
		URL: rel.APIURL, API: rel.API, Plans: rel.Plans, Metrics: rel.Metrics, Horizon: h, relay: rel,
		Client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}},
	}
	tb.Cleanup(func() { r.Stop(tb) })
	return r
}

// Stop drains the relay (its streams end first) and stops the double; it
// may be called more than once.
func (r *testRelay) Stop(tb testing.TB) {
	r.stop.Do(func() {
		r.Client.CloseIdleConnections()
		if err := r.relay.Stop(); err != nil {
			tb.Errorf("stop relay: %v", err)
		}
		r.Horizon.Close()
	})
}

// testClock is a settable clock for Options.Now and mediator.Options.Now, for
// the tests that step time across a real listener (synctest cannot reach a
// socket's goroutines).
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// bubbleRelay is a relay for a synctest bubble: in-memory listeners (no
// socket, so the bubble's clock can advance while requests wait) and the
// account-API double in process. Create it inside the bubble.
type bubbleRelay struct {
	Base    string // the URL every request goes to; nothing resolves it
	API     *httpapi.Server
	Plans   *actor.Supervisor
	Horizon *ledgertest.Handler
	Client  *http.Client
	// Dial opens a raw in-memory connection to the relay, for a client
	// that speaks HTTP by hand (one that never reads, say).
	Dial  func(ctx context.Context, network, addr string) (net.Conn, error)
	relay *server.Relay
}

// startBubbleRelay starts a bubbleRelay; call it inside the bubble. opts may
// set any Options but Plans and Accounts, which the relay owns (a configured
// mediator, for instance).
func startBubbleRelay(opts ...httpapi.Options) *bubbleRelay {
	h := ledgertest.NewHandler()
	var o httpapi.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	ln := memlisten.New()
	so := serverOptions(o)
	so.Listener, so.OpsListener, so.Accounts = ln, memlisten.New(), ledgertest.InProcessClient(h, 5*time.Second)
	rel, err := server.Start(so)
	if err != nil {
		panic("startBubbleRelay: " + err.Error()) // in-memory listeners cannot fail
	}
	return &bubbleRelay{
		Base: "http://relay.test", API: rel.API, Plans: rel.Plans, Horizon: h,
		Client: ln.Client(), Dial: ln.Dial, relay: rel,
	}
}

// Stop shuts everything down, so that synctest can check that no bubble
// goroutine remains.
func (r *bubbleRelay) Stop(t *testing.T) {
	r.Client.CloseIdleConnections()
	if err := r.relay.Stop(); err != nil {
		t.Errorf("stop relay: %v", err)
	}
}
