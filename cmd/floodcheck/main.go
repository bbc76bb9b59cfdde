// Command floodcheck replays CONTRACT section 9's hostile traffic against a
// running relay on loopback and checks that the relay's bounds hold: made-up
// methods do not grow /metrics, floods of oversized headers do not grow its
// memory past a bound, and stalled bodies do not hold connections past the
// body timeout nor take /healthz down. It reads the relay's resident memory
// from /proc, so it runs on the relay's machine (Linux).
//
// loadkit/hostile.sh (make bench-hostile) starts a relay and runs it; it
// prints one table and exits 1 when a bound does not hold.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/closerelay/closerelay/internal/procfs"
)

func main() { os.Exit(run()) }

type options struct {
	api, ops     string
	pid          int
	methods      int
	headerConns  int
	headerBytes  int
	stallConns   int
	stallTimeout time.Duration
}

// Bounds the relay must hold. They are generous against the figures of
// BENCHMARKS.md so that a busy machine does not fail a sound relay, and far
// below what the unbounded relay did (169 MB of /metrics, 1.43 GiB).
const (
	maxMetricsGrowth = 64 << 10  // bytes of /metrics added by the method flood
	maxHeaderRSS     = 256 << 20 // resident growth at the peak of the header flood
	stallGrace       = 3 * time.Second
)

func run() int {
	var o options
	flag.StringVar(&o.api, "api", "127.0.0.1:8080", "the relay's API listener")
	flag.StringVar(&o.ops, "ops", "127.0.0.1:9090", "the relay's ops listener")
	flag.IntVar(&o.pid, "pid", 0, "the relay's process id, to read its resident memory")
	flag.IntVar(&o.methods, "methods", 20000, "requests with made-up methods")
	flag.IntVar(&o.headerConns, "header-conns", 2500, "connections each sending -header-bytes of unterminated headers")
	flag.IntVar(&o.headerBytes, "header-bytes", 1<<20, "header bytes each header-flood connection tries to send")
	flag.IntVar(&o.stallConns, "stall-conns", 3000, "connections each sending 5 of 100 body bytes, then nothing")
	flag.DurationVar(&o.stallTimeout, "body-timeout", 10*time.Second, "the relay's body timeout")
	flag.Parse()
	if o.pid <= 0 {
		fmt.Fprintln(os.Stderr, "floodcheck: -pid is required")
		return 2
	}
	_, _, _ = procfs.RaiseNoFile() // the floods hold thousands of connections at once

	var failed bool
	row := func(check, measured, bound string, ok bool) {
		verdict := "met"
		if !ok {
			verdict = "NOT MET"
			failed = true
		}
		fmt.Printf("| %s | %s | %s | %s |\n", check, measured, bound, verdict)
	}
	fmt.Println("| check | measured | bound | verdict |")
	fmt.Println("|---|---|---|---|")

	// 1. Made-up methods.
	before, err := metricsSize(o.ops)
	if err != nil {
		fmt.Fprintln(os.Stderr, "floodcheck:", err)
		return 1
	}
	sent := methodFlood(o.api, o.methods)
	after, err := metricsSize(o.ops)
	if err != nil {
		fmt.Fprintln(os.Stderr, "floodcheck:", err)
		return 1
	}
	row(fmt.Sprintf("/metrics after %d requests with made-up methods", sent),
		fmt.Sprintf("%d → %d bytes (+%d)", before, after, after-before),
		fmt.Sprintf("+%d KiB", maxMetricsGrowth>>10), after-before <= maxMetricsGrowth)

	// 2. Oversized headers.
	base := rss(o.pid)
	peak, refused := headerFlood(o.api, o.pid, o.headerConns, o.headerBytes)
	row(fmt.Sprintf("resident memory, %d connections × %d KiB of headers", o.headerConns, o.headerBytes>>10),
		fmt.Sprintf("%d → peak %d MiB (+%d MiB); %d answered 431", base>>20, peak>>20, (peak-base)>>20, refused),
		fmt.Sprintf("+%d MiB", maxHeaderRSS>>20), peak-base <= maxHeaderRSS)

	// 3. Stalled bodies.
	longest, open, healthy := stallFlood(o.api, o.ops, o.stallConns, o.stallTimeout+stallGrace)
	row(fmt.Sprintf("longest life of %d stalled-body connections", o.stallConns),
		fmt.Sprintf("%v (%d still open at the bound)", longest.Round(10*time.Millisecond), open),
		fmt.Sprintf("%v", o.stallTimeout+stallGrace), open == 0)
	row("/healthz during the stalled-body flood", healthy, "200", healthy == "200")

	fmt.Printf("\nresident memory at the end: %d MiB\n", rss(o.pid)>>20)
	if failed {
		return 1
	}
	return 0
}

// rss is process pid's resident set in bytes (0 when it cannot be read).
func rss(pid int) int64 {
	m, err := procfs.ReadMemory(strconv.Itoa(pid))
	if err != nil {
		return 0
	}
	return m.RSS
}

func metricsSize(ops string) (int, error) {
	res, err := http.Get("http://" + ops + "/metrics")
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return len(b), err
}

// methodFlood sends n requests with n distinct made-up methods from 32
// keep-alive workers and returns how many were answered.
func methodFlood(api string, n int) int {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 32}, Timeout: 10 * time.Second}
	var next, answered atomic.Int64
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			for {
				i := next.Add(1)
				if i > int64(n) {
					return
				}
				path := []string{"/api/plan", "/api/mediator/sign", "/api/plan/" + strings.Repeat("a", 64)}[i%3]
				req, err := http.NewRequest(fmt.Sprintf("FLOOD%06d", i), "http://"+api+path, nil)
				if err != nil {
					continue
				}
				res, err := client.Do(req)
				if err != nil {
					continue
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				answered.Add(1)
			}
		})
	}
	wg.Wait()
	return int(answered.Load())
}

// headerFlood opens conns connections at once, each trying to send size
// bytes of headers that never end, and samples the relay's resident memory
// meanwhile. It returns the peak and how many connections got a 431.
func headerFlood(api string, pid, conns, size int) (peak int64, refused int) {
	stop := make(chan struct{})
	sampled := make(chan int64)
	go func() {
		var p int64
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			if r := rss(pid); r > p {
				p = r
			}
			select {
			case <-stop:
				sampled <- p
				return
			case <-t.C:
			}
		}
	}()
	pad := strings.Repeat("a", 64<<10)
	var n431 atomic.Int64
	var wg sync.WaitGroup
	for range conns {
		wg.Go(func() {
			c, err := net.DialTimeout("tcp", api, 10*time.Second)
			if err != nil {
				return
			}
			defer c.Close()
			_ = c.SetDeadline(time.Now().Add(60 * time.Second))
			go func() {
				if _, err := io.WriteString(c, "GET /api/plan HTTP/1.1\r\nHost: x\r\nX-Pad: "); err != nil {
					return
				}
				for sent := 0; sent < size; sent += len(pad) {
					if _, err := io.WriteString(c, pad); err != nil {
						return
					}
				}
			}()
			res, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err == nil {
				res.Body.Close()
				if res.StatusCode == http.StatusRequestHeaderFieldsTooLarge {
					n431.Add(1)
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	return <-sampled, int(n431.Load())
}

// stallFlood opens conns connections that each send 5 of 100 announced body
// bytes and then nothing, and measures how long the relay keeps each; a
// third of the way through it asks /healthz. It gives up on a connection
// bound after it opened, reporting how many were still open then.
func stallFlood(api, ops string, conns int, bound time.Duration) (longest time.Duration, open int, healthz string) {
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	var mu sync.Mutex
	var stillOpen int
	var wg sync.WaitGroup
	for range conns {
		wg.Go(func() {
			c, err := (&net.Dialer{}).DialContext(ctx, "tcp", api)
			if err != nil {
				return
			}
			defer c.Close()
			opened := time.Now()
			if _, err := io.WriteString(c, "POST /api/plan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\nhello"); err != nil {
				return
			}
			_ = c.SetReadDeadline(opened.Add(bound))
			_, err = io.Copy(io.Discard, c) // until the relay closes it
			life := time.Since(opened)
			mu.Lock()
			defer mu.Unlock()
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				stillOpen++
				return
			}
			longest = max(longest, life)
		})
	}
	time.Sleep(bound / 3)
	healthz = "no answer"
	hc := &http.Client{Timeout: 5 * time.Second}
	if res, err := hc.Get("http://" + ops + "/healthz"); err == nil {
		healthz = strconv.Itoa(res.StatusCode)
		res.Body.Close()
	} else {
		healthz = err.Error()
	}
	wg.Wait()
	return longest, stillOpen, healthz
}
