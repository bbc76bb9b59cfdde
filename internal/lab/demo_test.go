package lab

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/internal/ctl"
	"github.com/closerelay/closerelay/internal/syncbuf"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// TestDemoForwardsToTheExchange: the demo's mediator close (issue 24 item
// 5) ends with the memo-required exchange credited, as the account-API
// double itself records it: a payment from the mediator carrying the
// committed memo, of the amount the relay reported, then the merge of the
// mediator's last unit in the same transaction, and the mediator gone. Its
// narration tells the steps in order.
func TestDemoForwardsToTheExchange(t *testing.T) {
	var out syncbuf.Buffer
	var got demoOutcome
	if err := runDemo(context.Background(), &out, demoOptions{timeout: 60 * time.Second, outcome: &got}); err != nil {
		t.Fatalf("demo: %v\n%s", err, out.String())
	}
	if got.Double == nil || got.Exchange == "" || got.Mediator == "" {
		t.Fatalf("the demo reported no mediator close: %+v", got)
	}
	if acc, ok := got.Double.AccountState(got.Exchange); !ok || acc.Data["config.memo_required"] != base64.StdEncoding.EncodeToString([]byte("1")) {
		t.Errorf("the exchange's data %v: the demo's exchange does not require a memo (SEP-29)", acc.Data)
	}
	credits := got.Double.Credits(got.Exchange)
	if len(credits) != 2 {
		t.Fatalf("the exchange's credits: %+v, want the forward's payment and merge", credits)
	}
	pay, merge := credits[0], credits[1]
	if pay.Merge || pay.From != got.Mediator || pay.Asset != "native" || pay.Memo.Type != xdr.MemoTypeMemoText || pay.Memo.MustText() != "deposit 42" {
		t.Errorf("the payment: %+v, want native from the mediator with memo text \"deposit 42\"", pay)
	}
	if pay.Hash != got.Forward.Hash || amount.StringFromInt64(pay.Amount) != got.Forward.Amount || got.Forward.State != "forwarded" {
		t.Errorf("the ledger's payment %+v is not the forward the relay reported %+v", pay, got.Forward)
	}
	if pay.Amount < 9000_0000000 {
		t.Errorf("the payment carries %d stroops: not the closed account's balance", pay.Amount)
	}
	if !merge.Merge || merge.From != got.Mediator || merge.Hash != pay.Hash || merge.Amount != 1_0000000 {
		t.Errorf("the merge: %+v, want the mediator's last unit in the forward", merge)
	}
	if _, ok := got.Double.Balance(got.Mediator); ok {
		t.Error("the mediator account still exists")
	}
	steps := []string{
		"requires a memo on deposits (SEP-29",
		"any two close it (high threshold 2)",
		"mints a mediator flow committed to the exchange and to memo text:deposit 42",
		"publishes it signed by D alone, with the flow token and submit",
		"signer E fetches the plan, signs it locally and sends only its signature: weight 2/2, threshold met",
		"the relay submits the close (event: submitted)",
		"the relay builds, signs and submits the mediator's forward itself (event: forwarded)",
		"the exchange is credited: a payment of " + got.Forward.Amount + " XLM with memo text:deposit 42",
		"demo complete: OK",
	}
	wantInOrder(t, out.String(), steps)
	// Each plan's whole id and its page, never a prefix: /plan/<prefix> is
	// a 404.
	for _, p := range []demoPlan{got.Blocked, got.Closed, got.Mediated} {
		if !planID.MatchString(p.ID) || !strings.Contains(out.String(), "plan id "+p.ID) || !strings.Contains(out.String(), "/plan/"+p.ID) {
			t.Errorf("the demo's output does not give plan %q in full, with its page:\n%s", p.ID, out.String())
		}
	}
	if strings.Contains(out.String(), "plan "+got.Blocked.ID[:16]+"…") {
		t.Error("the demo's output cuts the blocked plan's id short")
	}
}

// planID is a plan id as the relay answers it.
var planID = regexp.MustCompile(`^[0-9a-f]{64}$`)

// TestDemoJSON: `closerelaylab demo --json` prints one object that says
// what the demo did (issue 43 item 7), not only {"ok":true}: each plan's
// whole id and page, the blocked one's blockers, the landed close's
// transaction and ledger, and the mediated close's forward with its memo.
func TestDemoJSON(t *testing.T) {
	r := runCLI(t, nil, "", "demo", "--json")
	if r.code != ctl.ExitOK {
		t.Fatalf("demo --json: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var got demoOutcome
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil || dec.More() {
		t.Fatalf("demo --json printed %q: %v, want one object", r.stdout, err)
	}
	if !got.OK || got.LedgerAPI != "horizon" {
		t.Errorf("ok %v ledgerApi %q", got.OK, got.LedgerAPI)
	}
	for name, p := range map[string]demoPlan{"blocked": got.Blocked, "closed": got.Closed, "mediated": got.Mediated} {
		if !planID.MatchString(p.ID) || !strings.HasSuffix(p.Page, "/plan/"+p.ID) || p.Account == "" || p.Destination == "" {
			t.Errorf("%s: %+v, want the whole id, its page, the account and the destination", name, p)
		}
	}
	if b := got.Blocked; b.Preflight != "blocked" || len(b.Blockers) == 0 || b.Blockers[0].Code != "op_has_sub_entries" || b.Blockers[0].Reason == "" || b.Hash != "" {
		t.Errorf("blocked: %+v, want op_has_sub_entries with its reason, never submitted", b)
	}
	if c := got.Closed; c.Preflight != "landable" || c.Hash != c.ID || c.Ledger <= 0 || c.Account != got.Blocked.Account {
		t.Errorf("closed: %+v, want the blocked account's close, landable, submitted as its id", c)
	}
	if m := got.Mediated; m.Hash != m.ID || m.Ledger <= 0 || m.Destination != got.Mediator {
		t.Errorf("mediated: %+v, want the close into the mediator %s, submitted", m, got.Mediator)
	}
	if f := got.Forward; f.State != "forwarded" || f.Hash == "" || f.Ledger <= 0 || f.Amount == "" || got.Memo != demoMemo || got.Exchange == "" {
		t.Errorf("forward %+v memo %q exchange %q", f, got.Memo, got.Exchange)
	}
}

// wantInOrder fails t unless the demo's output holds every step, in order.
func wantInOrder(t *testing.T, out string, steps []string) {
	t.Helper()
	rest := out
	for _, want := range steps {
		i := strings.Index(rest, want)
		if i < 0 {
			t.Fatalf("demo output lacks %q after the steps before it:\n%s", want, out)
		}
		rest = rest[i+len(want):]
	}
}
