package server

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/network"
)

// TestLedgerAPIRPCFromTheEnvironment: LEDGER_API=rpc with RPC_URL_* makes
// the composition root read through Stellar RPC (here the double's
// JSON-RPC face on loopback): a publish reads its account with
// getLedgerEntries and never with Horizon's routes, and
// closerelay_ledger_api_info says rpc.
func TestLedgerAPIRPCFromTheEnvironment(t *testing.T) {
	srv := ledgertest.New()
	defer srv.Close()
	acct := ledgertest.NewAccount(1, 1)
	srv.AddAccount(acct)
	u := ledgertest.RPCURL(srv.URL)
	cfg, err := ParseEnv(envOf(map[string]string{
		"LISTEN_ADDR": "127.0.0.1:0", "OPS_ADDR": "127.0.0.1:0", "LEDGER_API": "rpc",
		"RPC_URL_MAINNET": u, "RPC_URL_TESTNET": u, "RPC_URL_FUTURENET": u,
		// Horizon's routes of the double, never to be called.
		"HORIZON_URL_TESTNET": srv.URL,
	}))
	if err != nil {
		t.Fatal(err)
	}
	cfg.HorizonTimeout = 5 * time.Second
	rel, err := Start(Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := rel.Stop(); err != nil {
			t.Errorf("stop: %v", err)
		}
	}()
	x, _ := ledgertest.BuildClose(acct.Master, ledgertest.Keypair(9).Address(), 1<<32+1, 0, network.TestNetworkPassphrase, acct.Keys[0])
	body, _ := json.Marshal(map[string]string{"network": "testnet", "xdr": x})
	res, err := http.Post(rel.APIURL+"/api/plan", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("publish: %d %s", res.StatusCode, b)
	}
	h := srv.Handler()
	if n := h.RPCCalls("getLedgerEntries"); n == 0 || h.Requests() != n {
		t.Fatalf("%d getLedgerEntries calls of %d requests: the publish read elsewhere", n, h.Requests())
	}
	res, err = http.Get(rel.OpsURL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(res.Body)
	res.Body.Close()
	for _, n := range []string{"mainnet", "testnet", "futurenet"} {
		if want := `closerelay_ledger_api_info{backend="rpc",network="` + n + `"} 1`; !strings.Contains(string(b), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}
