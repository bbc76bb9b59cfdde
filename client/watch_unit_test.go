package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// These tests drive Watch against scripted servers, for the behaviours a
// real relay does not produce on demand: silence, odd headers, errors.

func newTestClient(t *testing.T, url string, opts ...Option) *Client {
	t.Helper()
	opts = append([]Option{WithPollInterval(5 * time.Millisecond), WithReconnectDelay(time.Millisecond, 5*time.Millisecond)}, opts...)
	c, err := New(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const planID = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

func event(version int, xdr string) string {
	return fmt.Sprintf("id: %d\ndata: {\"network\":\"testnet\",\"xdr\":%q,\"id\":%q,\"signers\":[]}\n\n", version, xdr, planID)
}

func TestWatchIdleTimeoutReconnects(t *testing.T) {
	var conns atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := conns.Add(1)
		w.Header().Set("Content-Type", "text/event-stream")
		if n > 1 && r.Header.Get("Last-Event-ID") != "1" {
			t.Errorf("reconnect Last-Event-ID = %q, want 1", r.Header.Get("Last-Event-ID"))
		}
		fmt.Fprint(w, event(int(n), fmt.Sprintf("X%d", n)))
		w.(http.Flusher).Flush()
		<-r.Context().Done() // then silence, as a half-open connection
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL, WithIdleTimeout(20*time.Millisecond))
	var got []string
	err := c.Watch(context.Background(), planID, func(s State) error {
		got = append(got, s.XDR)
		if len(got) == 2 {
			return ErrStopWatch
		}
		return nil
	})
	if err != nil || strings.Join(got, ",") != "X1,X2" {
		t.Fatalf("Watch = %v, states %v", err, got)
	}
}

func TestWatchDedupesRepeatedState(t *testing.T) {
	var conns atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		switch conns.Add(1) {
		case 1:
			fmt.Fprint(w, event(1, "A")+": ping\n\n"+event(2, "B"))
		case 2: // the reconnect repeats the current state, then moves on
			fmt.Fprint(w, event(2, "B")+event(3, "C")+"event: expired\ndata: {}\n\n")
		}
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL)
	var got []string
	err := c.Watch(context.Background(), planID, func(s State) error { got = append(got, fmt.Sprint(s.Version, s.XDR)); return nil })
	if !errors.Is(err, ErrExpired) || strings.Join(got, ",") != "1A,2B,3C" {
		t.Fatalf("Watch = %v, states %v", err, got)
	}
}

func TestWatchIgnoresOtherPlansAndEvents(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		fmt.Fprint(w, "id: 1\ndata: {\"xdr\":\"OTHER\",\"id\":\"bbbb\"}\n\nevent: custom\ndata: x\n\ndata: not json\n\n"+event(2, "MINE")+"event: expired\ndata: {}\n\n")
	}))
	defer srv.Close()
	var got []string
	err := newTestClient(t, srv.URL).Watch(context.Background(), planID, func(s State) error { got = append(got, s.XDR); return nil })
	if !errors.Is(err, ErrExpired) || strings.Join(got, ",") != "MINE" {
		t.Fatalf("Watch = %v, states %v", err, got)
	}
}

func TestWatchPollsWithoutRetryAfterThenStreamsAgain(t *testing.T) {
	var streams, polls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/events") {
			if streams.Add(1) == 1 {
				http.Error(w, "too many live listeners; retry shortly", http.StatusServiceUnavailable)
				return
			}
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, event(5, "S")+"event: expired\ndata: {}\n\n")
			return
		}
		polls.Add(1)
		fmt.Fprint(w, `{"ok":true,"network":"testnet","xdr":"P"}`)
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL, WithStreamRetry(30*time.Millisecond))
	var got []string
	var notices []NoticeKind
	err := c.Watch(context.Background(), planID, func(s State) error {
		got = append(got, fmt.Sprint(s.Polled, s.XDR))
		return nil
	}, WatchNotify(func(n Notice) { notices = append(notices, n.Kind) }))
	if !errors.Is(err, ErrExpired) || strings.Join(got, ",") != "trueP,falseS" {
		t.Fatalf("Watch = %v, states %v", err, got)
	}
	if polls.Load() < 1 || notices[0] != NoticePolling {
		t.Fatalf("polls %d, notices %v", polls.Load(), notices)
	}
}

func TestWatchPoll404Ends(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/events") {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "too many requests", http.StatusTooManyRequests)
			return
		}
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"ok":false,"code":"NOT_FOUND","reason":"signing request not found"}`)
	}))
	defer srv.Close()
	err := newTestClient(t, srv.URL).Watch(context.Background(), planID, func(State) error { return nil })
	var e *Error
	if !errors.As(err, &e) || e.Status != 404 || e.Code != "NOT_FOUND" {
		t.Fatalf("Watch = %v, want 404 NOT_FOUND", err)
	}
}

func TestWatchFirstTransportFailureReturns(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	err := newTestClient(t, url).Watch(context.Background(), planID, func(State) error { return nil })
	var e *Error
	if err == nil || errors.As(err, &e) {
		t.Fatalf("Watch = %v, want a transport error", err)
	}
}

func TestWatchWrongContentType(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "<html>proxy login</html>")
	}))
	defer srv.Close()
	err := newTestClient(t, srv.URL).Watch(context.Background(), planID, func(State) error { return nil })
	if !errors.Is(err, ErrUnexpectedResponse) {
		t.Fatalf("Watch = %v, want ErrUnexpectedResponse", err)
	}
}

func TestWatchContextEnds(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, event(1, "A"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	err := newTestClient(t, srv.URL).Watch(ctx, planID, func(State) error { cancel(); return nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Watch = %v, want context.Canceled", err)
	}
}

func TestErrorFromBodies(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/plan":
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"ok":false,"code":"RATE_LIMITED","reason":"slow down"}`)
		case "/api/mediator/sign":
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprint(w, strings.Repeat("x", 2000))
		default:
			fmt.Fprint(w, `{"ok":true}`) // a 200 without the contract's fields
		}
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL+"/") // a trailing slash is not doubled
	_, err := c.Publish(context.Background(), "testnet", "x")
	var e *Error
	if !errors.As(err, &e) || e.Status != 429 || e.Code != "RATE_LIMITED" || e.Reason != "slow down" || e.RetryAfter != 7*time.Second {
		t.Fatalf("Publish = %#v", err)
	}
	if want := "closerelay: 429 Too Many Requests RATE_LIMITED: slow down (retry after 7s)"; e.Error() != want {
		t.Fatalf("Error() = %q, want %q", e.Error(), want)
	}
	_, err = c.MediatorMint(context.Background(), "G")
	if !errors.As(err, &e) || e.Status != 502 || e.Code != "" || len(e.Reason) > maxReasonBytes+len("…") {
		t.Fatalf("MediatorMint = %v", err)
	}
	if _, err := c.Get(context.Background(), planID); !errors.Is(err, ErrUnexpectedResponse) {
		t.Fatalf("Get = %v, want ErrUnexpectedResponse", err)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for in, want := range map[string]time.Duration{
		"":          0,
		"5":         5 * time.Second,
		" 12 ":      12 * time.Second,
		"-1":        0,
		"soon":      0,
		"999999999": 0,
		now.Add(90 * time.Second).Format(http.TimeFormat): 90 * time.Second,
		now.Add(-time.Hour).Format(http.TimeFormat):       0,
	} {
		if got := parseRetryAfter(in, now); got != want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestNewRejectsBadBaseURL(t *testing.T) {
	for _, u := range []string{"", "localhost:8080", "ftp://x", "http://"} {
		if _, err := New(u); err == nil {
			t.Errorf("New(%q) succeeded", u)
		}
	}
}
