package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

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
// Besides the wall time it reports cpu-ns/op, the process's CPU time (user
// and system, every goroutine's: the plan's loop, the collector) per
// request: on a machine shared with other work the wall time counts the
// waits for a core, the CPU time much less so.
func BenchmarkSignHandler(b *testing.B) {
	b.Run("new-signer", func(b *testing.B) {
		r, api := benchStartHandler(b)
		var reqs []signRequest
		var cpu processCPU
		b.ReportAllocs()
		cpu.begin()
		for b.Loop() {
			if len(reqs) == 0 {
				b.StopTimer()
				cpu.pause()
				reqs = r.newSigners(b, 20)
				cpu.resume()
				b.StartTimer()
			}
			serveSign(b, api, reqs[0])
			reqs = reqs[1:]
		}
		cpu.report(b)
	})
	b.Run("replay", func(b *testing.B) {
		r, api := benchStartHandler(b)
		reqs := r.newSigners(b, 1)
		for _, q := range reqs {
			serveSign(b, api, q)
		}
		var cpu processCPU
		b.ReportAllocs()
		i := 0
		cpu.begin()
		for b.Loop() {
			serveSign(b, api, reqs[i%len(reqs)])
			i++
		}
		cpu.report(b)
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

// processCPU is the process's CPU time over a benchmark's timed parts.
type processCPU struct {
	start, paused time.Duration
	excluded      time.Duration
	started       bool
}

func processTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func (c *processCPU) begin()  { c.started, c.start = true, processTime() }
func (c *processCPU) pause()  { c.paused = processTime() }
func (c *processCPU) resume() { c.excluded += processTime() - c.paused }

// report adds cpu-ns/op; call it once the loop is done.
func (c *processCPU) report(b *testing.B) {
	if !c.started || b.N == 0 {
		return
	}
	b.ReportMetric(float64(processTime()-c.start-c.excluded)/float64(b.N), "cpu-ns/op")
}
