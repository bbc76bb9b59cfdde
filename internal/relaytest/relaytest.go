// Package relaytest runs a real closerelay API (httpapi over the actor
// supervisor and the mediator service, with its own metrics registry) on a
// loopback httptest.Server, with the ledgertest account-API double behind
// it, for the end-to-end tests of the client packages and the load tools.
package relaytest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/internal/memlisten"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/mediator"
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

// Relay is a running relay.
type Relay struct {
	URL     string
	OpsURL  string // the relay's /metrics, on a listener of its own
	Metrics *metrics.Metrics
	Horizon *ledgertest.Server // the account API the relay reads
	Server  *httptest.Server
	API     *httpapi.Server
	Plans   *actor.Supervisor
}

// Start runs a relay until the test ends.
func Start(t testing.TB, opts Options) *Relay {
	t.Helper()
	h := ledgertest.New()
	m := metrics.New()
	plans, api := newAPI(opts, h.Client(5*time.Second), m)
	srv := httptest.NewServer(api)
	ops := httptest.NewServer(m.Handler())
	r := &Relay{URL: srv.URL, OpsURL: ops.URL, Metrics: m, Horizon: h, Server: srv, API: api, Plans: plans}
	t.Cleanup(func() {
		api.Drain() // streams end first, or Close would wait on them
		srv.Close()
		ops.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := plans.Stop(ctx); err != nil {
			t.Errorf("relaytest: stop plans: %v", err)
		}
		h.Close()
	})
	return r
}

// InMemoryRelay is a relay for a testing/synctest bubble: served on an
// in-memory listener and reading an in-process account API, so that no
// goroutine waits on a socket and the bubble's clock can carry a plan to its
// expiry.
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
	plans, api := newAPI(opts, ledgertest.InProcessClient(h, 5*time.Second), nil)
	ln := memlisten.New()
	srv := &http.Server{Handler: api}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	r := &InMemoryRelay{URL: "http://relay.test", Client: ln.Client(), Horizon: h, API: api, Plans: plans}
	t.Cleanup(func() {
		api.Drain()
		r.Client.CloseIdleConnections()
		if err := srv.Shutdown(context.Background()); err != nil {
			t.Errorf("relaytest: shutdown: %v", err)
		}
		if err := <-served; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("relaytest: serve: %v", err)
		}
		if err := plans.Stop(context.Background()); err != nil {
			t.Errorf("relaytest: stop plans: %v", err)
		}
	})
	return r
}

// newAPI is the relay both starters serve: the production shape over the
// given account API.
func newAPI(opts Options, accounts *ledger.AccountClient, m *metrics.Metrics) (*actor.Supervisor, *httpapi.Server) {
	secret := ""
	if !opts.NoMediator {
		secret = keypair.MustRandom().Seed()
	}
	plans := actor.NewSupervisor(actor.Options{Capacity: 500, MaxSubscribers: opts.MaxSubscribers, Metrics: m})
	api := httpapi.New(httpapi.Options{
		Plans:      plans,
		Accounts:   accounts,
		Mediator:   mediator.New(mediator.Options{Secret: secret}),
		RateLimits: opts.RateLimits,
		Heartbeat:  opts.Heartbeat,
		Metrics:    m,
	})
	return plans, api
}
