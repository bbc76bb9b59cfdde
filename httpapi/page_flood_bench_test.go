package httpapi_test

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/network"
)

// BenchmarkPageFlood is issue 25's page flood: 20 client addresses, none
// throttled, asking for the plan page of a 20-signature plan about 15 times
// a second in all (the attack measured: 14.7 pages/s held the relay at 1.94
// cores when every page encoded its QR code again), while an honest client
// reads the plan's JSON. It reports the honest reads' p50 and
// p99, quiet and under the flood, and their ratio (p99-ratio): CONTRACT
// section 9 wants a page served again to cost no more than a few
// milliseconds, so the flood must not move the honest p99 past twice its
// quiet value.
func BenchmarkPageFlood(b *testing.B) {
	r := startRelay(b, httpapi.Options{RateLimits: true, TrustedProxyHops: 1}, 0, nil)
	acct := ledgertest.NewAccount(20, 1)
	r.Horizon.AddAccount(acct)
	x, hash := ledgertest.BuildClose(acct.Master, planDest, 1, time.Now().Add(time.Hour).Unix(), network.TestNetworkPassphrase, acct.Keys[:min(20, len(acct.Keys))]...)
	id := fmt.Sprintf("%x", hash)
	if code, body, err := ssePost(b.Context(), r.Client, r.URL+"/api/plan", map[string]string{"network": "testnet", "xdr": x}); err != nil || code != http.StatusOK {
		b.Fatalf("publish: %d %s %v", code, body, err)
	}
	get := func(path, ip string) (int, time.Duration) {
		req, _ := http.NewRequest(http.MethodGet, r.URL+path, nil)
		req.Header.Set("X-Forwarded-For", ip)
		start := time.Now()
		res, err := r.Client.Do(req)
		if err != nil {
			return 0, 0
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode, time.Since(start)
	}
	// honest reads the plan's JSON n times from fresh addresses (so that
	// its own limiter never throttles it) and returns the latencies.
	var honestIP atomic.Int64
	honest := func(n int) []time.Duration {
		lat := make([]time.Duration, 0, n)
		for range n {
			ip := fmt.Sprintf("198.51.%d.%d", honestIP.Load()/250%250, honestIP.Add(1)%250+1)
			if code, d := get("/api/plan/"+id, ip); code == http.StatusOK {
				lat = append(lat, d)
			}
		}
		slices.Sort(lat)
		return lat
	}
	at := func(lat []time.Duration, q float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(q*float64(len(lat))))]
	}
	bursts := func() []time.Duration {
		var lat []time.Duration
		for range 20 {
			lat = append(lat, honest(100)...)
			time.Sleep(100 * time.Millisecond)
		}
		slices.Sort(lat)
		return lat
	}
	for b.Loop() {
		// The quiet run has the flooded run's shape (20 bursts of 100, 100 ms
		// apart), so that the ratio compares like with like: back-to-back
		// requests run on warmer caches than a burst after a pause.
		quiet := bursts()
		stop := make(chan struct{})
		var wg sync.WaitGroup
		var pages, limited atomic.Int64
		for i := range 20 {
			ip := fmt.Sprintf("203.0.113.%d", i+1)
			wg.Go(func() {
				tick := time.NewTicker(1300 * time.Millisecond)
				defer tick.Stop()
				for {
					switch code, _ := get("/plan/"+id, ip); code {
					case http.StatusOK:
						pages.Add(1)
					case http.StatusTooManyRequests:
						limited.Add(1)
					}
					select {
					case <-stop:
						return
					case <-tick.C:
					}
				}
			})
		}
		// The honest reads, spread over two seconds of the flood.
		flooded := bursts()
		close(stop)
		wg.Wait()
		b.ReportMetric(float64(at(quiet, 0.5).Microseconds())/1000, "quiet-p50-ms")
		b.ReportMetric(float64(at(quiet, 0.99).Microseconds())/1000, "quiet-p99-ms")
		b.ReportMetric(float64(at(flooded, 0.5).Microseconds())/1000, "flood-p50-ms")
		b.ReportMetric(float64(at(flooded, 0.99).Microseconds())/1000, "flood-p99-ms")
		b.ReportMetric(float64(at(flooded, 0.99))/float64(max(at(quiet, 0.99), 1)), "p99-ratio")
		b.ReportMetric(float64(pages.Load()), "pages-served")
		b.ReportMetric(float64(limited.Load()), "pages-429")
	}
}
