package server

import (
	"net/http"
	"slices"
	"testing"
	"testing/synctest"
)

// TestRequestDurationResolvesTargets: the HTTP latency histogram has a
// bucket bound at each latency target (issue 16: fan-out p99 3 ms, honest
// co-signer 10 ms, replays 15 ms, and 20 ms), so histogram_quantile can
// tell a target met from one missed; the library's default buckets jumped
// from 10 to 25 ms.
func TestRequestDurationResolvesTargets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startOpsRelay(t, nil)
		r.must(t, "192.0.2.1", http.MethodGet, "/api/plan/"+zeroID, "", http.StatusNotFound, "NOT_FOUND")
		mf := opsScrape(t, r.ops)["closerelay_http_request_duration_seconds"]
		if mf == nil || len(mf.Metric) == 0 {
			t.Fatal("no closerelay_http_request_duration_seconds after a request")
		}
		var bounds []float64
		for _, b := range mf.Metric[0].GetHistogram().GetBucket() {
			bounds = append(bounds, b.GetUpperBound())
		}
		for _, want := range []float64{.003, .01, .015, .02} {
			if !slices.Contains(bounds, want) {
				t.Errorf("no bucket bound at %g s: %v", want, bounds)
			}
		}
	})
}

const zeroID = "0000000000000000000000000000000000000000000000000000000000000000"
