package httpapi_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/actor"
)

// TestSSEStalledClientIsDroppedAfterWriteTimeout: a subscriber that stops
// reading holds its slot only until one write has been blocked for 15 s;
// then the slot is free for someone else. An in-memory pipe has no buffer,
// so a write blocks as soon as the client stops reading: both the very first
// write (headers) and a later event must be bounded.
func TestSSEStalledClientIsDroppedAfterWriteTimeout(t *testing.T) {
	for _, tc := range []struct {
		name string
		// stall reads what the client reads before it stops, and makes
		// the server write again if it has to.
		stall func(t *testing.T, r *bubbleRelay, f sseFixture, conn net.Conn)
	}{
		{"before the headers", func(*testing.T, *bubbleRelay, sseFixture, net.Conn) {}},
		{"after the first event", func(t *testing.T, r *bubbleRelay, f sseFixture, conn net.Conn) {
			br := bufio.NewReader(conn)
			for {
				line, err := br.ReadString('\n')
				if err != nil {
					t.Fatalf("reading the first event: %v", err)
				}
				if strings.HasPrefix(line, "data: ") {
					break
				}
			}
			// A new signer makes a new event, which this client never reads.
			sseSign(t, r.Client, r.Base, f.id, f.signed(f.acct.Keys[1]))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := startBubbleRelay()
				f := sseNewFixture(2, time.Now().Add(72*time.Hour).Unix())
				r.Horizon.AddAccount(f.acct)
				ssePublish(t, r.Client, r.Base, f.signed(f.acct.Keys[0]))

				stalled, err := r.Dial(context.Background(), "tcp", "relay.test")
				if err != nil {
					t.Fatal(err)
				}
				if _, err := io.WriteString(stalled, "GET /api/plan/"+f.id+"/events HTTP/1.1\r\nHost: relay.test\r\n\r\n"); err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
				// The other 49 read everything, heartbeats included.
				for range actor.DefaultMaxSubscribers - 1 {
					sseOpen(t, r.Client, r.Base, f.id, nil)
				}
				tc.stall(t, r, f, stalled)
				synctest.Wait()
				blocked := time.Now() // the server's write to the stalled client starts blocking now

				status := func() int {
					resp, cancel, err := sseOpenReq(context.Background(), r.Client, r.Base+"/api/plan/"+f.id+"/events", nil)
					if err != nil {
						t.Fatal(err)
					}
					resp.Body.Close()
					cancel()
					return resp.StatusCode
				}
				time.Sleep(time.Until(blocked.Add(15*time.Second)) - time.Nanosecond)
				synctest.Wait()
				if got := status(); got != http.StatusServiceUnavailable {
					t.Fatalf("just before the write timeout the 51st subscriber got %d, want 503 (the stalled one still holds its slot)", got)
				}
				time.Sleep(time.Nanosecond)
				synctest.Wait()
				if got := status(); got != http.StatusOK {
					t.Fatalf("at the write timeout the 51st subscriber got %d, want 200 (the stalled one dropped)", got)
				}

				stalled.Close()
				r.Stop(t)
			})
		})
	}
}

// TestSSEConnectionReusableAfterStreamEnds: a stream that ends at its plan's
// expiry leaves a keep-alive connection behind, and the client may send its
// next request on it much later. The write deadlines the stream set must not
// outlive the stream, or that later response would fail. net/http clears the
// deadline after each response today; this keeps it so if the stream ever
// takes the connection over (a hijack, say).
func TestSSEConnectionReusableAfterStreamEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startBubbleRelay()
		f := sseNewFixture(1, time.Now().Add(2*time.Minute).Unix()) // expiry in 1 min
		r.Horizon.AddAccount(f.acct)
		ssePublish(t, r.Client, r.Base, f.signed(f.acct.Keys[0]))

		s := sseOpen(t, r.Client, r.Base, f.id, nil)
		sseCheckState(t, s.next(t, time.Second), f, 1, f.acct.Keys[0])
		time.Sleep(time.Minute)
		if ev := s.next(t, time.Second); ev.Type != "expired" {
			t.Fatalf("want the expired event, got %+v", ev)
		}
		s.end(t, time.Second)
		s.Close()

		// Well past the 15 s write deadline, on the pooled connection:
		// a POST (never retried by the transport) must get its answer.
		time.Sleep(time.Minute)
		g := sseNewFixture(1, time.Now().Add(time.Hour).Unix())
		r.Horizon.AddAccount(g.acct)
		code, body, err := ssePost(t.Context(), r.Client, r.Base+"/api/plan", map[string]string{"network": "testnet", "xdr": g.signed(g.acct.Keys[0])})
		if err != nil || code != http.StatusOK {
			t.Fatalf("publish on the connection the stream used = %d %s %v", code, body, err)
		}
		r.Stop(t)
	})
}
