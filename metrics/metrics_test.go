package metrics_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/mediator"
	"github.com/closerelay/closerelay/metrics"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// The co-sign results created at zero are exactly the codes the mediator
// route can answer: the forward codes are the mediator package's, in its
// order, so a code added there fails here until it is listed.
func TestCosignFailuresAreTheMediatorCodes(t *testing.T) {
	pre := []errcode.Code{errcode.RateLimited, errcode.PayloadTooLarge, errcode.BadRequest, errcode.BadNetwork,
		errcode.MediatorNotConfigured, errcode.InvalidFlowToken}
	want := slices.Concat(pre, mediator.ForwardCodesWithMemo())
	if !slices.Equal(metrics.CosignFailures, want) {
		t.Errorf("metrics.CosignFailures = %v\nwant (CONTRACT sections 6 and 13 order) %v", metrics.CosignFailures, want)
	}

	// Without CONTRACT section 13's memo code, the list is SPEC's: the 13
	// forward codes of mediator.ForwardCodes, in order, after the route's own.
	spec := slices.Concat(pre, mediator.ForwardCodes())
	if len(spec) != len(pre)+13 {
		t.Fatalf("mediator.ForwardCodes has %d codes, want SPEC's 13", len(spec)-len(pre))
	}
	memo := errcode.MemoNotCommitted
	without := slices.DeleteFunc(slices.Clone(metrics.CosignFailures), func(c errcode.Code) bool { return c == memo })
	if !slices.Equal(without, spec) {
		t.Errorf("metrics.CosignFailures without %s = %v\nwant (CONTRACT section 6 order) %v", memo, without, spec)
	}
	i := slices.Index(metrics.CosignFailures, memo)
	if i < 1 || metrics.CosignFailures[i-1] != errcode.DestinationNotCommitted {
		t.Errorf("%s is at %d, want right after %s", memo, i, errcode.DestinationNotCommitted)
	}
}

// The series created at zero name codes of the vocabulary only, and every
// code of the vocabulary has its series created on some route, except those
// that only an incident answers (they appear on first use).
func TestPrecreatedSeriesComeFromTheVocabulary(t *testing.T) {
	m := metrics.New()
	onFirstUse := []errcode.Code{errcode.Internal, errcode.Unavailable, errcode.RequestTimeout}
	created := map[errcode.Code]bool{}
	for _, s := range family(t, m.Registry, "closerelay_rejections_total").GetMetric() {
		route, code := "", errcode.Code("")
		for _, lp := range s.GetLabel() {
			switch lp.GetName() {
			case "route":
				route = lp.GetValue()
			case "code":
				code = errcode.Code(lp.GetValue())
			}
		}
		if !slices.Contains(metrics.Routes, route) || !code.Known() {
			t.Errorf("rejections series route=%q code=%q: not a route and a code of the vocabulary", route, code)
		}
		if slices.Contains(onFirstUse, code) {
			t.Errorf("%s is created at zero on %s; update this test's list", code, route)
		}
		created[code] = true
	}
	for _, c := range errcode.All() {
		if !created[c] && !slices.Contains(onFirstUse, c) {
			t.Errorf("%s has no rejections series created at zero on any route", c)
		}
	}
	for _, s := range family(t, m.Registry, "closerelay_mediator_cosign_total").GetMetric() {
		result := s.GetLabel()[0].GetValue()
		if result != metrics.CosignSigned && !errcode.Code(result).Known() {
			t.Errorf("cosign series result=%q is neither signed nor a code of the vocabulary", result)
		}
	}
}

// Every method is a no-op on a nil *Metrics: tests and tools run without one.
func TestNilMetricsIsANoOp(t *testing.T) {
	var m *metrics.Metrics
	m.PlanCreated()
	m.PlanExpired()
	m.PlanClosed()
	m.CapacityRefused()
	m.SubscriberAdded()
	m.SubscriberRemoved()
	m.SubscriberRejected()
	m.Broadcast()
	m.Signatures(metrics.SignatureAdmitted, 3)
	m.Rejection(metrics.RoutePlanGet, "NOT_FOUND")
	m.RateLimited(metrics.RoutePlanGet)
	m.AccountAPI("testnet", true, time.Second)
	m.MediatorCosign(metrics.CosignSigned)
}

// Each registry is the service's own: two coexist, and nothing reaches the
// process-wide default registry.
func TestOwnRegistry(t *testing.T) {
	a, b := metrics.New(), metrics.New()
	a.PlanCreated()
	if got := sample(t, b.Registry, "closerelay_plans_open").GetGauge().GetValue(); got != 0 {
		t.Errorf("a second registry sees plans_open %g", got)
	}
	mfs, err := prometheus.DefaultGatherer.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if strings.HasPrefix(mf.GetName(), metrics.Namespace+"_") {
			t.Errorf("%s is on the default registry", mf.GetName())
		}
	}
	for _, name := range []string{"go_goroutines", "process_start_time_seconds"} {
		if len(family(t, a.Registry, name).GetMetric()) != 1 {
			t.Errorf("%s: want one series from the Go and process collectors", name)
		}
	}
}

// The plan and subscriber gauges follow the lifecycle calls.
func TestGaugesFollowLifecycle(t *testing.T) {
	m := metrics.New()
	m.PlanCreated()
	m.PlanCreated()
	m.PlanCreated()
	m.PlanExpired()
	m.PlanClosed()
	m.SubscriberAdded()
	m.SubscriberAdded()
	m.SubscriberRemoved()
	m.SubscriberRejected()
	for name, want := range map[string]float64{
		"closerelay_plans_open": 1, "closerelay_plans_created_total": 3, "closerelay_plans_expired_total": 1,
		"closerelay_stream_subscribers": 1, "closerelay_stream_rejected_total": 1,
	} {
		s := sample(t, m.Registry, name)
		if got := s.GetCounter().GetValue() + s.GetGauge().GetValue(); got != want {
			t.Errorf("%s = %g, want %g", name, got, want)
		}
	}
}

// Signatures adds n at once and creates no series for n == 0; AccountAPI
// files a round trip under outcome ok or error.
func TestSignaturesAndAccountAPI(t *testing.T) {
	m := metrics.New()
	m.Signatures(metrics.SignatureAdmitted, 3)
	m.Signatures("surprise", 0)
	m.AccountAPI("mainnet", false, 300*time.Millisecond)
	m.AccountAPI("mainnet", true, 20*time.Millisecond)
	m.AccountAPI("mainnet", true, 20*time.Millisecond)
	if n := len(family(t, m.Registry, "closerelay_signatures_total").GetMetric()); n != 3 {
		t.Errorf("closerelay_signatures_total has %d series, want admitted, duplicate, dropped", n)
	}
	if got := sample(t, m.Registry, "closerelay_signatures_total", "result", "admitted").GetCounter().GetValue(); got != 3 {
		t.Errorf("admitted = %g, want 3", got)
	}
	for outcome, want := range map[string]uint64{"ok": 2, "error": 1} {
		if got := sample(t, m.Registry, "closerelay_account_api_duration_seconds", "network", "mainnet", "outcome", outcome).GetHistogram().GetSampleCount(); got != want {
			t.Errorf("account API %s count = %d, want %d", outcome, got, want)
		}
	}
}

// family gathers g and returns the family name, failing without it.
func family(t *testing.T, g prometheus.Gatherer, name string) *dto.MetricFamily {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			return mf
		}
	}
	t.Fatalf("no family %s", name)
	return nil
}

// sample is the series of family name whose labels include pairs.
func sample(t *testing.T, g prometheus.Gatherer, name string, pairs ...string) *dto.Metric {
	t.Helper()
next:
	for _, m := range family(t, g, name).GetMetric() {
		labels := map[string]string{}
		for _, lp := range m.GetLabel() {
			labels[lp.GetName()] = lp.GetValue()
		}
		for i := 0; i+1 < len(pairs); i += 2 {
			if labels[pairs[i]] != pairs[i+1] {
				continue next
			}
		}
		return m
	}
	t.Fatalf("no series %s%v", name, pairs)
	return nil
}
