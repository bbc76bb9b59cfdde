package ctl

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// build --memo, and the two closes build refuses without --force: a direct
// close into an account that requires a memo (SEP-29, CONTRACT 17) and a
// multisig close through a mediator whose flow token commits no memo
// (issue 24). Against a relay and the account-API double on loopback.

// memoExchange is an account of the double that requires a memo (its data
// entry config.memo_required is "1").
func memoExchange(t *testing.T, rel *testRelay) string {
	t.Helper()
	ex := keypair.MustRandom().Address()
	rel.horizon.Fund(ex, 10_0000000)
	if !rel.horizon.SetData(ex, "config.memo_required", []byte("1"), "") {
		t.Fatal("the double did not set config.memo_required")
	}
	return ex
}

// landed is what the double answers for a transaction it applied.
type landed struct {
	MemoType string `json:"memo_type"`
	Memo     string `json:"memo"`
}

// submitToDouble posts a close to the double and fails the test unless it
// lands.
func submitToDouble(t *testing.T, h *ledgertest.Server, xdrB64 string) landed {
	t.Helper()
	resp, err := http.PostForm(h.URL+"/transactions", url.Values{"tx": {strings.TrimSpace(xdrB64)}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tx landed
	if err := json.NewDecoder(resp.Body).Decode(&tx); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the double answered %d (%v) to the close", resp.StatusCode, err)
	}
	return tx
}

// TestBuildMemoRefusals: a direct close into a memo-required account is
// refused (exit 1) without a memo, with --force alone, and with --memo
// alone, each message naming the ways out; a bad --memo form, and --memo
// with --mediator, are usage errors (exit 2) that say why.
func TestBuildMemoRefusals(t *testing.T) {
	rel := startTestRelay(t)
	a := ledgertest.NewAccount(0, 1)
	rel.horizon.AddAccount(a)
	ex := memoExchange(t, rel)
	env := map[string]string{EnvURL: rel.url, EnvHorizon: rel.horizon.URL, EnvSecret: a.Master.Seed()}
	build := func(args ...string) result {
		return runCLI(t, env, "", append([]string{"build", "--sign", "--account", a.Address, "--destination", ex}, args...)...)
	}
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"no memo", nil, []string{"the destination " + ex + " requires a memo (SEP-29), and this close carries none",
			"close through a mediator (--mediator and --token from closerelayctl mediator mint --memo …)", "or give --memo and --force"}},
		{"force without a memo", []string{"--force"}, []string{"and this close carries none", "or give --memo and --force"}},
		{"memo without force", []string{"--memo", "id:7"}, []string{"requires a memo (SEP-29), and a direct close pays it by account_merge, which exchanges credit inconsistently even with a memo",
			"close through a mediator (--mediator and --token from closerelayctl mediator mint --memo …)", "or add --force if you are sure it credits a merge with this memo"}},
	} {
		r := build(tc.args...)
		if r.code != ExitRefused || r.stdout != "" {
			t.Errorf("%s: exit %d, stdout %q, want 1 and nothing: %s", tc.name, r.code, r.stdout, r.stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(r.stderr, "closerelayctl build: ") || !strings.Contains(r.stderr, w) {
				t.Errorf("%s: %q lacks %q", tc.name, r.stderr, w)
			}
		}
		r = build(append(tc.args, "--json")...)
		if m := r.json(t); r.code != ExitRefused || m["code"] != "REFUSED" || !strings.Contains(m["reason"].(string), tc.want[0]) {
			t.Errorf("%s --json: %d %q", tc.name, r.code, r.stdout)
		}
	}

	token, mediatorKey := mintFlow(t, env, ex, "--memo", "id:7")
	dead := map[string]string{EnvURL: "http://127.0.0.1:1", EnvHorizon: "http://127.0.0.1:1"} // nothing is read before a usage error
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"memo through a mediator", []string{"--memo", "id:7", "--mediator", mediatorKey, "--token", token},
			"--memo goes on a direct close only: through a mediator the memo belongs in the flow token (closerelayctl mediator mint --memo …), and the forward carries it"},
		{"memo through a mediator, bad form", []string{"--memo", "x", "--mediator", mediatorKey, "--token", token}, "--memo goes on a direct close only"},
		{"empty", []string{"--memo", ""}, "--memo: a memo is text:…, id:…, hash:… or return:…"},
		{"no type", []string{"--memo", "42"}, "--memo: a memo is text:…, id:…, hash:… or return:…"},
		{"unknown type", []string{"--memo", "memo:42"}, `--memo: a memo's type is text, id, hash or return, not "memo"`},
		{"long text", []string{"--memo", "text:" + strings.Repeat("x", 29)}, "--memo: a text: memo is 1 to 28 bytes of UTF-8 (this one is 29 bytes)"},
		{"negative id", []string{"--memo", "id:-3"}, "--memo: an id: memo is an unsigned 64-bit decimal number"},
		{"short hash", []string{"--memo", "hash:" + hex64[:62]}, "--memo: a hash: memo is 64 hex digits (32 bytes), not 62 characters"},
		{"not hex", []string{"--memo", "return:" + hex64[:63] + "z"}, "--memo: a return: memo is 64 hex digits (32 bytes)"},
	} {
		r := runCLI(t, dead, "", append([]string{"build", "--account", a.Address, "--destination", ex}, tc.args...)...)
		if r.code != ExitUsage || r.stdout != "" || !strings.Contains(r.stderr, "closerelayctl build: "+tc.want) {
			t.Errorf("%s: exit %d %q %q, want 2 with %q", tc.name, r.code, r.stdout, r.stderr, tc.want)
		}
		r = runCLI(t, dead, "", append([]string{"build", "--json", "--account", a.Address, "--destination", ex}, tc.args...)...)
		if m := r.json(t); r.code != ExitUsage || m["code"] != "USAGE" || !strings.Contains(m["reason"].(string), tc.want) {
			t.Errorf("%s --json: %d %q", tc.name, r.code, r.stdout)
		}
	}
}

// TestBuildMemoForceLands: with --memo and --force a direct close into a
// memo-required account carries the memo on its transaction, in each
// form; the relay's preflight finds it landable (CONTRACT 14: a memo
// clears memo_required), and the double applies it with that memo.
func TestBuildMemoForceLands(t *testing.T) {
	rel := startTestRelay(t)
	ex := memoExchange(t, rel)
	hash := make([]byte, 32)
	for i := range hash {
		hash[i] = 0xc0
	}
	for _, tc := range []struct {
		memo, typ, value string
	}{
		{"text:deposit 42", "text", "deposit 42"},
		{"id:18446744073709551615", "id", "18446744073709551615"},
		{"hash:" + strings.ToUpper(hex64), "hash", base64.StdEncoding.EncodeToString(hash)},
		{"return:" + hex64, "return", base64.StdEncoding.EncodeToString(hash)},
	} {
		a := ledgertest.NewAccount(0, 1)
		rel.horizon.AddAccount(a)
		funds, _ := rel.horizon.Balance(a.Address)
		before, _ := rel.horizon.Balance(ex)
		env := map[string]string{EnvURL: rel.url, EnvHorizon: rel.horizon.URL, EnvSecret: a.Master.Seed()}
		args := []string{"build", "--sign", "--memo", tc.memo, "--force", "--account", a.Address, "--destination", ex}

		r := runCLI(t, env, "", append(args, "--json")...)
		m := r.json(t)
		if r.code != ExitOK || m["memo"] != tc.typ+":"+strings.ToLower(strings.TrimPrefix(tc.memo, tc.typ+":")) {
			t.Fatalf("build --json --memo %s --force: %d %q %q", tc.memo, r.code, r.stdout, r.stderr)
		}
		r = runCLI(t, env, "", args...)
		if r.code != ExitOK || !strings.Contains(r.stderr, "  memo "+m["memo"].(string)+", on the transaction\n") || !strings.Contains(r.stderr, "preflight: landable") {
			t.Fatalf("build --memo %s --force: %d %q", tc.memo, r.code, r.stderr)
		}
		closeXDR := strings.TrimSpace(r.stdout)
		env2, err := ledger.DecodeEnvelope(closeXDR)
		if err != nil || env2.Memo().Type == xdr.MemoTypeMemoNone {
			t.Fatalf("the close carries no memo: %v", err)
		}

		// The relay runs the same preflight at publish: landable.
		r = runCLI(t, env, closeXDR, "publish", "--json", "-")
		id, _ := r.json(t)["id"].(string)
		if r.code != ExitOK || id == "" {
			t.Fatalf("publish: %d %q %q", r.code, r.stdout, r.stderr)
		}
		r = runCLI(t, env, "", "status", "--json", id)
		if pf, _ := r.json(t)["preflight"].(map[string]any); r.code != ExitOK || pf["state"] != "landable" {
			t.Fatalf("the relay's preflight of the close with memo %s: %d %q", tc.memo, r.code, r.stdout)
		}

		got := submitToDouble(t, rel.horizon, closeXDR)
		if got.MemoType != tc.typ || got.Memo != tc.value {
			t.Errorf("the double applied the close with memo %s %q, want %s %q", got.MemoType, got.Memo, tc.typ, tc.value)
		}
		after, _ := rel.horizon.Balance(ex)
		if _, ok := rel.horizon.Balance(a.Address); ok || after-before != funds-100 {
			t.Errorf("memo %s: the exchange got %d of %d (the close's fee is 100), the account exists: %v", tc.memo, after-before, funds, ok)
		}
	}
}

// TestBuildMultisigMediatorNeedsMemoToken: a close through a mediator under
// a token that commits no memo is refused (exit 1) unless the --sign key
// closes the account alone: its co-signers may sign after the token has
// expired, and then nobody can co-sign the forward (issue 24). The message
// says to mint a memo-committed token and that --force builds it anyway.
func TestBuildMultisigMediatorNeedsMemoToken(t *testing.T) {
	rel := startTestRelay(t)
	a := rel.acct // 3 signers of weight 1, high threshold 3
	env := map[string]string{EnvURL: rel.url, EnvHorizon: rel.horizon.URL, EnvSecret: a.Keys[1].Seed()}
	plain, plainKey := mintFlow(t, env, cliDest)
	mediated := []string{"--account", a.Address, "--destination", cliDest, "--mediator", plainKey, "--token", plain}
	way := []string{"under a flow token that commits no memo", "nobody can co-sign the forward, so the funds wait there",
		"Mint a memo-committed token (closerelayctl mediator mint --memo text:…|id:…|hash:…|return:… " + cliDest + ")",
		"so the relay runs the forward itself", "or add --force to build it anyway"}
	offline := map[string]string{EnvURL: rel.url, EnvSecret: a.Keys[1].Seed()}
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		why  string
	}{
		{"signer short of the threshold", env, []string{"--sign"}, "the --sign key's weight 1 does not meet the high threshold 3 alone"},
		{"unsigned", env, nil, "it is unsigned (no --sign)"},
		{"offline", offline, []string{"--sign", "--sequence", "1"}, "its signers were not read (built offline)"},
	} {
		r := runCLI(t, tc.env, "", append(append([]string{"build"}, mediated...), tc.args...)...)
		if r.code != ExitRefused || r.stdout != "" || !strings.Contains(r.stderr, "closerelayctl build: the close goes through the mediator "+plainKey) ||
			!strings.Contains(r.stderr, tc.why) {
			t.Errorf("%s: exit %d %q %q, want 1 with %q", tc.name, r.code, r.stdout, r.stderr, tc.why)
		}
		for _, w := range way {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("%s: %q lacks %q", tc.name, r.stderr, w)
			}
		}
		r = runCLI(t, tc.env, "", append(append([]string{"build", "--json"}, mediated...), tc.args...)...)
		if m := r.json(t); r.code != ExitRefused || m["code"] != "REFUSED" || !strings.Contains(m["reason"].(string), tc.why) {
			t.Errorf("%s --json: %d %q", tc.name, r.code, r.stdout)
		}
		// --force builds it, and build still says who must run the forward.
		r = runCLI(t, tc.env, "", append(append([]string{"build", "--force"}, mediated...), tc.args...)...)
		if r.code != ExitOK || r.stdout == "" || !strings.Contains(r.stderr, "the token commits no memo, so the relay\n  cannot run it") {
			t.Errorf("%s --force: %d %q", tc.name, r.code, r.stderr)
		}
	}

	// Under a memo-committed token the relay runs the forward: built.
	token, mediatorKey := mintFlow(t, env, cliDest, "--memo", "id:9")
	r := runCLI(t, env, "", "build", "--sign", "--account", a.Address, "--destination", cliDest, "--mediator", mediatorKey, "--token", token)
	if r.code != ExitOK || !strings.Contains(r.stderr, "the relay submits the close and runs the forward itself") {
		t.Errorf("multisig close under a memo-committed token: %d %q", r.code, r.stderr)
	}
	// A signer that closes the account alone runs the forward itself
	// while the token lives: built.
	single := ledgertest.NewAccount(0, 1)
	rel.horizon.AddAccount(single)
	env1 := map[string]string{EnvURL: rel.url, EnvHorizon: rel.horizon.URL, EnvSecret: single.Master.Seed()}
	r = runCLI(t, env1, "", "build", "--sign", "--account", single.Address, "--destination", cliDest, "--mediator", plainKey, "--token", plain)
	if r.code != ExitOK || !strings.Contains(r.stderr, "the threshold is met by this signer alone") {
		t.Errorf("single-signer close under a token without a memo: %d %q", r.code, r.stderr)
	}
}
