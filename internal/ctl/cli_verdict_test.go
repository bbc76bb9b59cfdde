package ctl

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/wire"
	"github.com/stellar/go-stellar-sdk/keypair"
)

// The command line honours the relay's verdict (CONTRACT 18, issue 38):
// sign and submit refuse a blocked close unless --force, publish exits 1
// on one, and watch --until-complete on a plan the relay submits ends on
// the submission's outcome.

// blockedPlan publishes (with --force) a bare merge of a new account that
// holds a trustline, so the relay's preflight finds it blocked with
// op_has_sub_entries; extra goes to publish.
func blockedPlan(t *testing.T, rel *testRelay, extra ...string) (ledgertest.Account, string) {
	t.Helper()
	a := ledgertest.NewAccount(2, 1)
	rel.horizon.AddAccount(a)
	issuer := keypair.MustRandom().Address()
	rel.horizon.Fund(issuer, 10_0000000)
	rel.horizon.AddTrustline(a.Address, ledgertest.Trustline{Asset: ledgertest.Credit("USD", issuer), Balance: 50_0000000})
	return a, publishBareMerge(t, rel, a.Master, a.Keys[0], extra...)
}

func statusOf(t *testing.T, rel *testRelay, id string) wire.Status {
	t.Helper()
	r := runCLI(t, map[string]string{EnvURL: rel.url}, "", "status", "--json", id)
	var st wire.Status
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil {
		t.Fatalf("status --json: %d %q", r.code, r.stdout)
	}
	return st
}

// TestSignRefusesABlockedClose: sign prints the verdict and the blockers
// and refuses (exit 1, nothing sent); --json says BLOCKED with the
// preflight; --force signs. It used to print "signed the close … weight
// 2/3" and exit 0.
func TestSignRefusesABlockedClose(t *testing.T) {
	rel := startTestRelay(t)
	a, id := blockedPlan(t, rel)
	env := map[string]string{EnvURL: rel.url}

	r := runCLI(t, env, a.Keys[1].Seed()+"\n", "sign", "--yes", id)
	if r.code != ExitRefused || r.stdout != "" ||
		!strings.Contains(r.stderr, "do not sign this close: the ledger would refuse it\n  operation 1: op_has_sub_entries: the account still holds 1 trustline: USD") ||
		!strings.Contains(r.stderr, "the relay's verdict: blocked (op_has_sub_entries)") ||
		!strings.Contains(r.stderr, "closerelayctl sign: not signed: the relay says the ledger would refuse this close (op_has_sub_entries); --force would sign it anyway\n") {
		t.Fatalf("sign of a blocked close: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if st := statusOf(t, rel, id); st.Weight != 1 || st.Version != 1 {
		t.Fatalf("after a refused sign the plan is at weight %d, version %d: a signature was sent", st.Weight, st.Version)
	}

	r = runCLI(t, env, a.Keys[1].Seed()+"\n", "sign", "--json", id)
	var out struct {
		Code      string          `json:"code"`
		Reason    string          `json:"reason"`
		Preflight *wire.Preflight `json:"preflight"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || r.code != ExitRefused || out.Code != "BLOCKED" ||
		out.Preflight == nil || out.Preflight.State != "blocked" || len(out.Preflight.Blockers) != 1 || out.Preflight.Blockers[0].Code != "op_has_sub_entries" {
		t.Fatalf("sign --json of a blocked close: %d %q", r.code, r.stdout)
	}

	r = runCLI(t, env, a.Keys[1].Seed()+"\n", "sign", "--force", id)
	if r.code != ExitOK || !strings.Contains(r.stderr, "--force: signing it all the same") || !strings.Contains(r.stdout, "weight 2/3") {
		t.Fatalf("sign --force of a blocked close: %d %q %q", r.code, r.stdout, r.stderr)
	}
}

// TestSignSaysTheVerdictBeforeSigning: a landable close's verdict is
// printed before it is signed.
func TestSignSaysTheVerdictBeforeSigning(t *testing.T) {
	rel := startTestRelay(t)
	id := publishSigned(t, rel)
	r := runCLI(t, map[string]string{EnvURL: rel.url}, rel.acct.Keys[1].Seed()+"\n", "sign", id)
	if r.code != ExitOK || !strings.Contains(r.stderr, "the relay's verdict: landable: the close would land as it is (checked ") {
		t.Fatalf("sign of a landable close: %d %q %q", r.code, r.stdout, r.stderr)
	}
}

// TestSubmitRefusesABlockedClose: submit refuses a blocked close before
// posting it (the account's sequence number is untouched), and with
// --force posts it, for the ledger to refuse (its fee and sequence spent).
// It used to post it: tx_failed, op_has_sub_entries.
func TestSubmitRefusesABlockedClose(t *testing.T) {
	rel := startTestRelay(t)
	a, id := blockedPlan(t, rel)
	env := map[string]string{EnvURL: rel.url, EnvHorizon: rel.horizon.URL}
	for _, kp := range []*keypair.Full{a.Keys[1], a.Master} {
		if r := runCLI(t, env, kp.Seed()+"\n", "sign", "--force", id); r.code != ExitOK {
			t.Fatalf("sign --force: %d %q", r.code, r.stderr)
		}
	}
	seq, _ := rel.horizon.Sequence(a.Address)

	r := runCLI(t, env, "", "submit", id)
	if r.code != ExitRefused || r.stdout != "" || !strings.Contains(r.stderr, "op_has_sub_entries") ||
		!strings.Contains(r.stderr, "do not submit this close: the ledger would refuse it\n") ||
		!strings.Contains(r.stderr, "closerelayctl submit: not submitted: the relay says the ledger would refuse this close (op_has_sub_entries); --force would submit it anyway\n") {
		t.Fatalf("submit of a blocked close: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if n := rel.horizon.Submissions(); n != 0 {
		t.Fatalf("the double saw %d submissions of a close submit refused", n)
	}
	r = runCLI(t, env, "", "submit", "--json", id)
	if m := r.json(t); r.code != ExitRefused || m["code"] != "BLOCKED" || m["preflight"] == nil {
		t.Fatalf("submit --json of a blocked close: %d %q", r.code, r.stdout)
	}

	r = runCLI(t, env, "", "submit", "--force", "--json", id)
	if m := r.json(t); r.code != ExitRefused || m["code"] != "tx_failed" {
		t.Fatalf("submit --force of a blocked close: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if now, _ := rel.horizon.Sequence(a.Address); now != seq+1 {
		t.Errorf("after submit --force the sequence is %d, want %d (the ledger took it)", now, seq+1)
	}
}

// TestSubmitRefusesARelaySubmittedClose: the relay's own submission
// found blocked is honoured too, and a close the relay already submitted
// is not posted again.
func TestSubmitRefusesARelaySubmittedClose(t *testing.T) {
	rel := startTestRelay(t)
	a := rel.acct
	env := map[string]string{EnvURL: rel.url, EnvHorizon: rel.horizon.URL}
	x, _ := ledgertest.BuildClose(a.Master, cliDest, 1<<32+1, time.Now().Add(72*time.Hour).Unix(), "Test SDF Network ; September 2015", a.Keys[0])
	r := runCLI(t, env, x, "publish", "--submit", "--json", "-")
	id, _ := r.json(t)["id"].(string)
	for _, kp := range []*keypair.Full{a.Keys[1], a.Master} {
		if r := runCLI(t, env, kp.Seed()+"\n", "sign", id); r.code != ExitOK {
			t.Fatalf("sign: %d %q", r.code, r.stderr)
		}
	}
	waitSubmission(t, rel, id, "submitted")
	r = runCLI(t, env, "", "submit", id)
	if r.code != ExitRefused || !strings.Contains(r.stderr, "closerelayctl submit: not submitted: the relay submitted this close already, transaction "+id) {
		t.Fatalf("submit of a close the relay submitted: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if n := rel.horizon.Submissions(); n != 1 {
		t.Errorf("the double saw %d submissions, want the relay's one", n)
	}
	r = runCLI(t, env, "", "status", id)
	if !strings.HasPrefix(r.stdout, "landed: the relay submitted the close, transaction "+id+" in ledger ") ||
		strings.Index(r.stdout, "  submission: submitted") > strings.Index(r.stdout, "  version ") ||
		!strings.Contains(r.stdout, "  version 3, weight 3/3: threshold met\n") || strings.Contains(r.stdout, "will land") ||
		!strings.Contains(r.stdout, "  preflight, before it landed: landable") {
		t.Errorf("status of a submitted close does not lead with its outcome:\n%s", r.stdout)
	}
}

// waitSubmission waits until the plan's submission is in state.
func waitSubmission(t *testing.T, rel *testRelay, id, state string) wire.Status {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := statusOf(t, rel, id)
		if st.Submission != nil && st.Submission.State == state {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("submission %+v, want %s", st.Submission, state)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPublishSaysTheVerdict: publish prints the relay's verdict; a blocked
// close stays published and exits 1 (--force: 0).
func TestPublishSaysTheVerdict(t *testing.T) {
	rel := startTestRelay(t)
	a := ledgertest.NewAccount(2, 1)
	rel.horizon.AddAccount(a)
	rel.horizon.SetData(a.Address, "note", []byte("x"), "")
	x, _ := ledgertest.BuildClose(a.Master, cliDest, 1<<32+1, time.Now().Add(72*time.Hour).Unix(), "Test SDF Network ; September 2015", a.Keys[0])
	env := map[string]string{EnvURL: rel.url}
	r := runCLI(t, env, x, "publish", "-")
	if r.code != ExitRefused || !strings.HasPrefix(r.stdout, "published plan ") ||
		!strings.Contains(r.stderr, "do not sign this close: the ledger would refuse it\n  operation 1: op_has_sub_entries: ") ||
		!strings.Contains(r.stderr, "closerelayctl publish: published, but the relay says the ledger would refuse this close (op_has_sub_entries)") {
		t.Fatalf("publish of a blocked close: %d %q %q", r.code, r.stdout, r.stderr)
	}
	id := strings.Fields(r.stdout)[2]
	if st := statusOf(t, rel, id); !st.OK {
		t.Fatalf("the blocked close is not published: %+v", st)
	}
	if r := runCLI(t, env, x, "publish", "--force", "-"); r.code != ExitOK {
		t.Fatalf("publish --force of a blocked close: %d %q %q", r.code, r.stdout, r.stderr)
	}
	good := publishSigned(t, rel)
	r = runCLI(t, env, "", "status", good) // the verdict of a landable close, for comparison
	if !strings.Contains(r.stdout, "landable") {
		t.Fatalf("status: %q", r.stdout)
	}
}

// runCLIAsync runs a command line in the background; the result arrives on
// the channel.
func runCLIAsync(t *testing.T, env map[string]string, args ...string) <-chan result {
	t.Helper()
	ch := make(chan result, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ch <- runCLI(t, env, "", args...)
	}()
	t.Cleanup(wg.Wait)
	return ch
}

// TestWatchUntilCompleteEndsOnTheSubmission: on a plan the relay submits,
// watch --until-complete ends on the submission (exit 0 on submitted),
// not on readiness (it used to end on "ready to submit" before submitted
// came); on a blocked close it ends on the relay's refusal to post it, exit
// 1, also when it starts after the fact.
func TestWatchUntilCompleteEndsOnTheSubmission(t *testing.T) {
	rel := startTestRelay(t)
	a := rel.acct
	env := map[string]string{EnvURL: rel.url}
	x, _ := ledgertest.BuildClose(a.Master, cliDest, 1<<32+1, time.Now().Add(72*time.Hour).Unix(), "Test SDF Network ; September 2015", a.Keys[0])
	r := runCLI(t, env, x, "publish", "--submit", "--json", "-")
	id, _ := r.json(t)["id"].(string)
	watch := runCLIAsync(t, env, "watch", "--until-complete", "--timeout", "20s", id)
	// Whether its stream opens before the signatures or after the
	// submission, the watch is told the outcome (a later stream gets it
	// right after the state).
	for _, kp := range []*keypair.Full{a.Keys[1], a.Master} {
		if r := runCLI(t, env, kp.Seed()+"\n", "sign", id); r.code != ExitOK {
			t.Fatalf("sign: %d %q", r.code, r.stderr)
		}
	}
	w := <-watch
	lines := strings.Split(strings.TrimSpace(w.stdout), "\n")
	if w.code != ExitOK || !strings.HasPrefix(lines[len(lines)-1], "submitted by the relay: transaction "+id+" in ledger ") {
		t.Fatalf("watch --until-complete of a submitted plan: %d %q %q", w.code, w.stdout, w.stderr)
	}
	if strings.Contains(w.stdout, "ready to submit") {
		t.Errorf("watch said \"ready to submit\" of a plan the relay submits:\n%s", w.stdout)
	}

	b, bid := blockedPlan(t, rel, "--submit")
	for _, kp := range []*keypair.Full{b.Keys[1], b.Master} {
		if r := runCLI(t, env, kp.Seed()+"\n", "sign", "--force", bid); r.code != ExitOK {
			t.Fatalf("sign --force: %d %q", r.code, r.stderr)
		}
	}
	waitSubmission(t, rel, bid, "blocked")
	w = runCLI(t, env, "", "watch", "--until-complete", "--timeout", "20s", bid)
	if w.code != ExitRefused || !strings.Contains(w.stdout, "not submitted: the ledger would refuse this close (op_has_sub_entries: ") ||
		!strings.Contains(w.stderr, "closerelayctl watch: the relay's submission ended op_has_sub_entries") {
		t.Fatalf("watch --until-complete of a blocked plan: %d %q %q", w.code, w.stdout, w.stderr)
	}
}

// TestPublishSaysWhenLittleTimeIsLeft: a close whose plan ends within a few
// minutes is published with a word about it (issue 43 item 11: 15 s of
// signing window left, and not a word); one of 72 hours says nothing.
func TestPublishSaysWhenLittleTimeIsLeft(t *testing.T) {
	rel := startTestRelay(t)
	a := rel.acct
	env := map[string]string{EnvURL: rel.url}
	x, _ := ledgertest.BuildClose(a.Master, cliDest, 1<<32+1, time.Now().Add(3*time.Minute).Unix(), "Test SDF Network ; September 2015", a.Keys[0])
	r := runCLI(t, env, x, "publish", "-")
	if r.code != ExitOK || !strings.Contains(r.stderr, "little time for co-signers to sign; build the close again with a longer --valid-for") {
		t.Fatalf("publish of a close with 2 minutes left: %d %q %q", r.code, r.stdout, r.stderr)
	}
	x, _ = ledgertest.BuildClose(a.Master, cliDest, 1<<32+1, time.Now().Add(72*time.Hour).Unix(), "Test SDF Network ; September 2015", a.Keys[0])
	if r := runCLI(t, env, x, "publish", "-"); r.code != ExitOK || strings.Contains(r.stderr, "little time") {
		t.Fatalf("publish of a 72-hour close: %d %q", r.code, r.stderr)
	}
}
