package httpapi

import (
	"net/http"
	"strings"

	"github.com/closerelay/closerelay/httpapi/openapi"
	"github.com/labstack/echo/v4"
)

// Route is one route registered with the router: its method and its path in
// OpenAPI's form ("/api/plan/{id}", not Echo's "/api/plan/:id").
type Route struct {
	Method string
	Path   string
}

// Routes lists every route the router serves, in registration order,
// without Echo's RouteNotFound catch-alls (they stand for "any other
// method", which no single Route describes). The tests compare it with the
// OpenAPI document.
func (s *Server) Routes() []Route {
	var out []Route
	for _, r := range s.echo.Routes() {
		if r.Method == echo.RouteNotFound {
			continue
		}
		segs := strings.Split(r.Path, "/")
		for i, seg := range segs {
			if strings.HasPrefix(seg, ":") {
				segs[i] = "{" + seg[1:] + "}"
			}
		}
		out = append(out, Route{Method: r.Method, Path: strings.Join(segs, "/")})
	}
	return out
}

// serveOpenAPI is GET (and HEAD) /api/openapi.json: the OpenAPI 3.1
// document of every API route (CONTRACT section 11), embedded in the binary.
func serveOpenAPI(c echo.Context) error {
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, openapi.Document)
}
