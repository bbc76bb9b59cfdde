package ctl

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/internal/syncbuf"
	"github.com/stellar/go-stellar-sdk/keypair"
)

// publishSigned builds and publishes a close of rel's account into a fresh
// destination, signed by its first signer, through the CLI; it returns the
// plan id.
func publishSigned(t *testing.T, rel *testRelay) string {
	t.Helper()
	env := map[string]string{EnvURL: rel.url, EnvNetwork: "testnet", EnvSecret: rel.acct.Keys[0].Seed(), EnvHorizon: rel.horizon.URL}
	r := runCLI(t, env, "", "build", "--account", rel.acct.Address, "--destination", cliDest, "--sign")
	r = runCLI(t, env, r.stdout, "publish", "--json", "-")
	id, _ := r.json(t)["id"].(string)
	if r.code != ExitOK || id == "" {
		t.Fatalf("publish: %d %q %q", r.code, r.stdout, r.stderr)
	}
	return id
}

// TestReadyCommand: `ready` refuses with the relay's NOT_READY and its
// reason (exit 1) until the threshold is met, then prints the submit-ready
// envelope, which the ledger (the double) takes; --json prints the relay's
// whole answer.
func TestReadyCommand(t *testing.T) {
	rel := startTestRelay(t)
	a := rel.acct
	id := publishSigned(t, rel)
	env := map[string]string{EnvURL: rel.url}

	r := runCLI(t, env, "", "ready", id)
	if r.code != ExitRefused || r.stdout != "" ||
		r.stderr != "closerelayctl ready: 409 Conflict NOT_READY: weight 1 of threshold 3: the plan is not ready\n" {
		t.Fatalf("ready before the threshold: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, env, "", "ready", "--json", id)
	if m := r.json(t); r.code != ExitRefused || m["ok"] != false || m["status"] != float64(409) || m["code"] != "NOT_READY" ||
		m["reason"] != "weight 1 of threshold 3: the plan is not ready" {
		t.Fatalf("ready --json before the threshold: %d %q", r.code, r.stdout)
	}

	for _, kp := range []*keypair.Full{a.Keys[1], a.Master} {
		if r := runCLI(t, env, kp.Seed()+"\n", "sign", id); r.code != ExitOK {
			t.Fatalf("sign: %d %q", r.code, r.stderr)
		}
	}
	r = runCLI(t, env, "", "ready", strings.ToUpper(id))
	want := []string{a.Keys[0].Address(), a.Keys[1].Address(), a.Master.Address()}
	var short []string
	for _, k := range want {
		short = append(short, ShortKey(k))
	}
	if r.code != ExitOK || strings.Count(r.stdout, "\n") != 1 ||
		r.stderr != fmt.Sprintf("plan %s on testnet: weight 3/3 with 3 signature(s): %s\n", id, strings.Join(short, ", ")) {
		t.Fatalf("ready: %d %q %q", r.code, r.stdout, r.stderr)
	}
	x := strings.TrimSpace(r.stdout)
	r = runCLI(t, env, "", "ready", "--json", id)
	var m struct {
		OK        bool     `json:"ok"`
		ID        string   `json:"id"`
		Network   string   `json:"network"`
		XDR       string   `json:"xdr"`
		Signers   []string `json:"signers"`
		Weight    int      `json:"weight"`
		Threshold int      `json:"threshold"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil || r.code != ExitOK || !m.OK || m.ID != id || m.Network != "testnet" ||
		m.XDR != x || !slices.Equal(m.Signers, want) || m.Weight != 3 || m.Threshold != 3 {
		t.Fatalf("ready --json: %d %q (%v)", r.code, r.stdout, err)
	}
	resp, err := http.PostForm(rel.horizon.URL+"/transactions", url.Values{"tx": {x}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the double answered %d to the envelope ready printed", resp.StatusCode)
	}

	// Unknown plan: the relay's 404; no relay: a transport failure.
	if r := runCLI(t, env, "", "ready", strings.Repeat("0", 64)); r.code != ExitRefused || !strings.Contains(r.stderr, "NOT_FOUND") {
		t.Errorf("ready of an unknown plan: %d %q", r.code, r.stderr)
	}
	if r := runCLI(t, nil, "", "ready", "--relay", "http://127.0.0.1:1", "--json", id); r.code != ExitTransport || r.json(t)["code"] != "TRANSPORT" {
		t.Errorf("ready without a relay: %d %q", r.code, r.stdout)
	}
	if r := runCLI(t, nil, "", "ready"); r.code != ExitUsage {
		t.Errorf("ready without an id: %d", r.code)
	}
	if r := runCLI(t, nil, "", "ready", "--help"); r.code != ExitOK || !strings.HasPrefix(r.stdout, "Usage: closerelayctl ready") {
		t.Errorf("ready --help: %d %q", r.code, r.stdout)
	}
}

// olderRelay serves one plan's stream as a relay older than the readiness
// fields would: states without weight, threshold or ready, then the
// plan's expiry.
func olderRelay(t *testing.T, id, network, x string, signers []string) string {
	t.Helper()
	data, err := json.Marshal(map[string]any{"network": network, "xdr": x, "id": id, "signers": signers})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/plan/"+id+"/events" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "id: 1\ndata: %s\n\nevent: expired\ndata: {\"id\":%q}\n\n", data, id)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestWatchOlderRelay: against a relay that reports no weight, watch weighs
// each state against the account API when one is given (and dials it),
// lists the signers unweighed otherwise, and refuses --until-complete
// without one (it could never see the threshold met).
func TestWatchOlderRelay(t *testing.T) {
	rel := startTestRelay(t)
	a := rel.acct
	id := publishSigned(t, rel)
	r := runCLI(t, map[string]string{EnvURL: rel.url}, "", "get", "--json", id)
	x, _ := r.json(t)["xdr"].(string)
	old := olderRelay(t, id, "testnet", x, []string{a.Keys[0].Address()})

	var dials dialLog
	var out, errOut syncbuf.Buffer
	tc := newTestCLI(map[string]string{EnvURL: old, EnvHorizon: rel.horizon.URL}, strings.NewReader(""), &out, &errOut)
	tc.Transport = dials.transport()
	if code := tc.Run([]string{"watch", "--until-complete", id}); code != ExitRefused {
		t.Fatalf("watch --until-complete of an older relay, expired at 1/3: %d %q %q", code, out.String(), errOut.String())
	}
	if lines := strings.Split(out.String(), "\n"); len(lines) != 3 || lines[0] != "v1 weight 1/3 signers: "+ShortKey(a.Keys[0].Address()) || lines[1] != "plan expired" {
		t.Errorf("watch of an older relay with an account API: %q", out.String())
	}
	if got := dials.dialled(); !slices.Contains(got, hostOf(t, rel.horizon.URL)) {
		t.Errorf("watch of an older relay dialled %v, not the account API", got)
	}

	r = runCLI(t, map[string]string{EnvURL: old}, "", "watch", "--json", id)
	var m map[string]any
	if err := json.NewDecoder(strings.NewReader(r.stdout)).Decode(&m); err != nil || r.code != ExitOK || m["weighed"] != false {
		t.Errorf("watch --json of an older relay without an account API: %d %q", r.code, r.stdout)
	}
	r = runCLI(t, map[string]string{EnvURL: old}, "", "watch", id)
	if r.code != ExitOK || !strings.HasPrefix(r.stdout, "v1 1 signature(s) by "+ShortKey(a.Keys[0].Address())+" (as the relay reports them; not weighed)\n") ||
		!strings.Contains(r.stderr, "the relay reports no weight or threshold") {
		t.Errorf("watch of an older relay without an account API: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, map[string]string{EnvURL: old}, "", "watch", "--until-complete", id)
	if r.code != ExitUsage || !strings.Contains(r.stderr, "--until-complete needs --horizon-url") {
		t.Errorf("watch --until-complete of an older relay without an account API: %d %q", r.code, r.stderr)
	}
}
