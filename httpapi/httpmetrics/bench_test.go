package httpmetrics_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/httpapi/httpmetrics"
	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
)

// BenchmarkMiddleware is one sign-shaped request through echo with the
// metrics middleware, against a handler that writes nothing but its
// status: the middleware's cost a request (echo alone is the "without"
// case).
func BenchmarkMiddleware(b *testing.B) {
	for _, with := range []bool{false, true} {
		name := "without"
		if with {
			name = "with"
		}
		b.Run(name, func(b *testing.B) {
			e := echo.New()
			if with {
				mw, err := httpmetrics.Middleware(httpmetrics.Options{
					Namespace: "closerelay", Registerer: prometheus.NewRegistry(),
					DurationBuckets: durationBuckets, Method: fold,
				})
				if err != nil {
					b.Fatal(err)
				}
				e.Use(mw)
			}
			e.POST("/api/plan/:id/sign", func(c echo.Context) error { return c.NoContent(http.StatusOK) })
			req := httptest.NewRequest(http.MethodPost, "/api/plan/"+strings.Repeat("a", 64)+"/sign", strings.NewReader("x"))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("User-Agent", "wrk")
			w := &discard{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				e.ServeHTTP(w, req)
			}
		})
	}
}

type discard struct{ h http.Header }

func (w *discard) Header() http.Header         { return w.h }
func (w *discard) Write(p []byte) (int, error) { return len(p), nil }
func (w *discard) WriteHeader(int)             {}
