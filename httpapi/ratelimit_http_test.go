package httpapi_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/metrics"
)

func TestRLPerRouteLimits(t *testing.T) {
	for _, rt := range rlRoutes {
		t.Run(rt.name, func(t *testing.T) {
			base := rlRelay(t, rlOpts{rateLimits: true})
			rlExhaust(t, base, rt, rt.limit, nil)
			r := rlDo(t, base, rt.method, rt.path, rt.body, nil)
			if rt.json {
				rlCheckJSON429(t, r)
			} else {
				if r.status != http.StatusTooManyRequests {
					t.Fatalf("status = %d, want 429 (body %q)", r.status, r.body)
				}
				if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
					t.Errorf("Content-Type = %q, want text/plain", ct)
				}
				if string(r.body) != "too many requests" {
					t.Errorf("body = %q, want %q", r.body, "too many requests")
				}
				rlCheckRetryAfter(t, r)
			}
			// Every route's 429 is uncacheable too.
			if cc := r.header.Get("Cache-Control"); cc != "no-store" {
				t.Errorf("Cache-Control = %q, want no-store", cc)
			}
			// Retry-After is the wait for one token: 60 s / N, rounded up.
			want := (60 + rt.limit - 1) / rt.limit
			if got := r.header.Get("Retry-After"); got != strconv.Itoa(want) {
				t.Errorf("Retry-After = %q, want %d (60 s / %d)", got, want, rt.limit)
			}
		})
	}
}

func TestRLMediatorMintUnlimited(t *testing.T) {
	base := rlRelay(t, rlOpts{rateLimits: true})
	for i := 0; i < 50; i++ {
		r := rlDo(t, base, http.MethodGet, "/api/mediator/sign?destination=GBAD", "", nil)
		if r.status == http.StatusTooManyRequests {
			t.Fatalf("GET /api/mediator/sign request %d: 429, want no limit", i+1)
		}
	}
	// The mint route does not share the cosign bucket either.
	cosign := rlRoutes[4]
	rlExhaust(t, base, cosign, cosign.limit, nil)
	rlCheckJSON429(t, rlDo(t, base, cosign.method, cosign.path, cosign.body, nil))
}

func TestRLLimitersArePerRoute(t *testing.T) {
	base := rlRelay(t, rlOpts{rateLimits: true})
	used := make([]int, len(rlRoutes)) // tokens taken so far per route
	for i, rt := range rlRoutes {
		rlExhaust(t, base, rt, rt.limit-used[i], nil)
		if r := rlDo(t, base, rt.method, rt.path, rt.body, nil); r.status != http.StatusTooManyRequests {
			t.Fatalf("%s: status %d after %d requests, want 429", rt.name, r.status, rt.limit)
		}
		// Routes not yet exhausted still admit: each has its own bucket.
		for j := i + 1; j < len(rlRoutes); j++ {
			other := rlRoutes[j]
			if r := rlDo(t, base, other.method, other.path, other.body, nil); r.status == http.StatusTooManyRequests {
				t.Fatalf("%s exhausted: %s answered 429, want its own bucket", rt.name, other.name)
			}
			used[j]++
		}
	}
}

func TestRLBeforeBodyCap(t *testing.T) {
	big := strings.Repeat("x", httpapi.MaxBodyBytes+1)
	for _, rt := range rlRoutes {
		if rt.method != http.MethodPost {
			continue
		}
		t.Run(rt.name, func(t *testing.T) {
			base := rlRelay(t, rlOpts{rateLimits: true})
			// Oversized bodies while tokens remain: 413, and they consume tokens.
			for i := 0; i < rt.limit; i++ {
				r := rlDo(t, base, rt.method, rt.path, big, nil)
				if r.status != http.StatusRequestEntityTooLarge {
					t.Fatalf("request %d: status %d, want 413", i+1, r.status)
				}
			}
			r := rlDo(t, base, rt.method, rt.path, big, nil)
			rlCheckJSON429(t, r)
		})
	}
}

// rlNotFoundConsumes: 404s on unknown plan ids take tokens.
func TestRLNotFoundConsumesTokens(t *testing.T) {
	base := rlRelay(t, rlOpts{rateLimits: true})
	rt := rlRoutes[1] // plan_get
	for i := 0; i < rt.limit; i++ {
		if r := rlDo(t, base, rt.method, rt.path, "", nil); r.status != http.StatusNotFound {
			t.Fatalf("request %d: status %d, want 404", i+1, r.status)
		}
	}
	rlCheckJSON429(t, rlDo(t, base, rt.method, rt.path, "", nil))
}

func TestRLClientIP(t *testing.T) {
	publish := rlRoutes[0]
	type step struct {
		hdr    map[string]string
		status string // "ok" (not 429) or "429"
	}
	// Each case: exhaust the bucket with first, then probe with the steps.
	cases := []struct {
		name  string
		hops  int
		first map[string]string
		steps []step
	}{
		{"hops0 ignores XFF", 0,
			map[string]string{"X-Forwarded-For": "198.51.100.1", "X-Real-IP": "198.51.100.50"},
			[]step{
				{map[string]string{"X-Forwarded-For": "198.51.100.2"}, "429"},
				{map[string]string{"X-Forwarded-For": "198.51.100.3, 198.51.100.4"}, "429"},
				{map[string]string{"X-Real-IP": "198.51.100.5"}, "429"},
				{nil, "429"},
			}},
		{"hops1 rightmost", 1,
			map[string]string{"X-Forwarded-For": "203.0.113.1, 198.51.100.7"},
			[]step{
				{map[string]string{"X-Forwarded-For": "203.0.113.2, 198.51.100.7"}, "429"},
				{map[string]string{"X-Forwarded-For": "198.51.100.7"}, "429"},
				{map[string]string{"X-Forwarded-For": "1.1.1.1, 2.2.2.2, 198.51.100.7"}, "429"},
				{map[string]string{"X-Forwarded-For": "203.0.113.1, 198.51.100.8"}, "ok"},
			}},
		{"hops2 second from right", 2,
			map[string]string{"X-Forwarded-For": "203.0.113.1, 198.51.100.7, 10.0.0.1"},
			[]step{
				{map[string]string{"X-Forwarded-For": "203.0.113.9, 198.51.100.7, 10.0.0.1"}, "429"},
				{map[string]string{"X-Forwarded-For": "198.51.100.7, 10.0.0.2"}, "429"},
				{map[string]string{"X-Forwarded-For": "203.0.113.1, 198.51.100.8, 10.0.0.1"}, "ok"},
			}},
		{"hops2 short chain falls back to X-Real-IP", 2,
			map[string]string{"X-Forwarded-For": "198.51.100.7", "X-Real-IP": "192.0.2.1"},
			[]step{
				{map[string]string{"X-Forwarded-For": "198.51.100.8", "X-Real-IP": "192.0.2.1"}, "429"},
				{map[string]string{"X-Real-IP": "192.0.2.1"}, "429"},
				{map[string]string{"X-Forwarded-For": "198.51.100.7", "X-Real-IP": "192.0.2.2"}, "ok"},
			}},
		{"hops1 X-Real-IP alone", 1,
			map[string]string{"X-Real-IP": "192.0.2.1"},
			[]step{
				{map[string]string{"X-Real-IP": "192.0.2.1"}, "429"},
				{map[string]string{"X-Real-IP": "192.0.2.2"}, "ok"},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base := rlRelay(t, rlOpts{rateLimits: true, hops: tc.hops})
			rlExhaust(t, base, publish, publish.limit, tc.first)
			for i, s := range tc.steps {
				r := rlDo(t, base, publish.method, publish.path, publish.body, s.hdr)
				got := "ok"
				if r.status == http.StatusTooManyRequests {
					got = "429"
				}
				if got != s.status {
					t.Errorf("step %d %v: got %s (status %d), want %s", i, s.hdr, got, r.status, s.status)
				}
			}
		})
	}
}

// The leftmost (client-written) XFF entry never becomes the key: a client that
// cycles it gets no fresh bucket at any hops setting, and a client that keeps
// it fixed while the trusted entry varies is not throttled as one.
func TestRLLeftmostNeverKey(t *testing.T) {
	publish := rlRoutes[0]
	for hops := 0; hops <= 3; hops++ {
		t.Run(fmt.Sprintf("hops%d", hops), func(t *testing.T) {
			base := rlRelay(t, rlOpts{rateLimits: true, hops: hops})
			trusted := make([]string, hops)
			for i := range trusted {
				trusted[i] = fmt.Sprintf("10.0.0.%d", i+1)
			}
			// Client spoofs a different leftmost entry on every request;
			// chain length stays hops+1 so the trusted entry is fixed
			// (hops 0: socket peer).
			for i := 0; i <= publish.limit; i++ {
				xff := strings.Join(append([]string{fmt.Sprintf("203.0.113.%d", i+1)}, trusted...), ", ")
				r := rlDo(t, base, publish.method, publish.path, publish.body, map[string]string{"X-Forwarded-For": xff})
				if i < publish.limit && r.status == http.StatusTooManyRequests {
					t.Fatalf("request %d: 429 too early", i+1)
				}
				if i == publish.limit && r.status != http.StatusTooManyRequests {
					t.Fatalf("request %d with fresh leftmost %s: status %d, want 429 (leftmost became the key)", i+1, xff, r.status)
				}
			}
		})
	}
}

func TestRLRefill(t *testing.T) {
	clk := &testClock{t: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	base := rlRelay(t, rlOpts{rateLimits: true, now: clk.Now})
	publish := rlRoutes[0]
	rlExhaust(t, base, publish, publish.limit, nil)
	r := rlDo(t, base, publish.method, publish.path, publish.body, nil)
	rlCheckJSON429(t, r)
	if got := r.header.Get("Retry-After"); got != "6" {
		t.Errorf("Retry-After = %q, want 6", got)
	}
	clk.Advance(5 * time.Second)
	r = rlDo(t, base, publish.method, publish.path, publish.body, nil)
	rlCheckJSON429(t, r)
	if got := r.header.Get("Retry-After"); got != "1" {
		t.Errorf("after 5 s: Retry-After = %q, want 1", got)
	}
	clk.Advance(time.Second)
	if r := rlDo(t, base, publish.method, publish.path, publish.body, nil); r.status == http.StatusTooManyRequests {
		t.Fatalf("after 6 s: status 429, want one request admitted")
	}
	r = rlDo(t, base, publish.method, publish.path, publish.body, nil)
	rlCheckJSON429(t, r)
	if got := r.header.Get("Retry-After"); got != "6" {
		t.Errorf("after refill used: Retry-After = %q, want 6", got)
	}
	// A full period refills to capacity, never beyond.
	clk.Advance(10 * time.Minute)
	rlExhaust(t, base, publish, publish.limit, nil)
	rlCheckJSON429(t, rlDo(t, base, publish.method, publish.path, publish.body, nil))
}

func TestRLDisabled(t *testing.T) {
	base := rlRelay(t, rlOpts{rateLimits: false})
	for _, rt := range rlRoutes {
		for i := 0; i < rt.limit*2+5; i++ {
			if r := rlDo(t, base, rt.method, rt.path, rt.body, nil); r.status == http.StatusTooManyRequests {
				t.Fatalf("%s request %d: 429 with RateLimits off", rt.name, i+1)
			}
		}
	}
}

func TestRLMetric(t *testing.T) {
	m := metrics.New()
	base := rlRelay(t, rlOpts{rateLimits: true, metrics: m})
	publish := rlRoutes[0]
	if n := metricValue(t, m, rateLimitedTotal, "route", "plan_publish"); n != 0 {
		t.Fatalf("before: rate_limited_total = %v, want 0", n)
	}
	rlExhaust(t, base, publish, publish.limit, nil)
	for i := 0; i < 3; i++ {
		rlCheckJSON429(t, rlDo(t, base, publish.method, publish.path, publish.body, nil))
	}
	if n := metricValue(t, m, rateLimitedTotal, "route", "plan_publish"); n != 3 {
		t.Errorf("rate_limited_total{plan_publish} = %v, want 3", n)
	}
	if n := metricValue(t, m, rateLimitedTotal, "route", "plan_get"); n != 0 {
		t.Errorf("rate_limited_total{plan_get} = %v, want 0", n)
	}
	// The events route counts too (text 429 path).
	ev := rlRoutes[3]
	rlExhaust(t, base, ev, ev.limit, nil)
	rlDo(t, base, ev.method, ev.path, "", nil)
	if n := metricValue(t, m, rateLimitedTotal, "route", "plan_events"); n != 1 {
		t.Errorf("rate_limited_total{plan_events} = %v, want 1", n)
	}
	// A JSON 429 is also a coded rejection (CONTRACT section 7).
	if n := metricValue(t, m, rejectionsTotal, "code", "RATE_LIMITED", "route", "plan_publish"); n != 3 {
		t.Errorf("rejections_total{plan_publish,RATE_LIMITED} = %v, want 3", n)
	}
	// The events route's plain-text 429 is a coded rejection too.
	if n := metricValue(t, m, rejectionsTotal, "code", "RATE_LIMITED", "route", "plan_events"); n != 1 {
		t.Errorf("rejections_total{plan_events,RATE_LIMITED} = %v, want 1", n)
	}
}
