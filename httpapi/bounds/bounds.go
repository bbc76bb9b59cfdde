// Package bounds holds the connection limits that every closerelay listener
// applies under hostile traffic (CONTRACT section 9): the size of a request's
// headers, the time its body may take to arrive, how long an idle keep-alive
// connection stays, answers that never wait for a body they do not need, and
// a shutdown that cuts what a drain could not end, and says how many.
//
// It knows nothing of routes: the API and the ops listener both serve through
// NewServer, so a bound holds on each or on neither.
package bounds

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"time"
)

// Bounds of CONTRACT section 9.
const (
	// MaxHeaderBytes caps a request's headers, request line included.
	MaxHeaderBytes = 16 << 10
	// HeaderTimeout bounds the arrival of a request's headers.
	HeaderTimeout = 10 * time.Second
	// BodyTimeout bounds the arrival of a request's body, counted from the
	// end of its headers.
	BodyTimeout = 10 * time.Second
	// APIIdleTimeout and OpsIdleTimeout close idle keep-alive connections.
	APIIdleTimeout = 120 * time.Second
	OpsIdleTimeout = 30 * time.Second
	// DrainGrace is how long a connection answered before its body was read
	// may still take the rest of that body before it closes.
	DrainGrace = time.Second
)

// bufioSlop is what net/http reads beyond http.Server.MaxHeaderBytes before it
// answers 431: its header reader is capped at MaxHeaderBytes plus this, so the
// server is configured that much lower to refuse above 16 KiB in all.
const bufioSlop = 4096

// ErrBodyTimeout is what a body read answers once BodyTimeout has passed
// without the whole body: the sender is too slow, and the connection closes
// after the answer (408 when one can still be written).
var ErrBodyTimeout = errors.New("bounds: the request body did not arrive in time")

// Server is an http.Server with the bounds applied, which knows its open
// connections so that a shutdown can say how many it had to cut, and which
// keeps the connections of detached responses (Detach) among them.
type Server struct {
	*http.Server

	mu           sync.Mutex
	conns        map[net.Conn]struct{}
	detached     map[*Detached]struct{}
	detachedLeft chan struct{} // closed and replaced when a detached response leaves
	draining     bool          // Shutdown or Close has begun: no more keep-alive
	closed       bool          // Close has begun
}

// NewServer serves h with the header, body and idle bounds. There is no
// write timeout: event streams are long-lived and bound each of their own
// writes.
func NewServer(h http.Handler, idle time.Duration) *Server {
	s := &Server{
		conns:        make(map[net.Conn]struct{}),
		detached:     make(map[*Detached]struct{}),
		detachedLeft: make(chan struct{}),
	}
	s.Server = &http.Server{
		Handler:           Guard(h, BodyTimeout),
		MaxHeaderBytes:    MaxHeaderBytes - bufioSlop,
		ReadHeaderTimeout: HeaderTimeout,
		IdleTimeout:       idle,
		ConnState:         s.track,
		BaseContext:       func(net.Listener) context.Context { return context.WithValue(context.Background(), serverKey{}, s) },
	}
	return s
}

func (s *Server) track(c net.Conn, state http.ConnState) {
	rc, again := c.(*replayConn) // a connection given back after a detached response
	s.mu.Lock()
	switch state {
	case http.StateNew:
		s.conns[c] = struct{}{}
		if again {
			s.forgetLocked(rc.d) // net/http holds it now
		}
	case http.StateClosed, http.StateHijacked:
		delete(s.conns, c)
	}
	s.mu.Unlock()
	if again && (state == http.StateClosed || state == http.StateHijacked) {
		_ = rc.ln.Close() // ends the Serve that took it
	}
}

// Open reports how many connections the server holds now, those of detached
// responses included.
func (s *Server) Open() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.conns)
	for d := range s.detached {
		if d.state != detachHijacking { // still among conns until the hijack
			n++
		}
	}
	return n
}

// Detached reports how many responses the server has taken over from
// net/http (Detach) and not yet ended: those still being written.
func (s *Server) Detached() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for d := range s.detached {
		if d.state == detachActive {
			n++
		}
	}
	return n
}

// Shutdown is http.Server's Shutdown that also closes the idle connections
// of detached responses that have ended, and waits for those still under
// way, until ctx ends.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.draining = true
	var idle []net.Conn
	for d := range s.detached {
		if d.state == detachIdle {
			idle = append(idle, d.conn)
		}
	}
	s.mu.Unlock()
	for _, c := range idle {
		_ = c.Close()
	}
	if err := s.Server.Shutdown(ctx); err != nil {
		return err
	}
	return s.waitDetached(ctx)
}

// Close is http.Server's Close that also closes the connections of
// detached responses.
func (s *Server) Close() error {
	s.mu.Lock()
	s.draining, s.closed = true, true
	var conns []net.Conn
	for d := range s.detached {
		if d.conn != nil {
			conns = append(conns, d.conn)
		}
	}
	s.mu.Unlock()
	err := s.Server.Close()
	for _, c := range conns {
		_ = c.Close()
	}
	return err
}

// Drain stops accepting and waits, until ctx ends, for every connection to
// finish its request and go idle, and for every detached response to end;
// it then closes whatever is left, so the caller always gets the listener
// back within ctx. cut is how many connections were closed while a request
// on them was still under way (or a client had sent part of one), detached
// responses included: none when the drain finished in time.
func (s *Server) Drain(ctx context.Context) (cut int, err error) {
	err = s.Shutdown(ctx)
	if err == nil {
		return 0, nil
	}
	cut = s.Open()
	if cerr := s.Close(); cerr != nil && !errors.Is(cerr, net.ErrClosed) {
		return cut, cerr
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return cut, nil
	}
	return cut, err
}

// Guard bounds the body of every request that has one: it must arrive within
// timeout of the end of the headers, or reads fail with ErrBodyTimeout. An
// answer written before the body was read to its end carries Connection:
// close, so net/http neither waits for nor drains a body nobody needs (a 429,
// a 413 by Content-Length, a 404, a 405): the client gets its answer at once
// and the connection ends.
func Guard(h http.Handler, timeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength == 0 {
			h.ServeHTTP(w, r)
			return
		}
		// One allocation for both; the handler's writer leads to the
		// body's state, for Detach (bodyRead).
		g := &guarded{body: guardedBody{ReadCloser: r.Body, rc: *http.NewResponseController(w)}}
		body, gw := &g.body, &g.writer
		gw.ResponseWriter, gw.body = w, body
		_ = body.rc.SetReadDeadline(time.Now().Add(timeout))
		r.Body = body
		h.ServeHTTP(gw, r)
		// A handler that wrote nothing still gets an implicit answer from
		// net/http; it must not wait for the body either.
		gw.beforeHeader()
		// net/http decides from the request's own body type whether it
		// left a large body unread, and only then half-closes and lingers
		// (Serve) rather than closing on unread bytes, which resets.
		r.Body = body.ReadCloser
		if !body.finished() {
			// The connection closes after this answer, but net/http still
			// reads up to 256 KiB of the unread body first, which would
			// hold a stalled sender's connection until the body deadline.
			// A short grace lets an honest client finish sending the body
			// it has in flight (so it reads the answer rather than a reset)
			// and cuts a stalled one soon after.
			_ = body.rc.SetReadDeadline(time.Now().Add(DrainGrace))
		}
	})
}

// guarded is a guarded request's body and writer.
type guarded struct {
	body   guardedBody
	writer guardedWriter
}

// guardedBody notices the end of the body, so the read deadline can be lifted
// (it must not cut a long answer such as an event stream) and the writer knows
// whether the connection can be kept.
type guardedBody struct {
	io.ReadCloser
	rc http.ResponseController

	mu   sync.Mutex
	done bool
}

func (b *guardedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	switch {
	case err == io.EOF:
		b.mu.Lock()
		b.done = true
		b.mu.Unlock()
		_ = b.rc.SetReadDeadline(time.Time{})
	case errors.Is(err, os.ErrDeadlineExceeded):
		err = ErrBodyTimeout
	}
	return n, err
}

// bodyRead reports whether the handler writing to w (a guardedWriter, or
// a writer that leads to one through Unwrap, as echo's does) has read its
// request's body to its end; false for a writer Guard did not make.
func bodyRead(w http.ResponseWriter) bool {
	for {
		switch x := w.(type) {
		case *guardedWriter:
			return x.body.finished()
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return false
		}
	}
}

func (b *guardedBody) finished() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.done
}

// guardedWriter marks an answer Connection: close when it starts before the
// body was read to its end. It adds nothing else, so http.ResponseController
// reaches the real writer's Flush and deadlines through Unwrap.
type guardedWriter struct {
	http.ResponseWriter
	body    *guardedBody
	decided bool
}

func (w *guardedWriter) beforeHeader() {
	if w.decided {
		return
	}
	w.decided = true
	if !w.body.finished() {
		w.Header().Set("Connection", "close")
	}
}

func (w *guardedWriter) WriteHeader(code int) {
	w.beforeHeader()
	w.ResponseWriter.WriteHeader(code)
}

func (w *guardedWriter) Write(p []byte) (int, error) {
	w.beforeHeader()
	return w.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController find the connection's writer.
func (w *guardedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
