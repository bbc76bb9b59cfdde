package httpapi_test

import (
	"github.com/closerelay/closerelay/web"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
)

// The plan page's paste form (issue 26): POST /plan/{id}/sign with a
// form-encoded xdr, answered with the plan page again (HTML, never JSON)
// that says what happened, through a real listener.

// pastePost posts body to the paste form of plan id with content type ct.
func pastePost(t *testing.T, base, id, ct string, body io.Reader, hdr map[string]string) response {
	t.Helper()
	h := map[string]string{"Content-Type": ct}
	for k, v := range hdr {
		h[k] = v
	}
	return send(t, http.DefaultClient, http.MethodPost, base+"/plan/"+id+"/sign", body, h)
}

func paste(t *testing.T, base, id, xdr string) response {
	t.Helper()
	return pastePost(t, base, id, "application/x-www-form-urlencoded", strings.NewReader(url.Values{"xdr": {xdr}}.Encode()), nil)
}

// wantPage checks that res is an HTML page of status with the page's
// headers, and returns its text.
func wantPage(t *testing.T, res response, status int, contains ...string) string {
	t.Helper()
	if res.status != status {
		t.Errorf("status %d, want %d\n%s", res.status, status, res.body)
	}
	if ct := res.header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type %q, want HTML", ct)
	}
	wantCSP := web.CSP
	if strings.Contains(string(res.body), `id="plan"`) {
		wantCSP = web.PlanCSP(false) // the plan page: "Sign with a wallet"
	}
	if csp := res.header.Get("Content-Security-Policy"); csp != wantCSP {
		t.Errorf("CSP %q, want %q", csp, wantCSP)
	}
	if cc := res.header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q", cc)
	}
	body := string(res.body)
	for _, s := range contains {
		if !strings.Contains(body, s) {
			t.Errorf("the page does not say %q\n%s", s, body)
		}
	}
	return body
}

// TestPasteFormSigns: a signed envelope pasted into the page's form (even
// wrapped over lines as copied) adds its signature and answers the page
// saying so; the same envelope again changes nothing and says that.
func TestPasteFormSigns(t *testing.T) {
	r := planStart(t, 0)
	pass := planPass(planTest)
	acc := planAccount(r, 2) // high threshold 3
	x, hash := ledgertest.BuildClose(acc.Master, planDest, 1, time.Now().Add(time.Hour).Unix(), pass, acc.Keys[0])
	id := planWantPublished(t, r.publish(t, planTest, x), hash)
	unsigned := ledgertest.StripSignatures(x)

	second := ledgertest.SignXDR(unsigned, pass, acc.Keys[1])
	body := wantPage(t, paste(t, r.url, id, second), http.StatusOK,
		"Signature added", "The relay admitted the envelope&#39;s signatures: weight 2 of 3.", `id="notice"`)
	if !strings.Contains(body, `<div id="plan"`) {
		t.Error("the answer is not the plan page")
	}
	if _, cur := planWantPlan(t, r.get(t, id)); len(planSigs(t, cur)) != 2 {
		t.Fatalf("the plan has %d signatures after the form, want 2", len(planSigs(t, cur)))
	}
	wantPage(t, paste(t, r.url, id, second), http.StatusOK,
		"Nothing changed", "Every signature in this envelope is already on the plan (weight 2 of 3).")

	var wrapped strings.Builder
	third := ledgertest.SignXDR(unsigned, pass, acc.Keys[2])
	for i := 0; i < len(third); i += 64 {
		wrapped.WriteString(third[i:min(i+64, len(third))] + "\r\n ")
	}
	wantPage(t, paste(t, r.url, id, wrapped.String()), http.StatusOK,
		"Signature added", "weight 3 of 3: enough to submit.")
	if _, cur := planWantPlan(t, r.get(t, id)); len(planSigs(t, cur)) != 3 {
		t.Fatalf("the plan has %d signatures, want 3", len(planSigs(t, cur)))
	}
}

// TestPasteFormRefusals: every way the form can fail answers a page with
// the status and the sign route's code in words, never JSON, never a 5xx;
// a refused envelope is shown again, escaped, to correct it.
func TestPasteFormRefusals(t *testing.T) {
	r := planStart(t, 0)
	pass := planPass(planTest)
	acc := planAccount(r, 2)
	// The account's next sequence number: a blocked close's page has no
	// paste form to show a refused envelope in (CONTRACT 18).
	x, hash := ledgertest.BuildClose(acc.Master, planDest, 1<<32+1, time.Now().Add(time.Hour).Unix(), pass, acc.Keys[0])
	id := planWantPublished(t, r.publish(t, planTest, x), hash)
	stranger := ledgertest.SignXDR(ledgertest.StripSignatures(x), pass, keypair.MustRandom())
	form := "application/x-www-form-urlencoded"

	for _, tc := range []struct {
		name, id, ct, body string
		status             int
		says               []string
	}{
		{"not base64", id, form, "xdr=" + url.QueryEscape(`<b>"not an envelope"</b>`), http.StatusBadRequest,
			[]string{"Envelope refused", "This is not a transaction envelope the relay can read", "BAD_XDR", "&lt;b&gt;&#34;not an envelope&#34;&lt;/b&gt;</textarea>"}},
		{"empty", id, form, "xdr=+%0A", http.StatusBadRequest, []string{"paste a signed envelope (base64) into the form", "BAD_XDR"}},
		{"no field", id, form, "other=1", http.StatusBadRequest, []string{"paste a signed envelope", "BAD_XDR"}},
		{"bad form", id, form, "xdr=%zz", http.StatusBadRequest, []string{"the form body does not parse", "BAD_XDR"}},
		{"not a form", id, "application/json", `{"xdr":"AAAA"}`, http.StatusBadRequest, []string{"application/x-www-form-urlencoded", "BAD_XDR"}},
		{"a stranger's signature", id, form, "xdr=" + url.QueryEscape(stranger), http.StatusBadRequest,
			[]string{"The relay refused a signature in this envelope", "REJECTED"}},
		{"unknown plan", strings.Repeat("ab", 32), form, "xdr=" + url.QueryEscape(stranger), http.StatusNotFound, []string{"Plan not found"}},
		{"malformed id", "not-an-id", form, "xdr=AAAA", http.StatusNotFound, []string{"Plan not found"}},
		{"too large", id, form, "xdr=" + strings.Repeat("A", httpapi.MaxBodyBytes), http.StatusRequestEntityTooLarge,
			[]string{"Envelope too large", "larger than 16384 bytes"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantPage(t, pastePost(t, r.url, tc.id, tc.ct, strings.NewReader(tc.body), nil), tc.status, tc.says...)
		})
	}
	// A chunked body, with no length to refuse it by, is cut at the cap.
	t.Run("too large, chunked", func(t *testing.T) {
		body := io.MultiReader(strings.NewReader("xdr="), strings.NewReader(strings.Repeat("A", 2*httpapi.MaxBodyBytes)))
		wantPage(t, pastePost(t, r.url, id, form, io.NopCloser(body), nil), http.StatusRequestEntityTooLarge, "Envelope too large")
	})
	// GET on the form's address is the 404 page, not a JSON 405.
	wantPage(t, send(t, http.DefaultClient, http.MethodGet, r.url+"/plan/"+id+"/sign", nil, nil), http.StatusNotFound, "Plan not found")
	if _, cur := planWantPlan(t, r.get(t, id)); len(planSigs(t, cur)) != 1 {
		t.Fatalf("the refusals changed the plan: %d signatures", len(planSigs(t, cur)))
	}
}

// TestPasteFormSharesTheSignLimit: the form and the JSON sign route draw on
// one bucket per client (30 per 60 s), so the form is no way around it;
// throttled, the form answers the 429 page with Retry-After.
func TestPasteFormSharesTheSignLimit(t *testing.T) {
	rr := startRelay(t, httpapi.Options{RateLimits: true, TrustedProxyHops: 1}, 0, nil)
	r := &planRelay{url: rr.URL, horizon: rr.Horizon, plans: rr.Plans}
	pass := planPass(planTest)
	acc := planAccount(r, 2)
	x, hash := ledgertest.BuildClose(acc.Master, planDest, 1, time.Now().Add(time.Hour).Unix(), pass, acc.Keys[0])
	id := planWantPublished(t, r.publish(t, planTest, x), hash)
	ip := map[string]string{"X-Forwarded-For": "192.0.2.77"}
	for i := range 30 {
		res := send(t, http.DefaultClient, http.MethodPost, r.url+"/api/plan/"+id+"/sign", strings.NewReader(jsonBody(t, map[string]string{"xdr": x})), ip)
		if res.status != http.StatusOK {
			t.Fatalf("JSON sign %d: %d %s", i, res.status, res.body)
		}
	}
	res := pastePost(t, r.url, id, "application/x-www-form-urlencoded", strings.NewReader(url.Values{"xdr": {x}}.Encode()), ip)
	wantPage(t, res, http.StatusTooManyRequests, "Too many requests")
	if res.header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
	// Another client is not throttled.
	res = pastePost(t, r.url, id, "application/x-www-form-urlencoded", strings.NewReader(url.Values{"xdr": {x}}.Encode()), map[string]string{"X-Forwarded-For": "192.0.2.78"})
	wantPage(t, res, http.StatusOK, "Nothing changed")
}
