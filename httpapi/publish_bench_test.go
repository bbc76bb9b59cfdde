package httpapi_test

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/network"
)

// BenchmarkPublish publishes one new plan per iteration (a fresh account of
// three signers, a close signed by one) to a relay on loopback whose ledger
// API is the double in process, and reports the publish latency's p50 and
// p99: guard 6's account read and, since CONTRACT section 14, the
// preflight's reads (the offers and the destination under Horizon, one
// getLedgerEntries call under Stellar RPC). Run it with -benchtime 400x.
func BenchmarkPublish(b *testing.B) {
	for _, api := range ledgerAPIs {
		b.Run(api, func(b *testing.B) {
			r := startRelayAPI(b, api, httpapi.Options{}, 1<<20, nil)
			lat := make([]time.Duration, 0, b.N)
			for b.Loop() {
				b.StopTimer()
				acct := ledgertest.NewAccount(3, 1)
				r.Horizon.AddAccount(acct)
				r.Horizon.SetSequence(acct.Address, 0)
				x, _ := ledgertest.BuildClose(acct.Master, planDest, 1, time.Now().Add(time.Hour).Unix(), network.TestNetworkPassphrase, acct.Keys[0])
				body := `{"network":"testnet","xdr":"` + x + `"}`
				b.StartTimer()
				start := time.Now()
				res, err := r.Client.Post(r.URL+"/api/plan", "application/json", strings.NewReader(body))
				if err == nil {
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
				lat = append(lat, time.Since(start))
				if err != nil || res.StatusCode != http.StatusOK {
					b.Fatalf("publish: %v %v", res, err)
				}
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
		})
	}
}
