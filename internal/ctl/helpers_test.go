package ctl

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/internal/server"
	"github.com/closerelay/closerelay/internal/syncbuf"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
)

// The helpers the test files of this package share: a relay to talk to and
// a command line run in process.

// testRelay is a relay from internal/server on loopback listeners, reading
// accounts from a ledgertest double.
type testRelay struct {
	url     string
	horizon *ledgertest.Server
	acct    ledgertest.Account
}

// cliDest is the destination of the tests' closes; startTestRelay's double
// knows it.
var cliDest = keypair.MustRandom().Address()

func startTestRelay(t *testing.T) *testRelay {
	t.Helper()
	return startTestRelayAPI(t, server.LedgerAPIHorizon)
}

// startTestRelayAPI is startTestRelay with the relay reading and
// submitting through api (LEDGER_API): the double's Horizon routes, or its
// Stellar RPC face.
func startTestRelayAPI(t *testing.T, api string) *testRelay {
	t.Helper()
	h := ledgertest.New()
	t.Cleanup(h.Close)
	acct := ledgertest.NewAccount(2, 1)
	h.AddAccount(acct)
	h.Fund(cliDest, 10_0000000) // the closes' destination: a merge into an unknown account fails
	env := map[string]string{
		"LISTEN_ADDR": "127.0.0.1:0", "OPS_ADDR": "127.0.0.1:0",
		"HORIZON_URL_TESTNET": h.URL, "HORIZON_URL_MAINNET": h.URL, "HORIZON_URL_FUTURENET": h.URL,
		"MEDIATOR_SECRET": keypair.MustRandom().Seed(), "RATE_LIMITS": "off", "SHUTDOWN_TIMEOUT": "5s",
		"LEDGER_API": api, "RPC_URL_TESTNET": h.URL + "/rpc", "RPC_URL_MAINNET": h.URL + "/rpc", "RPC_URL_FUTURENET": h.URL + "/rpc",
	}
	cfg, err := server.ParseEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	relay, err := server.Start(server.Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := relay.Stop(); err != nil {
			t.Errorf("stop relay: %v", err)
		}
	})
	url := relay.APIURL
	return &testRelay{url: url, horizon: h, acct: acct}
}

type result struct {
	code           int
	stdout, stderr string
}

// runCLI runs one command line in process, as `closerelayctl args…` would.
func runCLI(t *testing.T, env map[string]string, stdin string, args ...string) result {
	t.Helper()
	var out, errOut syncbuf.Buffer
	c := &CLI{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return env[k] }}
	code := c.Run(args)
	return result{code, out.String(), errOut.String()}
}

func (r result) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
		t.Fatalf("stdout is not one JSON object: %q", r.stdout)
	}
	return m
}
