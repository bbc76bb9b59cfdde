package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/metrics"
	dto "github.com/prometheus/client_model/go"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// opsStream is an open event stream.
type opsStream struct {
	resp   *http.Response
	lines  *bufio.Reader
	cancel context.CancelFunc
}

func (r *opsRelay) subscribe(t *testing.T, ip, id string) *opsStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://relay.test/api/plan/"+id+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Forwarded-For", ip)
	resp, err := r.api.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("subscribe %s: status %d", id, resp.StatusCode)
	}
	s := &opsStream{resp: resp, lines: bufio.NewReader(resp.Body), cancel: cancel}
	if first := s.next(t); first != "retry: 2000\n" {
		t.Fatalf("the stream's first block is %q, want the retry line (CONTRACT section 11)", first)
	}
	s.next(t) // the current state, sent on subscribe
	return s
}

// next reads one event and returns its text (comments and all).
func (s *opsStream) next(t *testing.T) string {
	t.Helper()
	var ev strings.Builder
	for {
		line, err := s.lines.ReadString('\n')
		if err != nil {
			t.Fatalf("event stream ended: %v (read %q)", err, ev.String())
		}
		if line == "\n" {
			return ev.String()
		}
		ev.WriteString(line)
	}
}

func (s *opsStream) close() {
	s.cancel()
	_ = s.resp.Body.Close()
}

// opsSeries is one sample key: a family name and its labels, sorted, in the
// exposition's own spelling.
func opsSeries(name string, labelPairs ...string) string {
	var ls []string
	for i := 0; i+1 < len(labelPairs); i += 2 {
		ls = append(ls, fmt.Sprintf("%s=%q", labelPairs[i], labelPairs[i+1]))
	}
	slices.Sort(ls)
	return name + "{" + strings.Join(ls, ",") + "}"
}

// opsServiceSamples flattens the service's own families (closerelay_*, but not
// the HTTP middleware's closerelay_http_*) to one value per series; a
// histogram contributes its observation count as name_count.
func opsServiceSamples(mfs map[string]*dto.MetricFamily) map[string]float64 {
	out := map[string]float64{}
	for name, mf := range mfs {
		if !strings.HasPrefix(name, metrics.Namespace+"_") || strings.HasPrefix(name, metrics.Namespace+"_http_") {
			continue
		}
		for _, m := range mf.GetMetric() {
			var pairs []string
			for _, lp := range m.GetLabel() {
				pairs = append(pairs, lp.GetName(), lp.GetValue())
			}
			switch mf.GetType() {
			case dto.MetricType_COUNTER:
				out[opsSeries(name, pairs...)] = m.GetCounter().GetValue()
			case dto.MetricType_GAUGE:
				out[opsSeries(name, pairs...)] = m.GetGauge().GetValue()
			case dto.MetricType_HISTOGRAM:
				out[opsSeries(name+"_count", pairs...)] = float64(m.GetHistogram().GetSampleCount())
			}
		}
	}
	return out
}

// opsMoved is what changed between two scrapes: a series new in after counts
// from zero, and a series that vanished counts as -1e9, which no expectation
// names.
func opsMoved(before, after map[string]float64) map[string]float64 {
	d := map[string]float64{}
	for k, v := range after {
		if v != before[k] {
			d[k] = v - before[k]
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			d[k] = -1e9
		}
	}
	return d
}

func opsFormatDeltas(d map[string]float64) string {
	var lines []string
	for _, k := range slices.Sorted(maps.Keys(d)) {
		lines = append(lines, fmt.Sprintf("  %s %+g", k, d[k]))
	}
	if len(lines) == 0 {
		return "  (nothing)"
	}
	return strings.Join(lines, "\n")
}

// Shorthands for the series the scenario moves.
func opsRejection(route, code string) string {
	return opsSeries("closerelay_rejections_total", "route", route, "code", code)
}

func opsSignatures(result string) string {
	return opsSeries("closerelay_signatures_total", "result", result)
}

func opsAccountAPI(outcome string) string {
	return opsSeries("closerelay_account_api_duration_seconds_count", "network", "testnet", "outcome", outcome)
}

func opsCosign(result string) string {
	return opsSeries("closerelay_mediator_cosign_total", "result", result)
}

var (
	opsPlansOpen       = opsSeries("closerelay_plans_open")
	opsClusterOpen     = opsSeries("closerelay_cluster_plans_open") // single mode: the same count
	opsPlansCreated    = opsSeries("closerelay_plans_created_total")
	opsPlansExpired    = opsSeries("closerelay_plans_expired_total")
	opsSubscribers     = opsSeries("closerelay_stream_subscribers")
	opsStreamRejected  = opsSeries("closerelay_stream_rejected_total")
	opsStreamEvents    = opsSeries("closerelay_stream_events_total")
	opsCapacityRefused = opsSeries("closerelay_plans_capacity_refused_total")
	opsPublishLimited  = opsSeries("closerelay_rate_limited_total", "route", metrics.RoutePlanPublish)
	opsCosignLimited   = opsSeries("closerelay_rate_limited_total", "route", metrics.RouteMediatorCosign)
	opsEventsLimited   = opsSeries("closerelay_rate_limited_total", "route", metrics.RoutePlanEvents)
	opsAdmitted        = opsSignatures(metrics.SignatureAdmitted)
	opsDuplicate       = opsSignatures(metrics.SignatureDuplicate)
	opsDropped         = opsSignatures(metrics.SignatureDropped)
	opsAccountAPIOK    = opsAccountAPI("ok")
	opsAccountAPIError = opsAccountAPI("error")
	opsLandable        = opsSeries("closerelay_preflight_total", "state", "landable")
	opsCosignSigned    = opsCosign("signed")
	opsHexID           = regexp.MustCompile(`[0-9a-fA-F]{64}`)
	opsUnknownID       = strings.Repeat("ab", 32)
	opsPayloadTooLarge = `{"xdr":"` + strings.Repeat("A", 17000) + `"}`
)

// TestOpsScenarioMovesEveryContractMetric drives one relay through a scripted
// scenario and checks, after each step, that the service's series on the ops
// listener's /metrics moved by exactly the expected amounts and no other
// opsSeries moved (CONTRACT section 7). Then it checks the log the scenario
// left: a line per request, a line per plan created, no secret, no envelope.
func TestOpsScenarioMovesEveryContractMetric(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startOpsRelay(t, nil)
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("relay log:\n%s", r.logs.String())
			}
		})
		last := opsServiceSamples(opsScrape(t, r.ops))
		requests := 0
		// step runs do and checks that the scrape after it differs from the
		// scrape before it by want exactly.
		step := func(name string, want map[string]float64, do func()) {
			t.Helper()
			do()
			synctest.Wait() // plans, streams and handlers settle
			now := opsServiceSamples(opsScrape(t, r.ops))
			if got := opsMoved(last, now); !maps.Equal(got, want) {
				t.Errorf("%s: /metrics moved\n%s\nwant\n%s", name, opsFormatDeltas(got), opsFormatDeltas(want))
			}
			last = now
		}
		ipN := 0
		freshIP := func() string { ipN++; return fmt.Sprintf("198.51.100.%d", ipN) }
		req := func(method, path, body string, status int, code string) string {
			t.Helper()
			requests++
			return r.must(t, freshIP(), method, path, body, status, code)
		}
		publish := func(xdr string, status int, code string) string {
			t.Helper()
			return req(http.MethodPost, "/api/plan", `{"network":"testnet","xdr":"`+xdr+`"}`, status, code)
		}
		sign := func(id, xdr string, status int, code string) {
			t.Helper()
			req(http.MethodPost, "/api/plan/"+id+"/sign", `{"xdr":"`+xdr+`"}`, status, code)
		}

		start := time.Now()
		maxTime := start.Add(2 * time.Hour).Unix()
		dest := ledgertest.Keypair(9001).Address()
		r.horizon.Fund(dest, 10_0000000)         // a merge into an account the ledger holds: landable
		r.horizon.SetSequence(r.acct.Address, 0) // the first close (sequence 1) follows it
		stranger := ledgertest.Keypair(9002)     // signs, but is no signer of the account
		k := r.acct.Keys
		close1, hash1 := ledgertest.BuildClose(r.acct.Master, dest, 1, maxTime, opsPassphrase, k[0])
		id1 := fmt.Sprintf("%x", hash1)
		var id2 string

		// Two account reads: guard 6's, and the preflight's of the
		// destination (CONTRACT section 14).
		step("publish", map[string]float64{opsPlansCreated: 1, opsPlansOpen: 1, opsClusterOpen: 1, opsAdmitted: 1, opsAccountAPIOK: 2, opsLandable: 1}, func() {
			publish(close1, http.StatusOK, "")
		})
		var s1 *opsStream
		step("subscribe", map[string]float64{opsSubscribers: 1}, func() {
			requests++
			s1 = r.subscribe(t, freshIP(), id1)
		})
		partial1 := ledgertest.SignXDR(ledgertest.StripSignatures(close1), opsPassphrase, k[1])
		step("sign a new signer", map[string]float64{opsAdmitted: 1, opsStreamEvents: 1}, func() {
			sign(id1, partial1, http.StatusOK, "")
			if ev := s1.next(t); !strings.Contains(ev, "id: 2\n") {
				t.Errorf("the subscriber's event after a sign: %q, want version 2", ev)
			}
		})
		step("sign a signer already present", map[string]float64{opsDuplicate: 1}, func() {
			sign(id1, partial1, http.StatusOK, "")
		})
		step("unsubscribe", map[string]float64{opsSubscribers: -1}, func() { s1.close() })
		// Its sequence number does not follow the account's (the first
		// close's does): the preflight finds it blocked, tx_bad_seq. The
		// account is read for guard 6; the destination's read is the first
		// publish's, shared for PREFLIGHT_MAX_AGE (docs/API.md section 12).
		step("publish with a signature of a non-signer", map[string]float64{opsPlansCreated: 1, opsPlansOpen: 1, opsClusterOpen: 1, opsAdmitted: 1, opsDropped: 1, opsAccountAPIOK: 1,
			opsSeries("closerelay_preflight_total", "state", "blocked"): 1, opsSeries("closerelay_preflight_blockers_total", "code", "tx_bad_seq"): 1}, func() {
			close2, hash2 := ledgertest.BuildClose(r.acct.Master, dest, 2, maxTime, opsPassphrase, k[0], stranger)
			id2 = fmt.Sprintf("%x", hash2)
			publish(close2, http.StatusOK, "")
		})

		// One rejection of each kind the relay answers with a code.
		unsigned, _ := ledgertest.BuildClose(r.acct.Master, dest, 3, maxTime, opsPassphrase, stranger)
		expired, _ := ledgertest.BuildClose(r.acct.Master, dest, 4, start.Unix()+30, opsPassphrase, k[0])
		unreachable, _ := ledgertest.BuildClose(r.acct.Master, dest, 5, maxTime, opsPassphrase, k[0])
		strangerPartial := ledgertest.SignXDR(ledgertest.StripSignatures(close1), opsPassphrase, stranger)
		pub := metrics.RoutePlanPublish
		for _, c := range []struct {
			name, method, path, body string
			status                   int
			code                     string
			want                     map[string]float64
		}{
			{"publish: not JSON", "POST", "/api/plan", `{`, 400, "BAD_XDR", nil},
			{"publish: unknown network", "POST", "/api/plan", `{"xdr":"AAAA","network":"TESTNET"}`, 400, "BAD_NETWORK", nil},
			{"publish: not a close", "POST", "/api/plan", `{"xdr":"AAAA","network":"testnet"}`, 400, "NOT_A_CLOSE", nil},
			{"publish: expired", "POST", "/api/plan", `{"network":"testnet","xdr":"` + expired + `"}`, 400, "EXPIRED", nil},
			{"publish: no signer's signature", "POST", "/api/plan", `{"network":"testnet","xdr":"` + unsigned + `"}`, 400, "UNSIGNED",
				map[string]float64{opsDropped: 1, opsAccountAPIOK: 1}},
			{"publish: re-publish with a non-signer's signature", "POST", "/api/plan", `{"network":"testnet","xdr":"` + strangerPartial + `"}`, 400, "REJECTED", nil},
			{"publish: body too large", "POST", "/api/plan", opsPayloadTooLarge, 413, "PAYLOAD_TOO_LARGE", nil},
			{"get: unknown id", "GET", "/api/plan/" + opsUnknownID, "", 404, "NOT_FOUND", nil},
			{"get: malformed id", "GET", "/api/plan/xyz", "", 404, "NOT_FOUND", nil},
			{"sign: xdr not a string", "POST", "/api/plan/" + id1 + "/sign", `{"xdr":5}`, 400, "BAD_XDR", nil},
			{"sign: non-signer's signature", "POST", "/api/plan/" + id1 + "/sign", `{"xdr":"` + strangerPartial + `"}`, 400, "REJECTED", nil},
			{"sign: unknown id", "POST", "/api/plan/" + opsUnknownID + "/sign", `{"xdr":"AAAA"}`, 404, "NOT_FOUND", nil},
			{"sign: body too large", "POST", "/api/plan/" + id1 + "/sign", opsPayloadTooLarge, 413, "PAYLOAD_TOO_LARGE", nil},
			{"events: unknown id", "GET", "/api/plan/" + opsUnknownID + "/events", "", 404, "", nil},
			{"mint: bad destination", "GET", "/api/mediator/sign?destination=nope", "", 400, "INVALID_DESTINATION", nil},
			{"cosign: not an object", "POST", "/api/mediator/sign", `[]`, 400, "BAD_REQUEST", map[string]float64{opsCosign("BAD_REQUEST"): 1}},
			{"cosign: bad network", "POST", "/api/mediator/sign", `{"envelopeXdr":"AAAA","flowToken":"x","network":"public"}`, 400, "BAD_NETWORK",
				map[string]float64{opsCosign("BAD_NETWORK"): 1}},
			{"cosign: forged token", "POST", "/api/mediator/sign", `{"envelopeXdr":"AAAA","flowToken":"x","network":"testnet"}`, 400, "INVALID_FLOW_TOKEN",
				map[string]float64{opsCosign("INVALID_FLOW_TOKEN"): 1}},
			{"cosign: body too large", "POST", "/api/mediator/sign", opsPayloadTooLarge, 413, "PAYLOAD_TOO_LARGE",
				map[string]float64{opsCosign("PAYLOAD_TOO_LARGE"): 1}},
			{"mediator: method not allowed", "PUT", "/api/mediator/sign", "", 405, "METHOD_NOT_ALLOWED", nil},
		} {
			route := map[string]string{
				"publish": pub, "get": metrics.RoutePlanGet, "sign": metrics.RoutePlanSign, "events": metrics.RoutePlanEvents,
				"mint": metrics.RouteMediatorMint, "cosign": metrics.RouteMediatorCosign, "mediator": metrics.RouteMediatorCosign,
			}[strings.SplitN(c.name, ":", 2)[0]]
			code := c.code
			if code == "" {
				code = "NOT_FOUND" // the event stream answers text/plain; the counter still has the code
			}
			want := map[string]float64{opsRejection(route, code): 1}
			maps.Copy(want, c.want)
			step(c.name, want, func() { req(c.method, c.path, c.body, c.status, c.code) })
		}
		step("publish: account API down", map[string]float64{opsRejection(pub, "ACCOUNT_UNREACHABLE"): 1, opsAccountAPIError: 1}, func() {
			r.horizon.SetFailing(true)
			publish(unreachable, http.StatusBadRequest, "ACCOUNT_UNREACHABLE")
			r.horizon.SetFailing(false)
		})

		// The subscriber cap: 50 streams on one plan, then the 51st is refused.
		var many []*opsStream
		step("50 subscribers", map[string]float64{opsSubscribers: 50}, func() {
			for range 50 {
				requests++
				many = append(many, r.subscribe(t, freshIP(), id2))
			}
		})
		step("the 51st subscriber", map[string]float64{opsStreamRejected: 1, opsRejection(metrics.RoutePlanEvents, "TOO_MANY_SUBSCRIBERS"): 1}, func() {
			req(http.MethodGet, "/api/plan/"+id2+"/events", "", http.StatusServiceUnavailable, "")
		})
		step("50 unsubscribe", map[string]float64{opsSubscribers: -50}, func() {
			for _, s := range many {
				s.close()
			}
		})

		// Throttling: one client over a route's budget (10 publishes, 5
		// co-signs, 20 subscriptions per 60 s).
		step("publish throttled", map[string]float64{opsRejection(pub, "BAD_XDR"): 10, opsRejection(pub, "RATE_LIMITED"): 1, opsPublishLimited: 1}, func() {
			for range 10 {
				requests++
				r.must(t, "203.0.113.1", http.MethodPost, "/api/plan", `{}`, http.StatusBadRequest, "BAD_XDR")
			}
			requests++
			r.must(t, "203.0.113.1", http.MethodPost, "/api/plan", `{}`, http.StatusTooManyRequests, "RATE_LIMITED")
		})
		cos := metrics.RouteMediatorCosign
		step("co-sign throttled", map[string]float64{
			opsRejection(cos, "BAD_REQUEST"): 5, opsCosign("BAD_REQUEST"): 5,
			opsRejection(cos, "RATE_LIMITED"): 1, opsCosign("RATE_LIMITED"): 1, opsCosignLimited: 1,
		}, func() {
			for range 5 {
				requests++
				r.must(t, "203.0.113.2", http.MethodPost, "/api/mediator/sign", `{}`, http.StatusBadRequest, "BAD_REQUEST")
			}
			requests++
			r.must(t, "203.0.113.2", http.MethodPost, "/api/mediator/sign", `{}`, http.StatusTooManyRequests, "RATE_LIMITED")
		})
		step("event stream throttled", map[string]float64{
			opsRejection(metrics.RoutePlanEvents, "NOT_FOUND"): 20, opsRejection(metrics.RoutePlanEvents, "RATE_LIMITED"): 1, opsEventsLimited: 1,
		}, func() {
			for range 20 {
				requests++
				r.must(t, "203.0.113.3", http.MethodGet, "/api/plan/"+opsUnknownID+"/events", "", http.StatusNotFound, "")
			}
			requests++
			r.must(t, "203.0.113.3", http.MethodGet, "/api/plan/"+opsUnknownID+"/events", "", http.StatusTooManyRequests, "")
		})

		// The mediator: a mint moves no service counter; a co-sign counts
		// "signed"; a forward the token does not commit to counts its code.
		var mint struct{ FlowToken, MediatorPublicKey string }
		step("mediator mint", map[string]float64{}, func() {
			b := req(http.MethodGet, "/api/mediator/sign?destination="+dest, "", http.StatusOK, "")
			if err := json.Unmarshal([]byte(b), &mint); err != nil || mint.FlowToken == "" {
				t.Fatalf("mint: %q", b)
			}
		})
		forward := func(to string) string {
			tx, err := wallet.BuildForward(wallet.ForwardParams{
				Mediator: mint.MediatorPublicKey, Sequence: 7, Destination: to, Amount: "10", Memo: txnbuild.MemoText("deposit 1"),
			})
			if err != nil {
				t.Fatal(err)
			}
			x, err := tx.Base64()
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(map[string]string{"envelopeXdr": x, "flowToken": mint.FlowToken, "network": "testnet"})
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		step("mediator co-sign", map[string]float64{opsCosignSigned: 1}, func() {
			req(http.MethodPost, "/api/mediator/sign", forward(dest), http.StatusOK, "")
		})
		step("co-sign of a forward elsewhere", map[string]float64{
			opsRejection(cos, "FORWARD_DESTINATION_NOT_COMMITTED"): 1, opsCosign("FORWARD_DESTINATION_NOT_COMMITTED"): 1,
		}, func() {
			req(http.MethodPost, "/api/mediator/sign", forward(stranger.Address()), http.StatusBadRequest, "FORWARD_DESTINATION_NOT_COMMITTED")
		})

		// Expiry: both plans end a minute before their maxTime (SPEC "Plan").
		// A subscriber is told and its stream ends.
		var s2 *opsStream
		step("subscribe before expiry", map[string]float64{opsSubscribers: 1}, func() {
			requests++
			s2 = r.subscribe(t, freshIP(), id1)
		})
		step("expire", map[string]float64{opsPlansExpired: 2, opsPlansOpen: -2, opsClusterOpen: -2, opsSubscribers: -1}, func() {
			// Keep reading while the clock runs: a client that stops reading
			// is opsDropped as stalled when a heartbeat cannot be written.
			events := make(chan []string)
			go func() {
				var got []string
				for {
					ev := s2.next(t)
					got = append(got, ev)
					if ev != ": ping\n" {
						events <- got
						return
					}
				}
			}()
			time.Sleep(time.Until(time.Unix(maxTime, 0)))
			got := <-events
			if last := got[len(got)-1]; !strings.HasPrefix(last, "event: expired\n") || len(got) < 2 {
				t.Errorf("the subscriber's events until expiry: %q, want heartbeats then expired", got)
			}
			s2.close()
		})
		step("get after expiry", map[string]float64{opsRejection(metrics.RoutePlanGet, "NOT_FOUND"): 1}, func() {
			req(http.MethodGet, "/api/plan/"+id1, "", http.StatusNotFound, "NOT_FOUND")
		})

		opsCheckHTTPMetrics(t, opsScrape(t, r.ops))
		r.stop(t)
		opsCheckLogs(t, r.logs.String(), requests, []string{r.secret, close1, partial1, strangerPartial}, 2, 2)
	})
}

// opsCheckHTTPMetrics checks the middleware's request series: labelled by route
// template (never a raw path with a plan id, never a host or client address).
func opsCheckHTTPMetrics(t *testing.T, mfs map[string]*dto.MetricFamily) {
	t.Helper()
	mf := mfs["closerelay_http_requests_total"]
	if mf == nil {
		t.Fatal("/metrics lacks closerelay_http_requests_total")
	}
	urls := map[string]bool{}
	for _, m := range mf.GetMetric() {
		for _, lp := range m.GetLabel() {
			switch lp.GetName() {
			case "url":
				urls[lp.GetValue()] = true
				if opsHexID.MatchString(lp.GetValue()) {
					t.Errorf("url label %q carries a plan id", lp.GetValue())
				}
			case "host":
				if lp.GetValue() != "" {
					t.Errorf("host label %q: a client-chosen header in a label", lp.GetValue())
				}
			}
		}
	}
	for _, u := range []string{"/api/plan", "/api/plan/:id", "/api/plan/:id/sign", "/api/mediator/sign"} {
		if !urls[u] {
			t.Errorf("no closerelay_http_requests_total series with url=%q; have %v", u, slices.Sorted(maps.Keys(urls)))
		}
	}
	for _, name := range []string{"go_goroutines", "process_resident_memory_bytes", "process_open_fds"} {
		if mfs[name] == nil {
			t.Errorf("/metrics lacks %s (Go and process collectors)", name)
		}
	}
}

// opsLogLine is what the scenario reads back from the JSON log.
type opsLogLine struct {
	Level    string   `json:"level"`
	Msg      string   `json:"msg"`
	Route    string   `json:"route"`
	Method   string   `json:"method"`
	ClientIP string   `json:"client_ip"`
	Status   int      `json:"status"`
	Duration *float64 `json:"duration"`
	ID       string   `json:"id"`
	raw      string
}

// opsCheckLogs reads the JSON log: one "request" line per API request, with
// route template, status, duration and client IP; one "plan created" line
// per plan and one "plan expired" line per expiry; and none of secrets (the mediator secret, envelopes) anywhere.
func opsCheckLogs(t *testing.T, log string, requests int, secrets []string, created, expired int) {
	t.Helper()
	var lines []opsLogLine
	for raw := range strings.Lines(log) {
		var l opsLogLine
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			t.Errorf("log line is not one JSON object: %q", raw)
			continue
		}
		l.raw = raw
		lines = append(lines, l)
	}
	for _, s := range secrets {
		if strings.Contains(log, s) {
			t.Errorf("the log holds a secret or a whole envelope (%.20s…)", s)
		}
	}
	var nReq, nCreated, nExpired int
	for _, l := range lines {
		switch l.Msg {
		case "request":
			nReq++
			if !strings.HasPrefix(l.Route, "/api/") || opsHexID.MatchString(l.Route) || l.Status < 200 || l.Duration == nil || l.ClientIP == "" || l.Method == "" {
				t.Errorf("request line lacks route template, status, duration or client IP: %s", l.raw)
			}
		case "plan created", "plan expired":
			if l.Msg == "plan created" {
				nCreated++
			} else {
				nExpired++
			}
			if len(l.ID) != 64 || l.Level != "INFO" {
				t.Errorf("%s line without the plan id or not at info: %s", l.Msg, l.raw)
			}
		}
	}
	if nReq != requests {
		t.Errorf("%d request lines for %d requests", nReq, requests)
	}
	if nCreated != created {
		t.Errorf("%d plan created lines for %d plans", nCreated, created)
	}
	if nExpired != expired {
		t.Errorf("%d plan expired lines for %d expiries", nExpired, expired)
	}
}

// opsContractFamilies are CONTRACT section 7's metrics and their types.
var opsContractFamilies = map[string]dto.MetricType{
	"closerelay_plans_open":                   dto.MetricType_GAUGE,
	"closerelay_plans_created_total":          dto.MetricType_COUNTER,
	"closerelay_plans_expired_total":          dto.MetricType_COUNTER,
	"closerelay_stream_subscribers":           dto.MetricType_GAUGE,
	"closerelay_stream_rejected_total":        dto.MetricType_COUNTER,
	"closerelay_signatures_total":             dto.MetricType_COUNTER,
	"closerelay_rejections_total":             dto.MetricType_COUNTER,
	"closerelay_rate_limited_total":           dto.MetricType_COUNTER,
	"closerelay_account_api_duration_seconds": dto.MetricType_HISTOGRAM,
	"closerelay_mediator_cosign_total":        dto.MetricType_COUNTER,
}

// TestOpsSeriesExistAtZero: before any request, /metrics already carries
// every CONTRACT family, every series an alert or dashboard selects by
// label, and all at zero, so rate() and increase() see a first event.
func TestOpsSeriesExistAtZero(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startOpsRelay(t, nil)
		mfs := opsScrape(t, r.ops)
		for name, typ := range opsContractFamilies {
			mf := mfs[name]
			switch {
			case mf == nil:
				t.Errorf("/metrics lacks %s at start", name)
			case mf.GetType() != typ:
				t.Errorf("%s is a %v, CONTRACT says %v", name, mf.GetType(), typ)
			case len(mf.GetMetric()) == 0:
				t.Errorf("%s has no series at start", name)
			}
		}
		got := opsServiceSamples(mfs)
		want := []string{opsPlansOpen, opsClusterOpen, opsPlansCreated, opsPlansExpired, opsSubscribers, opsStreamRejected, opsStreamEvents, opsCapacityRefused,
			opsAdmitted, opsDuplicate, opsDropped, opsCosignSigned, opsCosign("MEDIATOR_NOT_CONFIGURED"), opsCosign("INVALID_FLOW_TOKEN"),
			opsCosign("FORWARD_DESTINATION_NOT_COMMITTED"), opsRejection(metrics.RouteMediatorCosign, "FORWARD_DESTINATION_NOT_COMMITTED")}
		for _, route := range metrics.Routes {
			want = append(want, opsSeries("closerelay_rate_limited_total", "route", route))
			n := 0
			for k := range got {
				if strings.HasPrefix(k, "closerelay_rejections_total{") && strings.Contains(k, `route="`+route+`"`) {
					n++
				}
			}
			if n == 0 {
				t.Errorf("no closerelay_rejections_total series for route %s at start", route)
			}
		}
		for _, n := range []string{"mainnet", "testnet", "futurenet"} {
			for _, o := range []string{"ok", "error"} {
				want = append(want, opsSeries("closerelay_account_api_duration_seconds_count", "network", n, "outcome", o))
			}
		}
		for _, op := range metrics.StoreOps {
			want = append(want, opsSeries("closerelay_store_request_duration_seconds_count", "op", op, "outcome", "error"))
		}
		want = append(want, opsSeries("closerelay_store_conflicts_total", "entry", "plan"), "closerelay_store_available{}")
		for _, k := range want {
			if _, ok := got[k]; !ok {
				t.Errorf("/metrics lacks %s at start", k)
			}
		}
		for k, v := range got {
			// build_info and ledger_api_info are 1 by definition;
			// store_available is 1 in single mode, whose store (memory) is
			// always there.
			if v != 0 && !strings.HasPrefix(k, "closerelay_build_info{") && !strings.HasPrefix(k, "closerelay_ledger_api_info{") && k != "closerelay_store_available{}" {
				t.Errorf("%s = %g at start, want 0", k, v)
			}
		}
	})
}

// TestOpsHealthAndReadinessWhileDraining: /healthz and /readyz answer 200
// while serving; once shutdown starts, /readyz answers 503 for the whole
// drain while /healthz stays 200 and the request in flight still completes.
func TestOpsHealthAndReadinessWhileDraining(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startOpsRelay(t, map[string]string{"SHUTDOWN_TIMEOUT": "10s"})
		probe := func(path string) int {
			t.Helper()
			resp, err := r.ops.Get("http://ops.test" + path)
			if err != nil {
				t.Fatalf("GET %s: %v", path, err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			return resp.StatusCode
		}
		if h, rd := probe("/healthz"), probe("/readyz"); h != http.StatusOK || rd != http.StatusOK {
			t.Fatalf("serving: /healthz %d, /readyz %d; want 200, 200", h, rd)
		}

		// A publish held up 3 s by the account API is in flight when the
		// drain starts.
		r.horizon.SetDelay(3 * time.Second)
		close1, _ := ledgertest.BuildClose(r.acct.Master, ledgertest.Keypair(9001).Address(), 1, 0, opsPassphrase, r.acct.Keys[0])
		published := make(chan int, 1)
		go func() {
			code, _ := r.do(t, "198.51.100.1", http.MethodPost, "/api/plan", `{"network":"testnet","xdr":"`+close1+`"}`)
			published <- code
		}()
		synctest.Wait()
		r.cancel()
		synctest.Wait()
		if h, rd := probe("/healthz"), probe("/readyz"); h != http.StatusOK || rd != http.StatusServiceUnavailable {
			t.Errorf("draining: /healthz %d, /readyz %d; want 200, 503", h, rd)
		}
		select {
		case code := <-published:
			t.Fatalf("the publish in flight answered %d before its account API call returned", code)
		default:
		}
		if code := <-published; code != http.StatusOK {
			t.Errorf("the publish in flight at shutdown answered %d, want 200", code)
		}
		r.stop(t)
	})
}

// TestOpsCapacityRefusal fills the relay's 500 plans; the 501st publish is
// refused, counted in closerelay_plans_capacity_refused_total and in
// rejections, and logged once as a warning.
func TestOpsCapacityRefusal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// One account fills the relay: lift its own limit to reach the global one.
		r := startOpsRelay(t, map[string]string{"PLANS_PER_ACCOUNT": "500"})
		dest := ledgertest.Keypair(9001).Address()
		r.horizon.Fund(dest, 10_0000000)         // a merge into an account the ledger holds: landable
		r.horizon.SetSequence(r.acct.Address, 0) // the first close (sequence 1) follows it
		publish := func(seq int64, status int, code string) {
			t.Helper()
			x, _ := ledgertest.BuildClose(r.acct.Master, dest, seq, 0, opsPassphrase, r.acct.Keys[0])
			ip := fmt.Sprintf("198.51.%d.%d", 100+seq/200, seq%200) // under the publish rate limit
			r.must(t, ip, http.MethodPost, "/api/plan", `{"network":"testnet","xdr":"`+x+`"}`, status, code)
		}
		for seq := range int64(500) {
			publish(seq+1, http.StatusOK, "")
		}
		before := opsServiceSamples(opsScrape(t, r.ops))
		publish(501, http.StatusBadRequest, "CAPACITY")
		want := map[string]float64{opsCapacityRefused: 1, opsRejection(metrics.RoutePlanPublish, "CAPACITY"): 1}
		if got := opsMoved(before, opsServiceSamples(opsScrape(t, r.ops))); !maps.Equal(got, want) {
			t.Errorf("the refused publish moved\n%s\nwant\n%s", opsFormatDeltas(got), opsFormatDeltas(want))
		}
		if got := before[opsPlansOpen]; got != 500 {
			t.Errorf("closerelay_plans_open = %g with 500 plans", got)
		}
		if got := before[opsClusterOpen]; got != 500 {
			t.Errorf("closerelay_cluster_plans_open = %g with 500 plans", got)
		}
		r.stop(t)
		n := 0
		for line := range strings.Lines(r.logs.String()) {
			var l opsLogLine
			if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "plan capacity refusal" {
				n++
				if l.Level != "WARN" || !strings.Contains(line, `"open_plans":500`) || !strings.Contains(line, `"capacity":500`) {
					t.Errorf("capacity refusal not at warn with open_plans and capacity: %s", line)
				}
			}
		}
		if n != 1 {
			t.Errorf("%d plan capacity refusal lines for one refusal", n)
		}
	})
}

// TestOpsLogFormats: JSON lines by default, slog's key=value text with
// LOG_FORMAT=text, and LOG_LEVEL filters.
func TestOpsLogFormats(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want *regexp.Regexp
	}{
		{nil, regexp.MustCompile(`^\{"time":"[^"]+","level":"INFO","msg":"request","route":"/api/plan/:id"\}\n$`)},
		{map[string]string{"LOG_FORMAT": "text"}, regexp.MustCompile(`^time=\S+ level=INFO msg=request route=/api/plan/:id\n$`)},
		{map[string]string{"LOG_FORMAT": "text", "LOG_LEVEL": "warn"}, regexp.MustCompile(`^$`)},
	} {
		cfg, err := ParseEnv(envOf(c.env))
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		NewLogger(cfg, &b).Info("request", "route", "/api/plan/:id")
		if !c.want.MatchString(b.String()) {
			t.Errorf("%v: logged %q, want %v", c.env, b.String(), c.want)
		}
	}
}
