package ctl

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/client/wallet"

	"github.com/closerelay/closerelay/internal/syncbuf"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
)

func TestCLIHelpEverywhere(t *testing.T) {
	for _, args := range [][]string{
		{"build", "--help"}, {"publish", "--help"}, {"get", "-h"}, {"sign", "--help"}, {"watch", "--help"}, {"status", "--help"},
		{"mediator", "mint", "--help"}, {"mediator", "forward", "--help"}, {"mediator", "cosign", "--help"}, {"mediator", "resume", "--help"},
	} {
		r := runCLI(t, nil, "", args...)
		name := strings.Join(args[:len(args)-1], " ")
		if r.code != ExitOK || !strings.HasPrefix(r.stdout, "Usage: closerelayctl "+name) || r.stderr != "" {
			t.Errorf("%v: code %d stdout %q stderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
	for _, args := range [][]string{{"help"}, {"--help"}, {"mediator", "help"}} {
		if r := runCLI(t, nil, "", args...); r.code != ExitOK || !strings.Contains(r.stdout, "Usage") {
			t.Errorf("%v: code %d stdout %q", args, r.code, r.stdout)
		}
	}
}

func TestCLIUsageErrors(t *testing.T) {
	seed := keypair.MustRandom().Seed()
	for _, args := range [][]string{
		{"nonsense"},
		{"get"},
		{"get", "a", "b"},
		{"get", "--bogus", "x"},
		{"sign", "abc", seed}, // a secret is never taken from an argument
		{"mediator"},
		{"mediator", "fly"},
		{"mediator", "forward", "--mediator", "G"},
		{"mediator", "cosign", "XDR"},
		{"watch", "--poll", "soon", "x"},
	} {
		r := runCLI(t, nil, "", args...)
		if r.code != ExitUsage {
			t.Errorf("%v: code %d, want %d (stdout %q stderr %q)", args, r.code, ExitUsage, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, seed) {
			t.Errorf("%v: the secret was echoed", args)
		}
	}
	// A malformed secret is refused without being shown.
	bad := "S" + strings.Repeat("X", 55)
	r := runCLI(t, map[string]string{EnvSecret: bad}, "", "sign", strings.Repeat("a", 64))
	if r.code != ExitUsage || strings.Contains(r.stdout+r.stderr, bad) || !strings.Contains(r.stderr, "not a valid") {
		t.Fatalf("bad secret: code %d stderr %q", r.code, r.stderr)
	}
}

func TestCLITransportFailure(t *testing.T) {
	// Port 1 on loopback: refused at once, without leaving the machine.
	r := runCLI(t, nil, "", "get", "--relay", "http://127.0.0.1:1", "--json", strings.Repeat("a", 64))
	if r.code != ExitTransport || r.json(t)["code"] != "TRANSPORT" {
		t.Fatalf("code %d stdout %q", r.code, r.stdout)
	}
}

func TestCLIPlanCommands(t *testing.T) {
	rel := startTestRelay(t)
	a := rel.acct
	env := map[string]string{EnvURL: rel.url}
	// Into cliDest, which the double knows: a landable close.
	unsigned, _ := ledgertest.BuildClose(a.Master, cliDest, 1<<32+1, time.Now().Add(time.Hour).Unix(), network.TestNetworkPassphrase)

	// publish --sign: the secret from the environment, the XDR as an argument.
	withSecret := map[string]string{EnvURL: rel.url, EnvSecret: a.Keys[0].Seed()}
	r := runCLI(t, withSecret, "", "publish", "--sign", "--json", unsigned)
	if r.code != ExitOK {
		t.Fatalf("publish: %d %q %q", r.code, r.stdout, r.stderr)
	}
	id, _ := r.json(t)["id"].(string)
	if len(id) != 64 {
		t.Fatalf("publish id %q", id)
	}
	// An unsigned close is refused by the server: exit 1, code in JSON.
	other, _ := ledgertest.BuildClose(a.Master, keypair.MustRandom().Address(), 1<<32+1, time.Now().Add(time.Hour).Unix(), network.TestNetworkPassphrase)
	r = runCLI(t, env, other, "publish", "--json", "-")
	if r.code != ExitRefused || r.json(t)["code"] != "UNSIGNED" {
		t.Fatalf("publish unsigned: %d %q", r.code, r.stdout)
	}

	r = runCLI(t, env, "", "get", id)
	if r.code != ExitOK || !strings.Contains(r.stdout, "on testnet, 1 signature(s)") {
		t.Fatalf("get: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, env, "", "get", "--json", strings.Repeat("0", 64))
	if m := r.json(t); r.code != ExitRefused || m["code"] != "NOT_FOUND" || m["status"] != float64(404) {
		t.Fatalf("get unknown: %d %q", r.code, r.stdout)
	}

	// A watcher, started at 1/3, sees 2/3 then 3/3 and exits by itself.
	pr, pw := io.Pipe()
	var watchErr syncbuf.Buffer
	watchCode := make(chan int, 1)
	go func() {
		c := &CLI{Stdin: strings.NewReader(""), Stdout: pw, Stderr: &watchErr, Getenv: func(k string) string { return env[k] }}
		watchCode <- c.Run([]string{"watch", "--until-complete", "--horizon-url", rel.horizon.URL, "--timeout", "30s", id})
		pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	nextLine := func() string {
		if !lines.Scan() {
			t.Fatalf("watch output ended; stderr %q", watchErr.String())
		}
		return lines.Text()
	}
	if l := nextLine(); !strings.HasPrefix(l, "v1 weight 1/3 signers: ") {
		t.Fatalf("watch line 1: %q", l)
	}

	// sign: the secret from standard input.
	r = runCLI(t, env, a.Keys[1].Seed()+"\n", "sign", id)
	if r.code != ExitOK || !strings.Contains(r.stdout, "the plan now carries 2 signature(s)") || strings.Contains(r.stdout+r.stderr, a.Keys[1].Seed()) {
		t.Fatalf("sign: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if l := nextLine(); !strings.HasPrefix(l, "v2 weight 2/3 ") {
		t.Fatalf("watch line 2: %q", l)
	}
	r = runCLI(t, map[string]string{EnvURL: rel.url, "MY_KEY": a.Master.Seed()}, "", "sign", "--json", "--secret-env", "MY_KEY", id)
	if m := r.json(t); r.code != ExitOK || len(m["signers"].([]any)) != 3 || m["signer"] != a.Master.Address() {
		t.Fatalf("sign --json: %d %q", r.code, r.stdout)
	}
	if l := nextLine(); !strings.HasPrefix(l, "v3 weight 3/3 ") || !strings.Contains(l, "threshold met") {
		t.Fatalf("watch line 3: %q", l)
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if code := <-watchCode; code != ExitOK {
		t.Fatalf("watch exit %d; stderr %q", code, watchErr.String())
	}

	// watch --json of a complete plan: one line, then done.
	r = runCLI(t, env, "", "watch", "--json", "--until-complete", "--horizon-url", rel.horizon.URL, id)
	if m := r.json(t); r.code != ExitOK || m["met"] != true || m["weight"] != float64(3) || m["needed"] != float64(3) {
		t.Fatalf("watch --json: %d %q %q", r.code, r.stdout, r.stderr)
	}
	// A signer that is not the account's is refused by the server.
	r = runCLI(t, map[string]string{EnvURL: rel.url, EnvSecret: keypair.MustRandom().Seed()}, "", "sign", id)
	if r.code != ExitRefused || !strings.Contains(r.stderr, "REJECTED") {
		t.Fatalf("stranger sign: %d %q", r.code, r.stderr)
	}
}

func TestCLIMediatorCommands(t *testing.T) {
	rel := startTestRelay(t)
	env := map[string]string{EnvURL: rel.url}
	dest := keypair.MustRandom().Address()

	r := runCLI(t, env, "", "mediator", "mint", "--json", dest)
	m := r.json(t)
	token, mediatorKey := m["flowToken"].(string), m["mediatorPublicKey"].(string)
	if r.code != ExitOK || token == "" || m["destination"] != dest {
		t.Fatalf("mint: %d %q", r.code, r.stdout)
	}
	r = runCLI(t, env, "", "mediator", "mint", "nope")
	if r.code != ExitRefused || !strings.Contains(r.stderr, "INVALID_DESTINATION") {
		t.Fatalf("mint invalid: %d %q", r.code, r.stderr)
	}

	r = runCLI(t, env, "", "mediator", "forward", "--mediator", mediatorKey, "--destination", dest, "--amount", "12.5", "--memo-id", "77", "--sequence", "4294967296")
	fwd := strings.TrimSpace(r.stdout)
	if r.code != ExitOK || fwd == "" {
		t.Fatalf("forward: %d %q %q", r.code, r.stdout, r.stderr)
	}
	// --sequence may come from the account API instead.
	rel.horizon.SetAccount(mediatorKey, nil, rel.acct.Thresholds)
	r = runCLI(t, env, "", "mediator", "forward", "--json", "--mediator", mediatorKey, "--destination", dest, "--amount", "1", "--memo-text", "hi", "--horizon-url", rel.horizon.URL)
	if r.code != ExitOK || r.json(t)["xdr"] == "" {
		t.Fatalf("forward via horizon: %d %q %q", r.code, r.stdout, r.stderr)
	}

	r = runCLI(t, env, fwd, "mediator", "cosign", "--token", token, "--json")
	if m := r.json(t); r.code != ExitOK || m["hash"] == "" || m["mediatorPublicKey"] != mediatorKey {
		t.Fatalf("cosign: %d %q %q", r.code, r.stdout, r.stderr)
	}

	// A co-sign that cannot reach the relay leaves a recovery record, which
	// resume completes against the relay.
	record := filepath.Join(t.TempDir(), "forward.json")
	r = runCLI(t, map[string]string{EnvURL: "http://127.0.0.1:1"}, "", "mediator", "cosign", "--token", token, "--record", record, fwd)
	if r.code != ExitTransport || !strings.Contains(r.stderr, "recovery record written to "+record) {
		t.Fatalf("cosign unreachable: %d %q", r.code, r.stderr)
	}
	rec, err := wallet.LoadRecord(record)
	if err != nil || rec.LastError == "" || rec.FlowToken != token || rec.Memo.String() != "id:77" {
		t.Fatalf("record: %+v, %v", rec, err)
	}
	r = runCLI(t, env, "", "mediator", "resume", record)
	if r.code != ExitOK || !strings.Contains(r.stdout, "co-signed by mediator "+mediatorKey) {
		t.Fatalf("resume: %d %q %q", r.code, r.stdout, r.stderr)
	}

	// A record whose token has expired is refused without asking the relay.
	parts := strings.Split(rec.FlowToken, ".")
	parts[1] = "1000"
	rec.FlowToken = strings.Join(parts, ".")
	if err := rec.Save(record); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, map[string]string{EnvURL: "http://127.0.0.1:1"}, "", "mediator", "resume", "--json", record)
	if r.code != ExitRefused || r.json(t)["code"] != "REFUSED" {
		t.Fatalf("resume expired: %d %q", r.code, r.stdout)
	}
	if back, err := wallet.LoadRecord(record); err != nil || !strings.Contains(back.LastError, "expired") {
		t.Fatalf("the record does not keep the last error: %+v, %v", back, err)
	}
	if _, err := os.Stat(record); err != nil {
		t.Fatal(err)
	}
}

// TestClientHasNoLabCommands: closerelayctl starts no relay; asked for the
// demo or a load tool, it names the program that has them.
func TestClientHasNoLabCommands(t *testing.T) {
	for _, args := range [][]string{{"demo"}, {"load", "local"}} {
		var out, errOut syncbuf.Buffer
		c := &CLI{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }}
		if code := c.Run(args); code != ExitUsage || out.String() != "" || !strings.Contains(errOut.String(), "closerelaylab "+args[0]) {
			t.Errorf("closerelayctl %v: exit %d stdout %q stderr %q", args, code, out.String(), errOut.String())
		}
	}
}
