package bounds

import (
	"io"
	"net"
	"sync"
	"time"
)

// LingerBytes caps what a connection answered before its body was read may
// still send, and have read and thrown away, before it closes: enough for any
// honest client's oversized body in flight (8 MiB and more), little enough
// that a flood costs a few milliseconds of reading.
const LingerBytes = 32 << 20

// Serve is http.Server's Serve on a listener whose connections close
// lingering (RFC 9112 section 9.6): when net/http half-closes a connection
// because it answered without reading the whole body (a 413 by
// Content-Length, a 429, a 404, a 405), the connection goes on reading and
// discarding what the client still sends, for DrainGrace and at most
// LingerBytes, and only then closes. Closing at once with unread bytes in
// the socket makes the kernel answer them with a reset, and a client still
// writing its body loses the answer that was already sent.
func (s *Server) Serve(ln net.Listener) error {
	return s.Server.Serve(lingerListener{ln})
}

type lingerListener struct{ net.Listener }

func (l lingerListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if _, ok := c.(closeWriter); !ok {
		return c, nil // an in-memory pipe: no half-close, nothing to reset
	}
	return &lingerConn{Conn: c}, nil
}

type closeWriter interface{ CloseWrite() error }

// lingerConn is a connection whose CloseWrite starts the lingering read and
// whose Close, once that has begun, leaves the closing to it.
type lingerConn struct {
	net.Conn

	mu        sync.Mutex
	lingering bool // CloseWrite has started the drain
	drained   bool // the drain has ended
	closing   bool // Close was called
}

// CloseWrite sends the client our end of the stream (the answer is complete)
// and starts reading what it still sends. net/http calls it only after an
// answer that left the body unread, and then sleeps before Close: the read
// starts now, so that the client's body is not stalled in that pause either.
func (c *lingerConn) CloseWrite() error {
	err := c.Conn.(closeWriter).CloseWrite()
	c.mu.Lock()
	start := !c.lingering && !c.closing
	c.lingering = true
	c.mu.Unlock()
	if start {
		go c.drain()
	}
	return err
}

// drain reads until the client ends its side, the grace or the byte bound
// runs out, or the read fails; then the connection closes if net/http has
// closed it meanwhile (it has, in all but a drain cut short by the bounds).
func (c *lingerConn) drain() {
	_ = c.Conn.SetReadDeadline(time.Now().Add(DrainGrace))
	_, _ = io.CopyN(io.Discard, c.Conn, LingerBytes)
	c.mu.Lock()
	c.drained = true
	closeNow := c.closing
	c.mu.Unlock()
	if closeNow {
		_ = c.Conn.Close()
	}
}

// Close closes the connection, or, while the drain runs, leaves that to it.
func (c *lingerConn) Close() error {
	c.mu.Lock()
	c.closing = true
	later := c.lingering && !c.drained
	c.mu.Unlock()
	if later {
		return nil
	}
	return c.Conn.Close()
}

// writerOf is the connection that a detached response's writes go to: the
// socket under the wrappers, since net.Buffers makes one writev only on the
// net package's own types.
func writerOf(c net.Conn) net.Conn {
	if rc, ok := c.(*replayConn); ok {
		c = rc.Conn
	}
	if lc, ok := c.(*lingerConn); ok {
		c = lc.Conn
	}
	return c
}
