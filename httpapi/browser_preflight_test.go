package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/internal/server"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
)

// The ledger check on the co-signers' page in Chromium (CONTRACT section
// 14, issue 21 item 4): a blocked close says "do not sign" above
// everything else, with each blocker in words and the relay's reason; and
// the page follows the verdict live when it changes.

// pfFacts is the ledger check as the browser shows it.
type pfFacts struct {
	Hidden     bool        `json:"hidden"`
	State      string      `json:"state"`
	Shown      []string    `json:"shown"` // the data-when of the visible verdicts
	Heading    string      `json:"heading"`
	Blockers   []pfBlocker `json:"blockers"`
	SignClosed string      `json:"signClosed"` // the signing card's "closed" line, "" when not shown
	WaysToSign bool        `json:"waysToSign"` // a SEP-7 link or the paste form is shown
	Checked    string      `json:"checked"`
	// Tops are the top edges of the check and of what must come after it.
	PFTop     float64 `json:"pfTop"`
	StatusTop float64 `json:"statusTop"`
	SignTop   float64 `json:"signTop"`
	OpsTop    float64 `json:"opsTop"`
}

type pfBlocker struct {
	Code   string `json:"code"`
	Plain  string `json:"plain"`
	Where  string `json:"where"`
	Reason string `json:"reason"`
}

const pfFactsJS = `(() => {
  const $ = (s) => document.querySelector(s);
  const top = (s) => $(s).getBoundingClientRect().top + window.scrollY;
  const pf = $("#preflight");
  const shown = Array.from(pf.querySelectorAll(".pf-say")).filter((d) => d.offsetParent !== null);
  return {
    hidden: pf.offsetParent === null,
    state: pf.dataset.state,
    shown: shown.map((d) => d.dataset.when),
    heading: shown.length ? shown[0].querySelector("h2").textContent.trim() : "",
    blockers: Array.from(document.querySelectorAll("#pf-blockers li")).filter((li) => li.offsetParent !== null).map((li) => ({
      code: li.dataset.code,
      plain: li.querySelector(".pf-plain").textContent.trim(),
      where: li.querySelector(".pf-where").textContent.trim(),
      reason: li.querySelector(".pf-reason").textContent.trim(),
    })),
    signClosed: $("#sign-closed").offsetParent !== null ? $("#sign-closed").textContent.trim() : "",
    waysToSign: ["#sep7-link", "#paste"].some((s) => $(s) !== null && $(s).offsetParent !== null),
    checked: $("#pf-checked").getAttribute("datetime"),
    pfTop: top("#preflight"), statusTop: top("#status"), signTop: top("#sign-h"), opsTop: top("#ops"),
  };
})()`

// TestBrowserBlockedPlanPage: the close of an account that still holds a
// USD trustline with a balance of 50 is blocked with op_has_sub_entries;
// its page says so first, in words, and says not to sign.
func TestBrowserBlockedPlanPage(t *testing.T) {
	ctx := newBrowser(t)
	r := startRelayAPI(t, server.LedgerAPIHorizon, httpapi.Options{}, 0, nil)
	acc := ledgertest.NewAccount(2, 1)
	acc.Thresholds.HighThreshold = 2
	r.Horizon.AddAccount(acc)
	r.Horizon.SetSequence(acc.Address, 100)
	issuer, dest := keypair.MustRandom().Address(), keypair.MustRandom().Address()
	r.Horizon.Fund(issuer, 10_0000000)
	r.Horizon.Fund(dest, 10_0000000)
	if !r.Horizon.AddTrustline(acc.Address, ledgertest.Trustline{Asset: ledgertest.Credit("USD", issuer), Balance: 50_0000000}) {
		t.Fatal("the double refused the trustline")
	}
	x, hash := ledgertest.BuildClose(acc.Master, dest, 101, time.Now().Add(2*time.Hour).Unix(), network.TestNetworkPassphrase, acc.Keys[0])
	id := planWantPublished(t, sbPublish(t, r.Client, r.URL, x, nil), hash)
	st := pfGetStatus(t, r, id).Preflight
	if st == nil || st.State != "blocked" || len(st.Blockers) != 1 || st.Blockers[0].Code != "op_has_sub_entries" {
		t.Fatalf("status.preflight = %+v, want blocked by op_has_sub_entries", st)
	}

	if code := browserOpen(t, ctx, r.URL+"/plan/"+id); code != http.StatusOK {
		t.Fatalf("status %d, want 200", code)
	}
	browserDo(t, ctx, "wait for the page", chromedp.WaitVisible(chromedp.CSS("#preflight")))
	f := browserRun(t, ctx, "read the ledger check", chromedp.Evaluate[pfFacts](pfFactsJS))

	if f.Hidden || f.State != "blocked" || len(f.Shown) != 1 || f.Shown[0] != "blocked" || f.Heading != "Do not sign this close" {
		t.Errorf("ledger check: hidden %v, state %q, verdicts shown %q, heading %q; want blocked, Do not sign this close", f.Hidden, f.State, f.Shown, f.Heading)
	}
	want := pfBlocker{
		Code:   "op_has_sub_entries",
		Plain:  "The account still holds entries that must be removed before it can be closed.",
		Where:  "Operation 1 (account merge):",
		Reason: st.Blockers[0].Reason,
	}
	if len(f.Blockers) != 1 || f.Blockers[0] != want {
		t.Errorf("blockers shown %+v\nwant [%+v]", f.Blockers, want)
	}
	if r := st.Blockers[0].Reason; !strings.Contains(r, "1 trustline: USD ("+issuer+")") {
		t.Errorf("the reason %q does not name the trustline", r)
	}
	if !strings.HasPrefix(f.SignClosed, "Signing is closed: the ledger would refuse this close") || f.WaysToSign {
		t.Errorf("the signing card says %q, ways to sign shown %v; want it closed, with none", f.SignClosed, f.WaysToSign)
	}
	if f.Checked != st.Checked {
		t.Errorf("checked %q, want the status's %q", f.Checked, st.Checked)
	}
	if !(f.PFTop < f.StatusTop && f.PFTop < f.SignTop && f.PFTop < f.OpsTop) {
		t.Errorf("the ledger check (top %v) is not above the signatures (%v), the signing card (%v) and the operations (%v)", f.PFTop, f.StatusTop, f.SignTop, f.OpsTop)
	}
	browserShots(t, ctx, "plan-blocked")
}

// TestBrowserPlanPageFollowsTheCheck: a close published while the account
// had moved on (tx_bad_seq) says not to sign; the account's sequence comes
// back, the last co-signer signs anyway, the relay's check before its
// first try finds the close landable and posts it, and the open page
// follows, with no reload, to the outcome: "The close landed" leads, and
// the ledger check's forecast gives way to it (CONTRACT 18).
func TestBrowserPlanPageFollowsTheCheck(t *testing.T) {
	ctx := newBrowser(t)
	r := startRelayAPI(t, server.LedgerAPIHorizon, httpapi.Options{}, 0, nil)
	acc := ledgertest.NewAccount(2, 1)
	acc.Thresholds.HighThreshold = 2
	r.Horizon.AddAccount(acc)
	r.Horizon.SetSequence(acc.Address, 104)
	dest := keypair.MustRandom().Address()
	r.Horizon.Fund(dest, 10_0000000)
	x, hash := ledgertest.BuildClose(acc.Master, dest, 101, time.Now().Add(2*time.Hour).Unix(), network.TestNetworkPassphrase, acc.Keys[0])
	id := planWantPublished(t, sbPublish(t, r.Client, r.URL, x, map[string]any{"submit": true}), hash)

	if code := browserOpen(t, ctx, r.URL+"/plan/"+id); code != http.StatusOK {
		t.Fatalf("status %d, want 200", code)
	}
	browserDo(t, ctx, "wait for the page", chromedp.WaitVisible(chromedp.CSS("#preflight")))
	f := browserRun(t, ctx, "read the ledger check", chromedp.Evaluate[pfFacts](pfFactsJS))
	if f.State != "blocked" || f.Heading != "Do not sign this close" || len(f.Blockers) != 1 ||
		f.Blockers[0].Code != "tx_bad_seq" || f.Blockers[0].Where != "The transaction:" ||
		f.Blockers[0].Plain != "The account has been used since this close was built." {
		t.Fatalf("ledger check at first: %+v, want blocked by tx_bad_seq", f)
	}
	browserDo(t, ctx, "mark the document", chromedp.Evaluate[chromedp.Void](`window.__marker = "same document"`))

	r.Horizon.SetSequence(acc.Address, 100)
	sseSign(t, r.Client, r.URL, id, ledgertest.SignXDR(ledgertest.StripSignatures(x), network.TestNetworkPassphrase, acc.Keys[1]))
	sbWaitState(t, r.Client, r.URL, id, "submitted")
	browserPoll(t, ctx, "the page to follow the check and the submission",
		`document.getElementById("preflight").dataset.state === "landable" &&
		 document.getElementById("lead").dataset.state === "submitted" && !document.getElementById("lead").hidden`)
	f = browserRun(t, ctx, "read the ledger check", chromedp.Evaluate[pfFacts](pfFactsJS))
	if !f.Hidden || len(f.Shown) != 0 || len(f.Blockers) != 0 || f.SignClosed != "Signing is over: the close has been submitted to the ledger." {
		t.Errorf("ledger check after the submission: %+v, want it hidden behind the outcome", f)
	}
	lead := browserRun(t, ctx, "read the lead", chromedp.Evaluate[string](`document.getElementById("lead-title").textContent + " | " + document.getElementById("lead-hash").textContent`))
	if lead != "The close landed | "+id {
		t.Errorf("lead %q, want the close landed with its hash", lead)
	}
	if st := pfGetStatus(t, r, id).Preflight; st == nil || f.Checked != st.Checked {
		t.Errorf("checked %q, want the status's %+v", f.Checked, st)
	}
	if m := browserRun(t, ctx, "read the marker", chromedp.Evaluate[string](`String(window.__marker)`)); m != "same document" {
		t.Fatalf("marker = %q: the page reloaded instead of updating in place", m)
	}
	browserShots(t, ctx, "plan-landable")
}

// TestBrowserPlanPageSaysTheFeeIsLow: a close bidding 100 stroops an
// operation, published once the network's fee (the double's floor) is 300,
// is landable and its page says, in Chromium, that the bid is low and how
// to bump it; the advice sits in the ledger check, which stays landable.
func TestBrowserPlanPageSaysTheFeeIsLow(t *testing.T) {
	ctx := newBrowser(t)
	r := startRelayAPI(t, server.LedgerAPIHorizon, httpapi.Options{}, 0, nil)
	acc := ledgertest.NewAccount(2, 1)
	acc.Thresholds.HighThreshold = 2
	r.Horizon.AddAccount(acc)
	r.Horizon.SetSequence(acc.Address, 100)
	dest := keypair.MustRandom().Address()
	r.Horizon.Fund(dest, 10_0000000)
	r.Horizon.Handler().SetBaseFee(300)
	x, hash := ledgertest.BuildClose(acc.Master, dest, 101, time.Now().Add(2*time.Hour).Unix(), network.TestNetworkPassphrase, acc.Keys[0])
	id := planWantPublished(t, sbPublish(t, r.Client, r.URL, x, nil), hash)

	if code := browserOpen(t, ctx, r.URL+"/plan/"+id); code != http.StatusOK {
		t.Fatalf("status %d, want 200", code)
	}
	browserDo(t, ctx, "wait for the fee advice", chromedp.WaitVisible(chromedp.CSS("#pf-fee")))
	f := browserRun(t, ctx, "read the ledger check", chromedp.Evaluate[pfFacts](pfFactsJS))
	if f.Hidden || f.State != "landable" || len(f.Shown) != 1 || f.Shown[0] != "landable" {
		t.Errorf("ledger check %+v, want landable", f)
	}
	text := browserRun(t, ctx, "read the fee advice", chromedp.Evaluate[string](`document.getElementById("pf-fee").textContent`))
	for _, want := range []string{"The fee bid is low.", "bids 100 stroops per operation", "charges 300 now", "closerelayctl bump " + id + " --fee-source G"} {
		if !strings.Contains(text, want) {
			t.Errorf("fee advice %q lacks %q", text, want)
		}
	}
}
