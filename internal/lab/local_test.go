package lab

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/internal/ctl"
	"github.com/closerelay/closerelay/internal/testport"
)

// startLoadLocal starts `load local ARGS` and reads its output up to the
// "serving" line: the ready line's fields, and the lines between.
func startLoadLocal(t *testing.T, args ...string) (*testCLI, *started, map[string]string, string) {
	t.Helper()
	tc := newTestCLI(nil, strings.NewReader(""))
	ll := start(t, tc, append([]string{"load", "local"}, args...)...)
	fields := readyFields(t, ll.next())
	var rest strings.Builder
	for l := ll.next(); !strings.HasPrefix(l, "serving until Ctrl-C"); l = ll.next() {
		rest.WriteString(l + "\n")
	}
	return tc, ll, fields, rest.String()
}

// readyFields is the key=value fields of a `load local` ready line.
func readyFields(t *testing.T, line string) map[string]string {
	t.Helper()
	if !strings.HasPrefix(line, "ready ") {
		t.Fatalf("ready line %q", line)
	}
	fields := map[string]string{}
	for _, f := range strings.Fields(line)[1:] {
		k, v, _ := strings.Cut(f, "=")
		fields[k] = v
	}
	return fields
}

// TestLoadLocalDefaultsAreSmallAndOutOfTheWorkingTree: plain `load local`
// (issue 26 item 2) publishes a few plans of a few signers, so that the
// relay has room for the plans a person then publishes, and writes its
// payload and signer secrets under the user's cache directory, which it
// names, never into the working directory.
func TestLoadLocalDefaultsAreSmallAndOutOfTheWorkingTree(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache) // os.UserCacheDir on Linux
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tc := newTestCLI(nil, strings.NewReader(""))
	ll := start(t, tc, "load", "local")
	fields := readyFields(t, ll.next())
	dir := filepath.Join(cache, "closerelay", "load-local")
	if fields["plans"] != "3" || fields["signers"] != "3" {
		t.Errorf("plans=%s signers=%s, want a small stack by default (3 plans of 3 signers)", fields["plans"], fields["signers"])
	}
	if fields["payload"] != filepath.Join(dir, "load-payload.json") || fields["keys"] != filepath.Join(dir, "load-keys.env") {
		t.Errorf("payload %q keys %q, want both in %s", fields["payload"], fields["keys"], dir)
	}
	for _, f := range []string{fields["payload"], fields["keys"]} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, name := range []string{"load-payload.json", "load-keys.env"} {
		if _, err := os.Stat(filepath.Join(wd, name)); err == nil {
			t.Errorf("load local wrote %s into the working directory", name)
		}
	}
	var out strings.Builder
	for l := ll.next(); !strings.HasPrefix(l, "serving until Ctrl-C"); l = ll.next() {
		out.WriteString(l + "\n")
	}
	rest := out.String()
	keys := readKeys(t, fields["keys"])
	page := fields["relay"] + "/plan/" + keys["PLAN_1"]
	if !strings.Contains(rest, "page of account 1's plan (PLAN_1): "+page+"\n") {
		t.Errorf("no page line %s in %q", page, rest)
	}
	resp, err := http.Get(page)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %v %v", page, resp, err)
	}
	resp.Body.Close()
	// The plans it publishes are closes the ledger would take: their page
	// does not tell a person trying it not to sign.
	r := runCLI(t, nil, "", "status", "--relay", fields["relay"], keys["PLAN_1"])
	if r.code != ctl.ExitOK || !strings.Contains(r.stdout, "preflight: landable") {
		t.Errorf("status of PLAN_1: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	tc.interrupt()
	if code := ll.exit(); code != ctl.ExitOK {
		t.Fatalf("load local: exit %d %s", code, ll.stderr.String())
	}
}

// TestLoadLocalPublicURL: --public-url is the relay's PUBLIC_URL, so the
// SEP-7 links carry the callback under it and the page line names it.
func TestLoadLocalPublicURL(t *testing.T) {
	port := strconv.Itoa(testport.Free(t, 1)[0])
	public := "http://127.0.0.1:" + port
	tc, ll, fields, rest := startLoadLocal(t, "--listen", "127.0.0.1:"+port, "--dir", t.TempDir(), "--public-url", public)
	keys := readKeys(t, fields["keys"])
	if !strings.Contains(rest, "page of account 1's plan (PLAN_1): "+public+"/plan/"+keys["PLAN_1"]) {
		t.Errorf("page line not under --public-url: %q", rest)
	}
	r := runCLI(t, nil, "", "get", "--relay", fields["relay"], keys["PLAN_1"]) // the relay answers
	if r.code != ctl.ExitOK {
		t.Fatalf("get: %d %s", r.code, r.stderr)
	}
	resp, err := http.Get(fields["relay"] + "/api/plan/" + keys["PLAN_1"] + "/sep7")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), "callback=url%3A"+strings.ReplaceAll(strings.ReplaceAll(public, ":", "%3A"), "/", "%2F")) {
		t.Errorf("sep7 answer %s: want the callback under %s", b, public)
	}
	tc.interrupt()
	if code := ll.exit(); code != ctl.ExitOK {
		t.Fatalf("load local: exit %d %s", code, ll.stderr.String())
	}
	// A URL the relay's configuration refuses is a usage error, not a crash.
	r = runCLI(t, nil, "", "load", "local", "--dir", t.TempDir(), "--public-url", "ftp://example.org")
	if r.code == ctl.ExitOK || !strings.Contains(r.stderr, "PUBLIC_URL") {
		t.Errorf("--public-url ftp://…: exit %d %q", r.code, r.stderr)
	}
}

// TestDemoKeepServesUntilInterrupted: `demo --keep` (make demo KEEP=1)
// keeps the relay up once the demo is done, says how to stop it, and the
// plan's page it names answers until Ctrl-C; plain `demo` exits by itself
// (TestDemo).
func TestDemoKeepServesUntilInterrupted(t *testing.T) {
	makefile, err := os.ReadFile(filepath.Join(repoRoot(t), "Makefile"))
	if err != nil || !strings.Contains(string(makefile), "./$(LAB) demo $(if $(KEEP),--keep)") {
		t.Errorf("the Makefile's demo target does not pass --keep for KEEP=1 (%v)", err)
	}
	tc := newTestCLI(map[string]string{}, strings.NewReader(""))
	d := start(t, tc, "demo", "--keep")
	var page string
	re := regexp.MustCompile(`^the relay keeps serving on \S+; the plan's page: (\S+)$`)
	for {
		l := d.next()
		if m := re.FindStringSubmatch(l); m != nil {
			page = m[1]
			break
		}
	}
	if l := d.next(); !strings.Contains(l, "Ctrl-C") {
		t.Errorf("after the page line: %q, want how to stop it", l)
	}
	resp, err := http.Get(page)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s after the demo: %v %v", page, resp, err)
	}
	resp.Body.Close()
	tc.interrupt()
	if code := d.exit(); code != ctl.ExitOK {
		t.Fatalf("demo --keep: exit %d %s", code, d.stderr.String())
	}
}

// TestLabTypoSuggests: closerelaylab's commands and flags get the same
// one-line "did you mean" as closerelayctl's (issue 26 item 3).
func TestLabTypoSuggests(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"dmeo"}, `closerelaylab: unknown command "dmeo"; did you mean "demo"? (closerelaylab help lists the commands)` + "\n"},
		{[]string{"load", "locl"}, `closerelaylab load: unknown command "locl"; did you mean "local"? (closerelaylab load help lists the commands)` + "\n"},
		{[]string{"demo", "--keeep"}, "closerelaylab demo: unknown flag --keeep; did you mean --keep? (closerelaylab demo --help lists the flags)\n"},
		{[]string{"load", "local", "--plan", "3"}, "closerelaylab load local: unknown flag --plan; did you mean --plans? (closerelaylab load local --help lists the flags)\n"},
	} {
		var out, errOut strings.Builder
		c := &ctl.CLI{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }, Prog: "closerelaylab"}
		if code := (&tool{c}).run(tc.args); code != ctl.ExitUsage || errOut.String() != tc.want || out.Len() != 0 {
			t.Errorf("%v: exit %d stderr %q, want exit 2 and %q", tc.args, code, errOut.String(), tc.want)
		}
	}
}

// TestLoadLocalLedgerAPIRPC: --ledger-api rpc has the relay read and submit
// through the double's Stellar RPC face: its ledger-API metric says rpc, the
// plans it publishes are landable, and a plan signed to its threshold with
// submit lands; --ledger-api takes nothing but horizon or rpc.
func TestLoadLocalLedgerAPIRPC(t *testing.T) {
	tc, ll, fields, rest := startLoadLocal(t, "--dir", t.TempDir(), "--ledger-api", "rpc")
	if !strings.Contains(rest, "LEDGER_API=rpc: the relay reads and submits through the double's Stellar RPC face, "+fields["horizon"]+"/rpc\n") {
		t.Errorf("no LEDGER_API=rpc line in %q", rest)
	}
	resp, err := http.Get(fields["ops"] + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !regexp.MustCompile(`(?m)^closerelay_ledger_api_info\{backend="rpc",network="testnet"\} 1$`).Match(b) {
		t.Errorf("metrics: no closerelay_ledger_api_info of backend rpc for testnet:\n%s", regexp.MustCompile(`(?m)^closerelay_ledger_api_info.*$`).FindAll(b, -1))
	}
	keys := readKeys(t, fields["keys"])
	r := runCLI(t, nil, "", "status", "--relay", fields["relay"], keys["PLAN_1"])
	if r.code != ctl.ExitOK || !strings.Contains(r.stdout, "preflight: landable") {
		t.Errorf("status of PLAN_1: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	tc.interrupt()
	if code := ll.exit(); code != ctl.ExitOK {
		t.Fatalf("load local: exit %d %s", code, ll.stderr.String())
	}
	r = runCLI(t, nil, "", "load", "local", "--dir", t.TempDir(), "--ledger-api", "soroban")
	if r.code != ctl.ExitUsage || !strings.Contains(r.stderr, "--ledger-api must be horizon or rpc") {
		t.Errorf("--ledger-api soroban: exit %d %q", r.code, r.stderr)
	}
	r = runCLI(t, nil, "", "load", "local", "--help")
	if !strings.Contains(r.stdout+r.stderr, "-ledger-api") {
		t.Errorf("load local --help names no --ledger-api: %q", r.stdout+r.stderr)
	}
}

// TestLoadLocalProductionLimitsAndNoMediator: --rate-limits runs the relay
// with its production limits (a burst of status reads meets 429
// RATE_LIMITED) and --no-mediator without a master (the mint route answers
// 500 MEDIATOR_NOT_CONFIGURED), so that a client's tests meet both codes
// from the real relay.
func TestLoadLocalProductionLimitsAndNoMediator(t *testing.T) {
	tc := newTestCLI(nil, strings.NewReader(""))
	ll := start(t, tc, "load", "local", "--dir", t.TempDir(), "--plans", "1", "--rate-limits", "--no-mediator")
	fields := readyFields(t, ll.next())
	keys := readKeys(t, fields["keys"])
	limited := false
	for range 200 {
		resp, err := http.Get(fields["relay"] + "/api/plan/" + keys["PLAN_1"] + "/status")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			if !strings.Contains(string(b), `"code":"RATE_LIMITED"`) || resp.Header.Get("Retry-After") == "" {
				t.Errorf("429 without RATE_LIMITED and Retry-After: %s %v", b, resp.Header)
			}
			limited = true
			break
		}
	}
	if !limited {
		t.Error("200 status reads in a burst, none throttled: the relay runs without its rate limits")
	}
	resp, err := http.Get(fields["relay"] + "/api/mediator/sign?destination=" + keys["ACCOUNT_1"])
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusInternalServerError || !strings.Contains(string(b), `"code":"MEDIATOR_NOT_CONFIGURED"`) {
		t.Errorf("mint without a master: %d %s", resp.StatusCode, b)
	}
	tc.interrupt()
	// It says the keys file stays, and why that is harmless (issue 43
	// item 11: the file stayed without a word).
	l := ll.next()
	for !strings.HasPrefix(l, "stopping") {
		l = ll.next()
	}
	if !strings.Contains(l, "the keys file "+fields["keys"]+" stays") {
		t.Errorf("stop line %q", l)
	}
	if code := ll.exit(); code != ctl.ExitOK {
		t.Fatalf("load local: exit %d %s", code, ll.stderr.String())
	}
}

// TestLoadLocalSubEntries: `load local --sub-entries 2` gives account 2 a
// trustline with a balance, an offer and a data entry, so that PLAN_2, a
// bare merge, is blocked by the relay's preflight (op_has_sub_entries) and
// its status says not to sign it, while account 1's stays landable; the
// output says it published one plan per account and which is blocked. A
// number past --plans is a usage error.
func TestLoadLocalSubEntries(t *testing.T) {
	tc, ll, fields, rest := startLoadLocal(t, "--dir", t.TempDir(), "--sub-entries", "2")
	for _, want := range []string{
		"published one plan per account, PLAN_1 to PLAN_3 in the keys file",
		"account 2 holds a trustline with 50 USD, an offer and a data entry (--sub-entries): PLAN_2, a bare merge, is blocked (op_has_sub_entries)",
		"the co-signers' page of account 1's plan (PLAN_1): ",
	} {
		if !strings.Contains(rest, want) {
			t.Errorf("load local's output lacks %q:\n%s", want, rest)
		}
	}
	keys := readKeys(t, fields["keys"])
	r := runCLI(t, nil, "", "status", "--relay", fields["relay"], keys["PLAN_2"])
	if r.code != ctl.ExitOK || !strings.Contains(r.stdout, "do not sign this close") || !strings.Contains(r.stdout, "op_has_sub_entries") || !strings.Contains(r.stdout, "preflight: blocked") {
		t.Errorf("status of PLAN_2: exit %d %q %q, want blocked by op_has_sub_entries", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, nil, "", "status", "--relay", fields["relay"], keys["PLAN_1"])
	if r.code != ctl.ExitOK || !strings.Contains(r.stdout, "preflight: landable") {
		t.Errorf("status of PLAN_1: exit %d %q %q, want landable", r.code, r.stdout, r.stderr)
	}
	tc.interrupt()
	if code := ll.exit(); code != ctl.ExitOK {
		t.Fatalf("load local: exit %d %s", code, ll.stderr.String())
	}
	for _, bad := range []string{"4", "0", "x"} {
		if r := runCLI(t, nil, "", "load", "local", "--dir", t.TempDir(), "--sub-entries", bad); r.code != ctl.ExitUsage {
			t.Errorf("--sub-entries %s: exit %d %q, want a usage error", bad, r.code, r.stderr)
		}
	}
}
