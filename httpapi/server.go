// Package httpapi is closerelay's HTTP surface on Echo: the plan routes, the
// event stream, the co-signers' pages, the mediator route, and everything
// every response shares (error bodies, Cache-Control, CORS, per-client-IP
// rate limits, body caps, request logs and HTTP metrics). It holds no
// Stellar rules and no plan state: it decodes requests, calls package
// relay's use cases, and encodes their answers in CONTRACT.md's shapes, a
// coded failure with its code's status (statusOf, the one place).
package httpapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/httpapi/clientip"
	"github.com/closerelay/closerelay/httpapi/httpmetrics"
	"github.com/closerelay/closerelay/httpapi/openapi"
	"github.com/closerelay/closerelay/httpapi/ratelimit"
	"github.com/closerelay/closerelay/mediator"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/relay"
	"github.com/closerelay/closerelay/web"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// Limits of SPEC "Limits" that the HTTP layer enforces.
const (
	MaxBodyBytes    = 16384
	RateKeys        = 20000
	ratePeriod      = 60 * time.Second
	subscriberRetry = "5"
)

// Per-route rate limits (requests per 60 s per client IP), SPEC "Route
// summary" and CONTRACT section 10.
var routeRates = map[string]int{
	metrics.RoutePlanPublish:    10,
	metrics.RoutePlanGet:        60,
	metrics.RoutePlanSign:       30,
	metrics.RoutePlanEvents:     20,
	metrics.RoutePlanReady:      60,
	metrics.RoutePlanStatus:     60,
	metrics.RoutePlanSep7:       60,
	metrics.RoutePlanPage:       60,
	metrics.RouteMediatorCosign: 5,
}

// Mediator is what the mediator route needs from the mediator package.
type Mediator interface {
	// Mint returns a fresh flow token and the flow's mediator public key.
	Mint(destination string) (flowToken, mediatorPublicKey string, err error)
	// MintMemo is Mint with a memo committed in the token (CONTRACT
	// section 13): memo is "<type>:<value>".
	MintMemo(destination, memo string) (flowToken, mediatorPublicKey string, err error)
	// Cosign validates a forward envelope under the flow token and signs it.
	Cosign(envelopeXDR, flowToken, network string) (signedXDR, hashHex string, err error)
	// VerifyFlow verifies a publish's flow token (CONTRACT section 16).
	VerifyFlow(flowToken string) (flow *mediator.Flow, mediatorAddress string, err error)
}

// Options configure a Server. Only cmd reads the environment; it fills these.
type Options struct {
	// Relay runs the plan routes' use cases (publish, sign, the reads, the
	// streams' subscriptions, the pages' reads). Required.
	Relay            *relay.Service
	Mediator         Mediator // nil: an unconfigured mediator.Service (MEDIATOR_NOT_CONFIGURED)
	Metrics          *metrics.Metrics
	Log              *slog.Logger
	TrustedProxyHops int
	RateLimits       bool // false disables every limiter (load tests only)
	CORSAllowOrigins []string
	Heartbeat        time.Duration    // SSE heartbeat; 25 s when zero
	Now              func() time.Time // defaults to time.Now
	// PublicURL is the base URL clients reach the relay at (PUBLIC_URL):
	// SEP-7 links carry their callback under it; "" means no callback.
	PublicURL string
	// WalletConnectProjectID is WALLETCONNECT_PROJECT_ID: the plan page
	// offers WalletConnect among its wallets when set.
	WalletConnectProjectID string
}

// Server is the API's HTTP handler.
type Server struct {
	plans     *relay.Service
	publicURL string
	wcProject string
	mediator  Mediator
	metrics   *metrics.Metrics
	log       *slog.Logger
	hops      int
	heartbeat time.Duration
	now       func() time.Time
	limiters  map[string]*ratelimit.Limiter
	echo      *echo.Echo
	draining  chan struct{} // closed by Drain: streams end cleanly
	drainOnce sync.Once
	pages     *web.Handler // the co-signers' pages (page.go)
}

// Drain ends every open event stream cleanly and makes new ones end at once;
// call it when shutdown starts, so http.Server.Shutdown is not held up by
// long-lived streams while ordinary requests finish.
func (s *Server) Drain() { s.drainOnce.Do(func() { close(s.draining) }) }

// New builds the Echo router with every route and middleware.
func New(opts Options) *Server {
	s := &Server{
		plans:     opts.Relay,
		mediator:  opts.Mediator,
		metrics:   opts.Metrics,
		log:       opts.Log,
		hops:      opts.TrustedProxyHops,
		heartbeat: opts.Heartbeat,
		now:       opts.Now,
		limiters:  map[string]*ratelimit.Limiter{},
		draining:  make(chan struct{}),
		publicURL: opts.PublicURL,
		wcProject: opts.WalletConnectProjectID,
	}
	if s.mediator == nil {
		// Still a real Service, so INVALID_DESTINATION keeps its precedence
		// over MEDIATOR_NOT_CONFIGURED (CONTRACT section 8).
		s.mediator = mediator.New(mediator.Options{})
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.heartbeat <= 0 {
		s.heartbeat = 25 * time.Second
	}
	if opts.RateLimits {
		for route, n := range routeRates {
			s.limiters[route] = ratelimit.New(n, ratePeriod, RateKeys, s.now)
		}
	}

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.errorHandler
	e.Use(s.noStore, s.requestLog)
	if opts.Metrics != nil {
		mw, err := httpmetrics.Middleware(httpmetrics.Options{
			Namespace:  metrics.Namespace,
			Registerer: opts.Metrics.Registry,
			// Every label value comes from a closed set (CONTRACT section
			// 9): the route template, never the raw path (plan ids); no
			// Host (client-chosen); the method folded to the seven known
			// ones or "other". Otherwise each made-up method or path would
			// add series for good. Errors are written by writeErrors
			// below, inside this middleware, so the status is the one
			// actually written (or 499 for a client gone).
			Method:          metricMethod,
			Skip:            func(c echo.Context) bool { return c.Path() == "/api/plan/:id/events" },
			DurationBuckets: durationBuckets,
		})
		if err != nil {
			panic(fmt.Sprintf("httpapi: the HTTP metrics: %v", err)) // registered twice on one registry
		}
		e.Use(mw)
	}
	e.Use(writeErrors)
	if len(opts.CORSAllowOrigins) > 0 {
		e.Use(middleware.CORSWithConfig(middleware.CORSConfig{
			AllowOrigins: opts.CORSAllowOrigins,
			AllowMethods: []string{http.MethodGet, http.MethodPost, http.MethodOptions},
			AllowHeaders: []string{echo.HeaderContentType, "Last-Event-ID"},
			MaxAge:       600,
		}))
	}

	e.POST("/api/plan", s.publish, s.route(metrics.RoutePlanPublish), s.limit(metrics.RoutePlanPublish, jsonLimited), bodyCap)
	// HEAD answers as GET without a body (CONTRACT section 9), sharing the
	// GET route's limiter and metrics label.
	getPlan := []echo.MiddlewareFunc{s.route(metrics.RoutePlanGet), s.limit(metrics.RoutePlanGet, jsonLimited)}
	e.GET("/api/plan/:id", s.get, getPlan...)
	e.HEAD("/api/plan/:id", s.get, getPlan...)
	e.POST("/api/plan/:id/sign", s.sign, s.route(metrics.RoutePlanSign), s.limit(metrics.RoutePlanSign, jsonLimited), bodyCap)
	streamPlan := []echo.MiddlewareFunc{s.route(metrics.RoutePlanEvents), s.limit(metrics.RoutePlanEvents, s.textLimited)}
	e.GET("/api/plan/:id/events", s.events, streamPlan...)
	e.HEAD("/api/plan/:id/events", s.eventsHead, streamPlan...)
	// The coordinator's routes (CONTRACT section 10), each with a limiter
	// of its own; HEAD answers as GET without a body, as on GET /api/plan/:id.
	readyPlan := []echo.MiddlewareFunc{s.route(metrics.RoutePlanReady), s.limit(metrics.RoutePlanReady, jsonLimited)}
	e.GET("/api/plan/:id/ready", s.ready, readyPlan...)
	e.HEAD("/api/plan/:id/ready", s.ready, readyPlan...)
	statusPlan := []echo.MiddlewareFunc{s.route(metrics.RoutePlanStatus), s.limit(metrics.RoutePlanStatus, jsonLimited)}
	e.GET("/api/plan/:id/status", s.status, statusPlan...)
	e.HEAD("/api/plan/:id/status", s.status, statusPlan...)
	sep7Plan := []echo.MiddlewareFunc{s.route(metrics.RoutePlanSep7), s.limit(metrics.RoutePlanSep7, jsonLimited)}
	e.GET("/api/plan/:id/sep7", s.sep7Link, sep7Plan...)
	e.HEAD("/api/plan/:id/sep7", s.sep7Link, sep7Plan...)
	s.pageRoutes(e)

	e.GET("/api/mediator/sign", s.mint, s.route(metrics.RouteMediatorMint))
	e.POST("/api/mediator/sign", s.cosign, s.route(metrics.RouteMediatorCosign), s.countCosign, s.limit(metrics.RouteMediatorCosign, jsonLimited), bodyCap)
	e.OPTIONS("/api/mediator/sign", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) })
	for _, m := range []string{http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodHead} {
		e.Add(m, "/api/mediator/sign", s.mediatorMethodNotAllowed, s.route(metrics.RouteMediatorCosign))
	}
	// Every other method too (TRACE, PROPFIND, …), as SPEC's mediator errors
	// say: Echo's own 405 would list each registered method in Allow, PUT
	// and HEAD among them.
	e.Add(echo.RouteNotFound, "/api/mediator/sign", s.mediatorMethodNotAllowed, s.route(metrics.RouteMediatorCosign))
	e.GET(openapi.Path, serveOpenAPI)
	e.HEAD(openapi.Path, serveOpenAPI)
	s.echo = e
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

// route tags every failure of the route's middleware and handler with the
// route's metrics label, for the rejection count. Only a failure carries it:
// storing it in the echo context allocated the context's map on every
// request (5 % of the sign path's allocated bytes under load).
func (s *Server) route(label string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if err := next(c); err != nil {
				return routeError{label: label, err: err}
			}
			return nil
		}
	}
}

// routeError is a route's failure with the route's metrics label.
type routeError struct {
	label string
	err   error
}

func (e routeError) Error() string { return e.err.Error() }
func (e routeError) Unwrap() error { return e.err }

// routeLabel is the metrics label of the route that failed with err, or ""
// for a failure outside every route (no such path).
func routeLabel(err error) string {
	var re routeError
	if errors.As(err, &re) {
		return re.label
	}
	return ""
}

func (s *Server) clientIP(c echo.Context) string {
	return clientip.Resolve(c.Request(), s.hops)
}

// limitedWriter answers a throttled request in the route's own format.
type limitedWriter func(c echo.Context, wait time.Duration) error

func jsonLimited(c echo.Context, wait time.Duration) error {
	c.Response().Header().Set("Retry-After", retryAfter(wait))
	return errcode.New(errcode.RateLimited, "too many requests; retry after the Retry-After delay")
}

// textLimited is the event stream's plain-text 429 (SPEC "GET
// /api/plan/[id]/events"), counted as a rejection like its other refusals.
func (s *Server) textLimited(c echo.Context, wait time.Duration) error {
	c.Response().Header().Set("Retry-After", retryAfter(wait))
	return s.streamRefusal(c, errcode.RateLimited, "too many requests")
}

// limit applies the route's per-client-IP bucket; it runs first on the route
// (CONTRACT section 3), so a throttled client costs no body read.
func (s *Server) limit(route string, answer limitedWriter) echo.MiddlewareFunc {
	l := s.limiters[route]
	return ratelimit.Middleware(l, s.clientIP, func(c echo.Context, wait time.Duration) error {
		s.metrics.RateLimited(route)
		return answer(c, wait)
	})
}

// bodyCap refuses bodies above MaxBodyBytes with 413 before any is decoded.
// Content-Length is checked first; the reader is capped too, because a chunked
// body has no length to trust.
func bodyCap(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.ContentLength > MaxBodyBytes {
			return errcode.New(errcode.PayloadTooLarge, "request body is larger than 16384 bytes")
		}
		r.Body = http.MaxBytesReader(c.Response(), r.Body, MaxBodyBytes)
		return next(c)
	}
}

// noStore marks every response uncacheable: plan state changes under a reader.
func (s *Server) noStore(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		return next(c)
	}
}

// writeErrors writes a handler's error as its answer at once, innermost of
// the global middleware, so that the request log and the HTTP metrics around
// it see the status actually written rather than an error still in flight.
func writeErrors(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if err := next(c); err != nil {
			c.Error(err)
		}
		return nil
	}
}

// durationBuckets are closerelay_http_request_duration_seconds's
// upper bounds: fine below 30 ms, where the latency targets lie (fan-out
// p99 3 ms, honest co-signer p99 10 ms, replays p99 15 ms; a 20 ms bound
// too), so that histogram_quantile resolves each of them; coarse above,
// up to the 10 s of a stalled body. (The library's default jumps from 10 to
// 25 ms.)
var durationBuckets = []float64{.0005, .001, .002, .003, .005, .0075, .01, .015, .02, .03, .05, .1, .25, .5, 1, 2.5, 5, 10}

// metricMethod folds a request method into the closed set of CONTRACT
// section 9, so no client can add a label value of its own choosing.
func metricMethod(m string) string {
	switch m {
	case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodHead, http.MethodOptions:
		return m
	}
	return "other"
}

// requestLog writes one line per request: route template, status, duration,
// client IP. Never a body: envelopes stay out of info-level logs. The method
// is folded like the metrics' label: a made-up one is the client's text.
func (s *Server) requestLog(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		path := c.Path()
		if path == "" {
			path = "unmatched"
		}
		method, status, ip := metricMethod(c.Request().Method), c.Response().Status, s.clientIP(c)
		line := func(ctx context.Context) {
			s.log.LogAttrs(ctx, slog.LevelInfo, "request",
				slog.String("method", method),
				slog.String("route", path),
				slog.Int("status", status),
				slog.Duration("duration", time.Since(start)),
				slog.String("client_ip", ip))
		}
		if end, ok := c.Get(streamEndKey).(*streamEnd); ok {
			// A detached stream goes on after its handler: its line is
			// written at its end, as any other request's. Its request's
			// context has ended by then, and is not kept.
			end.after(func() { line(context.Background()) })
			return nil
		}
		line(c.Request().Context())
		return nil
	}
}
