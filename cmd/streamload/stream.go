package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Buffer sizes of one stream. One state event of a 20-signer plan is about
// 3.5 KB. The socket side holds the chunked body as it arrives: at 4 KB one
// read takes a whole event with its chunk framing, where a 128-byte buffer
// took twice as many read syscalls (measured: 4 an event against 2, the
// second being the EAGAIN before the goroutine parks), and at 18,000 events a
// second on the relay's two cores the syscalls are much of the generator's
// work. The event side holds de-chunked lines, so 4 KB keeps
// the common line in one piece; a longer one is gathered in stream.long.
const (
	rawBufSize  = 4096
	lineBufSize = 4096
)

// target is where the streams go, read from the payload's relay URL.
type target struct {
	addr     string // host:port to dial
	host     string // the Host header
	prefix   string // the URL's path, without its trailing slash
	loopback bool   // the relay is on this machine's IPv4 loopback: spread the source addresses
}

func parseTarget(relay string) (target, error) {
	u, err := url.Parse(relay)
	if err != nil {
		return target{}, fmt.Errorf("relay %q: %w", relay, err)
	}
	if u.Scheme != "http" {
		return target{}, fmt.Errorf("relay %q: streamload speaks plain HTTP only (its lean client has no TLS)", relay)
	}
	hostname, port := u.Hostname(), u.Port()
	if port == "" {
		port = "80"
	}
	if hostname == "localhost" {
		hostname = "127.0.0.1" // so that the 127.0.0.0/8 source addresses can reach it
	}
	ip := net.ParseIP(hostname)
	return target{
		addr:     net.JoinHostPort(hostname, port),
		host:     u.Host,
		prefix:   strings.TrimSuffix(u.Path, "/"),
		loopback: ip != nil && ip.To4() != nil && (ip.IsLoopback() || ip.IsUnspecified()),
	}, nil
}

// sourceAddr is the i-th client source address: 127.0.0.1 … 127.0.0.254,
// 127.0.1.1 …, skipping host parts 0 and 255. Each source address has its own
// range of ephemeral ports, so tens of thousands of streams to one relay port
// never run out of them.
func sourceAddr(i int) net.IP {
	rest := i / 254
	return net.IPv4(127, byte(rest>>8), byte(rest), byte(1+i%254))
}

// loadError is a failure with a short kind, so that thousands of alike
// failures are counted under one line of the report.
type loadError struct {
	kind string
	err  error
}

func (e *loadError) Error() string { return e.kind + ": " + e.err.Error() }
func (e *loadError) Unwrap() error { return e.err }

func failure(kind string, err error) error { return &loadError{kind: kind, err: err} }

// arrival is one state event as a subscriber received it.
type arrival struct {
	signers int           // the number of signers in the event's data
	at      time.Duration // since the run's start, when the event was complete
}

// stream is one subscriber: a raw TCP connection, a hand-written HTTP/1.1
// request, and two small buffers. No net/http client, whose per-connection
// goroutines and buffers would make the generator heavier than the server it
// measures.
type stream struct {
	// Set by openStream, then read-only.
	plan *planRun
	conn net.Conn
	v0   uint64 // version of the first event
	c0   int    // its number of signers

	// top is the most signers any event on the stream has carried: the run
	// polls it to know when the last state has reached every stream.
	top   atomic.Int64
	ended atomic.Bool // set when the reading goroutine returns

	// Owned by the reading goroutine until it returns; the run reads them
	// only after every reader has returned.
	body     *bufio.Reader
	parser   sseParser
	long     []byte
	arrivals []arrival
	bad      int   // events whose content did not add up
	badErr   error // the first of them
	err      error // why the stream ended before the run closed it
}

// openStream dials, sends the GET, reads the response head and the first
// event (the plan's current state), all within timeout or until ctx ends.
func openStream(ctx context.Context, d *net.Dialer, t target, p *planRun, timeout time.Duration) (*stream, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	conn, err := d.DialContext(ctx, "tcp", t.addr)
	if err != nil {
		return nil, failure("dial", err)
	}
	// The socket has no context: a deadline in the past is how ctx reaches a
	// read in progress.
	stopRead := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	s, err := handshake(conn, t, p)
	if !stopRead() || err != nil {
		_ = conn.Close()
		if err == nil {
			err = failure("first event", ctx.Err())
		}
		return nil, err
	}
	return s, nil
}

func handshake(conn net.Conn, t target, p *planRun) (*stream, error) {
	req := "GET " + t.prefix + "/api/plan/" + p.id + "/events HTTP/1.1\r\nHost: " + t.host +
		"\r\nAccept: text/event-stream\r\nUser-Agent: closerelay-streamload/1\r\n\r\n"
	if _, err := io.WriteString(conn, req); err != nil {
		return nil, failure("request", err)
	}
	raw := bufio.NewReaderSize(conn, rawBufSize)
	var long []byte
	chunked, err := readHead(raw, &long)
	if err != nil {
		return nil, err
	}
	body := io.Reader(raw)
	if chunked {
		body = httputil.NewChunkedReader(raw)
	}
	s := &stream{plan: p, conn: conn, body: bufio.NewReaderSize(body, lineBufSize), long: long}
	s.arrivals = make([]arrival, 0, len(p.valid))
	for {
		line, err := readLine(s.body, &s.long)
		if err != nil {
			return nil, failure("first event", err)
		}
		ev, ok := s.parser.line(line)
		if !ok {
			continue
		}
		if ev.Type != messageType {
			return nil, failure("first event", fmt.Errorf("an %q event", ev.Type))
		}
		if s.v0, s.c0, err = eventState(ev, p.needle); err != nil {
			return nil, failure("first event", err)
		}
		s.top.Store(int64(s.c0))
		return s, nil
	}
}

// readHead reads the status line and headers of the response, and reports
// whether its body is chunked. Anything but a 200 event stream is an error
// whose kind carries the status, so refusals (503 at the subscriber cap, 404)
// are counted apart.
func readHead(r *bufio.Reader, long *[]byte) (chunked bool, err error) {
	line, err := readLine(r, long)
	if err != nil {
		return false, failure("response", err)
	}
	proto, rest, _ := strings.Cut(strings.TrimSpace(string(line)), " ")
	code, _, _ := strings.Cut(rest, " ")
	if !strings.HasPrefix(proto, "HTTP/1.") || len(code) != 3 {
		return false, failure("response", fmt.Errorf("not an HTTP/1 status line: %q", line))
	}
	eventStream := false
	for {
		line, err := readLine(r, long)
		if err != nil {
			return false, failure("response", err)
		}
		h := strings.TrimSpace(string(line))
		if h == "" {
			break
		}
		name, value, _ := strings.Cut(h, ":")
		value = strings.ToLower(strings.TrimSpace(value))
		switch strings.ToLower(name) {
		case "transfer-encoding":
			chunked = value == "chunked"
		case "content-type":
			eventStream = strings.HasPrefix(value, "text/event-stream")
		}
	}
	if code != "200" {
		return false, failure("HTTP "+code, errors.New(strings.TrimSpace(string(line))))
	}
	if !eventStream {
		return false, failure("response", errors.New("200 without Content-Type text/event-stream"))
	}
	return chunked, nil
}

// readLine returns the next line, its ending included. A line longer than
// r's buffer is gathered in *long, which is kept for the next long line.
func readLine(r *bufio.Reader, long *[]byte) ([]byte, error) {
	line, err := r.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		return line, err
	}
	*long = append((*long)[:0], line...)
	for {
		line, err = r.ReadSlice('\n')
		*long = append(*long, line...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return *long, err
		}
	}
}

// read records every event until the connection fails or the run closes it
// (stopping is set first, so that closing is not counted as a failure).
func (s *stream) read(start time.Time, stopping *atomic.Bool) {
	defer s.ended.Store(true)
	for {
		line, err := readLine(s.body, &s.long)
		if err != nil {
			if !stopping.Load() {
				s.err = failure("stream ended early", err)
			}
			return
		}
		ev, ok := s.parser.line(line)
		if !ok {
			continue
		}
		at := time.Since(start)
		if ev.Type != messageType {
			s.err = failure("stream ended early", fmt.Errorf("an %q event", ev.Type))
			return
		}
		v, c, err := eventState(ev, s.plan.needle)
		if err == nil && (v < s.v0 || v-s.v0 != uint64(c-s.c0)) {
			err = fmt.Errorf("version %d with %d signers after version %d with %d: each change adds one signer", v, c, s.v0, s.c0)
		}
		if err != nil {
			if s.bad++; s.badErr == nil {
				s.badErr = failure("event content", err)
			}
			continue
		}
		s.arrivals = append(s.arrivals, arrival{signers: c, at: at})
		if int64(c) > s.top.Load() {
			s.top.Store(int64(c))
		}
	}
}

// eventState reads what the accounting needs from one state event (CONTRACT
// section 5): the version on its id line and the number of signers in its
// data, after checking that the data names the plan. It does not decode the
// JSON: at thousands of events a second on the same two cores as the relay,
// a byte scan keeps the generator out of the measurement.
func eventState(ev sseEvent, needle []byte) (version uint64, signers int, err error) {
	version, err = strconv.ParseUint(string(ev.ID), 10, 64)
	if err != nil {
		return 0, 0, fmt.Errorf("id line %q is not a version", ev.ID)
	}
	// The first `"id":"` is the id field: base64 and network names hold no
	// quote. (Searching for the whole needle would be slower: past 63 bytes
	// bytes.Index leaves its vector path.)
	if i := bytes.Index(ev.Data, needle[:6]); i < 0 || !bytes.HasPrefix(ev.Data[i:], needle) {
		return 0, 0, fmt.Errorf("the data does not carry %s", needle)
	}
	_, rest, ok := bytes.Cut(ev.Data, []byte(`"signers":[`))
	list, _, ok2 := bytes.Cut(rest, []byte("]"))
	if !ok || !ok2 {
		return 0, 0, errors.New("the data has no signers list")
	}
	if len(bytes.TrimSpace(list)) == 0 {
		return version, 0, nil
	}
	return version, bytes.Count(list, []byte(",")) + 1, nil
}

// planNeedle is the text by which an event's data names plan id; it starts
// with the 6 bytes `"id":"`.
func planNeedle(id string) []byte { return []byte(`"id":"` + id + `"`) }
