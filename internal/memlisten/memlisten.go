// Package memlisten is an in-memory net.Listener for tests that run a real
// HTTP server inside a testing/synctest bubble.
//
// A socket's goroutines block in the network poller, outside any bubble, so
// synctest can never consider them durably blocked and its clock would never
// advance while a request waits. net.Pipe connections block on channels
// inside the bubble instead, so the heartbeat, expiry and token lifetimes can
// be stepped through the whole HTTP stack in fake time.
package memlisten

import (
	"context"
	"net"
	"net/http"
	"sync"
)

// Listener hands each Dial's server end to Accept.
type Listener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

// New returns an open listener. Inside a synctest bubble, create it in the
// bubble.
func New() *Listener {
	return &Listener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// Accept waits for the next Dial.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close makes Accept and every later Dial fail.
func (l *Listener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

// Addr is a placeholder: nothing resolves it.
func (l *Listener) Addr() net.Addr { return addr{} }

// Dial connects to the listener, ignoring network and address, so that it
// can stand in for an http.Transport's DialContext.
func (l *Listener) Dial(ctx context.Context, _, _ string) (net.Conn, error) {
	server, client := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
	case <-ctx.Done():
	}
	server.Close()
	client.Close()
	return nil, net.ErrClosed
}

// Client is an HTTP client whose every connection is a Dial: any URL
// reaches the listener.
func (l *Listener) Client() *http.Client {
	return &http.Client{Transport: &http.Transport{DialContext: l.Dial}}
}

type addr struct{}

func (addr) Network() string { return "pipe" }
func (addr) String() string  { return "pipe" }
