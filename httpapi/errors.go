package httpapi

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
)

// Codes answered by the HTTP layer itself; the ledger and mediator packages
// define the rest.
const (
	codeBadXDR           = "BAD_XDR"
	codeBadNetwork       = "BAD_NETWORK"
	codeNotAClose        = "NOT_A_CLOSE"
	codeExpired          = "EXPIRED"
	codeRejected         = "REJECTED"
	codeCapacity         = "CAPACITY"
	codeAccountUnreach   = "ACCOUNT_UNREACHABLE"
	codeUnsigned         = "UNSIGNED"
	codeNotFound         = "NOT_FOUND"
	codePayloadTooLarge  = "PAYLOAD_TOO_LARGE"
	codeRateLimited      = "RATE_LIMITED"
	codeBadRequest       = "BAD_REQUEST"
	codeMethodNotAllowed = "METHOD_NOT_ALLOWED"
	codeInternal         = "INTERNAL"
	codeUnavailable      = "UNAVAILABLE"
	codeTooManyListeners = "TOO_MANY_SUBSCRIBERS"
	codeNotConfigured    = "MEDIATOR_NOT_CONFIGURED"
	codeRequestTimeout   = "REQUEST_TIMEOUT"
)

// statusClientGone is the status recorded, never written, for a request whose
// client went away before its answer (nginx's convention): no 4xx or 5xx of
// ours, since nobody was there to receive it.
const statusClientGone = 499

// errClientGone stands for a request whose client went away mid-request (it
// closed the connection while sending the body, or its context ended while
// the answer was being worked out).
var errClientGone = errors.New("client gone")

// statusOf is the one table from code to HTTP status (STYLE habit 10). Codes
// not listed (the 13 forward codes, INVALID_FLOW_TOKEN, and the plan guards) are
// client errors: 400.
var statusOf = map[string]int{
	codeNotFound:         http.StatusNotFound,
	codePayloadTooLarge:  http.StatusRequestEntityTooLarge,
	codeRateLimited:      http.StatusTooManyRequests,
	codeMethodNotAllowed: http.StatusMethodNotAllowed,
	codeInternal:         http.StatusInternalServerError,
	codeUnavailable:      http.StatusServiceUnavailable,
	codeNotConfigured:    http.StatusInternalServerError,
	codeTooManyListeners: http.StatusServiceUnavailable,
	codeRequestTimeout:   http.StatusRequestTimeout,
}

func statusFor(code string) int {
	if s, ok := statusOf[code]; ok {
		return s
	}
	return http.StatusBadRequest
}

// apiError is a coded failure a handler returns; the error handler writes it
// as CONTRACT section 3's JSON body and counts it.
type apiError struct {
	code   string
	reason string
}

func (e *apiError) Error() string { return e.code + ": " + e.reason }

func fail(code, reason string) error { return &apiError{code: code, reason: reason} }

// errorBody is CONTRACT section 3's JSON error shape.
type errorBody struct {
	OK     bool   `json:"ok"`
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

// retryAfter renders a wait as whole seconds rounded up, at least 1.
func retryAfter(d time.Duration) string {
	s := int64((d + time.Second - 1) / time.Second)
	if s < 1 {
		s = 1
	}
	return strconv.FormatInt(s, 10)
}

// errorHandler is Echo's HTTPErrorHandler: coded errors become JSON bodies,
// Echo's own errors (unknown route, method) keep their status with a code, and
// anything else is an internal error whose text never reaches the client.
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
	var ae *apiError
	var he *echo.HTTPError
	switch {
	case errors.As(err, &ae):
	case errors.As(err, &he):
		switch he.Code {
		case http.StatusNotFound:
			ae = &apiError{codeNotFound, "no such route"}
		case http.StatusMethodNotAllowed:
			ae = &apiError{codeMethodNotAllowed, "method not allowed on this route"}
		case http.StatusRequestEntityTooLarge:
			ae = &apiError{codePayloadTooLarge, "request body is larger than 16384 bytes"}
		default:
			ae = &apiError{codeBadRequest, http.StatusText(he.Code)}
			s.writeJSONError(c, he.Code, ae)
			return
		}
	default:
		s.log.Error("internal error", "route", c.Path(), "err", err)
		ae = &apiError{codeInternal, "internal error"}
	}
	s.writeJSONError(c, statusFor(ae.code), ae)
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

func (s *Server) writeJSONError(c echo.Context, status int, ae *apiError) {
	if route := routeLabel(c); route != "" {
		s.metrics.Rejection(route, ae.code)
	}
	if c.Request().Method == http.MethodHead {
		// The headers GET would carry, without the body.
		c.Response().Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
		_ = c.NoContent(status)
		return
	}
	_ = c.JSON(status, errorBody{OK: false, Code: ae.code, Reason: ae.reason})
}
