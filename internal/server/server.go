// Package server is closerelay's composition root: it turns a Config (and,
// for tests and tools, a few overrides) into a running relay — the account
// API client, the plan supervisor, the mediator, the API and ops listeners
// with their bounds — and drains it in the order DESIGN.md gives.
//
// Everything that runs a relay goes through Start: the server binary, the
// demo and the load tools of closerelaylab, and every test harness. Nothing
// else wires one by hand, so a limit or a bound set here holds everywhere.
package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/forwarder"
	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/httpapi/bounds"
	"github.com/closerelay/closerelay/internal/buildinfo"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/closerelay/closerelay/ledgerapi/horizon"
	"github.com/closerelay/closerelay/ledgerapi/rpc"
	"github.com/closerelay/closerelay/mediator"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/plan"
	"github.com/closerelay/closerelay/planstore"
	"github.com/closerelay/closerelay/relay"
)

// Production limits of SPEC "Limits" that Options may lower for a test.
const (
	Capacity       = actor.DefaultCapacity
	MaxSubscribers = actor.DefaultMaxSubscribers
)

// Shutdown budget after the HTTP drain: the plan actors' own time to stop,
// then the ops listener's. Together they stay under the 5 s that CONTRACT
// section 9 allows beyond SHUTDOWN_TIMEOUT.
const (
	actorStopTimeout = 3 * time.Second
	opsStopTimeout   = time.Second
)

// Options are a Config plus what only tests and tools set. The zero value of
// every override is production's choice.
type Options struct {
	Config

	// Listener and OpsListener serve the API and the ops routes; nil
	// listens on Config.ListenAddr and Config.OpsAddr.
	Listener, OpsListener net.Listener
	// Ledger is each network's ledger API backend (the account-API
	// double's, say); nil is Config.LedgerAPI's: Horizon at
	// Config.HorizonURLs, or Stellar RPC at Config.RPCURLs. Either way the
	// relay's client bounds the calls by HORIZON_TIMEOUT and
	// HORIZON_CONCURRENCY and times them for the metrics.
	Ledger map[ledger.Network]ledgerapi.Backend
	// Submitter submits ready plans published with "submit": true; nil is
	// the relay's ledger API client (Relay.Ledger).
	Submitter actor.Submitter
	// Forwarder runs the mediator forwards of plans published with a
	// flow (CONTRACT section 16); nil is package forwarder's over the
	// relay's ledger API client and its mediator.
	Forwarder actor.Forwarder
	// SubmitLease shortens, for a test, how long a cluster instance's claim
	// on a submission holds without renewal; 0 keeps
	// actor.DefaultSubmitLease.
	SubmitLease time.Duration
	// Log gets the relay's log lines; nil discards them.
	Log *slog.Logger
	// Capacity and MaxSubscribers lower SPEC's 500 plans and 50 streams
	// per plan for a test; 0 keeps them.
	Capacity, MaxSubscribers int
	// Mediator replaces the mediator service built from MEDIATOR_SECRET
	// (a test's fake that fails on purpose, say).
	Mediator httpapi.Mediator
	// Now is the relay's clock for expiries, flow tokens and rate limits;
	// nil is time.Now.
	Now func() time.Time
	// Metrics is the registry the relay's collectors go to; nil is a fresh
	// one (Relay.Metrics either way).
	Metrics *metrics.Metrics
}

// Relay is a running relay. Its fields are for tests and tools to look at;
// they never change after Start.
type Relay struct {
	APIURL, OpsURL string // http://host:port of each listener
	Metrics        *metrics.Metrics
	Plans          *actor.Supervisor
	API            *httpapi.Server
	Ledger         *ledgerapi.Client // reads accounts and, unless Options.Submitter, submits

	cfg      Config
	log      *slog.Logger
	store    plansStore
	apiSrv   *bounds.Server
	opsSrv   *bounds.Server
	draining atomic.Bool
	failed   chan error // a listener's Serve ended by itself
	stopOnce sync.Once
	stopErr  error
}

// DetachedStreams reports how many responses on the API listener have been
// taken over from net/http and are still being written: the event streams
// that hold only their connection and a small goroutine (bounds.Detach).
func (r *Relay) DetachedStreams() int { return r.apiSrv.Detached() }

// NewLogger is LOG_FORMAT and LOG_LEVEL applied to w: JSON lines unless the
// format is "text" (slog's key=value lines, for humans).
func NewLogger(cfg Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "text" {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// Start wires a relay from opts and serves both listeners; it returns once
// both accept. Stop ends it.
func Start(opts Options) (*Relay, error) {
	cfg := opts.Config
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	m := opts.Metrics
	if m == nil {
		m = metrics.New()
	}
	lis, opsLis := opts.Listener, opts.OpsListener
	closeGiven := func() {
		for _, l := range []net.Listener{lis, opsLis} {
			if l != nil {
				_ = l.Close()
			}
		}
	}
	store, sole, err := openPlans(cfg, m, log)
	if err != nil {
		closeGiven()
		return nil, err
	}
	if lis == nil {
		l, err := net.Listen("tcp", cfg.ListenAddr)
		if err != nil {
			closeGiven()
			store.Close()
			return nil, fmt.Errorf("listen on LISTEN_ADDR %s: %w", cfg.ListenAddr, err)
		}
		lis = l
	}
	if opsLis == nil {
		l, err := net.Listen("tcp", cfg.OpsAddr)
		if err != nil {
			_ = lis.Close()
			store.Close()
			return nil, fmt.Errorf("listen on OPS_ADDR %s: %w", cfg.OpsAddr, err)
		}
		opsLis = l
	}

	m.BuildInfo(buildinfo.Version(), buildinfo.Revision(), buildinfo.GoVersion())
	api := cfg.LedgerAPI
	if api == "" {
		api = LedgerAPIHorizon // a Config built without ParseEnv
	}
	backends := opts.Ledger
	if backends == nil {
		if api == LedgerAPIRPC {
			backends = rpc.Backends(cfg.RPCURLs, nil)
		} else {
			backends = horizon.Backends(cfg.HorizonURLs, nil)
		}
	}
	info := make(map[string]string, 3)
	for _, n := range []ledger.Network{ledger.Mainnet, ledger.Testnet, ledger.Futurenet} {
		info[string(n)] = api
	}
	m.LedgerAPIInfo(info)
	accounts := ledgerapi.New(ledgerapi.Options{
		Backends:    backends,
		Timeout:     cfg.HorizonTimeout,
		Concurrency: cfg.HorizonConc,
		Observe:     func(n ledger.Network, ok bool, d time.Duration) { m.AccountAPI(string(n), ok, d) },
		MaxAccounts: cfg.PreflightMaxAccounts,
		MaxAge:      cfg.PreflightMaxAge,
		// Only a publish with rate limits on names its client; the
		// account's budget is spent beside the client's.
		CallsPerClient:  cfg.LedgerCallsPerClient,
		CallsPerAccount: cfg.LedgerCallsPerAccount,
	})
	var submitter actor.Submitter = accounts
	if opts.Submitter != nil {
		submitter = opts.Submitter
	}
	if !cfg.RateLimits {
		log.Warn("RATE_LIMITS=off: every per-client limiter is disabled; use only for load tests")
	}
	med := opts.Mediator
	if med == nil {
		svc := mediator.New(mediator.Options{Secret: cfg.MediatorSecret, Now: opts.Now})
		if err := svc.Configured(); err != nil {
			// The route still answers MEDIATOR_NOT_CONFIGURED per request;
			// this tells the operator at once rather than at the first
			// wallet's try.
			log.Warn("mediator not configured: the mediator route answers MEDIATOR_NOT_CONFIGURED", "detail", err.Error())
		}
		med = svc
	}
	r := &Relay{
		APIURL:  "http://" + lis.Addr().String(),
		OpsURL:  "http://" + opsLis.Addr().String(),
		Metrics: m,
		Ledger:  accounts,
		cfg:     cfg,
		log:     log,
		store:   store,
		failed:  make(chan error, 2),
	}
	r.Plans = actor.NewSupervisor(actor.Options{
		Capacity:         or(opts.Capacity, Capacity),
		MaxSubscribers:   or(opts.MaxSubscribers, MaxSubscribers),
		PlansPerAccount:  cfg.PlansPerAccount,
		Now:              opts.Now,
		Metrics:          m,
		Log:              log,
		Submitter:        submitter,
		Preflighter:      ledgerapi.Rechecker{Client: accounts, Now: opts.Now},
		Forwarder:        forwarderOf(opts, accounts, med),
		FlowCheck:        flowCheckOf(med),
		Store:            store,
		SoleWriter:       sole,
		SubmitLease:      opts.SubmitLease,
		ForwardBudget:    cfg.ForwardBudget,
		ForwardRetention: cfg.ForwardRetention,
	})
	// closerelay_cluster_plans_open: the count the 500-plan limit is held
	// against, the store's registry's.
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	m.CountPlans(func(ctx context.Context) (int, error) { return store.Open(ctx, now()) })
	r.API = httpapi.New(httpapi.Options{
		Relay: relay.New(relay.Options{
			Plans:    r.Plans,
			Accounts: accounts,
			// One gate for the relay: sweeps (a signature whose hint names
			// no candidate) take at most all cores but one.
			Sweeps:  ledger.NewSweepGate(ledger.DefaultSweepSlots()),
			Flows:   med.VerifyFlow,
			Metrics: m,
			Log:     log,
			Now:     opts.Now,
		}),
		Mediator:         med,
		Metrics:          m,
		Log:              log,
		TrustedProxyHops: cfg.TrustedProxyHops,
		RateLimits:       cfg.RateLimits,
		CORSAllowOrigins: cfg.CORSAllowOrigins,
		Heartbeat:        cfg.SSEHeartbeat,
		Now:              opts.Now,
		PublicURL:        cfg.PublicURL,

		WalletConnectProjectID: cfg.WalletConnectID,
	})

	r.apiSrv = bounds.NewServer(r.API, bounds.APIIdleTimeout)
	r.opsSrv = bounds.NewServer(r.opsRoutes(), bounds.OpsIdleTimeout)
	go func() { r.failed <- r.apiSrv.Serve(lis) }()
	go func() { r.failed <- r.opsSrv.Serve(opsLis) }()
	mode := "cluster"
	if sole {
		mode = "single"
	}
	log.Info("closerelay serving", "api", lis.Addr().String(), "ops", opsLis.Addr().String(),
		"version", buildinfo.Version(), "revision", buildinfo.Revision(), "mode", mode)
	return r, nil
}

// storeOpenTimeout bounds the wait for NATS at start: a relay that cannot
// reach it exits (1) and its supervisor restarts it, rather than serving
// UNAVAILABLE from the first request.
const storeOpenTimeout = 15 * time.Second

// openStore connects cluster mode's plan store (CONTRACT section 12). A
// bucket that exists with file storage is a *ConfigError (exit 2).
func openStore(cfg Config, m *metrics.Metrics, log *slog.Logger) (*planstore.Store, error) {
	ctx, cancel := context.WithTimeout(context.Background(), storeOpenTimeout)
	defer cancel()
	store, err := planstore.Open(ctx, planstore.Options{
		URLs: cfg.NATSURLs, Bucket: cfg.NATSBucket, Replicas: cfg.NATSReplicas,
		Name: "closerelay", Log: log, Metrics: m,
	})
	if errors.Is(err, planstore.ErrFileStorage) {
		return nil, &ConfigError{"NATS_BUCKET", err.Error()}
	}
	if err != nil {
		return nil, fmt.Errorf("cluster mode: %w", err)
	}
	log.Info("plan store ready", "bucket", cfg.NATSBucket, "replicas", cfg.NATSReplicas)
	return store, nil
}

// plansStore is where a relay's plans live: single mode's in-memory store,
// which this relay alone writes, or cluster mode's JetStream bucket.
type plansStore interface {
	actor.Store
	Close()
}

// openPlans opens the plans' store the configuration names: cluster
// mode's bucket when NATS_URLS is set, else single mode's in-memory store;
// sole says that nothing but this relay writes it.
func openPlans(cfg Config, m *metrics.Metrics, log *slog.Logger) (store plansStore, sole bool, err error) {
	if len(cfg.NATSURLs) == 0 {
		return planstore.NewMemory(), true, nil
	}
	s, err := openStore(cfg, m, log)
	if err != nil {
		return nil, false, err
	}
	return s, false, nil
}

// forwarderOf is the relay's Forwarder: the one opts gives, else package
// forwarder's over accounts, signing with med when it can (a test's
// mediator that cannot sign forwards runs none).
func forwarderOf(opts Options, accounts *ledgerapi.Client, med httpapi.Mediator) actor.Forwarder {
	if opts.Forwarder != nil {
		return opts.Forwarder
	}
	signer, ok := med.(forwarder.Signer)
	if !ok {
		return nil
	}
	return forwarder.New(forwarder.Options{Ledger: accounts, Signer: signer, Now: opts.Now})
}

// flowCheckOf is the check of the flows that plans' records hold: med's,
// when it has a master and can verify a kept flow; nil otherwise (a
// mediator without a master, or a test's that cannot), and plans whose
// records hold a flow are then unavailable on this instance.
func flowCheckOf(med httpapi.Mediator) actor.FlowCheck {
	kept, ok := med.(interface {
		KeptFlow(flowToken string) (*mediator.Flow, string, error)
		Configured() error
	})
	if !ok || kept.Configured() != nil {
		return nil
	}
	return func(token string) (plan.Flow, string, error) {
		f, address, err := kept.KeptFlow(token)
		if err != nil {
			return plan.Flow{}, "", err
		}
		return plan.Flow{Nonce: f.Nonce, Destination: f.Destination, Memo: f.Memo.String()}, address, nil
	}
}

func or(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// opsRoutes are the ops listener's: metrics, liveness, readiness.
func (r *Relay) opsRoutes() http.Handler {
	ops := http.NewServeMux()
	ops.Handle("GET /metrics", r.Metrics.Handler())
	ops.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	ops.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if r.draining.Load() {
			http.Error(w, "draining", http.StatusServiceUnavailable)
			return
		}
		if !r.store.Available() {
			http.Error(w, "plan store unreachable", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ready\n"))
	})
	return ops
}

// Failed delivers the error of a listener that stopped serving by itself
// (its socket failed); a relay that runs normally never sends on it.
func (r *Relay) Failed() <-chan error { return r.failed }

// Stop drains the relay and waits for it: readiness goes false, the API
// stops accepting, streams end, in-flight requests get SHUTDOWN_TIMEOUT and
// what is left is cut (logged as "drain cut connections"), then the plan
// actors stop in time of their own, then the ops listener. It returns nil
// after a drain, also when connections had to be cut, and it has returned
// within SHUTDOWN_TIMEOUT + 5 s whatever clients do (CONTRACT section 9).
// Calling it again returns the first call's result.
func (r *Relay) Stop() error {
	r.stopOnce.Do(func() { r.stopErr = r.stop() })
	return r.stopErr
}

func (r *Relay) stop() error {
	r.log.Info("closerelay draining", "timeout", r.cfg.ShutdownTimeout.String())
	r.draining.Store(true)
	r.API.Drain()
	drainCtx, cancel := context.WithTimeout(context.Background(), r.cfg.ShutdownTimeout)
	defer cancel()
	cut, apiErr := r.apiSrv.Drain(drainCtx)
	level := slog.LevelInfo
	if cut > 0 {
		level = slog.LevelWarn
	}
	r.log.Log(context.Background(), level, "drain cut connections", "cut", cut)
	stopCtx, cancelStop := context.WithTimeout(context.Background(), actorStopTimeout)
	defer cancelStop()
	plansErr := r.Plans.Stop(stopCtx)
	r.store.Close() // after the plans: their last writes go through
	opsCtx, cancelOps := context.WithTimeout(context.Background(), opsStopTimeout)
	defer cancelOps()
	_, _ = r.opsSrv.Drain(opsCtx)
	return errors.Join(apiErr, plansErr)
}

// Run is the server binary's whole job: Start, serve until ctx ends or a
// listener fails, then Stop.
func Run(ctx context.Context, opts Options) error {
	r, err := Start(opts)
	if err != nil {
		return err
	}
	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-r.failed:
		if errors.Is(serveErr, http.ErrServerClosed) {
			serveErr = nil
		}
	}
	return errors.Join(serveErr, r.Stop())
}
