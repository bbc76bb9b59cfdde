package bounds_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi/bounds"
)

// loopback serves h through bounds.NewServer on a loopback socket for the
// whole fuzz run; the fuzz inputs are sent over real TCP, so a client can
// half-close and the server sees the end of a short body at once.
func loopback(f *testing.F, h http.Handler) string {
	f.Helper()
	srv := bounds.NewServer(h, bounds.APIIdleTimeout)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	f.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String()
}

// exchange sends raw, half-closes when closeWrite is set, and reads one
// answer (nil when the server closed without one).
func exchange(t *testing.T, addr, raw string, closeWrite bool) *http.Response {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(30 * time.Second)) // a hang guard, not a measure
	go func() {
		_, _ = io.WriteString(c, raw)
		if closeWrite {
			_ = c.(*net.TCPConn).CloseWrite()
		}
	}()
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return nil
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res
}

// FuzzHeaderLimit: whatever the shape of the headers (how many lines, how
// long), a request is refused 431 exactly when its header section, request
// line and final blank line included, is above MaxHeaderBytes.
func FuzzHeaderLimit(f *testing.F) {
	addr := loopback(f, http.HandlerFunc(echoBody))
	f.Add(uint16(0), uint8(0))
	f.Add(uint16(16300), uint8(1))
	f.Add(uint16(16344), uint8(1))
	f.Add(uint16(16345), uint8(1))
	f.Add(uint16(16000), uint8(40))
	f.Add(uint16(65535), uint8(255))
	f.Fuzz(func(t *testing.T, pad uint16, lines uint8) {
		var b strings.Builder
		b.WriteString("GET /x HTTP/1.1\r\nHost: x\r\n")
		n := int(lines) + 1
		for i := range n {
			share := int(pad) / n
			if i == 0 {
				share += int(pad) % n
			}
			b.WriteString("X-P" + strconv.Itoa(i) + ": " + strings.Repeat("v", share) + "\r\n")
		}
		b.WriteString("\r\n")
		raw := b.String()
		res := exchange(t, addr, raw, false)
		if res == nil {
			t.Fatalf("%d header bytes: no answer", len(raw))
		}
		if tooBig := len(raw) > bounds.MaxHeaderBytes; tooBig != (res.StatusCode == http.StatusRequestHeaderFieldsTooLarge) {
			t.Fatalf("%d header bytes (limit %d) answered %d", len(raw), bounds.MaxHeaderBytes, res.StatusCode)
		}
	})
}

// FuzzBodyGuard: whatever a client declares and sends, a handler that reads
// the whole body keeps the connection, a handler that answers without the
// body closes it, and a body that ends short never leaves a kept
// connection behind (its rest would be read as the next request).
func FuzzBodyGuard(f *testing.F) {
	reader := loopback(f, http.HandlerFunc(echoBody))
	refuser := loopback(f, http.HandlerFunc(refuseAtOnce))
	f.Add(uint16(5), []byte("hello"), true, false)
	f.Add(uint16(100), []byte("hello"), true, false)
	f.Add(uint16(100), []byte("hello"), false, false)
	f.Add(uint16(0), []byte{}, true, false)
	f.Add(uint16(3), []byte("abc"), false, true)
	f.Add(uint16(20000), []byte("{}"), true, true)
	f.Fuzz(func(t *testing.T, declared uint16, sent []byte, read, chunked bool) {
		if len(sent) > int(declared) {
			sent = sent[:declared]
		}
		complete := len(sent) == int(declared)
		head := "POST /x HTTP/1.1\r\nHost: x\r\n"
		body := string(sent)
		if chunked {
			head += "Transfer-Encoding: chunked\r\n\r\n"
			if len(sent) > 0 {
				body = strconv.FormatInt(int64(len(sent)), 16) + "\r\n" + body + "\r\n"
			}
			if complete {
				body += "0\r\n\r\n"
			}
		} else {
			head += "Content-Length: " + strconv.Itoa(int(declared)) + "\r\n\r\n"
		}
		addr := refuser
		if read {
			addr = reader
		}
		res := exchange(t, addr, head+body, true)
		switch {
		case !read:
			if res == nil || res.StatusCode != http.StatusTooManyRequests || (!res.Close && declared > 0) {
				t.Fatalf("a refusal without reading %d/%d body bytes: %+v, want 429 closing the connection", len(sent), declared, res)
			}
		case complete:
			if res == nil || res.StatusCode != http.StatusOK || res.Close {
				t.Fatalf("a whole body of %d bytes: %+v, want 200 on a kept connection", declared, res)
			}
		default:
			if res != nil && !res.Close {
				t.Fatalf("a body cut at %d of %d bytes left the connection open: %+v", len(sent), declared, res)
			}
		}
	})
}
