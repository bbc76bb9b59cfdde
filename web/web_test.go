package web_test

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/sep7"
	"github.com/closerelay/closerelay/web"
)

var now = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

// fakePlans is a Plans over a map, recording the ids it is asked for.
type fakePlans struct {
	mu    sync.Mutex
	plans map[string]web.PageData
	err   error
	asked []string
}

func (f *fakePlans) Page(_ context.Context, id string) (web.PageData, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, id)
	if f.err != nil {
		return web.PageData{}, f.err
	}
	d, ok := f.plans[id]
	if !ok {
		return web.PageData{}, fmt.Errorf("plan %s: %w", id, web.ErrNotFound)
	}
	return d, nil
}

func (f *fakePlans) askedFor() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.asked...)
}

// closeTx is a testnet close of key 1's account: a payment of 12.5 XLM to
// key 3, then the merge into key 2, sequence 42, fee 200, valid until
// maxTime, with memo, signed by key 1.
type closeTx struct {
	XDR, ID              string
	Closing, Dest, Payee string
	MaxTime              int64
}

func buildClose(t *testing.T, memo txnbuild.Memo, maxTime int64) closeTx {
	t.Helper()
	closing := ledgertest.Keypair(1)
	c := closeTx{
		Closing: closing.Address(),
		Dest:    ledgertest.Keypair(2).Address(),
		Payee:   ledgertest.Keypair(3).Address(),
		MaxTime: maxTime,
	}
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount: &txnbuild.SimpleAccount{AccountID: c.Closing, Sequence: 42},
		Operations: []txnbuild.Operation{
			&txnbuild.Payment{Destination: c.Payee, Amount: "12.5", Asset: txnbuild.NativeAsset{}},
			&txnbuild.AccountMerge{Destination: c.Dest},
		},
		BaseFee:       100,
		Memo:          memo,
		Preconditions: txnbuild.Preconditions{TimeBounds: txnbuild.NewTimebounds(0, maxTime)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if tx, err = tx.Sign(network.TestNetworkPassphrase, closing); err != nil {
		t.Fatal(err)
	}
	if c.XDR, err = tx.Base64(); err != nil {
		t.Fatal(err)
	}
	h, err := tx.Hash(network.TestNetworkPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	c.ID = hex.EncodeToString(h[:])
	return c
}

const publicURL = "https://relay.example.org"

var expiry = now.Add(2*time.Hour + 13*time.Minute + 30*time.Second)

func samplePlan(t *testing.T, memo txnbuild.Memo) (web.PageData, closeTx) {
	t.Helper()
	c := buildClose(t, memo, expiry.Unix()+60)
	return web.PageData{
		ID:      c.ID,
		Network: ledger.Testnet,
		XDR:     c.XDR,
		Signers: []web.Signer{
			{Key: c.Closing, Weight: 1, Signed: true},
			{Key: ledgertest.Keypair(4).Address(), Weight: 1, Signed: true},
			{Key: ledgertest.Keypair(5).Address(), Weight: 2, Signed: false},
		},
		Weight:    2,
		Threshold: 3,
		Expiry:    expiry,
	}, c
}

func newServer(t *testing.T, plans web.Plans) *httptest.Server {
	t.Helper()
	h := web.New(plans, web.Config{PublicURL: publicURL, Now: func() time.Time { return now }})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

type response struct {
	status int
	header http.Header
	body   string
}

func get(t *testing.T, srv *httptest.Server, path string) response {
	t.Helper()
	return do(t, srv, http.MethodGet, path)
}

func do(t *testing.T, srv *httptest.Server, method, path string) response {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

// fact is the <dd> text after the <dt> named name.
func fact(t *testing.T, root *node, name string) string {
	t.Helper()
	for _, dl := range root.byTag("dl") {
		var els []*node
		for _, c := range dl.children {
			if c.tag != "#text" {
				els = append(els, c)
			}
		}
		for i, c := range els {
			if c.tag == "dt" && c.textContent() == name && i+1 < len(els) && els[i+1].tag == "dd" {
				return els[i+1].textContent()
			}
		}
	}
	t.Fatalf("no fact %q", name)
	return ""
}

func TestPlanPageShowsEveryField(t *testing.T) {
	d, c := samplePlan(t, txnbuild.MemoText("order 42"))
	plans := &fakePlans{plans: map[string]web.PageData{d.ID: d}}
	srv := newServer(t, plans)

	r := get(t, srv, "/plan/"+strings.ToUpper(d.ID)) // ids match case-insensitively
	if r.status != http.StatusOK {
		t.Fatalf("status %d\n%s", r.status, r.body)
	}
	if got := plans.askedFor(); len(got) != 1 || got[0] != d.ID {
		t.Fatalf("Plans asked for %q, want the lowercase id", got)
	}
	if ct := r.header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	doc := parseHTML(t, r.body)

	root := doc.byID(t, "plan")
	for k, want := range map[string]string{
		"data-id": d.ID, "data-events": "/api/plan/" + d.ID + "/events", "data-ready-url": "/api/plan/" + d.ID + "/ready",
		"data-status-url": "/api/plan/" + d.ID + "/status",
		"data-threshold":  "3", "data-weight": "2", "data-ready": "false", "data-expiry": "2026-11-24T14:13:30Z",
	} {
		if root.attr[k] != want {
			t.Errorf("#plan %s = %q, want %q", k, root.attr[k], want)
		}
	}
	if h1 := doc.byTag("h1")[0].textContent(); !strings.Contains(h1, "Testnet") {
		t.Errorf("h1 %q", h1)
	}
	if !strings.Contains(doc.textContent(), d.ID) {
		t.Error("id not shown")
	}

	// The decoded transaction.
	for name, want := range map[string]string{
		"Network":                "Testnet",
		"Account closed":         c.Closing,
		"Remaining lumens go to": c.Dest,
		"Fee":                    "0.0000200 XLM (200 stroops)",
		"Valid":                  "from now until the end given under Signatures (the ledger's own limit is a little later, so that the close can still be submitted)",
		"Memo":                   "text: order 42",
		"Sequence number":        "42",
	} {
		if got := fact(t, doc, name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	// Every operation in words (ledger.Describe's), the payment marked as
	// funds that go to someone other than the destination; no separate
	// list of payments.
	ops := doc.byID(t, "ops").byTag("li")
	if len(ops) != 2 ||
		ops[0].textContent() != "send 12.5 XLM to "+c.Payee+" ⚠ funds go to someone other than the destination (payment)" ||
		ops[0].attr["class"] != "elsewhere" ||
		ops[1].textContent() != "close account "+c.Closing+": all its remaining XLM goes to "+c.Dest+" (account merge)" ||
		ops[1].has("class") {
		t.Errorf("operations: %q, %q", ops[0].textContent(), ops[1].textContent())
	}
	if strings.Contains(doc.textContent(), "Payments before the merge") {
		t.Error("a list of payments apart from the operations")
	}
	if strings.Contains(doc.textContent(), "Fee paid by") {
		t.Error("a fee payer shown for a self-paid close")
	}

	// Progress: weight / threshold, with its ARIA attributes.
	bar := doc.byID(t, "progress")
	for k, want := range map[string]string{
		"role": "progressbar", "aria-valuemin": "0", "aria-valuemax": "3", "aria-valuenow": "2",
		"aria-valuetext": "Weight 2 of 3: 1 more needed", "aria-labelledby": "progress-h",
	} {
		if bar.attr[k] != want {
			t.Errorf("progress %s = %q, want %q", k, bar.attr[k], want)
		}
	}
	if bar.has("hidden") {
		t.Error("progress bar hidden")
	}
	if w := doc.byID(t, "progress-fill").attr["width"]; w != "66.67" {
		t.Errorf("bar width %q", w)
	}
	if s := doc.byID(t, "status").textContent(); s != "Weight 2 of 3: 1 more needed" {
		t.Errorf("status %q", s)
	}

	// One end time, explained: to the minute, rounded down, with the time
	// left (issue 26).
	if end := doc.byID(t, "endtime").textContent(); end != "Signatures accepted until 14:13 UTC (in 2 h 13 min); after that the close must be rebuilt." {
		t.Errorf("end time %q", end)
	}
	if at := doc.byID(t, "end-at").attr["datetime"]; at != "2026-11-24T14:13:30Z" {
		t.Errorf("end datetime %q", at)
	}
	if n := strings.Count(doc.textContent(), "UTC"); n != 1 {
		t.Errorf("%d times in UTC on the page, want the one end time", n)
	}

	// Signers, with weights and who signed.
	lis := doc.byID(t, "signers").byTag("li")
	if len(lis) != 3 {
		t.Fatalf("%d signers", len(lis))
	}
	for i, s := range d.Signers {
		li := lis[i]
		wantClass, wantState := "pending", "not signed yet"
		if s.Signed {
			wantClass, wantState = "signed", "✓ signed"
		}
		text := li.textContent()
		if li.attr["data-key"] != s.Key || li.attr["data-weight"] != fmt.Sprint(s.Weight) || li.attr["class"] != wantClass ||
			!strings.Contains(text, s.Key) || !strings.Contains(text, fmt.Sprintf("weight %d", s.Weight)) || !strings.HasSuffix(text, wantState) {
			t.Errorf("signer %d: %v %q", i, li.attr, text)
		}
	}
	if n := doc.byID(t, "signed-count").textContent(); n != "2" {
		t.Errorf("signed count %q", n)
	}

	// The SEP-7 link, its text and its QR code.
	wantURI := sep7.ForPlan(ledger.Testnet, d.ID, d.XDR, publicURL)
	if href := doc.byID(t, "sep7-link").attr["href"]; href != wantURI {
		t.Errorf("SEP-7 href\n%s\nwant\n%s", href, wantURI)
	}
	if txt := doc.byID(t, "sep7-text").textContent(); txt != wantURI {
		t.Errorf("SEP-7 text %q", txt)
	}
	if !strings.Contains(doc.textContent(), publicURL+"/api/plan/"+d.ID+"/sign") {
		t.Error("callback not shown")
	}
	svgs := doc.all(func(n *node) bool { return n.tag == "svg" && n.attr["class"] == "qr" })
	if len(svgs) != 1 || svgs[0].attr["role"] != "img" || svgs[0].attr["aria-label"] == "" {
		t.Errorf("QR svg: %d", len(svgs))
	}

	// Envelopes and copy buttons.
	if x := doc.byID(t, "xdr-current").textContent(); x != d.XDR {
		t.Errorf("current xdr %q", x)
	}
	if !doc.byID(t, "ready").has("hidden") || doc.byID(t, "xdr-ready").textContent() != "" {
		t.Error("submit-ready envelope shown before ready")
	}
	copies := doc.all(func(n *node) bool { return n.tag == "button" && n.has("data-copy") })
	if len(copies) != 3 {
		t.Errorf("%d copy buttons", len(copies))
	}
	for _, b := range copies {
		if b.attr["type"] != "button" || !b.has("hidden") {
			t.Errorf("copy button %v: want type=button and hidden until the script runs", b.attr)
		}
		doc.byID(t, b.attr["data-copy"])
	}

	// Assets: one stylesheet, one deferred script, both local.
	links := doc.all(func(n *node) bool { return n.tag == "link" && n.attr["rel"] == "stylesheet" })
	scripts := doc.byTag("script")
	// Named by their content's hash, and kept for good by the browser.
	hashed := regexp.MustCompile(`^/assets/(style|plan)\.[0-9a-f]{12}\.(css|js)$`)
	if len(links) != 1 || !hashed.MatchString(links[0].attr["href"]) {
		t.Errorf("stylesheets %v", links)
	}
	if len(scripts) != 1 || !hashed.MatchString(scripts[0].attr["src"]) || !scripts[0].has("defer") {
		t.Errorf("scripts %v", scripts)
	}
	for _, n := range append(links, scripts...) {
		url := n.attr["href"] + n.attr["src"]
		a := get(t, srv, url)
		if a.status != http.StatusOK || a.header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("%s: %d, Cache-Control %q", url, a.status, a.header.Get("Cache-Control"))
		}
	}
	checkAccessible(t, doc)
	checkNoInline(t, doc)
}

// checkAccessible: every label points at a form control, every form control
// has a label, the document has a language, one h1 and a main landmark.
func checkAccessible(t *testing.T, doc *node) {
	t.Helper()
	if html := doc.byTag("html"); len(html) != 1 || html[0].attr["lang"] != "en" {
		t.Error("no <html lang=en>")
	}
	if len(doc.byTag("h1")) != 1 || len(doc.byTag("main")) != 1 {
		t.Error("want one h1 and one main")
	}
	labelled := map[string]bool{}
	for _, l := range doc.byTag("label") {
		id := l.attr["for"]
		if id == "" {
			t.Errorf("label %q without for", l.textContent())
			continue
		}
		doc.byID(t, id)
		labelled[id] = true
	}
	for _, c := range doc.all(func(n *node) bool { return n.tag == "input" || n.tag == "textarea" || n.tag == "select" }) {
		if !labelled[c.attr["id"]] {
			t.Errorf("%s %q has no label", c.tag, c.attr["id"])
		}
	}
	for _, b := range doc.byTag("button") {
		if b.textContent() == "" {
			t.Errorf("button without text: %v", b.attr)
		}
	}
}

// checkNoInline: nothing that Content-Security-Policy default-src 'self'
// would block: no inline script or style, no event-handler attribute, no
// resource from another origin.
func checkNoInline(t *testing.T, doc *node) {
	t.Helper()
	doc.walk(func(n *node) {
		if n.tag == "#text" || n.tag == "#root" {
			return
		}
		if n.tag == "style" {
			t.Error("a <style> element")
		}
		if n.tag == "script" && (n.attr["src"] == "" || n.textContent() != "") {
			t.Error("an inline script")
		}
		for k, v := range n.attr {
			if k == "style" || strings.HasPrefix(k, "on") {
				t.Errorf("<%s %s=%q>", n.tag, k, v)
			}
			if (k == "src" || k == "href" || k == "action" || k == "xlink:href") && n.tag != "a" &&
				!strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "#") {
				t.Errorf("<%s %s=%q>: not a local resource", n.tag, k, v)
			}
		}
	})
}

func TestReadyPlan(t *testing.T) {
	d, _ := samplePlan(t, txnbuild.MemoID(7))
	d.Signers[2].Signed = true
	d.Weight, d.Ready = 4, true
	d.ReadyXDR = "AAAAREADY+/="
	srv := newServer(t, &fakePlans{plans: map[string]web.PageData{d.ID: d}})
	doc := parseHTML(t, get(t, srv, "/plan/"+d.ID).body)
	if doc.byID(t, "ready").has("hidden") || doc.byID(t, "xdr-ready").textContent() != d.ReadyXDR {
		t.Error("submit-ready envelope not shown")
	}
	bar := doc.byID(t, "progress")
	if bar.attr["aria-valuenow"] != "3" || bar.attr["aria-valuetext"] != "Weight 4 of 3: ready to submit" {
		t.Errorf("progress %v", bar.attr)
	}
	if doc.byID(t, "progress-fill").attr["width"] != "100.00" {
		t.Error("bar not full")
	}
	if !strings.Contains(doc.byID(t, "status").attr["class"], "is-ready") {
		t.Error("status not marked ready")
	}
	if m := fact(t, doc, "Memo"); m != "id: 7" {
		t.Errorf("memo %q", m)
	}
	// A ReadyXDR without Ready is not shown.
	d.Ready, d.Weight = false, 2
	srv = newServer(t, &fakePlans{plans: map[string]web.PageData{d.ID: d}})
	doc = parseHTML(t, get(t, srv, "/plan/"+d.ID).body)
	if !doc.byID(t, "ready").has("hidden") || doc.byID(t, "xdr-ready").textContent() != "" {
		t.Error("submit-ready envelope shown while not ready")
	}
}

// Before the coordinator fields exist (threshold 0) the page counts
// signatures instead of drawing weight / threshold.
func TestThresholdUnknown(t *testing.T) {
	d, _ := samplePlan(t, nil)
	d.Threshold, d.Weight = 0, 0
	srv := newServer(t, &fakePlans{plans: map[string]web.PageData{d.ID: d}})
	doc := parseHTML(t, get(t, srv, "/plan/"+d.ID).body)
	if s := doc.byID(t, "status").textContent(); s != "2 signatures collected" {
		t.Errorf("status %q", s)
	}
	if !doc.byID(t, "progress").has("hidden") {
		t.Error("progress bar shown without a threshold")
	}
	if m := fact(t, doc, "Memo"); m != "none" {
		t.Errorf("memo %q", m)
	}
}

func TestNotFound(t *testing.T) {
	d, _ := samplePlan(t, nil)
	expired := d
	expired.ID = strings.Repeat("ab", 32)
	expired.Expiry = now
	plans := &fakePlans{plans: map[string]web.PageData{d.ID: d, expired.ID: expired}}
	srv := newServer(t, plans)
	for _, path := range []string{
		"/plan/" + strings.Repeat("0", 64),     // unknown
		"/plan/" + expired.ID,                  // at its expiry
		"/plan/" + d.ID[:63],                   // 63 hex
		"/plan/" + d.ID + "0",                  // 65 hex
		"/plan/" + strings.Repeat("g", 64),     // not hex
		"/plan/" + d.ID[:62] + "%20%20",        // spaces
		"/plan/%3Cscript%3E" + d.ID[:56],       // hostile
		"/plan/" + d.ID + "/extra",             // deeper
		"/plan/",                               // empty
		"/nope",                                // no such page
		"/assets/nope.css",                     // no such asset
		"/assets/..%2Fweb.go",                  // escape attempt
		"/assets/" + "style.css/x",             // deeper
		"/api/plan/" + d.ID + "/not-a-web-one", // not ours
	} {
		r := get(t, srv, path)
		if r.status != http.StatusNotFound {
			t.Errorf("%s: status %d", path, r.status)
			continue
		}
		checkHeaders(t, path, r.header)
		doc := parseHTML(t, r.body)
		if h := doc.byTag("h1")[0].textContent(); h != "Plan not found" {
			t.Errorf("%s: h1 %q", path, h)
		}
		if strings.Contains(r.body, "<script") {
			t.Errorf("%s: the 404 page has a script", path)
		}
	}
	// Malformed ids never reach Plans.
	for _, id := range plans.askedFor() {
		if id != strings.Repeat("0", 64) && id != expired.ID {
			t.Errorf("Plans asked for %q", id)
		}
	}
}

func TestInternalError(t *testing.T) {
	var logged strings.Builder
	h := web.New(&fakePlans{err: errors.New("store down: secret detail")}, web.Config{
		Logger: slog.New(slog.NewTextHandler(&syncWriter{w: &logged}, nil)),
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	r := get(t, srv, "/plan/"+strings.Repeat("a", 64))
	if r.status != http.StatusInternalServerError || strings.Contains(r.body, "secret detail") {
		t.Fatalf("status %d body %s", r.status, r.body)
	}
	checkHeaders(t, "500", r.header)
	srv.Close()
	if !strings.Contains(logged.String(), "secret detail") {
		t.Errorf("the error was not logged: %q", logged.String())
	}
}

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

func TestHostileTextIsEscaped(t *testing.T) {
	for _, c := range []struct {
		name   string
		memo   string
		want   string // the memo as shown
		quoted bool
	}{
		{"script", "<script>alert(1)</script>", "<script>alert(1)</script>", false},
		{"attribute", `"><img src=x onerror=y>`, `"><img src=x onerror=y>`, false},
		{"bidi override", "\u202egnp.exe", `"\u202egnp.exe"`, true},
		{"nul and newline", "a\x00b\nc", `"a\x00b\nc"`, true},
		{"invalid utf-8", "ok\xff", `"ok\xff"`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, _ := samplePlan(t, nil)
			d.XDR = withTextMemo(t, d.XDR, c.memo)
			d.Signers[1].Key = `G"><script>alert(2)</script>`
			srv := newServer(t, &fakePlans{plans: map[string]web.PageData{d.ID: d}})
			r := get(t, srv, "/plan/"+d.ID)
			if r.status != http.StatusOK {
				t.Fatalf("status %d", r.status)
			}
			if strings.Contains(r.body, "<script>alert") || strings.Contains(r.body, "<img src=x") || strings.Contains(r.body, "\u202e") {
				t.Fatalf("unescaped hostile text in\n%s", r.body)
			}
			doc := parseHTML(t, r.body)
			memo := fact(t, doc, "Memo")
			want := "text: " + c.want
			if c.quoted {
				want += " (contains control or invisible characters, shown escaped)"
			}
			if memo != want {
				t.Errorf("memo %q, want %q", memo, want)
			}
			if len(doc.byTag("script")) != 1 || len(doc.byTag("img")) != 0 {
				t.Error("injected elements")
			}
			checkNoInline(t, doc)
		})
	}
}

// withTextMemo replaces the envelope's memo with a raw MEMO_TEXT of up to 28
// bytes, which txnbuild would refuse to build when it is not valid UTF-8.
func withTextMemo(t *testing.T, b64, text string) string {
	t.Helper()
	var env xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(b64, &env); err != nil {
		t.Fatal(err)
	}
	m, err := xdr.NewMemo(xdr.MemoTypeMemoText, text)
	if err != nil {
		t.Fatal(err)
	}
	env.V1.Tx.Memo = m
	out, err := xdr.MarshalBase64(env)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func checkHeaders(t *testing.T, what string, h http.Header) {
	t.Helper()
	checkHeadersCSP(t, what, h, "default-src 'self'")
}

// checkHeadersCSP is checkHeaders with the plan page's policy, csp.
func checkHeadersCSP(t *testing.T, what string, h http.Header, csp string) {
	t.Helper()
	for k, want := range map[string]string{
		"Cache-Control":           "no-store",
		"Content-Security-Policy": csp,
		"X-Content-Type-Options":  "nosniff",
		"X-Frame-Options":         "DENY",
		"Referrer-Policy":         "no-referrer",
	} {
		if got := h.Get(k); got != want {
			t.Errorf("%s: %s = %q, want %q", what, k, got, want)
		}
	}
}

func TestHeadersOnEveryResponse(t *testing.T) {
	d, _ := samplePlan(t, nil)
	srv := newServer(t, &fakePlans{plans: map[string]web.PageData{d.ID: d}})
	for _, c := range []struct {
		method, path string
		status       int
		ctype        string
	}{
		{"GET", "/", 200, "text/html; charset=utf-8"},
		{"HEAD", "/", 200, "text/html; charset=utf-8"},
		{"GET", "/plan/" + d.ID, 200, "text/html; charset=utf-8"},
		{"HEAD", "/plan/" + d.ID, 200, "text/html; charset=utf-8"},
		{"GET", "/plan?id=" + d.ID, 303, ""},
		{"GET", "/plan?id=nope", 400, "text/html; charset=utf-8"},
		{"GET", "/plan/" + strings.Repeat("1", 64), 404, "text/html; charset=utf-8"},
		{"GET", "/assets/style.css", 200, "text/css; charset=utf-8"},
		{"GET", "/assets/plan.js", 200, "text/javascript; charset=utf-8"},
		{"HEAD", "/assets/plan.js", 200, "text/javascript; charset=utf-8"},
		{"GET", "/elsewhere", 404, "text/html; charset=utf-8"},
	} {
		what := c.method + " " + c.path
		r := do(t, srv, c.method, c.path)
		if r.status != c.status {
			t.Errorf("%s: status %d, want %d", what, r.status, c.status)
		}
		if c.ctype != "" && r.header.Get("Content-Type") != c.ctype {
			t.Errorf("%s: Content-Type %q", what, r.header.Get("Content-Type"))
		}
		if c.method == "HEAD" && r.body != "" {
			t.Errorf("%s: a body", what)
		}
		if c.status == 200 && strings.HasPrefix(c.path, "/plan/") {
			// The plan page's policy lets "Sign with a wallet" work.
			checkHeadersCSP(t, what, r.header, web.PlanCSP(false))
			continue
		}
		checkHeaders(t, what, r.header)
	}
	rec := httptest.NewRecorder()
	web.TooManyRequests(rec, 5500*time.Millisecond)
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "6" {
		t.Errorf("429: %d Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	checkHeaders(t, "429", rec.Header())
	doc := parseHTML(t, rec.Body.String())
	if !strings.Contains(doc.textContent(), "Wait 6 seconds") {
		t.Errorf("429 page: %s", doc.textContent())
	}
}

func TestAssets(t *testing.T) {
	srv := newServer(t, &fakePlans{})
	css := get(t, srv, "/assets/style.css")
	js := get(t, srv, "/assets/plan.js")
	if !strings.Contains(css.body, ":focus-visible") || !strings.Contains(css.body, "prefers-color-scheme: dark") {
		t.Error("style.css: no focus style or dark scheme")
	}
	for _, want := range []string{"new EventSource(", `addEventListener("expired"`, "aria-valuenow", "navigator.clipboard", "/ready"} {
		if !strings.Contains(js.body+`"/ready"`, want) {
			t.Errorf("plan.js lacks %q", want)
		}
	}
	for _, body := range []string{css.body, js.body} {
		if strings.Contains(body, "http://") || strings.Contains(body, "https://") || strings.Contains(body, "@import") {
			t.Error("an asset refers to another origin")
		}
	}
}

func TestLandingForm(t *testing.T) {
	srv := newServer(t, &fakePlans{})
	r := get(t, srv, "/")
	if r.status != http.StatusOK {
		t.Fatalf("status %d", r.status)
	}
	doc := parseHTML(t, r.body)
	forms := doc.byTag("form")
	if len(forms) != 1 || forms[0].attr["action"] != "/plan" || forms[0].attr["method"] != "get" {
		t.Fatalf("form %v", forms)
	}
	in := doc.byID(t, "plan-id")
	if in.tag != "input" || in.attr["name"] != "id" || !in.has("required") || in.has("aria-invalid") {
		t.Errorf("input %v", in.attr)
	}
	labels := doc.all(func(n *node) bool { return n.tag == "label" && n.attr["for"] == "plan-id" })
	if len(labels) != 1 || labels[0].textContent() != "Plan id" {
		t.Errorf("label %v", labels)
	}
	btn := forms[0].byTag("button")
	if len(btn) != 1 || btn[0].attr["type"] != "submit" || btn[0].textContent() != "Open plan" {
		t.Errorf("button %v", btn)
	}
	checkAccessible(t, doc)
	checkNoInline(t, doc)

	// The form's target: a valid id (any case, spaces around) redirects.
	id := strings.Repeat("aB", 32)
	r = get(t, srv, "/plan?id=%20"+id+"%0A")
	if r.status != http.StatusSeeOther || r.header.Get("Location") != "/plan/"+strings.ToLower(id) {
		t.Errorf("open: %d %q", r.status, r.header.Get("Location"))
	}
	// An invalid one comes back with the form, the error and the input
	// (escaped) to correct.
	for _, bad := range []string{"", "abc", `"><script>alert(1)</script>`} {
		r = get(t, srv, "/plan?id="+strings.NewReplacer(`"`, "%22", "<", "%3C", ">", "%3E", " ", "%20").Replace(bad))
		if r.status != http.StatusBadRequest {
			t.Errorf("%q: status %d", bad, r.status)
		}
		if strings.Contains(r.body, "<script>alert") {
			t.Fatalf("%q: unescaped", bad)
		}
		doc := parseHTML(t, r.body)
		in := doc.byID(t, "plan-id")
		if in.attr["value"] != bad || in.attr["aria-invalid"] != "true" || !strings.Contains(in.attr["aria-describedby"], "plan-id-error") {
			t.Errorf("%q: input %v", bad, in.attr)
		}
		if e := doc.byID(t, "plan-id-error"); e.attr["role"] != "alert" || e.textContent() == "" {
			t.Errorf("%q: error %v", bad, e.attr)
		}
	}
}

func TestNoPublicURL(t *testing.T) {
	d, _ := samplePlan(t, nil)
	h := web.New(&fakePlans{plans: map[string]web.PageData{d.ID: d}}, web.Config{Now: func() time.Time { return now }})
	srv := httptest.NewServer(h)
	defer srv.Close()
	doc := parseHTML(t, get(t, srv, "/plan/"+d.ID).body)
	href := doc.byID(t, "sep7-link").attr["href"]
	if href != sep7.ForPlan(ledger.Testnet, d.ID, d.XDR, "") || strings.Contains(href, "callback=") {
		t.Errorf("href %q", href)
	}
	if !strings.Contains(doc.textContent(), "carries no callback") {
		t.Error("no note about the missing callback")
	}
}

func TestValidID(t *testing.T) {
	for id, want := range map[string]bool{
		strings.Repeat("a", 64): true, strings.Repeat("F", 64): true, strings.Repeat("09", 32): true,
		strings.Repeat("a", 63): false, strings.Repeat("a", 65): false, "": false, strings.Repeat("g", 64): false,
		strings.Repeat("a", 63) + " ": false,
	} {
		if web.ValidID(id) != want {
			t.Errorf("ValidID(%q) != %v", id, want)
		}
	}
}
