package httpapi_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// These tests drive the co-signer's page (GET /plan/{id}) in a real headless
// Chromium against a relay on loopback: what the page shows, its live update
// over the event stream, the time left, and the 404 page. They skip when no
// Chromium is installed (.ci/run installs Debian's package). Screenshots at
// phone and desktop sizes go to t.ArtifactDir: run with
// `-artifacts -outputdir DIR` to keep them.

// browserStep bounds every browser step: a hang guard, not a wait.
const browserStep = 30 * time.Second

// chromiumPath is the browser binary: $CHROMIUM, else chromium or
// chromium-browser on PATH, else /usr/bin/chromium; "" when there is none.
func chromiumPath() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
		return ""
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	return ""
}

// newBrowser starts a headless Chromium with a fresh profile for the test and
// returns the context of its one tab. The browser ends with the test.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	bin := chromiumPath()
	if bin == "" {
		t.Skip("no Chromium: install Debian's chromium package (.ci/run does) or set $CHROMIUM to the binary")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin),
		chromedp.Headless,
		chromedp.NoSandbox, // CI runs as root
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		// Without these Chromium dials out at start, and this machine's
		// closed network refuses it.
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(filepath.Join(t.TempDir(), "profile")),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx, chromedp.WithLogf(t.Logf))
	t.Cleanup(func() { cancel(); cancelAlloc() })
	// Start the browser now, so that a failure to start is reported as such.
	// The first run's context owns the browser, so it cannot be a timeout's:
	// the guard cancels the whole browser instead.
	guard := time.AfterFunc(browserStep, cancel)
	err := chromedp.Do(ctx)
	if !guard.Stop() {
		err = errors.Join(err, errors.New("no browser within the guard"))
	}
	if err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	return ctx
}

// browserDo runs steps under the hang guard, failing the test on an error.
func browserDo(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, browserStep)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// browserRun runs one action under the hang guard and returns its value.
func browserRun[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, browserStep)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// browserOpen navigates to url and returns the document's HTTP status.
func browserOpen(t *testing.T, ctx context.Context, url string) int64 {
	t.Helper()
	res := browserRun(t, ctx, "open "+url, chromedp.NavigateResponse(url))
	if res == nil {
		t.Fatalf("open %s: no response", url)
	}
	return res.Status
}

// browserPoll waits, under the hang guard, until the JS expression is truthy.
func browserPoll(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, browserStep)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		last, _ := browserText(t, ctx)
		t.Fatalf("waiting for %s (%s): %v\npage text:\n%s", what, expr, err, last)
	}
}

// browserText is the page's visible text, for a failure message; it has its
// own guard, as the caller's may have run out.
func browserText(t *testing.T, ctx context.Context) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`))
}

// browserShots saves full-page PNG screenshots of the open page at a phone's
// and a desktop's viewport into the test's artifact directory.
func browserShots(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := t.ArtifactDir()
	for _, size := range []struct {
		label string
		w, h  int64
		opts  []chromedp.EmulateViewportOption
	}{
		{"phone", 390, 844, []chromedp.EmulateViewportOption{chromedp.EmulateMobile, chromedp.EmulateTouch}},
		{"desktop", 1280, 900, nil},
	} {
		browserDo(t, ctx, "viewport "+size.label, chromedp.EmulateViewport(size.w, size.h, size.opts...))
		png := browserRun(t, ctx, "screenshot "+size.label, chromedp.FullScreenshot(100)) // 100: PNG
		path := filepath.Join(dir, name+"-"+size.label+".png")
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot %s", path)
	}
	browserDo(t, ctx, "reset viewport", chromedp.ResetViewport())
}

// pageFacts is what the plan page shows, read from its DOM in one go.
type pageFacts struct {
	Title       string            `json:"title"`
	ID          string            `json:"id"`
	Facts       map[string]string `json:"facts"`
	Signers     []pageSigner      `json:"signers"`
	Status      string            `json:"status"`
	ValueNow    string            `json:"valueNow"`
	ValueMax    string            `json:"valueMax"`
	SignedCount string            `json:"signedCount"`
	TimeLeft    string            `json:"timeLeft"`
	EndTime     string            `json:"endTime"`
	Datetime    string            `json:"datetime"`
	Expired     bool              `json:"expiredShown"`
	ReadyShown  bool              `json:"readyShown"`
	CopyShown   int               `json:"copyShown"`
}

type pageSigner struct {
	Key    string `json:"key"`
	Weight string `json:"weight"`
	Class  string `json:"class"`
	State  string `json:"state"`
}

const pageFactsJS = `(() => {
  const $ = (s) => document.querySelector(s);
  const text = (s) => { const e = $(s); return e ? e.textContent.trim() : ""; };
  const facts = {};
  document.querySelectorAll("dl.facts dt").forEach((dt) => {
    facts[dt.textContent.trim()] = dt.nextElementSibling.textContent.trim();
  });
  return {
    title: document.title,
    id: text(".planid code"),
    facts: facts,
    signers: Array.from(document.querySelectorAll("#signers li[data-key]")).map((li) => ({
      key: li.dataset.key, weight: li.dataset.weight, class: li.className,
      state: li.querySelector(".state").textContent.trim(),
    })),
    status: text("#status"),
    valueNow: $("#progress").getAttribute("aria-valuenow"),
    valueMax: $("#progress").getAttribute("aria-valuemax"),
    signedCount: text("#signed-count"),
    timeLeft: text("#timeleft"),
    endTime: text("#endtime"),
    datetime: $("#end-at").getAttribute("datetime"),
    expiredShown: !$("#expired").hidden,
    readyShown: !$("#ready").hidden,
    copyShown: Array.from(document.querySelectorAll("button[data-copy]")).filter((b) => b.offsetParent !== null).length,
  };
})()`

func readPage(t *testing.T, ctx context.Context) pageFacts {
	t.Helper()
	return browserRun(t, ctx, "read the page", chromedp.Evaluate[pageFacts](pageFactsJS))
}

// browserPlan publishes a close of a fresh account whose high threshold is 2
// of its three signers (two extra keys and the master, weight 1 each),
// signed by acc.Keys[0] only, valid until maxTime (0: no bound), landable.
func browserPlan(t *testing.T, r *planRelay, maxTime int64) (ledgertest.Account, string) {
	t.Helper()
	acc := ledgertest.NewAccount(2, 1)
	acc.Thresholds.HighThreshold = 2
	r.horizon.AddAccount(acc)
	pass := planPass(planTest)
	// The account's next sequence number, so that the close is landable:
	// a blocked one offers no way to sign (CONTRACT 18).
	x, hash := ledgertest.BuildClose(acc.Master, planDest, 1<<32+1, maxTime, pass, acc.Keys[0])
	return acc, planWantPublished(t, r.publish(t, planTest, x), hash)
}

// signerFor finds key's row among the page's signers.
func signerFor(t *testing.T, f pageFacts, key string) pageSigner {
	t.Helper()
	for _, s := range f.Signers {
		if s.Key == key {
			return s
		}
	}
	t.Fatalf("signer %s not on the page (signers %+v)", key, f.Signers)
	return pageSigner{}
}

func TestBrowserPlanPage(t *testing.T) {
	ctx := newBrowser(t)
	r := planStart(t, 0)
	acc, id := browserPlan(t, r, time.Now().Add(2*time.Hour).Unix())

	if st := browserOpen(t, ctx, r.url+"/plan/"+id); st != http.StatusOK {
		t.Fatalf("status %d, want 200", st)
	}
	browserDo(t, ctx, "wait for the page", chromedp.WaitVisible(chromedp.CSS("#status")))
	f := readPage(t, ctx)

	if f.ID != id {
		t.Errorf("plan id shown = %q, want %s", f.ID, id)
	}
	if want := "Plan " + id[:8] + "… · closerelay"; f.Title != want {
		t.Errorf("title = %q, want %q", f.Title, want)
	}
	if got := f.Facts["Account closed"]; got != acc.Address {
		t.Errorf("account closed = %q, want %s", got, acc.Address)
	}
	if got := f.Facts["Funds go to"]; got != planDest {
		t.Errorf("merge destination = %q, want %s", got, planDest)
	}
	if got := f.Facts["Network"]; got != "Testnet" {
		t.Errorf("network = %q, want Testnet", got)
	}
	if len(f.Signers) != 3 {
		t.Fatalf("signers shown = %+v, want the account's 3", f.Signers)
	}
	for i, k := range acc.Keys {
		s := signerFor(t, f, k.Address())
		wantClass, wantState := "pending", "not signed yet"
		if i == 0 {
			wantClass, wantState = "signed", "✓ signed"
		}
		if s.Class != wantClass || s.State != wantState || s.Weight != "1" {
			t.Errorf("signer %d = %+v, want class %q, state %q, weight 1", i, s, wantClass, wantState)
		}
	}
	if f.Status != "Weight 1 of 2: 1 more needed" || f.ValueNow != "1" || f.ValueMax != "2" || f.SignedCount != "1" {
		t.Errorf("progress = status %q, aria %s/%s, signed %s; want Weight 1 of 2: 1 more needed, 1/2, 1",
			f.Status, f.ValueNow, f.ValueMax, f.SignedCount)
	}
	if !regexp.MustCompile(`^in (1 h \d{1,2} min|2 h 0 min)$`).MatchString(f.TimeLeft) {
		t.Errorf("time left = %q, want about 2 h", f.TimeLeft)
	}
	if f.Expired || f.ReadyShown {
		t.Errorf("expired banner shown %v, ready envelope shown %v; want neither", f.Expired, f.ReadyShown)
	}
	if f.CopyShown != 2 {
		t.Errorf("%d copy buttons shown, want 2 (plan.js shows them)", f.CopyShown)
	}
	browserShots(t, ctx, "plan")
}

// TestBrowserPlanPageSaysEveryOperation: a close that also gives 9,000 XLM
// to a third party as a claimable balance and offers 5,000 XLM at
// 1/1,000,000 USD each reads plainly in the browser: each operation in
// words, who in full, the price, marked as funds that go elsewhere than
// the destination (issue 25 item 7).
func TestBrowserPlanPageSaysEveryOperation(t *testing.T) {
	ctx := newBrowser(t)
	r := planStart(t, 0)
	acc := ledgertest.NewAccount(0, 1)
	r.horizon.AddAccount(acc)
	third := ledgertest.Keypair(6).Address()
	usd := txnbuild.CreditAsset{Code: "USD", Issuer: ledgertest.Keypair(8).Address()}
	x, hash := ledgertest.BuildTx(acc.Address, 1, time.Now().Add(time.Hour).Unix(), planPass(planTest), []txnbuild.Operation{
		&txnbuild.CreateClaimableBalance{Amount: "9000", Asset: txnbuild.NativeAsset{},
			Destinations: []txnbuild.Claimant{txnbuild.NewClaimant(third, nil)}},
		&txnbuild.ManageSellOffer{Selling: txnbuild.NativeAsset{}, Buying: usd, Amount: "5000", Price: xdr.Price{N: 1, D: 1_000_000}},
		&txnbuild.AccountMerge{Destination: planDest},
	}, acc.Master)
	id := planWantPublished(t, r.publish(t, planTest, x), hash)
	if st := browserOpen(t, ctx, r.url+"/plan/"+id); st != http.StatusOK {
		t.Fatalf("status %d, want 200", st)
	}
	ops := browserRun(t, ctx, "read the operations", chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll("#ops li")).map((li) => li.className + "|" + li.innerText.trim())`))
	const mark = " ⚠ funds go to someone other than the destination"
	want := []string{
		"elsewhere|give 9000 XLM away as a claimable balance for " + third + mark + " (create claimable balance)",
		"elsewhere|offer to sell 5000 XLM for USD (" + usd.Issuer + ") at 0.000001 USD each" + mark + " (manage sell offer)",
		"|close account " + acc.Address + ": all its remaining XLM goes to " + planDest + " (account merge)",
	}
	if strings.Join(ops, "\n") != strings.Join(want, "\n") {
		t.Errorf("operations shown:\n%s\nwant\n%s", strings.Join(ops, "\n"), strings.Join(want, "\n"))
	}
	browserShots(t, ctx, "plan-every-operation")
}

func TestBrowserPlanPageLiveUpdate(t *testing.T) {
	ctx := newBrowser(t)
	r := planStart(t, 0)
	acc, id := browserPlan(t, r, time.Now().Add(2*time.Hour).Unix())

	// Count the event stream's state events as the page receives them.
	const countEvents = `window.__events = 0;
(() => {
  const Native = window.EventSource;
  window.EventSource = class extends Native {
    constructor(url, init) {
      super(url, init);
      this.addEventListener("message", () => { window.__events++; });
    }
  };
})();`
	browserDo(t, ctx, "instrument EventSource", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: countEvents})
		return err
	}))
	if st := browserOpen(t, ctx, r.url+"/plan/"+id); st != http.StatusOK {
		t.Fatalf("status %d, want 200", st)
	}
	// The stream's first event is the current state: the stream is open.
	browserPoll(t, ctx, "the first state event", `window.__events >= 1`)
	browserDo(t, ctx, "mark the document", chromedp.Evaluate[chromedp.Void](`window.__marker = "same document"`))

	// Another co-signer signs through the JSON API.
	pass := planPass(planTest)
	_, cur := planWantPlan(t, r.get(t, id))
	signed := ledgertest.SignXDR(cur, pass, acc.Keys[1])
	if res := r.sign(t, id, signed); res.status != http.StatusOK {
		t.Fatalf("sign: status %d body %s", res.status, res.body)
	}

	key1 := acc.Keys[1].Address()
	browserPoll(t, ctx, "the page to show the new signature",
		`document.getElementById("status").textContent === "Weight 2 of 2: ready to submit" &&
		 document.querySelector('#signers li[data-key="`+key1+`"]').className === "signed" &&
		 !document.getElementById("ready").hidden && document.getElementById("xdr-ready").value !== ""`)
	if m := browserRun(t, ctx, "read the marker", chromedp.Evaluate[string](`String(window.__marker)`)); m != "same document" {
		t.Fatalf("marker = %q: the page reloaded instead of updating in place", m)
	}
	f := readPage(t, ctx)
	if f.SignedCount != "2" || f.ValueNow != "2" || f.ValueMax != "2" {
		t.Errorf("after the sign: signed %s, aria %s/%s; want 2, 2/2", f.SignedCount, f.ValueNow, f.ValueMax)
	}
	for i, k := range acc.Keys {
		want := "signed"
		if i == 2 {
			want = "pending"
		}
		if s := signerFor(t, f, k.Address()); s.Class != want {
			t.Errorf("signer %d class = %q, want %q", i, s.Class, want)
		}
	}
	// The submit-ready envelope the page fetched is the relay's.
	ready := browserRun(t, ctx, "read the ready envelope", chromedp.Value(chromedp.CSS("#xdr-ready")))
	res := send(t, http.DefaultClient, http.MethodGet, r.url+"/api/plan/"+id+"/ready", nil, nil)
	if res.status != http.StatusOK || !strings.Contains(string(res.body), ready) {
		t.Errorf("page's ready envelope %q is not the relay's (status %d body %s)", ready, res.status, res.body)
	}
	browserShots(t, ctx, "plan-ready")
}

// TestBrowserPlanPageCatchesUpAfterTheCap: with the plan's 50 stream slots
// taken (issue 25's squatter), the page's stream is refused 503; the page
// says that live updates are paused and polls /status, so a signature made
// meanwhile shows; once the squatter leaves, the page is back on a stream
// and the notice goes. Before, plan.js treated the refusal as final: the
// page stayed at one signature while the relay held more, with no word.
func TestBrowserPlanPageCatchesUpAfterTheCap(t *testing.T) {
	ctx := newBrowser(t)
	r := planStart(t, 0)
	acc, id := browserPlan(t, r, time.Now().Add(2*time.Hour).Unix())
	addr := strings.TrimPrefix(r.url, "http://")
	var squatters []net.Conn
	for range actor.DefaultMaxSubscribers {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		s := openRawStream(t, c, addr, id, "")
		s.chunk(t) // retry line
		s.chunk(t) // the state: the slot is taken
		squatters = append(squatters, c)
	}
	const countOpens = `window.__opens = 0;
(() => {
  const Native = window.EventSource;
  window.EventSource = class extends Native {
    constructor(url, init) {
      super(url, init);
      this.addEventListener("open", () => { window.__opens++; });
    }
  };
})();`
	browserDo(t, ctx, "instrument EventSource", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: countOpens})
		return err
	}))
	if st := browserOpen(t, ctx, r.url+"/plan/"+id); st != http.StatusOK {
		t.Fatalf("status %d, want 200", st)
	}
	browserPoll(t, ctx, "the paused notice",
		`!document.getElementById("live-notice").hidden &&
		 /^Live updates paused, checking every \d+ s\.$/.test(document.getElementById("live-notice").textContent)`)

	// Another co-signer signs while no stream is to be had.
	pass := planPass(planTest)
	_, cur := planWantPlan(t, r.get(t, id))
	if res := r.sign(t, id, ledgertest.SignXDR(cur, pass, acc.Keys[1])); res.status != http.StatusOK {
		t.Fatalf("sign: status %d body %s", res.status, res.body)
	}
	key1 := acc.Keys[1].Address()
	browserPoll(t, ctx, "the page to catch up by polling",
		`document.getElementById("status").textContent === "Weight 2 of 2: ready to submit" &&
		 document.querySelector('#signers li[data-key="`+key1+`"]').className === "signed" &&
		 !document.getElementById("ready").hidden && document.getElementById("xdr-ready").value !== ""`)
	if n := browserRun(t, ctx, "count opens", chromedp.Evaluate[int](`window.__opens`)); n != 0 {
		t.Fatalf("%d streams opened with the cap full", n)
	}
	if cur := browserRun(t, ctx, "read the current envelope", chromedp.Value(chromedp.CSS("#xdr-current"))); !strings.Contains(
		string(send(t, http.DefaultClient, http.MethodGet, r.url+"/api/plan/"+id, nil, nil).body), cur) {
		t.Errorf("the page's current envelope is not the relay's after polling")
	}

	// The squatter leaves: the page goes back to a stream, and says nothing.
	for _, c := range squatters {
		c.Close()
	}
	browserPoll(t, ctx, "a stream accepted again",
		`window.__opens >= 1 && document.getElementById("live-notice").hidden`)
	browserShots(t, ctx, "plan-caught-up")
}

func TestBrowserPlanPageTimeLeft(t *testing.T) {
	ctx := newBrowser(t)
	r := planStart(t, 0)
	maxTime := time.Now().Add(6 * time.Minute).Unix()
	_, id := browserPlan(t, r, maxTime)

	if st := browserOpen(t, ctx, r.url+"/plan/"+id); st != http.StatusOK {
		t.Fatalf("status %d, want 200", st)
	}
	f := readPage(t, ctx)
	// The plan ends ExpiryGrace before the transaction's maxTime.
	expiry := time.Unix(maxTime, 0).Add(-ledger.ExpiryGrace)
	if want := expiry.UTC().Format(time.RFC3339); f.Datetime != want {
		t.Errorf("time datetime = %q, want %s", f.Datetime, want)
	}
	m := regexp.MustCompile(`^in (\d+) min$`).FindStringSubmatch(f.TimeLeft)
	if m == nil {
		t.Fatalf("time left = %q, want whole minutes", f.TimeLeft)
	}
	mins, _ := strconv.Atoi(m[1])
	shown := time.Duration(mins) * time.Minute
	// Rounded down to the minute, as the page was read a moment ago.
	if left := time.Until(expiry); shown > left+time.Second || shown < left-time.Minute-10*time.Second {
		t.Errorf("time left = %q (%v), want about %v", f.TimeLeft, shown, left.Round(time.Second))
	}
	if want := "Signatures accepted until " + expiry.UTC().Format("15:04 UTC") + " (" + f.TimeLeft + "); after that the close must be rebuilt."; f.EndTime != want {
		t.Errorf("end time = %q, want %q", f.EndTime, want)
	}
	// One end time: the transaction's own limit is not a second one.
	if !strings.HasPrefix(f.Facts["Valid"], "from now until the end given under Signatures") {
		t.Errorf("valid = %q, want from now until the end given above", f.Facts["Valid"])
	}
	if f.Expired {
		t.Error("the expired banner is shown")
	}
}

func TestBrowserNotFoundPage(t *testing.T) {
	ctx := newBrowser(t)
	r := planStart(t, 0)
	for _, tc := range []struct{ name, id string }{
		{"unknown", strings.Repeat("ab", 32)},
		{"malformed", "not-a-plan-id"},
		{"short hex", strings.Repeat("a", 63)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if st := browserOpen(t, ctx, r.url+"/plan/"+tc.id); st != http.StatusNotFound {
				t.Errorf("status %d, want 404", st)
			}
			h1 := browserRun(t, ctx, "read the heading", chromedp.Text(chromedp.CSS("main h1")))
			title := browserRun(t, ctx, "read the title", chromedp.Title())
			if h1 != "Plan not found" || title != "Plan not found · closerelay" {
				t.Errorf("heading %q, title %q; want Plan not found", h1, title)
			}
			if n := browserRun(t, ctx, "look for a plan", chromedp.Evaluate[int](`document.querySelectorAll("#plan").length`)); n != 0 {
				t.Errorf("the 404 page has a plan section")
			}
			href := browserRun(t, ctx, "read the link", chromedp.Evaluate[string](`document.querySelector("main a").getAttribute("href")`))
			if href != "/" {
				t.Errorf("link = %q, want / (the landing page)", href)
			}
			if tc.name == "unknown" {
				browserShots(t, ctx, "not-found")
			}
		})
	}
}
