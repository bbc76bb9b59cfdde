package clustertest

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/closerelay/closerelay/internal/natstest"
	"github.com/closerelay/closerelay/internal/testport"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
)

const (
	signersPerPlan = 20 // the most a plan's envelope carries
	concurrency    = 8  // signs in flight at once
)

func TestThreeInstancesBehindHAProxy(t *testing.T) {
	if os.Getenv("CLOSERELAY_CLUSTER_TEST") != "1" {
		t.Skip("the three-instance cluster test runs with `make test-cluster` (CLOSERELAY_CLUSTER_TEST=1)")
	}
	haproxy, err := exec.LookPath("haproxy")
	if err != nil {
		t.Fatal("haproxy is not installed: `make test-cluster` installs Debian's package")
	}
	bin := buildRelay(t)
	horizon := ledgertest.New()
	t.Cleanup(horizon.Close)
	nats := natstest.StartCluster(t, 3)

	clusterEnv := map[string]string{"NATS_URL": natstest.URLs(nats), "NATS_REPLICAS": "3"}
	var relays []*relayProc
	for i := range 3 {
		relays = append(relays, startRelay(t, bin, fmt.Sprintf("relay-%d", i), horizon.URL, clusterEnv))
	}
	single := startRelay(t, bin, "single", horizon.URL, nil)
	lb := startHAProxy(t, haproxy, relays, single)
	for _, r := range append(slices.Clone(relays), single) {
		r.awaitReady(t)
	}
	lb.await(t, lb.clusterURL)
	lb.await(t, lb.singleURL)
	report := &figures{}

	// Phase 1: sign latency, cluster against single mode, the same workload
	// through the same proxy with nothing failing.
	steadyCluster := publishPlans(t, lb.clusterURL, horizon, 12, 100)
	steadySingle := publishPlans(t, lb.singleURL, horizon, 12, 200)
	reads := &readChecks{relays: relays}
	clusterRun := signAll(t, lb.clusterURL, steadyCluster, reads, nil)
	singleRun := signAll(t, lb.singleURL, steadySingle, nil, nil)
	report.ClusterSign = clusterRun.latencies()
	report.SingleSign = singleRun.latencies()

	// Phase 2: a signing run across many plans, watched on every plan,
	// while relay-1 is killed with SIGKILL and started again, then a NATS
	// server is shut down for good.
	failing := publishPlans(t, lb.clusterURL, horizon, 24, 300)
	watchers := watchAll(t, lb.clusterURL, failing)
	total := len(failing) * (signersPerPlan - 1)
	failRun := signAll(t, lb.clusterURL, failing, reads, func(done int) {
		switch done {
		case total / 3:
			t.Logf("SIGKILL %s after %d signs", relays[1].name, done)
			relays[1].kill(t)
			relays[1].start(t)
		case 2 * total / 3:
			t.Logf("NATS server nats-0 shut down after %d signs", done)
			nats[0].Shutdown()
		}
	})
	relays[1].awaitReady(t)

	// Phase 3: a rolling restart of every relay (SIGTERM, wait, start)
	// while signing goes on.
	rolling := publishPlans(t, lb.clusterURL, horizon, 12, 400)
	watchers = append(watchers, watchAll(t, lb.clusterURL, rolling)...)
	rollRun := make(chan *run, 1)
	go func() { rollRun <- signAll(t, lb.clusterURL, rolling, reads, nil) }()
	for _, r := range relays {
		r.terminate(t)
		r.start(t)
		r.awaitReady(t)
	}
	rollDone := <-rollRun

	// Every sign answered 200 is in the final envelope, read through the
	// proxy; every watcher ends on that envelope.
	answered, found := 0, 0
	final := map[string]int{}
	for _, runs := range []*run{failRun, rollDone} {
		for id, keys := range runs.ok {
			hints := envelopeHints(t, lb.clusterURL, id)
			final[id] = len(hints)
			for _, kp := range keys {
				answered++
				h := kp.Hint()
				if slices.Contains(hints, hex.EncodeToString(h[:])) {
					found++
				} else {
					t.Errorf("plan %s: %s's sign was answered 200 and is not in the final envelope", id[:8], kp.Address())
				}
			}
		}
	}
	report.SignsAnswered, report.SignsFound = answered, found
	// Read-after-sign (CONTRACT section 12): every GET made on every relay
	// right after a 200 carried that sign.
	report.ReadsChecked, report.StaleReads, report.ReadsUnanswered = reads.figures()
	if report.StaleReads > 0 {
		t.Errorf("%d of %d reads right after a 200 missed that sign; first: %s", report.StaleReads, report.ReadsChecked, reads.firstStale())
	}
	if report.ReadsChecked == 0 {
		t.Error("no read-after-sign was checked")
	}
	report.FailureRunStatuses = failRun.statuses()
	report.FailureRunSign = failRun.latencies()
	report.RollingRunStatuses = rollDone.statuses()
	// Losing a relay or a NATS server is the store being unavailable (503)
	// or HAProxy's 502/503, never the relay's 500 INTERNAL.
	for _, runs := range []*run{clusterRun, singleRun, failRun, rollDone} {
		if n := runs.codes["500"]; n > 0 {
			t.Errorf("%d signs answered 500 INTERNAL", n)
		}
	}
	for _, w := range watchers {
		w.awaitSigners(t, final[w.id])
	}
	var reconnects []time.Duration
	for _, w := range watchers {
		w.stop()
		reconnects = append(reconnects, w.reconnects()...)
	}
	report.WatcherReconnects = len(reconnects)
	report.Reconnect = summarize(reconnects)
	if len(reconnects) == 0 {
		t.Error("no watcher had to reconnect: the kill and the rolling restart cut no stream")
	}
	if answered != len(failing)*(signersPerPlan-1)+len(rolling)*(signersPerPlan-1) {
		t.Errorf("%d signs answered 200, want every one of the run's", answered)
	}
	report.log(t)
	if path := os.Getenv("CLUSTER_REPORT"); path != "" {
		b, _ := json.MarshalIndent(report, "", "  ")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Error(err)
		}
	}
}

// figures are the run's numbers, as BENCHMARKS.md shows them.
type figures struct {
	SignsAnswered, SignsFound int
	// ReadsChecked: GETs of a plan made directly on each relay right after
	// a sign of it was answered 200, which answered 200; StaleReads: those
	// without that sign (must be 0); ReadsUnanswered: those that got no
	// 200 (the relay killed or restarting, the store unreachable).
	ReadsChecked, StaleReads, ReadsUnanswered int
	ClusterSign, SingleSign                   latency
	FailureRunSign                            latency
	FailureRunStatuses                        map[string]int
	RollingRunStatuses                        map[string]int
	WatcherReconnects                         int
	Reconnect                                 latency
}

type latency struct {
	N        int
	P50, P99 string
}

func (f *figures) log(t *testing.T) {
	t.Logf("signs answered 200: %d; found in the final envelopes: %d", f.SignsAnswered, f.SignsFound)
	t.Logf("read-after-sign: %d reads checked on every relay right after a 200, %d stale (%d unanswered: relay down or store unreachable)",
		f.ReadsChecked, f.StaleReads, f.ReadsUnanswered)
	t.Logf("sign latency, nothing failing: cluster p50 %s p99 %s (%d signs); single p50 %s p99 %s (%d signs)",
		f.ClusterSign.P50, f.ClusterSign.P99, f.ClusterSign.N, f.SingleSign.P50, f.SingleSign.P99, f.SingleSign.N)
	t.Logf("sign latency during the kill run: p50 %s p99 %s (%d tries); statuses %v; rolling restart statuses %v",
		f.FailureRunSign.P50, f.FailureRunSign.P99, f.FailureRunSign.N, f.FailureRunStatuses, f.RollingRunStatuses)
	t.Logf("watcher reconnects: %d, p50 %s p99 %s", f.WatcherReconnects, f.Reconnect.P50, f.Reconnect.P99)
}

func summarize(ds []time.Duration) latency {
	if len(ds) == 0 {
		return latency{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	at := func(q float64) string {
		return s[min(len(s)-1, int(q*float64(len(s))))].Round(10 * time.Microsecond).String()
	}
	return latency{N: len(s), P50: at(0.50), P99: at(0.99)}
}

// --- the relays -------------------------------------------------------------

// buildRelay builds cmd/closerelay as the deployments run it.
func buildRelay(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "closerelay")
	cmd := exec.Command("go", "build", "-o", out, "github.com/closerelay/closerelay/cmd/closerelay")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	return out
}

// relayProc is one closerelay process on fixed loopback ports, so that a
// restart takes the same place behind the proxy.
type relayProc struct {
	name     string
	bin      string
	env      []string
	api, ops string // host:port
	log      string
	cmd      *exec.Cmd
	exited   chan struct{}
}

func startRelay(t *testing.T, bin, name, horizonURL string, extra map[string]string) *relayProc {
	t.Helper()
	ports := testport.Free(t, 2)
	r := &relayProc{name: name, bin: bin,
		api: fmt.Sprintf("127.0.0.1:%d", ports[0]), ops: fmt.Sprintf("127.0.0.1:%d", ports[1]),
		log: filepath.Join(t.TempDir(), name+".log")}
	env := map[string]string{
		"LISTEN_ADDR": r.api, "OPS_ADDR": r.ops, "RATE_LIMITS": "off", "SHUTDOWN_TIMEOUT": "3s",
		"SSE_HEARTBEAT": "2s", "LOG_LEVEL": "warn", "TRUSTED_PROXY_HOPS": "1",
		"HORIZON_URL_MAINNET": horizonURL, "HORIZON_URL_TESTNET": horizonURL, "HORIZON_URL_FUTURENET": horizonURL,
	}
	for k, v := range extra {
		env[k] = v
	}
	for k, v := range env {
		r.env = append(r.env, k+"="+v)
	}
	r.start(t)
	t.Cleanup(func() {
		if r.cmd != nil {
			r.kill(t)
		}
		if t.Failed() {
			if b, err := os.ReadFile(r.log); err == nil {
				t.Logf("%s log:\n%s", r.name, b)
			}
		}
	})
	return r
}

func (r *relayProc) start(t *testing.T) {
	t.Helper()
	f, err := os.OpenFile(r.log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(r.bin)
	cmd.Env = r.env
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.cmd, r.exited = cmd, make(chan struct{})
	go func() {
		_ = cmd.Wait()
		f.Close()
		close(r.exited)
	}()
}

// kill ends the process with SIGKILL: no drain, no last write.
func (r *relayProc) kill(t *testing.T) {
	t.Helper()
	_ = r.cmd.Process.Kill()
	<-r.exited
	r.cmd = nil
}

// terminate sends SIGTERM and waits for the drain.
func (r *relayProc) terminate(t *testing.T) {
	t.Helper()
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.exited:
	case <-time.After(15 * time.Second):
		t.Fatalf("%s did not exit within 15 s of SIGTERM", r.name)
	}
	if code := r.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("%s exited %d after SIGTERM, want 0", r.name, code)
	}
	r.cmd = nil
}

func (r *relayProc) awaitReady(t *testing.T) {
	t.Helper()
	poll(t, r.name+" ready", 30*time.Second, func() bool {
		resp, err := http.Get("http://" + r.ops + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	})
}

// --- HAProxy ----------------------------------------------------------------

type proxy struct{ clusterURL, singleURL string }

// startHAProxy runs HAProxy in the foreground with deploy/haproxy's
// backend settings (round robin, /readyz checks on the ops port, retries
// of connections only) on loopback ports, with checks fast enough for a
// test: a cluster frontend, and a single-mode one for the baseline.
func startHAProxy(t *testing.T, haproxy string, relays []*relayProc, single *relayProc) *proxy {
	t.Helper()
	ports := testport.Free(t, 2)
	var servers strings.Builder
	for i, r := range relays {
		_, opsPort, _ := net.SplitHostPort(r.ops)
		fmt.Fprintf(&servers, "    server relay-%d %s check port %s\n", i, r.api, opsPort)
	}
	cfg := fmt.Sprintf(`global
    maxconn 4096
defaults
    mode http
    option forwardfor
    timeout connect 2s
    timeout http-request 10s
    timeout client 60s
    timeout server 60s
frontend cluster
    bind 127.0.0.1:%d
    default_backend relays
frontend single
    bind 127.0.0.1:%d
    default_backend single
backend relays
    balance roundrobin
    option httpchk
    http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host closerelay
    http-check expect status 200
    retries 2
    option redispatch 1
    retry-on conn-failure empty-response
    http-request disable-l7-retry unless METH_GET
    default-server inter 300ms fastinter 200ms downinter 300ms fall 2 rise 1
%sbackend single
    server single %s
`, ports[0], ports[1], servers.String(), single.api)
	dir := t.TempDir()
	path := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command(haproxy, "-c", "-f", path).CombinedOutput(); err != nil {
		t.Fatalf("haproxy -c: %v\n%s", err, b)
	}
	logf, err := os.Create(filepath.Join(dir, "haproxy.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(haproxy, "-db", "-f", path)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		logf.Close()
	})
	return &proxy{clusterURL: fmt.Sprintf("http://127.0.0.1:%d", ports[0]), singleURL: fmt.Sprintf("http://127.0.0.1:%d", ports[1])}
}

// await waits until the proxy answers on url with a relay behind it.
func (p *proxy) await(t *testing.T, url string) {
	t.Helper()
	poll(t, "the proxy at "+url, 30*time.Second, func() bool {
		resp, err := http.Get(url + "/api/plan/" + strings.Repeat("0", 64))
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 404
	})
}

// --- the workload -----------------------------------------------------------

var passphrase = network.TestNetworkPassphrase

// plan is a published close and the keys that still have to sign it.
type plan struct {
	id       string
	acct     ledgertest.Account
	partials []string // partials[i] carries Keys[i+1]'s signature
}

// publishPlans publishes n closes, each of an account of signersPerPlan
// signers of weight 1, signed by its first key, through url.
func publishPlans(t *testing.T, url string, horizon *ledgertest.Server, n int, seq int64) []*plan {
	t.Helper()
	dest := keypair.MustRandom().Address()
	plans := make([]*plan, n)
	for i := range n {
		acct := ledgertest.NewAccount(signersPerPlan-1, 1)
		horizon.AddAccount(acct)
		x, hash := ledgertest.BuildClose(acct.Master, dest, seq+int64(i), 0, passphrase, acct.Keys[0])
		unsigned, _ := ledgertest.BuildClose(acct.Master, dest, seq+int64(i), 0, passphrase)
		p := &plan{id: hex.EncodeToString(hash[:]), acct: acct}
		for _, kp := range acct.Keys[1:] {
			p.partials = append(p.partials, ledgertest.AppendSignatures(unsigned, ledgertest.Signature(hash, kp)))
		}
		status, body := post(url+"/api/plan", `{"network":"testnet","xdr":"`+x+`"}`)
		if status != 200 {
			t.Fatalf("publish: %d %s", status, body)
		}
		plans[i] = p
	}
	return plans
}

// run is what a signing run saw.
type run struct {
	mu    sync.Mutex
	tries []time.Duration
	codes map[string]int
	ok    map[string][]*keypair.Full // plan id → keys whose sign was answered 200
}

func (r *run) latencies() latency { return summarize(r.tries) }

func (r *run) statuses() map[string]int { return r.codes }

// signAll signs every plan with every key but the first, concurrency
// signs at a time, each sign tried until it is answered 200 (as a
// co-signer's wallet would). reads, when set, reads the plan on every
// relay right after each 200 and checks that the sign is there. progress,
// when set, is called with the count of signs done after each, from one
// goroutine at a time.
func signAll(t *testing.T, url string, plans []*plan, reads *readChecks, progress func(done int)) *run {
	t.Helper()
	type job struct {
		p *plan
		k int
	}
	jobs := make(chan job)
	r := &run{codes: map[string]int{}, ok: map[string][]*keypair.Full{}}
	var done atomic.Int64
	var progressMu sync.Mutex
	var wg sync.WaitGroup
	deadline := time.Now().Add(2 * time.Minute)
	for range concurrency {
		wg.Go(func() {
			for j := range jobs {
				for {
					start := time.Now()
					status, _ := post(url+"/api/plan/"+j.p.id+"/sign", `{"xdr":"`+j.p.partials[j.k]+`"}`)
					d := time.Since(start)
					r.mu.Lock()
					r.tries = append(r.tries, d)
					r.codes[fmt.Sprint(status)]++
					if status == 200 {
						r.ok[j.p.id] = append(r.ok[j.p.id], j.p.acct.Keys[j.k+1])
					}
					r.mu.Unlock()
					if status == 200 {
						reads.check(j.p.id, j.p.acct.Keys[j.k+1])
						break
					}
					if time.Now().After(deadline) {
						t.Errorf("plan %s key %d: no 200 within 2 minutes (last %d)", j.p.id[:8], j.k+1, status)
						break
					}
					time.Sleep(50 * time.Millisecond) // a wallet's pause before it tries again
				}
				n := int(done.Add(1))
				if progress != nil {
					progressMu.Lock()
					progress(n)
					progressMu.Unlock()
				}
			}
		})
	}
	// Interleave plans so that every instance sees concurrent signs of the
	// same plan.
	for k := range signersPerPlan - 1 {
		for _, p := range plans {
			jobs <- job{p, k}
		}
	}
	close(jobs)
	wg.Wait()
	return r
}

// readChecks reads a plan on every relay, directly rather than through
// the proxy, right after one of them answered a sign 200, and counts the
// answers that lack that sign.
type readChecks struct {
	relays []*relayProc

	mu                         sync.Mutex
	checked, stale, unanswered int
	stales                     []string
}

func (c *readChecks) check(id string, kp *keypair.Full) {
	if c == nil {
		return
	}
	h := kp.Hint()
	hint := hex.EncodeToString(h[:])
	for _, r := range c.relays {
		hints, ok := readHints("http://"+r.api, id)
		c.mu.Lock()
		switch {
		case !ok:
			c.unanswered++
		case slices.Contains(hints, hint):
			c.checked++
		default:
			c.checked++
			c.stale++
			c.stales = append(c.stales, fmt.Sprintf("plan %s on %s without %s (%d signatures)", id[:8], r.name, kp.Address()[:8], len(hints)))
		}
		c.mu.Unlock()
	}
}

func (c *readChecks) figures() (checked, stale, unanswered int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.checked, c.stale, c.unanswered
}

func (c *readChecks) firstStale() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.stales[:min(len(c.stales), 5)], "; ")
}

// readHints GETs the plan at base and lists its envelope's signature hints
// in hex; ok is false when no 200 came (a 404 is a 200 missing everything:
// the plan exists, the sign was answered).
func readHints(base, id string) (hints []string, ok bool) {
	resp, err := client.Get(base + "/api/plan/" + id)
	if err != nil {
		return nil, false
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil, true
	}
	var body struct{ XDR string }
	if resp.StatusCode != 200 || json.NewDecoder(resp.Body).Decode(&body) != nil {
		return nil, false
	}
	env, err := ledger.DecodeEnvelope(body.XDR)
	if err != nil {
		return nil, true
	}
	for _, s := range env.Signatures() {
		hints = append(hints, hex.EncodeToString(s.Hint[:]))
	}
	return hints, true
}

// client is shared by every request of the workload; 0 status means the
// request got no answer.
var client = &http.Client{Timeout: 15 * time.Second}

func post(url, body string) (int, string) {
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// envelopeHints reads the plan's envelope through url and lists its
// signatures' hints in hex.
func envelopeHints(t *testing.T, url, id string) []string {
	t.Helper()
	var body struct{ XDR string }
	poll(t, "GET "+id[:8], 20*time.Second, func() bool {
		resp, err := client.Get(url + "/api/plan/" + id)
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		return resp.StatusCode == 200 && json.NewDecoder(resp.Body).Decode(&body) == nil
	})
	env, err := ledger.DecodeEnvelope(body.XDR)
	if err != nil {
		t.Fatal(err)
	}
	var hints []string
	for _, s := range env.Signatures() {
		hints = append(hints, hex.EncodeToString(s.Hint[:]))
	}
	return hints
}

// --- watchers ----------------------------------------------------------------

// watcher follows one plan's stream through the proxy, reconnecting at once
// whenever the stream ends (an EventSource waits the stream's retry: 2000
// first; the figure here is the relay's part), and records how long each
// reconnect took: from the end of a stream to the first state of the next.
type watcher struct {
	id     string
	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	signers int // in the last state received
	gaps    []time.Duration
}

func watchAll(t *testing.T, url string, plans []*plan) []*watcher {
	t.Helper()
	var ws []*watcher
	for _, p := range plans {
		ctx, cancel := context.WithCancel(context.Background())
		w := &watcher{id: p.id, cancel: cancel, done: make(chan struct{})}
		go w.follow(ctx, url)
		t.Cleanup(w.stop)
		ws = append(ws, w)
	}
	for _, w := range ws {
		w.awaitSigners(t, 1)
	}
	return ws
}

func (w *watcher) follow(ctx context.Context, url string) {
	defer close(w.done)
	var lost time.Time // zero: connected, or never was
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, "GET", url+"/api/plan/"+w.id+"/events", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 200 {
			if resp != nil {
				resp.Body.Close()
			}
			if lost.IsZero() {
				lost = time.Now()
			}
			select {
			case <-ctx.Done():
			case <-time.After(50 * time.Millisecond):
			}
			continue
		}
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
		name := ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: ") && name == "":
				var st struct{ Signers []string }
				if json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &st) == nil {
					w.mu.Lock()
					w.signers = len(st.Signers)
					if !lost.IsZero() {
						w.gaps = append(w.gaps, time.Since(lost))
						lost = time.Time{}
					}
					w.mu.Unlock()
				}
			case line == "":
				name = ""
			}
		}
		resp.Body.Close()
		if ctx.Err() == nil {
			lost = time.Now()
		}
	}
}

func (w *watcher) stop() {
	w.cancel()
	<-w.done
}

func (w *watcher) reconnects() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.gaps)
}

func (w *watcher) awaitSigners(t *testing.T, n int) {
	t.Helper()
	poll(t, fmt.Sprintf("the watcher of %s to reach %d signers", w.id[:8], n), 30*time.Second, func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.signers == n
	})
}

// --- helpers -----------------------------------------------------------------

// poll checks cond until it holds, or fails the test after limit: the
// processes here run on real time.
func poll(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", limit, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
