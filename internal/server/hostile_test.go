package server

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/httpapi/bounds"
	"github.com/closerelay/closerelay/internal/buildinfo"
	"github.com/closerelay/closerelay/ledger/ledgertest"
)

// The tests in this file run a relay from Start under hostile clients, as
// CONTRACT section 9 describes them. Each failed on the code before the
// bounds: a stalled body held its connection for good (synctest reported the
// deadlock), answers waited to drain a body, headers of 1 MiB were read,
// and a stalled client made the drain fail with exit 1.

// rawExchange sends raw on a new connection and reads one answer; it returns
// the answer, how long it took in the bubble's clock, and whether the server
// closed the connection after it, at once.
func rawExchange(t *testing.T, dial func(context.Context, string, string) (net.Conn, error), raw string) (res *http.Response, body string, took time.Duration, closed bool) {
	t.Helper()
	c, err := dial(context.Background(), "tcp", "relay.test")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	// An in-memory pipe has no buffer: write from a goroutine, so that a
	// server that never reads the rest cannot block the test.
	go func() { _, _ = io.WriteString(c, raw) }()
	br := bufio.NewReader(c)
	res, err = http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer to %.80q: %v", raw, err)
	}
	took = time.Since(start)
	b, _ := io.ReadAll(res.Body)
	answered := time.Now()
	_, err = br.ReadByte()
	return res, string(b), took, err == io.EOF && time.Since(answered) <= bounds.DrainGrace+rstAvoidanceDelay
}

// rstAvoidanceDelay is how long net/http lingers before closing a connection
// whose request body it did not read (it half-closes, waits, then closes).
// Anything longer than that after the drain grace means it waited for the
// body.
const rstAvoidanceDelay = 500 * time.Millisecond

func jsonCode(body string) string {
	var e struct{ Code string }
	_ = json.Unmarshal([]byte(body), &e)
	return e.Code
}

// TestStalledBodyIsCutAfterTenSeconds: Content-Length 100, five bytes, then
// silence, on a route that reads its body: 408 REQUEST_TIMEOUT exactly 10 s
// after the headers, and the connection closes.
func TestStalledBodyIsCutAfterTenSeconds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startOpsRelay(t, nil)
		res, body, took, closed := rawExchange(t, r.dialAPI,
			"POST /api/plan HTTP/1.1\r\nHost: relay.test\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"xdr\"")
		if res.StatusCode != http.StatusRequestTimeout || jsonCode(body) != "REQUEST_TIMEOUT" {
			t.Errorf("stalled publish body: %d %s, want 408 REQUEST_TIMEOUT", res.StatusCode, body)
		}
		if took != 10*time.Second || !closed {
			t.Errorf("answered after %v, connection closed %v; want 10s and closed", took, closed)
		}
	})
}

// TestAnswersThatNeedNoBodyAreImmediate: 404, 405, 413 by Content-Length and
// 429 are written at once with Connection: close while the body stalls, on
// the API and on the ops listener.
func TestAnswersThatNeedNoBodyAreImmediate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startOpsRelay(t, nil)
		// Spend the publish quota of one client (10 per 60 s).
		for range 10 {
			r.must(t, "203.0.113.9", http.MethodPost, "/api/plan", `{}`, http.StatusBadRequest, "BAD_XDR")
		}
		stalled := func(method, path string, length int) string {
			return method + " " + path + " HTTP/1.1\r\nHost: relay.test\r\nX-Forwarded-For: 203.0.113.9\r\n" +
				"Content-Length: " + strconv.Itoa(length) + "\r\n\r\nhello"
		}
		unknown := strings.Repeat("ab", 32)
		for _, tc := range []struct {
			name   string
			dial   func(context.Context, string, string) (net.Conn, error)
			raw    string
			status int
			code   string
		}{
			{"unknown route", r.dialAPI, stalled("POST", "/api/nothing", 100), 404, "NOT_FOUND"},
			{"unknown plan", r.dialAPI, stalled("POST", "/api/plan/"+unknown+"/sign", 100), 404, "NOT_FOUND"},
			{"method", r.dialAPI, stalled("PUT", "/api/mediator/sign", 100), 405, "METHOD_NOT_ALLOWED"},
			{"too large", r.dialAPI, stalled("POST", "/api/mediator/sign", 20000), 413, "PAYLOAD_TOO_LARGE"},
			{"throttled", r.dialAPI, stalled("POST", "/api/plan", 100), 429, "RATE_LIMITED"},
			{"ops", r.dialOps, stalled("GET", "/metrics", 100), 200, ""},
		} {
			res, body, took, closed := rawExchange(t, tc.dial, tc.raw)
			if res.StatusCode != tc.status || (tc.code != "" && jsonCode(body) != tc.code) {
				t.Errorf("%s: %d %.200s, want %d %s", tc.name, res.StatusCode, body, tc.status, tc.code)
			}
			if took != 0 || !closed {
				t.Errorf("%s: answered after %v, connection closed %v; want at once, then closed", tc.name, took, closed)
			}
		}
	})
}

// TestIdleConnectionsCloseOnBothListeners: a keep-alive connection left idle
// closes after 120 s on the API and 30 s on ops.
func TestIdleConnectionsCloseOnBothListeners(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startOpsRelay(t, nil)
		for _, tc := range []struct {
			name string
			dial func(context.Context, string, string) (net.Conn, error)
			path string
			idle time.Duration
		}{
			{"api", r.dialAPI, "/api/plan/" + strings.Repeat("ab", 32), 120 * time.Second},
			{"ops", r.dialOps, "/healthz", 30 * time.Second},
		} {
			c, err := tc.dial(context.Background(), "tcp", "relay.test")
			if err != nil {
				t.Fatal(err)
			}
			go func() { _, _ = io.WriteString(c, "GET "+tc.path+" HTTP/1.1\r\nHost: relay.test\r\n\r\n") }()
			br := bufio.NewReader(c)
			res, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, res.Body)
			start := time.Now()
			if _, err := br.ReadByte(); err != io.EOF {
				t.Errorf("%s: idle connection read %v, want the end of the stream", tc.name, err)
			}
			if got := time.Since(start); got != tc.idle {
				t.Errorf("%s: idle connection closed after %v, want %v", tc.name, got, tc.idle)
			}
			c.Close()
		}
	})
}

// TestShutdownWithAStalledClientExitsCleanly: one client that sent half its
// headers cannot hold the process: serve returns without error (exit 0)
// within SHUTDOWN_TIMEOUT + 5 s, and the log says one connection was cut.
func TestShutdownWithAStalledClientExitsCleanly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startOpsRelay(t, map[string]string{"SHUTDOWN_TIMEOUT": "5s"})
		c, err := r.dialAPI(context.Background(), "tcp", "relay.test")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		go func() {
			_, _ = io.WriteString(c, "GET /api/plan/"+strings.Repeat("ab", 32)+" HTTP/1.1\r\nHost: relay.test\r\n")
		}()
		synctest.Wait()

		start := time.Now()
		r.cancel()
		err = <-r.served
		r.served = nil
		took := time.Since(start)
		if err != nil {
			t.Errorf("Stop returned %v after a drain that had to cut a connection; want nil (exit 0)", err)
		}
		if took > 5*time.Second+5*time.Second {
			t.Errorf("shutdown took %v, want at most SHUTDOWN_TIMEOUT + 5 s", took)
		}
		var cutLine map[string]any
		for line := range strings.Lines(r.logs.String()) {
			var m map[string]any
			if json.Unmarshal([]byte(line), &m) == nil && m["msg"] == "drain cut connections" {
				cutLine = m
			}
		}
		if cutLine == nil || cutLine["cut"] != float64(1) {
			t.Errorf("drain log line = %v, want msg \"drain cut connections\" with cut 1", cutLine)
		}
	})
}

// TestBuildInfoOnMetricsAndInTheStartLine: closerelay_build_info is 1 with
// the build's labels, and the serving line carries the version.
func TestBuildInfoOnMetricsAndInTheStartLine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startOpsRelay(t, nil)
		mf := opsScrape(t, r.ops)["closerelay_build_info"]
		if mf == nil || len(mf.GetMetric()) != 1 || mf.GetMetric()[0].GetGauge().GetValue() != 1 {
			t.Fatalf("closerelay_build_info = %v, want one series at 1", mf)
		}
		labels := map[string]string{}
		for _, lp := range mf.GetMetric()[0].GetLabel() {
			labels[lp.GetName()] = lp.GetValue()
		}
		want := map[string]string{"version": buildinfo.Version(), "revision": buildinfo.Revision(), "goversion": buildinfo.GoVersion()}
		for k, v := range want {
			if labels[k] != v || v == "" {
				t.Errorf("closerelay_build_info label %s = %q, want %q", k, labels[k], v)
			}
		}
		found := false
		for line := range strings.Lines(r.logs.String()) {
			var m map[string]any
			if json.Unmarshal([]byte(line), &m) == nil && m["msg"] == "closerelay serving" {
				found = m["version"] == buildinfo.Version()
			}
		}
		if !found {
			t.Errorf("no \"closerelay serving\" line with version %q in\n%s", buildinfo.Version(), r.logs.String())
		}
	})
}

// TestLedgerAPIInfoOnMetrics: closerelay_ledger_api_info is 1 for each
// network with its backend (CONTRACT section 15).
func TestLedgerAPIInfoOnMetrics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startOpsRelay(t, nil)
		mf := opsScrape(t, r.ops)["closerelay_ledger_api_info"]
		if mf == nil || len(mf.GetMetric()) != 3 {
			t.Fatalf("closerelay_ledger_api_info = %v, want a series per network", mf)
		}
		seen := map[string]bool{}
		for _, m := range mf.GetMetric() {
			labels := map[string]string{}
			for _, lp := range m.GetLabel() {
				labels[lp.GetName()] = lp.GetValue()
			}
			if m.GetGauge().GetValue() != 1 || labels["backend"] != LedgerAPIHorizon {
				t.Errorf("series %v = %v", labels, m.GetGauge().GetValue())
			}
			seen[labels["network"]] = true
		}
		if !seen["mainnet"] || !seen["testnet"] || !seen["futurenet"] {
			t.Errorf("networks %v", seen)
		}
	})
}

// TestHeaderFloodIsRefused431 runs a relay on real loopback sockets: headers
// above 16 KiB get 431 on both listeners instead of being read up to
// net/http's 1 MiB default (2,500 such connections took the process past
// its memory limit).
func TestHeaderFloodIsRefused431(t *testing.T) {
	h := ledgertest.NewHandler()
	cfg, err := ParseEnv(envOf(map[string]string{"LISTEN_ADDR": "127.0.0.1:0", "OPS_ADDR": "127.0.0.1:0"}))
	if err != nil {
		t.Fatal(err)
	}
	cfg.HorizonTimeout = 5 * time.Second
	rel, err := Start(Options{Config: cfg, Ledger: h.Backends()})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := rel.Stop(); err != nil {
			t.Errorf("stop: %v", err)
		}
	}()
	for _, addr := range []string{strings.TrimPrefix(rel.APIURL, "http://"), strings.TrimPrefix(rel.OpsURL, "http://")} {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetDeadline(time.Now().Add(time.Minute)) // a hang guard, not a measure
		go func() {
			_, _ = io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: "+strings.Repeat("a", 1<<20)+"\r\n\r\n")
		}()
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("%s: %v", addr, err)
		}
		res.Body.Close()
		c.Close()
		if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("%s: 1 MiB of headers answered %d, want 431", addr, res.StatusCode)
		}
	}
}

// TestPerAccountAndAccountAPILimitsFollowTheEnvironment: PLANS_PER_ACCOUNT
// and HORIZON_CONCURRENCY reach the relay that Start wires.
func TestPerAccountAndAccountAPILimitsFollowTheEnvironment(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startOpsRelay(t, map[string]string{"PLANS_PER_ACCOUNT": "2", "HORIZON_CONCURRENCY": "3"})
		dest := ledgertest.Keypair(9001).Address()
		publish := func(src ledgertest.Account, seq int64) (int, string) {
			x, _ := ledgertest.BuildClose(src.Master, dest, seq, 0, opsPassphrase, src.Keys[0])
			return r.do(t, "198.51.100."+strconv.FormatInt(seq, 10), http.MethodPost, "/api/plan", `{"network":"testnet","xdr":"`+x+`"}`)
		}
		for seq := range int64(2) {
			if status, body := publish(r.acct, seq+1); status != http.StatusOK {
				t.Fatalf("publish %d: %d %s", seq+1, status, body)
			}
		}
		if status, body := publish(r.acct, 3); status != http.StatusBadRequest || jsonCode(body) != "CAPACITY" || !strings.Contains(body, "PLANS_PER_ACCOUNT") {
			t.Errorf("third plan of one account with PLANS_PER_ACCOUNT=2: %d %s, want 400 CAPACITY naming the limit", status, body)
		}

		// Five publishes of five accounts against a held account API: three
		// calls in flight, the others wait for a slot.
		r.horizon.SetHeld(true)
		done := make(chan struct{})
		for i := range 5 {
			acct := ledgertest.NewAccount(1, 1)
			r.horizon.AddAccount(acct)
			go func() {
				defer func() { done <- struct{}{} }()
				publish(acct, int64(10+i))
			}()
		}
		synctest.Wait()
		if got := r.horizon.Serving(); got != 3 {
			t.Errorf("account API calls in flight with HORIZON_CONCURRENCY=3: %d", got)
		}
		r.horizon.SetHeld(false)
		for range 5 {
			<-done
		}
	})
}
