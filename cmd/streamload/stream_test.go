package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const planID = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

func stateEvent(version, signers int, pad int) string {
	keys := make([]string, signers)
	for i := range keys {
		keys[i] = fmt.Sprintf(`"G%055d"`, i)
	}
	return fmt.Sprintf("id: %d\ndata: {\"network\":\"testnet\",\"xdr\":\"%s\",\"id\":\"%s\",\"signers\":[%s]}\n\n",
		version, strings.Repeat("A", pad), planID, strings.Join(keys, ","))
}

func TestEventState(t *testing.T) {
	needle := planNeedle(planID)
	parse := func(s string) sseEvent {
		var p sseParser
		for line := range strings.Lines(s) {
			if ev, ok := p.line([]byte(line)); ok {
				return ev
			}
		}
		t.Fatalf("no event in %q", s)
		return sseEvent{}
	}
	for _, c := range []struct {
		version, signers int
	}{{1, 1}, {7, 0}, {12, 20}} {
		v, n, err := eventState(parse(stateEvent(c.version, c.signers, 100)), needle)
		if err != nil || v != uint64(c.version) || n != c.signers {
			t.Errorf("eventState = %d, %d, %v; want %d, %d", v, n, err, c.version, c.signers)
		}
	}
	for name, s := range map[string]string{
		"no id line":      "data: {\"id\":\"" + planID + "\",\"signers\":[]}\n\n",
		"another plan":    strings.Replace(stateEvent(1, 1, 10), planID, strings.Repeat("0", 64), 1),
		"no signers list": "id: 1\ndata: {\"id\":\"" + planID + "\"}\n\n",
	} {
		if _, _, err := eventState(parse(s), needle); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

func TestParseTarget(t *testing.T) {
	for _, c := range []struct {
		relay string
		want  target
	}{
		{"http://127.0.0.1:8080", target{addr: "127.0.0.1:8080", host: "127.0.0.1:8080", loopback: true}},
		{"http://localhost:8080/relay/", target{addr: "127.0.0.1:8080", host: "localhost:8080", prefix: "/relay", loopback: true}},
		{"http://0.0.0.0:8080", target{addr: "0.0.0.0:8080", host: "0.0.0.0:8080", loopback: true}},
		{"http://relay.example", target{addr: "relay.example:80", host: "relay.example"}},
	} {
		if got, err := parseTarget(c.relay); err != nil || got != c.want {
			t.Errorf("parseTarget(%q) = %+v, %v; want %+v", c.relay, got, err, c.want)
		}
	}
	if _, err := parseTarget("https://relay.example"); err == nil {
		t.Error("https: want an error (the lean client has no TLS)")
	}
}

func TestSourceAddr(t *testing.T) {
	for i, want := range map[int]string{0: "127.0.0.1", 253: "127.0.0.254", 254: "127.0.1.1", 254 * 256: "127.1.0.1", 254*65536 - 1: "127.255.255.254"} {
		if got := sourceAddr(i).String(); got != want {
			t.Errorf("sourceAddr(%d) = %s, want %s", i, got, want)
		}
	}
}

// serveOnce answers one stream request on a pipe with response, written in
// pieces as a socket might deliver it, then hangs up; it returns the client's
// end.
func serveOnce(t *testing.T, response string) net.Conn {
	client, server := net.Pipe()
	t.Cleanup(func() { client.Close(); server.Close() })
	go func() {
		defer server.Close()
		req, err := http.ReadRequest(bufio.NewReader(server))
		if err != nil || req.Method != http.MethodGet || req.URL.Path != "/api/plan/"+planID+"/events" || req.Host != "relay.test" {
			return
		}
		for len(response) > 0 {
			n := min(len(response), 1000)
			if _, err := server.Write([]byte(response[:n])); err != nil {
				return
			}
			response = response[n:]
		}
	}()
	return client
}

// chunked frames body as a Go server does for a streamed response, in chunks
// of at most size bytes.
func chunked(body string, size int) string {
	var b strings.Builder
	for len(body) > 0 {
		n := min(len(body), size)
		fmt.Fprintf(&b, "%x\r\n%s\r\n", n, body[:n])
		body = body[n:]
	}
	return b.String()
}

func TestHandshakeAndRead(t *testing.T) {
	head := "HTTP/1.1 200 OK\r\nCache-Control: no-store\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nX-A-Very-Long-Header: " + strings.Repeat("x", 5000) + "\r\n\r\n"
	// The second event is longer than the 4 KB line buffer and split across
	// chunks; a heartbeat comes between the events.
	body := stateEvent(1, 1, 50) + ": ping\n\n" + stateEvent(2, 2, 6000) + stateEvent(3, 3, 50) + "event: expired\ndata: {}\n\n"
	conn := serveOnce(t, head+chunked(body, 1500))
	p := &planRun{id: planID, needle: planNeedle(planID)}
	s, err := handshake(conn, target{host: "relay.test"}, p)
	if err != nil {
		t.Fatal(err)
	}
	if s.v0 != 1 || s.c0 != 1 {
		t.Errorf("first event: version %d with %d signers, want 1 with 1", s.v0, s.c0)
	}
	var stopping atomic.Bool
	s.read(time.Now(), &stopping)
	if len(s.arrivals) != 2 || s.arrivals[0].signers != 2 || s.arrivals[1].signers != 3 || s.top.Load() != 3 {
		t.Errorf("arrivals %+v (top %d), want 2 then 3 signers", s.arrivals, s.top.Load())
	}
	if s.bad != 0 || s.parser.comments != 1 {
		t.Errorf("%d bad events (%v), %d comments", s.bad, s.badErr, s.parser.comments)
	}
	if s.err == nil || !strings.Contains(s.err.Error(), `"expired"`) {
		t.Errorf("the expired event should end the stream early: %v", s.err)
	}
}

// An event whose version and signers do not move in step is counted as bad,
// not as an arrival.
func TestReadFlagsInconsistentEvents(t *testing.T) {
	head := "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n" // not chunked: the body runs to the end
	conn := serveOnce(t, head+stateEvent(3, 1, 10)+stateEvent(5, 2, 10)+stateEvent(4, 2, 10))
	s, err := handshake(conn, target{host: "relay.test"}, &planRun{id: planID, needle: planNeedle(planID)})
	if err != nil {
		t.Fatal(err)
	}
	var stopping atomic.Bool
	s.read(time.Now(), &stopping)
	if len(s.arrivals) != 1 || s.arrivals[0].signers != 2 || s.bad != 1 || s.badErr == nil {
		t.Errorf("arrivals %+v, %d bad (%v); want one arrival (version 4) and one bad (version 5)", s.arrivals, s.bad, s.badErr)
	}
}

func TestHandshakeRefusals(t *testing.T) {
	for _, c := range []struct{ response, kind string }{
		{"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Type: text/plain\r\n\r\ntoo many live listeners; retry shortly", "HTTP 503"},
		{"HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\n\r\nsigning request not found", "HTTP 404"},
		{"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{}", "response"},
		{"SSH-2.0-OpenSSH\r\n", "response"},
		{"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\nevent: expired\ndata: {}\n\n", "first event"},
	} {
		_, err := handshake(serveOnce(t, c.response), target{host: "relay.test"}, &planRun{id: planID, needle: planNeedle(planID)})
		le, ok := err.(*loadError)
		if !ok || le.kind != c.kind {
			t.Errorf("%q: error %v, want kind %q", c.response, err, c.kind)
		}
	}
}
