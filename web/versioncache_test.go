package web_test

import (
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/plan"
	"github.com/closerelay/closerelay/web"
	"github.com/stellar/go-stellar-sdk/keypair"
)

// TestPagePartsAreBuiltOncePerVersion: a plan page served again, and HEAD,
// and many concurrent first requests, build the decoded transaction, the
// SEP-7 link and its QR code once for a version; a new version (a new
// signature) builds them once more. Before, every render encoded the QR
// code again: 40 to 130 ms of CPU a page.
func TestPagePartsAreBuiltOncePerVersion(t *testing.T) {
	d, c := samplePlan(t, nil)
	plans := &fakePlans{plans: map[string]web.PageData{c.ID: d}}
	h := web.New(plans, web.Config{PublicURL: publicURL, Now: func() time.Time { return now }})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if r := get(t, srv, "/plan/"+c.ID); r.status != http.StatusOK || !strings.Contains(r.body, "<svg") {
				t.Errorf("page: %d", r.status)
			}
		})
	}
	wg.Wait()
	if r := do(t, srv, http.MethodHead, "/plan/"+c.ID); r.status != http.StatusOK {
		t.Fatalf("HEAD: %d", r.status)
	}
	if got := h.Builds(); got != 1 {
		t.Fatalf("%d builds for 21 requests of one version, want 1", got)
	}

	// A new signature is a new version: built once more, and its page
	// shows it.
	next := d
	next.XDR = ledgertest.SignXDR(d.XDR, "Test SDF Network ; September 2015", ledgertest.Keypair(4))
	plans.mu.Lock()
	plans.plans[c.ID] = next
	plans.mu.Unlock()
	first := get(t, srv, "/plan/"+c.ID)
	for range 5 {
		if r := get(t, srv, "/plan/"+c.ID); r.body != first.body {
			t.Fatal("the same version rendered two different pages")
		}
	}
	if got := h.Builds(); got != 2 {
		t.Fatalf("%d builds after a second version, want 2", got)
	}
}

// bigPlan is a plan of an account with n signers, every one signed: the
// longest SEP-7 link, the largest QR code.
func bigPlan(b *testing.B, n int) web.PageData {
	b.Helper()
	acct := ledgertest.NewAccount(n, 1)
	x, hash := ledgertest.BuildClose(acct.Master, keypair.MustRandom().Address(), 42, time.Now().Add(time.Hour).Unix(), "Test SDF Network ; September 2015", acct.Keys...)
	d := web.PageData{ID: hex.EncodeToString(hash[:]), Network: ledger.Testnet, XDR: x, Weight: n, Threshold: n, Expiry: time.Now().Add(time.Hour), Version: 1}
	for _, k := range acct.Keys {
		d.Signers = append(d.Signers, web.Signer{Key: k.Address(), Weight: 1, Signed: true})
	}
	return d
}

// BenchmarkPlanPage: a 20-signature plan's page, first rendered (a new
// version each time: decode, link, QR code) and served again.
func BenchmarkPlanPage(b *testing.B) {
	d := bigPlan(b, 20)
	plans := &fakePlans{plans: map[string]web.PageData{d.ID: d}}
	b.Run("first render", func(b *testing.B) {
		for b.Loop() {
			h := web.New(plans, web.Config{PublicURL: publicURL})
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/plan/"+d.ID, nil))
			if rec.Code != http.StatusOK {
				b.Fatal(rec.Code)
			}
		}
	})
	// Before pages were kept: every request rendered the template again (a
	// version of 0 is not kept).
	b.Run("rendered again", func(b *testing.B) {
		unknown := d
		unknown.Version = 0
		h := web.New(&fakePlans{plans: map[string]web.PageData{d.ID: unknown}}, web.Config{PublicURL: publicURL})
		for b.Loop() {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/plan/"+d.ID, nil))
			if rec.Code != http.StatusOK {
				b.Fatal(rec.Code)
			}
		}
	})
	b.Run("served again", func(b *testing.B) {
		h := web.New(plans, web.Config{PublicURL: publicURL})
		for b.Loop() {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/plan/"+d.ID, nil))
			if rec.Code != http.StatusOK {
				b.Fatal(rec.Code)
			}
		}
	})
}

// TestPageServedAgainIsNotRenderedAgain: a plan page asked for again within
// the same minute, with nothing changed, is the same bytes served from
// memory, not a new render of the template (issue 25's page flood: the
// render was what remained of a page's cost); anything the page shows that
// changes (a minute of the time left, the submission, the preflight, a new
// version) renders it anew.
func TestPageServedAgainIsNotRenderedAgain(t *testing.T) {
	d, c := samplePlan(t, nil)
	d.Version = 1
	plans := &fakePlans{plans: map[string]web.PageData{c.ID: d}}
	var mu sync.Mutex
	clock := now
	h := web.New(plans, web.Config{PublicURL: publicURL, Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	set := func(f func(*web.PageData)) {
		plans.mu.Lock()
		defer plans.mu.Unlock()
		p := plans.plans[c.ID]
		f(&p)
		plans.plans[c.ID] = p
	}

	first := get(t, srv, "/plan/"+c.ID)
	for range 20 {
		if r := get(t, srv, "/plan/"+c.ID); r.status != http.StatusOK || r.body != first.body {
			t.Fatalf("served again: %d, same body %v", r.status, r.body == first.body)
		}
	}
	if got := h.Renders(); got != 1 {
		t.Fatalf("%d renders for 21 requests of one page, want 1", got)
	}
	if h.KeptPageBytes() != len(first.body) {
		t.Errorf("kept %d bytes, want the page's %d", h.KeptPageBytes(), len(first.body))
	}

	// 30 s later the time left still reads "in 2 h 13 min": the same page.
	mu.Lock()
	clock = clock.Add(29 * time.Second)
	mu.Unlock()
	if r := get(t, srv, "/plan/"+c.ID); r.body != first.body || h.Renders() != 1 {
		t.Fatalf("a page of the same minute rendered again (renders %d)", h.Renders())
	}
	// A minute later it reads "in 2 h 12 min": rendered once more.
	mu.Lock()
	clock = clock.Add(time.Minute)
	mu.Unlock()
	r := get(t, srv, "/plan/"+c.ID)
	if h.Renders() != 2 || !strings.Contains(r.body, "in 2 h 12 min") {
		t.Fatalf("the next minute: renders %d, time left shown %v", h.Renders(), strings.Contains(r.body, "in 2 h 12 min"))
	}
	// A submission, then a new preflight: each a new page.
	set(func(p *web.PageData) { p.Submission = plan.Submission{State: "pending"} })
	if r := get(t, srv, "/plan/"+c.ID); h.Renders() != 3 || !strings.Contains(r.body, "Submitting the close to the ledger.") {
		t.Fatalf("after the submission started: renders %d", h.Renders())
	}
	set(func(p *web.PageData) {
		p.Preflight = ledger.PreflightRun{Preflight: ledger.Preflight{State: ledger.PreflightLandable}, Checked: now}
	})
	if r := get(t, srv, "/plan/"+c.ID); h.Renders() != 4 || !strings.Contains(r.body, "This close will land") {
		t.Fatalf("after a preflight: renders %d", h.Renders())
	}
	// HEAD is served from the same page.
	if r := do(t, srv, http.MethodHead, "/plan/"+c.ID); r.status != http.StatusOK || h.Renders() != 4 {
		t.Fatalf("HEAD: %d, renders %d", r.status, h.Renders())
	}
	// Only the latest page of a plan is kept.
	if r := get(t, srv, "/plan/"+c.ID); h.KeptPageBytes() != len(r.body) {
		t.Errorf("kept %d bytes, want the latest page's %d", h.KeptPageBytes(), len(r.body))
	}
}

// TestKeptPagesAreBounded: the rendered pages kept, all plans together,
// stay under their bound; the oldest plans' pages go first, and a plan
// whose page was dropped is rendered again when asked for.
func TestKeptPagesAreBounded(t *testing.T) {
	plans := &fakePlans{plans: map[string]web.PageData{}}
	var ids []string
	for i := range 6 {
		c := buildClose(t, nil, expiry.Unix()+60+int64(i))
		plans.plans[c.ID] = web.PageData{ID: c.ID, Network: ledger.Testnet, XDR: c.XDR, Expiry: expiry, Version: 1, Threshold: 1}
		ids = append(ids, c.ID)
	}
	h := web.New(plans, web.Config{Now: func() time.Time { return now }})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	one := get(t, srv, "/plan/"+ids[0])
	// Room for three pages of this size, not four.
	defer web.SetMaxPageBytes(len(one.body)*3 + len(one.body)/2)()
	for _, id := range ids[1:] {
		get(t, srv, "/plan/"+id)
		if kept, bound := h.KeptPageBytes(), len(one.body)*3+len(one.body)/2; kept > bound {
			t.Fatalf("kept %d bytes, bound %d", kept, bound)
		}
	}
	renders := h.Renders()
	get(t, srv, "/plan/"+ids[5]) // the newest: kept
	if h.Renders() != renders {
		t.Error("the newest plan's page was rendered again")
	}
	get(t, srv, "/plan/"+ids[0]) // the oldest: dropped, rendered again
	if h.Renders() != renders+1 {
		t.Error("the oldest plan's page was not rendered again")
	}
}
