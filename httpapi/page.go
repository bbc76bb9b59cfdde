package httpapi

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/web"
	"github.com/labstack/echo/v4"
)

// pagePlans is what the co-signers' pages read (web.Plans), through the same
// supervisor and plan calls as the JSON routes.
type pagePlans struct{ s *Server }

var _ web.Plans = pagePlans{}

// Page is one plan as its page shows it: the current version, the candidate
// signers with their weights and which have signed, and the submit-ready
// envelope once there is one.
func (p pagePlans) Page(ctx context.Context, id string) (web.PageData, error) {
	plan, err := p.s.plans.Lookup(ctx, id)
	if err != nil {
		return web.PageData{}, pageError(id, err)
	}
	st, err := plan.Snapshot(ctx)
	if err != nil {
		return web.PageData{}, pageError(id, err)
	}
	data := web.PageData{
		ID: st.ID, Network: st.Network, XDR: st.XDR,
		Weight: st.Weight, Threshold: st.Threshold, Ready: st.Ready,
		Expiry: plan.Expiry(),
		// The latest run: the publish's, or the one before the first try.
		Preflight: plan.Preflight(),
		Version:   st.Version,
		Funds:     p.s.funds.get(st.ID),
	}
	if sub := plan.Submission(); sub.State != "" {
		data.Submission = web.Submission{State: sub.State, Hash: sub.Hash, Ledger: sub.Ledger, Code: sub.Code, Reason: sub.Reason}
	}
	for _, sg := range plan.Canonical().Signers.Signers() {
		data.Signers = append(data.Signers, web.Signer{
			Key: sg.Address, Weight: int(sg.Weight), Signed: slices.Contains(st.Signers, sg.Address),
		})
	}
	if st.Ready {
		if r, ok, err := plan.Ready(ctx); err == nil && ok {
			data.ReadyXDR = r.XDR
		}
	}
	return data, nil
}

// pageError is err as the page tells it: not found, or unavailable for now
// (the store unreachable), as the JSON routes answer 404 and 503.
func pageError(id string, err error) error {
	switch {
	case errors.Is(err, actor.ErrNotFound):
		return fmt.Errorf("%w: %s", web.ErrNotFound, id)
	case errors.Is(err, actor.ErrUnavailable):
		return fmt.Errorf("%w: %w", web.ErrUnavailable, err)
	}
	return err
}

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
	s.pages = web.New(pagePlans{s}, web.Config{PublicURL: s.publicURL, Logger: s.log, Now: s.now})
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
}
