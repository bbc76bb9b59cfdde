package ctl

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// build against an account that holds what real accounts hold: a USD
// trustline with 50 USD, an offer and a data entry (issue 23). Before, it
// printed one operation, [AccountMerge], and exited 0; the ledger refuses
// that close with op_has_sub_entries.

func holdingAccount(t *testing.T, rel *testRelay) (account, issuer string) {
	t.Helper()
	a := ledgertest.NewAccount(2, 1)
	rel.horizon.AddAccount(a)
	issuer = keypair.MustRandom().Address()
	rel.horizon.Fund(issuer, 10_0000000)
	usd := ledgertest.Credit("USD", issuer)
	rel.horizon.AddTrustline(a.Address, ledgertest.Trustline{Asset: usd, Balance: 50_0000000})
	rel.horizon.AddOffer(a.Address, ledgertest.Offer{Selling: usd, Buying: ledgertest.Native(), Amount: 10_0000000, Price: xdr.Price{N: 2, D: 1}})
	rel.horizon.SetData(a.Address, "note", []byte("x"), "")
	return a.Address, issuer
}

func TestBuildEmptiesTheAccountFirst(t *testing.T) {
	rel := startTestRelay(t)
	account, issuer := holdingAccount(t, rel)
	env := map[string]string{EnvHorizon: rel.horizon.URL}
	r := runCLI(t, env, "", "build", "--account", account, "--destination", cliDest, "--assets", "return")
	if r.code != ExitOK {
		t.Fatalf("build: %d %s", r.code, r.stderr)
	}
	for _, want := range []string{
		"1. cancel offer ", "2. return 50 USD to its issuer " + issuer, "3. remove the trustline to USD (" + issuer + ")",
		`4. delete data entry "note"`, "5. close account " + account, "preflight: landable",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("stdout is not the XDR alone: %q", r.stdout)
	}
}

func TestBuildRefusals(t *testing.T) {
	rel := startTestRelay(t)
	account, _ := holdingAccount(t, rel)
	env := map[string]string{EnvHorizon: rel.horizon.URL}

	// The default sends each balance to the destination, which has no
	// USD trustline: refused, naming the asset and the way out.
	r := runCLI(t, env, "", "build", "--account", account, "--destination", cliDest)
	if r.code != ExitRefused || !strings.Contains(r.stderr, "USD:") || !strings.Contains(r.stderr, "--assets return") {
		t.Errorf("send without the trustline: %d %s", r.code, r.stderr)
	}

	memo := keypair.MustRandom().Address()
	rel.horizon.Fund(memo, 10_0000000)
	rel.horizon.SetData(memo, "config.memo_required", []byte("1"), "")
	r = runCLI(t, env, "", "build", "--account", account, "--destination", memo, "--assets", "return")
	if r.code != ExitRefused || !strings.Contains(r.stderr, "requires a memo") || !strings.Contains(r.stderr, "--mediator") {
		t.Errorf("memo-required destination: %d %s", r.code, r.stderr)
	}

	rel.horizon.SetFlags(account, uint32(xdr.AccountFlagsAuthImmutableFlag))
	r = runCLI(t, env, "", "build", "--account", account, "--destination", cliDest, "--assets", "return")
	if r.code != ExitRefused || !strings.Contains(r.stderr, "AUTH_IMMUTABLE") {
		t.Errorf("immutable account: %d %s", r.code, r.stderr)
	}
}

// TestBuildBlockedExitsNonZero: a close the preflight finds blocked (here a
// destination that does not exist) is reported on standard error, with the
// blocker, build exits 1 and writes nothing on standard output, so that
// `build | publish -` publishes nothing (CONTRACT 18; it used to write the
// XDR all the same); --json puts its object on standard error; --force
// writes the close (exit 1 all the same).
func TestBuildBlockedExitsNonZero(t *testing.T) {
	rel := startTestRelay(t)
	env := map[string]string{EnvHorizon: rel.horizon.URL}
	args := []string{"build", "--account", rel.acct.Address, "--destination", keypair.MustRandom().Address()}
	r := runCLI(t, env, "", args...)
	if r.code != ExitRefused || !strings.Contains(r.stderr, "preflight: blocked") || !strings.Contains(r.stderr, "op_no_account") || r.stdout != "" ||
		!strings.Contains(r.stderr, "closerelayctl build: the ledger would refuse this close (op_no_account): its XDR is not written on standard output") {
		t.Errorf("blocked close: %d %q %s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, env, "", append(args, "--json")...)
	var m map[string]any
	if err := json.Unmarshal([]byte(r.stderr), &m); err != nil || r.code != ExitRefused || r.stdout != "" || m["ok"] != false || m["code"] != "BLOCKED" {
		t.Errorf("blocked close --json: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, env, "", append(args, "--force")...)
	if _, err := txnbuild.TransactionFromXDR(strings.TrimSpace(r.stdout)); r.code != ExitRefused || err != nil {
		t.Errorf("blocked close --force: %d %q %s", r.code, r.stdout, r.stderr)
	}
}

// TestBuildFeeFromTheFeeStatistics: build bids the 90th percentile of the
// fees the last ledgers charged (Horizon's /fee_stats), capped by
// --max-fee; an account API without statistics gives the minimum and says
// why (issue 23 item 4).
func TestBuildFeeFromTheFeeStatistics(t *testing.T) {
	rel := startTestRelay(t)
	double, err := url.Parse(rel.horizon.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(double)
	horizon := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/fee_stats" {
			_, _ = w.Write([]byte(`{"last_ledger_base_fee":"100","fee_charged":{"p90":"5000"}}`))
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(horizon.Close)
	// An account API that publishes no fee statistics (the double serves
	// them: every percentile its base fee).
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/fee_stats" {
			http.NotFound(w, r)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(bare.Close)
	for _, tc := range []struct {
		url, maxFee string
		fee         float64
		note        string
	}{
		{horizon.URL, "10000", 5000, ""},
		{horizon.URL, "1000", 1000, "capped by --max-fee"},
		{rel.horizon.URL, "10000", 100, ""},
		{bare.URL, "10000", 100, "the network's minimum; this account API publishes no fee statistics"},
	} {
		r := runCLI(t, map[string]string{EnvHorizon: tc.url}, "", "build", "--json", "--account", rel.acct.Address, "--destination", cliDest, "--max-fee", tc.maxFee)
		m := r.json(t)
		if r.code != ExitOK || m["feePerOperation"] != tc.fee {
			t.Errorf("%s --max-fee %s: %d fee %v, want %v", tc.url, tc.maxFee, r.code, m["feePerOperation"], tc.fee)
		}
		r = runCLI(t, map[string]string{EnvHorizon: tc.url}, "", "build", "--account", rel.acct.Address, "--destination", cliDest, "--max-fee", tc.maxFee)
		if !strings.Contains(r.stderr, "fee: ") || (tc.note != "" && !strings.Contains(r.stderr, tc.note)) || (tc.note == "" && strings.Contains(r.stderr, "fee statistics")) {
			t.Errorf("%s: stderr %q lacks the fee line or %q", tc.url, r.stderr, tc.note)
		}
	}
	if r := runCLI(t, map[string]string{EnvHorizon: horizon.URL}, "", "build", "--account", rel.acct.Address, "--destination", cliDest, "--max-fee", "99"); r.code != ExitUsage {
		t.Errorf("--max-fee under the minimum: %d %q", r.code, r.stderr)
	}
}

// TestBuildBadAccountAPIAnswers: an account API answer that cannot be
// used (a malformed balance, an offer of another account, an account of
// 1,000 trustlines) gives a clear message and a non-zero exit, never a
// panic or a close built on it (issue 23).
func TestBuildBadAccountAPIAnswers(t *testing.T) {
	rel := startTestRelay(t)
	run := func(horizonURL, account string) result {
		return runCLI(t, map[string]string{EnvHorizon: horizonURL}, "", "build", "--account", account, "--destination", cliDest, "--assets", "return")
	}

	garbled := ledgertest.NewAccount(1, 1)
	d := ledgertest.AccountDetail(garbled.Address, garbled.Signers, garbled.Thresholds)
	d.Balances[0].Balance = "lots"
	rel.horizon.SetAccountDetail(d)
	if r := run(rel.horizon.URL, garbled.Address); r.code == ExitOK || !strings.Contains(r.stderr, "cannot be used") || r.stdout != "" {
		t.Errorf("a malformed balance: %d %q %q", r.code, r.stdout, r.stderr)
	}

	double, err := url.Parse(rel.horizon.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(double)
	stranger := keypair.MustRandom().Address()
	horizon := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/offers") {
			_, _ = w.Write([]byte(`{"_embedded":{"records":[{"id":"7","paging_token":"7","seller":"` + stranger + `",` +
				`"selling":{"asset_type":"native"},"buying":{"asset_type":"native"},"amount":"1.0000000","price_r":{"n":1,"d":1}}]}}`))
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(horizon.Close)
	if r := run(horizon.URL, rel.acct.Address); r.code == ExitOK || !strings.Contains(r.stderr, "offer of another account") || r.stdout != "" {
		t.Errorf("an offer the account does not own: %d %q %q", r.code, r.stdout, r.stderr)
	}

	many := ledgertest.NewAccount(1, 1)
	rel.horizon.AddAccount(many)
	issuer := keypair.MustRandom().Address()
	for i := range 1000 {
		rel.horizon.AddTrustline(many.Address, ledgertest.Trustline{Asset: ledgertest.Credit(fmt.Sprintf("T%04d", i), issuer)})
	}
	if r := run(rel.horizon.URL, many.Address); r.code != ExitRefused || r.stdout != "" || !strings.Contains(r.stderr, "more than a transaction's 100") {
		t.Errorf("1,000 trustlines: %d %q %q", r.code, r.stdout, r.stderr)
	}
}
