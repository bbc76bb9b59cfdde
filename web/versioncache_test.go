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
	d := web.PageData{ID: hex.EncodeToString(hash[:]), Network: ledger.Testnet, XDR: x, Weight: n, Threshold: n, Expiry: time.Now().Add(time.Hour)}
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
