package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi/bounds"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
)

// The tests in this file run a relay from Start on real loopback sockets:
// what they check (a reset that destroys an answer already sent) happens in
// the kernel's TCP stack, which an in-memory pipe does not have. Before the
// lingering close, a Go client sending 1 MiB got "connection reset by peer"
// instead of its 413 in most runs.

// tcpRelay is a relay from Start on two loopback listeners.
type tcpRelay struct {
	api, ops string // base URLs
}

func startTCPRelay(t *testing.T, env map[string]string) tcpRelay {
	t.Helper()
	h := ledgertest.NewHandler()
	h.AddAccount(ledgertest.NewAccount(2, 1))
	full := map[string]string{"MEDIATOR_SECRET": keypair.MustRandom().Seed(), "SHUTDOWN_TIMEOUT": "5s"}
	for k, v := range env {
		full[k] = v
	}
	cfg, err := ParseEnv(envOf(full))
	if err != nil {
		t.Fatal(err)
	}
	apiLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	opsLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg.HorizonTimeout = 5 * time.Second
	rel, err := Start(Options{
		Config: cfg, Listener: apiLn, OpsListener: opsLn,
		Ledger: h.Backends(),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := rel.Stop(); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	return tcpRelay{api: "http://" + apiLn.Addr().String(), ops: "http://" + opsLn.Addr().String()}
}

// postBody sends body with Go's client (Content-Length set) and returns the
// answer's status and error code, or the transport's error.
func postBody(client *http.Client, url string, body []byte) (int, string, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return res.StatusCode, "", err
	}
	var e struct{ Code string }
	_ = json.Unmarshal(b, &e)
	return res.StatusCode, e.Code, nil
}

// TestOversizedBodiesGet413NotAReset: 1 MiB and 8 MiB bodies, 50 times each,
// to every POST route: every one is answered 413 PAYLOAD_TOO_LARGE, none
// ends in a reset.
func TestOversizedBodiesGet413NotAReset(t *testing.T) {
	r := startTCPRelay(t, map[string]string{"RATE_LIMITS": "off"})
	client := &http.Client{Timeout: time.Minute} // a hang guard, not a measure
	unknown := strings.Repeat("ab", 32)
	routes := []string{"/api/plan", "/api/plan/" + unknown + "/sign", "/api/mediator/sign"}
	for _, size := range []int{1 << 20, 8 << 20} {
		body := bytes.Repeat([]byte("A"), size)
		copy(body, `{"xdr":"`)
		for _, route := range routes {
			failed := 0
			for i := range 50 {
				status, code, err := postBody(client, r.api+route, body)
				if err != nil || status != http.StatusRequestEntityTooLarge || code != "PAYLOAD_TOO_LARGE" {
					failed++
					if failed <= 3 {
						t.Errorf("POST %s, %d bytes, try %d: %d %s %v; want 413 PAYLOAD_TOO_LARGE", route, size, i, status, code, err)
					}
				}
			}
			if failed > 0 {
				t.Errorf("POST %s, %d bytes: %d of 50 without their 413", route, size, failed)
			}
		}
	}
}

// TestAnswersWithoutTheBodyReachAClientStillSending: the other answers that
// leave a large body unread (429, 404, 405, and the ops listener's) reach a
// Go client that is still writing 8 MiB, on both listeners.
func TestAnswersWithoutTheBodyReachAClientStillSending(t *testing.T) {
	r := startTCPRelay(t, nil)
	client := &http.Client{Timeout: time.Minute} // a hang guard, not a measure
	big := bytes.Repeat([]byte("A"), 8<<20)
	// Spend the publish quota (10 per 60 s) with small refused publishes.
	for range 10 {
		if status, code, err := postBody(client, r.api+"/api/plan", []byte(`{}`)); err != nil || code != "BAD_XDR" {
			t.Fatalf("spending the quota: %d %s %v", status, code, err)
		}
	}
	for _, tc := range []struct {
		name, method, url string
		status            int
		code              string
	}{
		{"throttled", http.MethodPost, r.api + "/api/plan", http.StatusTooManyRequests, "RATE_LIMITED"},
		{"unknown route", http.MethodPost, r.api + "/api/nothing", http.StatusNotFound, "NOT_FOUND"},
		{"method", http.MethodPut, r.api + "/api/mediator/sign", http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED"},
		{"ops", http.MethodPost, r.ops + "/metrics", http.StatusMethodNotAllowed, ""},
	} {
		for i := range 10 {
			req, err := http.NewRequest(tc.method, tc.url, bytes.NewReader(big))
			if err != nil {
				t.Fatal(err)
			}
			res, err := client.Do(req)
			if err != nil {
				t.Fatalf("%s, try %d: %v; want %d", tc.name, i, err, tc.status)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			var e struct{ Code string }
			_ = json.Unmarshal(b, &e)
			if res.StatusCode != tc.status || e.Code != tc.code {
				t.Fatalf("%s, try %d: %d %.100s; want %d %s", tc.name, i, res.StatusCode, b, tc.status, tc.code)
			}
		}
	}
}

// TestLingerIsBounded: after the 413, a client that trickles the rest of its
// body is cut off once the drain grace has passed, and one that floods is
// cut off after LingerBytes; neither is read to its end.
func TestLingerIsBounded(t *testing.T) {
	r := startTCPRelay(t, map[string]string{"RATE_LIMITS": "off"})
	addr := strings.TrimPrefix(r.api, "http://")
	const length = 256 << 20 // far more than either bound lets through
	for _, tc := range []struct {
		name  string
		chunk int
		pause time.Duration
	}{
		// 1 KiB every 10 ms would take about 45 minutes.
		{"trickle", 1 << 10, 10 * time.Millisecond},
		// At loopback speed the byte bound comes long before the grace.
		{"flood", 1 << 20, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			_ = c.SetDeadline(time.Now().Add(time.Minute)) // a hang guard, not a measure
			head := "POST /api/plan HTTP/1.1\r\nHost: relay.test\r\nContent-Type: application/json\r\n" +
				"Content-Length: " + strconv.Itoa(length) + "\r\n\r\n"
			if _, err := io.WriteString(c, head); err != nil {
				t.Fatal(err)
			}
			answered := make(chan int, 1)
			go func() {
				res, err := http.ReadResponse(bufio.NewReader(c), nil)
				if err != nil {
					answered <- 0
					return
				}
				res.Body.Close()
				answered <- res.StatusCode
			}()
			chunk := bytes.Repeat([]byte("A"), tc.chunk)
			sent := 0
			for sent < length {
				n, err := c.Write(chunk)
				sent += n
				if err != nil {
					if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, net.ErrClosed) {
						t.Fatalf("write: %v", err)
					}
					break // the relay closed the connection
				}
				if tc.pause > 0 {
					time.Sleep(tc.pause)
				}
			}
			if sent >= length {
				t.Fatalf("the relay read all %d bytes of a body it had refused", sent)
			}
			if got := <-answered; got != http.StatusRequestEntityTooLarge {
				t.Errorf("answer %d, want 413", got)
			}
			if tc.pause == 0 && sent > bounds.LingerBytes+64<<20 {
				t.Errorf("sent %d bytes before the cut; the bound is %d plus the socket buffers", sent, bounds.LingerBytes)
			}
		})
	}
}

// TestLingerLetsAClientFinishWritingBeforeItReads: many clients write their
// whole request before they read (a form post, a script), and a body bigger
// than the sockets' buffers cannot be written unless the relay goes on
// reading after its 413. Half-closing and then pausing without reading, as
// net/http alone does, ends in a reset and the client never reads the 413.
func TestLingerLetsAClientFinishWritingBeforeItReads(t *testing.T) {
	r := startTCPRelay(t, map[string]string{"RATE_LIMITS": "off"})
	addr := strings.TrimPrefix(r.api, "http://")
	const length = 24 << 20 // more than loopback's buffers, less than LingerBytes
	body := bytes.Repeat([]byte("A"), length)
	for i := range 5 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetDeadline(time.Now().Add(time.Minute)) // a hang guard, not a measure
		head := "POST /api/plan HTTP/1.1\r\nHost: relay.test\r\nContent-Type: application/json\r\n" +
			"Content-Length: " + strconv.Itoa(length) + "\r\n\r\n"
		if _, err := c.Write(append([]byte(head), body...)); err != nil {
			c.Close()
			t.Fatalf("try %d: writing the body: %v", i, err)
		}
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			c.Close()
			t.Fatalf("try %d: no answer: %v", i, err)
		}
		res.Body.Close()
		c.Close()
		if res.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("try %d: %d, want 413", i, res.StatusCode)
		}
	}
}
