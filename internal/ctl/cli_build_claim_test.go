package ctl

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/internal/server"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// build --claim and --assets sell (issue 23) against the account-API
// double, which lists claimable balances and paths and applies the claims
// and sales as stellar-core does.

// claimWorld is a single-signer account holding 50 USD, with a native
// claimable balance of 3 XLM and a USD one of 5 waiting for it, and a
// market maker selling XLM for USD at 0.5 USD per XLM.
type claimWorld struct {
	horizon        *ledgertest.Server
	acct           ledgertest.Account
	issuer         string
	native, credit string // the claimable balances' ids
	env            map[string]string
	usdName        string
}

func newClaimWorld(t *testing.T, market bool) *claimWorld {
	t.Helper()
	h := ledgertest.New()
	t.Cleanup(h.Close)
	w := &claimWorld{horizon: h, acct: ledgertest.NewAccount(0, 1), issuer: keypair.MustRandom().Address()}
	h.AddAccount(w.acct)
	h.Fund(cliDest, 10_0000000)
	h.Fund(w.issuer, 10_0000000)
	usd := ledgertest.Credit("USD", w.issuer)
	w.usdName = "USD:" + w.issuer
	h.AddTrustline(w.acct.Address, ledgertest.Trustline{Asset: usd, Balance: 50_0000000})
	if market {
		maker := keypair.MustRandom().Address()
		h.Fund(maker, 1000_0000000)
		h.AddTrustline(maker, ledgertest.Trustline{Asset: usd})
		h.AddOffer(maker, ledgertest.Offer{Selling: ledgertest.Native(), Buying: usd, Amount: 500_0000000, Price: xdr.Price{N: 1, D: 2}})
	}
	claimants := []ledgertest.Claimant{{Destination: w.acct.Address, Predicate: txnbuild.UnconditionalPredicate}}
	w.native = h.AddClaimableBalance(ledgertest.ClaimableBalance{Asset: ledgertest.Native(), Amount: 3_0000000, Claimants: claimants})
	w.credit = h.AddClaimableBalance(ledgertest.ClaimableBalance{Asset: usd, Amount: 5_0000000, Claimants: claimants})
	w.env = map[string]string{EnvHorizon: h.URL, EnvSecret: w.acct.Master.Seed()}
	return w
}

func (w *claimWorld) build(t *testing.T, args ...string) result {
	t.Helper()
	return runCLI(t, w.env, "", append([]string{"build", "--account", w.acct.Address, "--destination", cliDest}, args...)...)
}

// submit posts the close to the double and fails the test unless it lands.
func (w *claimWorld) submit(t *testing.T, xdrB64 string) {
	t.Helper()
	resp, err := http.PostForm(w.horizon.URL+"/transactions", url.Values{"tx": {strings.TrimSpace(xdrB64)}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := httputil.DumpResponse(resp, true)
		t.Fatalf("the double refused the close: %s", body)
	}
	if _, ok := w.horizon.Balance(w.acct.Address); ok {
		t.Fatal("the account still exists after its close")
	}
}

// TestBuildClaim: without --claim, build names the native balance it
// leaves and what becomes of it, and the hint --claim; with it, the close
// claims it before the merge and lands on the double. The USD balance is
// never claimed, and build says why.
func TestBuildClaim(t *testing.T) {
	w := newClaimWorld(t, false)
	r := w.build(t, "--assets", "return")
	if r.code != ExitOK {
		t.Fatalf("build: %d %s", r.code, r.stderr)
	}
	for _, want := range []string{
		"note: native claimable balances the account can claim, not claimed: 1, 3.0000000 XLM in all;",
		"claimable by their other claimants, or by this key only if the account is created again; --claim claims them",
		"note: claimable balance " + w.credit + " (5.0000000 " + w.usdName + ") is not claimed: claiming it needs a trustline",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("without --claim, stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "claim claimable balance") {
		t.Errorf("without --claim the close claims:\n%s", r.stderr)
	}

	r = w.build(t, "--assets", "return", "--claim", "--sign")
	if r.code != ExitOK {
		t.Fatalf("build --claim: %d %s", r.code, r.stderr)
	}
	for _, want := range []string{"1. claim claimable balance " + w.native, "2. return 50 USD to its issuer", "3. remove the trustline to USD", "4. close account", "preflight: landable"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("with --claim, stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "3.0000000 XLM in all") || !strings.Contains(r.stderr, w.credit+" (5.0000000 "+w.usdName+") is not claimed") {
		t.Errorf("with --claim, the notes are wrong:\n%s", r.stderr)
	}
	w.submit(t, r.stdout)
	if w.horizon.ClaimableBalanceExists(w.native) || !w.horizon.ClaimableBalanceExists(w.credit) {
		t.Error("after the close the native balance must be claimed, the USD one left")
	}
}

// TestBuildClaimLandsOnBothBackends (issue 38 item 7): a close build
// --claim makes is landable, not uncertain, by build's own preflight and by
// the relay's, under each ledger API: the balance it claims is read by id
// (Horizon's /claimable_balances/{id}; with --rpc-url, and under a relay
// with LEDGER_API=rpc, getLedgerEntries of its key). The double then
// applies it: the balance claimed, the account closed.
func TestBuildClaimLandsOnBothBackends(t *testing.T) {
	for _, api := range []string{server.LedgerAPIHorizon, server.LedgerAPIRPC} {
		t.Run(api, func(t *testing.T) {
			rel := startTestRelayAPI(t, api)
			h := rel.horizon
			a := ledgertest.NewAccount(1, 1) // two signers, high threshold 2
			h.AddAccount(a)
			issuer := keypair.MustRandom().Address()
			h.Fund(issuer, 10_0000000)
			h.AddTrustline(a.Address, ledgertest.Trustline{Asset: ledgertest.Credit("USD", issuer), Balance: 50_0000000})
			claimants := []ledgertest.Claimant{{Destination: a.Address, Predicate: txnbuild.UnconditionalPredicate}}
			native := h.AddClaimableBalance(ledgertest.ClaimableBalance{Asset: ledgertest.Native(), Amount: 3_0000000, Claimants: claimants, Sponsor: issuer})
			env := map[string]string{EnvURL: rel.url, EnvHorizon: h.URL, EnvSecret: a.Keys[0].Seed()}
			if api == server.LedgerAPIRPC {
				env[EnvRPC] = h.URL + "/rpc"
			}
			calls := h.Handler().RPCCalls("getLedgerEntries")
			r := runCLI(t, env, "", "build", "--account", a.Address, "--destination", cliDest, "--assets", "return", "--claim", "--sign")
			if r.code != ExitOK || !strings.Contains(r.stderr, "1. claim claimable balance "+native) || !strings.Contains(r.stderr, "preflight: landable\n") {
				t.Fatalf("build --claim: %d\n%s", r.code, r.stderr)
			}
			if got := h.Handler().RPCCalls("getLedgerEntries") - calls; (api == server.LedgerAPIRPC) != (got > 0) {
				t.Errorf("build under %s made %d getLedgerEntries calls", api, got)
			}
			p := runCLI(t, env, r.stdout, "publish", "--json", "-")
			id, _ := p.json(t)["id"].(string)
			if p.code != ExitOK || id == "" {
				t.Fatalf("publish: %d %q %q", p.code, p.stdout, p.stderr)
			}
			if st := statusOf(t, rel, id); st.Preflight == nil || st.Preflight.State != "landable" || len(st.Preflight.Blockers) != 0 {
				t.Fatalf("the relay's preflight under %s: %+v", api, st.Preflight)
			}
			s := runCLI(t, map[string]string{EnvURL: rel.url, EnvSecret: a.Keys[1].Seed()}, "", "sign", "--yes", id)
			if s.code != ExitOK {
				t.Fatalf("sign: %d %q %q", s.code, s.stdout, s.stderr)
			}
			ready := runCLI(t, map[string]string{EnvURL: rel.url}, "", "ready", id)
			if ready.code != ExitOK {
				t.Fatalf("ready: %d %q %q", ready.code, ready.stdout, ready.stderr)
			}
			w := &claimWorld{horizon: h, acct: a}
			w.submit(t, ready.stdout)
			if h.ClaimableBalanceExists(native) {
				t.Error("the close landed without claiming the balance")
			}
		})
	}
}

// TestBuildSell: --assets sell sells each balance for XLM with a minimum
// of the best path less --slippage (1 % by default), and the close lands;
// with no path, build refuses with exit 1 naming the asset; a slippage
// out of range is a usage error.
func TestBuildSell(t *testing.T) {
	w := newClaimWorld(t, true)
	r := w.build(t, "--assets", "sell", "--slippage", "5")
	if r.code != ExitOK || !strings.Contains(r.stderr, "1. sell 50 USD ("+w.issuer+") for at least 95 XLM") {
		t.Errorf("--slippage 5: %d\n%s", r.code, r.stderr)
	}
	r = w.build(t, "--assets", "sell", "--sign")
	if r.code != ExitOK || !strings.Contains(r.stderr, "1. sell 50 USD ("+w.issuer+") for at least 99 XLM") {
		t.Fatalf("--assets sell: %d\n%s", r.code, r.stderr)
	}
	w.submit(t, r.stdout)
	// 10 XLM, less the fee, plus the 100 XLM of the sale.
	if got, _ := w.horizon.Balance(cliDest); got != 10_0000000+ledgertest.DefaultBalance-3*100+100_0000000 {
		t.Errorf("the destination holds %d", got)
	}

	bare := newClaimWorld(t, false)
	r = bare.build(t, "--assets", "sell")
	if r.code != ExitRefused || r.stdout != "" || !strings.Contains(r.stderr, "no path sells 50.0000000 "+bare.usdName+" for XLM: use --assets return") {
		t.Errorf("no path: %d %q\n%s", r.code, r.stdout, r.stderr)
	}
	// The account's own offer buying USD with XLM would be in the quote,
	// and the close cancels it first: refused, naming it.
	own := newClaimWorld(t, true)
	offer := own.horizon.AddOffer(own.acct.Address, ledgertest.Offer{Selling: ledgertest.Native(), Buying: ledgertest.Credit("USD", own.issuer), Amount: 3_0000000, Price: xdr.Price{N: 1, D: 3}})
	r = own.build(t, "--assets", "sell")
	if want := fmt.Sprintf("may count the account's own offer %d, which the close cancels first", offer); r.code != ExitRefused || r.stdout != "" || !strings.Contains(r.stderr, own.usdName) || !strings.Contains(r.stderr, want) {
		t.Errorf("own offer on the path: %d %q\n%s", r.code, r.stdout, r.stderr)
	}
	for _, bad := range []string{"100", "-1", "NaN"} {
		if r := bare.build(t, "--assets", "sell", "--slippage", bad); r.code != ExitUsage || !strings.Contains(r.stderr, "--slippage must be") {
			t.Errorf("--slippage %s: %d %s", bad, r.code, r.stderr)
		}
	}
}

// TestBuildClaimableBalancesUnreadable: an account API that cannot list
// claimable balances leaves a note without --claim, and stops build (exit
// 3) with it; more than build reads is refused with --claim (exit 1).
func TestBuildClaimableBalancesUnreadable(t *testing.T) {
	w := newClaimWorld(t, false)
	double, err := url.Parse(w.horizon.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(double)
	broken := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/claimable_balances" {
			http.Error(rw, `{"status":500,"title":"Internal Server Error"}`, http.StatusInternalServerError)
			return
		}
		proxy.ServeHTTP(rw, r)
	}))
	t.Cleanup(broken.Close)
	env := map[string]string{EnvHorizon: broken.URL}
	r := runCLI(t, env, "", "build", "--account", w.acct.Address, "--destination", cliDest, "--assets", "return")
	if r.code != ExitOK || !strings.Contains(r.stderr, "the account's claimable balances were not read") {
		t.Errorf("unreadable, without --claim: %d %s", r.code, r.stderr)
	}
	r = runCLI(t, env, "", "build", "--account", w.acct.Address, "--destination", cliDest, "--assets", "return", "--claim")
	if r.code != ExitTransport || r.stdout != "" || !strings.Contains(r.stderr, "claimable balances") {
		t.Errorf("unreadable, with --claim: %d %q %s", r.code, r.stdout, r.stderr)
	}

	for i := range 2000 {
		w.horizon.AddClaimableBalance(ledgertest.ClaimableBalance{Asset: ledgertest.Native(), Amount: int64(i + 1),
			Claimants: []ledgertest.Claimant{{Destination: w.acct.Address, Predicate: txnbuild.UnconditionalPredicate}}})
	}
	r = w.build(t, "--assets", "return", "--claim")
	if r.code != ExitRefused || r.stdout != "" || !strings.Contains(r.stderr, fmt.Sprintf("more than %d claimable balances", 2000)) {
		t.Errorf("too many, with --claim: %d %q %s", r.code, r.stdout, r.stderr)
	}
}

// lie makes the double's /paths/strict-send quote, for every sale, got
// stroops of XLM through the assets via; the book stays honest.
func (w *claimWorld) lie(got int64, via ...horizon.Asset) {
	w.horizon.SetStrictSendPaths(func(src xdr.Asset, send int64, _ []horizon.Path) []horizon.Path {
		sa := horizon.Asset{Type: "credit_alphanum4"}
		_ = src.Extract(&sa.Type, &sa.Code, &sa.Issuer)
		return []horizon.Path{{
			SourceAssetType: sa.Type, SourceAssetCode: sa.Code, SourceAssetIssuer: sa.Issuer, SourceAmount: amount.StringFromInt64(send),
			DestinationAssetType: "native", DestinationAmount: amount.StringFromInt64(got), Path: via,
		}}
	})
}

// TestBuildSellChecksTheQuote (issue 39): a path finder quoting 50 USD at
// 0.00002 XLM through SCAM:attacker, where the book's best bid gives 100
// XLM, is refused with exit 1 naming the pair, the quote and the book, and
// nothing on stdout; --force builds it, the SCAM hop named.
func TestBuildSellChecksTheQuote(t *testing.T) {
	w := newClaimWorld(t, true)
	attacker := keypair.MustRandom().Address()
	w.lie(200, horizon.Asset{Type: "credit_alphanum4", Code: "SCAM", Issuer: attacker})
	r := w.build(t, "--assets", "sell", "--sign")
	for _, want := range []string{
		"the sale of 50.0000000 " + w.usdName + " for XLM is refused",
		"the best path quotes 0.0000200 XLM for it through SCAM:" + attacker,
		"100.00 % less than the 100.0000000 XLM the order book " + w.usdName + "/XLM gives for it at its best bid (2.0000000 XLM each)",
		"more than --max-loss 5 % allows", "--force",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the lying quote: stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if r.code != ExitRefused || r.stdout != "" {
		t.Fatalf("the lying quote: %d %q\n%s", r.code, r.stdout, r.stderr)
	}

	r = w.build(t, "--assets", "sell", "--force")
	if want := "1. sell 50 USD (" + w.issuer + ") for at least 0.0000198 XLM through SCAM (" + attacker + ")"; !strings.Contains(r.stderr, want) || strings.TrimSpace(r.stdout) == "" {
		t.Errorf("--force: %d %q, stderr lacks %q:\n%s", r.code, r.stdout, want, r.stderr)
	}
	if r.code != ExitOK && !strings.Contains(r.stderr, "preflight: blocked") {
		t.Errorf("--force: exit %d without a blocked preflight:\n%s", r.code, r.stderr)
	}
}

// TestBuildSellMaxLoss: a direct quote 3 % below the book's best bid
// builds within the default --max-loss of 5 %, and is refused under
// --max-loss 2; a bad --max-loss is a usage error.
func TestBuildSellMaxLoss(t *testing.T) {
	w := newClaimWorld(t, true)
	w.lie(97_0000000)
	if r := w.build(t, "--assets", "sell"); r.code != ExitOK || !strings.Contains(r.stderr, "1. sell 50 USD ("+w.issuer+") for at least 96.03 XLM\n") {
		t.Errorf("3 %% below, default --max-loss: %d\n%s", r.code, r.stderr)
	}
	r := w.build(t, "--assets", "sell", "--max-loss", "2")
	if r.code != ExitRefused || r.stdout != "" || !strings.Contains(r.stderr, "quotes 97.0000000 XLM for it, 3.00 % less than the 100.0000000 XLM") ||
		!strings.Contains(r.stderr, "more than --max-loss 2 % allows") {
		t.Errorf("3 %% below, --max-loss 2: %d %q\n%s", r.code, r.stdout, r.stderr)
	}
	for _, bad := range []string{"100", "-1", "NaN", "five"} {
		if r := w.build(t, "--assets", "sell", "--max-loss", bad); r.code != ExitUsage || !strings.Contains(r.stderr, "--max-loss") {
			t.Errorf("--max-loss %s: %d %s", bad, r.code, r.stderr)
		}
	}
	if r := w.build(t, "--assets", "sell", "--max-loss", "100"); !strings.Contains(r.stderr, "--max-loss must be a percentage") {
		t.Errorf("--max-loss 100: %s", r.stderr)
	}
}

// TestBuildSellWithoutABid: a quote for an asset nobody bids XLM for in
// its order book cannot be checked: refused, saying so, unless --force.
func TestBuildSellWithoutABid(t *testing.T) {
	w := newClaimWorld(t, false)
	w.lie(100_0000000)
	r := w.build(t, "--assets", "sell")
	if r.code != ExitRefused || r.stdout != "" || !strings.Contains(r.stderr, "quotes 100.0000000 XLM for it, and the order book "+w.usdName+"/XLM has no bid, so nothing checks that quote") {
		t.Errorf("no bid: %d %q\n%s", r.code, r.stdout, r.stderr)
	}
	if r := w.build(t, "--assets", "sell", "--force"); strings.TrimSpace(r.stdout) == "" || !strings.Contains(r.stderr, "1. sell 50 USD ("+w.issuer+") for at least 99 XLM\n") {
		t.Errorf("no bid, --force: %d %q\n%s", r.code, r.stdout, r.stderr)
	}
}
