package loadkit_test

import (
	"context"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/internal/relaytest"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/loadkit"
	"github.com/stellar/go-stellar-sdk/keypair"
)

// everyRoute weighs every route alike, so that a few hundred requests reach
// each of them.
const everyRoute = "publish:1,get:1,sign:1,status:1,events:1,mint:1,cosign:1"

// relayPayload runs a relay (loopback, production shape but rate limits)
// and prepares a payload as `closerelaylab load local` does: nPlans
// published plans and nSpare closes left to publish, 4 signers each.
func relayPayload(t *testing.T, nPlans, nSpare int) (*relaytest.Relay, *loadkit.Payload) {
	t.Helper()
	r := relaytest.Start(t, relaytest.Options{})
	cl, err := client.New(r.URL)
	if err != nil {
		t.Fatal(err)
	}
	pass := ledger.Testnet.Passphrase()
	p := &loadkit.Payload{Relay: r.URL, Ops: r.OpsURL, Network: string(ledger.Testnet)}
	for i := range nPlans + nSpare {
		acct := ledgertest.NewAccount(3, 1)
		r.Horizon.AddAccount(acct)
		signed, _ := ledgertest.BuildClose(acct.Master, keypair.MustRandom().Address(), 1<<32, 0, pass, acct.Master)
		env, err := ledger.DecodeEnvelope(signed)
		if err != nil {
			t.Fatal(err)
		}
		hash, err := ledger.HashEnvelope(env, pass)
		if err != nil {
			t.Fatal(err)
		}
		id := hex.EncodeToString(hash[:])
		if i < nPlans {
			if got, err := cl.Publish(t.Context(), string(ledger.Testnet), signed); err != nil || got != id {
				t.Fatalf("publish: %q, %v; want %s", got, err, id)
			}
		}
		plan, err := loadkit.BuildPlan(loadkit.PlanInput{ID: id, Envelope: env, Passphrase: pass, Keys: acct.Keys, Publisher: len(acct.Keys) - 1}, loadkit.Counts{Fresh: 2})
		if err != nil {
			t.Fatal(err)
		}
		plan.Close = signed
		if i < nPlans {
			p.Plans = append(p.Plans, plan)
		} else {
			p.Spare = append(p.Spare, plan)
		}
	}
	return r, p
}

// TestRoutesAgainstRelay: the mix against a real relay answers every route
// as it must, publishes the spare plans and admits their co-signers. The
// relay's request-duration histogram then has bounds at the latency
// targets (3, 10, 15 and 20 ms), so that they can be read from /metrics.
func TestRoutesAgainstRelay(t *testing.T) {
	rel, p := relayPayload(t, 3, 2)
	res, err := loadkit.RunRoutes(context.Background(), loadkit.RoutesOptions{
		Payload: p, Connections: 4, Duration: time.Minute, Requests: 350, Mix: everyRoute, Hold: time.Minute, Seed: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if problems := res.Problems(); len(problems) > 0 {
		t.Fatalf("problems against a working relay: %v (examples %v)", problems, res.Examples)
	}
	if len(res.Routes) != len(loadkit.RouteOrder) || res.Unexpected != 0 || res.Published != 2 || res.NewSigners == 0 || res.StreamsPeak == 0 {
		t.Fatalf("result %+v", res)
	}
	var out strings.Builder
	loadkit.WriteRoutes(&out, res)
	if !strings.Contains(out.String(), "routes: passed") || !strings.Contains(out.String(), "cosign ") {
		t.Errorf("report:\n%s", out.String())
	}

	mfs, err := rel.Metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	bounds := map[float64]bool{}
	for _, mf := range mfs {
		if mf.GetName() == "closerelay_http_request_duration_seconds" {
			for _, b := range mf.GetMetric()[0].GetHistogram().GetBucket() {
				bounds[b.GetUpperBound()] = true
			}
		}
	}
	for _, want := range []float64{.001, .002, .003, .005, .01, .015, .02, .03} {
		if !bounds[want] {
			t.Errorf("closerelay_http_request_duration_seconds has no bucket at %g s (bounds %v)", want, bounds)
		}
	}
}

// TestRoutesAgainstFailingRelay is the kit's own verdict against a relay
// that answers 500 to everything: every route fails, and so does the
// bench-load check that reads the mix.
func TestRoutesAgainstFailingRelay(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, `{"ok":false,"code":"INTERNAL"}`, http.StatusInternalServerError)
	}))
	defer srv.Close()
	p := &loadkit.Payload{Relay: srv.URL, Network: "testnet", Plans: []loadkit.Plan{
		{ID: strings.Repeat("ab", 32), Close: "AAAA", Valid: []string{"AAAA"}, Fresh: []string{"AAAB"}},
	}, Spare: []loadkit.Plan{{ID: strings.Repeat("cd", 32), Close: "AAAC", Valid: []string{"AAAD"}}}}
	res, err := loadkit.RunRoutes(context.Background(), loadkit.RoutesOptions{
		Payload: p, Connections: 4, Duration: time.Minute, Requests: 200, Mix: everyRoute, Seed: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	problems := res.Problems()
	if len(problems) != len(loadkit.RouteOrder) {
		t.Fatalf("problems %v, want one per route", problems)
	}
	for _, f := range res.Routes {
		if f.Requests == 0 || f.Unexpected != f.Requests {
			t.Errorf("%s: %d unexpected of %d", f.Route, f.Unexpected, f.Requests)
		}
	}
	s := passingSession()
	s.Routes = res
	rows := loadkit.Evaluate(s)
	if loadkit.Passed(rows) {
		t.Fatal("the session passed with a relay answering 500")
	}
	if r := findRow(t, rows, "every route answers as it must (mix)"); r.Verdict != loadkit.NotMet || !strings.Contains(r.Measured, "500×") {
		t.Errorf("routes row %+v", r)
	}
}

func TestParseRouteMix(t *testing.T) {
	w, err := loadkit.ParseRouteMix(loadkit.DefaultRouteMix)
	if err != nil || w[loadkit.RouteStatus] != 30 || w[loadkit.RouteCosign] != 1 || len(w) != len(loadkit.RouteOrder) {
		t.Fatalf("%v, %v", w, err)
	}
	for _, bad := range []string{"", "get", "get:x", "get:-1", "fly:1", "get:0", "get:1,get:2"} {
		if _, err := loadkit.ParseRouteMix(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestPercentiles(t *testing.T) {
	var d []time.Duration
	for i := 100; i >= 1; i-- {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	p50, p95, p99, top := loadkit.Percentiles(d)
	if p50 != 50 || p95 != 95 || p99 != 99 || top != 100 {
		t.Fatalf("%v %v %v %v", p50, p95, p99, top)
	}
	if a, b, c, e := loadkit.Percentiles(nil); a != 0 || b != 0 || c != 0 || e != 0 {
		t.Fatal("empty: not zeros")
	}
}

// TestRoutesShortRunSendsEveryRoute: a run too short for its mix (here one
// nanosecond, as a slow machine makes 300 ms) still sends every route of
// the mix by its weight before it stops. Drawn at random, a route of weight
// 1 in 67 went unsent in a short run and failed it ("no request sent").
func TestRoutesShortRunSendsEveryRoute(t *testing.T) {
	_, p := relayPayload(t, 3, 2)
	res, err := loadkit.RunRoutes(context.Background(), loadkit.RoutesOptions{
		Payload: p, Connections: 1, Duration: time.Nanosecond, Mix: "get:60,status:6,mint:1", Hold: time.Millisecond, Seed: 7,
	})
	if err != nil {
		t.Fatal(err)
	}
	if problems := res.Problems(); len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	for _, f := range res.Routes {
		if f.Weight > 0 && f.Requests < f.Weight {
			t.Errorf("%s: %d requests, want at least its weight %d", f.Route, f.Requests, f.Weight)
		}
	}
}
