package bounds_test

import (
	"bufio"
	"context"
	"errors"
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

// streamer serves GET /stream as an event stream does: headers and a first
// chunk through net/http, then the rest of the body, "bb" and "ccc", from a
// detached writer that the test ends (End or Close, on its signal) — or,
// when detach is false or Detach refuses, from net/http in the handler.
// A request with X-Read-Body has its body read to the end first. Any other
// path answers "ok".
type streamer struct {
	detach   bool
	detached chan *bounds.Detached // every detached response, after its "ccc"
	refused  chan bool             // whether Detach refused, per stream
}

func newStreamer(detach bool) *streamer {
	return &streamer{detach: detach, detached: make(chan *bounds.Detached, 16), refused: make(chan bool, 16)}
}

func (s *streamer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/stream" {
		_, _ = io.WriteString(w, "ok")
		return
	}
	if r.Header.Get("X-Read-Body") != "" {
		_, _ = io.Copy(io.Discard, r.Body)
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Connection", "keep-alive")
	h.Set("Date", "Mon, 02 Jan 2006 15:04:05 GMT") // the same bytes from both servers
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	_, _ = io.WriteString(w, "a")
	_ = rc.Flush()
	if s.detach {
		d, ok := bounds.Detach(w, r)
		s.refused <- !ok
		if ok {
			_, _ = d.Write([]byte("bb"))
			_, _ = d.Write(nil) // sends nothing, as net/http
			_, _ = d.Write([]byte("ccc"))
			s.detached <- d
			return
		}
	}
	for _, b := range []string{"bb", "", "ccc"} {
		_, _ = io.WriteString(w, b)
		_ = rc.Flush()
	}
}

// rawExchange sends raw on a fresh loopback connection to addr and reads
// until done says the answer is whole, or the server ends the connection.
func rawExchange(t *testing.T, addr, raw string, done func(got string) bool) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second)) // a hang guard, not a measure
	go func() { _, _ = io.WriteString(c, raw) }()
	var got strings.Builder
	buf := make([]byte, 4096)
	for !done(got.String()) {
		n, err := c.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return got.String()
}

// TestDetachedBodyIsNetHTTPs serves the same stream through net/http alone
// and through a detached writer, on loopback sockets, and compares the raw
// bytes of the answers: the head, each chunk, the last chunk, and the
// answer to a second request on the same connection (keep-alive), and a
// pipelined request sent with the first.
func TestDetachedBodyIsNetHTTPs(t *testing.T) {
	serve := func(h http.Handler) string {
		srv := bounds.NewServer(h, bounds.APIIdleTimeout)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		go func() { _ = srv.Serve(ln) }()
		t.Cleanup(func() { _ = srv.Close() })
		return ln.Addr().String()
	}
	plain, detached := newStreamer(false), newStreamer(true)
	go func() {
		for d := range detached.detached {
			d.End()
		}
	}()
	t.Cleanup(func() { close(detached.detached) })
	plainAddr, detachedAddr := serve(plain), serve(detached)

	const stream = "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n"
	const next = "GET /next HTTP/1.1\r\nHost: x\r\n\r\n"
	twoAnswers := func(got string) bool { return strings.HasSuffix(got, "\r\n\r\nok") }
	for _, tc := range []struct {
		name, raw string
		done      func(string) bool
	}{
		{"then a second request", stream, nil},
		{"pipelined", stream + next, twoAnswers},
		{"asking to close", "GET /stream HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", func(string) bool { return false }},
		// The body read to its end, then a pipelined request.
		{"with a body", "GET /stream HTTP/1.1\r\nHost: x\r\nX-Read-Body: 1\r\nContent-Length: 3\r\n\r\nabc" + next, twoAnswers},
		{"with a chunked body", "GET /stream HTTP/1.1\r\nHost: x\r\nX-Read-Body: 1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n" + next, twoAnswers},
		// No chunks: the body ends with the connection.
		{"HTTP/1.0", "GET /stream HTTP/1.0\r\nHost: x\r\n\r\n", func(string) bool { return false }},
		{"HTTP/1.0 keep-alive with a body", "GET /stream HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\nX-Read-Body: 1\r\nContent-Length: 1\r\n\r\nz", func(string) bool { return false }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exchange := func(addr string) string {
				if tc.done != nil {
					return rawExchange(t, addr, tc.raw, tc.done)
				}
				// The second request goes once the first answer is whole.
				c, err := net.Dial("tcp", addr)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				_ = c.SetDeadline(time.Now().Add(30 * time.Second)) // a hang guard
				var got strings.Builder
				buf := make([]byte, 4096)
				sent := false
				go func() { _, _ = io.WriteString(c, stream) }()
				for !twoAnswers(got.String()) {
					n, err := c.Read(buf)
					got.Write(buf[:n])
					if err != nil {
						t.Fatalf("read: %v after %q", err, got.String())
					}
					if !sent && strings.HasSuffix(got.String(), "0\r\n\r\n") {
						sent = true
						go func() { _, _ = io.WriteString(c, next) }()
					}
				}
				return got.String()
			}
			want, got := exchange(plainAddr), exchange(detachedAddr)
			if got != want {
				t.Errorf("detached:\n%q\nnet/http:\n%q", got, want)
			}
			body := "\r\n1\r\na\r\n2\r\nbb\r\n3\r\nccc\r\n0\r\n\r\n"
			if strings.HasPrefix(tc.raw, "GET /stream HTTP/1.0") {
				body = "\r\n\r\nabbccc"
			}
			if !strings.Contains(want, body) {
				t.Errorf("the comparison is moot: net/http sent %q", want)
			}
			if refused := <-detached.refused; refused {
				t.Errorf("Detach refused %q", tc.raw)
			}
		})
	}
}

// TestDetachRefusals: a request with a body its handler has not read, and
// an answer with a length of its own are not detached; the handler goes on
// through net/http, which answers as usual.
func TestDetachRefusals(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newStreamer(true)
		_, ln := bubbleServer(t, st, bounds.APIIdleTimeout)
		for _, raw := range []string{
			"GET /stream HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi",
			"GET /stream HTTP/1.0\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi",
		} {
			c := dial(t, ln)
			send(c, raw)
			res, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatalf("%q: %v", raw, err)
			}
			body, err := io.ReadAll(res.Body)
			if err != nil || string(body) != "abbccc" {
				t.Errorf("%q: body %q, %v", raw, body, err)
			}
			if refused := <-st.refused; !refused {
				t.Errorf("%q: detached", raw)
			}
		}
	})
	// A handler's own Content-Length, Transfer-Encoding or Connection: close.
	for _, hdr := range [][2]string{{"Content-Length", "6"}, {"Transfer-Encoding", "identity"}, {"Connection", "close"}} {
		w := &headerOnly{h: http.Header{hdr[0]: {hdr[1]}}}
		r := httpRequestThroughServer(t)
		if _, ok := bounds.Detach(w, r); ok {
			t.Errorf("detached an answer with %s: %s", hdr[0], hdr[1])
		}
	}
}

// headerOnly is a ResponseWriter that only has headers.
type headerOnly struct{ h http.Header }

func (w *headerOnly) Header() http.Header       { return w.h }
func (w *headerOnly) Write([]byte) (int, error) { return 0, errors.New("no body") }
func (w *headerOnly) WriteHeader(int)           {}

// httpRequestThroughServer is a request as a bounds server's handler gets
// it, with the server in its context.
func httpRequestThroughServer(t *testing.T) *http.Request {
	t.Helper()
	got := make(chan *http.Request, 1)
	synctest.Test(t, func(t *testing.T) {
		_, ln := bubbleServer(t, http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got <- r }), bounds.APIIdleTimeout)
		c := dial(t, ln)
		send(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		_, _ = http.ReadResponse(bufio.NewReader(c), nil)
	})
	return <-got
}

// streamChunks is the body of /stream up to its last chunk, as sent.
const streamChunks = "1\r\na\r\n2\r\nbb\r\n3\r\nccc\r\n"

// readStream reads the answer to GET /stream from br, its body's bytes up
// to the last chunk; it returns the detached writer.
func readStream(t *testing.T, st *streamer, br *bufio.Reader) *bounds.Detached {
	t.Helper()
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || res.TransferEncoding == nil {
		t.Fatalf("answer %d, transfer encoding %v", res.StatusCode, res.TransferEncoding)
	}
	b := make([]byte, len(streamChunks))
	if _, err := io.ReadFull(br, b); err != nil || string(b) != streamChunks {
		t.Fatalf("stream body %q, %v", b, err)
	}
	if refused := <-st.refused; refused {
		t.Fatal("not detached")
	}
	return <-st.detached
}

// openDetached opens /stream on a fresh in-memory connection and reads it
// up to its last chunk.
func openDetached(t *testing.T, st *streamer, ln *memlisten.Listener) (*bounds.Detached, net.Conn, *bufio.Reader) {
	t.Helper()
	c := dial(t, ln)
	send(c, "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
	br := bufio.NewReader(c)
	return readStream(t, st, br), c, br
}

// TestDetachedGone: the client's end closes Gone at once, as it would
// cancel a request's context, whatever the request's shape: a body read to
// its end or HTTP/1.0 are detached as any other stream (Detached counts
// each while it is written).
func TestDetachedGone(t *testing.T) {
	for _, raw := range []string{
		"GET /stream HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /stream HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
		"GET /stream HTTP/1.1\r\nHost: x\r\nX-Read-Body: 1\r\nContent-Length: 1\r\n\r\nz",
		"GET /stream HTTP/1.0\r\nHost: x\r\n\r\n",
		"GET /stream HTTP/1.0\r\nHost: x\r\nX-Read-Body: 1\r\nContent-Length: 1\r\n\r\nz",
	} {
		synctest.Test(t, func(t *testing.T) {
			st := newStreamer(true)
			srv, ln := bubbleServer(t, st, bounds.APIIdleTimeout)
			c := dial(t, ln)
			send(c, raw)
			br := bufio.NewReader(c)
			if _, err := http.ReadResponse(br, nil); err != nil {
				t.Fatal(err)
			}
			want := streamChunks
			if strings.Contains(raw, "HTTP/1.0") {
				want = "abbccc" // no chunks
			}
			b := make([]byte, len(want))
			if _, err := io.ReadFull(br, b); err != nil || string(b) != want {
				t.Fatalf("%q: stream body %q, %v", raw, b, err)
			}
			if refused := <-st.refused; refused {
				t.Fatalf("%q: not detached", raw)
			}
			d := <-st.detached
			synctest.Wait()
			if n := srv.Detached(); n != 1 {
				t.Errorf("%q: Detached = %d, want 1", raw, n)
			}
			select {
			case <-d.Gone():
				t.Fatalf("%q: Gone before the client left", raw)
			default:
			}
			c.Close()
			synctest.Wait()
			select {
			case <-d.Gone():
			default:
				t.Fatalf("%q: Gone still open after the client left", raw)
			}
			d.End()
			synctest.Wait()
			if n := srv.Detached(); n != 0 {
				t.Errorf("%q: Detached = %d after the end, want 0", raw, n)
			}
		})
	}
}

// TestDrainWaitsForDetached: Shutdown and Drain count a detached response as
// a connection under way. One that ends before the drain's deadline ends the
// drain (no cut; the connection closes after the last chunk, as net/http's
// do during a shutdown); one that does not is cut at the deadline and
// counted; one that has ended and waits for a next request is closed at
// once and not counted.
func TestDrainWaitsForDetached(t *testing.T) {
	t.Run("ends in time", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			st := newStreamer(true)
			srv, ln := bubbleServer(t, st, bounds.APIIdleTimeout)
			d, _, br := openDetached(t, st, ln)
			if n := srv.Open(); n != 1 {
				t.Errorf("Open = %d with one detached stream, want 1", n)
			}
			go func() {
				time.Sleep(2 * time.Second)
				d.End()
			}()
			rest := make(chan string, 1)
			go func() {
				b, err := io.ReadAll(br)
				if err != nil {
					t.Errorf("client: %v", err)
				}
				rest <- string(b)
			}()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			start := time.Now()
			cut, err := srv.Drain(ctx)
			if err != nil || cut != 0 || time.Since(start) != 2*time.Second {
				t.Errorf("Drain = %d, %v after %v; want 0 cut, no error, at the stream's end (2 s)", cut, err, time.Since(start))
			}
			if got := <-rest; got != "0\r\n\r\n" {
				t.Errorf("after the drain the client read %q; want the last chunk, then the end", got)
			}
		})
	})
	t.Run("cut at the deadline", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			st := newStreamer(true)
			srv, ln := bubbleServer(t, st, bounds.APIIdleTimeout)
			d, _, br := openDetached(t, st, ln)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			start := time.Now()
			cut, err := srv.Drain(ctx)
			if err != nil || cut != 1 || time.Since(start) != 5*time.Second {
				t.Errorf("Drain = %d, %v after %v; want 1 cut, no error, at the 5 s deadline", cut, err, time.Since(start))
			}
			if rest, err := io.ReadAll(br); len(rest) != 0 || err != nil {
				t.Errorf("after the cut the client read %q, %v; want the end at once", rest, err)
			}
			if _, err := d.Write([]byte("late")); err == nil {
				t.Error("a cut detached response still writes")
			}
			d.Close()
		})
	})
	t.Run("ended, waiting for a request", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			st := newStreamer(true)
			srv, ln := bubbleServer(t, st, bounds.APIIdleTimeout)
			d, _, br := openDetached(t, st, ln)
			go d.End()
			if _, err := io.ReadFull(br, make([]byte, 5)); err != nil {
				t.Fatal(err)
			}
			synctest.Wait()
			if n := srv.Open(); n != 1 {
				t.Errorf("Open = %d with one idle connection, want 1", n)
			}
			start := time.Now()
			cut, err := srv.Drain(context.Background())
			if err != nil || cut != 0 || time.Since(start) != 0 {
				t.Errorf("Drain = %d, %v after %v; want 0 cut at once", cut, err, time.Since(start))
			}
			if _, err := br.ReadByte(); err != io.EOF {
				t.Errorf("the idle connection: %v, want its end", err)
			}
		})
	})
}

// TestDetachedKeepAliveAsNetHTTP: after End the connection waits for the
// next request exactly the server's idle time, then closes; a request that
// comes in time is served on it, and its connection may be detached again.
func TestDetachedKeepAliveAsNetHTTP(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const idle = 30 * time.Second
		st := newStreamer(true)
		srv, ln := bubbleServer(t, st, idle)
		d, c, br := openDetached(t, st, ln)
		go d.End()
		if _, err := io.ReadFull(br, make([]byte, 5)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(idle - time.Nanosecond)
		send(c, "GET /next HTTP/1.1\r\nHost: x\r\n\r\n")
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("a request just before the idle bound: %v", err)
		}
		if b, _ := io.ReadAll(res.Body); string(b) != "ok" {
			t.Fatalf("answer %q", b)
		}
		// Once more as a stream, detached again, then left idle.
		send(c, "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
		d = readStream(t, st, br)
		go d.End()
		if _, err := io.ReadFull(br, make([]byte, 5)); err != nil {
			t.Fatal(err)
		}
		ended := time.Now()
		if _, err := br.ReadByte(); err != io.EOF {
			t.Fatalf("after the idle time: %v, want the connection's end", err)
		}
		if got := time.Since(ended); got != idle {
			t.Errorf("closed %v after the end, want the idle bound %v", got, idle)
		}
		synctest.Wait()
		if n := srv.Open(); n != 0 {
			t.Errorf("Open = %d after the connection closed, want 0", n)
		}
	})
}
