package lab

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/internal/ctl"
	"github.com/stellar/go-stellar-sdk/keypair"
)

// readKeys reads the NAME='value' assignments of a load-local keys file.
func readKeys(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{}
	for _, m := range regexp.MustCompile(`([A-Z_0-9]+)='([^']*)'`).FindAllStringSubmatch(string(b), -1) {
		vars[m[1]] = m[2]
	}
	return vars
}

// TestLoadLocalWalkThrough runs `closerelaylab load local` through the CLI
// and then the README's walk-through against it with nothing but what it
// printed and the keys file it wrote: build | publish, watch, sign.
func TestLoadLocalWalkThrough(t *testing.T) {
	dir := t.TempDir()
	stack := newTestCLI(nil, strings.NewReader(""))
	ll := start(t, stack, "load", "local", "--listen", "127.0.0.1:0", "--ops", "127.0.0.1:0", "--plans", "2", "--signers", "3",
		"--out", filepath.Join(dir, "payload.json"))
	ready := ll.next()
	fields := map[string]string{}
	for _, f := range strings.Fields(ready)[1:] {
		k, v, _ := strings.Cut(f, "=")
		fields[k] = v
	}
	if !strings.HasPrefix(ready, "ready ") || fields["relay"] == "" || fields["ops"] == "" || fields["horizon"] == "" {
		t.Fatalf("ready line %q", ready)
	}
	keysPath := filepath.Join(dir, "load-keys.env")
	if fields["keys"] != keysPath {
		t.Fatalf("keys file %q, want %q beside the payload", fields["keys"], keysPath)
	}
	if l := ll.next(); !strings.Contains(l, fields["relay"]) || !strings.Contains(l, fields["ops"]) || !strings.Contains(l, fields["horizon"]) {
		t.Fatalf("addresses line %q", l)
	}
	if l := ll.next() + ll.next(); !strings.Contains(l, ". "+keysPath) {
		t.Fatalf("keys lines %q", l)
	}
	fi, err := os.Stat(keysPath)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("keys file: %v, mode %v", err, fi.Mode())
	}
	resp, err := http.Get(fields["ops"] + "/readyz")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("ops readyz: %v %v", resp, err)
	}
	resp.Body.Close()

	keys := readKeys(t, keysPath)
	if keys[ctl.EnvURL] != fields["relay"] || keys[ctl.EnvHorizon] != fields["horizon"] || keys[ctl.EnvNetwork] != "testnet" || keys["OPS_URL"] != fields["ops"] {
		t.Fatalf("keys file variables: %v", keys)
	}
	for n := 1; n <= 2; n++ {
		for m := 1; m <= 3; m++ {
			kp, err := keypair.ParseFull(keys[fmt.Sprintf("SECRET_%d_%d", n, m)])
			if err != nil || kp.Address() != keys[fmt.Sprintf("SIGNER_%d_%d", n, m)] {
				t.Fatalf("account %d signer %d: %v", n, m, err)
			}
		}
		if keys[fmt.Sprintf("ACCOUNT_%d", n)] != keys[fmt.Sprintf("SIGNER_%d_3", n)] || len(keys[fmt.Sprintf("PLAN_%d", n)]) != 64 {
			t.Fatalf("account %d: %v", n, keys)
		}
	}
	// The README's walk-through, in the environment the keys file sets.
	env := map[string]string{ctl.EnvURL: keys[ctl.EnvURL], ctl.EnvHorizon: keys[ctl.EnvHorizon], ctl.EnvNetwork: keys[ctl.EnvNetwork]}
	with := func(secret string) map[string]string {
		e := map[string]string{ctl.EnvSecret: secret}
		for k, v := range env {
			e[k] = v
		}
		return e
	}
	r := runCLI(t, with(keys["SECRET_1_1"]), "", "build", "--account", keys["ACCOUNT_1"], "--destination", keys["ACCOUNT_2"], "--sign")
	if r.code != ctl.ExitOK || !strings.Contains(r.stderr, "weight 1/3") {
		t.Fatalf("build: %d %q", r.code, r.stderr)
	}
	r = runCLI(t, env, r.stdout, "publish", "-")
	if r.code != ctl.ExitOK || !strings.HasPrefix(r.stdout, "published plan ") {
		t.Fatalf("publish: %d %q %q", r.code, r.stdout, r.stderr)
	}
	id := strings.Fields(r.stdout)[2]
	w := start(t, newTestCLI(env, strings.NewReader("")), "watch", "--until-complete", id)
	if l := w.next(); !strings.HasPrefix(l, "v1 weight 1/3 ") {
		t.Fatalf("watch: %q", l)
	}
	for i, s := range []string{"SECRET_1_2", "SECRET_1_3"} {
		if r := runCLI(t, env, keys[s]+"\n", "sign", id); r.code != ctl.ExitOK {
			t.Fatalf("sign with %s: %d %q", s, r.code, r.stderr)
		}
		if l := w.next(); !strings.HasPrefix(l, fmt.Sprintf("v%d weight %d/3 ", i+2, i+2)) {
			t.Fatalf("watch after %s: %q", s, l)
		}
	}
	if code := w.exit(); code != ctl.ExitOK {
		t.Fatalf("watch --until-complete: %d %q", code, w.stderr.String())
	}

	stack.interrupt()
	if code := ll.exit(); code != ctl.ExitOK {
		t.Fatalf("load local: %d %q", code, ll.stderr.String())
	}
	for _, secret := range []string{keys["SECRET_1_1"], keys["SECRET_2_3"]} {
		if strings.Contains(ready, secret) {
			t.Fatal("load local printed a secret")
		}
	}
}
