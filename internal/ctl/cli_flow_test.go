package ctl

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/internal/syncbuf"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// testCLI is a CLI for tests that need more than runCLI gives: their own
// streams, a transport, or a context they end themselves (what SIGINT does).
type testCLI struct {
	*CLI
	mu   sync.Mutex
	stop context.CancelFunc // ends the running command, as SIGINT would
}

func newTestCLI(env map[string]string, stdin io.Reader, stdout, stderr io.Writer) *testCLI {
	tc := &testCLI{}
	tc.CLI = &CLI{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: func(k string) string { return env[k] }}
	tc.Signals = func(ctx context.Context) (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancel(ctx)
		tc.mu.Lock()
		tc.stop = cancel
		tc.mu.Unlock()
		return ctx, cancel
	}
	return tc
}

// interrupt ends the running command as Ctrl-C would.
func (tc *testCLI) interrupt() {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if tc.stop != nil {
		tc.stop()
	}
}

// started is a command running in a goroutine, its standard output a pipe
// read line by line.
type started struct {
	t      *testing.T
	lines  *bufio.Scanner
	stderr *syncbuf.Buffer
	code   chan int
}

func start(t *testing.T, tc *testCLI, args ...string) *started {
	t.Helper()
	pr, pw := io.Pipe()
	s := &started{t: t, lines: bufio.NewScanner(pr), stderr: &syncbuf.Buffer{}, code: make(chan int, 1)}
	tc.Stdout, tc.Stderr = pw, s.stderr
	go func() {
		code := tc.Run(args)
		pw.Close()
		s.code <- code
	}()
	t.Cleanup(func() {
		tc.interrupt()
		go func() { _, _ = io.Copy(io.Discard, pr) }()
	})
	return s
}

func (s *started) next() string {
	s.t.Helper()
	if !s.lines.Scan() {
		s.t.Fatalf("the command's output ended; stderr %q", s.stderr.String())
	}
	return s.lines.Text()
}

// exit drains the output and returns the exit code.
func (s *started) exit() int {
	for s.lines.Scan() {
	}
	return <-s.code
}

// dialLog is an HTTP transport that records every address dialled and
// refuses all but loopback IP addresses: a host name (a public Horizon)
// fails before it is looked up.
type dialLog struct {
	mu    sync.Mutex
	addrs []string
}

func (d *dialLog) transport() http.RoundTripper {
	return &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		d.mu.Lock()
		d.addrs = append(d.addrs, addr)
		d.mu.Unlock()
		host, _, err := net.SplitHostPort(addr)
		if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
			return nil, fmt.Errorf("test transport: %s is not a loopback address", addr)
		}
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}}
}

func (d *dialLog) dialled() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Compact(slices.Sorted(slices.Values(d.addrs)))
}

func hostOf(t *testing.T, rawURL string) string {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

// TestBuildPublishPipe: build reads the account from the account API,
// prints the threshold check, signs, and its standard output is publish's
// standard input, through an OS-like pipe with both commands running.
func TestBuildPublishPipe(t *testing.T) {
	rel := startTestRelay(t)
	a := rel.acct
	dest := cliDest
	env := map[string]string{EnvURL: rel.url, EnvHorizon: rel.horizon.URL, EnvSecret: a.Keys[0].Seed()}

	pr, pw := io.Pipe()
	var buildErr, pubOut, pubErr syncbuf.Buffer
	built := make(chan int, 1)
	go func() {
		c := &CLI{Stdin: strings.NewReader(""), Stdout: pw, Stderr: &buildErr, Getenv: func(k string) string { return env[k] }}
		built <- c.Run([]string{"build", "--account", a.Address, "--destination", dest, "--sign"})
		pw.Close()
	}()
	pub := &CLI{Stdin: pr, Stdout: &pubOut, Stderr: &pubErr, Getenv: func(k string) string { return env[k] }}
	if code := pub.Run([]string{"publish", "-"}); code != ExitOK {
		t.Fatalf("publish: %d %q %q; build stderr %q", code, pubOut.String(), pubErr.String(), buildErr.String())
	}
	if code := <-built; code != ExitOK {
		t.Fatalf("build: %d %q", code, buildErr.String())
	}
	report := buildErr.String()
	for _, want := range []string{
		"close of " + a.Address + " on testnet into " + dest,
		"high threshold 3, signers:",
		a.Keys[0].Address() + " weight 1",
		a.Master.Address() + " weight 1 (master key)",
		"signed by " + a.Keys[0].Address() + ": weight 1/3, not enough alone",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("build report lacks %q:\n%s", want, report)
		}
	}
	if !strings.HasPrefix(pubOut.String(), "published plan ") {
		t.Fatalf("publish output %q", pubOut.String())
	}
	id := strings.Fields(pubOut.String())[2]
	r := runCLI(t, env, "", "get", "--json", id)
	if m := r.json(t); r.code != ExitOK || signatureCount(m["xdr"].(string)) != 1 {
		t.Fatalf("get after the pipe: %d %q", r.code, r.stdout)
	}

	// --json: one object, which publish reads as its input too.
	r = runCLI(t, env, "", "build", "--json", "--account", a.Address, "--destination", dest, "--sign", "--valid-for", "2h")
	m := r.json(t)
	if r.code != ExitOK || m["signed"] != true || m["checked"] != true || m["weight"] != float64(1) || m["needed"] != float64(3) ||
		m["met"] != false || m["signer"] != a.Keys[0].Address() || m["mergeInto"] != dest || len(m["signers"].([]any)) != 3 {
		t.Fatalf("build --json: %d %q %q", r.code, r.stdout, r.stderr)
	}
	// What the close does and the verdict go to standard error all the
	// same (issue 43 item 6: --json printed nothing there, so a person
	// piping it on never saw them).
	if !strings.Contains(r.stderr, "  1. close account "+a.Address) || !strings.Contains(r.stderr, "  preflight: landable\n") {
		t.Errorf("build --json's standard error: %q", r.stderr)
	}
	r = runCLI(t, env, r.stdout, "publish", "--json", "-")
	if r.code != ExitOK || len(r.json(t)["id"].(string)) != 64 {
		t.Fatalf("publish of build --json: %d %q", r.code, r.stdout)
	}

	// A signer that meets the high threshold alone is told so.
	solo := keypair.MustRandom()
	rel.horizon.SetAccount(solo.Address(), []horizon.Signer{{Key: solo.Address(), Weight: 5, Type: "ed25519_public_key"}},
		horizon.AccountThresholds{HighThreshold: 5})
	r = runCLI(t, map[string]string{EnvHorizon: rel.horizon.URL, EnvSecret: solo.Seed()}, "", "build", "--account", solo.Address(), "--destination", dest, "--sign")
	if r.code != ExitOK || !strings.Contains(r.stderr, "weight 5/5, the threshold is met by this signer alone") {
		t.Fatalf("solo build: %d %q", r.code, r.stderr)
	}

	// A secret that is no signer of the account is refused locally.
	r = runCLI(t, map[string]string{EnvHorizon: rel.horizon.URL, EnvSecret: keypair.MustRandom().Seed()}, "", "build", "--account", a.Address, "--destination", dest, "--sign")
	if r.code != ExitRefused || !strings.Contains(r.stderr, "is not a signer of "+a.Address) {
		t.Fatalf("stranger build: %d %q", r.code, r.stderr)
	}
	// An account the account API does not know: refused, not a transport failure.
	r = runCLI(t, map[string]string{EnvHorizon: rel.horizon.URL}, "", "build", "--json", "--account", keypair.MustRandom().Address(), "--destination", dest)
	if r.code != ExitRefused || r.json(t)["code"] != "REFUSED" {
		t.Fatalf("unknown account: %d %q", r.code, r.stdout)
	}

	// Offline: --sequence, no account API; unsigned, so the relay refuses it.
	// (Another destination: the same close again would be a re-publish of
	// the plan above, which merges.)
	r = runCLI(t, nil, "", "build", "--account", a.Address, "--destination", keypair.MustRandom().Address(), "--sequence", "4294967296")
	if r.code != ExitOK || !strings.Contains(r.stderr, "threshold not checked") {
		t.Fatalf("offline build: %d %q", r.code, r.stderr)
	}
	r = runCLI(t, env, r.stdout, "publish", "--json", "-")
	if r.code != ExitRefused || r.json(t)["code"] != "UNSIGNED" {
		t.Fatalf("publish unsigned build: %d %q", r.code, r.stdout)
	}

	for _, args := range [][]string{
		{"build", "--account", a.Address}, // no destination
		{"build", "--account", "G", "--destination", dest, "--horizon-url", "http://127.0.0.1:1"}, // refused before any request
		{"build", "--account", a.Address, "--destination", dest},                                  // no account API, no --sequence
		{"build", "--account", a.Address, "--destination", a.Address, "--sequence", "1"},          // into itself
		{"build", "--account", a.Address, "--destination", dest, "--sequence", "1", "--valid-for", "73h"},
		{"build", "--account", a.Address, "--destination", dest, "--sequence", "1", "--valid-for", "60s"},
		{"build", "--account", a.Address, "--destination", dest, "--sequence", "1", "--network", "pubnet"},
		{"build", "--account", a.Address, "--destination", dest, "--sequence", "1", "--mediator", dest}, // no token
	} {
		if r := runCLI(t, nil, "", args...); r.code != ExitUsage {
			t.Errorf("%v: code %d, want %d (stderr %q)", args, r.code, ExitUsage, r.stderr)
		}
	}
}

// TestBuildMediatorPlan: with --mediator and --token the first operation
// funds the mediator with 2 XLM and the merge goes to the mediator (built
// with --force: the account is multisig and the token commits no memo).
func TestBuildMediatorPlan(t *testing.T) {
	rel := startTestRelay(t)
	a := rel.acct
	exchange := keypair.MustRandom().Address()
	env := map[string]string{EnvURL: rel.url, EnvHorizon: rel.horizon.URL, EnvSecret: a.Keys[1].Seed()}
	r := runCLI(t, env, "", "mediator", "mint", "--json", exchange)
	m := r.json(t)
	token, mediatorKey := m["flowToken"].(string), m["mediatorPublicKey"].(string)

	r = runCLI(t, env, "", "build", "--force", "--account", a.Address, "--destination", exchange, "--mediator", mediatorKey, "--token", token, "--sign")
	if r.code != ExitOK || !strings.Contains(r.stderr, "mediator plan: op 1 creates the mediator "+mediatorKey+" with 2 XLM") {
		t.Fatalf("mediator build: %d %q", r.code, r.stderr)
	}
	gtx, err := txnbuild.TransactionFromXDR(strings.TrimSpace(r.stdout))
	if err != nil {
		t.Fatal(err)
	}
	tx, ok := gtx.Transaction()
	if !ok {
		t.Fatalf("build --mediator printed a fee-bump, want the plan's transaction")
	}
	ops := tx.Operations()
	create, ok := ops[0].(*txnbuild.CreateAccount)
	merge, ok2 := ops[len(ops)-1].(*txnbuild.AccountMerge)
	if !ok || !ok2 || create.Destination != mediatorKey || create.Amount != "2.0000000" || merge.Destination != mediatorKey {
		t.Fatalf("mediator plan operations: %#v", ops)
	}
	if r := runCLI(t, env, r.stdout, "publish", "-"); r.code != ExitOK {
		t.Fatalf("publish the mediator plan: %d %q", r.code, r.stderr)
	}
	// The token commits to the exchange: another destination is refused.
	r = runCLI(t, env, "", "build", "--account", a.Address, "--destination", keypair.MustRandom().Address(), "--mediator", mediatorKey, "--token", token)
	if r.code != ExitUsage || !strings.Contains(r.stderr, "the flow token commits to "+exchange) {
		t.Fatalf("mediator build to another destination: %d %q", r.code, r.stderr)
	}
}

// TestWatchReadsAccountAPIOnlyWhenGiven: watch prints the weight and
// threshold the relay reports and dials nothing but the relay (on testnet,
// whose public Horizon it used to default to), even with
// CLOSERELAY_HORIZON_URL set: the account API is read only for a relay that
// reports no weight (cli_ready_test.go).
func TestWatchReadsAccountAPIOnlyWhenGiven(t *testing.T) {
	rel := startTestRelay(t)
	a := rel.acct
	env := map[string]string{EnvURL: rel.url, EnvNetwork: "testnet", EnvSecret: a.Keys[0].Seed(), EnvHorizon: rel.horizon.URL}
	r := runCLI(t, env, "", "build", "--account", a.Address, "--destination", cliDest, "--sign") // a destination that exists: the close is landable
	r = runCLI(t, env, r.stdout, "publish", "--json", "-")
	id, _ := r.json(t)["id"].(string)
	if r.code != ExitOK {
		t.Fatalf("publish: %d %q", r.code, r.stdout)
	}

	noHorizon := map[string]string{EnvURL: rel.url, EnvNetwork: "testnet"}
	var dials dialLog
	tc := newTestCLI(noHorizon, strings.NewReader(""), nil, nil)
	tc.Transport = dials.transport()
	w := start(t, tc, "watch", id)
	if l := w.next(); l != "v1 weight 1/3 signers: "+ShortKey(a.Keys[0].Address())+" — landable" {
		t.Fatalf("watch line 1: %q", l)
	}
	if r := runCLI(t, map[string]string{EnvURL: rel.url}, a.Keys[1].Seed()+"\n", "sign", id); r.code != ExitOK {
		t.Fatalf("sign: %d %q", r.code, r.stderr)
	}
	if l := w.next(); !strings.HasPrefix(l, "v2 weight 2/3 signers: ") {
		t.Fatalf("watch line 2: %q", l)
	}
	tc.interrupt()
	if code := w.exit(); code != ExitOK {
		t.Fatalf("watch exit %d; stderr %q", code, w.stderr.String())
	}
	if strings.Contains(w.stderr.String(), "not weighed") {
		t.Errorf("watch says it is unweighed: %q", w.stderr.String())
	}
	if got := dials.dialled(); !slices.Equal(got, []string{hostOf(t, rel.url)}) {
		t.Fatalf("watch without an account API dialled %v, want only the relay %s", got, hostOf(t, rel.url))
	}

	// With the account API in the environment: still the relay's weight,
	// and only the relay is dialled; --until-complete needs no account API.
	if r := runCLI(t, map[string]string{EnvURL: rel.url, EnvSecret: a.Master.Seed()}, "", "sign", id); r.code != ExitOK {
		t.Fatalf("sign: %d %q", r.code, r.stderr)
	}
	for _, e := range []map[string]string{env, noHorizon} {
		var dials2 dialLog
		var out, errOut syncbuf.Buffer
		tc = newTestCLI(e, strings.NewReader(""), &out, &errOut)
		tc.Transport = dials2.transport()
		if code := tc.Run([]string{"watch", "--json", "--until-complete", id}); code != ExitOK {
			t.Fatalf("watch --until-complete: %d %q %q", code, out.String(), errOut.String())
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(out.String()), &m); err != nil || m["weighed"] != true || m["weighedBy"] != "relay" ||
			m["weight"] != float64(3) || m["threshold"] != float64(3) || m["ready"] != true || m["needed"] != float64(3) || m["met"] != true {
			t.Fatalf("watch --json: %q (%v)", out.String(), err)
		}
		if got := dials2.dialled(); !slices.Equal(got, []string{hostOf(t, rel.url)}) {
			t.Fatalf("watch dialled %v, want only the relay %s", got, hostOf(t, rel.url))
		}
	}
}

// commands is every command line's command, with whether it talks to a relay.
var commands = []struct {
	args  []string
	relay bool
}{
	{[]string{"build"}, false},
	{[]string{"publish"}, true},
	{[]string{"get"}, true},
	{[]string{"sign"}, true},
	{[]string{"watch"}, true},
	{[]string{"status"}, true},
	{[]string{"ready"}, true},
	{[]string{"mediator", "mint"}, true},
	{[]string{"mediator", "forward"}, true}, // with --submit
	{[]string{"mediator", "cosign"}, true},
	{[]string{"mediator", "resume"}, true},
}

var (
	flagLineRE = regexp.MustCompile(`(?m)^  (-+)([a-z-]+)`)
	singleDash = regexp.MustCompile(`(^|[\s(\[,])-[a-z][a-z-]*`)
)

// helpFlags runs `closerelayctl ARGS --help` and returns the flags it lists.
func helpFlags(t *testing.T, args []string) (flags []string, help string) {
	t.Helper()
	r := runCLI(t, nil, "", append(slices.Clone(args), "--help")...)
	if r.code != ExitOK || r.stderr != "" {
		t.Fatalf("%v --help: %d %q", args, r.code, r.stderr)
	}
	for _, m := range flagLineRE.FindAllStringSubmatch(r.stdout, -1) {
		if m[1] != "--" {
			t.Errorf("%v --help lists %s%s with %q", args, m[1], m[2], m[1])
		}
		flags = append(flags, m[2])
	}
	return flags, r.stdout
}

// TestFlagsConsistent walks every command's help: flags are shown with two
// dashes, every command takes --json, the relay URL is --relay wherever a
// relay is talked to (--url is hidden), and docs/command-line.md
// names every command and every flag.
func TestFlagsConsistent(t *testing.T) {
	page, err := os.ReadFile("../../docs/command-line.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(page)
	for _, cmd := range commands {
		flags, help := helpFlags(t, cmd.args)
		if m := singleDash.FindString(help); m != "" {
			t.Errorf("%v --help names a flag with one dash: %q", cmd.args, m)
		}
		if !slices.Contains(flags, "json") {
			t.Errorf("%v takes no --json", cmd.args)
		}
		if slices.Contains(flags, "url") {
			t.Errorf("%v --help lists --url (the relay flag is --relay)", cmd.args)
		}
		if slices.Contains(flags, "relay") != cmd.relay {
			t.Errorf("%v: --relay listed %v, but talks to a relay: %v", cmd.args, slices.Contains(flags, "relay"), cmd.relay)
		}
		if name := "closerelayctl " + strings.Join(cmd.args, " "); !strings.Contains(doc, name) {
			t.Errorf("docs/command-line.md does not document %q", name)
		}
		for _, f := range flags {
			if !strings.Contains(doc, "--"+f) {
				t.Errorf("docs/command-line.md does not mention %v's --%s", cmd.args, f)
			}
		}
	}
	for _, args := range [][]string{{"help"}, {"mediator", "help"}} {
		r := runCLI(t, nil, "", args...)
		if m := singleDash.FindString(r.stdout); m != "" || !strings.Contains(r.stdout, "--json") {
			t.Errorf("%v: one-dash flag %q, or no --json:\n%s", args, m, r.stdout)
		}
	}
	for _, v := range []string{EnvURL, EnvNetwork, EnvSecret, EnvHorizon} {
		if !strings.Contains(doc, v) {
			t.Errorf("docs/command-line.md does not document %s", v)
		}
	}
	// --url still works, as a deprecated alias that says so.
	r := runCLI(t, nil, "", "get", "--url", "http://127.0.0.1:1", strings.Repeat("a", 64))
	if r.code != ExitTransport || !strings.Contains(r.stderr, "--url is deprecated; use --relay") {
		t.Fatalf("--url alias: %d %q", r.code, r.stderr)
	}
}

// TestErrorsNameTheCommandOnce: an error line is "closerelayctl CMD: …",
// never followed by another program or package prefix.
func TestErrorsNameTheCommandOnce(t *testing.T) {
	rel := startTestRelay(t)
	a := rel.acct
	env := map[string]string{EnvURL: rel.url, EnvHorizon: rel.horizon.URL, EnvSecret: a.Keys[0].Seed()}
	r := runCLI(t, env, "", "build", "--account", a.Address, "--destination", cliDest, "--sign")
	r = runCLI(t, env, r.stdout, "publish", "--json", "-")
	id, _ := r.json(t)["id"].(string)
	token := "00112233445566778899aabbccddeeff.99999999999999." + keypair.MustRandom().Address() + "." + strings.Repeat("ab", 32)

	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{map[string]string{EnvURL: rel.url, EnvSecret: keypair.MustRandom().Seed()}, []string{"sign", id}, "closerelayctl sign: 400 Bad Request REJECTED: "},
		{map[string]string{EnvURL: rel.url}, []string{"get", strings.Repeat("0", 64)}, "closerelayctl get: 404 Not Found NOT_FOUND: "},
		{nil, []string{"get", "--relay", "nope", strings.Repeat("0", 64)}, `closerelayctl get: --relay: "nope" is not an http(s) base URL`},
		{nil, []string{"get", "--relay", "http://127.0.0.1:1", strings.Repeat("0", 64)}, "closerelayctl get: no relay answers at http://127.0.0.1:1 ("},
		{nil, []string{"mediator", "forward", "--mediator", "G", "--destination", "G", "--amount", "1", "--memo-id", "1", "--sequence", "1"}, "closerelayctl mediator forward: the mediator is not a G… public key"},
		{nil, []string{"build", "--account", a.Address, "--destination", keypair.MustRandom().Address(), "--sequence", "1", "--mediator", a.Address, "--token", token}, "closerelayctl build: the flow token commits to "},
		{nil, []string{"mediator", "cosign", "--token", "x", "AAAA"}, "closerelayctl mediator cosign: "},
	} {
		r := runCLI(t, tc.env, "", tc.args...)
		// The error line; sign first says what the close does, on lines
		// of their own.
		first, _, _ := strings.Cut(r.stderr, "\n")
		for line := range strings.SplitSeq(r.stderr, "\n") {
			if strings.HasPrefix(line, "closerelayctl ") {
				first = line
				break
			}
		}
		if !strings.HasPrefix(first, tc.want) {
			t.Errorf("%v: %q, want it to start %q", tc.args, first, tc.want)
		}
		rest := strings.TrimPrefix(first, "closerelayctl "+strings.Join(tc.args[:1], " "))
		for _, p := range []string{"closerelay", "client:", "wallet:"} {
			if strings.Contains(rest, p) {
				t.Errorf("%v: %q names %q after the command", tc.args, first, p)
			}
		}
	}
	wrapped := fmt.Errorf("publish: %w", &client.Error{Status: 400, Code: "UNSIGNED", Reason: "no signature"})
	if got := Message(fmt.Errorf("client: %w", wrapped)); got != "publish: 400 Bad Request UNSIGNED: no signature" {
		t.Errorf("message: %q", got)
	}
	if got := Message(errors.New("wallet: the envelope does not decode: wallet: x")); got != "the envelope does not decode: x" {
		t.Errorf("message: %q", got)
	}
}

// TestSecretFromAPipe: the secret comes from an OS pipe (not a terminal)
// as its first line, through build --sign.
func TestSecretFromAPipe(t *testing.T) {
	rel := startTestRelay(t)
	a := rel.acct
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	if _, err := pw.WriteString(a.Keys[1].Seed() + "\nnot read\n"); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	var out, errOut syncbuf.Buffer
	c := &CLI{Stdin: pr, Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return map[string]string{EnvHorizon: rel.horizon.URL}[k] }}
	if code := c.Run([]string{"build", "--json", "--account", a.Address, "--destination", cliDest, "--sign"}); code != ExitOK {
		t.Fatalf("build: %d %q %q", code, out.String(), errOut.String())
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out.String()), &m); err != nil || m["signer"] != a.Keys[1].Address() || m["weight"] != float64(1) {
		t.Fatalf("build --json: %q", out.String())
	}
	if strings.Contains(out.String()+errOut.String(), a.Keys[1].Seed()) || strings.Contains(errOut.String(), "secret seed (") {
		t.Fatalf("the secret was echoed, or a pipe was prompted: %q", errOut.String())
	}
}
