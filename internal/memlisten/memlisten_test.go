package memlisten_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/internal/memlisten"
)

// TestServesHTTPInFakeTime is the reason the package exists: a handler that
// waits an hour answers at once in a bubble, over a real http.Server.
func TestServesHTTPInFakeTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ln := memlisten.New()
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(time.Hour)
			io.WriteString(w, "late")
		})}
		served := make(chan error, 1)
		go func() { served <- srv.Serve(ln) }()

		start := time.Now()
		c := ln.Client()
		resp, err := c.Get("http://anything.test/")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) != "late" || time.Since(start) != time.Hour {
			t.Fatalf("body %q after %v, want \"late\" after 1h of fake time", body, time.Since(start))
		}

		c.CloseIdleConnections()
		if err := srv.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := <-served; !errors.Is(err, http.ErrServerClosed) {
			t.Fatalf("Serve = %v", err)
		}
	})
}

func TestClosedListenerRefusesDials(t *testing.T) {
	ln := memlisten.New()
	ln.Close()
	ln.Close() // idempotent
	if _, err := ln.Dial(context.Background(), "tcp", "x"); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Dial after Close = %v, want net.ErrClosed", err)
	}
	if _, err := ln.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Accept after Close = %v, want net.ErrClosed", err)
	}
}

func TestDialHonoursContext(t *testing.T) {
	ln := memlisten.New()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ln.Dial(ctx, "tcp", "x"); err == nil {
		t.Fatal("Dial with a cancelled context and nobody accepting succeeded")
	}
}
