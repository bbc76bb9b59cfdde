package httpapi_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/closerelay/closerelay/httpapi"
)

// status.preflight.fee through the relay's real listener (docs/API.md
// section 12), under each ledger API: the close's bid per operation
// against the network's p70 fee, low once the double's floor rises above
// the bid, unknown (network and low null) when the statistics cannot be
// read; the verdict is the same in all three.

func TestPreflightFeeThroughTheRelay(t *testing.T) {
	eachLedgerAPI(t, func(t *testing.T, api string) {
		r := startRelayAPI(t, api, httpapi.Options{}, 0, nil)
		fee := func(t *testing.T, id string) (string, map[string]json.RawMessage) {
			t.Helper()
			res := send(t, r.Client, http.MethodGet, r.URL+"/api/plan/"+id+"/status", nil, nil)
			if res.status != http.StatusOK {
				t.Fatalf("status: %d %s", res.status, res.body)
			}
			checkSchema(t, "StatusOK", res.body)
			var st struct {
				Preflight struct {
					State string                     `json:"state"`
					Fee   map[string]json.RawMessage `json:"fee"`
				} `json:"preflight"`
			}
			if err := json.Unmarshal(res.body, &st); err != nil {
				t.Fatal(err)
			}
			return st.Preflight.State, st.Preflight.Fee
		}
		for _, tc := range []struct {
			name                string
			setup               func()
			network, low, state string
		}{
			{"the network's fee", func() {}, "100", "false", "landable"},
			{"fees rose", func() { r.Horizon.Handler().SetBaseFee(300) }, "300", "true", "landable"},
			{"statistics unknown", func() {
				r.Horizon.Handler().SetBaseFee(0)
				r.Horizon.Handler().FailFeeStats(true)
			}, "null", "null", "landable"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				w := pfNew(r)
				tc.setup()
				x, id := w.close(t, 101, w.dest)
				ssePublish(t, r.Client, r.URL, x)
				state, f := fee(t, id)
				if state != tc.state || string(f["bid"]) != "100" || string(f["network"]) != tc.network || string(f["low"]) != tc.low || len(f) != 3 {
					t.Errorf("preflight %s, fee %s/%s/%s (%d fields); want %s, 100/%s/%s", state, f["bid"], f["network"], f["low"], len(f), tc.state, tc.network, tc.low)
				}
			})
		}
	})
}
