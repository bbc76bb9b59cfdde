package metrics_test

import (
	"context"
	"errors"
	"testing"

	"github.com/closerelay/closerelay/metrics"
)

// TestClusterPlansOpenReadsAtScrape: closerelay_cluster_plans_open is
// absent until the composition root says how to count, then reads the
// count at each scrape, and is left out of a scrape whose read fails
// (rather than reported as 0 plans).
func TestClusterPlansOpenReadsAtScrape(t *testing.T) {
	m := metrics.New()
	const name = "closerelay_cluster_plans_open"
	has := func() (float64, bool) {
		mfs, err := m.Registry.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, mf := range mfs {
			if mf.GetName() == name {
				return mf.GetMetric()[0].GetGauge().GetValue(), true
			}
		}
		return 0, false
	}
	if v, ok := has(); ok {
		t.Fatalf("%s = %g before CountPlans", name, v)
	}
	n, fail := 0, false
	m.CountPlans(func(ctx context.Context) (int, error) {
		if _, ok := ctx.Deadline(); !ok {
			t.Error("the read has no deadline")
		}
		if fail {
			return 0, errors.New("store unreachable")
		}
		n++
		return 100 + n, nil
	})
	if v, ok := has(); !ok || v != 101 {
		t.Fatalf("first scrape: %g %v, want 101", v, ok)
	}
	if v, ok := has(); !ok || v != 102 {
		t.Fatalf("second scrape: %g %v, want 102 (read again)", v, ok)
	}
	fail = true
	if v, ok := has(); ok {
		t.Fatalf("a scrape whose read failed reports %g", v)
	}
	var nilMetrics *metrics.Metrics
	nilMetrics.CountPlans(nil) // no panic
}
