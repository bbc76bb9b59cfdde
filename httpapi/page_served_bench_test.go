package httpapi_test

import (
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/network"
)

// BenchmarkPageServedAgainHTTP: the page of a 20-signature plan asked for
// again and again by one client through the relay's listener, the figure
// under issue 25's page flood: what each page served again costs the relay
// (the whole request, router, plan read and write included), measured
// apart from the flood's honest-read percentiles, which a shared machine
// moves more than the page does.
func BenchmarkPageServedAgainHTTP(b *testing.B) {
	r := startRelay(b, httpapi.Options{}, 0, nil)
	acct := ledgertest.NewAccount(20, 1)
	r.Horizon.AddAccount(acct)
	x, hash := ledgertest.BuildClose(acct.Master, planDest, 1, time.Now().Add(time.Hour).Unix(), network.TestNetworkPassphrase, acct.Keys[:20]...)
	id := fmt.Sprintf("%x", hash)
	if code, body, err := ssePost(b.Context(), r.Client, r.URL+"/api/plan", map[string]string{"network": "testnet", "xdr": x}); err != nil || code != http.StatusOK {
		b.Fatalf("publish: %d %s %v", code, body, err)
	}
	var size int64
	for b.Loop() {
		res, err := r.Client.Get(r.URL + "/plan/" + id)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			b.Fatal(res.StatusCode)
		}
		size = n
	}
	b.ReportMetric(float64(size), "page-bytes")
}
