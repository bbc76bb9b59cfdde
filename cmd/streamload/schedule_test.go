package main

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// One partial per plan per interval, plans staggered across the interval, in
// the payload's order, until the duration or the partials run out.
func TestSignAllSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		partials := [][]string{{"a0", "a1", "a2", "a3", "a4"}, {"b0"}, {"c0", "c1", "c2", "c3", "c4"}, {}}
		start := time.Now()
		var mu sync.Mutex
		var sent []string
		posts := signAll(t.Context(), partials, time.Second, 2500*time.Millisecond, func(_ context.Context, plan int, partial string) postRecord {
			at := time.Since(start)
			mu.Lock()
			sent = append(sent, fmt.Sprintf("%s@%s", partial, at))
			mu.Unlock()
			time.Sleep(100 * time.Millisecond) // an answer takes time; the next send does not drift
			return postRecord{sent: at}
		})
		slices.Sort(sent)
		// Plan 1 starts a quarter interval after plan 0, plan 2 half of one;
		// c2 would be due at 2.5 s, which is not before the 2.5 s duration.
		want := []string{"a0@0s", "a1@1s", "a2@2s", "b0@250ms", "c0@500ms", "c1@1.5s"}
		if !slices.Equal(sent, want) {
			t.Errorf("sent %v, want %v", sent, want)
		}
		if n := []int{len(posts[0]), len(posts[1]), len(posts[2]), len(posts[3])}; !slices.Equal(n, []int{3, 1, 2, 0}) {
			t.Errorf("records per plan %v, want [3 1 2 0]", n)
		}
		if posts[2][1].sent != 1500*time.Millisecond {
			t.Errorf("plan 2's second record sent at %s, want 1.5s", posts[2][1].sent)
		}
	})
}

// A request slower than the interval delays the plan's next one, never
// overlaps it; the context ends the schedule.
func TestSignAllSlowAndCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		start := time.Now()
		var got []time.Duration
		posts := signAll(ctx, [][]string{{"a", "b", "c", "d"}}, time.Second, time.Hour, func(_ context.Context, _ int, p string) postRecord {
			got = append(got, time.Since(start))
			time.Sleep(1500 * time.Millisecond)
			if p == "c" {
				cancel()
			}
			return postRecord{}
		})
		want := []time.Duration{0, 1500 * time.Millisecond, 3 * time.Second}
		if !slices.Equal(got, want) || len(posts[0]) != 3 {
			t.Errorf("sent at %v (%d records), want %v", got, len(posts[0]), want)
		}
	})
}

// ramp never opens more than rate a second, nor more than workers at once,
// and opens every index exactly once.
func TestRampRateAndConcurrency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const n, rate, workers = 1000, 2000, 8
		start := time.Now()
		var mu sync.Mutex
		var at []time.Duration
		seen := make([]int, n)
		inFlight, maxInFlight := 0, 0
		ramp(t.Context(), n, rate, workers, func(i int) {
			mu.Lock()
			at = append(at, time.Since(start))
			seen[i]++
			inFlight++
			maxInFlight = max(maxInFlight, inFlight)
			mu.Unlock()
			time.Sleep(time.Millisecond) // a handshake
			mu.Lock()
			inFlight--
			mu.Unlock()
		})
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("index %d opened %d times", i, c)
			}
		}
		if maxInFlight > workers {
			t.Errorf("%d opens at once, want at most %d", maxInFlight, workers)
		}
		// By time T, at most rate×(T+rampTick) may have started.
		for k, d := range at {
			if allowed := int(int64(rate) * int64(d+rampTick) / int64(time.Second)); k+1 > allowed {
				t.Fatalf("open number %d started at %s, when only %d were allowed", k+1, d, allowed)
			}
		}
		// And it does not dawdle: 1000 at 2000 a second take about half a second.
		if last := at[len(at)-1]; last > 600*time.Millisecond {
			t.Errorf("the last open started at %s, want about 500ms", last)
		}
	})
}

func TestRampStopsWithContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 95*time.Millisecond)
		defer cancel()
		opened := 0
		var mu sync.Mutex
		ramp(ctx, 1000, 100, 4, func(int) { mu.Lock(); opened++; mu.Unlock() })
		// 100 a second: one per 10 ms tick, the first at once: 10 by 95 ms.
		if opened != 10 {
			t.Errorf("%d opened before the context ended, want 10", opened)
		}
	})
}
