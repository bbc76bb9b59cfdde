package lab

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/internal/relaytest"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
)

// TestBuiltCommandLineHonoursTheVerdict runs the built closerelayctl, as a
// person does from a shell, against a relay on loopback (CONTRACT 18,
// issue 38): `build … | publish -` of a blocked close publishes nothing;
// sign and submit refuse a blocked plan with exit 1 and its blockers and
// act with --force; watch --until-complete on a plan published with
// --submit ends on `submitted`, not on readiness.
func TestBuiltCommandLineHonoursTheVerdict(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the command lines")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	bin := buildTools(t, repoRoot(t), t.TempDir())
	rel := relaytest.Start(t, relaytest.Options{})
	h := rel.Horizon
	dest := keypair.MustRandom().Address()
	h.Fund(dest, 10_0000000)
	home := t.TempDir()
	env := append(cleanEnv(home), "CLOSERELAY_URL="+rel.URL, "CLOSERELAY_HORIZON_URL="+h.URL, "CLOSERELAY_NETWORK=testnet")
	sh := func(script string, extra ...string) (code int, stdout, stderr string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "bash", "-c", script)
		cmd.Env = append(append([]string{}, env...), extra...)
		cmd.Env = append(cmd.Env, "PATH="+bin+":"+filepath.Dir(mustLook(t, "bash")))
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), out.String(), errOut.String()
		} else if err != nil {
			t.Fatalf("%s: %v", script, err)
		}
		return 0, out.String(), errOut.String()
	}
	plans := func() int {
		n, err := rel.Plans.Open(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	// build into a destination that does not exist: blocked (op_no_account),
	// nothing on build's stdout, so publish has nothing to publish.
	a := ledgertest.NewAccount(2, 1)
	h.AddAccount(a)
	code, out, errOut := sh(`closerelayctl build --account "$ACCOUNT" --destination "$MISSING" --sign | closerelayctl publish -; echo "exit ${PIPESTATUS[0]} ${PIPESTATUS[1]}"`,
		"ACCOUNT="+a.Address, "MISSING="+keypair.MustRandom().Address(), "CLOSERELAY_SECRET="+a.Keys[0].Seed())
	if code != 0 || out != "exit 1 2\n" || !strings.Contains(errOut, "op_no_account") || plans() != 0 {
		t.Fatalf("build | publish - of a blocked close: %d %q %q; %d plan(s) open", code, out, errOut, plans())
	}

	// A bare merge of an account holding a trustline: blocked
	// (op_has_sub_entries). publish says so and exits 1; the plan is open.
	b := ledgertest.NewAccount(2, 1)
	h.AddAccount(b)
	issuer := keypair.MustRandom().Address()
	h.Fund(issuer, 10_0000000)
	h.AddTrustline(b.Address, ledgertest.Trustline{Asset: ledgertest.Credit("USD", issuer), Balance: 5_0000000})
	x, _ := ledgertest.BuildClose(b.Master, dest, 1<<32+1, time.Now().Add(72*time.Hour).Unix(), network.TestNetworkPassphrase, b.Keys[0])
	code, out, errOut = sh(`printf '%s' "$X" | closerelayctl publish -`, "X="+x)
	if code != 1 || !strings.HasPrefix(out, "published plan ") || !strings.Contains(errOut, "op_has_sub_entries") {
		t.Fatalf("publish of a blocked close: %d %q %q", code, out, errOut)
	}
	id := strings.Fields(out)[2]
	for _, kp := range []*keypair.Full{b.Keys[1], b.Master} {
		code, out, errOut = sh(`closerelayctl sign --yes "$ID"`, "ID="+id, "CLOSERELAY_SECRET="+kp.Seed())
		if code != 1 || out != "" || !strings.Contains(errOut, "do not sign this close: the ledger would refuse it\n  operation 1: op_has_sub_entries: ") ||
			!strings.Contains(errOut, "--force would sign it anyway") {
			t.Fatalf("sign of a blocked plan: %d %q %q", code, out, errOut)
		}
		if code, out, errOut = sh(`closerelayctl sign --yes --force "$ID"`, "ID="+id, "CLOSERELAY_SECRET="+kp.Seed()); code != 0 || !strings.Contains(out, "signed the close of ") {
			t.Fatalf("sign --force of a blocked plan: %d %q %q", code, out, errOut)
		}
	}
	seq, _ := h.Sequence(b.Address)
	code, out, errOut = sh(`closerelayctl submit "$ID"`, "ID="+id)
	if code != 1 || out != "" || !strings.Contains(errOut, "op_has_sub_entries") || !strings.Contains(errOut, "--force would submit it anyway") || h.Submissions() != 0 {
		t.Fatalf("submit of a blocked plan: %d %q %q; %d submission(s)", code, out, errOut, h.Submissions())
	}
	code, _, errOut = sh(`closerelayctl submit --force "$ID"`, "ID="+id)
	if now, _ := h.Sequence(b.Address); code != 1 || !strings.Contains(errOut, "the ledger refused the transaction: tx_failed") || now != seq+1 {
		t.Fatalf("submit --force of a blocked plan: %d %q; sequence %d, was %d", code, errOut, now, seq)
	}

	// A landable close published with --submit: watch --until-complete,
	// started first, ends on the relay's submission.
	c := ledgertest.NewAccount(2, 1)
	h.AddAccount(c)
	x, _ = ledgertest.BuildClose(c.Master, dest, 1<<32+1, time.Now().Add(72*time.Hour).Unix(), network.TestNetworkPassphrase, c.Keys[0])
	code, out, errOut = sh(`printf '%s' "$X" | closerelayctl publish --submit - | cut -d' ' -f3`, "X="+x)
	id = strings.TrimSpace(out)
	if code != 0 || len(id) != 64 {
		t.Fatalf("publish --submit: %d %q %q", code, out, errOut)
	}
	code, out, errOut = sh(`closerelayctl watch --until-complete --timeout 30s "$ID" > "$HOME/watch.out" & w=$!
CLOSERELAY_SECRET=$S1 closerelayctl sign --yes "$ID" >/dev/null
CLOSERELAY_SECRET=$S2 closerelayctl sign --yes "$ID" >/dev/null
wait $w; echo "watch exit $?"; cat "$HOME/watch.out"`, "ID="+id, "S1="+c.Keys[1].Seed(), "S2="+c.Master.Seed())
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || lines[0] != "watch exit 0" || !strings.HasPrefix(lines[len(lines)-1], "submitted by the relay: transaction "+id+" in ledger ") {
		t.Fatalf("watch --until-complete of a --submit plan: %d %q %q", code, out, errOut)
	}
}

// mustLook is the path of an installed program.
func mustLook(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
