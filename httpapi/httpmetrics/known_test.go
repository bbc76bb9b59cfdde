package httpmetrics

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
)

// TestLabelSetsStayFew: the metrics kept per label set are keyed by the
// folded method, so made-up methods add no entry each.
func TestLabelSetsStayFew(t *testing.T) {
	m, err := newRecorder(Options{
		Namespace: "x", Registerer: prometheus.NewRegistry(), DurationBuckets: []float64{1},
		Method: func(s string) string {
			if s == http.MethodGet {
				return s
			}
			return "other"
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	e.Use(m.middleware)
	e.GET("/p", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) })
	for i := range 100 {
		e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("M"+strconv.Itoa(i), "/p", nil))
		e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/p", nil))
	}
	if n := len(*m.known.Load()); n > 2 {
		t.Fatalf("%d label sets kept for GET and 100 made-up methods, want 2", n)
	}
}
