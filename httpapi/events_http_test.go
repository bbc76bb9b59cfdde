package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/client/sse"
	"github.com/closerelay/closerelay/httpapi"
	"github.com/stellar/go-stellar-sdk/keypair"
	"go.uber.org/goleak"
)

// sseRelay is the shared test relay.
type sseRelay = testRelay

func sseStart(t *testing.T, opts httpapi.Options) *sseRelay {
	t.Helper()
	return startRelay(t, opts, 0, nil)
}

// TestSSEHeadersAndFirstEvent: headers of a stream (no compression even when
// asked for) and the current state sent at once as event id 1.
func TestSSEHeadersAndFirstEvent(t *testing.T) {
	r := sseStart(t, httpapi.Options{})
	f := sseNewFixture(2, 0)
	r.Horizon.AddAccount(f.acct)
	ssePublish(t, r.Client, r.URL, f.signed(f.acct.Keys[0]))

	s := sseOpen(t, r.Client, r.URL, f.id, http.Header{"Accept-Encoding": {"gzip"}})
	h := s.Resp.Header
	if ct := h.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type = %q, want text/event-stream", ct)
	}
	if cc := h.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", cc)
	}
	if v := h.Get("X-Accel-Buffering"); v != "no" {
		t.Errorf("X-Accel-Buffering = %q, want no", v)
	}
	if ce, ok := h["Content-Encoding"]; ok {
		t.Errorf("Content-Encoding = %q, want none", ce)
	}
	ev := s.next(t, 5*time.Second)
	sseCheckState(t, ev, f, 1, f.acct.Keys[0])

	// The same through a path id in upper case.
	s2 := sseOpen(t, r.Client, r.URL, strings.ToUpper(f.id), nil)
	sseCheckState(t, s2.next(t, 5*time.Second), f, 1, f.acct.Keys[0])
}

// TestSSEChangesAndNoOps: a sign that adds a signer is the next event; a
// duplicate sign sends nothing; a re-publish that merges sends an event.
func TestSSEChangesAndNoOps(t *testing.T) {
	r := sseStart(t, httpapi.Options{})
	f := sseNewFixture(4, 0)
	k := f.acct.Keys
	r.Horizon.AddAccount(f.acct)
	ssePublish(t, r.Client, r.URL, f.signed(k[0]))
	s := sseOpen(t, r.Client, r.URL, f.id, nil)
	sseCheckState(t, s.next(t, 5*time.Second), f, 1, k[0])

	sign1 := f.signed(k[1])
	sseSign(t, r.Client, r.URL, f.id, sign1)
	sseCheckState(t, s.next(t, 5*time.Second), f, 2, k[0], k[1])

	// The very same signature again, and a re-publish of what is stored:
	// both change nothing, so nothing is sent: the next event a subscriber
	// sees is the next real change, as version 3 (a no-op event would have
	// come first, or taken version 3 with two signers).
	sseSign(t, r.Client, r.URL, f.id, sign1)
	ssePublish(t, r.Client, r.URL, f.signed(k[0], k[1]))
	sseSign(t, r.Client, r.URL, f.id, f.signed(k[2]))
	sseCheckState(t, s.next(t, 5*time.Second), f, 3, k[0], k[1], k[2])

	// A re-publish carrying a new signature merges and is an event.
	ssePublish(t, r.Client, r.URL, f.signed(k[3]))
	sseCheckState(t, s.next(t, 5*time.Second), f, 4, k[0], k[1], k[2], k[3])
}

// TestSSERefusals: the 51st subscriber of a plan is refused with the
// plain-text 503 and retry-after: 5; an unknown plan is the plain-text 404.
func TestSSERefusals(t *testing.T) {
	r := sseStart(t, httpapi.Options{RateLimits: false})
	f := sseNewFixture(1, 0)
	r.Horizon.AddAccount(f.acct)
	ssePublish(t, r.Client, r.URL, f.signed(f.acct.Keys[0]))

	for range actor.DefaultMaxSubscribers {
		s := sseOpen(t, r.Client, r.URL, f.id, nil)
		s.next(t, 5*time.Second)
	}
	check := func(id string, status int, body, retry string) {
		t.Helper()
		resp, cancel, err := sseOpenReq(t.Context(), r.Client, r.URL+"/api/plan/"+id+"/events", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cancel()
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != status || string(b) != body {
			t.Errorf("%s: got %d %q, want %d %q", id, resp.StatusCode, b, status, body)
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
			t.Errorf("%s: Content-Type = %q, want text/plain", id, ct)
		}
		if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("%s: Cache-Control = %q, want no-store", id, cc)
		}
		if got := resp.Header.Get("retry-after"); got != retry {
			t.Errorf("%s: retry-after = %q, want %q", id, got, retry)
		}
	}
	check(f.id, http.StatusServiceUnavailable, "too many live listeners; retry shortly", "5")
	check(strings.Repeat("ab", 32), http.StatusNotFound, "signing request not found", "")
	check("not-an-id", http.StatusNotFound, "signing request not found", "")
}

// TestSSEDrainEndsStreams: Drain ends every open stream cleanly, and a
// stream opened after it ends at once.
func TestSSEDrainEndsStreams(t *testing.T) {
	r := sseStart(t, httpapi.Options{})
	f := sseNewFixture(1, 0)
	r.Horizon.AddAccount(f.acct)
	ssePublish(t, r.Client, r.URL, f.signed(f.acct.Keys[0]))
	var streams []*sseStream
	for range 3 {
		s := sseOpen(t, r.Client, r.URL, f.id, nil)
		s.next(t, 5*time.Second)
		streams = append(streams, s)
	}
	r.API.Drain()
	for _, s := range streams {
		s.end(t, 5*time.Second)
	}
	late := sseOpen(t, r.Client, r.URL, f.id, nil)
	// It may or may not get the current state first; either way it ends.
	for {
		select {
		case it, ok := <-late.items:
			if !ok {
				t.Fatal("items closed without an end")
			}
			if it.err == nil {
				continue
			}
			if it.err != io.EOF {
				t.Fatalf("late stream ended with %v, want io.EOF", it.err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a stream opened after Drain did not end")
		}
		break
	}
}

// TestSSEStalledClient: subscribers that stop reading delay neither the
// signs nor the other subscribers, keep their slots until the write bound,
// and when they read again get the newest state, the versions between
// skipped (CONTRACT section 5). It runs in a
// synctest bubble over in-memory pipes, which have no buffer: a write to a
// client that does not read blocks at once, and a sign that waited on one
// would leave every goroutine of the bubble blocked, which fails the test.
func TestSSEStalledClient(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startBubbleRelay()
		const n = 19 // 1 signature at publish + 19 signs: the 20-signature cap
		f := sseNewFixture(n, time.Now().Add(72*time.Hour).Unix())
		k := f.acct.Keys // k[n] is the master
		r.Horizon.AddAccount(f.acct)
		ssePublish(t, r.Client, r.Base, f.signed(k[n]))

		// Each stalled client reads its stream's first event, then stops.
		var stalled []*bufio.Reader
		for range 3 {
			conn, err := r.Dial(context.Background(), "tcp", "relay.test")
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := io.WriteString(conn, "GET /api/plan/"+f.id+"/events HTTP/1.1\r\nHost: relay.test\r\n\r\n"); err != nil {
				t.Fatal(err)
			}
			br := bufio.NewReader(conn)
			for line := ""; !strings.HasPrefix(line, "data: "); {
				if line, err = br.ReadString('\n'); err != nil {
					t.Fatalf("reading the first event: %v", err)
				}
			}
			stalled = append(stalled, br)
		}
		live := sseOpen(t, r.Client, r.Base, f.id, nil)
		live2 := sseOpen(t, r.Client, r.Base, f.id, nil)
		sseCheckState(t, live.next(t, time.Second), f, 1, k[n])
		sseCheckState(t, live2.next(t, time.Second), f, 1, k[n])

		signers := []*keypair.Full{k[n]}
		for i := range n {
			sseSign(t, r.Client, r.Base, f.id, f.signed(k[i]))
			signers = append(signers, k[i])
			sseCheckState(t, live.next(t, time.Second), f, i+2, signers...)
			sseCheckState(t, live2.next(t, time.Second), f, i+2, signers...)
		}
		synctest.Wait()
		// No time has passed: the stalled streams still hold their slots.
		if got := metricValue(t, r.relay.Metrics, "closerelay_stream_subscribers"); got != 5 {
			t.Errorf("stream subscribers = %v, want 5 (3 stalled, 2 live)", got)
		}
		// Reading again, each stalled client gets at most the event its
		// stream was blocked on, then the newest state: the versions
		// between were skipped, never queued.
		for i, br := range stalled {
			rd := sse.NewReader(br)
			var seen []int // each state event's signature count: its version
			for len(seen) == 0 || seen[len(seen)-1] < n+1 {
				ev, err := rd.Next()
				if err != nil {
					t.Fatalf("stalled client %d after %v: %v", i, seen, err)
				}
				var d struct{ Signers []string }
				if ev.Type == "message" && json.Unmarshal([]byte(ev.Data), &d) == nil {
					seen = append(seen, len(d.Signers))
				}
			}
			if len(seen) > 2 {
				t.Errorf("stalled client %d read versions %v once it read again, want the newest (%d) after at most the one it stalled on", i, seen, n+1)
			}
		}
		live.Close()
		live2.Close()
		r.Stop(t)
	})
}

// TestSSESubscribeCyclesNoLeak: 1,000 subscribe/unsubscribe cycles over HTTP
// leave no goroutine and no subscriber slot behind.
func TestSSESubscribeCyclesNoLeak(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	r := sseStart(t, httpapi.Options{})
	f := sseNewFixture(1, 0)
	r.Horizon.AddAccount(f.acct)
	ssePublish(t, r.Client, r.URL, f.signed(f.acct.Keys[0]))

	url := r.URL + "/api/plan/" + f.id + "/events"
	for i := range 1000 {
		resp, cancel, err := sseOpenReq(context.Background(), r.Client, url, nil)
		if err != nil {
			t.Fatalf("cycle %d: %v", i, err)
		}
		if resp.StatusCode != http.StatusOK {
			cancel()
			t.Fatalf("cycle %d: status %d", i, resp.StatusCode)
		}
		rd := sse.NewReader(resp.Body)
		if ev, err := rd.Next(); err != nil || ev.ID != "1" {
			t.Fatalf("cycle %d: first event %+v, %v", i, ev, err)
		}
		cancel()
		resp.Body.Close()
	}
	// Every slot is free again: the full 50 can subscribe (the server
	// notices a cancelled request asynchronously, so retry briefly).
	deadline := time.Now().Add(10 * time.Second)
	var held []context.CancelFunc
	for len(held) < actor.DefaultMaxSubscribers {
		resp, cancel, err := sseOpenReq(context.Background(), r.Client, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode == http.StatusServiceUnavailable && time.Now().Before(deadline) {
			resp.Body.Close()
			cancel()
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("subscriber %d after the cycles: %d", len(held)+1, resp.StatusCode)
		}
		held = append(held, func() { cancel(); resp.Body.Close() })
	}
	for _, c := range held {
		c()
	}
	r.Stop(t)
	goleak.VerifyNone(t, ignore)
}

// TestSSEHeartbeatAndExpiry runs the relay in a synctest bubble over
// in-memory pipes: the default 25 s heartbeat, then `event: expired` and the
// end of the stream when the plan expires, and nothing left running after.
func TestSSEHeartbeatAndExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startBubbleRelay()
		h, client, base := r.Horizon, r.Client, r.Base

		baseStreams := r.relay.DetachedStreams()
		basePlans := r.Plans.Loops()

		// Expiry = maxTime - 60 s = now + 2 min.
		window := 2 * time.Minute
		f := sseNewFixture(1, time.Now().Add(window+time.Minute).Unix())
		h.AddAccount(f.acct)
		ssePublish(t, client, base, f.signed(f.acct.Keys[0]))

		s := sseOpen(t, client, base, f.id, nil)
		sseCheckState(t, s.next(t, time.Second), f, 1, f.acct.Keys[0])
		start := time.Now()

		pings := func() int {
			synctest.Wait()
			n := 0
			for {
				select {
				case c := <-s.comments:
					if c != "ping" {
						t.Errorf("comment %q, want ping", c)
					}
					n++
				default:
					return n
				}
			}
		}
		time.Sleep(25*time.Second - time.Millisecond)
		if n := pings(); n != 0 {
			t.Fatalf("%d pings before 25 s", n)
		}
		time.Sleep(time.Millisecond)
		if n := pings(); n != 1 {
			t.Fatalf("%d pings at 25 s, want 1", n)
		}
		select {
		case it := <-s.items:
			t.Fatalf("a heartbeat dispatched an event: %+v", it)
		default:
		}
		if n := r.Plans.Loops(); n != basePlans+1 {
			t.Errorf("plan loops = %d, want %d", n, basePlans+1)
		}
		if n := r.relay.DetachedStreams(); n != baseStreams+1 {
			t.Errorf("streams = %d, want %d", n, baseStreams+1)
		}

		// Expiry: `event: expired` with {"id":...}, then the end.
		time.Sleep(time.Until(start.Add(window)) - time.Millisecond)
		synctest.Wait()
		select {
		case it := <-s.items:
			t.Fatalf("before expiry: %+v", it)
		default:
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		ev := s.next(t, time.Nanosecond)
		if ev.Type != "expired" || ev.Data != `{"id":"`+f.id+`"}` {
			t.Errorf("expiry event = %+v, want expired with {\"id\":%q}", ev, f.id)
		}
		s.end(t, time.Nanosecond)
		if n := pings(); n != 3 { // at 50, 75 and 100 s
			t.Errorf("%d pings from 25 s to expiry at 120 s, want 3", n)
		}

		// The plan is gone: its loop, the stream, the route.
		if n := r.Plans.Loops(); n != basePlans {
			t.Errorf("plan loops after expiry = %d, want %d", n, basePlans)
		}
		if n := r.relay.DetachedStreams(); n != baseStreams {
			t.Errorf("streams after expiry = %d, want %d", n, baseStreams)
		}
		resp, err := client.Get(base + "/api/plan/" + f.id + "/events")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound || string(b) != "signing request not found" {
			t.Errorf("events after expiry = %d %q, want 404", resp.StatusCode, b)
		}

		// Shut everything down; synctest fails if any bubble goroutine remains.
		r.Stop(t)
		synctest.Wait()
	})
}
