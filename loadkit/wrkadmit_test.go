package loadkit_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/closerelay/closerelay/loadkit"
)

// fakeWrk writes a shell script that stands in for wrk: it records its
// arguments and environment, writes summary as SUMMARY_JSON and exits with
// code. The relay's ops listener is an httptest server whose admitted count
// grows by 3 between reads.
func fakeWrk(t *testing.T, summary string, code int) (bin, args string) {
	t.Helper()
	dir := t.TempDir()
	args = filepath.Join(dir, "args")
	bin = filepath.Join(dir, "wrk")
	script := fmt.Sprintf("#!/bin/sh\necho \"$* PAYLOAD=$PAYLOAD THREADS=$THREADS CONNECTIONS=$CONNECTIONS SEED=$SEED\" >%s\n", args)
	if summary != "" {
		script += fmt.Sprintf("printf '%%s' '%s' >\"$SUMMARY_JSON\"\n", summary)
	}
	script += fmt.Sprintf("echo wrk said something\nexit %d\n", code)
	if err := os.WriteFile(bin, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return bin, args
}

func opsServer(t *testing.T) *httptest.Server {
	var reads atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := reads.Add(1)
		fmt.Fprintf(w, "# TYPE closerelay_signatures_total counter\ncloserelay_signatures_total{result=\"admitted\"} %d\ncloserelay_signatures_total{result=\"duplicate\"} 0\n", 10+3*(n-1))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestRunAdmitWrk: RunAdmitWrk runs wrk with the burst's script and
// settings, takes wrk's figures and the relay's count around it, and
// refuses a run that read another payload, that failed, or whose threads
// would leave connections out.
func TestRunAdmitWrk(t *testing.T) {
	ops := opsServer(t)
	p := &loadkit.Payload{Relay: "http://127.0.0.1:1", Ops: ops.URL, Plans: []loadkit.Plan{{ID: "aa", Valid: []string{"x", "y", "z"}}}}
	good := `{"generator":"wrk","threads":2,"connections":4,"plans":1,"requests":3,"wrong":0,"seconds":0.5,"rps":6,"p50":1,"p95":2,"p99":3,"max":4,"p50Uncorrected":0.9,"p99Uncorrected":2.5,"admitted":-1}`
	bin, args := fakeWrk(t, good, 0)
	w := loadkit.WrkAdmit{Wrk: bin, Script: "admit.lua", Payload: "payload.json", Threads: 2}
	res, err := loadkit.RunAdmitWrk(context.Background(), loadkit.AdmitOptions{Payload: p, Connections: 4, Seed: 7}, w)
	if err != nil {
		t.Fatal(err)
	}
	if res.Generator != "wrk" || res.Requests != 3 || res.Admitted != 3 || res.P99 != 3 || res.P99Uncorrected != 2.5 || !res.Valid() {
		t.Fatalf("result %+v", res)
	}
	b, err := os.ReadFile(args)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(b)); got != "-t 2 -c 4 -d 60s --timeout 10s -s admit.lua http://127.0.0.1:1 PAYLOAD=payload.json THREADS=2 CONNECTIONS=4 SEED=7" {
		t.Fatalf("wrk ran as %q", got)
	}

	for _, tc := range []struct {
		name, summary string
		code, conns   int
		want          string
	}{
		{"another payload", strings.Replace(good, `"requests":3`, `"requests":2`, 1), 0, 4, "read 2 partials"},
		{"not the script's summary", strings.Replace(good, `"generator":"wrk"`, `"generator":"k6"`, 1), 0, 4, `generator "k6"`},
		{"wrk failed", good, 1, 4, "wrk said something"},
		{"no summary", "", 0, 4, "wrk wrote no summary"},
		{"threads leave connections out", good, 0, 5, "5 connections do not divide into 2 wrk threads"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin, _ := fakeWrk(t, tc.summary, tc.code)
			w.Wrk = bin
			_, err := loadkit.RunAdmitWrk(context.Background(), loadkit.AdmitOptions{Payload: p, Connections: tc.conns}, w)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}
