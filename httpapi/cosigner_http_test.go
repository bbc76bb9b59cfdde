package httpapi_test

import (
	"encoding/json"
	"github.com/closerelay/closerelay/web"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/ledger/ledgertest"
)

// The co-signers' surface (CONTRACT section 11) through a real listener:
// SEP-7 callbacks as form bodies, the sep7 link, and the HTML pages.

// formSign posts a form body to the plan's sign route, as a wallet's SEP-7
// callback does.
func formSign(t *testing.T, base, id string, form url.Values) response {
	t.Helper()
	return send(t, http.DefaultClient, http.MethodPost, base+"/api/plan/"+id+"/sign",
		strings.NewReader(form.Encode()), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
}

// TestSignTakesSEP7Callbacks: a SEP-7 callback (form field xdr) and an
// Albedo-style one (signed_envelope_xdr) each add their signature and answer
// the JSON sign answer; a present signed_envelope_xdr that does not decode
// is BAD_XDR, with no fall-back to xdr. They answered 400 BAD_XDR before.
func TestSignTakesSEP7Callbacks(t *testing.T) {
	r := planStart(t, 0)
	pass := planPass(planTest)
	acc := planAccount(r, 2)
	close1, hash := ledgertest.BuildClose(acc.Master, planDest, 1, 0, pass, acc.Keys[0])
	id := planWantPublished(t, r.publish(t, planTest, close1), hash)
	unsigned := ledgertest.StripSignatures(close1)

	got := planWantSigned(t, formSign(t, r.url, id, url.Values{"xdr": {ledgertest.SignXDR(unsigned, pass, acc.Keys[1])}}))
	if len(got.signers) != 2 || got.signers[1] != acc.Keys[1].Address() {
		t.Fatalf("after the SEP-7 callback the signers are %v", got.signers)
	}
	got = planWantSigned(t, formSign(t, r.url, id, url.Values{
		"signed_envelope_xdr": {ledgertest.SignXDR(unsigned, pass, acc.Keys[2])},
		"xdr":                 {"ignored when signed_envelope_xdr is present"},
	}))
	if len(got.signers) != 3 || got.signers[2] != acc.Keys[2].Address() {
		t.Fatalf("after the Albedo callback the signers are %v", got.signers)
	}

	for name, form := range map[string]url.Values{
		"undecodable signed_envelope_xdr, good xdr": {"signed_envelope_xdr": {"not base64"}, "xdr": {ledgertest.SignXDR(unsigned, pass, acc.Keys[1])}},
		"empty xdr":     {"xdr": {""}},
		"neither field": {"other": {"x"}},
		"too long":      {"xdr": {strings.Repeat("A", 12001)}},
	} {
		t.Run(name, func(t *testing.T) {
			planWantErr(t, formSign(t, r.url, id, form), http.StatusBadRequest, "BAD_XDR")
		})
	}
	// The route's other checks stay: an unknown plan is 404 whatever the
	// body, a form above 16 KiB is 413.
	planWantErr(t, formSign(t, r.url, strings.Repeat("ab", 32), url.Values{"xdr": {"x"}}), http.StatusNotFound, "NOT_FOUND")
	planWantErr(t, formSign(t, r.url, id, url.Values{"xdr": {strings.Repeat("A", 17000)}}), http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
}

// parseSEP7 reads a web+stellar:tx link as SEP-7 writes it: the operation,
// then query parameters whose values are percent-encoded (a space is %20).
func parseSEP7(t *testing.T, uri string) map[string]string {
	t.Helper()
	rest, ok := strings.CutPrefix(uri, "web+stellar:tx?")
	if !ok {
		t.Fatalf("%q is not a web+stellar:tx link", uri)
	}
	if strings.Contains(rest, "+") {
		t.Errorf("%q has a '+': SEP-7 values are percent-encoded, a space is %%20", uri)
	}
	out := map[string]string{}
	for _, kv := range strings.Split(rest, "&") {
		k, v, _ := strings.Cut(kv, "=")
		dv, err := url.PathUnescape(v)
		if err != nil {
			t.Fatalf("parameter %s: %v", k, err)
		}
		out[k] = dv
	}
	return out
}

// TestSEP7Link: GET /api/plan/{id}/sep7 carries the current envelope, the
// network passphrase (testnet), a message, and the callback under
// PUBLIC_URL with the id in lowercase.
func TestSEP7Link(t *testing.T) {
	r := startRelay(t, httpapi.Options{}, 0, nil)
	pr := &planRelay{url: r.URL, horizon: r.Horizon, plans: r.Plans}
	pass := planPass(planTest)
	acc := planAccount(pr, 1)
	close1, hash := ledgertest.BuildClose(acc.Master, planDest, 1, 0, pass, acc.Keys[0])
	id := planWantPublished(t, pr.publish(t, planTest, close1), hash)
	_, current := planWantPlan(t, pr.get(t, id))

	res := send(t, http.DefaultClient, http.MethodGet, r.URL+"/api/plan/"+strings.ToUpper(id)+"/sep7", nil, nil)
	if res.status != http.StatusOK {
		t.Fatalf("sep7: %d %s", res.status, res.body)
	}
	var body struct {
		OK  bool   `json:"ok"`
		URI string `json:"uri"`
	}
	if err := json.Unmarshal(res.body, &body); err != nil || !body.OK {
		t.Fatalf("sep7 body %s: %v", res.body, err)
	}
	p := parseSEP7(t, body.URI)
	if p["xdr"] != current || p["network_passphrase"] != pass || p["msg"] == "" || len([]rune(p["msg"])) > 300 {
		t.Errorf("sep7 parameters %v; want the current envelope, the testnet passphrase and a message", p)
	}
	if _, has := p["callback"]; has {
		t.Errorf("a callback without PUBLIC_URL: %q", p["callback"])
	}
	planWantErr(t, send(t, http.DefaultClient, http.MethodGet, r.URL+"/api/plan/"+strings.Repeat("ab", 32)+"/sep7", nil, nil), http.StatusNotFound, "NOT_FOUND")
}

// TestPlanPages: the landing page, a plan's page and its 404 page are HTML
// with no external resources allowed, and a throttled page is a 429 with
// Retry-After.
func TestPlanPages(t *testing.T) {
	// A clock that stands still: the limiter refills a page a second, so
	// on the real clock a slow run's 61st page found a token again.
	clock := &testClock{t: time.Now()}
	r := startRelay(t, httpapi.Options{RateLimits: true, Now: clock.Now}, 0, nil)
	pr := &planRelay{url: r.URL, horizon: r.Horizon, plans: r.Plans}
	pass := planPass(planTest)
	acc := planAccount(pr, 1)
	close1, hash := ledgertest.BuildClose(acc.Master, planDest, 1, 0, pass, acc.Keys[0])
	id := planWantPublished(t, pr.publish(t, planTest, close1), hash)

	page := func(path string) response {
		return send(t, http.DefaultClient, http.MethodGet, r.URL+path, nil, nil)
	}
	for _, tc := range []struct {
		path   string
		status int
		has    string
	}{
		{"/", 200, "<form"},
		{"/plan/" + id, 200, acc.Keys[0].Address()},
		{"/plan/" + strings.Repeat("ab", 32), 404, "<html"},
		{"/plan/not-an-id", 404, "<html"},
	} {
		res := page(tc.path)
		if res.status != tc.status || !strings.Contains(string(res.body), tc.has) ||
			!strings.HasPrefix(res.header.Get("Content-Type"), "text/html") {
			t.Errorf("GET %s: %d %q, want %d with %q", tc.path, res.status, res.header.Get("Content-Type"), tc.status, tc.has)
		}
		wantCSP := web.CSP
		if tc.status == 200 && strings.HasPrefix(tc.path, "/plan/") {
			wantCSP = web.PlanCSP(false) // "Sign with a wallet"
		}
		if csp := res.header.Get("Content-Security-Policy"); csp != wantCSP {
			t.Errorf("GET %s: CSP %q, want %q", tc.path, csp, wantCSP)
		}
		if cc := res.header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("GET %s: Cache-Control %q", tc.path, cc)
		}
	}
	// 60 per 60 s per client on the HTML routes: four went above.
	var last response
	for range 57 {
		last = page("/")
	}
	if last.status != http.StatusTooManyRequests || last.header.Get("Retry-After") == "" || !strings.Contains(string(last.body), "<html") {
		t.Errorf("the 61st page: %d Retry-After %q, want an HTML 429 with Retry-After", last.status, last.header.Get("Retry-After"))
	}
}
