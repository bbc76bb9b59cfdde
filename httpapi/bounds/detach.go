package bounds

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// serverKey carries the *Server in every request's context (BaseContext), so
// that Detach can hand it the connection it takes over.
type serverKey struct{}

// Detached is a response body that outlives its handler: an event stream,
// taken over from net/http once the response's headers are on the wire, so
// that net/http's connection goroutine, its read and write buffers, the
// request and everything the handler's middleware held are released while
// the stream waits for something to send. What stays is the connection, a
// goroutine that watches it (as net/http's background read does) and this
// value.
//
// Its writes are the body's chunks, byte for byte what net/http would send,
// and End finishes the body as net/http would: the last chunk, then the
// connection waits for the client's next request (a keep-alive connection,
// served by the Server again) or closes when the request, a drain or the
// client's end says so. The Server counts a detached response as an open
// connection: Shutdown and Drain wait for its end, and a Drain that runs out
// of time cuts it (Close closes it).
type Detached struct {
	// Immutable once Detach has returned.
	srv       *Server
	conn      net.Conn
	out       net.Conn // where the body's bytes go: conn without its wrappers
	keepAlive bool     // the request allows the connection's reuse
	chunked   bool     // HTTP/1.1: the body goes in chunks; HTTP/1.0: as is, to the connection's end

	gone  chan struct{} // closed by watch when the client ends its side (or its read fails)
	ended chan struct{} // closed by End or Close; watch waits for it

	// The writer's alone: a chunk's size line and its writev vector, kept
	// here so that a write allocates nothing.
	size [18]byte
	iov  [3][]byte
	bufs net.Buffers

	// Guarded by srv.mu; pre is watch's alone once ended is closed.
	pre     []byte // read ahead of the next request on the connection
	readErr error
	state   detachState
	endOnce bool
	aborted bool // End cut the watch's read short: the next request is here
}

type detachState int

const (
	detachHijacking detachState = iota // registered, the connection not yet taken
	detachActive                       // the response is being written
	detachIdle                         // the response ended; waiting for the next request
	detachHanding                      // given back to the Server, not yet accepted
)

// Detach takes w's connection over from net/http, after the handler has
// written and flushed the headers of a response that has a body (a status
// other than 1xx, 204 and 304), and any body so far, and returns the rest of
// the body's writer. ok is false, and w is untouched, when the response
// cannot be detached: a HEAD, a request whose body the handler has not read
// to its end, a response with a Content-Length, a Transfer-Encoding of its
// own or Connection: close, a connection that cannot be hijacked (HTTP/2)
// or a server not made by NewServer; the handler then goes on writing to w.
// net/http sends such a response in chunks, and so does the writer; to an
// HTTP/1.0 request, which cannot take chunks, both send the body as it is
// and end it by closing the connection.
//
// A request with a body can be detached once its handler has read the body
// to its end (net/http's keep-alive reads the next request after it): the
// body's bound (Guard) knows when it has.
//
// The handler must return at once after a successful Detach, and then call
// End or Close, once, when the body is complete.
func Detach(w http.ResponseWriter, r *http.Request) (*Detached, bool) {
	s, _ := r.Context().Value(serverKey{}).(*Server)
	h := w.Header()
	switch {
	case s == nil, !r.ProtoAtLeast(1, 0), r.Method == http.MethodHead, r.ContentLength != 0 && !bodyRead(w),
		h.Get("Content-Length") != "", h.Get("Transfer-Encoding") != "",
		hasToken(h.Get("Connection"), "close"):
		return nil, false
	}
	chunked := r.ProtoAtLeast(1, 1)
	d := &Detached{
		srv:       s,
		keepAlive: chunked && !r.Close && !hasToken(r.Header.Get("Connection"), "close"),
		chunked:   chunked,
		gone:      make(chan struct{}),
		ended:     make(chan struct{}),
	}
	// Registered before the hijack, so that a Shutdown that sees the
	// connection leave net/http's hands already waits for it here.
	s.mu.Lock()
	s.detached[d] = struct{}{}
	s.mu.Unlock()
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		s.forget(d)
		return nil, false
	}
	if rc, ok := conn.(*replayConn); ok && len(rc.pre) == 0 {
		conn = rc.Conn // a connection served again (End): its replay is spent
	}
	var pre []byte
	if n := buf.Reader.Buffered(); n > 0 { // pipelined: the next request's start
		pre, _ = buf.Reader.Peek(n)
		pre = append([]byte(nil), pre...)
	}
	s.mu.Lock()
	d.conn, d.out, d.pre, d.state = conn, writerOf(conn), pre, detachActive
	closed := s.closed
	s.mu.Unlock()
	if closed {
		_ = conn.Close()
	}
	go d.watch()
	return d, true
}

// Gone is closed when the client has ended its side of the connection, or
// reading from it failed: the request's context would have been cancelled.
func (d *Detached) Gone() <-chan struct{} { return d.gone }

// SetWriteDeadline bounds the writes that follow.
func (d *Detached) SetWriteDeadline(t time.Time) error { return d.conn.SetWriteDeadline(t) }

// Write sends p as one chunk of the body (to an HTTP/1.0 request, as it
// is); an empty p sends nothing.
func (d *Detached) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if !d.chunked {
		return d.out.Write(p)
	}
	size := append(strconv.AppendUint(d.size[:0], uint64(len(p)), 16), '\r', '\n')
	d.iov = [3][]byte{size, p, crlf}
	d.bufs = d.iov[:]
	n, err := d.bufs.WriteTo(d.out)  // one writev on a TCP connection
	d.iov, d.bufs = [3][]byte{}, nil // not to keep p
	if err != nil {
		return int(min(max(n-int64(len(size)), 0), int64(len(p)))), err
	}
	return len(p), nil
}

var crlf = []byte("\r\n")

// aLongTimeAgo is a read deadline that ends a pending read at once.
var aLongTimeAgo = time.Unix(1, 0)

// End completes the body with its last chunk, then lets the connection wait
// for the client's next request, as net/http's keep-alive does (the
// Server's IdleTimeout, then the request is served as any other), unless
// the request asked for Connection: close (or was HTTP/1.0, whose body
// ends with the connection), the client has gone, the last chunk could not
// be written or the Server is shutting down: then the connection closes. The last chunk's write is bounded by the current write
// deadline. End or Close, whichever comes first, counts.
func (d *Detached) End() {
	s := d.srv
	s.mu.Lock()
	first := !d.endOnce
	d.endOnce = true
	s.mu.Unlock()
	if !first {
		return
	}
	var err error
	if d.chunked {
		_, err = io.WriteString(d.out, "0\r\n\r\n")
	}
	s.mu.Lock()
	keep := err == nil && d.keepAlive && d.readErr == nil && !s.draining
	if keep {
		d.state = detachIdle
		// net/http clears a response's write deadline after it.
		_ = d.conn.SetWriteDeadline(time.Time{})
		idle := s.IdleTimeout
		if idle == 0 {
			idle = s.ReadTimeout // as net/http's idle wait
		}
		switch {
		case len(d.pre) >= 4:
			// A pipelined request is here already: end the watch's
			// read now, as net/http's abortPendingRead does.
			d.aborted = true
			_ = d.conn.SetReadDeadline(aLongTimeAgo)
		case idle > 0:
			// The watch's read ends when no request comes in time.
			_ = d.conn.SetReadDeadline(time.Now().Add(idle))
		}
	}
	s.mu.Unlock()
	if !keep {
		_ = d.conn.Close()
	}
	close(d.ended)
}

// Close closes the connection at once, without the last chunk: after a
// write failed. End or Close, whichever comes first, counts.
func (d *Detached) Close() {
	s := d.srv
	s.mu.Lock()
	first := !d.endOnce
	d.endOnce = true
	s.mu.Unlock()
	if !first {
		return // after End the connection is not the response's any more
	}
	_ = d.conn.Close()
	close(d.ended)
}

// watch reads the connection while the body is written, as net/http's
// background read does: one byte, so that the client's end (or a failed
// read) closes Gone, and a byte of a pipelined request is kept for later.
// After End it waits for the next request's first four bytes as net/http's
// keep-alive does and gives the connection back to the Server, or closes it.
func (d *Detached) watch() {
	s := d.srv
	var b [4]byte
	n, err := d.conn.Read(b[:1])
	s.mu.Lock()
	d.pre = append(d.pre, b[:n]...)
	if err != nil && !(d.aborted && errors.Is(err, os.ErrDeadlineExceeded)) {
		d.readErr = err
		close(d.gone)
	}
	s.mu.Unlock()
	<-d.ended
	s.mu.Lock()
	keep := d.state == detachIdle && d.readErr == nil
	s.mu.Unlock()
	for keep && len(d.pre) < 4 {
		n, err := d.conn.Read(b[:4-len(d.pre)])
		d.pre = append(d.pre, b[:n]...)
		keep = err == nil
	}
	s.mu.Lock()
	keep = keep && !s.draining
	if keep {
		d.state = detachHanding
	}
	s.mu.Unlock()
	if !keep {
		_ = d.conn.Close()
		s.forget(d)
		return
	}
	// The next request's header timeout starts now, as after net/http's
	// own wait (net/http sets it when it reads the request).
	_ = d.conn.SetReadDeadline(time.Time{})
	rc := &replayConn{Conn: d.conn, pre: d.pre, d: d, ln: newOneConn()}
	rc.ln.conn = rc
	_ = s.Server.Serve(rc.ln) // returns once the connection ends or is taken over
	if !rc.ln.accepted.Load() {
		// Shutting down: net/http never took it.
		_ = d.conn.Close()
		s.forget(d)
	}
}

// forget drops a detached response that has ended.
func (s *Server) forget(d *Detached) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.forgetLocked(d)
}

func (s *Server) forgetLocked(d *Detached) {
	if _, ok := s.detached[d]; !ok {
		return
	}
	delete(s.detached, d)
	close(s.detachedLeft)
	s.detachedLeft = make(chan struct{})
}

// waitDetached waits until no detached response is left, or ctx ends.
func (s *Server) waitDetached(ctx context.Context) error {
	for {
		s.mu.Lock()
		n, left := len(s.detached), s.detachedLeft
		s.mu.Unlock()
		if n == 0 {
			return nil
		}
		select {
		case <-left:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// replayConn is a connection given back to the Server after a detached
// response: its reads start with the bytes read ahead of the next request.
type replayConn struct {
	net.Conn
	pre []byte
	d   *Detached // the response it came from, until net/http accepts it
	ln  *oneConn  // the listener that handed it to the Server
}

func (c *replayConn) Read(p []byte) (int, error) {
	if len(c.pre) > 0 {
		n := copy(p, c.pre)
		c.pre = c.pre[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

// CloseWrite lets net/http half-close the connection, as it does a TCP one.
func (c *replayConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// oneConn is a listener that hands the Server one connection, then waits
// until it is closed: when the connection ends or is taken over, or by the
// Server's Shutdown or Close.
type oneConn struct {
	conn     net.Conn
	accepted atomic.Bool
	closed   chan struct{}
	once     sync.Once
}

var _ net.Listener = (*oneConn)(nil)

func newOneConn() *oneConn { return &oneConn{closed: make(chan struct{})} }

func (l *oneConn) Accept() (net.Conn, error) {
	select {
	case <-l.closed:
		return nil, net.ErrClosed
	default:
	}
	if l.accepted.CompareAndSwap(false, true) {
		return l.conn, nil
	}
	<-l.closed
	return nil, net.ErrClosed
}

func (l *oneConn) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

func (l *oneConn) Addr() net.Addr { return l.conn.LocalAddr() }

// hasToken reports whether the comma-separated header value v holds token,
// case-insensitively.
func hasToken(v, token string) bool {
	for f := range strings.SplitSeq(v, ",") {
		if strings.EqualFold(strings.TrimSpace(f), token) {
			return true
		}
	}
	return false
}
