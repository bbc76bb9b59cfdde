package httpapi_test

import (
	"net/http"
	"strconv"
	"testing"
)

// rlRouteNamed is one of rlRoutes by name.
func rlRouteNamed(t *testing.T, name string) rlRoute {
	t.Helper()
	for _, rt := range rlRoutes {
		if rt.name == name {
			return rt
		}
	}
	t.Fatalf("no route %q in rlRoutes", name)
	return rlRoute{}
}

// CONTRACT section 9: an IPv6 client is keyed by its /64, so a client that
// owns a /64 (as a site usually does) cannot get a fresh bucket by moving to
// another address of it. Behind one trusted proxy, the proxy's
// X-Forwarded-For entry is what the limiter keys on; the client-written part
// to its left changes too, and must not matter either.
func TestRLIPv6SamePrefixSharesBucket(t *testing.T) {
	xff := func(client string) map[string]string {
		return map[string]string{"X-Forwarded-For": "6.6.6.6, " + client}
	}
	for _, name := range []string{"plan_sign", "plan_get"} {
		rt := rlRouteNamed(t, name)
		t.Run(name, func(t *testing.T) {
			base := rlRelay(t, rlOpts{rateLimits: true, hops: 1})
			rlExhaust(t, base, rt, rt.limit, xff("2001:db8:1:2::1"))

			// Other addresses of the same /64, however spelled: one bucket,
			// already empty.
			for _, other := range []string{
				"2001:db8:1:2::2",
				"2001:db8:1:2:ffff:ffff:ffff:ffff",
				"[2001:db8:1:2:dead:beef:0:1]:443",
				"2001:0DB8:0001:0002:0000:0000:0000:0009",
			} {
				r := rlDo(t, base, rt.method, rt.path, rt.body, xff(other))
				if r.status != http.StatusTooManyRequests {
					t.Fatalf("%s after the quota from 2001:db8:1:2::1: status %d (body %q), want 429: same /64, same bucket",
						other, r.status, r.body)
				}
				rlCheckJSON429(t, r)
				want := strconv.Itoa((60 + rt.limit - 1) / rt.limit)
				if got := r.header.Get("Retry-After"); got != want {
					t.Errorf("%s: Retry-After = %q, want %s (one token at %d a minute)", other, got, want, rt.limit)
				}
			}

			// Another /64, even one sharing the low 64 bits, and an IPv4
			// client each have their own bucket.
			for _, other := range []string{"2001:db8:1:3::1", "2001:db8:2:2::1", "2001:db8:1:3::2", "203.0.113.1"} {
				if r := rlDo(t, base, rt.method, rt.path, rt.body, xff(other)); r.status == http.StatusTooManyRequests {
					t.Fatalf("%s: 429 (body %q), want served: another client's bucket", other, r.body)
				}
			}
		})
	}
}

// The /64 bucket fills like any other: its quota is the route's, shared by
// every address of it, no more.
func TestRLIPv6PrefixQuotaSpreadAcrossAddresses(t *testing.T) {
	rt := rlRouteNamed(t, "plan_sign")
	base := rlRelay(t, rlOpts{rateLimits: true, hops: 1})
	for i := range rt.limit {
		client := "2001:db8:5:6::" + strconv.FormatInt(int64(i+1), 16)
		r := rlDo(t, base, rt.method, rt.path, rt.body, map[string]string{"X-Forwarded-For": client})
		if r.status == http.StatusTooManyRequests {
			t.Fatalf("request %d of %d from %s: 429 too early (body %q)", i+1, rt.limit, client, r.body)
		}
	}
	rlCheckJSON429(t, rlDo(t, base, rt.method, rt.path, rt.body,
		map[string]string{"X-Forwarded-For": "2001:db8:5:6::ffff"}))
	// X-Real-IP, the fallback when the chain is too short, keys the same way.
	rlCheckJSON429(t, rlDo(t, base, rt.method, rt.path, rt.body,
		map[string]string{"X-Real-IP": "2001:db8:5:6:1:2:3:4"}))
	if r := rlDo(t, base, rt.method, rt.path, rt.body,
		map[string]string{"X-Real-IP": "2001:db8:5:7::1"}); r.status == http.StatusTooManyRequests {
		t.Fatalf("another /64 by X-Real-IP: 429, want served")
	}
}
