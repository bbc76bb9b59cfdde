package httpapi_test

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/internal/server"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// What one close may cost the ledger API, through the real listener with
// rate limits on (docs/API.md section 12): publish answers 200 whatever
// the bound, and GET /status says which bound stopped the preflight.

type amplifyStatus struct {
	Preflight struct {
		State    string            `json:"state"`
		Blockers []json.RawMessage `json:"blockers"`
		Checked  string            `json:"checked"`
		Reason   *string           `json:"reason"`
	} `json:"preflight"`
}

// amplifyRelay is a relay with rate limits on and cfg's changes, on a
// double it returns.
func amplifyRelay(t *testing.T, cfg func(*server.Config)) (string, *ledgertest.Server) {
	t.Helper()
	h := ledgertest.New()
	t.Cleanup(h.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	so := serverOptions(httpapi.Options{RateLimits: true})
	so.Config.OpsAddr = "127.0.0.1:0"
	so.Config.HorizonTimeout = 5 * time.Second
	cfg(&so.Config)
	so.Listener, so.Ledger = ln, h.Backends()
	rel, err := server.Start(so)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rel.Stop() })
	return rel.APIURL, h
}

// amplifyPublish publishes w's close paying 1 XLM to each of pays and
// merging into the first, and answers its status.
func amplifyPublish(t *testing.T, url string, w pfWorld, pays []string) amplifyStatus {
	t.Helper()
	var ops []txnbuild.Operation
	for _, d := range pays {
		ops = append(ops, &txnbuild.Payment{Destination: d, Amount: "1", Asset: txnbuild.NativeAsset{}})
	}
	x, id := w.close(t, 101, pays[0], ops...)
	res := send(t, http.DefaultClient, http.MethodPost, url+"/api/plan", strings.NewReader(jsonBody(t, map[string]string{"network": "testnet", "xdr": x})), nil)
	if res.status != http.StatusOK {
		t.Fatalf("publish: %d %s", res.status, res.body)
	}
	checkSchema(t, "PublishOK", res.body)
	res = send(t, http.DefaultClient, http.MethodGet, url+"/api/plan/"+id+"/status", nil, nil)
	if res.status != http.StatusOK {
		t.Fatalf("status: %d %s", res.status, res.body)
	}
	checkSchema(t, "StatusOK", res.body)
	var st amplifyStatus
	if err := json.Unmarshal(res.body, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

func amplifyWorld(h *ledgertest.Server) pfWorld {
	w := pfWorld{acct: ledgertest.NewAccount(2, 1)}
	w.acct.Thresholds.HighThreshold = 2
	h.AddAccount(w.acct)
	h.SetSequence(w.acct.Address, 100)
	return w
}

func fundedAccounts(h *ledgertest.Server, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = keypair.MustRandom().Address()
		h.Fund(out[i], 10_0000000)
	}
	return out
}

// TestPreflightMaxAccountsThroughListener: a close paying more accounts
// than PREFLIGHT_MAX_ACCOUNTS is uncertain, its reason naming the bound;
// one within it has its verdict and no reason.
func TestPreflightMaxAccountsThroughListener(t *testing.T) {
	url, h := amplifyRelay(t, func(c *server.Config) { c.PreflightMaxAccounts = 3 })
	st := amplifyPublish(t, url, amplifyWorld(h), fundedAccounts(h, 5))
	p := st.Preflight
	if p.State != "uncertain" || len(p.Blockers) != 0 || p.Reason == nil || !strings.Contains(*p.Reason, "PREFLIGHT_MAX_ACCOUNTS") || !strings.Contains(*p.Reason, "first 3") {
		t.Errorf("preflight %+v (reason %v): want uncertain, no blockers, a reason naming PREFLIGHT_MAX_ACCOUNTS and 3", p, deref(p.Reason))
	}
	st = amplifyPublish(t, url, amplifyWorld(h), fundedAccounts(h, 3))
	if p := st.Preflight; p.State != "landable" || p.Reason != nil {
		t.Errorf("within the bound: %+v (reason %v), want landable without a reason", p, deref(p.Reason))
	}
}

// TestLedgerBudgetThroughListener: one client's publishes spend its
// LEDGER_CALLS_PER_CLIENT; the next publish still answers 200, its
// preflight unchecked with a reason naming the budget, and costs the
// ledger API guard 6's read only.
func TestLedgerBudgetThroughListener(t *testing.T) {
	url, h := amplifyRelay(t, func(c *server.Config) { c.LedgerCallsPerClient = 10 })
	// Three destinations, the offers, the latest ledger: 5 calls each.
	for i := range 2 {
		if st := amplifyPublish(t, url, amplifyWorld(h), fundedAccounts(h, 3)); st.Preflight.State != "landable" {
			t.Fatalf("publish %d: %+v, want landable", i, st.Preflight)
		}
	}
	w, pays := amplifyWorld(h), fundedAccounts(h, 3)
	before := h.Reads()
	st := amplifyPublish(t, url, w, pays)
	p := st.Preflight
	if p.State != "unchecked" || len(p.Blockers) != 0 || p.Reason == nil || !strings.Contains(*p.Reason, "LEDGER_CALLS_PER_CLIENT") {
		t.Errorf("preflight %+v (reason %v): want unchecked naming LEDGER_CALLS_PER_CLIENT", p, deref(p.Reason))
	}
	if got := h.Reads() - before; got != 1 {
		t.Errorf("the publish over budget made %d ledger calls; want 1 (guard 6's account read)", got)
	}
}

func deref(s *string) string {
	if s == nil {
		return "<absent>"
	}
	return *s
}
