package check

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi/openapi"
	"github.com/closerelay/closerelay/internal/testport"
	networkingv1 "k8s.io/api/networking/v1"
)

// deploy/app-origin holds the examples of closerelay on an app's origin,
// beside the app's own pages: an ingress-nginx Ingress and an HAProxy
// configuration that send only closerelay's paths to the relay and
// everything else, "/" first, to the app. These tests route closerelay's
// paths, taken from the OpenAPI document and the page's assets, and some
// of the app's through each.

// planHex is a plan id for the paths that take one.
var planHex = strings.Repeat("ab", 32)

// assetPaths are the paths the relay serves the page's assets under:
// /assets/NAME.HASH.EXT, HASH the first 6 bytes of the SHA-256 of the
// file in web/assets, in hex, as package web names them.
// TestAppOriginHAProxy checks that the relay's own page links these.
func assetPaths(t *testing.T) []string {
	t.Helper()
	dir := filepath.Join(repoRoot, "web", "assets")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			// The wallet code the page loads on demand, served by its own
			// (content-hashed) names under /assets/wallet/.
			sub, err := os.ReadDir(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range sub {
				out = append(out, "/assets/"+e.Name()+"/"+f.Name())
			}
			continue
		}
		b := readFile(t, filepath.Join(dir, e.Name()))
		sum := sha256.Sum256(b)
		ext := path.Ext(e.Name())
		out = append(out, "/assets/"+strings.TrimSuffix(e.Name(), ext)+"."+hex.EncodeToString(sum[:6])+ext)
	}
	if len(out) == 0 {
		t.Fatal("web/assets holds no asset")
	}
	return out
}

// relayPaths are request paths that must reach the relay: every path of
// the OpenAPI document (with {id} filled), the co-signer's page, its form
// and its assets.
func relayPaths(t *testing.T) []string {
	t.Helper()
	var doc struct {
		Paths map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(openapi.Document, &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	for p := range doc.Paths {
		out = append(out, strings.ReplaceAll(p, "{id}", planHex))
	}
	if len(out) < 5 {
		t.Fatalf("the OpenAPI document has %d paths", len(out))
	}
	out = append(out, "/plan", "/plan/"+planHex, "/plan/"+planHex+"/sign", "/api/mediator/sign?destination=G&memo=text:x")
	out = append(out, assetPaths(t)...)
	slices.Sort(out)
	return out
}

// appPaths are paths of the app's own that must not reach the relay.
var appPaths = []string{"/", "/index.html", "/about", "/api/planets", "/api/plan.json", "/api/other", "/api/mediatorx",
	"/assets/app.js", "/assets/style.css", "/planner", "/static/plan.js"}

// TestAppOriginIngress decodes deploy/app-origin/ingress.yaml strictly and
// routes each path as ingress-nginx does with use-regex: each path a
// regular expression anchored at the start, case-insensitive, the longest
// path tried first. closerelay's go to its Service's api port, the app's to
// the app. (No ingress-nginx runs here: the matching is this emulation.)
func TestAppOriginIngress(t *testing.T) {
	var ing networkingv1.Ingress
	decodeStrict(t, deployPath("app-origin", "ingress.yaml"), &ing)
	if ing.Annotations["nginx.ingress.kubernetes.io/use-regex"] != "true" {
		t.Fatal("the Ingress's paths are regular expressions: it needs nginx.ingress.kubernetes.io/use-regex: \"true\"")
	}
	for _, a := range []string{"proxy-buffering", "proxy-read-timeout", "proxy-send-timeout"} {
		if _, ok := ing.Annotations["nginx.ingress.kubernetes.io/"+a]; !ok {
			t.Errorf("no %s annotation: event streams need it, as deploy/kubernetes/ingress.yaml has", a)
		}
	}
	if len(ing.Spec.Rules) != 1 || ing.Spec.Rules[0].HTTP == nil {
		t.Fatalf("want one rule with paths: %+v", ing.Spec.Rules)
	}
	paths := slices.Clone(ing.Spec.Rules[0].HTTP.Paths)
	slices.SortStableFunc(paths, func(a, b networkingv1.HTTPIngressPath) int { return len(b.Path) - len(a.Path) })
	route := func(p string) string {
		p, _, _ = strings.Cut(p, "?")
		for _, ip := range paths {
			if ip.PathType == nil || *ip.PathType != networkingv1.PathTypeImplementationSpecific {
				t.Fatalf("path %q: pathType %v; with use-regex every path is ImplementationSpecific", ip.Path, ip.PathType)
			}
			re, err := regexp.Compile("(?i)^" + ip.Path)
			if err != nil {
				t.Fatalf("path %q: %v", ip.Path, err)
			}
			if re.MatchString(p) {
				b := ip.Backend.Service
				return b.Name + ":" + b.Port.Name
			}
		}
		return "none"
	}
	for _, p := range relayPaths(t) {
		if got := route(p); got != "closerelay:api" {
			t.Errorf("%s goes to %s, want closerelay:api", p, got)
		}
	}
	for _, p := range appPaths {
		if got := route(p); got != "app:http" {
			t.Errorf("%s goes to %s, want the app (app:http)", p, got)
		}
	}
}

// TestAppOriginHAProxy runs deploy/app-origin/haproxy.cfg in a real
// HAProxy with the relay binary and a stand-in app behind it, on loopback
// (only the addresses change), and sends each path: closerelay's are
// answered by the relay, the app's by the app. The relay runs without a base
// path, with PUBLIC_URL the app's origin, and its page's assets, as the page
// itself links them, load through the app's origin.
func TestAppOriginHAProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs HAProxy and a relay")
	}
	haproxy, err := exec.LookPath("haproxy")
	if err != nil {
		t.Skip("haproxy not installed (deploy/check.sh installs Debian's)")
	}
	bin := relayBinary(t) // built before the deadline starts
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	front := testport.Free(t, 1)[0]
	origin := fmt.Sprintf("http://127.0.0.1:%d", front)
	relay := startRelay(t, ctx, bin, "RATE_LIMITS=off", "PUBLIC_URL="+origin)
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Served-By", "app")
		_, _ = io.WriteString(w, "the app's "+r.URL.Path)
	}))
	defer app.Close()

	var cfg strings.Builder
	for line := range strings.SplitSeq(string(readFile(t, deployPath("app-origin", "haproxy.cfg"))), "\n") {
		words := strings.Fields(line)
		switch {
		case len(words) >= 1 && words[0] == "maxconn":
			// Raising the descriptor limit that far needs root, as for
			// TestHAProxyFrontsRelays.
		case len(words) >= 2 && words[0] == "log" && words[1] == "/dev/log":
			cfg.WriteString("    log stdout format raw local0\n")
		case len(words) >= 1 && words[0] == "bind":
			fmt.Fprintf(&cfg, "    bind 127.0.0.1:%d\n", front)
		case len(words) >= 2 && words[0] == "server" && words[1] == "closerelay":
			fmt.Fprintf(&cfg, "    server closerelay %s port %s\n", strings.TrimPrefix(relay.api, "http://"), portOfURL(t, relay.ops))
		case len(words) >= 2 && words[0] == "server" && words[1] == "app":
			fmt.Fprintf(&cfg, "    server app %s\n", strings.TrimPrefix(app.URL, "http://"))
		default:
			cfg.WriteString(line + "\n")
		}
	}
	startHAProxy(t, ctx, haproxy, cfg.String())

	client := &http.Client{Timeout: 5 * time.Second}
	get := func(p string) (*http.Response, string) {
		t.Helper()
		resp, err := client.Get(origin + p)
		if err != nil {
			t.Fatalf("GET %s: %v", p, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	// The relay's health check passes within a few seconds.
	deadline := time.Now().Add(15 * time.Second)
	for {
		resp, err := client.Get(origin + "/api/openapi.json")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET /api/openapi.json through HAProxy: %v %v; the relay never came up", resp, err)
		}
		time.Sleep(200 * time.Millisecond)
	}

	for _, p := range relayPaths(t) {
		resp, body := get(p)
		// HAProxy's own 503 (no server) is HTML without the relay's CSP.
		if resp.Header.Get("X-Served-By") != "" || resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusBadGateway {
			t.Errorf("GET %s: %d %q from %q, want the relay's answer", p, resp.StatusCode, body, resp.Header.Get("X-Served-By"))
		}
	}
	for _, p := range appPaths {
		if resp, body := get(p); resp.Header.Get("X-Served-By") != "app" || body != "the app's "+strings.SplitN(p, "?", 2)[0] {
			t.Errorf("GET %s: %d %q, want the app's answer", p, resp.StatusCode, body)
		}
	}
	// The relay's own page links its assets root-relative, by the names
	// routed above; each loads through the app's origin.
	resp, err := client.Get(relay.api + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	linked := regexp.MustCompile(`(?:href|src)="(/assets/[^"]+)"`).FindAllStringSubmatch(string(page), -1)
	if len(linked) == 0 {
		t.Fatalf("the relay's page links no asset:\n%s", page)
	}
	assets := assetPaths(t)
	for _, m := range linked {
		if !slices.Contains(assets, m[1]) {
			t.Errorf("the relay's page links %s, which is not one of the asset paths routed (%v)", m[1], assets)
		}
		if resp, body := get(m[1]); resp.StatusCode != http.StatusOK || resp.Header.Get("X-Served-By") != "" {
			t.Errorf("GET %s through the app's origin: %d %.80q", m[1], resp.StatusCode, body)
		}
	}
}
