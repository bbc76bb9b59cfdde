package ledgertest_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/network"
)

// rpcCall posts body to the double's JSON-RPC face and decodes the answer.
func rpcCall(t *testing.T, h *ledgertest.Handler, body string) (int, map[string]any) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/rpc", strings.NewReader(body)))
	var out map[string]any
	if rec.Code == http.StatusOK {
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("%s: %v", rec.Body.String(), err)
		}
	}
	return rec.Code, out
}

func TestRPCFaceMethods(t *testing.T) {
	h := ledgertest.NewHandler()
	_, out := rpcCall(t, h, `{"jsonrpc":"2.0","id":1,"method":"getHealth"}`)
	if r, _ := out["result"].(map[string]any); r["status"] != "healthy" {
		t.Fatalf("getHealth: %v", out)
	}
	_, out = rpcCall(t, h, `{"jsonrpc":"2.0","id":2,"method":"getNetwork"}`)
	if r, _ := out["result"].(map[string]any); r["passphrase"] != network.TestNetworkPassphrase || out["id"] != float64(2) {
		t.Fatalf("getNetwork: %v", out)
	}
	_, out = rpcCall(t, h, `{"jsonrpc":"2.0","id":3,"method":"getLatestLedger"}`)
	if r, _ := out["result"].(map[string]any); r["sequence"] == nil {
		t.Fatalf("getLatestLedger: %v", out)
	}
	if h.RPCCalls("getNetwork") != 1 {
		t.Fatal("calls are not counted")
	}
}

func TestRPCFaceErrors(t *testing.T) {
	h := ledgertest.NewHandler()
	many := make([]string, ledgertest.MaxRPCKeys+1)
	for i := range many {
		many[i] = `"AAAAAA=="`
	}
	for name, c := range map[string]struct {
		body string
		code float64
	}{
		"parse error":    {`{"jsonrpc":`, -32700},
		"not 2.0":        {`{"jsonrpc":"1.0","id":1,"method":"getHealth"}`, -32600},
		"no id":          {`{"jsonrpc":"2.0","method":"getHealth"}`, -32600},
		"unknown method": {`{"jsonrpc":"2.0","id":1,"method":"getEvents"}`, -32601},
		"bad key":        {`{"jsonrpc":"2.0","id":1,"method":"getLedgerEntries","params":{"keys":["%%"]}}`, -32602},
		"too many keys":  {`{"jsonrpc":"2.0","id":1,"method":"getLedgerEntries","params":{"keys":[` + strings.Join(many, ",") + `]}}`, -32602},
		"params":         {`{"jsonrpc":"2.0","id":1,"method":"getLedgerEntries","params":[1]}`, -32602},
		"bad envelope":   {`{"jsonrpc":"2.0","id":1,"method":"sendTransaction","params":{"transaction":"AAAA"}}`, -32602},
		"bad hash":       {`{"jsonrpc":"2.0","id":1,"method":"getTransaction","params":{"hash":"zz"}}`, -32602},
	} {
		t.Run(name, func(t *testing.T) {
			status, out := rpcCall(t, h, c.body)
			e, _ := out["error"].(map[string]any)
			if status != http.StatusOK || e["code"] != c.code {
				t.Fatalf("%d %v", status, out)
			}
		})
	}
	t.Run("unknown hash is NOT_FOUND", func(t *testing.T) {
		_, out := rpcCall(t, h, `{"jsonrpc":"2.0","id":1,"method":"getTransaction","params":{"hash":"`+strings.Repeat("ab", 32)+`"}}`)
		if r, _ := out["result"].(map[string]any); r["status"] != "NOT_FOUND" {
			t.Fatalf("%v", out)
		}
	})
	t.Run("scripted status", func(t *testing.T) {
		h.FailRPC("getHealth", 1, http.StatusBadGateway)
		if status, _ := rpcCall(t, h, `{"jsonrpc":"2.0","id":1,"method":"getHealth"}`); status != http.StatusBadGateway {
			t.Fatalf("%d", status)
		}
		if status, _ := rpcCall(t, h, `{"jsonrpc":"2.0","id":1,"method":"getHealth"}`); status != http.StatusOK {
			t.Fatalf("the fault was not spent: %d", status)
		}
	})
	t.Run("failing", func(t *testing.T) {
		h.SetFailing(true)
		defer h.SetFailing(false)
		if status, _ := rpcCall(t, h, `{"jsonrpc":"2.0","id":1,"method":"getHealth"}`); status != http.StatusInternalServerError {
			t.Fatalf("%d", status)
		}
	})
}
