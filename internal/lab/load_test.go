package lab

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/internal/ctl"
	"github.com/closerelay/closerelay/internal/relaytest"
	"github.com/closerelay/closerelay/internal/syncbuf"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/loadkit"
	"github.com/stellar/go-stellar-sdk/keypair"
)

// checkPayloadAgainstRelay sends one partial of each kind to plan 0 and
// checks the relay's answers: a valid partial adds its signer, the same
// signature again or under a forged hint adds nothing, a fresh one adds
// nothing, a stranger's and an expensive one are refused.
func checkPayloadAgainstRelay(t *testing.T, p *loadkit.Payload) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cl, err := client.New(p.Relay)
	if err != nil {
		t.Fatal(err)
	}
	plan := p.Plans[0]
	want := 2 // the publisher, then the first co-signer
	for _, x := range []string{plan.Valid[0], plan.Valid[0], plan.Forged[0], plan.Fresh[0]} {
		s, err := cl.Sign(ctx, plan.ID, x)
		if err != nil || len(s.Signers) != want {
			t.Fatalf("sign: %v signers, %v; want %d signers", s.Signers, err, want)
		}
	}
	for _, x := range []string{plan.Strangers[0], plan.Expensive[0]} {
		var apiErr *client.Error
		if _, err := cl.Sign(ctx, plan.ID, x); !errors.As(err, &apiErr) || apiErr.Code != "REJECTED" {
			t.Fatalf("sign a bad partial: %v, want REJECTED", err)
		}
	}
}

// TestLoadLocal runs `load local` small: 2 plans of 3 signers, on ports the
// system picks, and replays its payload against the relay it started.
func TestLoadLocal(t *testing.T) {
	out := filepath.Join(t.TempDir(), "payload.json")
	profile := filepath.Join(t.TempDir(), "cpu.prof")
	heapProfile := filepath.Join(t.TempDir(), "heap.prof")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var log syncbuf.Buffer
	ready := make(chan *loadkit.Payload, 1)
	done := make(chan error, 1)
	go func() {
		done <- runLoadLocal(ctx, &log, localOptions{
			listen: "127.0.0.1:0", ops: "127.0.0.1:0", plans: 2, spare: 1, signers: 3,
			counts: loadkit.Counts{Fresh: 2, Strangers: 1, Expensive: 1}, out: out, cpuProfile: profile, memProfile: heapProfile,
			ready: func(p *loadkit.Payload) { ready <- p },
		})
	}()
	var p *loadkit.Payload
	select {
	case p = <-ready:
	case err := <-done:
		t.Fatalf("load local ended before ready: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("load local not ready after 30 s")
	}
	if !strings.HasPrefix(log.String(), "ready relay="+p.Relay) {
		t.Errorf("ready line %q", log.String())
	}
	onDisk, err := loadkit.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if onDisk.ServerPID != os.Getpid() || onDisk.Network != "testnet" || onDisk.Ops == "" || len(onDisk.Plans) != 2 {
		t.Fatalf("payload: pid %d network %q ops %q plans %d", onDisk.ServerPID, onDisk.Network, onDisk.Ops, len(onDisk.Plans))
	}
	for _, pl := range onDisk.Plans {
		if len(pl.Signers) != 3 || len(pl.Valid) != 2 || len(pl.Forged) != 2 || len(pl.Fresh) != 2 || len(pl.Strangers) != 1 || len(pl.Expensive) != 1 {
			t.Fatalf("plan %s: %+v", pl.ID, pl)
		}
	}
	if onDisk.Plans[0].ID == onDisk.Plans[1].ID {
		t.Fatal("both plans have the same id")
	}
	// The spare close is not published yet; publishing it makes its plan.
	if len(onDisk.Spare) != 1 || onDisk.Plans[0].Close == "" || onDisk.Spare[0].Close == "" || len(onDisk.Spare[0].Valid) != 2 {
		t.Fatalf("spare %+v", onDisk.Spare)
	}
	cl, err := client.New(onDisk.Relay)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Get(t.Context(), onDisk.Spare[0].ID); err == nil {
		t.Fatal("the spare plan is published already")
	}
	if id, err := cl.Publish(t.Context(), onDisk.Network, onDisk.Spare[0].Close); err != nil || id != onDisk.Spare[0].ID {
		t.Fatalf("publish the spare close: %q, %v; want %s", id, err, onDisk.Spare[0].ID)
	}
	checkPayloadAgainstRelay(t, onDisk)

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("load local: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("load local did not stop")
	}
	if fi, err := os.Stat(profile); err != nil || fi.Size() == 0 {
		t.Errorf("no CPU profile written: %v", err)
	}
	if fi, err := os.Stat(heapProfile); err != nil || fi.Size() == 0 {
		t.Errorf("no heap profile written: %v", err)
	}
}

// TestLoadPrepare publishes a plan of the test account with its three
// secrets given on standard input, as for a remote relay.
func TestLoadPrepare(t *testing.T) {
	rel := relaytest.Start(t, relaytest.Options{})
	a := ledgertest.NewAccount(2, 1)
	rel.Horizon.AddAccount(a)
	out := filepath.Join(t.TempDir(), "payload.json")
	secrets := "# the publisher first\n" + a.Master.Seed() + "\n\n" + a.Keys[0].Seed() + "\n" + a.Keys[1].Seed() + "\n"
	r := runCLI(t, nil, secrets, "load", "prepare", "--relay", rel.URL, "--horizon-url", rel.Horizon.URL,
		"--destination", keypair.MustRandom().Address(), "--fresh", "1", "--strangers", "1", "--expensive", "1", "--out", out)
	if r.code != ctl.ExitOK {
		t.Fatalf("load prepare: %d %q %q", r.code, r.stdout, r.stderr)
	}
	for _, s := range []string{a.Master.Seed(), a.Keys[0].Seed(), a.Keys[1].Seed()} {
		if strings.Contains(r.stdout+r.stderr, s) {
			t.Fatal("a secret was printed")
		}
	}
	p, err := loadkit.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if p.Relay != rel.URL || p.ServerPID != 0 || len(p.Plans) != 1 || len(p.Plans[0].Valid) != 2 || p.Plans[0].Signers[0] != a.Address {
		t.Fatalf("payload: %+v", p)
	}
	checkPayloadAgainstRelay(t, p)

	// The same from a secrets file, for another close (another destination):
	// another plan.
	secretsFile := filepath.Join(t.TempDir(), "secrets")
	if err := os.WriteFile(secretsFile, []byte(secrets), 0o600); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, nil, "", "load", "prepare", "--relay", rel.URL, "--horizon-url", rel.Horizon.URL, "--secrets", secretsFile,
		"--destination", keypair.MustRandom().Address(), "--out", out)
	if r.code != ctl.ExitOK {
		t.Fatalf("load prepare --secrets FILE: %d %q %q", r.code, r.stdout, r.stderr)
	}
	q, err := loadkit.Read(out)
	if err != nil || q.Plans[0].ID == p.Plans[0].ID || len(q.Plans[0].Fresh) != 8 {
		t.Fatalf("second payload: %v (plan %s, %d fresh)", err, q.Plans[0].ID, len(q.Plans[0].Fresh))
	}
	checkPayloadAgainstRelay(t, q)
}

func TestLoadUsage(t *testing.T) {
	for _, args := range [][]string{{"load", "--help"}, {"load", "local", "--help"}, {"load", "prepare", "-h"}, {"load", "routes", "--help"}, {"load", "admit", "--help"}} {
		if r := runCLI(t, nil, "", args...); r.code != ctl.ExitOK || !strings.HasPrefix(r.stdout, "Usage: closerelaylab load") || r.stderr != "" {
			t.Errorf("%v: code %d stdout %q stderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
	seed := keypair.MustRandom().Seed()
	dest := keypair.MustRandom().Address()
	for _, tc := range []struct {
		args  []string
		stdin string
	}{
		{[]string{"load"}, ""},
		{[]string{"load", "fly"}, ""},
		{[]string{"load", "local", "--plans", "0"}, ""},
		{[]string{"load", "local", "--plans", "501"}, ""},
		{[]string{"load", "local", "--signers", "21"}, ""},
		{[]string{"load", "local", "--listen", "0.0.0.0:8080"}, ""},
		{[]string{"load", "local", "--ops", "192.0.2.1:9090"}, ""},
		{[]string{"load", "local", "--fresh", "-1"}, ""},
		{[]string{"load", "local", "--spare", "499"}, ""}, // 3 plans by default: 502 in all, no room
		{[]string{"load", "local", "--plans", "450", "--spare", "51"}, ""},
		{[]string{"load", "routes", "--connections", "0"}, ""},
		{[]string{"load", "routes", "--mix", "fly:1"}, ""},
		{[]string{"load", "routes", "--payload", filepath.Join(t.TempDir(), "absent.json")}, ""},
		{[]string{"load", "admit", "--connections", "0"}, ""},
		{[]string{"load", "admit", "--payload", filepath.Join(t.TempDir(), "absent.json")}, ""},
		{[]string{"load", "prepare", seed}, ""}, // never a secret from an argument
		{[]string{"load", "prepare", "--network", "mainnet", "--destination", dest}, seed},
		{[]string{"load", "prepare"}, seed}, // no destination
		{[]string{"load", "prepare", "--destination", dest}, ""},
		{[]string{"load", "prepare", "--destination", dest}, "S" + strings.Repeat("X", 55)},
		{[]string{"load", "prepare", "--destination", dest, "--secrets", filepath.Join(t.TempDir(), "absent")}, ""},
	} {
		r := runCLI(t, nil, tc.stdin, tc.args...)
		if r.code != ctl.ExitUsage {
			t.Errorf("%v: code %d, want %d (stdout %q stderr %q)", tc.args, r.code, ctl.ExitUsage, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, seed) {
			t.Errorf("%v: the secret was echoed", tc.args)
		}
	}
}

func TestDemo(t *testing.T) {
	var out syncbuf.Buffer
	if err := runDemo(context.Background(), &out, demoOptions{timeout: 60 * time.Second}); err != nil {
		t.Fatalf("demo: %v\n%s", err, out.String())
	}
	for _, want := range []string{"weight 1/3", "weight 2/3", "weight 3/3", "threshold met", "a co-signer's page for it: http://127.0.0.1:", "the relay submits the close (event: submitted)", "the exchange is credited", "demo complete: OK"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("demo output lacks %q:\n%s", want, out.String())
		}
	}
	// Issue 21 item 5: a real-looking account; its bare merge blocked by the
	// relay's preflight with the reason, then the full close, landable at
	// every step, submitted, and the account gone.
	steps := []string{
		"it holds a trustline with 50 USD (issuer ",
		"signer A first publishes a bare merge into ",
		"relay's preflight (GET /api/plan/{id}/status): blocked (op_has_sub_entries): the ledger would refuse the close; do not sign it (checked ",
		"op 1: op_has_sub_entries: the account still holds 1 trustline: USD (",
		"1 data entry: \"note\"",
		"do not sign this close",
		"op 1: cancel offer ",
		"op 2: return 50 USD to its issuer ",
		"op 3: remove the trustline to USD (",
		"op 4: delete data entry \"note\"",
		"op 5: close account ",
		"relay's preflight (GET /api/plan/{id}/status): landable: the close would land as it is (checked ",
		"watcher: version 1, weight 1/3 (signed by A), as the relay reports too; landable",
		"relay: merged; the envelope now carries 3 signatures; landable",
		"watcher: version 3, weight 3/3 (signed by A, B, C), as the relay reports too; landable",
		"the watcher receives event: submitted",
		"the account is closed: the account API answers 404 for ",
	}
	wantInOrder(t, out.String(), steps)
}

// TestDemoThroughRPC: with LEDGER_API=rpc the same demo runs, its relay
// reading and submitting through the double's Stellar RPC face (CONTRACT
// section 15).
func TestDemoThroughRPC(t *testing.T) {
	var out syncbuf.Buffer
	if err := runDemo(context.Background(), &out, demoOptions{timeout: 60 * time.Second, ledgerAPI: "rpc"}); err != nil {
		t.Fatalf("demo: %v\n%s", err, out.String())
	}
	for _, want := range []string{"LEDGER_API=rpc: the relay reads and submits through the double's Stellar RPC face", "the watcher receives event: submitted", "demo complete: OK"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("demo output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), " 0 sendTransaction calls") || !strings.Contains(out.String(), "sendTransaction calls") {
		t.Errorf("the submission did not go through Stellar RPC:\n%s", out.String())
	}
}

func TestDemoFailsWhenOutOfTime(t *testing.T) {
	err := runDemo(context.Background(), io.Discard, demoOptions{timeout: time.Millisecond})
	if err == nil {
		t.Fatal("a demo with 1ms succeeded")
	}
}

// TestLoadAdmit: a burst on a fresh relay sends every valid partial once and
// the relay counts each as a new signer; the same burst again is replays,
// which the command refuses to call new signers (exit 1).
func TestLoadAdmit(t *testing.T) {
	out := filepath.Join(t.TempDir(), "payload.json")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var log syncbuf.Buffer
	ready := make(chan *loadkit.Payload, 1)
	done := make(chan error, 1)
	go func() {
		done <- runLoadLocal(ctx, &log, localOptions{
			listen: "127.0.0.1:0", ops: "127.0.0.1:0", plans: 3, signers: 4, out: out,
			ready: func(p *loadkit.Payload) { ready <- p },
		})
	}()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("load local ended before ready: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("load local not ready after 30 s")
	}
	burst := func() (int, loadkit.AdmitResult) {
		r := runCLI(t, nil, "", "load", "admit", "--payload", out, "--connections", "4", "--json")
		var res loadkit.AdmitResult
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
			t.Fatalf("load admit --json: %v: %q %q", err, r.stdout, r.stderr)
		}
		return r.code, res
	}
	code, first := burst()
	if code != ctl.ExitOK || first.Requests != 9 || first.Wrong != 0 || first.Admitted != 9 || first.Plans != 3 || first.RPS <= 0 || first.P99 <= 0 {
		t.Fatalf("first burst: exit %d, %+v", code, first)
	}
	code, again := burst()
	if code != ctl.ExitRefused || again.Requests != 9 || again.Wrong != 0 || again.Admitted != 0 {
		t.Fatalf("second burst (replays): exit %d, %+v", code, again)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestLoadAdmitWrk: `load admit --wrk` sends every valid partial once from
// wrk's threads (loadkit/wrk/admit.lua), each thread its own slice: the
// relay admits exactly the requests sent, every answer 200; sent again to
// the same relay the partials are replays and the burst is refused. Needs
// wrk 4.1 or later on PATH (Debian: apt-get install wrk).
func TestLoadAdmitWrk(t *testing.T) {
	wrk, err := exec.LookPath("wrk")
	if err != nil {
		t.Skip("wrk is not installed")
	}
	out := filepath.Join(t.TempDir(), "payload.json")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var log syncbuf.Buffer
	ready := make(chan *loadkit.Payload, 1)
	done := make(chan error, 1)
	go func() {
		done <- runLoadLocal(ctx, &log, localOptions{
			listen: "127.0.0.1:0", ops: "127.0.0.1:0", plans: 5, signers: 4, out: out,
			ready: func(p *loadkit.Payload) { ready <- p },
		})
	}()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("load local ended before ready: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("load local not ready after 30 s")
	}
	script := filepath.Join("..", "..", "loadkit", "wrk", "admit.lua")
	burst := func(threads string) (int, loadkit.AdmitResult) {
		r := runCLI(t, nil, "", "load", "admit", "--payload", out, "--connections", "4", "--threads", threads,
			"--wrk", wrk, "--wrk-script", script, "--json")
		var res loadkit.AdmitResult
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
			t.Fatalf("load admit --wrk --json: %v: %q %q", err, r.stdout, r.stderr)
		}
		return r.code, res
	}
	// 15 partials over 4 threads: slices of 4, 4, 4 and 3.
	code, first := burst("4")
	if code != ctl.ExitOK || first.Generator != "wrk" || first.Threads != 4 || first.Requests != 15 || first.Wrong != 0 ||
		first.Admitted != 15 || first.Plans != 5 || first.RPS <= 0 || first.P99 <= 0 || first.P99Uncorrected <= 0 {
		t.Fatalf("first burst: exit %d, %+v", code, first)
	}
	code, again := burst("2")
	if code != ctl.ExitRefused || again.Requests != 15 || again.Wrong != 0 || again.Admitted != 0 {
		t.Fatalf("second burst (replays): exit %d, %+v", code, again)
	}
	if r := runCLI(t, nil, "", "load", "admit", "--payload", out, "--connections", "4", "--threads", "3", "--wrk", wrk); r.code != ctl.ExitUsage ||
		!strings.Contains(r.stderr, "--threads takes a divisor of --connections") {
		t.Fatalf("--threads 3 with 4 connections: exit %d, %q", r.code, r.stderr)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
