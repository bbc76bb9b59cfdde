package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/ledger/ledgertest"
)

// TestPageSaysTheBalanceRead: the plan page says how much the close sends,
// from the native balance the publish's preflight read (issue 26), under
// both ledger APIs, and still after a new version of the plan.
func TestPageSaysTheBalanceRead(t *testing.T) { eachLedgerAPI(t, testPageSaysTheBalanceRead) }

func testPageSaysTheBalanceRead(t *testing.T, api string) {
	r := startRelayAPI(t, api, httpapi.Options{}, 0, nil)
	acc := ledgertest.NewAccount(2, 1)
	r.Horizon.AddAccount(acc)
	if !r.Horizon.SetBalance(acc.Address, 1234_5670000) {
		t.Fatal("the double refused the balance")
	}
	unsigned, hash := ledgertest.BuildClose(acc.Master, planDest, rdSeq, time.Now().Add(time.Hour).Unix(), rdPass)
	id := planWantPublished(t, sbPublish(t, r.Client, r.URL, ledgertest.SignXDR(unsigned, rdPass, acc.Keys[0]), nil), hash)

	// 1,234.567 XLM less the 0.00001 XLM fee.
	want := "<strong>1234.56699 XLM</strong>: the balance of 1234.567 XLM read from the ledger at "
	for _, step := range []string{"at publish", "after a sign"} {
		res := send(t, r.Client, http.MethodGet, r.URL+"/plan/"+id, nil, nil)
		if res.status != http.StatusOK || !strings.Contains(string(res.body), want) {
			t.Fatalf("%s: %d, the page does not say %q", step, res.status, want)
		}
		if step == "at publish" {
			if s := send(t, r.Client, http.MethodPost, r.URL+"/api/plan/"+id+"/sign", strings.NewReader(jsonBody(t, map[string]string{"xdr": ledgertest.SignXDR(unsigned, rdPass, acc.Keys[1])})), nil); s.status != http.StatusOK {
				t.Fatalf("sign: %d %s", s.status, s.body)
			}
		}
	}
}
