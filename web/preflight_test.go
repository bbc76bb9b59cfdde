package web_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stellar/go-stellar-sdk/txnbuild"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/web"
)

// The ledger check on the plan page (CONTRACT section 14, issue 21 item
// 4): shown before everything else, each verdict said plainly, and for a
// blocked close each blocker in a co-signer's words with the relay's
// reason, and "do not sign".

var checked = now.Add(-3 * time.Minute)

func preflightPage(t *testing.T, run ledger.PreflightRun) (*node, string) {
	t.Helper()
	d, _ := samplePlan(t, txnbuild.MemoText("order 42"))
	d.Preflight = run
	srv := newServer(t, &fakePlans{plans: map[string]web.PageData{d.ID: d}})
	r := get(t, srv, "/plan/"+d.ID)
	if r.status != http.StatusOK {
		t.Fatalf("status %d\n%s", r.status, r.body)
	}
	return parseHTML(t, r.body), r.body
}

// shownSays is the text of the one verdict shown (the .pf-say not hidden).
func shownSays(t *testing.T, doc *node) (string, string) {
	t.Helper()
	var shown []*node
	for _, n := range doc.byID(t, "preflight").all(func(m *node) bool { return m.attr["class"] == "pf-say" }) {
		if !n.has("hidden") {
			shown = append(shown, n)
		}
	}
	if len(shown) != 1 {
		t.Fatalf("%d verdicts shown, want 1", len(shown))
	}
	return shown[0].attr["data-when"], shown[0].textContent()
}

func TestPreflightBlockedSaysDoNotSign(t *testing.T) {
	usd := "USD (" + strings.Repeat("A", 56) + ")"
	reason := "the account still holds 2 trustlines: " + usd + ", EURC (GDEF); 1 data entry: \"x\": each must be removed before the merge"
	doc, body := preflightPage(t, ledger.PreflightRun{
		Preflight: ledger.Preflight{State: ledger.PreflightBlocked, Blockers: []ledger.Blocker{
			{Op: ledger.TxBlocker, Code: "tx_bad_seq", Reason: "the account has been used"},
			{Op: 1, Code: "op_has_sub_entries", Reason: reason},
			{Op: 1, Code: "op_something_new", Reason: "why <b>not</b>"},
			{Op: ledger.ForwardBlocker, Code: "op_no_destination", Reason: "the funds would stop in the mediator"},
		}},
		Checked: checked,
	})
	pf := doc.byID(t, "preflight")
	if pf.has("hidden") || pf.attr["data-state"] != "blocked" || !strings.Contains(pf.attr["class"], "pf-blocked") {
		t.Fatalf("preflight section: %v", pf.attr)
	}
	// Above everything else: before the plan id, the signatures, the
	// signing card and the operations.
	for _, later := range []string{`class="planid"`, `id="status"`, `id="sign-closed"`, `id="ops"`, `id="expired"`} {
		if i, j := strings.Index(body, `id="preflight"`), strings.Index(body, later); i < 0 || j < 0 || i > j {
			t.Errorf("the preflight (at %d) is not above %s (at %d)", i, later, j)
		}
	}
	when, says := shownSays(t, doc)
	if when != "blocked" || !strings.HasPrefix(says, "Do not sign this close ") {
		t.Errorf("verdict shown %q: %q; want blocked, Do not sign this close", when, says)
	}
	var role string
	for _, n := range pf.all(func(m *node) bool { return m.attr["data-when"] == "blocked" }) {
		role = n.attr["role"]
	}
	if role != "alert" {
		t.Errorf("the blocked verdict's role = %q, want alert", role)
	}
	items := doc.byID(t, "pf-blockers").byTag("li")
	want := []struct{ code, text string }{
		{"tx_bad_seq", "The account has been used since this close was built. The transaction: the account has been used tx_bad_seq"},
		{"op_has_sub_entries", "The account still holds entries that must be removed before it can be closed. Operation 2 (account merge): " + reason + " op_has_sub_entries"},
		{"op_something_new", "The ledger would refuse this operation. Operation 2 (account merge): why <b>not</b> op_something_new"},
		{"op_no_destination", "The account the funds go to does not exist. The mediator's forward: the funds would stop in the mediator op_no_destination"},
	}
	if len(items) != len(want) {
		t.Fatalf("%d blockers shown, want %d", len(items), len(want))
	}
	for i, w := range want {
		if items[i].attr["data-code"] != w.code || items[i].textContent() != w.text {
			t.Errorf("blocker %d = %q %q\nwant %q %q", i, items[i].attr["data-code"], items[i].textContent(), w.code, w.text)
		}
	}
	if strings.Contains(body, "<b>not</b>") {
		t.Error("a blocker's reason is not escaped")
	}
	if got := doc.byID(t, "pf-checked"); got.attr["datetime"] != checked.UTC().Format(time.RFC3339) || got.textContent() != checked.UTC().Format("2006-01-02 15:04:05")+" UTC" {
		t.Errorf("checked = %v %q", got.attr, got.textContent())
	}
	// A blocked close offers no way to sign (CONTRACT 18): the signing
	// card says why, and holds no SEP-7 link, QR code or paste form (it
	// used to show them under a warning).
	if w := doc.byID(t, "sign-closed"); w.has("hidden") || !strings.HasPrefix(w.textContent(), "Signing is closed: the ledger would refuse this close") {
		t.Errorf("the signing card: hidden %v, %q", w.has("hidden"), w.textContent())
	}
	for _, gone := range []string{`id="sign-ways"`, `id="sep7-link"`, `id="sep7-text"`, `id="paste"`, `class="qrbox"`} {
		if strings.Contains(body, gone) {
			t.Errorf("a blocked close's page has %s", gone)
		}
	}
}

func TestPreflightOtherVerdictsSaidPlainly(t *testing.T) {
	for _, tc := range []struct {
		state ledger.PreflightState
		says  string
	}{
		{ledger.PreflightLandable, "This close will land The relay checked the ledger: every operation applies"},
		{ledger.PreflightUncertain, "The relay cannot tell whether this close will land An operation depends on ledger entries the relay does not read."},
		{ledger.PreflightUnchecked, "The ledger could not be checked The relay could not read the account from the ledger"},
	} {
		t.Run(string(tc.state), func(t *testing.T) {
			doc, _ := preflightPage(t, ledger.PreflightRun{Preflight: ledger.Preflight{State: tc.state}, Checked: checked})
			pf := doc.byID(t, "preflight")
			if pf.has("hidden") || pf.attr["data-state"] != string(tc.state) {
				t.Fatalf("preflight section: %v", pf.attr)
			}
			when, says := shownSays(t, doc)
			if when != string(tc.state) || !strings.HasPrefix(says, tc.says) {
				t.Errorf("verdict shown %q: %q\nwant %q: %q…", when, says, tc.state, tc.says)
			}
			if strings.Contains(says, "Do not sign") {
				t.Errorf("%s says do not sign: %q", tc.state, says)
			}
			if n := len(doc.byID(t, "pf-blockers").byTag("li")); n != 0 {
				t.Errorf("%d blockers shown", n)
			}
			if doc.byID(t, "sep7-link") == nil || !doc.byID(t, "sign-closed").has("hidden") {
				t.Error("the signing card offers no way to sign")
			}
		})
	}
}

// TestPreflightSaysWhenTheFeeIsLow: a bid below the network's fee is said
// beside the verdict, with both figures and how to bump it (any account
// pays, no signature collected again); a bid at the network's fee, or an
// unknown network fee, says nothing of it. The verdict stays as it is.
func TestPreflightSaysWhenTheFeeIsLow(t *testing.T) {
	for _, tc := range []struct {
		name string
		fee  ledger.FeeAdvice
		low  bool
	}{
		{"low", ledger.FeeAdvice{Bid: 100, Stats: &ledger.FeeStats{Network: 350, BaseFee: 100}}, true},
		{"at the network's fee", ledger.FeeAdvice{Bid: 100, Stats: &ledger.FeeStats{Network: 100, BaseFee: 100}}, false},
		{"unknown", ledger.FeeAdvice{Bid: 100}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, _ := preflightPage(t, ledger.PreflightRun{Preflight: ledger.Preflight{State: ledger.PreflightLandable}, Checked: checked, Fee: tc.fee})
			p := doc.byID(t, "pf-fee")
			if p.has("hidden") == tc.low {
				t.Fatalf("fee advice hidden %v, want shown %v", p.has("hidden"), tc.low)
			}
			if when, _ := shownSays(t, doc); when != "landable" {
				t.Errorf("verdict %s", when)
			}
			if !tc.low {
				return
			}
			text := p.textContent()
			for _, want := range []string{"The fee bid is low.", "bids 100 stroops per operation", "charges 350 now", "without collecting its signatures again", "closerelayctl bump " + doc.byID(t, "plan").attr["data-id"] + " --fee-source G"} {
				if !strings.Contains(text, want) {
					t.Errorf("fee advice %q lacks %q", text, want)
				}
			}
		})
	}
}

// A plan with no preflight run (restored from a store written before
// there was one) shows no ledger check at all.
func TestPreflightNoneRun(t *testing.T) {
	doc, _ := preflightPage(t, ledger.PreflightRun{})
	if pf := doc.byID(t, "preflight"); !pf.has("hidden") {
		t.Errorf("the ledger check is shown with no run: %v", pf.attr)
	}
	if doc.byID(t, "sep7-link") == nil || !doc.byID(t, "sign-closed").has("hidden") {
		t.Error("the signing card offers no way to sign")
	}
}
