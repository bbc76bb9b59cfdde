package httpmetrics_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/httpapi/httpmetrics"
	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
)

var durationBuckets = []float64{.0005, .001, .002, .003, .005, .0075, .01, .015, .02, .03, .05, .1, .25, .5, 1, 2.5, 5, 10}

func fold(m string) string {
	switch m {
	case http.MethodGet, http.MethodPost, http.MethodHead:
		return m
	}
	return "other"
}

// serve runs a set of requests through an echo server with the metrics
// middleware and returns its registry.
func serve(t *testing.T) *prometheus.Registry {
	t.Helper()
	reg := prometheus.NewRegistry()
	mw, err := httpmetrics.Middleware(httpmetrics.Options{
		Namespace:       "closerelay",
		Registerer:      reg,
		DurationBuckets: durationBuckets,
		Method:          fold,
		Skip:            func(c echo.Context) bool { return c.Path() == "/api/plan/:id/events" },
	})
	if err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	// Errors are written inside the middleware, as the relay's writeErrors
	// does, so the status counted is the one written.
	e.Use(mw, func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if err := next(c); err != nil {
				c.Error(err)
			}
			return nil
		}
	})
	e.POST("/api/plan/:id/sign", func(c echo.Context) error { return c.JSONBlob(http.StatusOK, []byte(`{"ok":true}`)) })
	e.GET("/api/plan/:id", func(c echo.Context) error { return c.String(http.StatusTeapot, strings.Repeat("x", 3000)) })
	e.GET("/api/plan/:id/events", func(c echo.Context) error { return c.String(http.StatusOK, "data: x\n\n") })
	for _, r := range []struct{ method, path, body string }{
		{"POST", "/api/plan/abc/sign", `{"xdr":"AAAA"}`},
		{"POST", "/api/plan/abd/sign", strings.Repeat("y", 2000)},
		{"GET", "/api/plan/abc", ""},
		{"GET", "/api/plan/abc/events", ""},
		{"GET", "/nowhere/" + strings.Repeat("z", 100), ""},
		{"BREW", "/api/plan/abc", ""},
	} {
		req := httptest.NewRequest(r.method, r.path, strings.NewReader(r.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("User-Agent", "test")
		e.ServeHTTP(httptest.NewRecorder(), req)
	}
	return reg
}

// TestExposition: the four families keep the names, help, types, label
// names and buckets that dashboards and alerts read, and count what they
// did before the middleware was our own (testdata/exposition.txt was
// written by echo-contrib's echoprometheus, configured as the relay had
// it, for the same requests): sizes by the same approximation, the route
// template as url, "" as host, and nothing for a skipped route.
func TestExposition(t *testing.T) {
	reg := serve(t)
	want, err := os.ReadFile("testdata/exposition.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := testutil.GatherAndCompare(reg, bytes.NewReader(want),
		"closerelay_http_requests_total", "closerelay_http_request_size_bytes", "closerelay_http_response_size_bytes"); err != nil {
		t.Fatal(err)
	}
	// Durations vary: their help, labels, buckets and counts must not.
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var d *dto.MetricFamily
	for _, mf := range mfs {
		if mf.GetName() == "closerelay_http_request_duration_seconds" {
			d = mf
		}
	}
	if d == nil || d.GetHelp() != "The HTTP request latencies in seconds." || d.GetType() != dto.MetricType_HISTOGRAM {
		t.Fatalf("duration family %v", d)
	}
	var n uint64
	for _, m := range d.GetMetric() {
		h := m.GetHistogram()
		n += h.GetSampleCount()
		var bounds []float64
		for _, b := range h.GetBucket() {
			bounds = append(bounds, b.GetUpperBound())
		}
		if !slicesEqual(bounds, durationBuckets) {
			t.Fatalf("duration buckets %v, want %v", bounds, durationBuckets)
		}
		var names []string
		for _, l := range m.GetLabel() {
			names = append(names, l.GetName())
		}
		if strings.Join(names, ",") != "code,host,method,url" {
			t.Fatalf("duration labels %v", names)
		}
	}
	if n != 5 {
		t.Fatalf("%d durations observed, want 5 (the stream skipped)", n)
	}
}

func slicesEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
