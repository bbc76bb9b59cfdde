package httpapi_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"testing/synctest"
	"time"
)

// TestPlanExpiryBoundsOverHTTP: a plan answers until the instant before the
// earlier of publish+72 h and maxTime−60 s, and NOT_FOUND from that instant
// on, on fetch and sign alike. The whole relay runs in a synctest bubble on
// an in-memory listener, so the 72 hours pass on the fake clock.
func TestPlanExpiryBoundsOverHTTP(t *testing.T) {
	cases := []struct {
		name    string
		maxTime func(now time.Time) int64 // 0: no upper time bound
		life    time.Duration
	}{
		{"72 h window, no maxTime", func(time.Time) int64 { return 0 }, 72 * time.Hour},
		{"72 h window, maxTime later", func(now time.Time) int64 { return now.Add(100 * time.Hour).Unix() }, 72 * time.Hour},
		{"maxTime minus 60 s", func(now time.Time) int64 { return now.Add(time.Hour).Unix() }, time.Hour - time.Minute},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := startBubbleRelay()
				h, client, base := r.Horizon, r.Client, r.Base

				published := time.Now()
				f := sseNewFixture(1, tc.maxTime(published))
				h.AddAccount(f.acct)
				ssePublish(t, client, base, f.signed(f.acct.Keys[0]))

				get := func() (int, string) {
					resp, err := client.Get(base + "/api/plan/" + f.id)
					if err != nil {
						t.Fatal(err)
					}
					defer resp.Body.Close()
					var body struct{ Code string }
					_ = json.NewDecoder(resp.Body).Decode(&body)
					return resp.StatusCode, body.Code
				}
				time.Sleep(tc.life - time.Millisecond)
				if status, code := get(); status != http.StatusOK {
					t.Fatalf("GET 1 ms before expiry = %d %s, want 200", status, code)
				}
				time.Sleep(time.Millisecond)
				if status, code := get(); status != http.StatusNotFound || code != "NOT_FOUND" {
					t.Errorf("GET at expiry = %d %s, want 404 NOT_FOUND", status, code)
				}
				status, body, err := ssePost(t.Context(), client, base+"/api/plan/"+f.id+"/sign", map[string]string{"xdr": f.signed(f.acct.Keys[1])})
				if err != nil || status != http.StatusNotFound {
					t.Errorf("sign at expiry = %d %s %v, want 404", status, body, err)
				}

				r.Stop(t)
			})
		})
	}
}
