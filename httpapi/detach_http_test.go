package httpapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/internal/syncbuf"
)

// An event stream's connection is taken over from net/http once its headers
// are on the wire (bounds.Detach), to hold less memory while it idles. These
// tests read the raw bytes of streams, so that the take-over shows nowhere on
// the wire: the same headers, the same chunks, the same end, the same
// keep-alive connection after it.

// streamHead is the head of every event stream's response as net/http writes
// it, the Date masked.
const streamHead = "HTTP/1.1 200 OK\r\n" +
	"Cache-Control: no-store\r\n" +
	"Connection: keep-alive\r\n" +
	"Content-Type: text/event-stream\r\n" +
	"X-Accel-Buffering: no\r\n" +
	"Date: *\r\n" +
	"Transfer-Encoding: chunked\r\n" +
	"\r\n"

var dateLine = regexp.MustCompile(`(?m)^Date: [^\r]*\r$`)

// rawStream is a stream read byte by byte from its connection.
type rawStream struct {
	conn net.Conn
	br   *bufio.Reader
}

// openRawStream sends GET .../events with the extra header lines on conn
// and checks the response head.
func openRawStream(t *testing.T, conn net.Conn, host, id, extra string) *rawStream {
	t.Helper()
	go func() {
		_, _ = io.WriteString(conn, "GET /api/plan/"+id+"/events HTTP/1.1\r\nHost: "+host+"\r\n"+extra+"\r\n")
	}()
	s := &rawStream{conn: conn, br: bufio.NewReader(conn)}
	var head strings.Builder
	for !strings.HasSuffix(head.String(), "\r\n\r\n") {
		line, err := s.br.ReadString('\n')
		if err != nil {
			t.Fatalf("response head: %q, %v", head.String(), err)
		}
		head.WriteString(line)
	}
	if got := dateLine.ReplaceAllString(head.String(), "Date: *\r"); got != streamHead {
		t.Fatalf("response head:\n%q\nwant\n%q", got, streamHead)
	}
	return s
}

// chunk reads one chunk of the body: its size line, its data and its CRLF,
// exactly; the last chunk ("0\r\n\r\n", no trailer) reads as "".
func (s *rawStream) chunk(t *testing.T) string {
	t.Helper()
	line, err := s.br.ReadString('\n')
	if err != nil {
		t.Fatalf("chunk size line: %q, %v", line, err)
	}
	size, err := strconv.ParseUint(strings.TrimSuffix(line, "\r\n"), 16, 32)
	if err != nil || !strings.HasSuffix(line, "\r\n") || line != strconv.FormatUint(size, 16)+"\r\n" {
		t.Fatalf("chunk size line %q", line)
	}
	data := make([]byte, size+2)
	if _, err := io.ReadFull(s.br, data); err != nil {
		t.Fatalf("chunk of %d bytes: %v", size, err)
	}
	if !bytes.HasSuffix(data, []byte("\r\n")) {
		t.Fatalf("chunk %q does not end with CRLF", data)
	}
	return string(data[:size])
}

// stateEvent checks that chunk is one whole state event of version.
func stateEvent(t *testing.T, chunk string, version int) {
	t.Helper()
	prefix := "id: " + strconv.Itoa(version) + "\ndata: "
	if !strings.HasPrefix(chunk, prefix) || !strings.HasSuffix(chunk, "}\n\n") || strings.Count(chunk, "\n") != 3 {
		t.Fatalf("chunk %q, want one state event of version %d", chunk, version)
	}
	var d struct{ ID string }
	if err := json.Unmarshal([]byte(chunk[len(prefix):]), &d); err != nil || d.ID == "" {
		t.Fatalf("event data %q: %v", chunk[len(prefix):], err)
	}
}

// closed reports whether the server ended the connection: nothing more
// comes but its end.
func (s *rawStream) closed() bool {
	_, err := s.br.ReadByte()
	return err == io.EOF
}

// TestSSEWireBytes runs a stream from its first line to the plan's expiry
// in fake time: the head, `retry: 2000` as the first chunk, the current
// state at once, a heartbeat after each 25 quiet seconds, one event per change,
// `event: expired` and the last chunk, each event one chunk; then the
// keep-alive connection answers the next request, as net/http's own end of
// a response leaves it. (The same test passes on the tree before the
// take-over.)
func TestSSEWireBytes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startBubbleRelay()
		f := sseNewFixture(2, time.Now().Add(2*time.Minute).Unix()) // expiry in 1 min
		r.Horizon.AddAccount(f.acct)
		ssePublish(t, r.Client, r.Base, f.signed(f.acct.Keys[0]))
		conn, err := r.Dial(context.Background(), "tcp", "relay.test")
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()

		s := openRawStream(t, conn, "relay.test", f.id, "")
		if got := s.chunk(t); got != "retry: 2000\n\n" {
			t.Fatalf("first chunk %q, want the retry line", got)
		}
		stateEvent(t, s.chunk(t), 1)
		start := time.Now()
		if got := s.chunk(t); got != ": ping\n\n" || time.Since(start) != 25*time.Second {
			t.Fatalf("chunk %q after %v, want a ping after 25 s", got, time.Since(start))
		}
		sseSign(t, r.Client, r.Base, f.id, f.signed(f.acct.Keys[1]))
		stateEvent(t, s.chunk(t), 2)
		if got := s.chunk(t); got != ": ping\n\n" || time.Since(start) != 50*time.Second {
			t.Fatalf("chunk %q after %v, want a ping 25 s after the last event", got, time.Since(start))
		}
		if got, want := s.chunk(t), "event: expired\ndata: {\"id\":\""+f.id+"\"}\n\n"; got != want {
			t.Fatalf("chunk %q, want %q", got, want)
		}
		if got := s.chunk(t); got != "" {
			t.Fatalf("chunk %q, want the last chunk", got)
		}
		if time.Since(start) != time.Minute {
			t.Errorf("the stream ended %v after the first event, want 1 min (the expiry)", time.Since(start))
		}

		// The connection is kept, for a request much later, as net/http
		// keeps it (120 s idle).
		time.Sleep(justUnderIdle)
		go func() { _, _ = io.WriteString(conn, "GET /api/plan/"+f.id+" HTTP/1.1\r\nHost: relay.test\r\n\r\n") }()
		res, err := http.ReadResponse(s.br, nil)
		if err != nil {
			t.Fatalf("a request on the stream's connection after its end: %v", err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("GET of the expired plan = %d, want 404", res.StatusCode)
		}
		r.Stop(t)
	})
}

// justUnderIdle is a wait just under the API's 120 s idle bound.
const justUnderIdle = 119 * time.Second

// TestSSEKeptConnectionIdleBound: after a stream's end the connection waits
// for its next request exactly as long as any idle keep-alive connection
// (120 s), then closes; and a client that asked for Connection: close gets
// the end of the connection right after the last chunk.
func TestSSEKeptConnectionIdleBound(t *testing.T) {
	for _, tc := range []struct {
		name  string
		extra string
		idle  time.Duration // how long the connection stays after the end
	}{
		{"keep-alive", "", 120 * time.Second},
		{"Connection: close", "Connection: close\r\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := startBubbleRelay()
				f := sseNewFixture(1, time.Now().Add(2*time.Minute).Unix())
				r.Horizon.AddAccount(f.acct)
				ssePublish(t, r.Client, r.Base, f.signed(f.acct.Keys[0]))
				conn, err := r.Dial(context.Background(), "tcp", "relay.test")
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				go func() {
					_, _ = io.WriteString(conn, "GET /api/plan/"+f.id+"/events HTTP/1.1\r\nHost: relay.test\r\n"+tc.extra+"\r\n")
				}()
				br := bufio.NewReader(conn)
				res, err := http.ReadResponse(br, nil)
				if err != nil {
					t.Fatal(err)
				}
				if res.Close != (tc.extra != "") {
					t.Errorf("Connection: close in the answer: %v, want it only when the client asked for it", res.Close)
				}
				body, err := io.ReadAll(res.Body) // to the last chunk, at expiry
				if err != nil || !bytes.HasSuffix(body, []byte("event: expired\ndata: {\"id\":\""+f.id+"\"}\n\n")) {
					t.Fatalf("body %q, %v; want the events up to expired, then a clean end", body, err)
				}
				ended := time.Now()
				if _, err := br.ReadByte(); err != io.EOF {
					t.Fatalf("after the stream: %v, want the connection's end", err)
				}
				if got := time.Since(ended); got != tc.idle {
					t.Errorf("connection closed %v after the stream's end, want %v", got, tc.idle)
				}
				r.Stop(t)
			})
		})
	}
}

// TestSSEDrainLongAfterTheLastWrite: a drain that comes more than the 15 s
// write bound after a stream's last write (heartbeats are 25 s apart) still
// ends the stream with its last chunk, a clean end. Before the take-over
// the stale write deadline failed that last write and the client saw the
// connection cut mid-body.
func TestSSEDrainLongAfterTheLastWrite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startBubbleRelay()
		f := sseNewFixture(1, 0)
		r.Horizon.AddAccount(f.acct)
		ssePublish(t, r.Client, r.Base, f.signed(f.acct.Keys[0]))
		s := sseOpen(t, r.Client, r.Base, f.id, nil)
		sseCheckState(t, s.next(t, time.Second), f, 1, f.acct.Keys[0])
		time.Sleep(20 * time.Second)
		r.API.Drain()
		s.end(t, time.Second)
		r.Stop(t)
	})
}

// TestSSEStreamOverTCP: on a real socket, 50 streams of one plan get the
// head and one chunk per event, and a drain ends every stream with its last
// chunk and then its connection.
func TestSSEStreamOverTCP(t *testing.T) {
	r := sseStart(t, httpapi.Options{})
	f := sseNewFixture(2, 0)
	r.Horizon.AddAccount(f.acct)
	ssePublish(t, r.Client, r.URL, f.signed(f.acct.Keys[0]))
	addr := strings.TrimPrefix(r.URL, "http://")
	dial := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetDeadline(time.Now().Add(time.Minute)) // a hang guard, not a measure
		t.Cleanup(func() { c.Close() })
		return c
	}
	var streams []*rawStream
	for range actor.DefaultMaxSubscribers {
		s := openRawStream(t, dial(), addr, f.id, "")
		if got := s.chunk(t); got != "retry: 2000\n\n" {
			t.Fatalf("first chunk %q", got)
		}
		stateEvent(t, s.chunk(t), 1)
		streams = append(streams, s)
	}
	sseSign(t, r.Client, r.URL, f.id, f.signed(f.acct.Keys[1]))
	for _, s := range streams {
		stateEvent(t, s.chunk(t), 2)
	}

	r.API.Drain()
	for _, s := range streams {
		if got := s.chunk(t); got != "" {
			t.Fatalf("chunk %q at the drain, want the last chunk", got)
		}
	}
	r.Stop(t)
	for i, s := range streams {
		if !s.closed() {
			t.Fatalf("stream %d: the connection is still open after the relay stopped", i)
		}
	}
}

// TestSSERequestLogAtTheEnd: a stream's request line is written when the
// stream ends, with its whole duration, as for any request.
func TestSSERequestLogAtTheEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs syncbuf.Buffer
		r := startBubbleRelay(httpapi.Options{Log: slog.New(slog.NewJSONHandler(&logs, nil))})
		f := sseNewFixture(1, time.Now().Add(2*time.Minute).Unix()) // expiry in 1 min
		r.Horizon.AddAccount(f.acct)
		ssePublish(t, r.Client, r.Base, f.signed(f.acct.Keys[0]))
		s := sseOpen(t, r.Client, r.Base, f.id, nil)
		s.next(t, time.Second)
		streamLines := func() []map[string]any {
			var out []map[string]any
			for line := range strings.Lines(logs.String()) {
				var m map[string]any
				if json.Unmarshal([]byte(line), &m) == nil && m["msg"] == "request" && m["route"] == "/api/plan/:id/events" {
					out = append(out, m)
				}
			}
			return out
		}
		time.Sleep(30 * time.Second)
		synctest.Wait()
		if got := streamLines(); len(got) != 0 {
			t.Fatalf("request line before the stream ended: %v", got)
		}
		time.Sleep(30 * time.Second) // the expiry
		if ev := s.next(t, time.Second); ev.Type != "expired" {
			t.Fatalf("event %+v, want expired", ev)
		}
		s.end(t, time.Second)
		synctest.Wait()
		got := streamLines()
		if len(got) != 1 {
			t.Fatalf("request lines of the stream: %v, want 1", got)
		}
		if got[0]["status"] != float64(200) || got[0]["method"] != "GET" || got[0]["client_ip"] == "" ||
			got[0]["duration"] != float64(time.Minute) {
			t.Errorf("request line %v, want GET, status 200, a client IP and the stream's minute", got[0])
		}
		r.Stop(t)
	})
}

// TestSSELeaverFreesItsSlotAtOnce: at the 50-subscriber cap a 51st is
// refused 503 until one of the 50 leaves; the leaver's slot is free as soon
// as the relay has read the end of its connection, before any write to it.
func TestSSELeaverFreesItsSlotAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startBubbleRelay()
		f := sseNewFixture(1, 0)
		r.Horizon.AddAccount(f.acct)
		ssePublish(t, r.Client, r.Base, f.signed(f.acct.Keys[0]))
		var streams []*rawStream
		for range actor.DefaultMaxSubscribers {
			conn, err := r.Dial(context.Background(), "tcp", "relay.test")
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			s := openRawStream(t, conn, "relay.test", f.id, "")
			s.chunk(t)
			stateEvent(t, s.chunk(t), 1)
			streams = append(streams, s)
		}
		status := func() int {
			resp, cancel, err := sseOpenReq(context.Background(), r.Client, r.Base+"/api/plan/"+f.id+"/events", nil)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			cancel()
			synctest.Wait()
			return resp.StatusCode
		}
		if got := status(); got != http.StatusServiceUnavailable {
			t.Fatalf("51st subscriber: %d, want 503", got)
		}
		_ = streams[7].conn.Close()
		synctest.Wait()
		if got := status(); got != http.StatusOK {
			t.Fatalf("51st subscriber once one left: %d, want 200", got)
		}
		r.Stop(t)
	})
}

// TestSSEStopCutsAStalledStream: at shutdown every stream ends; one whose
// client stopped reading cannot take its last chunk, so the drain cuts it
// at SHUTDOWN_TIMEOUT and the log counts it, while a reading client's
// stream ends cleanly and is not counted.
func TestSSEStopCutsAStalledStream(t *testing.T) {
	for _, stalled := range []bool{false, true} {
		t.Run(fmt.Sprintf("stalled=%v", stalled), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var logs syncbuf.Buffer
				r := startBubbleRelay(httpapi.Options{Log: slog.New(slog.NewJSONHandler(&logs, nil))})
				f := sseNewFixture(1, 0)
				r.Horizon.AddAccount(f.acct)
				ssePublish(t, r.Client, r.Base, f.signed(f.acct.Keys[0]))
				conn, err := r.Dial(context.Background(), "tcp", "relay.test")
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				s := openRawStream(t, conn, "relay.test", f.id, "")
				s.chunk(t)
				stateEvent(t, s.chunk(t), 1)
				ended := make(chan string, 1)
				if !stalled {
					go func() { ended <- s.chunk(t) }()
				}
				start := time.Now()
				r.Stop(t)
				took := time.Since(start)
				var cut any
				for line := range strings.Lines(logs.String()) {
					var m map[string]any
					if json.Unmarshal([]byte(line), &m) == nil && m["msg"] == "drain cut connections" {
						cut = m["cut"]
					}
				}
				if stalled {
					if cut != float64(1) || took != 10*time.Second {
						t.Errorf("stop took %v and cut %v; want the 10 s SHUTDOWN_TIMEOUT and 1 cut", took, cut)
					}
					if !s.closed() {
						t.Error("the stalled stream's connection is still open")
					}
					return
				}
				if got := <-ended; got != "" || cut != float64(0) || took >= time.Second {
					t.Errorf("chunk %q at the stop, which took %v and cut %v; want the last chunk, no cut, well within the timeout", got, took, cut)
				}
			})
		})
	}
}

// TestSSEEveryRequestShapeDetached: a GET on the stream is a stream
// whatever the request carries (CONTRACT section 9, round 3): a body (by
// length or in chunks), HTTP/1.0 (sent unchunked, ended by the connection's
// end) or Connection: close. Each is taken over from net/http like a plain
// one, so that it holds the same memory, and its client's end frees its
// subscriber slot at once, before any heartbeat is due. Before, a body or
// HTTP/1.0 kept the stream inside net/http (about 30 KiB instead of 14), and
// with a body a closed client held its slot until heartbeats failed.
func TestSSEEveryRequestShapeDetached(t *testing.T) {
	for _, tc := range []struct{ name, proto, extra string }{
		{"plain", "HTTP/1.1", ""},
		{"Content-Length: 1", "HTTP/1.1", "Content-Length: 1\r\n\r\nx"},
		{"chunked body", "HTTP/1.1", "Transfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n"},
		{"Connection: close", "HTTP/1.1", "Connection: close\r\n\r\n"},
		{"HTTP/1.0", "HTTP/1.0", ""},
		{"HTTP/1.0 keep-alive with a body", "HTTP/1.0", "Connection: keep-alive\r\nContent-Length: 1\r\n\r\nx"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := startBubbleRelay()
				f := sseNewFixture(1, 0)
				r.Horizon.AddAccount(f.acct)
				ssePublish(t, r.Client, r.Base, f.signed(f.acct.Keys[0]))
				conn, err := r.Dial(context.Background(), "tcp", "relay.test")
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				req := "GET /api/plan/" + f.id + "/events " + tc.proto + "\r\nHost: relay.test\r\n" + tc.extra
				if tc.extra == "" {
					req += "\r\n"
				}
				go func() { _, _ = io.WriteString(conn, req) }()
				res, err := http.ReadResponse(bufio.NewReader(conn), nil)
				if err != nil {
					t.Fatal(err)
				}
				if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
					t.Fatalf("answer %d %q, want the stream", res.StatusCode, res.Header.Get("Content-Type"))
				}
				if chunked := len(res.TransferEncoding) > 0; chunked != (tc.proto == "HTTP/1.1") {
					t.Errorf("chunked %v to %s", chunked, tc.proto)
				}
				body := bufio.NewReader(res.Body)
				var got strings.Builder
				for !strings.Contains(got.String(), "}\n\n") {
					line, err := body.ReadString('\n')
					got.WriteString(line)
					if err != nil {
						t.Fatalf("stream %q: %v", got.String(), err)
					}
				}
				if !strings.HasPrefix(got.String(), "retry: 2000\n\nid: 1\ndata: {") {
					t.Fatalf("stream %q, want the retry line, then the state", got.String())
				}
				synctest.Wait()
				if n := r.relay.DetachedStreams(); n != 1 {
					t.Errorf("detached streams = %d, want 1: the stream stays inside net/http", n)
				}
				subscribers := func() float64 {
					return metricValue(t, r.relay.Metrics, "closerelay_stream_subscribers")
				}
				if n := subscribers(); n != 1 {
					t.Fatalf("subscribers = %v, want 1", n)
				}
				start := time.Now()
				conn.Close()
				synctest.Wait()
				if n := subscribers(); n != 0 || time.Since(start) != 0 {
					t.Errorf("subscribers = %v %v after the client left, want 0 at once", n, time.Since(start))
				}
				if n := r.relay.DetachedStreams(); n != 0 {
					t.Errorf("detached streams = %d after the client left, want 0", n)
				}
				r.Stop(t)
			})
		})
	}
}

// TestSSEBodyNeverSent: a stream request that declares a body and does not
// send it takes no subscriber slot while the body is awaited; a client
// that leaves meanwhile holds nothing, and one that stays is answered 408
// at the body bound (10 s), in the stream's plain text. Before, the stream
// began at once, unread body and all, and a closed client kept its slot
// until heartbeats failed (48 s under load).
func TestSSEBodyNeverSent(t *testing.T) {
	for _, leave := range []bool{true, false} {
		t.Run(fmt.Sprintf("leave=%v", leave), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := startBubbleRelay()
				f := sseNewFixture(1, 0)
				r.Horizon.AddAccount(f.acct)
				ssePublish(t, r.Client, r.Base, f.signed(f.acct.Keys[0]))
				conn, err := r.Dial(context.Background(), "tcp", "relay.test")
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				go func() {
					_, _ = io.WriteString(conn, "GET /api/plan/"+f.id+"/events HTTP/1.1\r\nHost: relay.test\r\nContent-Length: 5\r\n\r\nab")
				}()
				subscribers := func() float64 {
					return metricValue(t, r.relay.Metrics, "closerelay_stream_subscribers")
				}
				synctest.Wait()
				if n := subscribers(); n != 0 {
					t.Fatalf("subscribers = %v while the body is awaited, want 0", n)
				}
				if leave {
					conn.Close()
					synctest.Wait()
					if n, d := subscribers(), r.relay.DetachedStreams(); n != 0 || d != 0 {
						t.Errorf("subscribers = %v, detached = %d after the client left, want none", n, d)
					}
					r.Stop(t)
					return
				}
				start := time.Now()
				res, err := http.ReadResponse(bufio.NewReader(conn), nil)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(res.Body)
				if res.StatusCode != http.StatusRequestTimeout || time.Since(start) != 10*time.Second ||
					!strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") || !res.Close {
					t.Errorf("answer %d %q %q after %v (close %v), want a plain-text 408 at 10 s and the connection's end",
						res.StatusCode, res.Header.Get("Content-Type"), b, time.Since(start), res.Close)
				}
				if n := subscribers(); n != 0 {
					t.Errorf("subscribers = %v, want 0", n)
				}
				r.Stop(t)
			})
		})
	}
}

// TestSSEBodyTooLarge: a stream request whose body is above the bound of
// every body is refused 413 in the stream's plain text, by its length or,
// in chunks, once the bound is passed (the OpenAPI document lists both).
func TestSSEBodyTooLarge(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startBubbleRelay()
		f := sseNewFixture(1, 0)
		r.Horizon.AddAccount(f.acct)
		ssePublish(t, r.Client, r.Base, f.signed(f.acct.Keys[0]))
		big := strings.Repeat("x", httpapi.MaxBodyBytes+1)
		for _, body := range []io.Reader{strings.NewReader(big), io.MultiReader(strings.NewReader(big))} {
			res := send(t, r.Client, http.MethodGet, r.Base+"/api/plan/"+f.id+"/events", body, nil)
			if res.status != http.StatusRequestEntityTooLarge || string(res.body) != "request body is larger than 16384 bytes" {
				t.Errorf("answer %d %q, want 413", res.status, res.body)
			}
		}
		r.Stop(t)
	})
}
