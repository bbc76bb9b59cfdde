package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/httpapi/bounds"
	"github.com/closerelay/closerelay/internal/buildinfo"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/mediator"
	"github.com/closerelay/closerelay/metrics"
)

// serveMain is the default command: configuration from the environment,
// then serve until SIGTERM or SIGINT.
func serveMain() int {
	cfg, err := loadConfig(os.Getenv)
	if err != nil {
		fmt.Fprintf(os.Stderr, "closerelay: invalid configuration: %v\n", err)
		return 2
	}
	log := newLogger(cfg)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	lis, err := net.Listen("tcp", cfg.ListenAddr)
	if err != nil {
		log.Error("cannot listen", "addr", cfg.ListenAddr, "err", err)
		return 1
	}
	opsLis, err := net.Listen("tcp", cfg.OpsAddr)
	if err != nil {
		_ = lis.Close()
		log.Error("cannot listen", "addr", cfg.OpsAddr, "err", err)
		return 1
	}
	accounts := ledger.NewAccountClient(cfg.HorizonURLs, cfg.HorizonTimeout)
	if err := serve(ctx, cfg, log, lis, opsLis, accounts, nil); err != nil {
		log.Error("serve failed", "err", err)
		return 1
	}
	return 0
}

func newLogger(cfg config) *slog.Logger { return newLoggerTo(cfg, os.Stderr) }

// newLoggerTo is LOG_FORMAT and LOG_LEVEL applied to w: JSON lines unless
// the format is "text" (slog's key=value lines, for humans).
func newLoggerTo(cfg config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "text" {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// serve runs both listeners until ctx ends, then drains: readiness goes
// false, the API stops accepting, streams end, in-flight requests get
// cfg.ShutdownTimeout, then the plan actors stop. ready, when non-nil, is
// closed once both listeners accept (used by the demo and tests).
func serve(ctx context.Context, cfg config, log *slog.Logger, lis, opsLis net.Listener,
	accounts ledger.AccountReader, ready chan<- struct{}) error {
	m := metrics.New()
	m.BuildInfo(buildinfo.Version(), buildinfo.Revision(), buildinfo.GoVersion())
	if a, ok := accounts.(*ledger.AccountClient); ok {
		a.WithConcurrency(cfg.HorizonConc) // before any request shares it
		a.WithObserver(func(n ledger.Network, ok bool, d time.Duration) { m.AccountAPI(string(n), ok, d) })
	}
	if !cfg.RateLimits {
		log.Warn("RATE_LIMITS=off: every per-client limiter is disabled; use only for load tests")
	}
	med := mediator.New(mediator.Options{Secret: cfg.MediatorSecret})
	if err := med.Configured(); err != nil {
		// The route still answers MEDIATOR_NOT_CONFIGURED per request; this
		// tells the operator at once rather than at the first wallet's try.
		log.Warn("mediator not configured: the mediator route answers MEDIATOR_NOT_CONFIGURED", "detail", err.Error())
	}
	plans := actor.NewSupervisor(actor.Options{Capacity: 500, MaxSubscribers: 50, PlansPerAccount: cfg.PlansPerAccount, Metrics: m, Log: log})
	api := httpapi.New(httpapi.Options{
		Plans:            plans,
		Accounts:         accounts,
		Mediator:         med,
		Metrics:          m,
		Log:              log,
		TrustedProxyHops: cfg.TrustedProxyHops,
		RateLimits:       cfg.RateLimits,
		CORSAllowOrigins: cfg.CORSAllowOrigins,
		Heartbeat:        cfg.SSEHeartbeat,
	})

	var draining atomic.Bool
	ops := http.NewServeMux()
	ops.Handle("GET /metrics", m.Handler())
	ops.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	ops.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if draining.Load() {
			http.Error(w, "draining", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ready\n"))
	})

	apiSrv := bounds.NewServer(api, bounds.APIIdleTimeout)
	opsSrv := bounds.NewServer(ops, bounds.OpsIdleTimeout)
	errc := make(chan error, 2)
	go func() { errc <- apiSrv.Serve(lis) }()
	go func() { errc <- opsSrv.Serve(opsLis) }()
	log.Info("closerelay serving", "api", lis.Addr().String(), "ops", opsLis.Addr().String(),
		"version", buildinfo.Version(), "revision", buildinfo.Revision())
	if ready != nil {
		close(ready)
	}

	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-errc:
	}
	log.Info("closerelay draining", "timeout", cfg.ShutdownTimeout.String())
	draining.Store(true)
	// Order (DESIGN "Shutdown"): stop accepting, end streams, let in-flight
	// requests finish within SHUTDOWN_TIMEOUT and cut what is left, then stop
	// the actors in time of their own; ops last, so /readyz answers 503
	// throughout. The whole stays under SHUTDOWN_TIMEOUT + 5 s (CONTRACT
	// section 9) whatever clients do.
	api.Drain()
	drainCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	cut, apiErr := apiSrv.Drain(drainCtx)
	level := slog.LevelInfo
	if cut > 0 {
		level = slog.LevelWarn
	}
	log.Log(context.Background(), level, "drain cut connections", "cut", cut)
	stopCtx, cancelStop := context.WithTimeout(context.Background(), actorStopTimeout)
	defer cancelStop()
	plansErr := plans.Stop(stopCtx)
	opsCtx, cancelOps := context.WithTimeout(context.Background(), opsStopTimeout)
	defer cancelOps()
	_, _ = opsSrv.Drain(opsCtx)
	if errors.Is(serveErr, http.ErrServerClosed) {
		serveErr = nil
	}
	return errors.Join(serveErr, apiErr, plansErr)
}

// Shutdown budget after the HTTP drain: the plan actors' own time to stop,
// then the ops listener's. Together they stay under the 5 s that CONTRACT
// section 9 allows beyond SHUTDOWN_TIMEOUT.
const (
	actorStopTimeout = 3 * time.Second
	opsStopTimeout   = time.Second
)
