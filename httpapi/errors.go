package httpapi

import (
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
)

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

func (s *Server) writeJSONError(c echo.Context, status int, ae *apiError) {
	if route := routeLabel(c); route != "" {
		s.metrics.Rejection(route, ae.code)
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(status)
		return
	}
	_ = c.JSON(status, errorBody{OK: false, Code: ae.code, Reason: ae.reason})
}
