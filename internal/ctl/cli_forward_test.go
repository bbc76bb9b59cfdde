package ctl

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/wire"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The mediator forward the relay runs (CONTRACT section 16), driven end to
// end through the command line against a relay and the account-API double.

// TestMediatorCloseForwardedByTheRelay: a 2-of-3 account is closed through
// a mediator to an exchange account that requires a memo (SEP-29): mint
// --memo, build --mediator, publish --submit with the token, the second
// co-signer signs, and the relay submits the close and then the forward.
// The exchange is credited by a payment carrying the committed memo, and
// watch (text and --json, as wire's forwarded event) and status (text and
// --json, status.forward) tell the forward.
func TestMediatorCloseForwardedByTheRelay(t *testing.T) {
	rel := startTestRelay(t)
	a := ledgertest.NewAccount(2, 1)
	a.Thresholds.HighThreshold = 2 // any two of the three keys
	rel.horizon.AddAccount(a)
	exchange := keypair.MustRandom().Address()
	rel.horizon.Fund(exchange, 10_0000000)
	if !rel.horizon.SetMemoRequired(exchange) {
		t.Fatal("SetMemoRequired refused the exchange")
	}
	env := map[string]string{EnvURL: rel.url, EnvHorizon: rel.horizon.URL, EnvSecret: a.Keys[0].Seed()}
	token, mediatorKey := mintFlow(t, env, exchange, "--memo", "text:deposit 42")

	through := []string{"--mediator", mediatorKey, "--token", token}
	id := buildAndPublish(t, env, a.Address, exchange, through, []string{"--submit"})
	if r := runCLI(t, env, "", "status", id); r.code != ExitOK || strings.Contains(r.stdout, "forward:") {
		t.Fatalf("status before the close is ready: %d %q, want no forward line", r.code, r.stdout)
	}

	// watch --json follows the plan while the second co-signer signs.
	tc := newTestCLI(env, nil, nil, nil)
	w := start(t, tc, "watch", "--json", "--timeout", "60s", id)
	if line := w.next(); !strings.Contains(line, `"weight":1`) {
		t.Fatalf("watch's first state: %s", line)
	}
	signer := map[string]string{EnvURL: rel.url} // the key comes on standard input
	if r := runCLI(t, signer, a.Keys[1].Seed()+"\n", "sign", id); r.code != ExitOK || !strings.Contains(r.stdout, "2/2") {
		t.Fatalf("sign as the second co-signer: %d %q", r.code, r.stderr)
	}
	var events []string
	var fwd struct {
		Event string `json:"event"`
		wire.Forwarded
	}
	for fwd.Event != "forwarded" {
		line := w.next()
		var ev struct {
			Event string `json:"event"`
		}
		if json.Unmarshal([]byte(line), &ev) != nil {
			t.Fatalf("watch --json printed %q", line)
		}
		if ev.Event == "" {
			continue // a state
		}
		events = append(events, ev.Event)
		if ev.Event == "forward_failed" || ev.Event == "submit_failed" {
			t.Fatalf("watch: %s", line)
		}
		if err := json.Unmarshal([]byte(line), &fwd); err != nil {
			t.Fatal(err)
		}
	}
	if strings.Join(events, ",") != "submitted,forwarded" {
		t.Errorf("watch's events: %v, want submitted then forwarded", events)
	}

	// The ledger: the exchange is credited by the forward's payment with
	// the committed memo, then by the merge of the mediator's last unit.
	credits := rel.horizon.Credits(exchange)
	if len(credits) != 2 {
		t.Fatalf("the exchange's credits: %+v, want the forward's payment and merge", credits)
	}
	pay := credits[0]
	if pay.Merge || pay.From != mediatorKey || pay.Asset != "native" || pay.Memo.Type != xdr.MemoTypeMemoText || pay.Memo.MustText() != "deposit 42" {
		t.Errorf("the payment: %+v, want native from the mediator with memo text \"deposit 42\"", pay)
	}
	if fwd.ID != id || fwd.Hash != pay.Hash || fwd.Ledger != int64(pay.Ledger) || fwd.Amount != amount.StringFromInt64(pay.Amount) {
		t.Errorf("watch's forwarded event %+v, the ledger's payment %+v", fwd.Forwarded, pay)
	}
	if m := credits[1]; !m.Merge || m.From != mediatorKey || m.Hash != pay.Hash || m.Amount != 1_0000000 {
		t.Errorf("the merge: %+v, want the mediator's last unit in the forward", m)
	}
	tc.interrupt()
	if code := w.exit(); code != ExitOK {
		t.Errorf("watch exited %d", code)
	}

	r := runCLI(t, env, "", "status", id)
	want := "  forward: forwarded: transaction " + pay.Hash + " in ledger " + strconv.Itoa(int(pay.Ledger)) + " paid " + fwd.Amount + " XLM to the committed destination with the committed memo"
	if r.code != ExitOK || !strings.Contains(r.stdout, want) {
		t.Errorf("status: %d %q, want %q", r.code, r.stdout, want)
	}
	r = runCLI(t, env, "", "status", "--json", id)
	var st wire.Status
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || r.code != ExitOK || st.Forward == nil ||
		*st.Forward != (wire.Forward{State: "forwarded", Hash: pay.Hash, Ledger: int64(pay.Ledger), Amount: fwd.Amount}) {
		t.Errorf("status --json: %d %q (%v)", r.code, r.stdout, err)
	}

	// A watcher that comes later is told the outcome too, in words.
	late := start(t, newTestCLI(env, nil, nil, nil), "watch", "--timeout", "60s", id)
	for line := late.next(); !strings.HasPrefix(line, "forwarded by the relay:"); line = late.next() {
	}

	// A wallet that kept a recovery record and comes back after the token
	// expired is told, from the plan's status, that the relay forwarded.
	record := expiredRecord(t, mediatorKey, exchange)
	r = runCLI(t, map[string]string{EnvURL: rel.url}, "", "mediator", "resume", "--plan", id, record)
	want = "the flow token has expired, but the relay has forwarded the funds: transaction " + pay.Hash + " in ledger " + strconv.Itoa(int(pay.Ledger)) +
		" paid " + fwd.Amount + " XLM to " + exchange + " with memo text:deposit 42, and merged the mediator into it; nothing is left to do"
	if r.code != ExitOK || !strings.Contains(r.stdout, want) {
		t.Errorf("resume --plan of a forwarded plan: %d %q %q, want %q", r.code, r.stdout, r.stderr, want)
	}
	if _, err := os.Stat(record); !os.IsNotExist(err) {
		t.Errorf("the record of a forwarded flow is kept: %v", err)
	}
}

// buildAndPublish builds the close of account (signed by the secret env
// names) into dest with `build --json` and the extra build flags, pipes it
// into `publish --json` with the publish flags, and returns the plan id.
func buildAndPublish(t *testing.T, env map[string]string, account, dest string, build, publish []string) string {
	t.Helper()
	args := append([]string{"build", "--json", "--account", account, "--destination", dest, "--sign"}, build...)
	r := runCLI(t, env, "", args...)
	if r.code != ExitOK {
		t.Fatalf("build %v: %d %q", build, r.code, r.stderr)
	}
	r = runCLI(t, env, r.stdout, append(append([]string{"publish", "--json"}, publish...), "-")...)
	id, _ := r.json(t)["id"].(string)
	if r.code != ExitOK || id == "" {
		t.Fatalf("publish %v: %d %q %q", publish, r.code, r.stdout, r.stderr)
	}
	return id
}

// expiredRecord writes the recovery record of a forward from mediatorKey
// to dest with memo text "deposit 42" under a token that expired an hour
// ago, as a wallet that did not finish its forward in time holds it, and
// returns its path.
func expiredRecord(t *testing.T, mediatorKey, dest string) string {
	t.Helper()
	old, _ := expiredToken(t, dest, "text:deposit 42")
	flow, err := wallet.NewMediatorFlow(client.Flow{FlowToken: old, MediatorPublicKey: mediatorKey}, dest)
	if err != nil {
		t.Fatal(err)
	}
	fx, err := wallet.BuildForward(wallet.ForwardParams{Mediator: mediatorKey, Sequence: 1 << 32, Destination: dest, Amount: "1", Memo: txnbuild.MemoText("deposit 42")})
	if err != nil {
		t.Fatal(err)
	}
	x, _ := fx.Base64()
	rec, err := wallet.NewRecord("testnet", flow, x, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "forward.json")
	if err := rec.Save(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestResumeAfterExpiryReadsThePlan: once the token has expired, resume
// --plan says what the relay will do from the plan's status: a close
// through the mediator published with the token and --submit but not yet
// ready, and one published without --submit, each exit 1 with what
// becomes of the funds; a plan that is not a close through the record's
// mediator, or a malformed --plan, exit 2 without a word about funds.
func TestResumeAfterExpiryReadsThePlan(t *testing.T) {
	rel := startTestRelay(t)
	a := ledgertest.NewAccount(2, 1)
	a.Thresholds.HighThreshold = 2
	rel.horizon.AddAccount(a)
	exchange := keypair.MustRandom().Address()
	rel.horizon.Fund(exchange, 10_0000000)
	env := map[string]string{EnvURL: rel.url, EnvHorizon: rel.horizon.URL, EnvSecret: a.Keys[0].Seed()}
	token, mediatorKey := mintFlow(t, env, exchange, "--memo", "text:deposit 42")
	through := []string{"--mediator", mediatorKey, "--token", token}
	waiting := buildAndPublish(t, env, a.Address, exchange, through, []string{"--submit"})
	// The same mediator, on a close of another account published without
	// --submit; and a direct close, through no mediator.
	b := rel.acct
	envB := map[string]string{EnvURL: rel.url, EnvHorizon: rel.horizon.URL, EnvSecret: b.Keys[0].Seed()}
	unsubmitted := buildAndPublish(t, envB, b.Address, exchange, through, nil)
	direct := buildAndPublish(t, envB, b.Address, cliDest, nil, nil)

	for _, tt := range []struct {
		name, plan string
		code       int
		want       string
	}{
		{"not ready", waiting, ExitRefused, "the relay has not submitted the close yet (the relay submits the close once it is ready); once it has, it runs the forward if the close was published with the flow token"},
		{"without submit", unsubmitted, ExitRefused, "the plan was not published with --submit: the relay neither submits the close nor runs its forward; once someone else submits it, the funds wait in the mediator " + mediatorKey + ", and only the relay's operator"},
		{"another close", direct, ExitUsage, "plan " + direct + " is not a close through this record's mediator " + mediatorKey},
		{"malformed", "abc", ExitUsage, "--plan: PLAN_ID must be the 64 hex characters"},
	} {
		record := expiredRecord(t, mediatorKey, exchange)
		r := runCLI(t, map[string]string{EnvURL: rel.url}, "", "mediator", "resume", "--plan", tt.plan, record)
		if r.code != tt.code || !strings.Contains(r.stderr, "closerelayctl mediator resume: ") || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%s: exit %d %q, want %d with %q", tt.name, r.code, r.stderr, tt.code, tt.want)
		}
		if _, err := os.Stat(record); err != nil {
			t.Errorf("%s: the record is gone: %v", tt.name, err)
		}
	}
}

// TestForwardFailedThroughTheCommandLine: the relay's forward to an
// exchange account that is gone once the close has landed is refused by
// the ledger (op_no_destination) until the relay gives up: watch --json
// prints wire's forward_failed event, status prints the failure and where
// the funds are, and resume --plan says it with exit 1. (An exchange
// missing before the close is submitted blocks the close itself, CONTRACT
// section 18.)
func TestForwardFailedThroughTheCommandLine(t *testing.T) {
	rel := startTestRelay(t)
	a := ledgertest.NewAccount(0, 1) // its master alone closes it
	rel.horizon.AddAccount(a)
	exchange := keypair.MustRandom().Address()
	rel.horizon.Fund(exchange, 10_0000000)
	env := map[string]string{EnvURL: rel.url, EnvHorizon: rel.horizon.URL, EnvSecret: a.Master.Seed()}
	token, mediatorKey := mintFlow(t, env, exchange, "--memo", "text:deposit 42")
	r := runCLI(t, env, "", "build", "--json", "--account", a.Address, "--destination", exchange, "--sign", "--mediator", mediatorKey, "--token", token)
	if r.code != ExitOK {
		t.Fatalf("build: %d %q", r.code, r.stderr)
	}
	// The mediator cannot be read until the exchange is gone: the relay's
	// preflights are unchecked (never a blocker), and its forward waits.
	rel.horizon.SetUnreadable(mediatorKey, true)
	r = runCLI(t, env, r.stdout, "publish", "--json", "--submit", "-")
	id, _ := r.json(t)["id"].(string)
	if r.code != ExitOK || id == "" {
		t.Fatalf("publish: %d %q %q", r.code, r.stdout, r.stderr)
	}
	for range 1000 {
		if _, open := rel.horizon.Balance(a.Address); !open {
			break // the close has landed
		}
		time.Sleep(10 * time.Millisecond)
	}
	rel.horizon.Remove(exchange)
	rel.horizon.SetUnreadable(mediatorKey, false)
	// A watcher that comes after the outcome is told it too.
	tc := newTestCLI(env, nil, nil, nil)
	w := start(t, tc, "watch", "--json", "--timeout", "60s", id)
	var failed struct {
		Event string `json:"event"`
		wire.ForwardFailed
	}
	for failed.Event != "forward_failed" {
		line := w.next()
		if err := json.Unmarshal([]byte(line), &failed); err != nil {
			t.Fatalf("watch --json printed %q", line)
		}
		if failed.Event == "forwarded" || failed.Event == "submit_failed" {
			t.Fatalf("watch: %s", line)
		}
	}
	if failed.ID != id || failed.Code != "tx_failed" || failed.Reason == "" {
		t.Errorf("forward_failed: %+v", failed.ForwardFailed)
	}
	tc.interrupt()
	w.exit()
	if c := rel.horizon.Credits(exchange); len(c) != 0 {
		t.Errorf("the missing exchange was credited: %+v", c)
	}
	r = runCLI(t, env, "", "status", id)
	if want := "  forward: failed: tx_failed; the relay gave up after its retries and the funds wait in the mediator"; r.code != ExitOK || !strings.Contains(r.stdout, want) {
		t.Errorf("status: %d %q, want %q", r.code, r.stdout, want)
	}
	record := expiredRecord(t, mediatorKey, exchange)
	r = runCLI(t, map[string]string{EnvURL: rel.url}, "", "mediator", "resume", "--plan", id, record)
	if want := "the relay's forward failed (tx_failed) and it gave up after its retries: the funds wait in the mediator " + mediatorKey; r.code != ExitRefused || !strings.Contains(r.stderr, want) {
		t.Errorf("resume --plan: %d %q, want %q", r.code, r.stderr, want)
	}
}
