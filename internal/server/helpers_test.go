package server

import (
	"context"
	"encoding/json"
	"io"
	"maps"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/internal/memlisten"
	"github.com/closerelay/closerelay/internal/syncbuf"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
)

// The helpers the test files of this package share: a relay in a synctest
// bubble, requests to it, and a scrape of its ops listener.

// envOf is a getenv that reads kv.
func envOf(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

// opsPassphrase is the network every test's closes are built for.
const opsPassphrase = network.TestNetworkPassphrase

// opsRelay is a relay from Start inside a synctest bubble: both listeners are
// in memory, so the bubble's clock can carry plans to their expiry, and the
// account API is the ledgertest double in process. Create it in the bubble.
type opsRelay struct {
	api, ops *http.Client
	// dialAPI and dialOps open raw connections, for clients that speak
	// HTTP by hand (one that stalls half-way, say).
	dialAPI, dialOps func(ctx context.Context, network, addr string) (net.Conn, error)
	horizon          *ledgertest.Handler
	acct             ledgertest.Account
	secret           string
	logs             *syncbuf.Buffer
	cancel           context.CancelFunc
	served           chan error
}

func startOpsRelay(t *testing.T, extraEnv map[string]string) *opsRelay {
	t.Helper()
	h := ledgertest.NewHandler()
	acct := ledgertest.NewAccount(2, 1)
	h.AddAccount(acct)
	secret := keypair.MustRandom().Seed()
	env := map[string]string{"MEDIATOR_SECRET": secret, "SHUTDOWN_TIMEOUT": "5s"}
	maps.Copy(env, extraEnv)
	cfg, err := ParseEnv(envOf(env))
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncbuf.Buffer{}
	cfg.LogFormat = "json"
	cfg.HorizonTimeout = 5 * time.Second
	apiLn, opsLn := memlisten.New(), memlisten.New()
	rel, err := Start(Options{
		Config: cfg, Listener: apiLn, OpsListener: opsLn,
		Ledger: h.Backends(), Log: NewLogger(cfg, logs),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &opsRelay{
		api: apiLn.Client(), ops: opsLn.Client(), dialAPI: apiLn.Dial, dialOps: opsLn.Dial, horizon: h, acct: acct,
		secret: secret, logs: logs, cancel: cancel, served: make(chan error, 1),
	}
	// cancel is SIGTERM: the relay drains, and served gets what Stop says.
	go func() {
		<-ctx.Done()
		r.served <- rel.Stop()
	}()
	// Cleanups registered in the bubble run in it, so a test that fails
	// half-way still leaves no goroutine behind.
	t.Cleanup(func() { r.stop(t) })
	return r
}

// stop drains the relay the way SIGTERM does and waits for Stop to return;
// it may be called again.
func (r *opsRelay) stop(t *testing.T) {
	t.Helper()
	r.cancel()
	if r.served != nil {
		if err := <-r.served; err != nil {
			t.Errorf("serve: %v", err)
		}
		r.served = nil
	}
	r.api.CloseIdleConnections()
	r.ops.CloseIdleConnections()
}

// do sends one API request as client ip (the X-Forwarded-For entry the one
// trusted proxy of the default TRUSTED_PROXY_HOPS=1 would write).
func (r *opsRelay) do(t *testing.T, ip, method, path, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, "http://relay.test"+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Forwarded-For", ip)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := r.api.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, path, err)
	}
	return resp.StatusCode, string(b)
}

// must sends a request and fails the test unless it answers status, and,
// for a JSON error, unless its code is code.
func (r *opsRelay) must(t *testing.T, ip, method, path, body string, status int, code string) string {
	t.Helper()
	got, b := r.do(t, ip, method, path, body)
	if got != status {
		t.Fatalf("%s %s: status %d, want %d: %.300s", method, path, got, status, b)
	}
	if code != "" {
		var e struct{ Code string }
		if err := json.Unmarshal([]byte(b), &e); err != nil || e.Code != code {
			t.Fatalf("%s %s: body %.300s, want code %s", method, path, b, code)
		}
	}
	return b
}

// opsScrape reads /metrics from the ops listener, as Prometheus would.
func opsScrape(t *testing.T, ops *http.Client) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := ops.Get("http://ops.test/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %d", resp.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parsing /metrics: %v", err)
	}
	return mfs
}
