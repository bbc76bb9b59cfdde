package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/internal/server"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// "Sign with a wallet" in Chromium (CONTRACT section 20, issue 41): the
// page's real wallet module (Stellar Wallets Kit v2 and @closerelay/client,
// as web/ts/build.mjs built them) against an emulated Freighter. The test
// is the extension: it answers @stellar/freighter-api's window.postMessage
// protocol (requests tagged FREIGHTER_EXTERNAL_MSG_REQUEST with a
// messageId, answers tagged FREIGHTER_EXTERNAL_MSG_RESPONSE with the same
// id as messagedId, as freighter-api 6's extensionMessaging.ts reads them)
// from a script added to every new document through the DevTools protocol,
// and signs in Go with a key of its own, reached through a DevTools binding.
// Nothing of this is in the page the relay serves.

// freighterJS is the emulated extension's content script; %s is the
// wallet's address as a JSON string.
const freighterJS = `(() => {
  const ADDRESS = %s;
  const pending = new Map();
  let next = 0;
  const reply = (id, body) => window.postMessage(Object.assign({ source: "FREIGHTER_EXTERNAL_MSG_RESPONSE", messagedId: id }, body), window.location.origin);
  // The test's answer to a signing request n (emulatedFreighter.answer).
  window.__freighterAnswer = (n, body) => { const id = pending.get(n); pending.delete(n); reply(id, body); };
  window.addEventListener("message", (ev) => {
    const m = ev.data;
    if (ev.source !== window || !m || m.source !== "FREIGHTER_EXTERNAL_MSG_REQUEST") return;
    switch (m.type) {
      case "REQUEST_CONNECTION_STATUS": reply(m.messageId, { isConnected: true }); break;
      case "REQUEST_ALLOWED_STATUS": reply(m.messageId, { isAllowed: true }); break;
      case "REQUEST_ACCESS":
      case "REQUEST_PUBLIC_KEY": reply(m.messageId, { publicKey: ADDRESS }); break;
      case "SUBMIT_TRANSACTION": {
        const n = ++next;
        pending.set(n, m.messageId);
        window.freighterSign(JSON.stringify({ n: n, xdr: m.transactionXdr, passphrase: m.networkPassphrase || "" }));
        break;
      }
    }
  });
})();`

// freighterMode is how the emulated wallet answers a signing request.
type freighterMode int

const (
	freighterSigns    freighterMode = iota // signs with its key
	freighterRefuses                       // the user rejects the request
	freighterOtherKey                      // signs with another key, still naming its address
)

// emulatedFreighter holds the wallet's key and answers its signing requests.
type emulatedFreighter struct {
	key   *keypair.Full
	other *keypair.Full

	mu         sync.Mutex
	mode       freighterMode
	passphrase []string // the network passphrase of each signing request
	errs       []error
}

func (f *emulatedFreighter) setMode(m freighterMode) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mode = m
}

func (f *emulatedFreighter) seen() ([]string, []error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.passphrase...), append([]error(nil), f.errs...)
}

// installFreighter adds the emulated extension to every document the tab
// opens from now on, answering as key.
func installFreighter(t *testing.T, ctx context.Context, key *keypair.Full) *emulatedFreighter {
	t.Helper()
	f := &emulatedFreighter{key: key, other: keypair.MustRandom()}
	addr, _ := json.Marshal(key.Address())
	if err := chromedp.Listen(ctx, func(ev any) {
		// The page's errors and the browser's (a CSP refusal, say) go to
		// the test's log, to tell why a step did not come.
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			t.Logf("page exception: %s %v", e.ExceptionDetails.Text, e.ExceptionDetails.Exception)
		case *cdplog.EventEntryAdded:
			t.Logf("browser %s: %s %s", e.Entry.Level, e.Entry.Text, e.Entry.URL)
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				t.Logf("console.%s: %s", e.Type, strings.Join(parts, " "))
			}
		}
		b, ok := ev.(*runtime.EventBindingCalled)
		if !ok || b.Name != "freighterSign" {
			return
		}
		// A listener must not block the tab's events: answer from a goroutine.
		go f.answer(ctx, b.Payload)
	}); err != nil {
		t.Fatal(err)
	}
	browserDo(t, ctx, "install the emulated Freighter", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
			return err
		}
		if _, err := chromedp.Call(ctx, runtime.AddBinding, runtime.AddBindingParams{Name: "freighterSign"}); err != nil {
			return err
		}
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: fmt.Sprintf(freighterJS, addr)})
		return err
	}))
	return f
}

// answer signs (or refuses) one request and posts the extension's answer.
func (f *emulatedFreighter) answer(ctx context.Context, payload string) {
	var req struct {
		N          int    `json:"n"`
		XDR        string `json:"xdr"`
		Passphrase string `json:"passphrase"`
	}
	body := map[string]any{}
	err := json.Unmarshal([]byte(payload), &req)
	f.mu.Lock()
	mode := f.mode
	f.passphrase = append(f.passphrase, req.Passphrase)
	f.mu.Unlock()
	if err == nil {
		switch mode {
		case freighterRefuses:
			// Freighter's answer when its user declines (FreighterApiDeclinedError).
			body["apiError"] = map[string]any{"code": -4, "message": "The user rejected this request."}
		default:
			signer := f.key
			if mode == freighterOtherKey {
				signer = f.other
			}
			var signed string
			signed, err = signXDR(req.XDR, req.Passphrase, signer)
			body["signedTransaction"], body["signerAddress"] = signed, f.key.Address()
		}
	}
	if err != nil {
		f.mu.Lock()
		f.errs = append(f.errs, err)
		f.mu.Unlock()
		body = map[string]any{"apiError": map[string]any{"code": -1, "message": err.Error()}}
	}
	b, _ := json.Marshal(body)
	ctx, cancel := context.WithTimeout(ctx, browserStep)
	defer cancel()
	_ = chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf("window.__freighterAnswer(%d, %s)", req.N, b)))
}

// signXDR adds key's signature on passphrase's network to the envelope x.
func signXDR(x, passphrase string, key *keypair.Full) (string, error) {
	g, err := txnbuild.TransactionFromXDR(x)
	if err != nil {
		return "", err
	}
	tx, ok := g.Transaction()
	if !ok {
		return "", fmt.Errorf("not a classic transaction")
	}
	if tx, err = tx.Sign(passphrase, key); err != nil {
		return "", err
	}
	return tx.Base64()
}

// walletFacts is the wallet box as the page shows it.
type walletFacts struct {
	Button   bool              `json:"button"` // #wallet-sign exists and is shown
	Enabled  bool              `json:"enabled"`
	Label    string            `json:"label"`
	Say      string            `json:"say"`
	SayClass string            `json:"sayClass"`
	Panel    string            `json:"panel"`
	Signed   map[string]string `json:"signed"` // the panel's facts
	Status   string            `json:"status"`
	Count    string            `json:"count"`
}

const walletFactsJS = `(() => {
  const $ = (s) => document.querySelector(s);
  const shown = (e) => e !== null && e.getClientRects().length > 0;
  const b = $("#wallet-sign"), say = $("#wallet-say"), panel = $("#wallet-panel");
  const signed = {};
  if (shown(panel)) panel.querySelectorAll("dt").forEach((dt) => { signed[dt.textContent.trim()] = dt.nextElementSibling.textContent.trim(); });
  return {
    button: shown(b), enabled: b !== null && !b.disabled, label: b ? b.textContent.trim() : "",
    say: shown(say) ? say.textContent.replace(/\s+/g, " ").trim() : "", sayClass: say ? say.className : "",
    panel: shown(panel) ? panel.textContent.replace(/\s+/g, " ").trim() : "",
    signed: signed,
    status: $("#status").textContent.trim(), count: $("#signed-count").textContent.trim(),
  };
})()`

func readWallet(t *testing.T, ctx context.Context) walletFacts {
	t.Helper()
	return browserRun(t, ctx, "read the wallet box", chromedp.Evaluate[walletFacts](walletFactsJS))
}

// walletConnect clicks "Sign with a wallet", waits for the kit's list and
// picks Freighter in it.
func walletConnect(t *testing.T, ctx context.Context, shot string) {
	t.Helper()
	browserDo(t, ctx, "click Sign with a wallet", chromedp.Click(chromedp.CSS("#wallet-sign")))
	const freighterItem = `Array.from(document.querySelectorAll(".stellar-wallets-kit li, li")).find((li) => { const p = li.querySelector("p"); return p && p.textContent.trim() === "Freighter"; })`
	browserPoll(t, ctx, "the kit's wallet list with Freighter", `!!(`+freighterItem+`)`)
	if shot != "" {
		browserShots(t, ctx, shot)
	}
	browserDo(t, ctx, "pick Freighter", chromedp.Evaluate[chromedp.Void](`(`+freighterItem+`).click()`))
}

// walletPage opens plan id's page with an emulated Freighter of key.
func walletPage(t *testing.T, url, id string, key *keypair.Full) (context.Context, *emulatedFreighter) {
	t.Helper()
	ctx := newBrowser(t)
	f := installFreighter(t, ctx, key)
	if st := browserOpen(t, ctx, url+"/plan/"+id); st != http.StatusOK {
		t.Fatalf("status %d, want 200", st)
	}
	browserPoll(t, ctx, "the wallet button", `(() => { const b = document.querySelector("#wallet-sign"); return b !== null && b.getClientRects().length > 0; })()`)
	return ctx, f
}

// TestBrowserWalletSigns: a co-signer whose Freighter holds a signer's key
// connects, sees again what it signs, signs, and the page shows the new
// weight at once; the relay holds the signature.
func TestBrowserWalletSigns(t *testing.T) {
	r := planStart(t, 0)
	acc, id := browserPlan(t, r, time.Now().Add(2*time.Hour).Unix())
	ctx, f := walletPage(t, r.url, id, acc.Keys[1])
	// On a phone's first screen (390 x 844): the decision and the button.
	browserDo(t, ctx, "phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	fold := browserRun(t, ctx, "measure the first screen", chromedp.Evaluate[foldFacts](foldJS([]string{"#decision", "#wallet-sign"})))
	for _, sel := range []string{"#decision", "#wallet-sign"} {
		if b := fold.Els[sel]; b == nil || !b.Shown || b.Top < 0 || b.Bottom > fold.VH {
			t.Errorf("at 390 px %s is not wholly on the first screen (%+v, viewport height %v)", sel, b, fold.VH)
		}
	}
	browserDo(t, ctx, "reset viewport", chromedp.ResetViewport())
	browserShots(t, ctx, "wallet-0-button")

	walletConnect(t, ctx, "wallet-1-list")
	browserPoll(t, ctx, "the confirmation", `!!document.querySelector("#wallet-go")`)
	w := readWallet(t, ctx)
	if !strings.Contains(w.Panel, "Signing as "+acc.Keys[1].Address()+" (weight 1)") {
		t.Errorf("panel %q does not name the signer and its weight", w.Panel)
	}
	for k, want := range map[string]string{
		"Account closed": acc.Address,
		"Funds go to":    planDest,
		"Network":        "Testnet",
		"Ledger check":   "This close will land",
	} {
		if w.Signed[k] != want {
			t.Errorf("what is signed: %s = %q, want %q", k, w.Signed[k], want)
		}
	}
	if !strings.HasPrefix(w.Signed["How much"], "The account's whole XLM balance") && !strings.Contains(w.Signed["How much"], "XLM") {
		t.Errorf("what is signed: How much = %q", w.Signed["How much"])
	}
	if w.Status != "Weight 1 of 2: 1 more needed" {
		t.Errorf("status before signing %q", w.Status)
	}
	browserShots(t, ctx, "wallet-2-confirm")

	browserDo(t, ctx, "sign", chromedp.Click(chromedp.CSS("#wallet-go")))
	browserPoll(t, ctx, "the signature added", `document.querySelector("#wallet-say").textContent.includes("Signature added")`)
	w = readWallet(t, ctx)
	if w.Status != "Weight 2 of 2: ready to submit" || w.Count != "2" {
		t.Errorf("after signing: status %q, %s signed; want Weight 2 of 2: ready to submit, 2", w.Status, w.Count)
	}
	if !strings.Contains(w.Say, "weight 2 of 2: enough to submit") || !strings.Contains(w.SayClass, "notice-ok") {
		t.Errorf("after signing the box says %q (%s)", w.Say, w.SayClass)
	}
	browserShots(t, ctx, "wallet-3-signed")

	pass, errs := f.seen()
	if len(errs) > 0 || len(pass) != 1 || pass[0] != network.TestNetworkPassphrase {
		t.Errorf("the wallet was asked to sign on %q (errors %v), want once on the testnet", pass, errs)
	}
	st := planGetStatus(t, r.url, id)
	if st.Weight != 2 || !st.Ready || !containsString(st.Signers, acc.Keys[1].Address()) {
		t.Errorf("relay status: weight %d, ready %v, signers %v; want 2, ready, with %s", st.Weight, st.Ready, st.Signers, acc.Keys[1].Address())
	}
}

// TestBrowserWalletNotASigner: a wallet whose address is none of the
// account's signers is told so plainly; nothing is asked to sign.
func TestBrowserWalletNotASigner(t *testing.T) {
	r := planStart(t, 0)
	_, id := browserPlan(t, r, time.Now().Add(2*time.Hour).Unix())
	stranger := keypair.MustRandom()
	ctx, f := walletPage(t, r.url, id, stranger)
	walletConnect(t, ctx, "")
	browserPoll(t, ctx, "the refusal", `document.querySelector("#wallet-say").textContent.includes("Not a signer")`)
	w := readWallet(t, ctx)
	if !strings.Contains(w.Say, stranger.Address()+", which is not one of this account's signers") || w.Panel != "" {
		t.Errorf("the box says %q, panel %q", w.Say, w.Panel)
	}
	if !w.Button || !w.Enabled || w.Label != "Sign with another wallet" {
		t.Errorf("button shown %v, enabled %v, %q; want Sign with another wallet, usable", w.Button, w.Enabled, w.Label)
	}
	browserShots(t, ctx, "wallet-not-signer")
	if pass, _ := f.seen(); len(pass) != 0 {
		t.Errorf("the wallet was asked to sign %d times", len(pass))
	}
}

// TestBrowserWalletAlreadySigned: the wallet of a signer whose signature
// the plan holds already is told so; nothing is asked to sign.
func TestBrowserWalletAlreadySigned(t *testing.T) {
	r := planStart(t, 0)
	acc, id := browserPlan(t, r, time.Now().Add(2*time.Hour).Unix())
	ctx, f := walletPage(t, r.url, id, acc.Keys[0])
	walletConnect(t, ctx, "")
	browserPoll(t, ctx, "already signed", `document.querySelector("#wallet-say").textContent.includes("Already signed")`)
	w := readWallet(t, ctx)
	if !strings.Contains(w.Say, acc.Keys[0].Address()+" has already signed this close") || w.Panel != "" {
		t.Errorf("the box says %q, panel %q", w.Say, w.Panel)
	}
	browserShots(t, ctx, "wallet-already-signed")
	if pass, _ := f.seen(); len(pass) != 0 {
		t.Errorf("the wallet was asked to sign %d times", len(pass))
	}
}

// TestBrowserWalletRefuses: a wallet that refuses, then one that signs with
// another key, get a clear message each; the page stays usable, and the
// same co-signer then signs.
func TestBrowserWalletRefuses(t *testing.T) {
	r := planStart(t, 0)
	acc, id := browserPlan(t, r, time.Now().Add(2*time.Hour).Unix())
	ctx, f := walletPage(t, r.url, id, acc.Keys[1])
	f.setMode(freighterRefuses)
	walletConnect(t, ctx, "")
	browserPoll(t, ctx, "the confirmation", `!!document.querySelector("#wallet-go")`)
	browserDo(t, ctx, "sign", chromedp.Click(chromedp.CSS("#wallet-go")))
	browserPoll(t, ctx, "the refusal", `document.querySelector("#wallet-say").textContent.includes("did not sign")`)
	w := readWallet(t, ctx)
	if !strings.Contains(w.Say, "Freighter refused or failed to sign: The user rejected this request.") || !strings.Contains(w.SayClass, "notice-error") {
		t.Errorf("after a refusal the box says %q (%s)", w.Say, w.SayClass)
	}
	if w.Status != "Weight 1 of 2: 1 more needed" {
		t.Errorf("after a refusal: status %q", w.Status)
	}
	browserShots(t, ctx, "wallet-refused")

	f.setMode(freighterOtherKey)
	browserPoll(t, ctx, "the sign button usable again", `!document.querySelector("#wallet-go").disabled`)
	browserDo(t, ctx, "sign again", chromedp.Click(chromedp.CSS("#wallet-go")))
	browserPoll(t, ctx, "the other key told", `document.querySelector("#wallet-say").textContent.includes("Signed with another key")`)
	w = readWallet(t, ctx)
	if !strings.Contains(w.Say, "signed with a key other than "+acc.Keys[1].Address()+", so the signature was not sent") {
		t.Errorf("after another key's signature the box says %q", w.Say)
	}
	browserShots(t, ctx, "wallet-other-key")
	if st := planGetStatus(t, r.url, id); st.Weight != 1 {
		t.Errorf("the relay's weight is %d after a refusal and another key's signature, want 1", st.Weight)
	}

	f.setMode(freighterSigns)
	browserPoll(t, ctx, "the sign button usable again", `!document.querySelector("#wallet-go").disabled`)
	browserDo(t, ctx, "sign at last", chromedp.Click(chromedp.CSS("#wallet-go")))
	browserPoll(t, ctx, "the signature added", `document.querySelector("#wallet-say").textContent.includes("Signature added")`)
	if w = readWallet(t, ctx); w.Status != "Weight 2 of 2: ready to submit" {
		t.Errorf("after signing: status %q", w.Status)
	}
	if pass, errs := f.seen(); len(pass) != 3 || len(errs) != 0 {
		t.Errorf("the wallet was asked %d times (errors %v), want 3", len(pass), errs)
	}
}

// TestBrowserWalletBlockedPlan: a blocked plan's page has no wallet button
// (nor SEP-7 link, QR code or paste form).
func TestBrowserWalletBlockedPlan(t *testing.T) {
	r := startRelayAPI(t, server.LedgerAPIHorizon, httpapi.Options{}, 0, nil)
	acc := ledgertest.NewAccount(2, 1)
	acc.Thresholds.HighThreshold = 2
	r.Horizon.AddAccount(acc)
	r.Horizon.SetSequence(acc.Address, 100)
	// A USD trustline with a balance: op_has_sub_entries.
	issuer := keypair.MustRandom().Address()
	r.Horizon.Fund(issuer, 10_0000000)
	r.Horizon.Fund(planDest, 10_0000000)
	if !r.Horizon.AddTrustline(acc.Address, ledgertest.Trustline{Asset: ledgertest.Credit("USD", issuer), Balance: 50_0000000}) {
		t.Fatal("the double refused the trustline")
	}
	x, hash := ledgertest.BuildClose(acc.Master, planDest, 101, time.Now().Add(2*time.Hour).Unix(), network.TestNetworkPassphrase, acc.Keys[0])
	id := planWantPublished(t, sbPublish(t, r.Client, r.URL, x, nil), hash)
	if st := pfGetStatus(t, r, id).Preflight; st == nil || st.State != "blocked" {
		t.Fatalf("status.preflight = %+v, want blocked", st)
	}
	ctx := newBrowser(t)
	installFreighter(t, ctx, acc.Keys[1])
	if st := browserOpen(t, ctx, r.URL+"/plan/"+id); st != http.StatusOK {
		t.Fatalf("status %d, want 200", st)
	}
	browserDo(t, ctx, "wait for the page", chromedp.WaitVisible(chromedp.CSS("#preflight")))
	if none := browserRun(t, ctx, "look for ways to sign", chromedp.Evaluate[bool](`["#wallet", "#wallet-sign", "#sep7-link", ".qrbox", "#paste"].every((s) => document.querySelector(s) === null)`)); !none {
		t.Error("a blocked plan's page offers a way to sign")
	}
	browserShots(t, ctx, "wallet-blocked")
}

// walletStatus is the part of GET /api/plan/{id}/status these tests read.
type walletStatus struct {
	Weight  int      `json:"weight"`
	Ready   bool     `json:"ready"`
	Signers []string `json:"signers"`
}

func planGetStatus(t *testing.T, base, id string) walletStatus {
	t.Helper()
	res := send(t, http.DefaultClient, http.MethodGet, base+"/api/plan/"+id+"/status", nil, nil)
	var st walletStatus
	if res.status != http.StatusOK || json.Unmarshal(res.body, &st) != nil {
		t.Fatalf("GET status: %d %s", res.status, res.body)
	}
	return st
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
