package main

import (
	"errors"
	"slices"
	"testing"
	"time"
)

const ms = time.Millisecond

func TestProduced(t *testing.T) {
	posts := []postRecord{
		{sent: 0, signers: 2},
		{sent: 1000 * ms, err: errors.New("503")},
		{sent: 2000 * ms, signers: 3},
		{sent: 3000 * ms, signers: 3}, // changed nothing: the state is the earlier request's
		{sent: 4000 * ms, signers: 4},
	}
	got := produced(posts)
	want := map[int]time.Duration{2: 0, 3: 2000 * ms, 4: 4000 * ms}
	if len(got) != len(want) {
		t.Fatalf("produced %v, want %v", got, want)
	}
	for c, at := range want {
		if got[c] != at {
			t.Errorf("produced %v, want %v", got, want)
		}
	}
	if n := changes(got, 2); n != 2 {
		t.Errorf("changes after 2 signers: %d, want 2", n)
	}
}

func TestTally(t *testing.T) {
	made := map[int]time.Duration{2: 1000 * ms, 3: 2000 * ms, 4: 3000 * ms}
	var tl tally
	// A subscriber that got everything.
	tl.addStream(made, 1, []arrival{{2, 1001 * ms}, {3, 2003 * ms}, {4, 3010 * ms}})
	// One that skipped state 3 (a slow subscriber gets the newest state) and
	// got state 4 twice.
	tl.addStream(made, 1, []arrival{{2, 1002 * ms}, {4, 3004 * ms}, {4, 3005 * ms}})
	// One that started at state 2: only 3 and 4 are expected of it; it got
	// an event no request made, and state 3 before its request was sent,
	// which cannot be that request's, so 3 counts as skipped.
	tl.addStream(made, 2, []arrival{{9, 2500 * ms}, {3, 1500 * ms}, {4, 3002 * ms}})
	// One that received nothing.
	tl.addStream(made, 1, nil)

	if got, want := [6]int{tl.expected, tl.received, tl.skipped, tl.lost, tl.unmatched, tl.duplicate}, [6]int{3 + 3 + 2 + 3, 3 + 2 + 1, 1 + 1, 3, 2, 1}; got != want {
		t.Errorf("expected, received, skipped, lost, unmatched, duplicate = %v, want %v", got, want)
	}
	wantLat := []time.Duration{1 * ms, 3 * ms, 10 * ms, 2 * ms, 4 * ms, 2 * ms}
	if !slices.Equal(tl.latencies, wantLat) {
		t.Errorf("latencies %v, want %v", tl.latencies, wantLat)
	}
	if q := quantilesOf(tl.latencies); q != (quantiles{n: 6, p50: 2 * ms, p99: 10 * ms, max: 10 * ms}) {
		t.Errorf("quantiles %+v", q)
	}
}

func TestSpread(t *testing.T) {
	got := spread([][]arrival{
		{{2, 10 * ms}, {3, 25 * ms}},
		{{2, 12 * ms}, {3, 20 * ms}},
		{{3, 21 * ms}}, // skipped state 2
	})
	if want := []time.Duration{0, 5 * ms, 2 * ms, 0, 1 * ms}; !slices.Equal(got, want) {
		t.Errorf("spread %v, want %v", got, want)
	}
}

func TestQuantiles(t *testing.T) {
	var d []time.Duration
	for i := 200; i >= 1; i-- { // unsorted on purpose
		d = append(d, time.Duration(i)*ms)
	}
	if q := quantilesOf(d); q != (quantiles{n: 200, p50: 100 * ms, p99: 198 * ms, max: 200 * ms}) {
		t.Errorf("quantiles of 1…200 ms: %+v", q)
	}
	if d[0] != 200*ms {
		t.Error("quantilesOf sorted its argument in place")
	}
	if q := quantilesOf(nil); q != (quantiles{}) {
		t.Errorf("quantiles of nothing: %+v", q)
	}
	if q := quantilesOf([]time.Duration{5 * ms}); q != (quantiles{n: 1, p50: 5 * ms, p99: 5 * ms, max: 5 * ms}) {
		t.Errorf("quantiles of one: %+v", q)
	}
}
