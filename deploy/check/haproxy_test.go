package check

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/closerelay/closerelay/internal/testport"
)

// haSection is one section of an HAProxy configuration: its keyword
// (global, defaults, frontend, backend, ...), its name, and its lines split
// into words, comments dropped.
type haSection struct {
	kind, name string
	lines      [][]string
}

var haSectionKinds = []string{"global", "defaults", "frontend", "backend", "listen", "resolvers", "peers", "userlist", "mailers", "program", "http-errors", "ring", "cache", "log-forward"}

func parseHAProxy(src string) ([]*haSection, error) {
	var out []*haSection
	for i, raw := range strings.Split(src, "\n") {
		line := raw
		if j := strings.IndexByte(line, '#'); j >= 0 {
			line = line[:j]
		}
		words := strings.Fields(line)
		if len(words) == 0 {
			continue
		}
		if slices.Contains(haSectionKinds, words[0]) && !strings.HasPrefix(raw, " ") && !strings.HasPrefix(raw, "\t") {
			s := &haSection{kind: words[0]}
			if len(words) > 1 {
				s.name = words[1]
			}
			out = append(out, s)
			continue
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("line %d: %q outside any section", i+1, strings.TrimSpace(raw))
		}
		out[len(out)-1].lines = append(out[len(out)-1].lines, words)
	}
	return out, nil
}

// find returns the lines of s starting with the given words.
func (s *haSection) find(prefix ...string) [][]string {
	var out [][]string
	for _, l := range s.lines {
		if len(l) >= len(prefix) && slices.Equal(l[:len(prefix)], prefix) {
			out = append(out, l)
		}
	}
	return out
}

// haConfig is the parsed shipped configuration with the parts the relay
// depends on picked out: the public frontend, its backend, and the defaults
// section both inherit from.
type haConfig struct {
	sections          []*haSection
	global, defaults  *haSection
	frontend, backend *haSection
}

// tester is what the HAProxy checks need of *testing.T, so that
// TestHAProxyConfigCatchesMistakes can run them on broken copies.
type tester interface {
	Helper()
	Error(args ...any)
	Errorf(format string, args ...any)
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

func loadHAProxySource(t tester, src string) *haConfig {
	t.Helper()
	secs, err := parseHAProxy(src)
	if err != nil {
		t.Fatal(err)
	}
	c := &haConfig{sections: secs}
	for _, s := range secs {
		switch s.kind {
		case "global":
			c.global = s
		case "defaults":
			if c.defaults != nil {
				t.Fatal("haproxy.cfg: more than one defaults section; this check reads one")
			}
			c.defaults = s
		}
	}
	if c.global == nil || c.defaults == nil {
		t.Fatal("haproxy.cfg: want a global and a defaults section")
	}
	// The public frontend: the one that binds beyond loopback.
	for _, s := range secs {
		if s.kind != "frontend" {
			continue
		}
		public := false
		for _, b := range s.find("bind") {
			if len(b) > 1 && !strings.HasPrefix(b[1], "127.") && !strings.HasPrefix(b[1], "[::1]") {
				public = true
			}
		}
		if !public {
			continue
		}
		if c.frontend != nil {
			t.Fatalf("haproxy.cfg: two public frontends, %s and %s", c.frontend.name, s.name)
		}
		c.frontend = s
	}
	if c.frontend == nil {
		t.Fatal("haproxy.cfg: no frontend binds a public address")
	}
	db := c.frontend.find("default_backend")
	if len(db) != 1 || len(db[0]) != 2 {
		t.Fatalf("frontend %s: want one default_backend", c.frontend.name)
	}
	for _, s := range secs {
		if s.kind == "backend" && s.name == db[0][1] {
			c.backend = s
		}
	}
	if c.backend == nil {
		t.Fatalf("no backend %s", db[0][1])
	}
	if uses := c.frontend.find("use_backend"); len(uses) > 0 {
		t.Errorf("frontend %s: use_backend sends some requests elsewhere; this check covers only the default backend", c.frontend.name)
	}
	return c
}

// effective is the last line with the given prefix in the proxy section,
// else in defaults (a proxy section's setting replaces the default's).
func (c *haConfig) effective(proxy *haSection, prefix ...string) []string {
	for _, s := range []*haSection{proxy, c.defaults} {
		if l := s.find(prefix...); len(l) > 0 {
			return l[len(l)-1]
		}
	}
	return nil
}

// option reports whether "option name" is in effect for the proxy: set in
// it or in defaults, and not undone with "no option name" in it.
func (c *haConfig) option(proxy *haSection, name string) bool {
	if len(proxy.find("no", "option", name)) > 0 {
		return false
	}
	return len(proxy.find("option", name)) > 0 || len(c.defaults.find("option", name)) > 0
}

// haDuration reads an HAProxy time: milliseconds unless suffixed with us,
// ms, s, m, h or d.
func haDuration(v string) (time.Duration, error) {
	m := regexp.MustCompile(`^(\d+)(us|ms|s|m|h|d)?$`).FindStringSubmatch(v)
	if m == nil {
		return 0, fmt.Errorf("time %q not understood", v)
	}
	n, _ := strconv.ParseInt(m[1], 10, 64)
	unit := map[string]time.Duration{"": time.Millisecond, "us": time.Microsecond, "ms": time.Millisecond, "s": time.Second, "m": time.Minute, "h": time.Hour, "d": 24 * time.Hour}[m[2]]
	return time.Duration(n) * unit, nil
}

func (c *haConfig) timeout(t tester, proxy *haSection, name string) time.Duration {
	t.Helper()
	l := c.effective(proxy, "timeout", name)
	if len(l) != 3 {
		t.Errorf("timeout %s is not set for %s %s", name, proxy.kind, proxy.name)
		return 0
	}
	d, err := haDuration(l[2])
	if err != nil {
		t.Error(err)
	}
	return d
}

// haServer is a server or server-template line with the default-server
// parameters applied (a server's own parameters win).
type haServer struct {
	name, addr string
	count      int // 1, or the number a server-template creates
	params     map[string]string
	flags      []string
}

// serverFlags are the server parameters that take no value (the common
// ones); every other parameter is followed by its value.
var serverFlags = []string{
	"check", "no-check", "backup", "disabled", "enabled", "ssl", "no-ssl", "check-ssl",
	"send-proxy", "send-proxy-v2", "check-send-proxy", "agent-check", "non-stick",
	"tfo", "allow-0rtt", "no-tls-tickets", "ssl-reuse", "no-ssl-reuse",
}

func parseServerParams(words []string, params map[string]string, flags *[]string) {
	for i := 0; i < len(words); i++ {
		if slices.Contains(serverFlags, words[i]) {
			*flags = append(*flags, words[i])
			continue
		}
		if i+1 < len(words) {
			params[words[i]] = words[i+1]
			i++
		}
	}
}

func (c *haConfig) servers(t tester) []haServer {
	t.Helper()
	defParams, defFlags := map[string]string{}, []string{}
	for _, s := range []*haSection{c.defaults, c.backend} {
		for _, l := range s.find("default-server") {
			parseServerParams(l[1:], defParams, &defFlags)
		}
	}
	var out []haServer
	for _, l := range c.backend.lines {
		var s haServer
		var rest []string
		switch {
		case l[0] == "server" && len(l) >= 3:
			s, rest = haServer{name: l[1], addr: l[2], count: 1}, l[3:]
		case l[0] == "server-template" && len(l) >= 4:
			s, rest = haServer{name: l[1], addr: l[3]}, l[4:]
			lo, hi, isRange := strings.Cut(l[2], "-")
			a, err1 := strconv.Atoi(lo)
			b, err2 := strconv.Atoi(hi)
			switch {
			case !isRange && err1 == nil:
				s.count = a
			case isRange && err1 == nil && err2 == nil:
				s.count = b - a + 1
			default:
				t.Errorf("server-template %s: count %q not understood", l[1], l[2])
			}
		default:
			continue
		}
		s.params = map[string]string{}
		for k, v := range defParams {
			s.params[k] = v
		}
		s.flags = slices.Clone(defFlags)
		parseServerParams(rest, s.params, &s.flags)
		out = append(out, s)
	}
	return out
}

// TestHAProxyConfig checks what the relay depends on in
// deploy/haproxy/haproxy.cfg; `haproxy -c` (deploy/check.sh) checks that
// HAProxy accepts it, TestHAProxyFrontsRelays that it behaves.
func TestHAProxyConfig(t *testing.T) {
	checkHAProxy(t, string(readFile(t, deployPath("haproxy", "haproxy.cfg"))), serviceDefaults(t))
}

// checkHAProxy checks one configuration against the service defaults
// (internal/server/config.go).
func checkHAProxy(t tester, src string, defaults map[string]string) {
	t.Helper()
	c := loadHAProxySource(t, src)
	be, fe := c.backend, c.frontend

	for _, s := range []*haSection{fe, be} {
		if m := c.effective(s, "mode"); len(m) != 2 || m[1] != "http" {
			t.Errorf("%s %s: mode %v, want http (health checks on /readyz, X-Forwarded-For, per-method retries)", s.kind, s.name, m)
		}
	}
	if b := c.effective(be, "balance"); len(b) != 2 || b[1] != "roundrobin" {
		t.Errorf("backend %s: balance %v, want roundrobin: any instance answers any plan", be.name, b)
	}

	// The health check: GET /readyz, answered 200 only while the instance
	// can serve (503 while draining or without NATS).
	if !c.option(be, "httpchk") {
		t.Fatalf("backend %s: no option httpchk: a TCP check passes on an instance that cannot reach NATS", be.name)
	}
	method, uri := "OPTIONS", "/"
	if l := c.effective(be, "option", "httpchk"); len(l) >= 4 {
		method, uri = l[2], l[3]
	} else if len(l) == 3 {
		uri = l[2]
	}
	for _, l := range be.find("http-check", "send") {
		for i := 2; i+1 < len(l); i++ {
			switch l[i] {
			case "meth":
				method = l[i+1]
			case "uri":
				uri = l[i+1]
			}
		}
	}
	if method != "GET" || uri != "/readyz" {
		t.Errorf("backend %s: health check is %s %s, want GET /readyz", be.name, method, uri)
	}
	for _, l := range be.find("http-check", "expect") {
		if !slices.Equal(l[2:], []string{"status", "200"}) {
			t.Errorf("backend %s: %s: /readyz means ready by 200 exactly", be.name, strings.Join(l, " "))
		}
	}

	// Servers: the API port for traffic, the ops port for the check, and an
	// address that may be a name unresolvable at start.
	api := portOf(t, "LISTEN_ADDR", defaults["LISTEN_ADDR"])
	ops := portOf(t, "OPS_ADDR", defaults["OPS_ADDR"])
	servers := c.servers(t)
	if len(servers) == 0 {
		t.Fatalf("backend %s has no server", be.name)
	}
	instances := 0
	for _, s := range servers {
		instances += s.count
		host, port, err := net.SplitHostPort(s.addr)
		if err != nil || port != api {
			t.Errorf("server %s: address %s, want the API port %s", s.name, s.addr, api)
		}
		if !slices.Contains(s.flags, "check") || slices.Contains(s.flags, "no-check") {
			t.Errorf("server %s: not health-checked", s.name)
		}
		if s.params["port"] != ops {
			t.Errorf("server %s: checked on port %q, want the ops port %s (/readyz is not on the API port)", s.name, s.params["port"], ops)
		}
		if net.ParseIP(host) == nil {
			if s.params["resolvers"] == "" {
				t.Errorf("server %s: %s is a name but no resolvers follow it at run time", s.name, host)
			}
			if !slices.Contains(strings.Split(s.params["init-addr"], ","), "none") {
				t.Errorf("server %s: init-addr %q lacks none: HAProxy would refuse to start while %s does not resolve", s.name, s.params["init-addr"], host)
			}
		}
	}

	// The client address: appended by this proxy, the one hop the relay's
	// TRUSTED_PROXY_HOPS=1 trusts.
	if !c.option(fe, "forwardfor") && !c.option(be, "forwardfor") {
		t.Error("option forwardfor is off: every client would share the proxy's address for the rate limits")
	}
	for _, s := range []*haSection{c.defaults, fe, be} {
		for _, l := range s.find("option", "forwardfor") {
			if slices.Contains(l, "if-none") {
				t.Errorf("%s %s: forwardfor if-none keeps a client's own X-Forwarded-For as the only entry: forgeable", s.kind, s.name)
			}
		}
	}
	if defaults["TRUSTED_PROXY_HOPS"] != "1" {
		t.Errorf("the relay's default TRUSTED_PROXY_HOPS is %q; haproxy.cfg's header assumes 1", defaults["TRUSTED_PROXY_HOPS"])
	}

	// Timeouts against the event streams: the relay writes a heartbeat every
	// SSE_HEARTBEAT; an idle stream must outlive a lost one.
	hb, err := time.ParseDuration(defaults["SSE_HEARTBEAT"])
	if err != nil {
		t.Fatal(err)
	}
	server, client := c.timeout(t, be, "server"), c.timeout(t, fe, "client")
	for name, d := range map[string]time.Duration{"server": server, "client": client} {
		if d <= 2*hb {
			t.Errorf("timeout %s %v must exceed twice SSE_HEARTBEAT (%v): idle event streams would be cut", name, d, hb)
		}
	}
	if tun := c.timeout(t, be, "tunnel"); tun < server {
		t.Errorf("timeout tunnel %v below timeout server %v", tun, server)
	}
	if hr := c.timeout(t, fe, "http-request"); hr > 10*time.Second {
		t.Errorf("timeout http-request %v: the relay gives a request 10 s (CONTRACT section 9)", hr)
	}
	c.timeout(t, be, "connect")

	// Retries: a failed connection carried no request and may go to another
	// instance whatever the method; anything later only for GET and HEAD.
	if r := c.effective(be, "retries"); len(r) == 2 && r[1] != "0" && !c.option(be, "redispatch") {
		t.Error("retries without option redispatch retry the instance that just failed")
	}
	retryOn := []string{"conn-failure"} // HAProxy's default
	if l := c.effective(be, "retry-on"); l != nil {
		retryOn = l[1:]
	}
	l7 := slices.DeleteFunc(slices.Clone(retryOn), func(k string) bool { return k == "conn-failure" || k == "none" })
	if len(l7) > 0 {
		guarded := false
		for _, s := range []*haSection{fe, be} {
			for _, l := range s.find("http-request", "disable-l7-retry") {
				if slices.Equal(l[2:], []string{"unless", "METH_GET"}) || slices.Equal(l[2:], []string{"if", "!METH_GET"}) {
					guarded = true
				}
			}
		}
		if !guarded {
			t.Errorf("retry-on %v replays requests that reached a relay, POST included: add http-request disable-l7-retry unless METH_GET", retryOn)
		}
		for _, k := range l7 {
			if _, err := strconv.Atoi(k); err == nil || k == "all-retryable-errors" {
				t.Errorf("retry-on %s: a status is the relay's answer (503 at the subscriber cap or without the store); retrying it elsewhere multiplies the load", k)
			}
		}
	}

	// Event streams must flow as written.
	for _, s := range c.sections {
		for _, l := range s.find("compression") {
			t.Errorf("%s %s: %s: compressing text/event-stream holds events back", s.kind, s.name, strings.Join(l, " "))
		}
	}

	// Reloads: old processes keep their streams until cut.
	if len(c.global.find("hard-stop-after")) == 0 {
		t.Error("global: no hard-stop-after: after each reload the old process lives as long as its longest event stream")
	}

	// Capacity: 25,000 streams per instance (500 plans x 50 subscribers).
	if mc := c.global.find("maxconn"); len(mc) == 0 {
		t.Error("global: no maxconn; HAProxy's default follows the descriptor limit, often 1024")
	} else if n, err := strconv.Atoi(mc[len(mc)-1][1]); err != nil || n < instances*25000 {
		t.Errorf("global maxconn %s below %d instances x 25,000 event streams", mc[len(mc)-1][1], instances)
	}
}

// portOf is the port of a listen address such as ":8080".
func portOf(t tester, name, addr string) string {
	t.Helper()
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatalf("%s default %q: %v", name, addr, err)
	}
	return port
}

// TestHAProxyConfigCatchesMistakes guards the guard with broken copies of
// the shipped file.
func TestHAProxyConfigCatchesMistakes(t *testing.T) {
	good := string(readFile(t, deployPath("haproxy", "haproxy.cfg")))
	defaults := serviceDefaults(t)
	// The harness itself: the shipped file passes through it.
	ok := &fakeT{}
	checkHAProxy(ok, good, defaults)
	if ok.failed {
		t.Fatal("the shipped file fails the check; see TestHAProxyConfig")
	}
	for name, edit := range map[string][2]string{
		"health check on /healthz": {"uri /readyz", "uri /healthz"},
		"short server timeout":     {"timeout server 60s", "timeout server 30s"},
		"POST replayed":            {"http-request disable-l7-retry unless METH_GET\n", "\n"},
		"no forwardfor":            {"option forwardfor\n", "\n"},
		"check on the API port":    {"check port 9090", "check port 8080"},
		"startup needs DNS":        {"init-addr last,libc,none", "init-addr last,libc"},
		"503 retried":              {"retry-on conn-failure empty-response", "retry-on conn-failure empty-response 503"},
		"compression":              {"    balance roundrobin\n", "    balance roundrobin\n    compression algo gzip\n"},
		"no stop bound on reload":  {"    hard-stop-after 5m\n", "\n"},
	} {
		bad := strings.Replace(good, edit[0], edit[1], 1)
		if bad == good {
			t.Fatalf("%s: %q not in haproxy.cfg; update this test", name, edit[0])
		}
		ft := &fakeT{}
		func() {
			defer func() { _ = recover() }() // Fatal in the fake ends the run
			checkHAProxy(ft, bad, defaults)
		}()
		if !ft.failed {
			t.Errorf("%s: the check accepted it", name)
		}
	}
}

// fakeT records whether a check complained, without failing the real
// test; Fatal ends the check with a panic its caller recovers.
type fakeT struct{ failed bool }

func (f *fakeT) Helper()               {}
func (f *fakeT) Errorf(string, ...any) { f.failed = true }
func (f *fakeT) Error(...any)          { f.failed = true }
func (f *fakeT) Fatalf(string, ...any) { f.failed = true; panic(f) }
func (f *fakeT) Fatal(...any)          { f.failed = true; panic(f) }

// ---- HAProxy in front of real relays ------------------------------------------

// TestHAProxyFrontsRelays runs the shipped configuration in a real HAProxy
// in front of three relays on loopback: only the addresses change, and the
// process-level settings that need root (chroot, user, the admin socket) go.
// It checks that the /readyz health checks bring every relay up, that
// requests go round robin, and that a relay draining after SIGTERM costs no
// GET its answer: refused connections and requests cut short are retried on
// another relay, then the check takes it out.
func TestHAProxyFrontsRelays(t *testing.T) {
	if testing.Short() {
		t.Skip("runs HAProxy and three relays")
	}
	haproxy, err := exec.LookPath("haproxy")
	if err != nil {
		t.Skip("haproxy not installed (deploy/check.sh installs Debian's)")
	}
	bin := relayBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	relays := make([]*relayProc, 3)
	for i := range relays {
		// Every request here comes from one address; the limits are not
		// what is tested.
		relays[i] = startRelay(t, ctx, bin, "RATE_LIMITS=off")
	}

	ports := testport.Free(t, 2)
	front, stats := ports[0], ports[1]
	cfg := testHAProxyConfig(t, string(readFile(t, deployPath("haproxy", "haproxy.cfg"))), front, stats, relays)
	startHAProxy(t, ctx, haproxy, cfg)

	client := &http.Client{Timeout: 5 * time.Second}
	serverStates := func() map[string]string {
		resp, err := client.Get(fmt.Sprintf("http://127.0.0.1:%d/stats;csv", stats))
		if err != nil {
			return nil
		}
		defer resp.Body.Close()
		r := csv.NewReader(resp.Body)
		r.FieldsPerRecord = -1
		rows, err := r.ReadAll()
		if err != nil || len(rows) == 0 {
			return nil
		}
		col := map[string]int{}
		for i, h := range rows[0] {
			col[strings.TrimPrefix(h, "# ")] = i
		}
		out := map[string]string{}
		for _, row := range rows[1:] {
			if row[col["pxname"]] == "closerelay" && strings.HasPrefix(row[col["svname"]], "relay-") {
				out[row[col["svname"]]] = row[col["status"]]
			}
		}
		return out
	}
	waitStates := func(want map[string]string, within time.Duration) {
		t.Helper()
		deadline := time.Now().Add(within)
		var got map[string]string
		for time.Now().Before(deadline) {
			got = serverStates()
			ok := true
			for k, v := range want {
				if !strings.HasPrefix(got[k], v) {
					ok = false
				}
			}
			if ok {
				return
			}
			time.Sleep(200 * time.Millisecond)
		}
		t.Fatalf("server states %v, want %v within %v", got, want, within)
	}
	waitStates(map[string]string{"relay-0": "UP", "relay-1": "UP", "relay-2": "UP"}, 15*time.Second)

	// An unknown plan: every relay answers 404 NOT_FOUND in JSON; HAProxy's
	// own errors are HTML, so the body tells who answered.
	url := fmt.Sprintf("http://127.0.0.1:%d/api/plan/%s", front, strings.Repeat("cd", 32))
	get := func() (int, string, error) {
		resp, err := client.Get(url)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), nil
	}
	fromRelay := func(code int, body string) bool {
		return code == http.StatusNotFound && strings.Contains(body, `"NOT_FOUND"`)
	}
	before := make([]float64, len(relays))
	for i, r := range relays {
		before[i] = planGets(t, client, r)
	}
	for range 30 {
		if code, body, err := get(); err != nil || !fromRelay(code, body) {
			t.Fatalf("GET through haproxy: %d %q %v", code, body, err)
		}
	}
	for i, r := range relays {
		if n := planGets(t, client, r) - before[i]; n != 10 {
			t.Errorf("relay-%d served %v of 30 GETs; round robin gives each 10", i, n)
		}
	}

	// Drain relay-0 under a steady stream of GETs.
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var mu sync.Mutex
	var answered int
	var failures []string
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				code, body, err := get()
				mu.Lock()
				answered++
				if err != nil || !fromRelay(code, body) {
					failures = append(failures, fmt.Sprintf("%d %.80q %v", code, body, err))
				}
				mu.Unlock()
				time.Sleep(10 * time.Millisecond)
			}
		}()
	}
	time.Sleep(500 * time.Millisecond)
	if err := relays[0].cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitStates(map[string]string{"relay-0": "DOWN", "relay-1": "UP", "relay-2": "UP"}, 15*time.Second)
	time.Sleep(500 * time.Millisecond)
	close(stop)
	wg.Wait()
	t.Logf("%d GETs while relay-0 drained and was taken out", answered)
	if len(failures) > 0 {
		t.Errorf("%d of %d GETs were not answered by a relay during the drain, e.g. %s", len(failures), answered, failures[0])
	}
	select {
	case err := <-relays[0].exited:
		if err != nil {
			t.Errorf("relay-0 after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Error("relay-0 still running 20 s after SIGTERM")
	}
}

// testHAProxyConfig rewrites the shipped configuration for loopback: the
// public bind and the stats bind on free ports, one server line per relay
// with its own ops port for the check, and logs to stdout; lines that need
// root are dropped. Everything else (timeouts, checks, retries) is as
// shipped.
func testHAProxyConfig(t *testing.T, src string, front, stats int, relays []*relayProc) string {
	t.Helper()
	var out strings.Builder
	section, serversDone := "", false
	sc := bufio.NewScanner(strings.NewReader(src))
	for sc.Scan() {
		line := sc.Text()
		words := strings.Fields(line)
		if len(words) > 0 && !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "\t") {
			section = words[0] + " " + strings.Join(words[1:], " ")
		}
		switch {
		case len(words) == 0 || strings.HasPrefix(words[0], "#"):
		case strings.HasPrefix(section, "global") && slices.Contains([]string{"chroot", "user", "group", "daemon", "stats", "log", "maxconn"}, words[0]):
			continue
		case words[0] == "global":
			out.WriteString(line + "\n    log stdout format raw local0\n")
			continue
		case words[0] == "bind" && section == "frontend closerelay":
			fmt.Fprintf(&out, "    bind 127.0.0.1:%d\n", front)
			continue
		case words[0] == "bind" && section == "frontend stats":
			fmt.Fprintf(&out, "    bind 127.0.0.1:%d\n", stats)
			continue
		case (words[0] == "server" || words[0] == "server-template") && section == "backend closerelay":
			if !serversDone {
				for i, r := range relays {
					fmt.Fprintf(&out, "    server relay-%d %s port %s\n", i, strings.TrimPrefix(r.api, "http://"), portOfURL(t, r.ops))
				}
				serversDone = true
			}
			continue
		}
		out.WriteString(line + "\n")
	}
	if !serversDone {
		t.Fatal("no server lines in backend closerelay")
	}
	return out.String()
}

func portOfURL(t *testing.T, u string) string {
	t.Helper()
	_, port, err := net.SplitHostPort(strings.TrimPrefix(u, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	return port
}

// planGets is the relay's count of GET /api/plan/:id requests answered.
func planGets(t *testing.T, client *http.Client, r *relayProc) float64 {
	t.Helper()
	resp, err := client.Get(r.ops + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var total float64
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "closerelay_http_requests_total{") && strings.Contains(line, `method="GET"`) && strings.Contains(line, `url="/api/plan/:id"`) {
			f := strings.Fields(line)
			v, err := strconv.ParseFloat(f[len(f)-1], 64)
			if err != nil {
				t.Fatal(err)
			}
			total += v
		}
	}
	return total
}

// lockedBuffer collects a process's output from two pipes.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startHAProxy runs haproxy in the foreground on the configuration cfg
// until the test ends (SIGTERM, or ctx's end), and logs its output when
// the test failed.
func startHAProxy(t *testing.T, ctx context.Context, haproxy, cfg string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "haproxy.cfg")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	hp := exec.CommandContext(ctx, haproxy, "-db", "-f", path)
	var hpOut lockedBuffer
	hp.Stdout, hp.Stderr = &hpOut, &hpOut
	if err := hp.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = hp.Process.Signal(syscall.SIGTERM)
		_ = hp.Wait()
		if t.Failed() {
			t.Logf("haproxy output:\n%s", hpOut.String())
		}
	})
}
