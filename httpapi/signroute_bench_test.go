package httpapi_test

import (
	"encoding/hex"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/network"
)

// BenchmarkSignRoute posts one co-signer's partial to POST
// /api/plan/{id}/sign on a relay on loopback, over and over: after the
// first, each is a replay that changes nothing, the most frequent sign a
// relay serves (clients retry and re-send). It measures the route's own
// cost, HTTP included, so that a change to the layers between the wire and
// the plan (httpapi, relay) shows in ns/op and allocs/op.
func BenchmarkSignRoute(b *testing.B) {
	r := startRelay(b, httpapi.Options{}, 0, nil)
	acct := ledgertest.NewAccount(3, 1)
	r.Horizon.AddAccount(acct)
	x, hash := ledgertest.BuildClose(acct.Master, planDest, 1, time.Now().Add(time.Hour).Unix(), network.TestNetworkPassphrase, acct.Keys[0])
	post := func(url, body string) {
		res, err := r.Client.Post(url, "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			b.Fatalf("%s: %d", url, res.StatusCode)
		}
	}
	post(r.URL+"/api/plan", `{"network":"testnet","xdr":"`+x+`"}`)
	url := r.URL + "/api/plan/" + hex.EncodeToString(hash[:]) + "/sign"
	body := `{"xdr":"` + ledgertest.SignXDR(x, network.TestNetworkPassphrase, acct.Keys[1]) + `"}`
	b.ReportAllocs()
	for b.Loop() {
		post(url, body)
	}
}
