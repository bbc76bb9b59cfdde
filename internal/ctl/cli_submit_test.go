package ctl

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/keypair"
)

// TestSubmitCommand: `submit` needs --horizon-url; refuses with NOT_READY
// before the threshold; a ledger refusal exits 1 with its result code; then
// it submits the submit-ready envelope, prints the hash and ledger, and the
// account is gone from the double.
func TestSubmitCommand(t *testing.T) {
	rel := startTestRelay(t)
	a := rel.acct
	id := publishSigned(t, rel)
	env := map[string]string{EnvURL: rel.url}

	if r := runCLI(t, env, "", "submit", id); r.code != ExitUsage || !strings.Contains(r.stderr, "--horizon-url") {
		t.Fatalf("submit without an account API: %d %q", r.code, r.stderr)
	}
	env[EnvHorizon] = rel.horizon.URL
	if r := runCLI(t, env, "", "submit", id); r.code != ExitRefused || !strings.Contains(r.stderr, "NOT_READY") {
		t.Fatalf("submit before the threshold: %d %q", r.code, r.stderr)
	}
	for _, kp := range []*keypair.Full{a.Keys[1], a.Master} {
		if r := runCLI(t, env, kp.Seed()+"\n", "sign", id); r.code != ExitOK {
			t.Fatalf("sign: %d %q", r.code, r.stderr)
		}
	}
	seq, _ := rel.horizon.Sequence(a.Address)
	rel.horizon.SetSequence(a.Address, seq+7)
	r := runCLI(t, env, "", "submit", "--json", id)
	if m := r.json(t); r.code != ExitRefused || m["ok"] != false || m["code"] != "tx_bad_seq" {
		t.Fatalf("submit with a wrong sequence: %d %q", r.code, r.stdout)
	}
	rel.horizon.SetSequence(a.Address, seq)
	r = runCLI(t, env, "", "submit", id)
	if r.code != ExitOK || !strings.HasPrefix(r.stdout, "submitted plan "+id+": transaction "+id+" in ledger ") {
		t.Fatalf("submit: %d %q %q", r.code, r.stdout, r.stderr)
	}
	res, err := http.Get(rel.horizon.URL + "/accounts/" + a.Address)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("the double answers %d for the closed account, want 404", res.StatusCode)
	}
}

// TestPublishSubmit: `publish --submit` has the relay submit the close once
// the threshold is met; watch prints the relay's submitted event.
func TestPublishSubmit(t *testing.T) {
	rel := startTestRelay(t)
	a := rel.acct
	env := map[string]string{EnvURL: rel.url, EnvNetwork: "testnet", EnvSecret: a.Keys[0].Seed(), EnvHorizon: rel.horizon.URL}
	r := runCLI(t, env, "", "build", "--account", a.Address, "--destination", cliDest, "--sign")
	r = runCLI(t, env, r.stdout, "publish", "--submit", "--json", "-")
	m := r.json(t)
	id, _ := m["id"].(string)
	if r.code != ExitOK || id == "" || m["submit"] != true {
		t.Fatalf("publish --submit: %d %q %q", r.code, r.stdout, r.stderr)
	}
	delete(env, EnvSecret)
	for _, kp := range []*keypair.Full{a.Keys[1], a.Master} {
		if r := runCLI(t, env, kp.Seed()+"\n", "sign", id); r.code != ExitOK {
			t.Fatalf("sign: %d %q", r.code, r.stderr)
		}
	}
	// A watcher that comes after the submission is told its outcome too.
	r = runCLI(t, env, "", "watch", "--timeout", "1s", id)
	if !strings.Contains(r.stdout, "submitted by the relay: transaction "+id+" in ledger ") {
		t.Fatalf("watch: %d %q %q", r.code, r.stdout, r.stderr)
	}
	// It says that it goes on following (issue 43 item 11: it kept running
	// after the outcome without a word).
	if !strings.Contains(r.stderr, "(watch follows the plan until it expires, or Ctrl-C; --until-complete ends on the outcome)") {
		t.Errorf("watch after the submission: %q", r.stderr)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		res, err := http.Get(rel.horizon.URL + "/accounts/" + a.Address)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode == http.StatusNotFound {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the account is still served: %d", res.StatusCode)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSubmitThroughRPC: `submit --rpc-url` posts the submit-ready envelope
// through Stellar RPC (sendTransaction, then getTransaction), with the same
// answers as through Horizon: a refusal exits 1 with its result code, a
// success prints the hash and the ledger (CONTRACT section 15).
func TestSubmitThroughRPC(t *testing.T) {
	rel := startTestRelay(t)
	a := rel.acct
	id := publishSigned(t, rel)
	env := map[string]string{EnvURL: rel.url, EnvRPC: rel.horizon.URL + "/rpc"}
	for _, kp := range []*keypair.Full{a.Keys[1], a.Master} {
		if r := runCLI(t, env, kp.Seed()+"\n", "sign", id); r.code != ExitOK {
			t.Fatalf("sign: %d %q", r.code, r.stderr)
		}
	}
	seq, _ := rel.horizon.Sequence(a.Address)
	rel.horizon.SetSequence(a.Address, seq+7)
	r := runCLI(t, env, "", "submit", "--json", id)
	if m := r.json(t); r.code != ExitRefused || m["ok"] != false || m["code"] != "tx_bad_seq" {
		t.Fatalf("submit with a wrong sequence: %d %q %q", r.code, r.stdout, r.stderr)
	}
	rel.horizon.SetSequence(a.Address, seq)
	r = runCLI(t, env, "", "submit", id)
	if r.code != ExitOK || !strings.HasPrefix(r.stdout, "submitted plan "+id+": transaction "+id+" in ledger ") {
		t.Fatalf("submit: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if n := rel.horizon.Handler().RPCCalls("sendTransaction"); n != 2 {
		t.Errorf("%d sendTransaction calls, want 2 (the refused try and the landed one)", n)
	}
}

// TestBuildRefusesRPCAlone: build needs the account's whole listing, which
// Stellar RPC cannot give; given only --rpc-url it says so, exit 2.
func TestBuildRefusesRPCAlone(t *testing.T) {
	rel := startTestRelay(t)
	r := runCLI(t, map[string]string{EnvRPC: rel.horizon.URL + "/rpc"}, "", "build", "--account", rel.acct.Address, "--destination", cliDest)
	if r.code != ExitUsage || !strings.Contains(r.stderr, "--horizon-url") || !strings.Contains(r.stderr, "by key only") {
		t.Fatalf("build with --rpc-url alone: %d %q", r.code, r.stderr)
	}
}

// TestMediatorForwardReadsTheSequenceThroughRPC: `mediator forward
// --rpc-url` reads the mediator's sequence number and balance from Stellar
// RPC, as --horizon-url does from Horizon, and builds the forward on the
// next one, paying the balance less the fee and the 1 XLM minimum.
func TestMediatorForwardReadsTheSequenceThroughRPC(t *testing.T) {
	rel := startTestRelay(t)
	mediator := keypair.MustRandom().Address()
	rel.horizon.Fund(mediator, 2_0000000)
	rel.horizon.SetSequence(mediator, 4242)
	for _, flag := range []string{"--rpc-url", "--horizon-url"} {
		url := rel.horizon.URL
		if flag == "--rpc-url" {
			url += "/rpc"
		}
		r := runCLI(t, nil, "", "mediator", "forward", "--json", "--mediator", mediator, "--destination", cliDest, "--memo-id", "7", flag, url)
		m := r.json(t)
		x, _ := m["xdr"].(string)
		env, err := ledger.DecodeEnvelope(x)
		if r.code != ExitOK || err != nil || env.SeqNum() != 4243 || m["amount"] != "0.9999800" {
			t.Errorf("%s: %d %q %q, want the forward at sequence 4243", flag, r.code, r.stdout, r.stderr)
		}
	}
}
