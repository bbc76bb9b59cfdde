package client_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/internal/relaytest"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
)

// TestPreflightLandable: a close of an account with no sub-entries is
// landable in Status, in the sign answer and in each watched state.
func TestPreflightLandable(t *testing.T) {
	f := newFixture(t, relaytest.Options{})
	ctx := context.Background()
	id, _ := f.publish(t)
	st, err := f.c.Status(ctx, id)
	if err != nil {
		t.Fatalf("Status: %v", err)
	}
	if p := st.Preflight; p == nil || p.State != client.PreflightLandable || len(p.Blockers) != 0 || p.Checked == "" {
		t.Fatalf("Status preflight = %+v, want landable, no blockers, checked", st.Preflight)
	}
	w := startWatch(t, f.c, id)
	if s := w.next(t); s.Landable == nil || !*s.Landable {
		t.Errorf("watched state landable = %v, want true", s.Landable)
	}
	if s := f.sign(t, id, f.acct.Keys[1]); s.Landable == nil || !*s.Landable {
		t.Errorf("sign answer landable = %v, want true", s.Landable)
	}
	if s := w.next(t); s.Landable == nil || !*s.Landable {
		t.Errorf("watched state after the sign: landable = %v, want true", s.Landable)
	}
}

// TestPreflightBlocked: a bare merge of an account holding a trustline is
// blocked with op_has_sub_entries on operation 0, its reason naming the
// asset; the sign answer and the stream say landable false, and StatusWire
// carries the same preflight as the relay sent it.
func TestPreflightBlocked(t *testing.T) {
	f := newFixture(t, relaytest.Options{})
	ctx := context.Background()
	issuer := keypair.MustRandom().Address()
	f.relay.Horizon.Fund(issuer, 10_0000000)
	if !f.relay.Horizon.AddTrustline(f.acct.Address, ledgertest.Trustline{Asset: ledgertest.Credit("USD", issuer), Balance: 50_0000000}) {
		t.Fatal("AddTrustline")
	}
	id, _ := f.publish(t)
	st, err := f.c.Status(ctx, id)
	if err != nil {
		t.Fatalf("Status: %v", err)
	}
	p := st.Preflight
	if p == nil || p.State != client.PreflightBlocked || len(p.Blockers) != 1 || p.Checked == "" {
		t.Fatalf("Status preflight = %+v, want blocked with one blocker", p)
	}
	if b := p.Blockers[0]; b.Op != 0 || b.Code != "op_has_sub_entries" || !strings.Contains(b.Reason, "USD") {
		t.Errorf("blocker = %+v, want op 0, op_has_sub_entries, a reason naming USD", b)
	}
	raw, err := f.c.StatusWire(ctx, id)
	if err != nil || raw.Preflight == nil || raw.Preflight.State != p.State || raw.Preflight.Blockers[0] != p.Blockers[0] || raw.Expiry != st.Expiry.Format(time.RFC3339) {
		t.Errorf("StatusWire = %+v, %v; want Status's preflight and expiry", raw, err)
	}
	w := startWatch(t, f.c, id)
	if s := w.next(t); s.Landable == nil || *s.Landable {
		t.Errorf("watched state landable = %v, want false", s.Landable)
	}
	if s := f.sign(t, id, f.acct.Keys[1]); s.Landable == nil || *s.Landable {
		t.Errorf("sign answer landable = %v, want false", s.Landable)
	}
}
