package ctl

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
)

// TestSignSaysWhatItSigns: sign prints each operation in words before
// signing, then the weight against the threshold; signing again with the
// same key says nothing changed (issues 23 and 26).
func TestSignSaysWhatItSigns(t *testing.T) {
	rel := startTestRelay(t)
	id := publishSigned(t, rel)
	env := map[string]string{EnvURL: rel.url}
	r := runCLI(t, env, rel.acct.Keys[1].Seed()+"\n", "sign", id)
	if r.code != ExitOK || !strings.Contains(r.stderr, "1. close account "+rel.acct.Address+": all its remaining XLM goes to "+cliDest) ||
		!strings.Contains(r.stdout, "signed the close of ") || !strings.Contains(r.stdout, "weight 2/3: 1 more needed") {
		t.Fatalf("sign: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, env, rel.acct.Keys[1].Seed()+"\n", "sign", id)
	if r.code != ExitOK || !strings.Contains(r.stdout, "had signed this close already: nothing changed") {
		t.Fatalf("sign again: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, env, rel.acct.Keys[1].Seed()+"\n", "sign", id[:20]); r.code != ExitUsage || !strings.Contains(r.stderr, "64 hex characters") {
		t.Fatalf("a truncated id: %d %q", r.code, r.stderr)
	}
}

// TestSignRefusesAnotherTransaction: a relay that answers, for a plan id,
// a transaction that does not hash to it gets nothing signed.
func TestSignRefusesAnotherTransaction(t *testing.T) {
	acct := ledgertest.NewAccount(2, 1)
	other, _ := ledgertest.BuildClose(acct.Master, keypair.MustRandom().Address(), 9, 0, network.TestNetworkPassphrase, acct.Keys[0])
	id := strings.Repeat("ab", 32)
	signs := 0
	relay := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			signs++
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true,"network":"testnet","xdr":"` + other + `"}`))
	}))
	t.Cleanup(relay.Close)
	r := runCLI(t, map[string]string{EnvURL: relay.URL}, acct.Keys[1].Seed()+"\n", "sign", id)
	if r.code != ExitRefused || !strings.Contains(r.stderr, "does not hash to plan "+id) || signs != 0 {
		t.Fatalf("sign of another transaction: %d %q, %d signs sent", r.code, r.stderr, signs)
	}
}
