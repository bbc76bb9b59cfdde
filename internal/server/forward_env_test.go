package server

import (
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/plan"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// TestForwardBoundsFollowTheEnvironment: FORWARD_BUDGET and
// FORWARD_RETENTION reach the plans that Start's supervisor runs. A
// mediator close lands 10 s before its plan's signing window ends and its
// mediator can never be read, so the forward retries until its budget
// runs out: with FORWARD_BUDGET=10m status.forward says failed with
// forward_timed_out 10 minutes after the close (not the default 6 h), and
// with FORWARD_RETENTION=5m the plan is gone 5 minutes after that (not
// the default hour).
func TestForwardBoundsFollowTheEnvironment(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const budget, retention = 10 * time.Minute, 5 * time.Minute
		if budget >= actor.DefaultForwardBudget || retention >= actor.DefaultForwardRetention {
			t.Fatal("the test's bounds must be below the defaults to tell them apart")
		}
		r := startOpsRelay(t, map[string]string{"FORWARD_BUDGET": budget.String(), "FORWARD_RETENTION": retention.String()})
		const ip = "198.51.100.7"
		exchange := keypair.MustRandom().Address()
		r.horizon.Fund(exchange, 10_0000000)
		var flow struct{ FlowToken, MediatorPublicKey string }
		q := url.Values{"destination": {exchange}, "memo": {"text:deposit 5"}}
		if err := json.Unmarshal([]byte(r.must(t, ip, http.MethodGet, "/api/mediator/sign?"+q.Encode(), "", http.StatusOK, "")), &flow); err != nil {
			t.Fatal(err)
		}
		med := flow.MediatorPublicKey
		r.horizon.SetUnreadable(med, true)

		acct := ledgertest.NewAccount(0, 1)
		r.horizon.AddAccount(acct)
		r.horizon.Fund(acct.Address, 40_0000000)
		seq, _ := r.horizon.Sequence(acct.Address)
		x, hash := ledgertest.BuildTx(acct.Address, seq+1, time.Now().Add(70*time.Second).Unix(), opsPassphrase, []txnbuild.Operation{
			&txnbuild.CreateAccount{Destination: med, Amount: "2"},
			&txnbuild.AccountMerge{Destination: med},
		}, acct.Master)
		r.must(t, ip, http.MethodPost, "/api/plan", `{"network":"testnet","xdr":"`+x+`","submit":true,"flowToken":"`+flow.FlowToken+`"}`, http.StatusOK, "")
		id := hex.EncodeToString(hash[:])

		forward := func() (int, map[string]any) {
			code, body := r.do(t, ip, http.MethodGet, "/api/plan/"+id+"/status", "")
			if code != http.StatusOK {
				return code, nil
			}
			var st struct{ Forward map[string]any }
			if err := json.Unmarshal([]byte(body), &st); err != nil {
				t.Fatal(err)
			}
			return code, st.Forward
		}
		time.Sleep(budget - time.Minute)
		if code, f := forward(); code != http.StatusOK || f["state"] != "pending" {
			t.Fatalf("status a minute before FORWARD_BUDGET ends: %d %v, want pending", code, f)
		}
		time.Sleep(2 * time.Minute)
		if code, f := forward(); code != http.StatusOK || f["state"] != "failed" || f["code"] != plan.ForwardCodeTimedOut {
			t.Fatalf("status a minute past FORWARD_BUDGET: %d %v, want failed %s", code, f, plan.ForwardCodeTimedOut)
		}
		time.Sleep(retention - 2*time.Minute)
		if code, f := forward(); code != http.StatusOK || f["state"] != "failed" {
			t.Fatalf("status within FORWARD_RETENTION: %d %v, want failed", code, f)
		}
		time.Sleep(2 * time.Minute)
		if code, _ := forward(); code != http.StatusNotFound {
			t.Errorf("status past FORWARD_RETENTION: %d, want 404", code)
		}
	})
}
