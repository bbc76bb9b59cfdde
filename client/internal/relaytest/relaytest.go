// Package relaytest runs a real closerelay API (httpapi over the actor
// supervisor and the mediator service) on a loopback httptest.Server, with
// the ledgertest account-API double behind it, for the end-to-end tests of
// the client packages.
package relaytest

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/mediator"
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
	Horizon *ledgertest.Server // the account API the relay reads
	Server  *httptest.Server
	API     *httpapi.Server
	Plans   *actor.Supervisor
}

// Start runs a relay until the test ends.
func Start(t testing.TB, opts Options) *Relay {
	t.Helper()
	h := ledgertest.New()
	secret := ""
	if !opts.NoMediator {
		secret = keypair.MustRandom().Seed()
	}
	plans := actor.NewSupervisor(actor.Options{Capacity: 500, MaxSubscribers: opts.MaxSubscribers})
	api := httpapi.New(httpapi.Options{
		Plans:      plans,
		Accounts:   h.Client(5 * time.Second),
		Mediator:   mediator.New(mediator.Options{Secret: secret}),
		RateLimits: opts.RateLimits,
		Heartbeat:  opts.Heartbeat,
	})
	srv := httptest.NewServer(api)
	r := &Relay{URL: srv.URL, Horizon: h, Server: srv, API: api, Plans: plans}
	t.Cleanup(func() {
		api.Drain() // streams end first, or Close would wait on them
		srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := plans.Stop(ctx); err != nil {
			t.Errorf("relaytest: stop plans: %v", err)
		}
		h.Close()
	})
	return r
}
