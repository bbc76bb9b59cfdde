package ledgerapi_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/ledgerapi"
	horizonapi "github.com/closerelay/closerelay/ledgerapi/horizon"
	rpcapi "github.com/closerelay/closerelay/ledgerapi/rpc"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// The network's fee statistics (docs/API.md section 12, preflight.fee):
// read through each backend, and unknown, never guessed, when an answer is
// missing or contradicts itself.

func TestFeeStatsThroughEachBackend(t *testing.T) {
	for _, api := range []string{"horizon", "rpc"} {
		t.Run(api, func(t *testing.T) {
			h := ledgertest.NewHandler()
			c := ledgertest.InProcessClient(h, time.Second)
			wantBase := int64(100)
			if api == "rpc" {
				c = ledgertest.InProcessRPCClient(h, time.Second)
				wantBase = 0 // getFeeStats names no base fee
			}
			st, err := c.FeeStats(t.Context(), ledger.Testnet)
			if err != nil || st.Network != 100 || st.BaseFee != wantBase {
				t.Fatalf("FeeStats = %+v, %v", st, err)
			}
			h.SetBaseFee(450)
			if st, err = c.FeeStats(t.Context(), ledger.Testnet); err != nil || st.Network != 450 {
				t.Fatalf("FeeStats under a raised floor = %+v, %v", st, err)
			}
			h.SetFailing(true)
			if _, err = c.FeeStats(t.Context(), ledger.Testnet); err == nil {
				t.Fatal("a failing API's fee statistics read")
			}
		})
	}
}

// TestFeeStatsUnknown: an answer that lacks a field, does not parse, or
// contradicts itself (a p70 of 0, below min or above max, a base fee of
// 0), and an API that publishes none (404), are an error: the fee is
// unknown.
func TestFeeStatsUnknown(t *testing.T) {
	horizonCases := map[string]string{
		"no p70":         `{"last_ledger_base_fee":"100","fee_charged":{"min":"100","max":"200"}}`,
		"no base fee":    `{"fee_charged":{"min":"100","max":"200","p70":"150"}}`,
		"not a number":   `{"last_ledger_base_fee":"100","fee_charged":{"min":"100","max":"200","p70":"lots"}}`,
		"p70 above max":  `{"last_ledger_base_fee":"100","fee_charged":{"min":"100","max":"200","p70":"300"}}`,
		"p70 below min":  `{"last_ledger_base_fee":"100","fee_charged":{"min":"100","max":"200","p70":"50"}}`,
		"zero p70":       `{"last_ledger_base_fee":"100","fee_charged":{"min":"0","max":"0","p70":"0"}}`,
		"zero base fee":  `{"last_ledger_base_fee":"0","fee_charged":{"min":"100","max":"200","p70":"150"}}`,
		"not JSON":       `<html>`,
		"not published":  "404",
		"server error":   "500",
		"an array":       `[]`,
		"p70 a JSON int": `{"last_ledger_base_fee":"100","fee_charged":{"min":"100","max":"200","p70":150}}`,
	}
	for name, body := range horizonCases {
		t.Run("horizon/"+name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch body {
				case "404":
					http.Error(w, `{"type":"not_found","status":404}`, http.StatusNotFound)
				case "500":
					http.Error(w, `{"type":"server_error","status":500}`, http.StatusInternalServerError)
				default:
					_, _ = w.Write([]byte(body))
				}
			}))
			defer srv.Close()
			c := ledgerapi.New(ledgerapi.Options{Backends: horizonapi.Backends(map[ledger.Network]string{ledger.Testnet: srv.URL}, nil), Timeout: time.Second})
			if st, err := c.FeeStats(t.Context(), ledger.Testnet); err == nil {
				t.Fatalf("FeeStats = %+v, want unknown", st)
			} else if strings.Contains(err.Error(), "lots") || strings.Contains(err.Error(), "does not know the account") {
				t.Errorf("error %q", err)
			}
		})
	}
	rpcCases := map[string]string{
		"no inclusionFee": `{"latestLedger":5}`,
		"no p70":          `{"inclusionFee":{"min":"100","max":"200"}}`,
		"zeros":           `{"inclusionFee":{"min":"0","max":"0","p70":"0","transactionCount":"0","ledgerCount":10}}`,
		"p70 above max":   `{"inclusionFee":{"min":"100","max":"200","p70":"201"}}`,
	}
	for name, result := range rpcCases {
		t.Run("rpc/"+name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":` + result + `}`))
			}))
			defer srv.Close()
			c := ledgerapi.New(ledgerapi.Options{Backends: rpcapi.Backends(map[ledger.Network]string{ledger.Testnet: srv.URL}, nil), Timeout: time.Second})
			if st, err := c.FeeStats(t.Context(), ledger.Testnet); err == nil {
				t.Fatalf("FeeStats = %+v, want unknown", st)
			}
		})
	}
}

// TestPreflightFeeAdvice: the preflight's run carries the close's bid per
// operation and the network's fee statistics, through each backend; the
// bid is low once the floor rises above it, and the verdict is the same
// either way (advice, never a blocker). Statistics that cannot be read
// leave the fee unknown and the verdict as it was.
func TestPreflightFeeAdvice(t *testing.T) {
	for _, api := range []string{"horizon", "rpc"} {
		t.Run(api, func(t *testing.T) {
			h := ledgertest.NewHandler()
			a := ledgertest.DeterministicAccount(61, 0, 1)
			h.AddAccount(a)
			dest := ledgertest.Keypair(6199).Address()
			h.Fund(dest, 100_0000000)
			c := ledgertest.InProcessClient(h, time.Second)
			if api == "rpc" {
				c = ledgertest.InProcessRPCClient(h, time.Second)
			}
			b64, _ := ledgertest.BuildTx(a.Address, 1<<32+1, 0, ledger.Testnet.Passphrase(),
				[]txnbuild.Operation{&txnbuild.BumpSequence{BumpTo: 0}, &txnbuild.AccountMerge{Destination: dest}}, a.Master)
			env, err := ledger.DecodeEnvelope(b64)
			if err != nil {
				t.Fatal(err)
			}
			r := c.Preflight(t.Context(), ledger.Testnet, a.Address, env, nil, time.Now())
			if r.Fee.Bid != 100 || !r.Fee.Known() || r.Fee.Stats.Network != 100 || r.Fee.Low() {
				t.Fatalf("fee %+v (%+v)", r.Fee, r.Fee.Stats)
			}
			state := r.State
			h.SetBaseFee(250)
			r = c.Preflight(t.Context(), ledger.Testnet, a.Address, env, nil, time.Now())
			if r.Fee.Bid != 100 || !r.Fee.Known() || r.Fee.Stats.Network != 250 || !r.Fee.Low() || r.State != state {
				t.Fatalf("under a raised floor: fee %+v (%+v), state %s (was %s)", r.Fee, r.Fee.Stats, r.State, state)
			}
			h.FailRPC("getFeeStats", 1, http.StatusInternalServerError)
			if api == "horizon" {
				c = ledgerapi.New(ledgerapi.Options{Backends: map[ledger.Network]ledgerapi.Backend{ledger.Testnet: noFees{h.Backends()[ledger.Testnet]}}, Timeout: time.Second})
			}
			r = c.Preflight(t.Context(), ledger.Testnet, a.Address, env, nil, time.Now())
			if r.Fee.Bid != 100 || r.Fee.Known() || r.Fee.Stats != nil || r.Fee.Low() || r.State != state {
				t.Fatalf("statistics unread: fee %+v, state %s (was %s)", r.Fee, r.State, state)
			}
		})
	}
}

// noFees is a Backend that reads no fee statistics.
type noFees struct{ ledgerapi.Backend }
