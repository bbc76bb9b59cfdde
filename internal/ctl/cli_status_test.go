package ctl

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/wire"
	"github.com/stellar/go-stellar-sdk/keypair"
)

// publishBareMerge publishes, through the CLI with --force, a bare merge of
// account (whose first extra signer is signer) into cliDest, signed by
// signer.
func publishBareMerge(t *testing.T, rel *testRelay, master, signer *keypair.Full, extra ...string) string {
	t.Helper()
	x, _ := ledgertest.BuildClose(master, cliDest, 1<<32+1, time.Now().Add(72*time.Hour).Unix(), "Test SDF Network ; September 2015", signer)
	// --force: these closes are blocked, and publish would exit 1.
	r := runCLI(t, map[string]string{EnvURL: rel.url}, x, append([]string{"publish", "--json", "--force", "-"}, extra...)...)
	id, _ := r.json(t)["id"].(string)
	if r.code != ExitOK || id == "" {
		t.Fatalf("publish: %d %q %q", r.code, r.stdout, r.stderr)
	}
	return id
}

// TestStatusLandable: status prints the version, the weight against the
// threshold, the signers, the expiry, the submission and a landable
// preflight; --json prints the relay's answer as it is.
func TestStatusLandable(t *testing.T) {
	rel := startTestRelay(t)
	id := publishSigned(t, rel)
	env := map[string]string{EnvURL: rel.url}
	r := runCLI(t, env, "", "status", strings.ToUpper(id))
	if r.code != ExitOK || r.stderr != "" {
		t.Fatalf("status: %d %q %q", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"plan " + id + " on testnet\n", "  version 1, weight 1/3: 2 more needed\n", "  signers: " + ShortKey(rel.acct.Keys[0].Address()) + "\n",
		"  expires 20", "  submission: none (not published with --submit)\n", "  preflight: landable: the close would land as it is (checked 20",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("status lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "do not sign") {
		t.Errorf("a landable close is said not to be signed:\n%s", r.stdout)
	}

	r = runCLI(t, env, "", "status", "--json", id)
	var st wire.Status
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || r.code != ExitOK || !st.OK || st.ID != id || st.Version != 1 ||
		st.Weight != 1 || st.Threshold != 3 || st.Ready || st.Expiry == "" || st.Submission != nil ||
		st.Preflight == nil || st.Preflight.State != "landable" || len(st.Preflight.Blockers) != 0 || st.Preflight.Checked == "" {
		t.Fatalf("status --json: %d %q", r.code, r.stdout)
	}
	var raw map[string]any
	_ = json.Unmarshal([]byte(r.stdout), &raw)
	if pf, ok := raw["preflight"].(map[string]any); !ok || pf["blockers"] == nil {
		t.Errorf("status --json: preflight.blockers is not the relay's [] : %q", r.stdout)
	}
}

// TestStatusSaysWhenTheFeeIsLow: status prints the preflight's word on
// the fee bid: the network's fee beside it, and once the double's floor
// has risen above the bid of a close built before (the network's p70 then
// above it too), that it is low and the bump command; unknown statistics
// are said as unknown. The verdict is unchanged by it.
func TestStatusSaysWhenTheFeeIsLow(t *testing.T) {
	rel := startTestRelay(t)
	env := map[string]string{EnvURL: rel.url, EnvNetwork: "testnet", EnvSecret: rel.acct.Keys[0].Seed(), EnvHorizon: rel.horizon.URL}
	// Three closes of the account, built now at 100 stroops an operation
	// (told apart by their windows), published one by one.
	var built []string
	for _, window := range []string{"72h", "71h", "70h"} {
		r := runCLI(t, env, "", "build", "--account", rel.acct.Address, "--destination", cliDest, "--sign", "--valid-for", window)
		if r.code != ExitOK {
			t.Fatalf("build: %d %s", r.code, r.stderr)
		}
		built = append(built, r.stdout)
	}
	publish := func(x string) string {
		t.Helper()
		r := runCLI(t, env, x, "publish", "--json", "-")
		id, _ := r.json(t)["id"].(string)
		if r.code != ExitOK || id == "" {
			t.Fatalf("publish: %d %q %q", r.code, r.stdout, r.stderr)
		}
		return id
	}
	id := publish(built[0])
	r := runCLI(t, env, "", "status", id)
	if !strings.Contains(r.stdout, "  fee: 100 stroops per operation (the network charges 100 now)\n") || strings.Contains(r.stdout, "bump") {
		t.Errorf("status at the network's fee:\n%s", r.stdout)
	}
	rel.horizon.Handler().SetBaseFee(400)
	id = publish(built[1])
	r = runCLI(t, env, "", "status", id)
	if want := "  fee: 100 stroops per operation, below the 400 the network charges now: the close may wait, or be refused if fees rise; " +
		"any account can pay a fee-bump around it, its signatures kept: closerelayctl bump " + id + " --fee-source G…\n"; !strings.Contains(r.stdout, want) {
		t.Errorf("status under a raised floor lacks %q:\n%s", want, r.stdout)
	}
	if !strings.Contains(r.stdout, "  preflight: landable") {
		t.Errorf("a low fee changed the verdict:\n%s", r.stdout)
	}
	rel.horizon.Handler().FailFeeStats(true)
	id = publish(built[2])
	if r = runCLI(t, env, "", "status", id); !strings.Contains(r.stdout, "  fee: 100 stroops per operation (the network's fee statistics are unknown)\n") {
		t.Errorf("status with unknown statistics:\n%s", r.stdout)
	}
}

// TestStatusBlocked: a bare merge of an account that holds a trustline, an
// offer and a data entry: status says first not to sign it, with each
// blocker's code and reason, and once the threshold is met with --submit
// the submission is blocked, never posted.
func TestStatusBlocked(t *testing.T) {
	rel := startTestRelay(t)
	a := ledgertest.NewAccount(2, 1)
	rel.horizon.AddAccount(a)
	issuer := keypair.MustRandom().Address()
	rel.horizon.Fund(issuer, 10_0000000)
	usd := ledgertest.Credit("USD", issuer)
	rel.horizon.AddTrustline(a.Address, ledgertest.Trustline{Asset: usd, Balance: 50_0000000})
	rel.horizon.SetData(a.Address, "note", []byte("x"), "")
	id := publishBareMerge(t, rel, a.Master, a.Keys[0], "--submit")
	env := map[string]string{EnvURL: rel.url}

	r := runCLI(t, env, "", "status", id)
	if r.code != ExitOK || !strings.HasPrefix(r.stdout, "do not sign this close: the ledger would refuse it\n  operation 1: op_has_sub_entries: the account still holds ") ||
		!strings.Contains(r.stdout, "USD") || !strings.Contains(r.stdout, "note") ||
		!strings.Contains(r.stdout, "  preflight: blocked (op_has_sub_entries): the ledger would refuse the close; do not sign it (checked ") ||
		!strings.Contains(r.stdout, "  submission: the relay submits the close once it is ready\n") {
		t.Fatalf("status of a blocked close: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, env, "", "status", "--json", id)
	var st wire.Status
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || st.Preflight == nil || st.Preflight.State != "blocked" ||
		len(st.Preflight.Blockers) != 1 || st.Preflight.Blockers[0].Op != 0 || st.Preflight.Blockers[0].Code != "op_has_sub_entries" {
		t.Fatalf("status --json of a blocked close: %q", r.stdout)
	}

	for _, kp := range []*keypair.Full{a.Keys[1], a.Master} {
		if r := runCLI(t, env, kp.Seed()+"\n", "sign", "--force", id); r.code != ExitOK {
			t.Fatalf("sign: %d %q", r.code, r.stderr)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		r = runCLI(t, env, "", "status", id)
		if strings.Contains(r.stdout, "  submission: blocked: op_has_sub_entries; the relay did not post a close the ledger would refuse\n") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("status after the threshold: %d %q", r.code, r.stdout)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The outcome leads, and a blocked close is never "ready to submit"
	// (CONTRACT 18; status used to say "threshold met (closerelayctl ready
	// … prints the envelope to submit)" here).
	if !strings.HasPrefix(r.stdout, "not submitted: the ledger would refuse this close (op_has_sub_entries), so the relay did not post it") ||
		!strings.Contains(r.stdout, "  version 3, weight 3/3: threshold met, but the ledger would refuse this close: do not submit it\n") ||
		strings.Contains(r.stdout, "prints the envelope to submit") {
		t.Errorf("status after the threshold:\n%s", r.stdout)
	}
	if _, ok := rel.horizon.AccountState(a.Address); !ok {
		t.Error("the account is gone: a blocked close was posted")
	}
}

// TestStatusChecksThePlanIDLocally: a truncated plan id is refused (exit 2)
// before any request: the relay here cannot be reached, which would be
// exit 3.
func TestStatusChecksThePlanIDLocally(t *testing.T) {
	env := map[string]string{EnvURL: "http://127.0.0.1:1"}
	id := strings.Repeat("ab", 31)
	r := runCLI(t, env, "", "status", id)
	if r.code != ExitUsage || r.stdout != "" || !strings.Contains(r.stderr, "closerelayctl status: PLAN_ID must be the 64 hex characters") ||
		!strings.Contains(r.stderr, "62 character(s)") || strings.Contains(r.stderr, id) {
		t.Fatalf("status with a truncated id: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, env, "", "status", "--json", strings.Repeat("g", 64))
	if m := r.json(t); r.code != ExitUsage || m["code"] != "USAGE" {
		t.Fatalf("status --json with a bad id: %d %q", r.code, r.stdout)
	}
	if r := runCLI(t, env, "", "status", strings.Repeat("a", 64)); r.code != ExitTransport {
		t.Fatalf("status with a valid id and no relay: %d %q", r.code, r.stderr)
	}
}

// TestWatchPrintsThePreflight: watch marks each state landable or blocked;
// on a blocked close it says not to sign and lists the blockers, once; in
// JSON each state carries landable and the first its preflight.
func TestWatchPrintsThePreflight(t *testing.T) {
	rel := startTestRelay(t)
	a := ledgertest.NewAccount(2, 1)
	rel.horizon.AddAccount(a)
	issuer := keypair.MustRandom().Address()
	rel.horizon.Fund(issuer, 10_0000000)
	rel.horizon.AddTrustline(a.Address, ledgertest.Trustline{Asset: ledgertest.Credit("USD", issuer), Balance: 50_0000000})
	id := publishBareMerge(t, rel, a.Master, a.Keys[0])
	env := map[string]string{EnvURL: rel.url}
	if r := runCLI(t, env, a.Keys[1].Seed()+"\n", "sign", "--force", id); r.code != ExitOK {
		t.Fatalf("sign: %d %q", r.code, r.stderr)
	}

	r := runCLI(t, env, "", "watch", "--timeout", "1s", id)
	lines := strings.Split(r.stdout, "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "v2 weight 2/3 signers: ") || !strings.HasSuffix(lines[0], " — blocked: do not sign") ||
		lines[1] != "do not sign this close: the ledger would refuse it" ||
		!strings.HasPrefix(lines[2], "  operation 1: op_has_sub_entries: the account still holds ") || !strings.Contains(lines[2], "USD") {
		t.Fatalf("watch of a blocked close: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if strings.Count(r.stdout, "do not sign this close") != 1 {
		t.Errorf("the blockers are printed more than once:\n%s", r.stdout)
	}

	r = runCLI(t, env, "", "watch", "--json", "--timeout", "1s", id)
	var m struct {
		Landable  *bool           `json:"landable"`
		Preflight *wire.Preflight `json:"preflight"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(r.stdout, "\n", 2)[0]), &m); err != nil || m.Landable == nil || *m.Landable ||
		m.Preflight == nil || m.Preflight.State != "blocked" || len(m.Preflight.Blockers) != 1 || m.Preflight.Blockers[0].Code != "op_has_sub_entries" {
		t.Fatalf("watch --json of a blocked close: %q", r.stdout)
	}
}

// TestWriteBlockersNamesTheForward: a blocker of the relay's forward (op
// -2, CONTRACT section 18) is said to be the forward's, not the
// transaction's.
func TestWriteBlockersNamesTheForward(t *testing.T) {
	var b strings.Builder
	writeBlockers(&b, []wire.Blocker{
		{Op: -1, Code: "tx_bad_seq", Reason: "used"},
		{Op: 1, Code: "op_has_sub_entries", Reason: "holds"},
		{Op: -2, Code: "op_no_destination", Reason: "the funds would stop in the mediator"},
	})
	want := "  the transaction: tx_bad_seq: used\n  operation 2: op_has_sub_entries: holds\n" +
		"  the mediator's forward: op_no_destination: the funds would stop in the mediator\n"
	if b.String() != want {
		t.Errorf("writeBlockers wrote %q, want %q", b.String(), want)
	}
}

// TestStatusFailedForItsFeeSaysToBump: a submission the ledger refused
// with tx_insufficient_fee says how to bump the close, its signatures kept;
// any other failure keeps its own words.
func TestStatusFailedForItsFeeSaysToBump(t *testing.T) {
	id := strings.Repeat("ab", 32)
	for code, want := range map[string]string{
		"tx_insufficient_fee": "the relay's submission failed: tx_insufficient_fee: the fee bid is below the network's; any account can pay a fee-bump around the close, its signatures kept: closerelayctl bump " + id + " --fee-source G…\n",
		"tx_bad_seq":          "the relay's submission failed: tx_bad_seq; the next change of the submit-ready envelope tries again\n",
	} {
		var b strings.Builder
		c := &CLI{Stdout: &b}
		c.printStatus(&b, wire.Status{ID: id, Network: "testnet", Submit: true, Submission: &wire.Submission{State: "failed", Code: code}}, time.Now())
		if !strings.HasPrefix(b.String(), want) {
			t.Errorf("%s: status begins %q, want %q", code, b.String(), want)
		}
	}
}
