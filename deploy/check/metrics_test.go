package check

import (
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/httpapi/httpmetrics"
	"github.com/closerelay/closerelay/metrics"
	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// metricInfo is one exported metric family.
type metricInfo struct {
	typ    dto.MetricType
	labels []string // sorted
}

// serviceMetrics are the families metrics.New registers itself (CONTRACT
// section 7 and the additions in metrics/metrics.go). Cross-checked both
// ways against the real registry by TestServiceMetricsMatchRegistry.
var serviceMetrics = map[string]metricInfo{
	"closerelay_plans_open":                   {dto.MetricType_GAUGE, nil},
	"closerelay_plans_created_total":          {dto.MetricType_COUNTER, nil},
	"closerelay_plans_expired_total":          {dto.MetricType_COUNTER, nil},
	"closerelay_plans_capacity_refused_total": {dto.MetricType_COUNTER, nil},
	"closerelay_stream_subscribers":           {dto.MetricType_GAUGE, nil},
	"closerelay_stream_rejected_total":        {dto.MetricType_COUNTER, nil},
	"closerelay_stream_events_total":          {dto.MetricType_COUNTER, nil},
	"closerelay_signatures_total":             {dto.MetricType_COUNTER, []string{"result"}},
	"closerelay_rejections_total":             {dto.MetricType_COUNTER, []string{"code", "route"}},
	"closerelay_rate_limited_total":           {dto.MetricType_COUNTER, []string{"route"}},
	"closerelay_account_api_duration_seconds": {dto.MetricType_HISTOGRAM, []string{"network", "outcome"}},
	"closerelay_mediator_cosign_total":        {dto.MetricType_COUNTER, []string{"result"}},
	"closerelay_submissions_total":            {dto.MetricType_COUNTER, []string{"result"}},
	"closerelay_forwards_total":               {dto.MetricType_COUNTER, []string{"result"}},
	// The preflight's verdicts (CONTRACT section 14), each at zero.
	"closerelay_preflight_total": {dto.MetricType_COUNTER, []string{"state"}},
	// The plan store's (metrics/store.go): exported in both modes, at zero
	// and with closerelay_store_available at 1 in single mode.
	"closerelay_store_request_duration_seconds": {dto.MetricType_HISTOGRAM, []string{"op", "outcome"}},
	"closerelay_store_conflicts_total":          {dto.MetricType_COUNTER, []string{"entry"}},
	"closerelay_store_available":                {dto.MetricType_GAUGE, nil},
	"closerelay_store_records_refused_total":    {dto.MetricType_COUNTER, []string{"reason"}},
}

// httpMetrics are registered by the HTTP layer (httpapi) through its
// metrics middleware (httpapi/httpmetrics) with Namespace "closerelay" and
// Subsystem "http": requests_total, request_duration_seconds,
// response_size_bytes, request_size_bytes, labels code, method, host, url.
// They appear once a request has been served.
// TestHTTPMetricsMatchMiddleware checks them against the middleware, and
// TestBinaryServesProbesAndMetrics against the real binary.
var httpMetrics = map[string]metricInfo{
	"closerelay_http_requests_total":           {dto.MetricType_COUNTER, []string{"code", "host", "method", "url"}},
	"closerelay_http_request_duration_seconds": {dto.MetricType_HISTOGRAM, []string{"code", "host", "method", "url"}},
	"closerelay_http_request_size_bytes":       {dto.MetricType_HISTOGRAM, []string{"code", "host", "method", "url"}},
	"closerelay_http_response_size_bytes":      {dto.MetricType_HISTOGRAM, []string{"code", "host", "method", "url"}},
}

// eventMetrics are families metrics.New registers whose label values are
// not known in advance, so a series appears with its first event: the
// preflight's blockers by result code. TestEventMetricsMatchRegistry
// checks them after one event.
var eventMetrics = map[string]metricInfo{
	"closerelay_preflight_blockers_total": {dto.MetricType_COUNTER, []string{"code"}},
}

// startMetrics are set up by the server at start, not by metrics.New
// alone: the build's version, revision and Go version (metrics.BuildInfo),
// and the deployment's open plans, read at scrape (metrics.CountPlans).
var startMetrics = map[string]metricInfo{
	"closerelay_build_info":         {dto.MetricType_GAUGE, []string{"goversion", "revision", "version"}},
	"closerelay_cluster_plans_open": {dto.MetricType_GAUGE, nil},
	"closerelay_ledger_api_info":    {dto.MetricType_GAUGE, []string{"backend", "network"}},
}

// runtimeMetrics are the go_* and process_* families the dashboard and
// alerts use, from the Go and process collectors metrics.New registers.
var runtimeMetrics = map[string]metricInfo{
	"go_goroutines":                 {dto.MetricType_GAUGE, nil},
	"go_memstats_heap_inuse_bytes":  {dto.MetricType_GAUGE, nil},
	"process_resident_memory_bytes": {dto.MetricType_GAUGE, nil},
	"process_open_fds":              {dto.MetricType_GAUGE, nil},
	"process_start_time_seconds":    {dto.MetricType_GAUGE, nil},
}

// scrapeMetrics are series Prometheus itself adds to every target.
var scrapeMetrics = map[string]metricInfo{
	"up": {dto.MetricType_GAUGE, nil},
}

// targetLabels are attached by Prometheus (and the Prometheus Operator's
// relabelling), not by the service; any selector may use them.
var targetLabels = []string{"job", "instance", "namespace", "pod", "service", "endpoint", "container"}

// closedLabelValues are label values the service can emit; an equality
// matcher naming anything else selects nothing, forever.
var closedLabelValues = map[string][]string{
	"route":   metrics.Routes,
	"outcome": {"ok", "error"},
	"network": {"mainnet", "testnet", "futurenet"},
	"backend": {"horizon", "rpc"},
	"method":  {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "other"},
	// Route templates served by the middleware (the event stream is skipped).
	"url": {"/api/plan", "/api/plan/:id", "/api/plan/:id/sign", "/api/plan/:id/ready", "/api/plan/:id/status", "/api/mediator/sign"},
	"job": {"closerelay"},
}

// closedMetricLabelValues are closed sets that only hold for one metric.
var closedMetricLabelValues = map[string]map[string][]string{
	"closerelay_signatures_total": {"result": {metrics.SignatureAdmitted, metrics.SignatureDuplicate, metrics.SignatureDropped}},
	"closerelay_store_request_duration_seconds": {
		"op":      metrics.StoreOps,
		"outcome": {"ok", "conflict", "error"},
	},
	"closerelay_store_conflicts_total":       {"entry": {metrics.StoreEntryPlan, metrics.StoreEntryRegistry}},
	"closerelay_store_records_refused_total": {"reason": metrics.StoreRefusedReasons},
	"closerelay_preflight_total":             {"state": {"landable", "blocked", "uncertain", "unchecked"}},
}

// allMetrics is every family a query may name.
func allMetrics() map[string]metricInfo {
	out := map[string]metricInfo{}
	for _, m := range []map[string]metricInfo{serviceMetrics, eventMetrics, httpMetrics, startMetrics, runtimeMetrics, scrapeMetrics} {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// seriesNames maps each queryable series name to its family: a histogram
// family X is queried as X_bucket (with le), X_sum and X_count.
func seriesNames() map[string]string {
	out := map[string]string{}
	for name, info := range allMetrics() {
		if info.typ == dto.MetricType_HISTOGRAM {
			for _, s := range []string{"_bucket", "_sum", "_count"} {
				out[name+s] = name
			}
			continue
		}
		out[name] = name
	}
	return out
}

func gatherFamilies(t *testing.T, g prometheus.Gatherer) map[string]metricInfo {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]metricInfo{}
	for _, mf := range mfs {
		out[mf.GetName()] = familyInfo(mf)
	}
	return out
}

// familyInfo is a family's type and the union of its series' label names.
func familyInfo(mf *dto.MetricFamily) metricInfo {
	set := map[string]bool{}
	for _, m := range mf.GetMetric() {
		for _, lp := range m.GetLabel() {
			set[lp.GetName()] = true
		}
	}
	ls := slices.Sorted(maps.Keys(set))
	return metricInfo{mf.GetType(), ls}
}

func sameInfo(a, b metricInfo) bool { return a.typ == b.typ && slices.Equal(a.labels, b.labels) }

// TestServiceMetricsMatchRegistry compares serviceMetrics with what
// metrics.New really registers, both ways: a metric renamed in the service
// fails here before a dashboard panel silently goes empty.
func TestServiceMetricsMatchRegistry(t *testing.T) {
	got := gatherFamilies(t, metrics.New().Registry)
	for name, info := range got {
		if !strings.HasPrefix(name, metrics.Namespace+"_") {
			continue
		}
		want, ok := serviceMetrics[name]
		if !ok {
			t.Errorf("the service exports %s, missing from serviceMetrics in this test", name)
			continue
		}
		if !sameInfo(info, want) {
			t.Errorf("%s: service has %v %v, test lists %v %v", name, info.typ, info.labels, want.typ, want.labels)
		}
	}
	for name, want := range serviceMetrics {
		// Unlabelled families and pre-created series always appear; a
		// labelled family with no series yet would not, so none may be
		// listed here (metrics.New creates them all at zero).
		if _, ok := got[name]; !ok {
			t.Errorf("serviceMetrics lists %s (%v), which metrics.New does not export", name, want.typ)
		}
	}
	for name := range eventMetrics {
		if _, ok := got[name]; ok {
			t.Errorf("eventMetrics lists %s, which a fresh registry exports: list it in serviceMetrics", name)
		}
	}
	for name, want := range runtimeMetrics {
		info, ok := got[name]
		if !ok {
			t.Errorf("runtime metric %s is not exported by metrics.New's Go/process collectors", name)
		} else if !sameInfo(info, want) {
			t.Errorf("%s: exported %v %v, test lists %v %v", name, info.typ, info.labels, want.typ, want.labels)
		}
	}
}

// TestHTTPMetricsMatchMiddleware registers the HTTP metrics middleware
// as httpapi does (same namespace) and compares the families with
// httpMetrics. The real wiring is checked against the built binary in
// TestBinaryServesProbesAndMetrics.
func TestHTTPMetricsMatchMiddleware(t *testing.T) {
	reg := prometheus.NewRegistry()
	e := echo.New()
	mw, err := httpmetrics.Middleware(httpmetrics.Options{
		Namespace:       metrics.Namespace,
		Registerer:      reg,
		DurationBuckets: prometheus.DefBuckets,
		Method:          func(m string) string { return m },
	})
	if err != nil {
		t.Fatal(err)
	}
	e.Use(mw)
	e.POST("/api/plan/:id/sign", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) })
	e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/api/plan/ab/sign", nil))

	got := gatherFamilies(t, reg)
	if len(got) != len(httpMetrics) {
		t.Errorf("the middleware registers %d families, httpMetrics lists %d", len(got), len(httpMetrics))
	}
	for name, want := range httpMetrics {
		info, ok := got[name]
		if !ok {
			t.Errorf("the middleware does not export %s", name)
		} else if !sameInfo(info, want) {
			t.Errorf("%s: exported %v %v, test lists %v %v", name, info.typ, info.labels, want.typ, want.labels)
		}
	}
}

// TestEventMetricsMatchRegistry: after one blocked preflight, every family
// of eventMetrics is exported with its type and labels, and no other family
// of the service appears that neither list names.
func TestEventMetricsMatchRegistry(t *testing.T) {
	m := metrics.New()
	m.Preflight("blocked", []string{"op_has_sub_entries"})
	got := gatherFamilies(t, m.Registry)
	for name, want := range eventMetrics {
		info, ok := got[name]
		if !ok {
			t.Errorf("eventMetrics lists %s, which metrics.New does not export after its event", name)
		} else if !sameInfo(info, want) {
			t.Errorf("%s: service has %v %v, test lists %v %v", name, info.typ, info.labels, want.typ, want.labels)
		}
	}
	for name := range got {
		_, service := serviceMetrics[name]
		_, event := eventMetrics[name]
		if strings.HasPrefix(name, metrics.Namespace+"_") && !service && !event {
			t.Errorf("the service exports %s after a preflight, missing from this test's lists", name)
		}
	}
}
