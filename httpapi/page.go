package httpapi

import (
	"time"

	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/web"
	"github.com/labstack/echo/v4"
)

// htmlLimited is the HTML routes' 429: the page, with Retry-After,
// counted as a rejection of route.
func (s *Server) htmlLimited(route string) limitedWriter {
	return func(c echo.Context, wait time.Duration) error {
		s.metrics.Rejection(route, errcode.RateLimited)
		web.TooManyRequests(c.Response(), wait)
		return nil
	}
}

// pageRoutes registers the co-signers' pages (CONTRACT section 11): the
// landing page and the plan page, 60 per 60 s per client, and their assets,
// served from memory with no limit of their own (CONTRACT section 9): a
// page a client may load must be able to load its stylesheet and script.
func (s *Server) pageRoutes(e *echo.Echo) {
	s.pages = web.New(pagePlans{s.plans}, web.Config{PublicURL: s.publicURL, Logger: s.log, Now: s.now, WalletConnectProjectID: s.wcProject})
	pages := echo.WrapHandler(s.pages)
	mw := []echo.MiddlewareFunc{s.route(metrics.RoutePlanPage), s.limit(metrics.RoutePlanPage, s.htmlLimited(metrics.RoutePlanPage))}
	for _, path := range []string{"/", "/plan", "/plan/:id", "/plan/*"} {
		e.GET(path, pages, mw...)
		e.HEAD(path, pages, mw...)
	}
	// The page's paste form (issue 26): the sign route's checks, and its
	// limiter (one bucket for both: the form is no way around it).
	e.POST("/plan/:id"+web.PathSign, s.pageSign, s.route(metrics.RoutePlanSign), s.limit(metrics.RoutePlanSign, s.htmlLimited(metrics.RoutePlanSign)))
	e.GET("/assets/:name", pages, s.route(metrics.RoutePlanPage))
	e.HEAD("/assets/:name", pages, s.route(metrics.RoutePlanPage))
	// The wallet module, loaded when a co-signer asks to sign with a wallet.
	e.GET(web.PathWallet+":name", pages, s.route(metrics.RoutePlanPage))
	e.HEAD(web.PathWallet+":name", pages, s.route(metrics.RoutePlanPage))
}
