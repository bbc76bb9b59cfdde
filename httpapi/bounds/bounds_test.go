package bounds_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/httpapi/bounds"
	"github.com/closerelay/closerelay/internal/memlisten"
)

// bubbleServer serves h through bounds.NewServer on an in-memory listener;
// call it inside a synctest bubble.
func bubbleServer(t *testing.T, h http.Handler, idle time.Duration) (*bounds.Server, *memlisten.Listener) {
	t.Helper()
	srv := bounds.NewServer(h, idle)
	ln := memlisten.New()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	t.Cleanup(func() {
		if _, err := srv.Drain(context.Background()); err != nil {
			t.Errorf("drain: %v", err)
		}
		if err := <-served; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("serve: %v", err)
		}
	})
	return srv, ln
}

func dial(t *testing.T, ln *memlisten.Listener) net.Conn {
	t.Helper()
	c, err := ln.Dial(context.Background(), "tcp", "x")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// send writes raw on c from a goroutine: an in-memory pipe has no buffer,
// and a server that stops reading must not block the test.
func send(c net.Conn, raw string) {
	go func() { _, _ = io.WriteString(c, raw) }()
}

// closedAfterReply reports whether the server ended the connection after the
// answer res: once its body is read, the next read sees the end of the stream.
func closedAfterReply(br *bufio.Reader, res *http.Response) bool {
	_, _ = io.Copy(io.Discard, res.Body)
	_, err := br.ReadByte()
	return err == io.EOF
}

// TestStalledBodyIsCutAfterBodyTimeout: Content-Length 100, five bytes, then
// silence. The handler's read fails at BodyTimeout after the headers (not
// before), it answers 408, and the connection closes.
func TestStalledBodyIsCutAfterBodyTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, ln := bubbleServer(t, http.HandlerFunc(echoBody), bounds.APIIdleTimeout)
		c := dial(t, ln)
		start := time.Now()
		send(c, "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nhello")
		br := bufio.NewReader(c)
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("no answer to a stalled body: %v", err)
		}
		if res.StatusCode != http.StatusRequestTimeout {
			t.Errorf("status %d, want 408", res.StatusCode)
		}
		if waited := time.Since(start); waited != bounds.BodyTimeout {
			t.Errorf("answered after %v, want exactly the body timeout %v", waited, bounds.BodyTimeout)
		}
		if !res.Close || !closedAfterReply(br, res) {
			t.Error("the connection of a too-slow sender stays open")
		}
	})
}

// TestAnswerThatNeedsNoBodyIsImmediate: a 429 (or 413 by Content-Length, 404,
// 405) is written at once with Connection: close, never after waiting for or
// draining a body that is not coming. Before the guard, net/http waited for
// the rest of the body before writing the answer.
func TestAnswerThatNeedsNoBodyIsImmediate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, ln := bubbleServer(t, http.HandlerFunc(refuseAtOnce), bounds.APIIdleTimeout)
		for _, req := range []string{
			"POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nhello",
			"POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
			"GET /x HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n",
		} {
			c := dial(t, ln)
			start := time.Now()
			send(c, req)
			br := bufio.NewReader(c)
			res, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatalf("%q: %v", req, err)
			}
			if res.StatusCode != http.StatusTooManyRequests || time.Since(start) != 0 {
				t.Errorf("%q: %d after %v, want 429 at once", req, res.StatusCode, time.Since(start))
			}
			if !res.Close || !closedAfterReply(br, res) {
				t.Errorf("%q: the connection stays open, so a body nobody reads would be drained", req)
			}
		}
	})
}

// TestReadBodyKeepsConnectionAndLiftsDeadline: a body read to its end keeps
// the connection alive, and the body deadline does not cut a handler that
// answers long after it (an event stream, a slow account API call).
func TestReadBodyKeepsConnectionAndLiftsDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, err := io.ReadAll(r.Body)
			if err != nil {
				t.Errorf("reading a whole body: %v", err)
				return
			}
			time.Sleep(3 * bounds.BodyTimeout)
			if err := r.Context().Err(); err != nil {
				t.Errorf("the request ended while its handler worked: %v", err)
			}
			fmt.Fprintf(w, "read %d bytes", len(b))
		})
		_, ln := bubbleServer(t, slow, bounds.APIIdleTimeout)
		c := dial(t, ln)
		br := bufio.NewReader(c)
		for i := range 2 {
			send(c, "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
			res, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatalf("request %d: %v", i, err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK || string(body) != "read 5 bytes" || res.Close {
				t.Fatalf("request %d: %d %q close=%v, want 200 on a kept connection", i, res.StatusCode, body, res.Close)
			}
		}
	})
}

// TestIdleConnectionsClose: keep-alive connections close after the listener's
// idle time, 120 s on the API and 30 s on ops.
func TestIdleConnectionsClose(t *testing.T) {
	for _, idle := range []time.Duration{bounds.APIIdleTimeout, bounds.OpsIdleTimeout} {
		t.Run(idle.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				_, ln := bubbleServer(t, http.HandlerFunc(echoBody), idle)
				c := dial(t, ln)
				send(c, "GET /x HTTP/1.1\r\nHost: x\r\n\r\n")
				br := bufio.NewReader(c)
				res, err := http.ReadResponse(br, nil)
				if err != nil {
					t.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				start := time.Now()
				if !closedAfterReply(br, res) {
					t.Fatal("the idle connection ended with data, not a close")
				}
				if got := time.Since(start); got != idle {
					t.Errorf("idle connection closed after %v, want %v", got, idle)
				}
			})
		})
	}
}

// TestDrainCutsWhatOutlivesIt: a client that sent half a request holds its
// connection active; the drain gives up at its deadline, cuts it, counts it
// and reports no error, so the process can still exit 0.
func TestDrainCutsWhatOutlivesIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := bounds.NewServer(http.HandlerFunc(echoBody), bounds.APIIdleTimeout)
		ln := memlisten.New()
		served := make(chan error, 1)
		go func() { served <- srv.Serve(ln) }()
		c := dial(t, ln)
		send(c, "GET /x HTTP/1.1\r\nHost: x\r\n") // headers never end
		synctest.Wait()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		start := time.Now()
		cut, err := srv.Drain(ctx)
		if err != nil || cut != 1 {
			t.Errorf("Drain = %d, %v; want 1 connection cut and no error", cut, err)
		}
		if got := time.Since(start); got != 5*time.Second {
			t.Errorf("Drain took %v, want its 5 s deadline", got)
		}
		if err := <-served; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("serve: %v", err)
		}
		if _, err := c.Read(make([]byte, 1)); err == nil {
			t.Error("the cut connection still delivers data")
		}
	})
}

// TestHeadersAbove16KiBAre431 runs on a real loopback socket: a request whose
// headers (request line and final blank line included) take 16 KiB exactly
// is served; one byte more is refused 431.
func TestHeadersAbove16KiBAre431(t *testing.T) {
	srv := bounds.NewServer(http.HandlerFunc(echoBody), bounds.APIIdleTimeout)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })

	request := func(total int) string {
		const head = "GET /x HTTP/1.1\r\nHost: x\r\nX-Pad: "
		const tail = "\r\n\r\n"
		return head + strings.Repeat("a", total-len(head)-len(tail)) + tail
	}
	for _, tc := range []struct {
		total int
		want  int
	}{
		{bounds.MaxHeaderBytes - 1, http.StatusOK},
		{bounds.MaxHeaderBytes, http.StatusOK},
		{bounds.MaxHeaderBytes + 1, http.StatusRequestHeaderFieldsTooLarge},
		{1 << 20, http.StatusRequestHeaderFieldsTooLarge},
	} {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetDeadline(time.Now().Add(time.Minute)) // a hang guard, not a measure
		go func(raw string) { _, _ = io.WriteString(c, raw) }(request(tc.total))
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("%d header bytes: %v", tc.total, err)
		}
		res.Body.Close()
		c.Close()
		if res.StatusCode != tc.want {
			t.Errorf("%d header bytes: status %d, want %d", tc.total, res.StatusCode, tc.want)
		}
	}
}
