package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/closerelay/closerelay/internal/relaytest"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/loadkit"
	"github.com/stellar/go-stellar-sdk/keypair"
)

// The helpers the test files of this package share: a relay with published
// plans, their payload, and what the platform offers.

// testRelay is a real relay on a loopback listener, its ops metrics on
// another, and the account-API double behind it, all in the test process.
type testRelay struct {
	url, ops string
	horizon  *ledgertest.Server
}

// startRelay runs a relay until the test ends; maxSubscribers 0 is the
// production 50.
func startRelay(t *testing.T, maxSubscribers int) *testRelay {
	t.Helper()
	r := relaytest.Start(t, relaytest.Options{MaxSubscribers: maxSubscribers})
	return &testRelay{url: r.URL, ops: r.OpsURL, horizon: r.Horizon}
}

// publish creates nPlans accounts of nSigners signers each (the master, which
// publishes, included), publishes one close per account and returns the
// plans with their valid partials, as `closerelaylab load local` would.
func (r *testRelay) publish(t *testing.T, nPlans, nSigners int) []loadkit.Plan {
	t.Helper()
	passphrase := ledger.Testnet.Passphrase()
	var out []loadkit.Plan
	for range nPlans {
		acct := ledgertest.NewAccount(nSigners-1, 1)
		r.horizon.AddAccount(acct)
		signed, _ := ledgertest.BuildClose(acct.Master, keypair.MustRandom().Address(), 1<<32, 0, passphrase, acct.Master)
		body, err := json.Marshal(map[string]string{"network": string(ledger.Testnet), "xdr": signed})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.Post(r.url+"/api/plan", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var ans struct {
			ID string `json:"id"`
		}
		err = json.NewDecoder(resp.Body).Decode(&ans)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("publish: %d, %v", resp.StatusCode, err)
		}
		env, err := ledger.DecodeEnvelope(signed)
		if err != nil {
			t.Fatal(err)
		}
		p, err := loadkit.BuildPlan(loadkit.PlanInput{ID: ans.ID, Envelope: env, Passphrase: passphrase, Keys: acct.Keys, Publisher: len(acct.Keys) - 1}, loadkit.Counts{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

func (r *testRelay) payload(t *testing.T, plans []loadkit.Plan) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "payload.json")
	p := &loadkit.Payload{Relay: r.url, Ops: r.ops, Network: string(ledger.Testnet), ServerPID: os.Getpid(), Plans: plans}
	if err := loadkit.Write(path, p); err != nil {
		t.Fatal(err)
	}
	return path
}

// onLinux: /proc, and all of 127.0.0.0/8 on the loopback interface.
const onLinux = runtime.GOOS == "linux"
