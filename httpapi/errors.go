package httpapi

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/wire"
	"github.com/labstack/echo/v4"
)

// statusClientGone is the status recorded, never written, for a request whose
// client went away before its answer (nginx's convention): no 4xx or 5xx of
// ours, since nobody was there to receive it.
const statusClientGone = 499

// errClientGone stands for a request whose client went away mid-request (it
// closed the connection while sending the body, or its context ended while
// the answer was being worked out).
var errClientGone = errors.New("client gone")

// internalReason is all a client is told of an error that carries no code of
// the vocabulary (STYLE habit 10); the error itself goes to the log.
const internalReason = "internal error"

// retryAfter renders a wait as a Retry-After header's value.
func retryAfter(d time.Duration) string {
	return strconv.Itoa(wire.RetryAfterSeconds(d))
}

// errorHandler is Echo's HTTPErrorHandler. An error carrying a code of the
// vocabulary (package errcode: the handlers', ledger's and mediator's) is
// answered with that code's status and its reason; Echo's own 404, 405 and
// 413 get their codes; anything else, a code outside the vocabulary
// included, is 500 INTERNAL whose detail goes to the log only.
func (s *Server) errorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	if clientGone(c, err) {
		// Not an error of ours or of the client's request: nothing is
		// written, nothing counted as a rejection, and the HTTP metrics
		// see the status below.
		s.log.Debug("client gone", "route", c.Path(), "err", err)
		c.Response().Status = statusClientGone
		return
	}
	ce := coded(err)
	if ce == nil {
		ce = echoError(err)
	}
	if ce == nil {
		s.log.Error("internal error", "route", c.Path(), "err", err)
		ce = errcode.New(errcode.Internal, internalReason)
	}
	s.writeJSONError(c, routeLabel(err), ce)
}

// coded returns the *errcode.Error that err carries when its code is in the
// vocabulary, or nil: any other error is internal.
func coded(err error) *errcode.Error {
	var ce *errcode.Error
	if errors.As(err, &ce) && ce.Code.Known() {
		return ce
	}
	return nil
}

// echoError codes the errors Echo's router and middleware raise themselves;
// nil for any other status, which no route of ours chose.
func echoError(err error) *errcode.Error {
	var he *echo.HTTPError
	if !errors.As(err, &he) {
		return nil
	}
	switch he.Code {
	case http.StatusNotFound:
		return errcode.New(errcode.NotFound, "no such route")
	case http.StatusMethodNotAllowed:
		return errcode.New(errcode.MethodNotAllowed, "method not allowed on this route")
	case http.StatusRequestEntityTooLarge:
		return errcode.New(errcode.PayloadTooLarge, "request body is larger than 16384 bytes")
	}
	return nil
}

// clientGone reports whether err means the client went away rather than
// that something failed: a body that stopped short, or a request context that
// ended (the connection closed) while the request was being served.
func clientGone(c echo.Context, err error) bool {
	if errors.Is(err, errClientGone) {
		return true
	}
	return c.Request().Context().Err() != nil &&
		(errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded))
}

// statusOf is the one place a code becomes a status: its own
// (errcode's table), except on the publish route, which SPEC gives no 503
// (errcode.Code.PublishStatus).
func statusOf(route string, code errcode.Code) int {
	if route == metrics.RoutePlanPublish {
		return code.PublishStatus()
	}
	return code.Status()
}

// writeJSONError answers ce with its code's status and CONTRACT section 3's
// body, and counts it as a rejection of the route.
func (s *Server) writeJSONError(c echo.Context, route string, ce *errcode.Error) {
	if route != "" {
		s.metrics.Rejection(route, ce.Code)
	}
	status := statusOf(route, ce.Code)
	if c.Request().Method == http.MethodHead {
		// The headers GET would carry, without the body.
		c.Response().Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
		_ = c.NoContent(status)
		return
	}
	_ = c.JSON(status, wire.Error{OK: false, Code: string(ce.Code), Reason: ce.Reason})
}
