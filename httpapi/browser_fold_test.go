package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/internal/server"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
)

// The decision first, in Chromium (issue 26): at a phone's width (390 px)
// and a desktop's (1280 px), for each state of a plan (collecting
// signatures, ready, submitted, expired, blocked), what the first screen
// holds, checked on the DOM's layout (getBoundingClientRect), not on
// pixels: which parts lie wholly within the viewport, in which order, and
// which ways to sign are gone.

// foldBox is one element's place on the first screen.
type foldBox struct {
	Top    float64 `json:"top"`
	Bottom float64 `json:"bottom"`
	Shown  bool    `json:"shown"`
	Text   string  `json:"text"`
}

type foldFacts struct {
	VH      float64             `json:"vh"`
	VW      float64             `json:"vw"`
	ScrollW float64             `json:"scrollW"`
	Els     map[string]*foldBox `json:"els"`
}

// foldJS measures the selectors from the top of the page.
func foldJS(sels []string) string {
	b, _ := json.Marshal(sels)
	return `((sels) => {
  window.scrollTo(0, 0);
  const out = { vh: window.innerHeight, vw: window.innerWidth, scrollW: document.documentElement.scrollWidth, els: {} };
  for (const s of sels) {
    const e = document.querySelector(s);
    if (!e) { out.els[s] = null; continue; }
    const r = e.getBoundingClientRect();
    out.els[s] = { top: r.top, bottom: r.bottom, shown: e.getClientRects().length > 0, text: e.textContent.replace(/\s+/g, " ").trim().slice(0, 400) };
  }
  return out;
})(` + string(b) + `)`
}

// foldWant is what a state's first screen must hold at one size.
type foldWant struct {
	inFold []string // wholly within the first screen, shown
	order  []string // tops in this order (non-decreasing)
	shown  []string // shown, anywhere
	hidden []string // not shown
	absent []string // not on the page at all
	says   map[string]string
}

var foldSizes = []struct {
	name string
	w, h int64
	opts []chromedp.EmulateViewportOption
}{
	{"390px", 390, 844, []chromedp.EmulateViewportOption{chromedp.EmulateMobile, chromedp.EmulateTouch}},
	{"1280px", 1280, 800, nil},
}

// verdictH2 is the heading of the ledger check's verdict shown.
const verdictH2 = "#preflight .pf-say:not([hidden]) h2"

// checkFold checks the open page at both sizes; want gives, per size name,
// what must hold.
func checkFold(t *testing.T, ctx context.Context, state string, want func(size string) foldWant) {
	t.Helper()
	for _, size := range foldSizes {
		w := want(size.name)
		browserDo(t, ctx, "viewport "+size.name, chromedp.EmulateViewport(size.w, size.h, size.opts...))
		var sels []string
		for _, l := range [][]string{w.inFold, w.order, w.shown, w.hidden} {
			sels = append(sels, l...)
		}
		for s := range w.says {
			sels = append(sels, s)
		}
		sels = append(sels, w.absent...)
		f := browserRun(t, ctx, "measure "+state+" at "+size.name, chromedp.Evaluate[foldFacts](foldJS(sels)))
		el := func(s string) *foldBox {
			if f.Els[s] == nil {
				t.Fatalf("%s at %s: no %s on the page", state, size.name, s)
			}
			return f.Els[s]
		}
		if f.ScrollW > f.VW+0.5 {
			t.Errorf("%s at %s: the page is %v px wide in a %v px viewport", state, size.name, f.ScrollW, f.VW)
		}
		for _, s := range w.inFold {
			if b := el(s); !b.Shown || b.Top < 0 || b.Bottom > f.VH {
				t.Errorf("%s at %s: %s is not wholly on the first screen (shown %v, %v to %v of %v px)", state, size.name, s, b.Shown, b.Top, b.Bottom, f.VH)
			}
		}
		for i := 1; i < len(w.order); i++ {
			if a, b := el(w.order[i-1]), el(w.order[i]); a.Top > b.Top {
				t.Errorf("%s at %s: %s (top %v) comes after %s (top %v)", state, size.name, w.order[i-1], a.Top, w.order[i], b.Top)
			}
		}
		for _, s := range w.shown {
			if !el(s).Shown {
				t.Errorf("%s at %s: %s is not shown", state, size.name, s)
			}
		}
		for _, s := range w.hidden {
			if el(s).Shown {
				t.Errorf("%s at %s: %s is shown (%q)", state, size.name, s, el(s).Text)
			}
		}
		for _, s := range w.absent {
			if f.Els[s] != nil {
				t.Errorf("%s at %s: %s is on the page (%q)", state, size.name, s, f.Els[s].Text)
			}
		}
		for s, text := range w.says {
			if got := el(s).Text; !strings.Contains(got, text) {
				t.Errorf("%s at %s: %s says %q, want %q", state, size.name, s, got, text)
			}
		}
	}
	browserShots(t, ctx, "fold-"+state)
}

// The ways to sign: the wallet link, its QR code, the paste form.
var waysToSign = []string{"#sign-ways", "#sep7-link", "#paste"}

func TestBrowserPageStatesAboveTheFold(t *testing.T) {
	ctx := newBrowser(t)
	r := startRelayAPI(t, server.LedgerAPIHorizon, httpapi.Options{}, 0, nil)
	newPlan := func(t *testing.T, maxTime int64, submit bool) (ledgertest.Account, string, string) {
		t.Helper()
		acc := ledgertest.NewAccount(2, 1)
		acc.Thresholds.HighThreshold = 2
		r.Horizon.AddAccount(acc)
		unsigned, hash := ledgertest.BuildClose(acc.Master, planDest, rdSeq, maxTime, rdPass)
		extra := map[string]any{}
		if submit {
			extra["submit"] = true
		}
		id := planWantPublished(t, sbPublish(t, r.Client, r.URL, ledgertest.SignXDR(unsigned, rdPass, acc.Keys[0]), extra), hash)
		return acc, unsigned, id
	}
	open := func(t *testing.T, id string) {
		t.Helper()
		if st := browserOpen(t, ctx, r.URL+"/plan/"+id); st != http.StatusOK {
			t.Fatalf("status %d, want 200", st)
		}
		browserDo(t, ctx, "wait for the page", chromedp.WaitVisible(chromedp.CSS("#status")))
	}
	sign := func(t *testing.T, id, unsigned string, k *keypair.Full) {
		t.Helper()
		res := send(t, r.Client, http.MethodPost, r.URL+"/api/plan/"+id+"/sign", strings.NewReader(jsonBody(t, map[string]string{"xdr": ledgertest.SignXDR(unsigned, rdPass, k)})), nil)
		if res.status != http.StatusOK {
			t.Fatalf("sign: %d %s", res.status, res.body)
		}
	}
	decisionFirst := []string{"main h1", "#decision"}

	t.Run("collecting", func(t *testing.T) {
		acc, _, id := newPlan(t, time.Now().Add(2*time.Hour).Unix(), false)
		open(t, id)
		checkFold(t, ctx, "collecting", func(size string) foldWant {
			w := foldWant{
				inFold: append(decisionFirst, verdictH2, "#status"),
				order:  []string{"main h1", "#decision", "#preflight", "#progress-h", "#sign-h", "#ops"},
				shown:  waysToSign,
				hidden: []string{"#sign-closed", "#expired"},
				says: map[string]string{
					"main h1": "Close account " + acc.Address[:5] + "\u2060…\u2060" + acc.Address[51:], "#decision": acc.Address,
					"#status": "Weight 1 of 2: 1 more needed", "#endtime": "Signatures accepted until",
					"#signers li[data-master]": "master key",
				},
			}
			if size == "1280px" {
				// Wide enough for the ways to sign beside the progress.
				w.inFold = append(w.inFold, "#endtime", "#sep7-link")
			}
			return w
		})
	})

	t.Run("ready", func(t *testing.T) {
		acc, unsigned, id := newPlan(t, time.Now().Add(2*time.Hour).Unix(), false)
		open(t, id)
		sign(t, id, unsigned, acc.Keys[1])
		browserPoll(t, ctx, "the page to follow to ready", `document.getElementById("sign-ways").hidden`)
		want := func(string) foldWant {
			return foldWant{
				inFold: append(decisionFirst, verdictH2, "#status"),
				order:  []string{"main h1", "#decision", "#preflight", "#progress-h"},
				shown:  []string{"#sign-closed"},
				hidden: append(waysToSign, "#expired"),
				says: map[string]string{
					"#status":      "Weight 2 of 2: ready to submit",
					"#sign-closed": "Signing is over: the signatures collected reach the threshold.",
				},
			}
		}
		checkFold(t, ctx, "ready", want)
		open(t, id) // the server's render, as without JavaScript
		checkFold(t, ctx, "ready-reloaded", want)
	})

	t.Run("submitted", func(t *testing.T) {
		acc, unsigned, id := newPlan(t, time.Now().Add(2*time.Hour).Unix(), true)
		open(t, id)
		sign(t, id, unsigned, acc.Keys[1])
		browserPoll(t, ctx, "the page to follow the submission", `document.getElementById("submission").dataset.state === "submitted"`)
		// The outcome leads, on the first screen at a phone's width too;
		// the ledger check's "This close will land" is gone (CONTRACT 18:
		// it used to open the page, the "Submitted" line below the fold).
		want := func(string) foldWant {
			return foldWant{
				inFold: []string{"main h1", "#lead", "#decision h2 ~ dl dt"},
				order:  []string{"main h1", "#lead", "#decision", "#progress-h", "#submission"},
				shown:  []string{"#sign-closed", "#submission .words"},
				hidden: append(waysToSign, "#expired"),
				says: map[string]string{
					"#lead-title":  "The close landed",
					"#lead-text":   "The ledger closed the account in ledger ",
					"#lead-hash":   id,
					"#status":      "Weight 2 of 2: submitted",
					"#submission":  "Submitted: the ledger closed the account in ledger ",
					"#sign-closed": "Signing is over: the close has been submitted to the ledger.",
				},
			}
		}
		live := want("")
		live.hidden = append(live.hidden, "#preflight")
		checkFold(t, ctx, "submitted", func(string) foldWant { return live })
		open(t, id)
		reloaded := want("")
		reloaded.absent = []string{"#preflight"}
		checkFold(t, ctx, "submitted-reloaded", func(string) foldWant { return reloaded })
	})

	t.Run("expired", func(t *testing.T) {
		// The plan ends ExpiryGrace before maxTime: 3 s from now.
		_, _, id := newPlan(t, time.Now().Add(ledger.ExpiryGrace+3*time.Second).Unix(), false)
		open(t, id)
		browserPoll(t, ctx, "the page to follow the expiry", `!document.getElementById("expired").hidden`)
		checkFold(t, ctx, "expired", func(string) foldWant {
			return foldWant{
				inFold: []string{"main h1", "#expired", "#decision"},
				order:  []string{"main h1", "#expired", "#decision"},
				shown:  []string{"#sign-closed"},
				hidden: waysToSign,
				says: map[string]string{
					"#sign-closed": "Signing is over: the plan has expired. The close must be rebuilt and published again.",
					"#timeleft":    "expired",
				},
			}
		})
	})

	t.Run("blocked", func(t *testing.T) {
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
		open(t, id)
		// A blocked close offers no way to sign: no wallet link, QR code
		// or paste form (CONTRACT 18; they used to stay under a warning).
		checkFold(t, ctx, "blocked", func(size string) foldWant {
			w := foldWant{
				inFold: []string{"main h1", verdictH2},
				order:  []string{"main h1", "#preflight", "#decision", "#progress-h"},
				shown:  []string{"#sign-closed"},
				hidden: []string{"#lead"},
				absent: append(waysToSign, ".qrbox", "#sep7-text"),
				says: map[string]string{verdictH2: "Do not sign this close", "#pf-blockers": "op_has_sub_entries",
					"#sign-closed": "Signing is closed: the ledger would refuse this close as it stands."},
			}
			if size == "1280px" {
				w.inFold = append(w.inFold, "#decision")
			}
			return w
		})
	})
}
