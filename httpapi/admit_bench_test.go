package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/network"
)

// BenchmarkSignHandler is one POST /api/plan/{id}/sign through the relay's
// whole handler (routing, body, lookup, decoding, verification, merge, the
// store's write-through, the answer), in process and without a socket, so
// that its CPU and allocations are the relay's alone (issue 27):
//
//   - new-signer: each request adds a co-signer the plan lacked, plan after
//     plan (19 co-signers of a 20-signer account each, the envelope growing
//     from 1 to 20 signatures), as the load kit's admit scenario sends them;
//   - replay: one of those partials again, a signer the plan already holds.
//
// Plans are published, and their partials built, with the timer stopped.
func BenchmarkSignHandler(b *testing.B) {
	b.Run("new-signer", func(b *testing.B) {
		r, api := benchStartHandler(b)
		var reqs []signRequest
		b.ReportAllocs()
		for b.Loop() {
			if len(reqs) == 0 {
				b.StopTimer()
				reqs = r.newSigners(b, 20)
				b.StartTimer()
			}
			serveSign(b, api, reqs[0])
			reqs = reqs[1:]
		}
	})
	b.Run("replay", func(b *testing.B) {
		r, api := benchStartHandler(b)
		reqs := r.newSigners(b, 1)
		for _, q := range reqs {
			serveSign(b, api, q)
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			serveSign(b, api, reqs[i%len(reqs)])
			i++
		}
	})
}

// signRequest is one sign request's path and body.
type signRequest struct{ path, body string }

// newSigners publishes n plans and returns every co-signer's partial of
// each, plan after plan.
func (r *benchRelay) newSigners(b *testing.B, n int) []signRequest {
	var out []signRequest
	for range n {
		p := r.publish(b)
		for i := range len(p.acct.Keys) - 1 {
			x, _ := ledgertest.BuildClose(p.acct.Keys[len(p.acct.Keys)-1], r.dest, p.seq, 0,
				network.TestNetworkPassphrase, p.acct.Keys[i])
			// As the load kit sends it: the xdr alone.
			out = append(out, signRequest{"/api/plan/" + p.id + "/sign", `{"xdr":"` + x + `"}`})
		}
	}
	return out
}

// benchStartHandler is benchStartRelay with room for as many plans as a
// run publishes, and the relay's handler.
func benchStartHandler(b *testing.B) (*benchRelay, http.Handler) {
	b.Helper()
	tr := startRelay(b, httpapi.Options{}, 1<<20, nil)
	return &benchRelay{url: tr.URL, horizon: tr.Horizon, dest: planDest, client: tr.Client}, tr.API
}

func serveSign(b *testing.B, api http.Handler, q signRequest) {
	req := httptest.NewRequest(http.MethodPost, q.path, strings.NewReader(q.body))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = "127.0.0.1:40000"
	rec := httptest.NewRecorder()
	api.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		b.Fatalf("sign: %d %s", rec.Code, rec.Body)
	}
}
