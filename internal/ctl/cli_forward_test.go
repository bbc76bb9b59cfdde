package ctl

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/wire"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/keypair"
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

	r := runCLI(t, env, "", "build", "--json", "--account", a.Address, "--destination", exchange, "--mediator", mediatorKey, "--token", token, "--sign")
	if r.code != ExitOK {
		t.Fatalf("build: %d %q", r.code, r.stderr)
	}
	r = runCLI(t, env, r.stdout, "publish", "--json", "--submit", "-")
	id, _ := r.json(t)["id"].(string)
	if r.code != ExitOK || id == "" {
		t.Fatalf("publish --submit: %d %q %q", r.code, r.stdout, r.stderr)
	}
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
	if fwd.ID != id || fwd.Hash != pay.Hash || fwd.Ledger != int(pay.Ledger) || fwd.Amount != amount.StringFromInt64(pay.Amount) {
		t.Errorf("watch's forwarded event %+v, the ledger's payment %+v", fwd.Forwarded, pay)
	}
	if m := credits[1]; !m.Merge || m.From != mediatorKey || m.Hash != pay.Hash || m.Amount != 1_0000000 {
		t.Errorf("the merge: %+v, want the mediator's last unit in the forward", m)
	}
	tc.interrupt()
	if code := w.exit(); code != ExitOK {
		t.Errorf("watch exited %d", code)
	}

	r = runCLI(t, env, "", "status", id)
	want := "  forward: forwarded: transaction " + pay.Hash + " in ledger " + strconv.Itoa(int(pay.Ledger)) + " paid " + fwd.Amount + " XLM to the committed destination with the committed memo"
	if r.code != ExitOK || !strings.Contains(r.stdout, want) {
		t.Errorf("status: %d %q, want %q", r.code, r.stdout, want)
	}
	r = runCLI(t, env, "", "status", "--json", id)
	var st wire.Status
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || r.code != ExitOK || st.Forward == nil ||
		*st.Forward != (wire.Forward{State: "forwarded", Hash: pay.Hash, Ledger: int(pay.Ledger), Amount: fwd.Amount}) {
		t.Errorf("status --json: %d %q (%v)", r.code, r.stdout, err)
	}

	// A watcher that comes later is told the outcome too, in words.
	late := start(t, newTestCLI(env, nil, nil, nil), "watch", "--timeout", "60s", id)
	for line := late.next(); !strings.HasPrefix(line, "forwarded by the relay:"); line = late.next() {
	}
}
