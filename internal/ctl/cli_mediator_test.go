package ctl

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/mediator"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The mediator commands against a relay and the account-API double:
// memo-committed (five-part) tokens, the forward run by the signer of a
// single-signer close, the token a multisig close is published with, and
// every refusal with its message and exit code.

var hex64 = strings.Repeat("c0", 32)

// mintFlow mints a flow through the relay with `mediator mint --json`.
func mintFlow(t *testing.T, env map[string]string, dest string, memoArgs ...string) (token, mediatorKey string) {
	t.Helper()
	args := append([]string{"mediator", "mint", "--json"}, memoArgs...)
	r := runCLI(t, env, "", append(args, dest)...)
	m := r.json(t)
	token, _ = m["flowToken"].(string)
	mediatorKey, _ = m["mediatorPublicKey"].(string)
	if r.code != ExitOK || token == "" || mediatorKey == "" {
		t.Fatalf("mediator mint %v: %d %q %q", memoArgs, r.code, r.stdout, r.stderr)
	}
	return token, mediatorKey
}

// expiredToken is a token of the relay's mediator service minted an hour
// ago, so expired: the client reads its expiry, only the relay its MAC.
func expiredToken(t *testing.T, dest, memo string) (token, mediatorKey string) {
	t.Helper()
	s := mediator.New(mediator.Options{Secret: keypair.MustRandom().Seed(), Now: func() time.Time { return time.Now().Add(-time.Hour) }})
	var err error
	if memo == "" {
		token, mediatorKey, err = s.Mint(dest)
	} else {
		token, mediatorKey, err = s.MintMemo(dest, memo)
	}
	if err != nil {
		t.Fatal(err)
	}
	return token, mediatorKey
}

// TestMediatorMintMemo: mint --memo mints a five-part token for each form,
// which build, forward and cosign then read; each bad form is a usage error
// naming it, and nothing is sent (the relay given is unreachable).
func TestMediatorMintMemo(t *testing.T) {
	rel := startTestRelay(t)
	env := map[string]string{EnvURL: rel.url}
	for in, want := range map[string]string{
		"text:deposit 42": "text:deposit 42", "id:12345": "id:12345",
		"hash:" + strings.ToUpper(hex64): "hash:" + hex64, "return:" + hex64: "return:" + hex64,
	} {
		r := runCLI(t, env, "", "mediator", "mint", "--json", "--memo", in, cliDest)
		m := r.json(t)
		token, _ := m["flowToken"].(string)
		if r.code != ExitOK || m["memo"] != want || strings.Count(token, ".") != 4 {
			t.Fatalf("mint --memo %s: %d %q %q", in, r.code, r.stdout, r.stderr)
		}
		r = runCLI(t, env, "", "mediator", "mint", "--memo", in, cliDest)
		if r.code != ExitOK || !strings.Contains(r.stdout, "memo:       "+want+"\n") {
			t.Fatalf("mint --memo %s (text): %d %q", in, r.code, r.stdout)
		}
		// The forward takes the committed memo from the token, and the
		// relay's mediator co-signs it.
		mediatorKey := m["mediatorPublicKey"].(string)
		r = runCLI(t, env, "", "mediator", "forward", "--token", token, "--mediator", mediatorKey, "--sequence", "4294967296", "--amount", "5")
		fwd := strings.TrimSpace(r.stdout)
		if r.code != ExitOK {
			t.Fatalf("forward under %s: %d %q", in, r.code, r.stderr)
		}
		p, _, err := wallet.ForwardOf(fwd)
		if got, _ := wallet.MemoOf(p.Memo); err != nil || got.String() != want || p.Destination != cliDest {
			t.Fatalf("the forward carries %q to %s, %v; want %s to %s", got, p.Destination, err, want, cliDest)
		}
		r = runCLI(t, env, fwd, "mediator", "cosign", "--json", "--token", token)
		if r.code != ExitOK || r.json(t)["mediatorPublicKey"] != mediatorKey {
			t.Fatalf("cosign under %s: %d %q %q", in, r.code, r.stdout, r.stderr)
		}
	}

	dead := map[string]string{EnvURL: "http://127.0.0.1:1"}
	for in, want := range map[string]string{
		"":                                "--memo: a memo is text:…, id:…, hash:… or return:…",
		"42":                              "--memo: a memo is text:…, id:…, hash:… or return:…",
		"memo:42":                         `--memo: a memo's type is text, id, hash or return, not "memo"`,
		"text:" + strings.Repeat("x", 29): "--memo: a text: memo is 1 to 28 bytes of UTF-8 (this one is 29 bytes)",
		"text:":                           "--memo: a text: memo is 1 to 28 bytes",
		"id:-3":                           "--memo: an id: memo is an unsigned 64-bit decimal number",
		"id:18446744073709551616":         "--memo: an id: memo is an unsigned 64-bit decimal number",
		"hash:" + hex64[:62]:              "--memo: a hash: memo is 64 hex digits (32 bytes), not 62 characters",
		"return:" + hex64[:63] + "z":      "--memo: a return: memo is 64 hex digits (32 bytes)",
	} {
		r := runCLI(t, dead, "", "mediator", "mint", "--memo", in, cliDest)
		if r.code != ExitUsage || r.stdout != "" || !strings.Contains(r.stderr, "closerelayctl mediator mint: "+want) {
			t.Errorf("mint --memo %q: %d %q %q, want exit 2 with %q", in, r.code, r.stdout, r.stderr, want)
		}
		r = runCLI(t, dead, "", "mediator", "mint", "--json", "--memo", in, cliDest)
		if m := r.json(t); r.code != ExitUsage || m["code"] != "USAGE" || !strings.Contains(m["reason"].(string), want) {
			t.Errorf("mint --json --memo %q: %d %q", in, r.code, r.stdout)
		}
	}
}

// TestFiveMemoTokensEverywhere: the five-part token minted by the relay is
// read by build (which carries it and its memo in --json), cosign (which
// refuses a forward with another memo before sending it), forward (which
// refuses another --memo) and the recovery record.
func TestFiveMemoTokensEverywhere(t *testing.T) {
	rel := startTestRelay(t)
	a := rel.acct
	env := map[string]string{EnvURL: rel.url, EnvHorizon: rel.horizon.URL, EnvSecret: a.Keys[1].Seed()}
	token, mediatorKey := mintFlow(t, env, cliDest, "--memo", "id:777")

	r := runCLI(t, env, "", "build", "--json", "--account", a.Address, "--destination", cliDest, "--mediator", mediatorKey, "--token", token, "--sign")
	if m := r.json(t); r.code != ExitOK || m["flowToken"] != token || m["memo"] != "id:777" || m["mergeInto"] != mediatorKey {
		t.Fatalf("build --json with a five-part token: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, env, "", "build", "--account", a.Address, "--destination", cliDest, "--mediator", mediatorKey, "--token", token, "--sign")
	if r.code != ExitOK || !strings.Contains(r.stderr, "with memo id:777") || !strings.Contains(r.stderr, "the relay submits the close and runs the forward itself") {
		t.Fatalf("build with a five-part token: %d %q", r.code, r.stderr)
	}

	// A four-part token (built with --force, as the account is multisig):
	// build says the relay cannot run the forward.
	plain, plainKey := mintFlow(t, env, cliDest)
	r = runCLI(t, env, "", "build", "--force", "--account", a.Address, "--destination", cliDest, "--mediator", plainKey, "--token", plain, "--sign")
	if r.code != ExitOK || !strings.Contains(r.stderr, "the token commits no memo, so the relay\n  cannot run it") {
		t.Fatalf("build with a four-part token: %d %q", r.code, r.stderr)
	}

	r = runCLI(t, env, "", "mediator", "forward", "--token", token, "--mediator", mediatorKey, "--memo", "id:778", "--sequence", "1", "--amount", "1")
	if r.code != ExitUsage || !strings.Contains(r.stderr, "--memo id:778: the flow token commits to memo id:777, and the mediator co-signs no other") {
		t.Fatalf("forward with another memo: %d %q", r.code, r.stderr)
	}
	other, err := wallet.BuildForward(wallet.ForwardParams{Mediator: mediatorKey, Sequence: 1, Destination: cliDest, Amount: "1", Memo: txnbuild.MemoID(778)})
	if err != nil {
		t.Fatal(err)
	}
	x, _ := other.Base64()
	r = runCLI(t, map[string]string{EnvURL: "http://127.0.0.1:1"}, x, "mediator", "cosign", "--token", token)
	if r.code != ExitUsage || !strings.Contains(r.stderr, `the forward carries memo "id:778", but the flow token commits to id:777`) {
		t.Fatalf("cosign of another memo: %d %q", r.code, r.stderr)
	}
	r = runCLI(t, env, "", "mediator", "cosign", "--token", token[:10]+".x.y.z.w.v", x)
	if r.code != ExitUsage || !strings.Contains(r.stderr, "--token: a flow token has four dot-separated parts, or five with a memo") {
		t.Fatalf("cosign with six parts: %d %q", r.code, r.stderr)
	}
}

// TestSingleSignerCloseForwardsItself: a close that one signer completes is
// submitted, then `mediator forward --submit` reads the mediator's balance,
// pays all of it but the fee and the 1 XLM minimum with the committed memo,
// has the mediator co-sign, and submits it: the exchange ends credited with
// the account's funds less the fees, and the mediator is gone. Under
// Horizon and under Stellar RPC.
func TestSingleSignerCloseForwardsItself(t *testing.T) {
	for _, backend := range []string{"--horizon-url", "--rpc-url"} {
		t.Run(backend, func(t *testing.T) {
			rel := startTestRelay(t)
			a := ledgertest.NewAccount(0, 1) // the master alone, weight 1 of threshold 1
			rel.horizon.AddAccount(a)
			apiURL := rel.horizon.URL
			if backend == "--rpc-url" {
				apiURL += "/rpc"
			}
			env := map[string]string{EnvURL: rel.url, EnvHorizon: rel.horizon.URL, EnvSecret: a.Master.Seed()}
			token, mediatorKey := mintFlow(t, env, cliDest, "--memo", "hash:"+hex64)
			before, _ := rel.horizon.Balance(cliDest)
			funds, _ := rel.horizon.Balance(a.Address)

			r := runCLI(t, env, "", "build", "--account", a.Address, "--destination", cliDest, "--mediator", mediatorKey, "--token", token, "--sign")
			if r.code != ExitOK || !strings.Contains(r.stderr, "as this signer meets the threshold alone: submit the close") ||
				!strings.Contains(r.stderr, "closerelayctl mediator forward --token TOKEN --mediator "+mediatorKey+" --submit") {
				t.Fatalf("build: %d %q", r.code, r.stderr)
			}
			closeXDR := strings.TrimSpace(r.stdout)
			r = runCLI(t, env, closeXDR, "publish", "--json", "-")
			id, _ := r.json(t)["id"].(string)
			if r.code != ExitOK || id == "" {
				t.Fatalf("publish: %d %q %q", r.code, r.stdout, r.stderr)
			}
			// Before the close lands there is no mediator to forward from.
			r = runCLI(t, env, "", "mediator", "forward", "--token", token, "--mediator", mediatorKey, "--submit", backend, apiURL)
			if r.code != ExitRefused || !strings.Contains(r.stderr, "the mediator "+mediatorKey+" does not exist on testnet: the close that creates it has not landed yet") {
				t.Fatalf("forward before the close: %d %q", r.code, r.stderr)
			}
			if r := runCLI(t, env, "", "submit", id); r.code != ExitOK {
				t.Fatalf("submit the close: %d %q", r.code, r.stderr)
			}
			held, ok := rel.horizon.Balance(mediatorKey)
			closeFee := int64(100 * 2) // create_account and the merge, at the fee build bid without statistics
			if !ok || held != funds-closeFee {
				t.Fatalf("the mediator holds %d (%v), want the account's %d less the close's fee", held, ok, funds)
			}

			r = runCLI(t, env, "", "mediator", "forward", "--json", "--token", token, "--mediator", mediatorKey, "--submit", backend, apiURL)
			m := r.json(t)
			pay := held - 200 - wallet.MediatorMinimum
			if r.code != ExitOK || m["amount"] != amount.StringFromInt64(pay) || m["memo"] != "hash:"+hex64 || m["hash"] == "" {
				t.Fatalf("forward --submit: %d %q %q, want %s paid", r.code, r.stdout, r.stderr, amount.StringFromInt64(pay))
			}
			after, _ := rel.horizon.Balance(cliDest)
			if after-before != held-200 {
				t.Fatalf("the exchange got %d, want the mediator's %d less the forward's fee", after-before, held)
			}
			if _, ok := rel.horizon.Balance(mediatorKey); ok {
				t.Fatal("the mediator still exists after its forward")
			}
			env2, err := ledger.DecodeEnvelope(m["xdr"].(string))
			if err != nil {
				t.Fatal(err)
			}
			ops := env2.Operations()
			memo := env2.Memo()
			if memo.Type != xdr.MemoTypeMemoHash || memo.Hash.HexString() != hex64 || len(ops) != 2 ||
				ops[0].Body.PaymentOp.Destination.Address() != cliDest || int64(ops[0].Body.PaymentOp.Amount) != pay {
				t.Fatalf("the submitted forward: memo %+v, ops %+v", memo, ops)
			}
			// Run again, the forward has nothing to come from.
			r = runCLI(t, env, "", "mediator", "forward", "--token", token, "--mediator", mediatorKey, "--submit", backend, apiURL)
			if r.code != ExitRefused || !strings.Contains(r.stderr, "or its forward already ran and merged it") {
				t.Fatalf("forward again: %d %q", r.code, r.stderr)
			}
		})
	}
}

// TestMediatorForwardRefusals: each refusal of mediator forward, with its
// message and exit code: 2 for the command line, 1 for what the ledger or
// the flow refuses, 3 when the relay cannot be reached.
func TestMediatorForwardRefusals(t *testing.T) {
	rel := startTestRelay(t)
	env := map[string]string{EnvURL: rel.url}
	token, mediatorKey := mintFlow(t, env, cliDest, "--memo", "text:ref 9")
	plain, plainKey := mintFlow(t, env, cliDest)
	oldToken, oldKey := expiredToken(t, cliDest, "id:5")
	oldPlain, oldPlainKey := expiredToken(t, cliDest, "")
	rel.horizon.Fund(mediatorKey, 102_0000000)
	rel.horizon.Fund(plainKey, 1_0000200) // the fee and the minimum, nothing more
	h := rel.horizon.URL
	fwd := func(extra ...string) []string {
		return append([]string{"mediator", "forward", "--token", token, "--mediator", mediatorKey}, extra...)
	}
	tests := []struct {
		name string
		env  map[string]string
		args []string
		code int
		want string
	}{
		{"four parts, no memo", env, []string{"mediator", "forward", "--token", plain, "--mediator", plainKey, "--horizon-url", h},
			ExitUsage, "the forward needs a memo: give --memo (text:…, id:…, hash:… or return:…), or a --token minted with --memo"},
		{"bad memo", env, []string{"mediator", "forward", "--token", plain, "--mediator", plainKey, "--memo", "id:x", "--horizon-url", h},
			ExitUsage, "--memo: an id: memo is an unsigned 64-bit decimal number"},
		{"two memos", env, fwd("--memo", "text:a", "--memo-id", "1"), ExitUsage, "give one of --memo, --memo-text and --memo-id"},
		{"another memo", env, fwd("--memo-text", "ref 10", "--horizon-url", h), ExitUsage, "--memo-text text:ref 10: the flow token commits to memo text:ref 9"},
		{"no mediator", env, []string{"mediator", "forward", "--token", token, "--horizon-url", h}, ExitUsage, "--mediator is required: the flow token does not name its mediator"},
		{"bad token", env, []string{"mediator", "forward", "--token", "a.b.c", "--mediator", mediatorKey}, ExitUsage, "--token: a flow token has four dot-separated parts, or five with a memo"},
		{"another destination", env, fwd("--destination", keypair.MustRandom().Address(), "--horizon-url", h), ExitUsage, "the flow token commits to " + cliDest},
		{"fee", env, fwd("--fee", "99", "--horizon-url", h), ExitUsage, "--fee must be at least 100 stroops per operation"},
		{"submit without token", env, []string{"mediator", "forward", "--mediator", mediatorKey, "--destination", cliDest, "--memo", "id:1", "--submit", "--horizon-url", h},
			ExitUsage, "--submit needs --token: the mediator co-signs only under its flow token"},
		{"submit without API", env, fwd("--submit"), ExitUsage, "--submit needs --horizon-url (or CLOSERELAY_HORIZON_URL) or --rpc-url"},
		{"record without submit", env, fwd("--record", "x.json", "--horizon-url", h), ExitUsage, "--record goes with --submit"},
		{"offline without amount", env, fwd("--sequence", "5"), ExitUsage, "offline (--sequence without an account API) the mediator's balance is unknown: give --amount"},
		{"not a URL", env, fwd("--horizon-url", "ftp://x"), ExitUsage, `--horizon-url "ftp://x" is not an http(s) URL`},
		{"not an RPC URL", env, fwd("--rpc-url", "localhost:8000"), ExitUsage, `--rpc-url "localhost:8000" is not an http(s) URL`},
		{"neither", env, fwd(), ExitUsage, "give --horizon-url or --rpc-url to read the mediator's sequence number and balance"},
		{"bad amount", env, fwd("--amount", "1.12345678", "--horizon-url", h), ExitUsage, `--amount "1.12345678" is not a positive amount of XLM with at most 7 decimals`},
		{"amount above the balance", env, fwd("--amount", "101", "--horizon-url", h), ExitRefused,
			"--amount 101 would not leave the mediator its 1 XLM minimum balance and the fee: it holds 102.0000000 XLM, so at most 100.9999800 (the default)"},
		{"nothing to forward", env, []string{"mediator", "forward", "--token", plain, "--mediator", plainKey, "--memo", "id:1", "--horizon-url", h},
			ExitRefused, "the mediator holds 1.0000200 XLM, no more than the forward's fee (0.0000200) and its minimum balance (1.0000000): nothing to forward"},
		{"wrong sequence", env, fwd("--sequence", "7", "--horizon-url", h), ExitRefused, "--sequence 7 is not the mediator's: the account API says 4294967296"},
		{"expired, committed", env, []string{"mediator", "forward", "--token", oldToken, "--mediator", oldKey, "--submit", "--horizon-url", h},
			ExitRefused, "the flow token expired at"},
		{"expired, no memo", env, []string{"mediator", "forward", "--token", oldPlain, "--mediator", oldPlainKey, "--memo", "id:1", "--submit", "--horizon-url", h},
			ExitRefused, "This token commits no memo, so the relay does not run its forward"},
		{"relay unreachable", map[string]string{EnvURL: "http://127.0.0.1:1"}, fwd("--submit", "--horizon-url", h), ExitTransport, "closerelayctl mediator forward: "},
		// Co-signed for mainnet, the forward's signature does not verify on
		// the double's testnet: the ledger refuses it, and says why.
		{"ledger refuses", env, fwd("--submit", "--network", "mainnet", "--horizon-url", h), ExitRefused, "the ledger refused the forward: tx_bad_auth"},
	}
	for _, tt := range tests {
		r := runCLI(t, tt.env, "", tt.args...)
		if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%s: exit %d %q, want %d with %q", tt.name, r.code, r.stderr, tt.code, tt.want)
		}
		r = runCLI(t, tt.env, "", append(tt.args, "--json")...)
		if m := r.json(t); r.code != tt.code || m["ok"] != false {
			t.Errorf("%s --json: exit %d %q", tt.name, r.code, r.stdout)
		}
	}
	if b, ok := rel.horizon.Balance(mediatorKey); !ok || b != 102_0000000 {
		t.Fatalf("a refusal moved the mediator's funds: %d, %v", b, ok)
	}
	// Less than the whole balance is built, and the rest named.
	r := runCLI(t, env, "", fwd("--amount", "100", "--horizon-url", h)...)
	if r.code != ExitOK || !strings.Contains(r.stderr, "the payment carries 100.0000000 XLM of 100.9999800: the rest, 0.9999800 XLM, reaches "+cliDest+" by the merge, which an exchange may not credit") {
		t.Fatalf("a smaller --amount: %d %q", r.code, r.stderr)
	}
	r = runCLI(t, env, "", fwd("--json", "--amount", "100", "--horizon-url", h)...)
	if m := r.json(t); r.code != ExitOK || m["amount"] != "100.0000000" || !strings.Contains(m["note"].(string), "the rest, 0.9999800 XLM") {
		t.Fatalf("a smaller --amount --json: %d %q", r.code, r.stdout)
	}
}

// publishRecorder is a reverse proxy in front of a relay that keeps the
// body of every POST /api/plan.
type publishRecorder struct {
	mu     sync.Mutex
	bodies []map[string]any
}

func recordPublishes(t *testing.T, relayURL string) (string, *publishRecorder) {
	t.Helper()
	target, err := url.Parse(relayURL)
	if err != nil {
		t.Fatal(err)
	}
	rec := &publishRecorder{}
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/api/plan" {
			b, _ := io.ReadAll(r.Body)
			var m map[string]any
			_ = json.Unmarshal(b, &m)
			rec.mu.Lock()
			rec.bodies = append(rec.bodies, m)
			rec.mu.Unlock()
			r.Body = io.NopCloser(bytes.NewReader(b))
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, rec
}

func (p *publishRecorder) last(t *testing.T) map[string]any {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.bodies) == 0 {
		t.Fatal("nothing was published")
	}
	return p.bodies[len(p.bodies)-1]
}

func (p *publishRecorder) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.bodies)
}

// TestPublishCarriesTheFlowToken: a multisig close through a mediator,
// piped from build --json into publish --submit, is published with its
// memo-committed token (CONTRACT 16), as is one given --flow-token; a
// token the relay would refuse is refused before anything is sent.
func TestPublishCarriesTheFlowToken(t *testing.T) {
	rel := startTestRelay(t)
	proxied, rec := recordPublishes(t, rel.url)
	a := rel.acct // 2-of-3
	env := map[string]string{EnvURL: proxied, EnvHorizon: rel.horizon.URL, EnvSecret: a.Keys[0].Seed()}
	token, mediatorKey := mintFlow(t, env, cliDest, "--memo", "id:31337")
	r := runCLI(t, env, "", "build", "--json", "--account", a.Address, "--destination", cliDest, "--mediator", mediatorKey, "--token", token, "--sign")
	if r.code != ExitOK {
		t.Fatalf("build: %d %q", r.code, r.stderr)
	}
	built := r.stdout
	closeXDR, _ := r.json(t)["xdr"].(string)

	r = runCLI(t, env, built, "publish", "--submit", "-")
	if r.code != ExitOK || !strings.Contains(r.stdout, "then forwards the mediator's funds to "+cliDest+" with memo id:31337") {
		t.Fatalf("publish --submit of build --json: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if body := rec.last(t); body["flowToken"] != token || body["submit"] != true || body["xdr"] != closeXDR {
		t.Fatalf("the relay received %v, want the token %s with submit", body, token)
	}
	r = runCLI(t, env, "", "publish", "--json", "--submit", "--flow-token", token, closeXDR)
	if m := r.json(t); r.code != ExitOK || m["forward"] == nil {
		t.Fatalf("publish --flow-token: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if body := rec.last(t); body["flowToken"] != token || body["submit"] != true {
		t.Fatalf("the relay received %v", body)
	}
	// Without --submit the build's token is not sent, and publish says
	// the relay will not forward.
	r = runCLI(t, env, built, "publish", "-")
	if body := rec.last(t); r.code != ExitOK || body["flowToken"] != nil || !strings.Contains(r.stderr, "without --submit the relay does not run its forward") {
		t.Fatalf("publish without --submit: %d %q, sent %v", r.code, r.stderr, body)
	}

	// A four-part token from build is not sent either: the relay could not
	// forward under it.
	plain, plainKey := mintFlow(t, env, cliDest)
	r = runCLI(t, env, "", "build", "--json", "--force", "--account", a.Address, "--destination", cliDest, "--mediator", plainKey, "--token", plain, "--sign")
	if r.code != ExitOK {
		t.Fatalf("build: %d %q", r.code, r.stderr)
	}
	plainBuilt := r.stdout
	plainXDR, _ := r.json(t)["xdr"].(string)
	r = runCLI(t, env, plainBuilt, "publish", "--submit", "-")
	if body := rec.last(t); r.code != ExitOK || body["flowToken"] != nil || !strings.Contains(r.stderr, "whose token commits no memo, so the relay submits the close but does not run its forward") {
		t.Fatalf("publish --submit of a four-part build: %d %q, sent %v", r.code, r.stderr, body)
	}

	oldToken, _ := expiredToken(t, cliDest, "id:31337")
	sent := rec.count()
	for _, tt := range []struct {
		name  string
		args  []string
		stdin string
		code  int
		want  string
	}{
		{"no submit", []string{"publish", "--flow-token", token, closeXDR}, "", ExitUsage, "--flow-token goes with --submit: the relay runs the forward only of a close it submits"},
		{"four parts", []string{"publish", "--submit", "--flow-token", plain, plainXDR}, "", ExitUsage, "--flow-token commits no memo: the relay runs the forward only of a flow minted with --memo"},
		{"malformed", []string{"publish", "--submit", "--flow-token", "x.y", closeXDR}, "", ExitUsage, "--flow-token: a flow token has four dot-separated parts, or five with a memo"},
		{"expired", []string{"publish", "--submit", "--flow-token", oldToken, closeXDR}, "", ExitRefused, "the flow token expired at"},
		{"bad token in the build", []string{"publish", "--submit", "-"}, strings.Replace(built, token, "nope", 1), ExitUsage, "the input's flowToken: a flow token has four"},
	} {
		r := runCLI(t, env, tt.stdin, tt.args...)
		if r.code != tt.code || !strings.Contains(r.stderr, "closerelayctl publish: "+tt.want) {
			t.Errorf("%s: exit %d %q, want %d with %q", tt.name, r.code, r.stderr, tt.code, tt.want)
		}
	}
	if n := rec.count(); n != sent {
		t.Fatalf("a refused publish reached the relay (%d publishes, want %d)", n, sent)
	}
}

// TestResumeWhileTheTokenLivesAndAfter: a forward whose co-signing failed
// (relay unreachable) is recorded, and resume --submit completes it from
// the record while the token lives: the exchange is credited and the
// record deleted. Once a token has expired, resume says what the relay
// does: forwards a close published with a memo-committed token and submit,
// and nothing for a token without a memo.
func TestResumeWhileTheTokenLivesAndAfter(t *testing.T) {
	rel := startTestRelay(t)
	env := map[string]string{EnvURL: rel.url}
	token, mediatorKey := mintFlow(t, env, cliDest, "--memo", "return:"+hex64)
	rel.horizon.Fund(mediatorKey, 50_0000000)
	before, _ := rel.horizon.Balance(cliDest)
	record := filepath.Join(t.TempDir(), "forward.json")
	r := runCLI(t, map[string]string{EnvURL: "http://127.0.0.1:1"}, "", "mediator", "forward", "--token", token, "--mediator", mediatorKey,
		"--submit", "--record", record, "--horizon-url", rel.horizon.URL)
	if r.code != ExitTransport || !strings.Contains(r.stderr, "recovery record written to "+record) {
		t.Fatalf("forward with the relay unreachable: %d %q", r.code, r.stderr)
	}
	rec, err := wallet.LoadRecord(record)
	if err != nil || rec.Memo.String() != "return:"+hex64 || rec.FlowToken != token {
		t.Fatalf("record: %+v, %v", rec, err)
	}
	r = runCLI(t, env, "", "mediator", "resume", "--submit", record)
	if r.code != ExitUsage || !strings.Contains(r.stderr, "--submit needs --horizon-url") {
		t.Fatalf("resume --submit without an API: %d %q", r.code, r.stderr)
	}
	r = runCLI(t, env, "", "mediator", "resume", "--submit", "--horizon-url", "ftp://x", record)
	if r.code != ExitUsage || !strings.Contains(r.stderr, `closerelayctl mediator resume: --horizon-url "ftp://x" is not an http(s) URL`) {
		t.Fatalf("resume --submit with a bad URL: %d %q", r.code, r.stderr)
	}
	r = runCLI(t, env, "", "mediator", "resume", "--submit", "--horizon-url", rel.horizon.URL, record)
	if r.code != ExitOK || !strings.Contains(r.stdout, "forwarded: transaction") || !strings.Contains(r.stdout, "paid 48.9999800 XLM with memo return:"+hex64) {
		t.Fatalf("resume --submit: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if after, _ := rel.horizon.Balance(cliDest); after-before != 50_0000000-200 {
		t.Fatalf("the exchange got %d", after-before)
	}
	if _, err := os.Stat(record); !os.IsNotExist(err) {
		t.Fatalf("the record of a landed forward is kept: %v", err)
	}

	for _, tt := range []struct {
		memo string
		want []string
	}{
		{"id:99", []string{"the flow token has expired", "the mediator no longer co-signs this forward",
			"If the close was published to the relay with this token and --submit (closerelayctl publish --submit --flow-token), the relay runs the forward itself",
			"it pays " + cliDest + " the mediator's whole balance less the fee and 1 XLM, with memo id:99"}},
		{"", []string{"This token commits no memo, so the relay does not run its forward", "only the relay's operator, who holds the master secret, can move them"}},
	} {
		old, oldKey := expiredToken(t, cliDest, tt.memo)
		memo := txnbuild.Memo(txnbuild.MemoID(99))
		flow, err := wallet.NewMediatorFlow(client.Flow{FlowToken: old, MediatorPublicKey: oldKey}, cliDest)
		if err != nil {
			t.Fatal(err)
		}
		fx, err := wallet.BuildForward(wallet.ForwardParams{Mediator: oldKey, Sequence: 1 << 32, Destination: cliDest, Amount: "1", Memo: memo})
		if err != nil {
			t.Fatal(err)
		}
		x, _ := fx.Base64()
		rec, err := wallet.NewRecord("testnet", flow, x, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if err := rec.Save(record); err != nil {
			t.Fatal(err)
		}
		r := runCLI(t, map[string]string{EnvURL: "http://127.0.0.1:1"}, "", "mediator", "resume", record)
		if r.code != ExitRefused {
			t.Errorf("resume of an expired %q token: exit %d %q", tt.memo, r.code, r.stderr)
		}
		for _, w := range tt.want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("resume of an expired %q token says %q, without %q", tt.memo, r.stderr, w)
			}
		}
	}
}
