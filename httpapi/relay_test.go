package httpapi_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/client/sse"
	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/internal/memlisten"
	"github.com/closerelay/closerelay/internal/server"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/mediator"
	mt "github.com/closerelay/closerelay/mediator/mediatortest"
	"github.com/closerelay/closerelay/metrics"
	dto "github.com/prometheus/client_model/go"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// This file holds what the package's test files share: the relays they
// start, the requests they send, the metrics they read, and the helpers of
// each route's tests (plans, event streams, the mediator, rate limits).

// testRelay is a real relay on a loopback listener with the account-API
// double behind it, started through the composition root like the server
// binary: the one harness every black-box test file starts.
type testRelay struct {
	URL     string
	API     *httpapi.Server
	Plans   *actor.Supervisor
	Metrics *metrics.Metrics
	Horizon *ledgertest.Server
	Client  *http.Client // its own transport, so Stop can close its connections
	relay   *server.Relay
	stop    sync.Once
}

// serverOptions is what a test asks of the API, as the composition root's
// Options: the production configuration with the test's overrides. Its
// zero value keeps TRUSTED_PROXY_HOPS at 0 and rate limits off, as a test
// that sends bursts from one address wants.
func serverOptions(o httpapi.Options) server.Options {
	cfg := server.Defaults()
	cfg.TrustedProxyHops = o.TrustedProxyHops
	cfg.RateLimits = o.RateLimits
	cfg.CORSAllowOrigins = o.CORSAllowOrigins
	if o.Heartbeat > 0 {
		cfg.SSEHeartbeat = o.Heartbeat
	}
	cfg.ShutdownTimeout = 10 * time.Second
	return server.Options{Config: cfg, Mediator: o.Mediator, Metrics: o.Metrics, Log: o.Log, Now: o.Now}
}

// startRelay runs a relay until the test ends. opts.Plans and opts.Accounts
// are the relay's own; capacity 0 is the production 500; wrap, when not nil,
// wraps the listener (to shrink socket buffers, for instance).
func startRelay(tb testing.TB, opts httpapi.Options, capacity int, wrap func(net.Listener) net.Listener) *testRelay {
	tb.Helper()
	return startRelayAPI(tb, server.LedgerAPIHorizon, opts, capacity, wrap)
}

// ledgerAPIs are LEDGER_API's values (CONTRACT section 15): the tests that
// run under each (eachLedgerAPI) make a difference between the backends a
// failing test.
var ledgerAPIs = []string{server.LedgerAPIHorizon, server.LedgerAPIRPC}

// eachLedgerAPI runs test once per ledger API, as a sub-test named after it.
func eachLedgerAPI(t *testing.T, test func(t *testing.T, api string)) {
	for _, api := range ledgerAPIs {
		t.Run(api, func(t *testing.T) { test(t, api) })
	}
}

// startRelayAPI is startRelay with the relay reading and submitting through
// api: Horizon's routes of the double, or its Stellar RPC face, over the
// same in-memory ledger.
func startRelayAPI(tb testing.TB, api string, opts httpapi.Options, capacity int, wrap func(net.Listener) net.Listener) *testRelay {
	tb.Helper()
	h := ledgertest.New()
	h.Fund(planDest, 10_0000000) // the closes' destination: the ledger refuses a merge into nothing
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	if wrap != nil {
		ln = wrap(ln)
	}
	so := serverOptions(opts)
	so.Config.OpsAddr = "127.0.0.1:0"
	so.Config.HorizonTimeout = 5 * time.Second
	so.Listener, so.Ledger, so.Capacity = ln, h.Backends(), capacity
	so.Config.LedgerAPI = api
	if api == server.LedgerAPIRPC {
		so.Ledger = h.RPCBackends()
	}
	rel, err := server.Start(so)
	if err != nil {
		tb.Fatal(err)
	}
	r := &testRelay{
		URL: rel.APIURL, API: rel.API, Plans: rel.Plans, Metrics: rel.Metrics, Horizon: h, relay: rel,
		Client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}},
	}
	tb.Cleanup(func() { r.Stop(tb) })
	return r
}

// Stop drains the relay (its streams end first) and stops the double; it
// may be called more than once.
func (r *testRelay) Stop(tb testing.TB) {
	r.stop.Do(func() {
		r.Client.CloseIdleConnections()
		if err := r.relay.Stop(); err != nil {
			tb.Errorf("stop relay: %v", err)
		}
		r.Horizon.Close()
	})
}

// testClock is a settable clock for Options.Now and mediator.Options.Now, for
// the tests that step time across a real listener (synctest cannot reach a
// socket's goroutines).
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// bubbleRelay is a relay for a synctest bubble: in-memory listeners (no
// socket, so the bubble's clock can advance while requests wait) and the
// account-API double in process. Create it inside the bubble.
type bubbleRelay struct {
	Base    string // the URL every request goes to; nothing resolves it
	API     *httpapi.Server
	Plans   *actor.Supervisor
	Horizon *ledgertest.Handler
	Client  *http.Client
	// Dial opens a raw in-memory connection to the relay, for a client
	// that speaks HTTP by hand (one that never reads, say).
	Dial  func(ctx context.Context, network, addr string) (net.Conn, error)
	relay *server.Relay
}

// startBubbleRelay starts a bubbleRelay; call it inside the bubble. opts may
// set any Options but Plans and Accounts, which the relay owns (a configured
// mediator, for instance).
func startBubbleRelay(opts ...httpapi.Options) *bubbleRelay {
	h := ledgertest.NewHandler()
	h.Fund(planDest, 10_0000000) // the closes' destination: the ledger refuses a merge into nothing
	var o httpapi.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	ln := memlisten.New()
	so := serverOptions(o)
	so.Config.HorizonTimeout = 5 * time.Second
	so.Listener, so.OpsListener, so.Ledger = ln, memlisten.New(), h.Backends()
	rel, err := server.Start(so)
	if err != nil {
		panic("startBubbleRelay: " + err.Error()) // in-memory listeners cannot fail
	}
	return &bubbleRelay{
		Base: "http://relay.test", API: rel.API, Plans: rel.Plans, Horizon: h,
		Client: ln.Client(), Dial: ln.Dial, relay: rel,
	}
}

// Stop shuts everything down, so that synctest can check that no bubble
// goroutine remains.
func (r *bubbleRelay) Stop(t *testing.T) {
	r.Client.CloseIdleConnections()
	if err := r.relay.Stop(); err != nil {
		t.Errorf("stop relay: %v", err)
	}
}

// --- requests and metrics ----------------------------------------------------

// response is one answer, read whole: its status, headers and body.
type response struct {
	status int
	header http.Header
	body   []byte
}

// roundTrip sends req on c and reads the whole answer; it reports failures
// instead of failing the test, for use off the test's goroutine. An answer
// the OpenAPI document does not describe is a failure too (checkAnswer).
func roundTrip(c *http.Client, req *http.Request) (response, error) {
	res, err := c.Do(req)
	if err != nil {
		return response{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	r := response{status: res.StatusCode, header: res.Header, body: b}
	if err != nil {
		return r, err
	}
	return r, checkAnswer(req, r)
}

// send sends method to url on c with the headers hdr and body, as JSON when
// there is one, and reads the whole answer, failing the test on a transport
// or read error.
func send(tb testing.TB, c *http.Client, method, url string, body io.Reader, hdr map[string]string) response {
	tb.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		tb.Fatalf("new request: %v", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := roundTrip(c, req)
	if err != nil {
		tb.Fatalf("%s %s: %v", method, url, err)
	}
	return res
}

// jsonBody is v as a JSON body.
func jsonBody(tb testing.TB, v any) string {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatalf("marshal: %v", err)
	}
	return string(b)
}

// errorBody checks an error answer's body, CONTRACT section 3's shape: JSON,
// exactly {ok:false, code, reason}, the reason not empty. It returns the
// code and the reason.
func errorBody(t *testing.T, r response) (code, reason string) {
	t.Helper()
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body %q is not JSON: %v", r.body, err)
	}
	if len(m) != 3 {
		t.Errorf("error body has keys %v, want exactly ok, code, reason", m)
	}
	if ok, isBool := m["ok"].(bool); !isBool || ok {
		t.Errorf("ok = %v, want false", m["ok"])
	}
	code, _ = m["code"].(string)
	reason, _ = m["reason"].(string)
	if reason == "" {
		t.Errorf("reason = %v, want a non-empty string", m["reason"])
	}
	return code, reason
}

// The metric families the tests read.
const (
	httpRequestsTotal = "closerelay_http_requests_total"
	rejectionsTotal   = "closerelay_rejections_total"
	rateLimitedTotal  = "closerelay_rate_limited_total"
	cosignTotal       = "closerelay_mediator_cosign_total"
)

// metricSample is one series of a metric family: its labels and its value
// (a counter's or a gauge's).
type metricSample struct {
	labels map[string]string
	value  float64
}

// metricSamples reads the series of the family name whose labels include
// every name, value pair of pairs (all of them when there are none). The
// family must be gathered: a vector without a series is not.
func metricSamples(tb testing.TB, m *metrics.Metrics, name string, pairs ...string) []metricSample {
	tb.Helper()
	if len(pairs)%2 != 0 {
		tb.Fatalf("labels %q are not name, value pairs", pairs)
	}
	mfs, err := m.Registry.Gather()
	if err != nil {
		tb.Fatal(err)
	}
	i := slices.IndexFunc(mfs, func(mf *dto.MetricFamily) bool { return mf.GetName() == name })
	if i < 0 {
		tb.Fatalf("%s not gathered", name)
	}
	var out []metricSample
next:
	for _, s := range mfs[i].GetMetric() {
		labels := map[string]string{}
		for _, lp := range s.GetLabel() {
			labels[lp.GetName()] = lp.GetValue()
		}
		for j := 0; j < len(pairs); j += 2 {
			if labels[pairs[j]] != pairs[j+1] {
				continue next
			}
		}
		out = append(out, metricSample{labels, s.GetCounter().GetValue() + s.GetGauge().GetValue()})
	}
	return out
}

// metricSum adds the values of the series metricSamples reads: 0 when there
// is none.
func metricSum(tb testing.TB, m *metrics.Metrics, name string, pairs ...string) float64 {
	tb.Helper()
	var sum float64
	for _, s := range metricSamples(tb, m, name, pairs...) {
		sum += s.value
	}
	return sum
}

// metricValue is the value of the one series metricSamples reads, failing
// the test unless there is exactly one.
func metricValue(tb testing.TB, m *metrics.Metrics, name string, pairs ...string) float64 {
	tb.Helper()
	s := metricSamples(tb, m, name, pairs...)
	if len(s) != 1 {
		tb.Fatalf("%d series of %s with labels %q, want one", len(s), name, pairs)
	}
	return s[0].value
}

// --- the plan routes ---------------------------------------------------------

// planRelay is the shared test relay, seen through the fields these tests use.
type planRelay struct {
	url     string
	horizon *ledgertest.Server
	plans   *actor.Supervisor
}

// planStart runs a relay (rate limits off) until the test ends; capacity 0
// is the production 500.
func planStart(t *testing.T, capacity int) *planRelay {
	t.Helper()
	return planStartAPI(t, capacity, server.LedgerAPIHorizon)
}

// planStartAPI is planStart through api (eachLedgerAPI).
func planStartAPI(t *testing.T, capacity int, api string) *planRelay {
	t.Helper()
	r := startRelayAPI(t, api, httpapi.Options{}, capacity, nil)
	return &planRelay{url: r.URL, horizon: r.Horizon, plans: r.Plans}
}

func planPostRaw(t *testing.T, url, body string) response {
	t.Helper()
	return send(t, http.DefaultClient, http.MethodPost, url, strings.NewReader(body), nil)
}

func (r *planRelay) publish(t *testing.T, network, x string) response {
	t.Helper()
	return planPostRaw(t, r.url+"/api/plan", jsonBody(t, map[string]string{"network": network, "xdr": x}))
}

func (r *planRelay) sign(t *testing.T, id, x string) response {
	t.Helper()
	return planPostRaw(t, r.url+"/api/plan/"+id+"/sign", jsonBody(t, map[string]string{"xdr": x}))
}

func (r *planRelay) get(t *testing.T, id string) response {
	t.Helper()
	return send(t, http.DefaultClient, http.MethodGet, r.url+"/api/plan/"+id, nil, nil)
}

// planFields decodes a JSON object body and checks its keys are exactly keys.
func planFields(t *testing.T, res response, keys ...string) map[string]json.RawMessage {
	t.Helper()
	if cc := res.header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", cc)
	}
	if ct := res.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(res.body, &m); err != nil {
		t.Fatalf("body %q is not a JSON object: %v", res.body, err)
	}
	got := make([]string, 0, len(m))
	for k := range m {
		got = append(got, k)
	}
	sort.Strings(got)
	want := append([]string(nil), keys...)
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("body keys = %v, want exactly %v (body %s)", got, want, res.body)
	}
	return m
}

func planString(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("%s is not a JSON string", raw)
	}
	return s
}

func planOKField(t *testing.T, m map[string]json.RawMessage, want bool) {
	t.Helper()
	var ok bool
	if err := json.Unmarshal(m["ok"], &ok); err != nil || ok != want {
		t.Fatalf("ok = %s, want %v", m["ok"], want)
	}
}

// planWantErr checks an error answer: status, code and CONTRACT section 3's shape.
func planWantErr(t *testing.T, res response, status int, code string) {
	t.Helper()
	if res.status != status {
		t.Fatalf("status = %d, want %d (body %s)", res.status, status, res.body)
	}
	m := planFields(t, res, "ok", "code", "reason")
	planOKField(t, m, false)
	if got := planString(t, m["code"]); got != code {
		t.Fatalf("code = %q, want %q (body %s)", got, code, res.body)
	}
	if planString(t, m["reason"]) == "" {
		t.Errorf("reason is empty")
	}
}

var planIDPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// planWantPublished checks a publish success and returns the id.
func planWantPublished(t *testing.T, res response, hash [32]byte) string {
	t.Helper()
	if res.status != http.StatusOK {
		t.Fatalf("status = %d, want 200 (body %s)", res.status, res.body)
	}
	m := planFields(t, res, "ok", "id")
	planOKField(t, m, true)
	id := planString(t, m["id"])
	if !planIDPattern.MatchString(id) {
		t.Fatalf("id %q is not 64 lowercase hex", id)
	}
	if want := hex.EncodeToString(hash[:]); id != want {
		t.Fatalf("id = %s, want the tx hash %s", id, want)
	}
	return id
}

func planWantPlan(t *testing.T, res response) (network, x string) {
	t.Helper()
	if res.status != http.StatusOK {
		t.Fatalf("status = %d, want 200 (body %s)", res.status, res.body)
	}
	m := planFields(t, res, "ok", "network", "xdr")
	planOKField(t, m, true)
	return planString(t, m["network"]), planString(t, m["xdr"])
}

// planSigs decodes an envelope's signatures.
func planSigs(t *testing.T, x string) []xdr.DecoratedSignature {
	t.Helper()
	env, err := ledger.DecodeEnvelope(x)
	if err != nil {
		t.Fatalf("decode %q: %v", x, err)
	}
	return env.Signatures()
}

// planAccount adds a fresh account with n extra signers to the double.
func planAccount(r *planRelay, n int) ledgertest.Account {
	a := ledgertest.NewAccount(n, 1)
	r.horizon.AddAccount(a)
	return a
}

var planDest = keypair.MustRandom().Address()

const (
	planTest = string(ledger.Testnet)
	planMain = string(ledger.Mainnet)
)

func planPass(network string) string { return ledger.Network(network).Passphrase() }

// --- event streams -----------------------------------------------------------

const ssePassphrase = network.TestNetworkPassphrase

// sseFixture is a close of a fresh account and its keys.
type sseFixture struct {
	acct     ledgertest.Account
	dest     string
	unsigned string
	id       string
}

func sseNewFixture(nSigners int, maxTime int64) sseFixture {
	acct := ledgertest.NewAccount(nSigners, 1)
	dest := keypair.MustRandom().Address()
	x, h := ledgertest.BuildClose(acct.Master, dest, 1<<32+1, maxTime, ssePassphrase)
	return sseFixture{acct: acct, dest: dest, unsigned: x, id: hex.EncodeToString(h[:])}
}

func (f sseFixture) signed(keys ...*keypair.Full) string {
	return ledgertest.SignXDR(f.unsigned, ssePassphrase, keys...)
}

// ssePost posts body as JSON; it reports failures instead of failing the
// test, for use off the test's goroutine.
func ssePost(ctx context.Context, c *http.Client, url string, body any) (int, []byte, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return 0, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := roundTrip(c, req)
	return res.status, res.body, err
}

func ssePublish(t *testing.T, c *http.Client, base, xdrB64 string) {
	t.Helper()
	code, body, err := ssePost(t.Context(), c, base+"/api/plan", map[string]string{"network": "testnet", "xdr": xdrB64})
	if err != nil || code != http.StatusOK {
		t.Fatalf("publish = %d %s %v", code, body, err)
	}
}

func sseSign(t *testing.T, c *http.Client, base, id, xdrB64 string) {
	t.Helper()
	code, body, err := ssePost(t.Context(), c, base+"/api/plan/"+id+"/sign", map[string]string{"xdr": xdrB64})
	if err != nil || code != http.StatusOK {
		t.Fatalf("sign = %d %s %v", code, body, err)
	}
}

// sseItem is one result of sse.Reader.Next.
type sseItem struct {
	ev  sse.Event
	err error
}

// sseStream is an open event stream read by the real parser on its own
// goroutine; the goroutine ends when the stream ends or is cancelled.
type sseStream struct {
	Resp     *http.Response
	cancel   context.CancelFunc
	items    chan sseItem
	comments chan string
}

func sseOpenReq(ctx context.Context, c *http.Client, url string, hdr http.Header) (*http.Response, context.CancelFunc, error) {
	ctx, cancel := context.WithCancel(ctx)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		cancel()
		return nil, nil, err
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		cancel()
		return nil, nil, err
	}
	return resp, cancel, nil
}

func sseOpen(t *testing.T, c *http.Client, base, id string, hdr http.Header) *sseStream {
	t.Helper()
	resp, cancel, err := sseOpenReq(context.Background(), c, base+"/api/plan/"+id+"/events", hdr)
	if err != nil {
		t.Fatalf("open stream: %v", err)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		cancel()
		t.Fatalf("open stream = %d %q", resp.StatusCode, b)
	}
	s := &sseStream{Resp: resp, cancel: cancel, items: make(chan sseItem, 1024), comments: make(chan string, 1024)}
	go func() {
		r := sse.NewReader(resp.Body)
		r.OnComment = func(text string) {
			select {
			case s.comments <- text:
			default:
			}
		}
		for {
			ev, err := r.Next()
			select {
			case s.items <- sseItem{ev, err}:
			default:
			}
			if err != nil {
				close(s.items)
				return
			}
		}
	}()
	t.Cleanup(s.Close)
	return s
}

func (s *sseStream) Close() {
	s.cancel()
	s.Resp.Body.Close()
}

// next returns the next event, failing the test unless it comes within d.
func (s *sseStream) next(t *testing.T, d time.Duration) sse.Event {
	t.Helper()
	select {
	case it, ok := <-s.items:
		if !ok {
			t.Fatal("stream already ended")
		}
		if it.err != nil {
			t.Fatalf("stream ended: %v", it.err)
		}
		return it.ev
	case <-time.After(d):
		t.Fatalf("no event within %v", d)
	}
	panic("unreachable")
}

// end expects the stream to end with io.EOF (a clean end) within d.
func (s *sseStream) end(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case it, ok := <-s.items:
		if !ok {
			t.Fatal("stream end already consumed")
		}
		if it.err != io.EOF {
			t.Fatalf("want a clean end (io.EOF), got event %+v, err %v", it.ev, it.err)
		}
	case <-time.After(d):
		t.Fatalf("stream did not end within %v", d)
	}
}

type sseData struct {
	Network string   `json:"network"`
	XDR     string   `json:"xdr"`
	ID      string   `json:"id"`
	Signers []string `json:"signers"`
}

// sseCheckState checks an unnamed state event with id version and signers.
func sseCheckState(t *testing.T, ev sse.Event, f sseFixture, version int, signers ...*keypair.Full) sseData {
	t.Helper()
	if ev.Type != "message" {
		t.Errorf("event type = %q, want unnamed (message)", ev.Type)
	}
	if ev.ID != strconv.Itoa(version) {
		t.Errorf("event id = %q, want %d", ev.ID, version)
	}
	if strings.Contains(ev.Data, "\n") {
		t.Errorf("data spans lines: %q", ev.Data)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal([]byte(ev.Data), &keys); err != nil {
		t.Fatalf("data %q: %v", ev.Data, err)
	}
	var names []string
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	if strings.Join(names, ",") != "id,landable,network,ready,signers,threshold,weight,xdr" {
		t.Errorf("data keys = %v, want exactly network,xdr,id,signers,weight,threshold,ready,landable", names)
	}
	checkSchema(t, "EventData", []byte(ev.Data))
	var d sseData
	if err := json.Unmarshal([]byte(ev.Data), &d); err != nil {
		t.Fatal(err)
	}
	if d.Network != "testnet" || d.ID != f.id {
		t.Errorf("network, id = %q, %q; want testnet, %s", d.Network, d.ID, f.id)
	}
	var want []string
	for _, k := range signers {
		want = append(want, k.Address())
	}
	got := append([]string(nil), d.Signers...)
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("signers = %v, want %v", d.Signers, want)
	}
	if h := ledgertest.Hash(d.XDR, ssePassphrase); hex.EncodeToString(h[:]) != f.id {
		t.Errorf("xdr hashes to %x, want %s", h, f.id)
	}
	return d
}

// --- the mediator route ------------------------------------------------------

// Fixed keys from mediatortest: a valid master seed and unrelated accounts.
const (
	medSecret    = mt.Secret
	medDest      = mt.Dest
	medOtherDest = mt.OtherDest
	medPath      = "/api/mediator/sign"
)

// medRelay is the mediator route of a relay: on a loopback listener with a
// stepped clock (medStart), or in a synctest bubble (medBubble).
type medRelay struct {
	base    string
	client  *http.Client
	clock   *testClock // nil in a bubble, whose clock is time.Now
	metrics *metrics.Metrics
	relay   *testRelay // nil in a bubble
}

// medStart runs a relay on a loopback listener, on a fixed clock that the
// test steps (the rate limiter's and the mediator's). An empty secret leaves
// Options.Mediator nil (the server's unconfigured default); edit, when not
// nil, adjusts the options (rate limits are off unless it turns them on).
func medStart(t *testing.T, secret string, edit func(*httpapi.Options)) *medRelay {
	t.Helper()
	clock := &testClock{t: time.Now().Truncate(time.Millisecond)}
	m := metrics.New()
	opts := httpapi.Options{Metrics: m, Now: clock.Now}
	if secret != "" {
		opts.Mediator = mediator.New(mediator.Options{Secret: secret, Now: clock.Now})
	}
	if edit != nil {
		edit(&opts)
	}
	rel := startRelay(t, opts, 0, nil)
	return &medRelay{base: rel.URL, client: rel.Client, clock: clock, metrics: m, relay: rel}
}

// medBubble is startBubbleRelay with a configured mediator, which reads the
// bubble's clock. Call it inside the bubble and Stop it before the bubble ends.
func medBubble(secret string) (*medRelay, *bubbleRelay) {
	b := startBubbleRelay(httpapi.Options{Mediator: mediator.New(mediator.Options{Secret: secret})})
	return &medRelay{base: b.Base, client: b.Client}, b
}

func (r *medRelay) now() time.Time {
	if r.clock == nil {
		return time.Now()
	}
	return r.clock.Now()
}

// do sends method to the mediator route plus query, with body as JSON.
func (r *medRelay) do(t *testing.T, method, query string, body io.Reader, hdr map[string]string) response {
	t.Helper()
	return send(t, r.client, method, r.base+medPath+query, body, hdr)
}

func (r *medRelay) get(t *testing.T, query string) response {
	t.Helper()
	return r.do(t, http.MethodGet, query, nil, nil)
}

func (r *medRelay) postRaw(t *testing.T, body string) response {
	t.Helper()
	return r.do(t, http.MethodPost, "", strings.NewReader(body), nil)
}

func (r *medRelay) post(t *testing.T, fields map[string]any) response {
	t.Helper()
	return r.postRaw(t, jsonBody(t, fields))
}

func (r *medRelay) cosign(t *testing.T, envelope, token, net string) response {
	t.Helper()
	return r.post(t, map[string]any{"envelopeXdr": envelope, "flowToken": token, "network": net})
}

func medNoStore(t *testing.T, r response) {
	t.Helper()
	if got := r.header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", got)
	}
}

// medWantErr asserts status, no-store and a body of exactly {ok:false,code,reason}.
func medWantErr(t *testing.T, r response, status int, code string) string {
	t.Helper()
	medNoStore(t, r)
	if r.status != status {
		t.Errorf("status = %d, want %d (body %s)", r.status, status, r.body)
	}
	got, reason := errorBody(t, r)
	if got != code {
		t.Errorf("code = %q, want %s (body %s)", got, code, r.body)
	}
	return reason
}

// medMint mints a flow for dest and returns the token and the mediator key.
func (r *medRelay) mint(t *testing.T, dest string) (token, pub string) {
	t.Helper()
	res := r.get(t, "?destination="+dest)
	if res.status != http.StatusOK {
		t.Fatalf("mint: status %d body %s", res.status, res.body)
	}
	var body struct {
		FlowToken         string `json:"flowToken"`
		MediatorPublicKey string `json:"mediatorPublicKey"`
	}
	if err := json.Unmarshal(res.body, &body); err != nil {
		t.Fatal(err)
	}
	return body.FlowToken, body.MediatorPublicKey
}

func (r *medRelay) maxTime(d time.Duration) uint64 {
	return uint64(r.now().Add(d).Unix())
}

var (
	medNonceRE = regexp.MustCompile(`^[0-9a-f]{32}$`)
	medMACRE   = regexp.MustCompile(`^[0-9a-f]{64}$`)
	medExpRE   = regexp.MustCompile(`^[0-9]+$`)
)

// medWantSigned asserts a 200 of exactly {ok, signedXdr, hash}: the posted
// transaction, unchanged, with the signatures it had and then the mediator's
// over its hash under passphrase.
func medWantSigned(t *testing.T, res response, posted, mediatorKey, passphrase string) {
	t.Helper()
	medNoStore(t, res)
	if res.status != http.StatusOK {
		t.Fatalf("status %d body %s, want 200", res.status, res.body)
	}
	var raw map[string]any
	if err := json.Unmarshal(res.body, &raw); err != nil {
		t.Fatal(err)
	}
	signed, _ := raw["signedXdr"].(string)
	hashHex, _ := raw["hash"].(string)
	if len(raw) != 3 || raw["ok"] != true || signed == "" {
		t.Fatalf("body %s, want exactly ok:true, signedXdr, hash", res.body)
	}
	var env, orig xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(signed, &env); err != nil {
		t.Fatalf("signedXdr does not decode: %v", err)
	}
	if err := xdr.SafeUnmarshalBase64(posted, &orig); err != nil {
		t.Fatal(err)
	}
	hash, err := network.HashTransactionInEnvelope(env, passphrase)
	if err != nil {
		t.Fatal(err)
	}
	origHash, err := network.HashTransactionInEnvelope(orig, passphrase)
	if err != nil {
		t.Fatal(err)
	}
	if origHash != hash {
		t.Error("signed envelope's transaction differs from the one posted")
	}
	if hex.EncodeToString(hash[:]) != hashHex {
		t.Errorf("hash %s, want %x", hashHex, hash)
	}
	if env.Type != orig.Type {
		t.Errorf("envelope type %v, posted %v", env.Type, orig.Type)
	}
	sigs, had := env.Signatures(), orig.Signatures()
	if len(sigs) != len(had)+1 {
		t.Fatalf("%d signatures, want the %d posted plus the mediator's", len(sigs), len(had))
	}
	for i := range had {
		if sigs[i].Hint != had[i].Hint || !bytes.Equal(sigs[i].Signature, had[i].Signature) {
			t.Errorf("signature %d changed", i)
		}
	}
	kp, err := keypair.ParseAddress(mediatorKey)
	if err != nil {
		t.Fatal(err)
	}
	last := sigs[len(sigs)-1]
	if last.Hint != xdr.SignatureHint(kp.Hint()) {
		t.Errorf("signature hint %x, want %x", last.Hint, kp.Hint())
	}
	if err := kp.Verify(hash[:], last.Signature); err != nil {
		t.Errorf("signature does not verify under mediatorPublicKey: %v", err)
	}
}

// --- rate limits -------------------------------------------------------------

// rlPlanID is a well-formed plan id no plan has: requests to it 404 after the
// limiter has taken a token.
const rlPlanID = "00000000000000000000000000000000000000000000000000000000000000ab"

type rlOpts struct {
	hops       int
	rateLimits bool
	now        func() time.Time
	metrics    *metrics.Metrics
}

// rlRelay starts a relay on a real loopback listener.
func rlRelay(t *testing.T, o rlOpts) string {
	t.Helper()
	return startRelay(t, httpapi.Options{
		Metrics:          o.metrics,
		TrustedProxyHops: o.hops,
		RateLimits:       o.rateLimits,
		Now:              o.now,
	}, 0, nil).URL
}

// rlRoute describes one limited route and how to hit it.
type rlRoute struct {
	name   string
	method string
	path   string
	body   string
	limit  int
	json   bool // 429 is the JSON error body; otherwise text/plain
}

var rlRoutes = []rlRoute{
	{"plan_publish", http.MethodPost, "/api/plan", `{"xdr":"AAAA","network":"testnet"}`, 10, true},
	{"plan_get", http.MethodGet, "/api/plan/" + rlPlanID, "", 60, true},
	{"plan_sign", http.MethodPost, "/api/plan/" + rlPlanID + "/sign", `{"xdr":"AAAA"}`, 30, true},
	{"plan_events", http.MethodGet, "/api/plan/" + rlPlanID + "/events", "", 20, false},
	{"mediator_cosign", http.MethodPost, "/api/mediator/sign", `{"envelopeXdr":"AAAA","flowToken":"x","network":"testnet"}`, 5, true},
}

// rlDo sends one request, with body as JSON unless it is empty; hdr are
// extra headers.
func rlDo(t *testing.T, base, method, path, body string, hdr map[string]string) response {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	return send(t, http.DefaultClient, method, base+path, r, hdr)
}

// rlExhaust sends n requests, failing if any is 429.
func rlExhaust(t *testing.T, base string, rt rlRoute, n int, hdr map[string]string) {
	t.Helper()
	for i := 0; i < n; i++ {
		if r := rlDo(t, base, rt.method, rt.path, rt.body, hdr); r.status == http.StatusTooManyRequests {
			t.Fatalf("%s request %d of %d: 429 too early (body %q)", rt.name, i+1, n, r.body)
		}
	}
}

func rlCheckJSON429(t *testing.T, r response) {
	t.Helper()
	if r.status != http.StatusTooManyRequests {
		t.Fatalf("status = %d, want 429 (body %q)", r.status, r.body)
	}
	if code, _ := errorBody(t, r); code != "RATE_LIMITED" {
		t.Errorf("code = %q, want RATE_LIMITED", code)
	}
	rlCheckRetryAfter(t, r)
}

func rlCheckRetryAfter(t *testing.T, r response) int {
	t.Helper()
	ra := r.header.Get("Retry-After")
	n, err := strconv.Atoi(ra)
	if err != nil || n < 1 || strconv.Itoa(n) != ra {
		t.Errorf("Retry-After = %q, want a positive whole number of seconds", ra)
	}
	return n
}
