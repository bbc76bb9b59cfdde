package httpapi_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/internal/memlisten"
	"github.com/closerelay/closerelay/ledger/ledgertest"
)

// testRelay is a real relay on a loopback listener with the account-API
// double behind it: the one harness every black-box test file starts.
type testRelay struct {
	URL     string
	API     *httpapi.Server
	Plans   *actor.Supervisor
	Horizon *ledgertest.Server
	Client  *http.Client // its own transport, so Stop can close its connections
	srv     *httptest.Server
	stop    sync.Once
}

// startRelay runs a relay until the test ends. opts.Plans and opts.Accounts
// are filled in; capacity 0 is the production 500; wrap, when not nil, wraps
// the listener (to shrink socket buffers, for instance).
func startRelay(tb testing.TB, opts httpapi.Options, capacity int, wrap func(net.Listener) net.Listener) *testRelay {
	tb.Helper()
	h := ledgertest.New()
	plans := actor.NewSupervisor(actor.Options{Capacity: capacity})
	opts.Plans = plans
	opts.Accounts = h.Client(5 * time.Second)
	api := httpapi.New(opts)
	srv := httptest.NewUnstartedServer(api)
	if wrap != nil {
		srv.Listener = wrap(srv.Listener)
	}
	srv.Start()
	r := &testRelay{
		URL: srv.URL, API: api, Plans: plans, Horizon: h, srv: srv,
		Client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}},
	}
	tb.Cleanup(func() { r.Stop(tb) })
	return r
}

// Stop ends the streams, the listener, the plans and the double, in that
// order (streams first, or closing the server would wait on them); it may be
// called more than once.
func (r *testRelay) Stop(tb testing.TB) {
	r.stop.Do(func() {
		r.API.Drain()
		r.Client.CloseIdleConnections()
		r.srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := r.Plans.Stop(ctx); err != nil {
			tb.Errorf("stop plans: %v", err)
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

// bubbleRelay is a relay for a synctest bubble: an in-memory listener (no
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
	Dial   func(ctx context.Context, network, addr string) (net.Conn, error)
	srv    *http.Server
	served chan error
}

// startBubbleRelay starts a bubbleRelay; call it inside the bubble. opts may
// set any Options but Plans and Accounts, which the relay owns (a configured
// mediator, for instance).
func startBubbleRelay(opts ...httpapi.Options) *bubbleRelay {
	h := ledgertest.NewHandler()
	plans := actor.NewSupervisor(actor.Options{})
	var o httpapi.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	o.Plans, o.Accounts = plans, ledgertest.InProcessClient(h, 5*time.Second)
	api := httpapi.New(o)
	ln := memlisten.New()
	r := &bubbleRelay{
		Base: "http://relay.test", API: api, Plans: plans, Horizon: h,
		Client: ln.Client(), Dial: ln.Dial,
		srv:    &http.Server{Handler: api},
		served: make(chan error, 1),
	}
	go func() { r.served <- r.srv.Serve(ln) }()
	return r
}

// Stop shuts everything down, so that synctest can check that no bubble
// goroutine remains.
func (r *bubbleRelay) Stop(t *testing.T) {
	r.API.Drain()
	r.Client.CloseIdleConnections()
	if err := r.srv.Shutdown(context.Background()); err != nil {
		t.Errorf("shutdown: %v", err)
	}
	if err := <-r.served; !errors.Is(err, http.ErrServerClosed) {
		t.Errorf("serve: %v", err)
	}
	if err := r.Plans.Stop(context.Background()); err != nil {
		t.Errorf("stop plans: %v", err)
	}
}
