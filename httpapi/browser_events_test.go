package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
)

// fakeEventSource stands in for the browser's EventSource before plan.js
// runs, so that a test can hand the page the named events of CONTRACT
// sections 10, 14 and 16 (submitted, submit_failed, forwarded,
// forward_failed, expired) as the relay sends them, including those the
// relay of this branch never sends yet (the forward's). __emit(type, data)
// delivers one to the newest stream.
const fakeEventSource = `(() => {
  window.__es = [];
  function ES(url) {
    this.url = url; this.readyState = 1; this.listeners = {};
    window.__es.push(this);
    var self = this;
    setTimeout(function () { if (self.onopen) { self.onopen({}); } }, 0);
  }
  ES.CONNECTING = 0; ES.OPEN = 1; ES.CLOSED = 2;
  ES.prototype.addEventListener = function (type, fn) { (this.listeners[type] = this.listeners[type] || []).push(fn); };
  ES.prototype.close = function () { this.readyState = 2; };
  window.EventSource = ES;
  window.__emit = function (type, data) {
    var es = window.__es[window.__es.length - 1];
    var ev = { data: JSON.stringify(data), lastEventId: "" };
    if (type === "message") { if (es.onmessage) { es.onmessage(ev); } return; }
    (es.listeners[type] || []).forEach(function (fn) { fn(ev); });
  };
})()`

// TestBrowserPageFollowsTheNamedEvents: the open page says each named event
// as it comes, in words, with hostile text kept as text, and hides the ways
// to sign once the close is submitted or the plan expired (issue 26).
func TestBrowserPageFollowsTheNamedEvents(t *testing.T) {
	ctx := newBrowser(t)
	r := planStart(t, 0)
	_, id := browserPlan(t, r, time.Now().Add(2*time.Hour).Unix())
	browserDo(t, ctx, "stand in for EventSource", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: fakeEventSource})
		return err
	}))
	if st := browserOpen(t, ctx, r.url+"/plan/"+id); st != http.StatusOK {
		t.Fatalf("status %d, want 200", st)
	}
	browserPoll(t, ctx, "the page's stream", `window.__es.length > 0 && window.__es[0].listeners["forwarded"] !== undefined`)
	emit := func(typ string, data map[string]any) {
		t.Helper()
		b, _ := json.Marshal(data)
		browserDo(t, ctx, "emit "+typ, chromedp.Evaluate[chromedp.Void](`window.__emit("`+typ+`", `+string(b)+`)`))
	}
	text := func(sel string) string {
		t.Helper()
		return browserRun(t, ctx, "read "+sel, chromedp.Evaluate[string](`document.querySelector("`+sel+`").textContent.replace(/\s+/g, " ").trim()`))
	}
	shown := func(sel string) bool {
		t.Helper()
		return browserRun(t, ctx, "look at "+sel, chromedp.Evaluate[bool](`document.querySelector("`+sel+`").getClientRects().length > 0`))
	}
	hostile := `<img src=x onerror="window.__pwned=1">`

	if shown("#submission") || shown("#forward") || !shown("#sign-ways") {
		t.Fatal("before any event: an outcome shown, or the ways to sign hidden")
	}
	emit("submit_failed", map[string]any{"id": id, "code": "tx_bad_seq" + hostile, "reason": "the sequence moved"})
	if got := text("#submission"); got != "The ledger refused the close (tx_bad_seq"+hostile+"). The relay tries again when the envelope changes." {
		t.Errorf("after submit_failed: %q", got)
	}
	emit("submitted", map[string]any{"id": id, "hash": strings.Repeat("c", 64), "ledger": 4242})
	if got := text("#submission"); got != "Submitted: the ledger closed the account in ledger 4242. Transaction "+strings.Repeat("c", 64) {
		t.Errorf("after submitted: %q", got)
	}
	if shown("#sign-ways") || !shown("#sign-closed") || text("#sign-closed") != "Signing is over: the close has been submitted to the ledger." {
		t.Errorf("after submitted: ways to sign shown %v, closed says %q", shown("#sign-ways"), text("#sign-closed"))
	}
	emit("forwarded", map[string]any{"id": id, "hash": strings.Repeat("d", 64), "ledger": 4243, "amount": "497.9999900"})
	if got := text("#forward"); got != "Forwarded: 497.9999900 XLM reached the destination in ledger 4243. Transaction "+strings.Repeat("d", 64) {
		t.Errorf("after forwarded: %q", got)
	}
	emit("forward_failed", map[string]any{"id": id, "code": "op_underfunded", "reason": hostile})
	if got := text("#forward"); got != "The mediator's forward failed (op_underfunded)." {
		t.Errorf("after forward_failed: %q", got)
	}
	emit("expired", map[string]any{"id": id})
	if !shown("#expired") || shown("#sign-ways") || text("#sign-closed") != "Signing is over: the plan has expired. The close must be rebuilt and published again." || text("#timeleft") != "expired" {
		t.Errorf("after expired: banner %v, ways %v, closed %q, time left %q", shown("#expired"), shown("#sign-ways"), text("#sign-closed"), text("#timeleft"))
	}
	if pwned := browserRun(t, ctx, "look for injected markup", chromedp.Evaluate[bool](`window.__pwned === 1 || document.querySelectorAll("#outcome img").length > 0`)); pwned {
		t.Error("an event's text became markup")
	}
}

// TestBrowserPasteFormWithScript: with JavaScript the paste form sends the
// envelope to the JSON sign route and says the answer beside the form,
// without leaving the page; the progress follows at once.
func TestBrowserPasteFormWithScript(t *testing.T) {
	ctx := newBrowser(t)
	r := planStart(t, 0)
	acc, id := browserPlan(t, r, time.Now().Add(2*time.Hour).Unix())
	if st := browserOpen(t, ctx, r.url+"/plan/"+id); st != http.StatusOK {
		t.Fatalf("status %d, want 200", st)
	}
	browserDo(t, ctx, "mark the document", chromedp.Evaluate[chromedp.Void](`window.__marker = "same document"`))
	_, cur := planWantPlan(t, r.get(t, id))
	unsigned := ledgertest.StripSignatures(cur)
	sendPaste := func(x string) string {
		t.Helper()
		browserDo(t, ctx, "clear the answer", chromedp.Evaluate[chromedp.Void](`document.getElementById("paste-result").hidden = true`))
		browserDo(t, ctx, "paste", chromedp.SetValue(chromedp.CSS("#paste-xdr"), x), chromedp.Click(chromedp.CSS("#paste-send")))
		browserPoll(t, ctx, "the answer", `!document.getElementById("paste-result").hidden && !document.getElementById("paste-send").disabled`)
		return browserRun(t, ctx, "read the answer", chromedp.Evaluate[string](`document.getElementById("paste-result").textContent`))
	}
	if got := sendPaste("not an envelope"); !strings.HasPrefix(got, "Envelope refusedThis is not a transaction envelope the relay can read: ") || !strings.HasSuffix(got, "BAD_XDR") {
		t.Errorf("garbage: %q", got)
	}
	if got := sendPaste(ledgertest.SignXDR(unsigned, planPass(planTest), keypair.MustRandom())); !strings.HasPrefix(got, "Envelope refusedThe relay refused a signature in this envelope: ") || !strings.HasSuffix(got, "REJECTED") {
		t.Errorf("a stranger's signature: %q", got)
	}
	if got := sendPaste(ledgertest.SignXDR(unsigned, planPass(planTest), acc.Keys[1])); got != "Signature addedThe relay admitted the envelope's signatures: weight 2 of 2: enough to submit." {
		t.Errorf("a co-signer's signature: %q", got)
	}
	browserPoll(t, ctx, "the page to follow", `document.getElementById("status").textContent === "Weight 2 of 2: ready to submit"`)
	// The ways to sign are gone; the answer stays.
	if shown := browserRun(t, ctx, "look at the answer", chromedp.Evaluate[bool](`document.getElementById("paste-result").getClientRects().length > 0 && document.getElementById("sign-ways").hidden`)); !shown {
		t.Error("the answer went with the ways to sign, or the ways to sign stayed")
	}
	if m := browserRun(t, ctx, "read the marker", chromedp.Evaluate[string](`window.__marker || ""`)); m != "same document" {
		t.Error("the form left the page")
	}
	if _, cur := planWantPlan(t, r.get(t, id)); len(planSigs(t, cur)) != 2 {
		t.Errorf("the plan has %d signatures, want 2", len(planSigs(t, cur)))
	}
}
