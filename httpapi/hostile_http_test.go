package httpapi_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/metrics"
)

// The tests in this file are CONTRACT section 9's HTTP-layer bounds, each
// through a real listener; each failed on the code before them.

// TestHTTPMetricMethodLabelIsClosed: 300 requests with made-up methods add
// one "other" series, not 300 (20,000 of them grew /metrics to 169 MB).
func TestHTTPMetricMethodLabelIsClosed(t *testing.T) {
	m := metrics.New()
	r := startRelay(t, httpapi.Options{Metrics: m}, 0, nil)
	for i := range 300 {
		for _, path := range []string{"/api/plan", "/api/mediator/sign", "/nowhere/" + fmt.Sprint(i)} {
			send(t, r.Client, fmt.Sprintf("M%03d", i), r.URL+path, nil, nil)
		}
	}
	allowed := map[string]bool{"GET": true, "POST": true, "PUT": true, "PATCH": true, "DELETE": true, "HEAD": true, "OPTIONS": true, "other": true}
	series := metricSamples(t, m, httpRequestsTotal)
	for _, s := range series {
		if !allowed[s.labels["method"]] {
			t.Errorf("method label %q is the client's own text", s.labels["method"])
		}
		if strings.HasPrefix(s.labels["url"], "/nowhere") {
			t.Errorf("url label %q is the client's own path", s.labels["url"])
		}
	}
	if len(series) > 10 {
		t.Errorf("900 requests with made-up methods made %d series, want a handful", len(series))
	}
	if got := metricSum(t, m, httpRequestsTotal, "method", "other"); got != 900 {
		t.Errorf("method=\"other\" counted %v requests, want 900", got)
	}
}

// TestHTTPMetricCodeIsTheStatusWritten: a coded 4xx is recorded with its own
// status, never as 500 (which fired CloserelayHTTPServerErrors on ordinary
// client errors).
func TestHTTPMetricCodeIsTheStatusWritten(t *testing.T) {
	m := metrics.New()
	r := startRelay(t, httpapi.Options{Metrics: m, RateLimits: true}, 0, nil)
	unknown := strings.Repeat("ab", 32)
	status := func(method, path, body string) int {
		return send(t, r.Client, method, r.URL+path, strings.NewReader(body), nil).status
	}
	for _, tc := range []struct {
		method, path, body string
		status             int
		url                string
	}{
		{"GET", "/api/plan/" + unknown, "", 404, "/api/plan/:id"},
		{"GET", "/api/plan/short", "", 404, "/api/plan/:id"},
		{"POST", "/api/plan", "{}", 400, "/api/plan"},
		{"POST", "/api/plan", `{"xdr":"` + strings.Repeat("A", 17000) + `"}`, 413, "/api/plan"},
		{"PUT", "/api/mediator/sign", "", 405, "/api/mediator/sign"},
		{"GET", "/api/mediator/sign?destination=nope", "", 400, "/api/mediator/sign"},
	} {
		if got := status(tc.method, tc.path, tc.body); got != tc.status {
			t.Fatalf("%s %s: status %d, want %d", tc.method, tc.path, got, tc.status)
		}
		want := []string{"code", fmt.Sprint(tc.status), "method", tc.method, "url", tc.url}
		if got := metricSum(t, m, httpRequestsTotal, want...); got < 1 {
			t.Errorf("%s %s answered %d but no series %q counts it; have %v", tc.method, tc.path, tc.status, want, metricSamples(t, m, httpRequestsTotal))
		}
	}
	// The publish limit (10 per 60 s) answers 429 from the 11th on.
	for range 10 {
		status("POST", "/api/plan", "{}")
	}
	if got := metricSum(t, m, httpRequestsTotal, "code", "429", "url", "/api/plan"); got < 1 {
		t.Errorf("no code=\"429\" series for the throttled publishes")
	}
	if got := metricSum(t, m, httpRequestsTotal, "code", "500"); got != 0 {
		t.Errorf("%v requests recorded as 500; none was answered 500", got)
	}
}

// TestClientGoneIsNotAnError: a client that hangs up mid-request (while its
// publish waits for the account API, or half-way through its body) is no
// ERROR line, no INTERNAL or BAD_REQUEST rejection, and its HTTP metric code
// is 499.
func TestClientGoneIsNotAnError(t *testing.T) {
	for _, tc := range []struct {
		name string
		// leave sends a request and hangs up before the answer.
		leave func(t *testing.T, r *bubbleRelay)
		url   string
	}{
		{"waiting for the account API", func(t *testing.T, r *bubbleRelay) {
			f := sseNewFixture(1, time.Now().Add(time.Hour).Unix())
			r.Horizon.AddAccount(f.acct)
			r.Horizon.SetHeld(true)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() {
				defer close(done)
				_, _, err := ssePost(ctx, r.Client, r.Base+"/api/plan", map[string]string{"network": "testnet", "xdr": f.signed(f.acct.Keys[0])})
				if err == nil {
					t.Error("the publish was answered, want it still waiting")
				}
			}()
			synctest.Wait() // the publish waits on the held account API
			cancel()
			<-done
			synctest.Wait()
			r.Horizon.SetHeld(false)
		}, "/api/plan"},
		{"half-way through the body", func(t *testing.T, r *bubbleRelay) {
			c, err := r.Dial(context.Background(), "tcp", "relay.test")
			if err != nil {
				t.Fatal(err)
			}
			go func() {
				_, _ = io.WriteString(c, "POST /api/plan HTTP/1.1\r\nHost: relay.test\r\nContent-Length: 100\r\n\r\n{\"xdr\"")
			}()
			synctest.Wait()
			c.Close()
			synctest.Wait()
		}, "/api/plan"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				m := metrics.New()
				var logs bytes.Buffer
				log := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
				r := startBubbleRelay(httpapi.Options{Metrics: m, Log: log})
				tc.leave(t, r)
				r.Stop(t)

				if got := metricSum(t, m, httpRequestsTotal, "code", "499", "url", tc.url); got != 1 {
					t.Errorf("code=\"499\" counted %v, want 1; series %v", got, metricSamples(t, m, httpRequestsTotal))
				}
				for _, s := range metricSamples(t, m, rejectionsTotal) {
					if s.value != 0 {
						t.Errorf("rejection counted for a client that left: %v", s.labels)
					}
				}
				out := logs.String()
				if strings.Contains(out, `"level":"ERROR"`) {
					t.Errorf("a client that left was logged as an error:\n%s", out)
				}
				if !strings.Contains(out, `"level":"DEBUG","msg":"client gone"`) {
					t.Errorf("no debug line \"client gone\" in\n%s", out)
				}
			})
		})
	}
}

// TestHeadOnGetRoutes: HEAD answers as GET without a body (it answered 405).
func TestHeadOnGetRoutes(t *testing.T) {
	r := startRelay(t, httpapi.Options{}, 0, nil)
	f := sseNewFixture(1, time.Now().Add(time.Hour).Unix())
	r.Horizon.AddAccount(f.acct)
	ssePublish(t, r.Client, r.URL, f.signed(f.acct.Keys[0]))
	unknown := strings.Repeat("cd", 32)
	for _, tc := range []struct {
		path        string
		status      int
		contentType string
	}{
		{"/api/plan/" + f.id, 200, "application/json"},
		{"/api/plan/" + strings.ToUpper(f.id), 200, "application/json"},
		{"/api/plan/" + unknown, 404, "application/json"},
		{"/api/plan/" + f.id + "/events", 200, "text/event-stream"},
		{"/api/plan/" + unknown + "/events", 404, "text/plain"},
	} {
		res := send(t, r.Client, http.MethodHead, r.URL+tc.path, nil, nil)
		if res.status != tc.status || len(res.body) != 0 || !strings.HasPrefix(res.header.Get("Content-Type"), tc.contentType) {
			t.Errorf("HEAD %s: %d %q %q, want %d, no body, %s", tc.path, res.status, res.header.Get("Content-Type"), res.body, tc.status, tc.contentType)
		}
		if res.header.Get("Cache-Control") != "no-store" {
			t.Errorf("HEAD %s: Cache-Control %q", tc.path, res.header.Get("Cache-Control"))
		}
	}
	// The mediator route keeps SPEC's 405 for HEAD.
	res := send(t, r.Client, http.MethodHead, r.URL+"/api/mediator/sign?destination=x", nil, nil)
	if res.status != http.StatusMethodNotAllowed || res.header.Get("Allow") != "POST, GET, OPTIONS" {
		t.Errorf("HEAD /api/mediator/sign: %d Allow %q, want 405 with SPEC's Allow", res.status, res.header.Get("Allow"))
	}
}
