package ctl

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
)

// The messages that say what to do next (issue 26 item 3), one test each,
// through the command line against a real relay on loopback where one is
// needed.

// oneLine fails unless s is exactly one line.
func oneLine(t *testing.T, what, s string) {
	t.Helper()
	if strings.Count(s, "\n") != 1 || !strings.HasSuffix(s, "\n") {
		t.Errorf("%s: %q, want one line", what, s)
	}
}

func TestCommandTypoSuggestsTheCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"pubish"}, `closerelayctl: unknown command "pubish"; did you mean "publish"? (closerelayctl help lists the commands)`},
		{[]string{"stauts"}, `closerelayctl: unknown command "stauts"; did you mean "status"?`},
		{[]string{"wach", "x"}, `closerelayctl: unknown command "wach"; did you mean "watch"?`},
		{[]string{"mediator", "mnt"}, `closerelayctl mediator: unknown command "mnt"; did you mean "mint"?`},
		{[]string{"xyzzy"}, `closerelayctl: unknown command "xyzzy" (closerelayctl help lists the commands)`},
	} {
		r := runCLI(t, nil, "", tc.args...)
		if r.code != ExitUsage || !strings.HasPrefix(r.stderr, tc.want) || r.stdout != "" {
			t.Errorf("%v: exit %d stderr %q, want exit 2 and %q", tc.args, r.code, r.stderr, tc.want)
		}
		oneLine(t, strings.Join(tc.args, " "), r.stderr)
	}
}

func TestFlagTypoSuggestsTheFlag(t *testing.T) {
	id := strings.Repeat("a", 64)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"status", "--jsn", id}, "closerelayctl status: unknown flag --jsn; did you mean --json? (closerelayctl status --help lists the flags)"},
		{[]string{"build", "--acount", "G"}, "closerelayctl build: unknown flag --acount; did you mean --account?"},
		{[]string{"publish", "-submt"}, "closerelayctl publish: unknown flag --submt; did you mean --submit?"},
		{[]string{"watch", "--until-completed", id}, "closerelayctl watch: unknown flag --until-completed; did you mean --until-complete?"},
		{[]string{"get", "--frobnicate", id}, "closerelayctl get: unknown flag --frobnicate (closerelayctl get --help lists the flags)"},
	} {
		r := runCLI(t, nil, "", tc.args...)
		if r.code != ExitUsage || !strings.HasPrefix(r.stderr, tc.want) {
			t.Errorf("%v: exit %d stderr %q, want exit 2 and %q", tc.args, r.code, r.stderr, tc.want)
		}
		oneLine(t, strings.Join(tc.args, " "), r.stderr)
	}
}

func TestNetworkInAnyCase(t *testing.T) {
	a := keypair.MustRandom().Address()
	dest := keypair.MustRandom().Address()
	build := []string{"build", "--json", "--account", a, "--destination", dest, "--sequence", "1"}
	for _, env := range []map[string]string{{EnvNetwork: "Testnet"}, {EnvNetwork: "TESTNET"}, {EnvNetwork: " testnet "}} {
		r := runCLI(t, env, "", build...)
		if r.code != ExitOK || r.json(t)["network"] != "testnet" {
			t.Errorf("%s=%q: exit %d %q %q", EnvNetwork, env[EnvNetwork], r.code, r.stdout, r.stderr)
		}
	}
	if r := runCLI(t, nil, "", append(build, "--network", "Futurenet")...); r.code != ExitOK || r.json(t)["network"] != "futurenet" {
		t.Errorf("--network Futurenet: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	// A name that is no network is answered with the names.
	r := runCLI(t, map[string]string{EnvNetwork: "testnett"}, "", append([]string{"build"}, build[2:]...)...)
	if r.code != ExitUsage || !strings.Contains(r.stderr, `CLOSERELAY_NETWORK="testnett" names no network: want mainnet, testnet or futurenet`) {
		t.Errorf("%s=testnett: exit %d %q", EnvNetwork, r.code, r.stderr)
	}
	oneLine(t, "CLOSERELAY_NETWORK=testnett", r.stderr)
	// … unless --network says which.
	if r := runCLI(t, map[string]string{EnvNetwork: "testnett"}, "", append(build, "--network", "testnet")...); r.code != ExitOK {
		t.Errorf("--network beside a bad %s: exit %d %q", EnvNetwork, r.code, r.stderr)
	}
	if r := runCLI(t, nil, "", append(build, "--network", "moon")...); r.code != ExitUsage || !strings.Contains(r.stderr, "want mainnet, testnet or futurenet") {
		t.Errorf("--network moon: exit %d %q", r.code, r.stderr)
	}
}

func TestPublishOnAnotherNetworkNamesIt(t *testing.T) {
	rel := startTestRelay(t)
	a := rel.acct
	signed, _ := ledgertest.BuildClose(a.Master, cliDest, 1<<32+1, time.Now().Add(time.Hour).Unix(), network.TestNetworkPassphrase, a.Master)
	env := map[string]string{EnvURL: rel.url}
	r := runCLI(t, env, signed, "publish", "--network", "mainnet", "-")
	if r.code != ExitRefused || !strings.Contains(r.stderr, "UNSIGNED") ||
		!strings.Contains(r.stderr, "\nthe close was signed for testnet, not mainnet: publish it with --network testnet (or set CLOSERELAY_NETWORK=testnet)\n") {
		t.Fatalf("publish --network mainnet of a testnet close: exit %d %q", r.code, r.stderr)
	}
	r = runCLI(t, env, signed, "publish", "--json", "--network", "mainnet", "-")
	if m := r.json(t); r.code != ExitRefused || m["code"] != "UNSIGNED" || !strings.Contains(m["hint"].(string), "--network testnet") {
		t.Fatalf("publish --json --network mainnet: exit %d %q", r.code, r.stdout)
	}
	// Signed by a key that is not the master: the network cannot be told,
	// so the hint says what to check.
	other, _ := ledgertest.BuildClose(a.Master, cliDest, 1<<32+1, time.Now().Add(time.Hour).Unix(), network.TestNetworkPassphrase, a.Keys[0])
	r = runCLI(t, env, other, "publish", "--network", "mainnet", "-")
	if r.code != ExitRefused || !strings.Contains(r.stderr, "A signature is bound to its network: check that --network (or CLOSERELAY_NETWORK) is the network the close was built and signed for") {
		t.Fatalf("publish --network mainnet, another signer: exit %d %q", r.code, r.stderr)
	}
}

func TestRelayNotRunningNamesTheSetting(t *testing.T) {
	id := strings.Repeat("a", 64)
	// Port 1 on loopback: refused at once, without leaving the machine.
	r := runCLI(t, map[string]string{EnvURL: "http://127.0.0.1:1"}, "", "status", id)
	if r.code != ExitTransport || !strings.HasPrefix(r.stderr, "closerelayctl status: no relay answers at http://127.0.0.1:1 (") ||
		!strings.Contains(r.stderr, "connection refused") ||
		!strings.Contains(r.stderr, "\nis the relay running? Start one, or point --relay (or CLOSERELAY_URL) at it\n") {
		t.Fatalf("status, no relay: exit %d %q", r.code, r.stderr)
	}
	r = runCLI(t, nil, "", "get", "--json", "--relay", "http://127.0.0.1:1", id)
	if m := r.json(t); r.code != ExitTransport || m["code"] != "TRANSPORT" || !strings.Contains(m["hint"].(string), "--relay (or CLOSERELAY_URL)") {
		t.Fatalf("get --json, no relay: exit %d %q", r.code, r.stdout)
	}
	signed, _ := ledgertest.BuildClose(keypair.MustRandom(), cliDest, 1, 0, network.TestNetworkPassphrase)
	if r := runCLI(t, map[string]string{EnvURL: "http://127.0.0.1:1"}, signed, "publish", "-"); r.code != ExitTransport || !strings.Contains(r.stderr, "CLOSERELAY_URL") {
		t.Fatalf("publish, no relay: exit %d %q", r.code, r.stderr)
	}
}

func TestEveryPlanIDIsCheckedLocally(t *testing.T) {
	// The relay cannot be reached: a request would be exit 3.
	env := map[string]string{EnvURL: "http://127.0.0.1:1", EnvSecret: keypair.MustRandom().Seed(), EnvHorizon: "http://127.0.0.1:1"}
	short := strings.Repeat("ab", 20)
	for _, cmd := range []string{"get", "sign", "watch", "status", "ready", "submit"} {
		r := runCLI(t, env, "", cmd, short)
		if r.code != ExitUsage || !strings.HasPrefix(r.stderr, "closerelayctl "+cmd+": PLAN_ID must be the 64 hex characters of the close's transaction hash") ||
			!strings.Contains(r.stderr, "40 character(s)") {
			t.Errorf("%s with a truncated id: exit %d %q", cmd, r.code, r.stderr)
		}
		if r := runCLI(t, env, "", cmd, strings.Repeat("z", 64)); r.code != ExitUsage {
			t.Errorf("%s with a non-hex id: exit %d %q", cmd, r.code, r.stderr)
		}
	}
}

func TestExpiredSaysToRebuild(t *testing.T) {
	rel := startTestRelay(t)
	a := rel.acct
	// maxTime in 30 s: the plan would end 60 s before it, in the past.
	signed, _ := ledgertest.BuildClose(a.Master, cliDest, 1<<32+1, time.Now().Add(30*time.Second).Unix(), network.TestNetworkPassphrase, a.Master)
	r := runCLI(t, map[string]string{EnvURL: rel.url}, signed, "publish", "-")
	if r.code != ExitRefused || !strings.Contains(r.stderr, "EXPIRED") ||
		!strings.Contains(r.stderr, "\na transaction past its time bounds can never land: build the close again (closerelayctl build), sign it and publish the new one\n") {
		t.Fatalf("publish of an expired close: exit %d %q", r.code, r.stderr)
	}
	r = runCLI(t, map[string]string{EnvURL: rel.url}, signed, "publish", "--json", "-")
	if m := r.json(t); r.code != ExitRefused || m["code"] != "EXPIRED" || !strings.Contains(m["hint"].(string), "build the close again") {
		t.Fatalf("publish --json of an expired close: exit %d %q", r.code, r.stdout)
	}
}

func TestPublishPrintsThePageAndSaysMerged(t *testing.T) {
	rel := startTestRelay(t)
	a := rel.acct
	env := map[string]string{EnvURL: rel.url}
	maxTime := time.Now().Add(time.Hour).Unix()
	first, _ := ledgertest.BuildClose(a.Master, cliDest, 1<<32+1, maxTime, network.TestNetworkPassphrase, a.Keys[0])
	r := runCLI(t, env, first, "publish", "--submit", "-")
	if r.code != ExitOK || !strings.HasPrefix(r.stdout, "published plan ") || strings.Contains(r.stdout, "merged") {
		t.Fatalf("publish: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	oneLine(t, "publish's standard output", r.stdout)
	id := strings.Fields(r.stdout)[2]
	if !strings.Contains(r.stderr, "the co-signers' page: "+rel.url+"/plan/"+id+"\n") {
		t.Errorf("publish: no page line in %q", r.stderr)
	}
	// The same close with another signature, without --submit: a merge into
	// the open plan, which the relay still submits once it is ready.
	second, _ := ledgertest.BuildClose(a.Master, cliDest, 1<<32+1, maxTime, network.TestNetworkPassphrase, a.Keys[1])
	r = runCLI(t, env, second, "publish", "-")
	if r.code != ExitOK || r.stdout != "published plan "+id+" on testnet: merged into the open plan; the relay submits it once it is ready\n" {
		t.Fatalf("re-publish: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, env, second, "publish", "--json", "-")
	m := r.json(t)
	if r.code != ExitOK || m["id"] != id || m["merged"] != true || m["submit"] != true || m["page"] != rel.url+"/plan/"+id {
		t.Fatalf("re-publish --json: exit %d %q", r.code, r.stdout)
	}
	// A close of its own: a new plan, not submitted by the relay. Its
	// sequence number skips one, so the relay's preflight finds it blocked
	// (tx_bad_seq): it is published all the same, and publish exits 1 with
	// the verdict (CONTRACT 18).
	third, _ := ledgertest.BuildClose(a.Master, cliDest, 1<<32+2, maxTime, network.TestNetworkPassphrase, a.Keys[1])
	r = runCLI(t, env, third, "publish", "--json", "-")
	if m := r.json(t); r.code != ExitRefused || m["merged"] != false || m["submit"] != false || m["ok"] != false || m["code"] != "BLOCKED" || m["id"] == nil {
		t.Fatalf("publish of a new, blocked close --json: exit %d %q", r.code, r.stdout)
	}
}

func TestBuildValidForUnderTheGraceIsRefused(t *testing.T) {
	a := keypair.MustRandom().Address()
	dest := keypair.MustRandom().Address()
	build := []string{"build", "--account", a, "--destination", dest, "--sequence", "1"}
	r := runCLI(t, nil, "", append(build, "--valid-for", "70s")...)
	if r.code != ExitUsage || !strings.Contains(r.stderr, "closerelayctl build: --valid-for 1m10s leaves 10s to sign: the relay ends a plan 1m0s before its transaction's time bound (the grace it keeps to submit), so give at least 5m0s") {
		t.Fatalf("--valid-for 70s: exit %d %q", r.code, r.stderr)
	}
	if r := runCLI(t, nil, "", append(build, "--valid-for", "30s")...); r.code != ExitUsage || !strings.Contains(r.stderr, "leaves 0s to sign") {
		t.Fatalf("--valid-for 30s: exit %d %q", r.code, r.stderr)
	}
	if r := runCLI(t, nil, "", append(build, "--valid-for", "5m")...); r.code != ExitOK {
		t.Fatalf("--valid-for 5m: exit %d %q", r.code, r.stderr)
	}
}

// TestHelpNamesNoOutsideDocument: every command's --help cites docs/API.md
// or the README, never a document outside the repository (the team's
// specification and contract), which a user cannot open (issue 43 item 5:
// publish, status, mediator mint and forward cited CONTRACT and SPEC).
func TestHelpNamesNoOutsideDocument(t *testing.T) {
	outside := regexp.MustCompile(`CONTRACT|SPEC\b|shared/`)
	runs := [][]string{{"help"}, {"mediator", "--help"}}
	for _, name := range commandNames {
		if name != "help" && name != "mediator" {
			runs = append(runs, []string{name, "--help"})
		}
	}
	for _, sub := range []string{"mint", "forward", "cosign", "resume"} {
		runs = append(runs, []string{"mediator", sub, "--help"})
	}
	for _, args := range runs {
		r := runCLI(t, nil, "", args...)
		if out := r.stdout + r.stderr; out == "" || outside.MatchString(out) {
			t.Errorf("%v: %q names %q", args, firstLine(out), outside.FindString(out))
		}
	}
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

// TestNetworkTypoSaysWhatToType: a mistyped --network gets one line with
// the nearest name, and public or pubnet a pointer to mainnet; no page of
// help (issue 43 item 3: one line, then about 60 lines of help, no
// suggestion).
func TestNetworkTypoSaysWhatToType(t *testing.T) {
	for _, tc := range []struct{ value, want string }{
		{"testnt", `unknown network "testnt": want mainnet, testnet or futurenet; did you mean testnet?`},
		{"public", `unknown network "public": the public network is called mainnet here`},
		{"pubnet", `unknown network "pubnet": the public network is called mainnet here`},
	} {
		r := runCLI(t, nil, "", "publish", "--network", tc.value, "AAAA")
		if r.code != ExitUsage || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, tc.want) ||
			!strings.HasSuffix(r.stderr, "(closerelayctl publish --help lists the flags)\n") {
			t.Errorf("--network %s: %d %q", tc.value, r.code, r.stderr)
		}
	}
}

// TestUnknownPlanSaysWhatToDo: a plan the relay does not hold gets, after
// the relay's 404, what it may mean and what to do, on every command that
// names a plan (issue 43 item 2: the 404 alone); --json carries it as
// "hint".
func TestUnknownPlanSaysWhatToDo(t *testing.T) {
	rel := startTestRelay(t)
	env := map[string]string{EnvURL: rel.url, EnvHorizon: rel.horizon.URL, EnvSecret: keypair.MustRandom().Seed()}
	id := strings.Repeat("0", 64)
	for _, cmd := range []string{"status", "get", "sign", "ready", "submit"} {
		r := runCLI(t, env, "", cmd, id)
		if r.code != ExitRefused || !strings.Contains(r.stderr, "NOT_FOUND") ||
			!strings.Contains(r.stderr, "\nthis relay holds no plan with that id: either it expired") || !strings.Contains(r.stderr, "check --relay (or CLOSERELAY_URL)") {
			t.Errorf("%s of an unknown plan: %d %q", cmd, r.code, r.stderr)
		}
	}
	r := runCLI(t, env, "", "status", "--json", id)
	if m := r.json(t); m["code"] != "NOT_FOUND" || !strings.HasPrefix(fmt.Sprint(m["hint"]), "this relay holds no plan with that id") {
		t.Errorf("status --json of an unknown plan: %q", r.stdout)
	}
}

// TestRelayThatIsNotARelay: --relay pointed at Horizon (the double's face)
// or at a server with no such route (as a relay's ops listener answers)
// says it is not a closerelay relay and where to point it, without the
// other server's body (issue 43 item 4: Horizon's raw JSON, or "404 page
// not found", alone); exit 3, code NOT_A_RELAY.
func TestRelayThatIsNotARelay(t *testing.T) {
	rel := startTestRelay(t)
	mux := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(mux.Close)
	id := strings.Repeat("0", 64)
	for _, tc := range []struct{ url, like string }{
		{rel.horizon.URL, "answered like Horizon, not like a closerelay relay"},
		{mux.URL, "answered like a server with no such route"},
	} {
		r := runCLI(t, map[string]string{EnvURL: tc.url}, "", "status", id)
		if r.code != ExitTransport || !strings.Contains(r.stderr, "closerelayctl status: 404 Not Found from a server that is not a closerelay relay\n") ||
			!strings.Contains(r.stderr, tc.like) || !strings.Contains(r.stderr, "point --relay (or CLOSERELAY_URL) at the relay's API address") ||
			strings.Contains(r.stderr, "{") {
			t.Errorf("status against %s: %d %q", tc.url, r.code, r.stderr)
		}
		r = runCLI(t, map[string]string{EnvURL: tc.url}, "", "status", "--json", id)
		if m := r.json(t); r.code != ExitTransport || m["code"] != "NOT_A_RELAY" {
			t.Errorf("status --json against %s: %d %q", tc.url, r.code, r.stdout)
		}
	}
}

// TestHelpSaysWhatBuildDoes: build --help opens with what build does (it
// empties the account, runs the preflight, and a blocked close exits 1
// with nothing on standard output), not "one account merge"; publish's
// --flow-token shows its value as TOKEN's name, not "build --json" (a
// backquoted word in a flag's text is its value's name; issue 43 item 5).
func TestHelpSaysWhatBuildDoes(t *testing.T) {
	r := runCLI(t, nil, "", "build", "--help")
	if head := strings.SplitN(r.stdout, "\n\n", 3); len(head) < 3 || strings.Contains(head[1], "one account\nmerge") ||
		!strings.Contains(head[1], "empties\nthe account first") || !strings.Contains(head[1], "runs the preflight") || !strings.Contains(head[1], "exits 1") {
		t.Errorf("build --help opens: %q", head)
	}
	r = runCLI(t, nil, "", "publish", "--help")
	if !strings.Contains(r.stdout, "--flow-token token\n") || strings.Contains(r.stdout, "--flow-token build --json") {
		t.Errorf("publish --help's --flow-token: %q", r.stdout)
	}
}
