package server

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/closerelay/closerelay/internal/natstest"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stellar/go-stellar-sdk/keypair"
)

// Cluster mode (CONTRACT section 12) against real NATS servers embedded in
// the test process, with relays on loopback listeners: NATS runs on real
// time and sockets, so these tests wait for events with generous bounds
// rather than run in a synctest bubble.

// clusterRelay is one instance of a cluster.
type clusterRelay struct {
	*Relay
	client *http.Client
}

// startClusterRelay runs a relay in cluster mode on natsURL, reading
// accounts from the shared double h, until the test ends.
func startClusterRelay(t *testing.T, natsURL string, h *ledgertest.Server, env map[string]string) *clusterRelay {
	t.Helper()
	return startClusterRelayWith(t, natsURL, h, env, nil)
}

// startClusterRelayWith is startClusterRelay with tune applied to the
// relay's Options before it starts (nil changes nothing).
func startClusterRelayWith(t *testing.T, natsURL string, h *ledgertest.Server, env map[string]string, tune func(*Options)) *clusterRelay {
	t.Helper()
	all := map[string]string{"NATS_URL": natsURL, "LISTEN_ADDR": "127.0.0.1:0", "OPS_ADDR": "127.0.0.1:0",
		"RATE_LIMITS": "off", "SHUTDOWN_TIMEOUT": "2s", "SSE_HEARTBEAT": "1s"}
	for k, v := range env {
		all[k] = v
	}
	cfg, err := ParseEnv(envOf(all))
	if err != nil {
		t.Fatal(err)
	}
	cfg.HorizonTimeout = 5 * time.Second
	opts := Options{Config: cfg, Ledger: h.Backends()}
	if tune != nil {
		tune(&opts)
	}
	rel, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	r := &clusterRelay{Relay: rel, client: &http.Client{Timeout: 10 * time.Second}}
	t.Cleanup(func() {
		if err := rel.Stop(); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	return r
}

// call sends a JSON request and returns the status and body.
func (r *clusterRelay) call(t *testing.T, method, path, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, r.APIURL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := r.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// must is call that fails the test unless the answer has status and, for
// an error, code.
func (r *clusterRelay) must(t *testing.T, method, path, body string, status int, code string) string {
	t.Helper()
	got, b := r.call(t, method, path, body)
	if got != status {
		t.Fatalf("%s %s: %d, want %d: %.300s", method, path, got, status, b)
	}
	if code != "" {
		var e struct{ Code string }
		if json.Unmarshal([]byte(b), &e); e.Code != code {
			t.Fatalf("%s %s: %.300s, want code %s", method, path, b, code)
		}
	}
	return b
}

func (r *clusterRelay) publish(t *testing.T, xdr string) string {
	t.Helper()
	var ok struct{ ID string }
	if err := json.Unmarshal([]byte(r.must(t, "POST", "/api/plan", `{"network":"testnet","xdr":"`+xdr+`"}`, 200, "")), &ok); err != nil {
		t.Fatal(err)
	}
	return ok.ID
}

func (r *clusterRelay) sign(t *testing.T, id, xdr string) []string {
	t.Helper()
	return signersOf(t, r.must(t, "POST", "/api/plan/"+id+"/sign", `{"xdr":"`+xdr+`"}`, 200, ""))
}

// signers is the G… keys of the signatures the plan's GET answer carries,
// in envelope order (GET answers the envelope only).
func (r *clusterRelay) signers(t *testing.T, id string) []string {
	t.Helper()
	var body struct{ XDR string }
	if err := json.Unmarshal([]byte(r.must(t, "GET", "/api/plan/"+id, "", 200, "")), &body); err != nil {
		t.Fatal(err)
	}
	env, err := ledger.DecodeEnvelope(body.XDR)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, sig := range env.Signatures() {
		keys = append(keys, hex.EncodeToString(sig.Hint[:]))
	}
	return keys
}

// hintOf is the hex of kp's signature hint, as signers lists it.
func hintOf(kp *keypair.Full) string {
	h := kp.Hint()
	return hex.EncodeToString(h[:])
}

func signersOf(t *testing.T, body string) []string {
	t.Helper()
	var st struct{ Signers []string }
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatalf("%v: %.300s", err, body)
	}
	return st.Signers
}

func (r *clusterRelay) ready(t *testing.T) int {
	t.Helper()
	resp, err := r.client.Get(r.OpsURL + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// sseEvent is one event of a stream: its name ("" for a state) and data.
type sseEvent struct {
	name string
	data string
}

// watch opens the plan's stream on r and delivers its events until the test
// ends.
func (r *clusterRelay) watch(t *testing.T, id string) <-chan sseEvent {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", r.APIURL+"/api/plan/"+id+"/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		cancel()
		t.Fatalf("events: %d", resp.StatusCode)
	}
	events := make(chan sseEvent, 64)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				ev.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.data = strings.TrimPrefix(line, "data: ")
			case line == "" && ev.data != "":
				events <- ev
				ev = sseEvent{}
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		resp.Body.Close()
		<-done
	})
	return events
}

// awaitSigners reads events until a state with want signers arrives.
func awaitSigners(t *testing.T, events <-chan sseEvent, want int) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatalf("stream ended before a state with %d signers", want)
			}
			if ev.name == "" && len(signersOf(t, ev.data)) == want {
				return
			}
		case <-timeout:
			t.Fatalf("no state with %d signers within 10 s", want)
		}
	}
}

// awaitExpired reads events until `event: expired`.
func awaitExpired(t *testing.T, events <-chan sseEvent) {
	t.Helper()
	timeout := time.After(15 * time.Second)
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatal("stream ended without event: expired")
			}
			if ev.name == "expired" {
				return
			}
		case <-timeout:
			t.Fatal("no event: expired within 15 s")
		}
	}
}

// awaitStatus polls r's /readyz until it answers status.
func awaitReady(t *testing.T, r *clusterRelay, status int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for r.ready(t) != status {
		if time.Now().After(deadline) {
			t.Fatalf("/readyz never answered %d", status)
		}
		time.Sleep(20 * time.Millisecond) // polling a condition
	}
}

// clusterAccount is an account of n signers of weight 1 on h, and a close
// of it signed by its first key.
func clusterAccount(h *ledgertest.Server, n int) ledgertest.Account {
	a := ledgertest.NewAccount(n-1, 1)
	h.AddAccount(a)
	return a
}

var clusterDest = keypair.MustRandom().Address()

func TestClusterTwoRelaysServeOnePlan(t *testing.T) {
	nats := natstest.Start(t)
	h := ledgertest.New()
	t.Cleanup(h.Close)
	a := startClusterRelay(t, nats.URL, h, nil)
	b := startClusterRelay(t, nats.URL, h, nil)
	acct := clusterAccount(h, 3)

	first, _ := ledgertest.BuildClose(acct.Master, clusterDest, 1, 0, opsPassphrase, acct.Keys[0])
	id := a.publish(t, first)
	watchA, watchB := a.watch(t, id), b.watch(t, id)
	awaitSigners(t, watchA, 1)
	awaitSigners(t, watchB, 1)

	partial, _ := ledgertest.BuildClose(acct.Master, clusterDest, 1, 0, opsPassphrase, acct.Keys[1])
	if got := b.sign(t, id, partial); len(got) != 2 {
		t.Fatalf("sign on B: %d signers, want 2", len(got))
	}
	// A's answer has B's sign, at once: Lookup reads the entry.
	if got := a.signers(t, id); len(got) != 2 || got[1] != hintOf(acct.Keys[1]) {
		t.Fatalf("GET on A after a sign on B: %v", got)
	}
	awaitSigners(t, watchA, 2)
	awaitSigners(t, watchB, 2)

	// The status and ready routes answer from either instance alike.
	for _, r := range []*clusterRelay{a, b} {
		var st struct {
			Weight, Threshold int
			Version           uint64
		}
		if err := json.Unmarshal([]byte(r.must(t, "GET", "/api/plan/"+id+"/status", "", 200, "")), &st); err != nil {
			t.Fatal(err)
		}
		if st.Weight != 2 {
			t.Fatalf("status: %+v, want weight 2", st)
		}
	}
	// A re-publish on B merges into the plan A created.
	third, _ := ledgertest.BuildClose(acct.Master, clusterDest, 1, 0, opsPassphrase, acct.Keys[2])
	if got := b.publish(t, third); got != id {
		t.Fatalf("re-publish on B: id %s, want %s", got, id)
	}
	if got := a.signers(t, id); len(got) != 3 {
		t.Fatalf("GET on A after a re-publish on B: %v", got)
	}
}

func TestClusterConcurrentSignsAllLand(t *testing.T) {
	nats := natstest.Start(t)
	h := ledgertest.New()
	t.Cleanup(h.Close)
	relays := []*clusterRelay{
		startClusterRelay(t, nats.URL, h, nil),
		startClusterRelay(t, nats.URL, h, nil),
		startClusterRelay(t, nats.URL, h, nil),
	}
	acct := clusterAccount(h, 20)
	first, _ := ledgertest.BuildClose(acct.Master, clusterDest, 7, 0, opsPassphrase, acct.Keys[0])
	id := relays[0].publish(t, first)
	watchers := make([]<-chan sseEvent, len(relays))
	for i, r := range relays {
		watchers[i] = r.watch(t, id)
	}
	var wg sync.WaitGroup
	for i := 1; i < 20; i++ {
		partial, _ := ledgertest.BuildClose(acct.Master, clusterDest, 7, 0, opsPassphrase, acct.Keys[i])
		r := relays[i%len(relays)]
		wg.Go(func() {
			if code, body := r.call(t, "POST", "/api/plan/"+id+"/sign", `{"xdr":"`+partial+`"}`); code != 200 {
				t.Errorf("sign %d: %d %.200s", i, code, body)
			}
		})
	}
	wg.Wait()
	for i, r := range relays {
		if got := r.signers(t, id); len(got) != 20 {
			t.Errorf("relay %d holds %d signers, want 20", i, len(got))
		}
		awaitSigners(t, watchers[i], 20)
	}
}

func TestClusterCapacityIsTheCluster(t *testing.T) {
	nats := natstest.Start(t)
	h := ledgertest.New()
	t.Cleanup(h.Close)
	env := map[string]string{"PLANS_PER_ACCOUNT": "500"}
	a := startClusterRelay(t, nats.URL, h, env)
	b := startClusterRelay(t, nats.URL, h, env)
	acct := clusterAccount(h, 2)
	var wg sync.WaitGroup
	for seq := range int64(500) {
		r := []*clusterRelay{a, b}[seq%2]
		x, _ := ledgertest.BuildClose(acct.Master, clusterDest, seq+1, 0, opsPassphrase, acct.Keys[0])
		wg.Go(func() {
			if code, body := r.call(t, "POST", "/api/plan", `{"network":"testnet","xdr":"`+x+`"}`); code != 200 {
				t.Errorf("publish %d: %d %.200s", seq+1, code, body)
			}
		})
		if seq%8 == 7 {
			wg.Wait() // eight publishes in flight at a time
		}
	}
	wg.Wait()
	for _, r := range []*clusterRelay{a, b} {
		x, _ := ledgertest.BuildClose(acct.Master, clusterDest, 501, 0, opsPassphrase, acct.Keys[0])
		r.must(t, "POST", "/api/plan", `{"network":"testnet","xdr":"`+x+`"}`, 400, "CAPACITY")
	}
	// A re-publish of an open plan is a merge, not a new plan: no limit.
	x, _ := ledgertest.BuildClose(acct.Master, clusterDest, 1, 0, opsPassphrase, acct.Keys[1])
	b.must(t, "POST", "/api/plan", `{"network":"testnet","xdr":"`+x+`"}`, 200, "")
}

func TestClusterPlansPerAccountIsTheCluster(t *testing.T) {
	nats := natstest.Start(t)
	h := ledgertest.New()
	t.Cleanup(h.Close)
	a := startClusterRelay(t, nats.URL, h, nil)
	b := startClusterRelay(t, nats.URL, h, nil)
	acct := clusterAccount(h, 2)
	for seq := range int64(5) {
		x, _ := ledgertest.BuildClose(acct.Master, clusterDest, seq+1, 0, opsPassphrase, acct.Keys[0])
		[]*clusterRelay{a, b}[seq%2].publish(t, x)
	}
	x, _ := ledgertest.BuildClose(acct.Master, clusterDest, 6, 0, opsPassphrase, acct.Keys[0])
	body := a.must(t, "POST", "/api/plan", `{"network":"testnet","xdr":"`+x+`"}`, 400, "CAPACITY")
	if !strings.Contains(body, "PLANS_PER_ACCOUNT") {
		t.Errorf("refusal does not name the limit: %s", body)
	}
}

func TestClusterExpirySeenOnEveryInstance(t *testing.T) {
	nats := natstest.Start(t)
	h := ledgertest.New()
	t.Cleanup(h.Close)
	a := startClusterRelay(t, nats.URL, h, nil)
	b := startClusterRelay(t, nats.URL, h, nil)
	acct := clusterAccount(h, 2)
	// maxTime 62 s ahead: the plan expires ExpiryGrace (60 s) before it,
	// at a whole second 2 to 3 s from now.
	x, _ := ledgertest.BuildClose(acct.Master, clusterDest, 1, time.Now().Unix()+62, opsPassphrase, acct.Keys[0])
	id := a.publish(t, x)
	watchA, watchB := a.watch(t, id), b.watch(t, id)
	awaitExpired(t, watchA)
	awaitExpired(t, watchB)
	for _, r := range []*clusterRelay{a, b} {
		r.must(t, "GET", "/api/plan/"+id, "", 404, "NOT_FOUND")
	}
}

func TestClusterStoreDownThenBack(t *testing.T) {
	nats := natstest.Start(t)
	h := ledgertest.New()
	t.Cleanup(h.Close)
	r := startClusterRelay(t, nats.URL, h, nil)
	acct := clusterAccount(h, 3)
	first, _ := ledgertest.BuildClose(acct.Master, clusterDest, 1, 0, opsPassphrase, acct.Keys[0])
	id := r.publish(t, first)
	if got := r.ready(t); got != 200 {
		t.Fatalf("/readyz %d with NATS up", got)
	}

	nats.Shutdown()
	awaitReady(t, r, 503)
	another, _ := ledgertest.BuildClose(acct.Master, clusterDest, 2, 0, opsPassphrase, acct.Keys[0])
	r.must(t, "POST", "/api/plan", `{"network":"testnet","xdr":"`+another+`"}`, 400, "UNAVAILABLE")
	r.must(t, "POST", "/api/plan", `{"network":"testnet","xdr":"`+first+`"}`, 400, "UNAVAILABLE")
	for _, path := range []string{"/api/plan/" + id, "/api/plan/" + id + "/status", "/api/plan/" + id + "/ready", "/api/plan/" + id + "/sep7"} {
		r.must(t, "GET", path, "", 503, "UNAVAILABLE")
	}
	// The plan page says so too, as a 503 page (it answered 500 and
	// logged an ERROR).
	if code, body := r.call(t, "GET", "/plan/"+id, ""); code != 503 || !strings.Contains(body, "Temporarily unavailable") {
		t.Fatalf("the plan page while NATS is down: %d %.200q, want the 503 page", code, body)
	}
	partial, _ := ledgertest.BuildClose(acct.Master, clusterDest, 1, 0, opsPassphrase, acct.Keys[1])
	r.must(t, "POST", "/api/plan/"+id+"/sign", `{"xdr":"`+partial+`"}`, 503, "UNAVAILABLE")
	if code, body := r.call(t, "GET", "/api/plan/"+id+"/events", ""); code != 503 || strings.HasPrefix(body, "{") {
		t.Fatalf("events while NATS is down: %d %q, want a plain-text 503", code, body)
	}

	// NATS comes back empty (memory storage, one server): the relay
	// recovers without a restart, and the plan it holds is written again
	// by its next change.
	nats.Restart()
	awaitReady(t, r, 200)
	r.publish(t, another)
	if got := r.sign(t, id, partial); len(got) != 2 {
		t.Fatalf("sign after recovery: %d signers, want 2", len(got))
	}
	b := startClusterRelay(t, nats.URL, h, nil)
	if got := b.signers(t, id); len(got) != 2 {
		t.Fatalf("a new instance reads %d signers after recovery, want 2", len(got))
	}
}

func TestClusterFileBucketRefusedAtStart(t *testing.T) {
	nats := natstest.Start(t)
	h := ledgertest.New()
	t.Cleanup(h.Close)
	makeFileBucket(t, nats.URL, "ondisk")
	cfg, err := ParseEnv(envOf(map[string]string{"NATS_URL": nats.URL, "NATS_BUCKET": "ondisk",
		"LISTEN_ADDR": "127.0.0.1:0", "OPS_ADDR": "127.0.0.1:0"}))
	if err != nil {
		t.Fatal(err)
	}
	cfg.HorizonTimeout = time.Second
	_, err = Start(Options{Config: cfg, Ledger: h.Backends()})
	var cerr *ConfigError
	if !asConfigError(err, &cerr) || cerr.Variable != "NATS_BUCKET" {
		t.Fatalf("start on a file bucket: %v, want a NATS_BUCKET configuration error", err)
	}
}

func TestClusterConfig(t *testing.T) {
	for _, c := range []struct {
		env     map[string]string
		problem string
	}{
		{map[string]string{"NATS_URL": "http://127.0.0.1:4222"}, "NATS_URL"},
		{map[string]string{"NATS_URL": "nats://user:secret@"}, "NATS_URL"},
		{map[string]string{"NATS_BUCKET": "a.b"}, "NATS_BUCKET"},
		{map[string]string{"NATS_REPLICAS": "0"}, "NATS_REPLICAS"},
		{map[string]string{"NATS_REPLICAS": "6"}, "NATS_REPLICAS"},
	} {
		_, err := ParseEnv(envOf(c.env))
		if err == nil || !strings.HasPrefix(err.Error(), c.problem+":") {
			t.Errorf("%v: %v, want an error naming %s", c.env, err, c.problem)
		}
		if strings.Contains(fmt.Sprint(err), "secret") {
			t.Errorf("%v: the error shows the credentials: %v", c.env, err)
		}
	}
	cfg, err := ParseEnv(envOf(map[string]string{"NATS_URL": "nats://a:4222, nats://b:4222", "NATS_REPLICAS": "3"}))
	if err != nil || len(cfg.NATSURLs) != 2 || cfg.NATSBucket != "closerelay_plans" || cfg.NATSReplicas != 3 {
		t.Fatalf("%+v, %v", cfg, err)
	}
	if d := Defaults(); d.NATSURLs != nil || d.NATSReplicas != 1 {
		t.Fatalf("defaults: %+v: single mode with 1 replica", d)
	}
}

func asConfigError(err error, target **ConfigError) bool { return errors.As(err, target) }

// makeFileBucket creates a key-value bucket with file storage, as an
// operator might by mistake.
func makeFileBucket(t *testing.T, url, bucket string) {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateKeyValue(context.Background(), jetstream.KeyValueConfig{Bucket: bucket, Storage: jetstream.FileStorage}); err != nil {
		t.Fatal(err)
	}
}

// gauge is the value of the unlabelled gauge name in r's registry, and
// whether the scrape had it.
func (r *clusterRelay) gauge(t *testing.T, name string) (float64, bool) {
	t.Helper()
	mfs, err := r.Metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			return mf.GetMetric()[0].GetGauge().GetValue(), true
		}
	}
	return 0, false
}

// TestClusterPlansOpenIsTheCluster: closerelay_cluster_plans_open is the
// cluster's count on every instance (closerelay_plans_open stays what the
// instance holds), and is left out of a scrape while NATS is unreachable.
func TestClusterPlansOpenIsTheCluster(t *testing.T) {
	nats := natstest.Start(t)
	h := ledgertest.New()
	t.Cleanup(h.Close)
	a := startClusterRelay(t, nats.URL, h, nil)
	b := startClusterRelay(t, nats.URL, h, nil)
	acct := clusterAccount(h, 2)
	for seq, r := range []*clusterRelay{a, b, b} {
		x, _ := ledgertest.BuildClose(acct.Master, clusterDest, int64(seq+1), 0, opsPassphrase, acct.Keys[0])
		r.publish(t, x)
	}
	for _, c := range []struct {
		name       string
		r          *clusterRelay
		held, open float64
	}{{"A", a, 1, 3}, {"B", b, 2, 3}} {
		if got, _ := c.r.gauge(t, "closerelay_plans_open"); got != c.held {
			t.Errorf("%s: closerelay_plans_open %g, want %g", c.name, got, c.held)
		}
		if got, ok := c.r.gauge(t, "closerelay_cluster_plans_open"); !ok || got != c.open {
			t.Errorf("%s: closerelay_cluster_plans_open %g (present %v), want %g", c.name, got, ok, c.open)
		}
	}
	nats.Shutdown()
	awaitReady(t, a, 503)
	if got, ok := a.gauge(t, "closerelay_cluster_plans_open"); ok {
		t.Errorf("closerelay_cluster_plans_open %g while NATS is down, want no series", got)
	}
}
