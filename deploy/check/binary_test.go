package check

import (
	"context"
	"debug/elf"
	"errors"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// TestBinaryServesProbesAndMetrics builds closerelay the way the
// Containerfile does (or takes CLOSERELAY_BIN, e.g. a binary copied out of
// the image), checks that it is static, runs it on loopback ports (as the
// image's non-root user when the test runs as root), and checks what the
// manifests rely on: /healthz and /readyz on the ops port, every metric the
// dashboard and alerts may name present in /metrics with the expected labels,
// and a clean exit on SIGTERM well within the grace periods.
func TestBinaryServesProbesAndMetrics(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the service")
	}
	bin := relayBinary(t)
	checkStatic(t, bin)

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	relay := startRelay(t, ctx, bin)
	api, ops := relay.api, relay.ops
	dumpLog := func() { relay.dumpLog(t) }

	client := &http.Client{Timeout: 5 * time.Second}
	get := func(method, url, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, url, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}

	// The probes the Deployment configures, on the ops port.
	for _, p := range []string{"/healthz", "/readyz"} {
		if code, body := get(http.MethodGet, ops+p, ""); code != http.StatusOK {
			t.Errorf("GET %s on the ops port: %d %s", p, code, body)
		}
	}
	// Nothing of the ops listener on the API port.
	if code, _ := get(http.MethodGet, api+"/metrics", ""); code == http.StatusOK {
		t.Error("the API port serves /metrics; it must stay on the ops port")
	}

	// A few requests so the HTTP middleware's series exist, the sign route's
	// among them (the dashboard's sign-latency panel selects it).
	id := strings.Repeat("ab", 32)
	for _, r := range []struct{ method, path, body string }{
		{http.MethodPost, "/api/plan/" + id + "/sign", `{"xdr":"AAAA"}`},
		{http.MethodGet, "/api/plan/" + id, ""},
		{http.MethodGet, "/api/plan/" + id + "/ready", ""},
		{http.MethodGet, "/api/plan/" + id + "/status", ""},
		{http.MethodPost, "/api/plan", `{}`},
		{http.MethodGet, "/api/mediator/sign?destination=nope", ""},
	} {
		if code, body := get(r.method, api+r.path, r.body); code < 400 || code >= 500 {
			t.Errorf("%s %s: want a 4xx answer, got %d %s", r.method, r.path, code, body)
		}
	}

	code, body := get(http.MethodGet, ops+"/metrics", "")
	if code != http.StatusOK {
		t.Fatalf("GET /metrics: %d", code)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("parsing /metrics: %v", err)
	}
	scraped := map[string]metricInfo{}
	for name, mf := range mfs {
		scraped[name] = familyInfo(mf)
	}
	for _, list := range []map[string]metricInfo{serviceMetrics, httpMetrics, startMetrics, runtimeMetrics} {
		for name, want := range list {
			got, ok := scraped[name]
			if !ok {
				t.Errorf("/metrics lacks %s", name)
			} else if !sameInfo(got, want) {
				t.Errorf("/metrics %s: %v %v, test lists %v %v", name, got.typ, got.labels, want.typ, want.labels)
			}
		}
	}
	for name := range scraped {
		if strings.HasPrefix(name, "closerelay_") {
			_, service := serviceMetrics[name]
			_, event := eventMetrics[name]
			_, fromHTTP := httpMetrics[name]
			_, build := startMetrics[name]
			if !service && !event && !fromHTTP && !build {
				t.Errorf("/metrics has %s, which this test's lists lack: add it", name)
			}
		}
	}
	signSeen := false
	if mf := mfs["closerelay_http_request_duration_seconds"]; mf != nil {
		for _, m := range mf.GetMetric() {
			l := map[string]string{}
			for _, lp := range m.GetLabel() {
				l[lp.GetName()] = lp.GetValue()
			}
			if l["host"] != "" {
				t.Errorf("http metrics carry host=%q: the client-chosen Host header would explode series", l["host"])
			}
			if l["url"] == "/api/plan/:id/sign" && l["method"] == http.MethodPost {
				signSeen = true
			}
			if strings.Contains(l["url"], id) {
				t.Errorf("http metrics label url=%q carries a plan id: label by route template", l["url"])
			}
		}
	}
	if !signSeen {
		t.Error(`no closerelay_http_request_duration_seconds{method="POST", url="/api/plan/:id/sign"} series after a sign request`)
	}

	// SIGTERM: drain and exit 0, well within TimeoutStopSec (20 s) and the
	// pod's grace period (30 s, of which preStop takes 5).
	start := time.Now()
	if err := relay.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-relay.exited:
		var ee *exec.ExitError
		if errors.As(err, &ee) || err != nil {
			dumpLog()
			t.Errorf("exit after SIGTERM: %v", err)
		}
		t.Logf("drained and exited in %v after SIGTERM", time.Since(start).Round(time.Millisecond))
	case <-time.After(20 * time.Second):
		dumpLog()
		t.Fatal("still running 20 s after SIGTERM: systemd would SIGKILL it")
	}
}

// checkStatic fails unless the binary is a static ELF: no interpreter and no
// shared libraries, as distroless/static and scratch require.
func checkStatic(t *testing.T, bin string) {
	t.Helper()
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("%s has a dynamic loader (PT_INTERP): build with CGO_ENABLED=0", bin)
		}
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		t.Errorf("%s links shared libraries %v", bin, libs)
	}
	if f.Section(".symtab") != nil {
		t.Errorf("%s keeps its symbol table: build with -ldflags \"-s -w\"", bin)
	}
}
