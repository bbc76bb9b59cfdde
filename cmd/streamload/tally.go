package main

import (
	"slices"
	"time"
)

// postRecord is one sign request, as sent and answered.
type postRecord struct {
	sent    time.Duration // since the run's start, just before the request was written
	took    time.Duration // from sent until the answer was read
	signers int           // signers listed in the answer; meaningful when err is nil
	err     error
}

// produced maps each number of signers that a plan's successful sign
// requests left on it to the time the request that first reached it was
// sent. Each valid partial adds exactly one signer and a merge that changes
// nothing sends no event, so the event carrying that many signers is that
// request's event: the match CONTRACT section 5 allows without decoding the
// envelope (the version on the event's id line moves in step; stream.read
// checks that it does).
func produced(posts []postRecord) map[int]time.Duration {
	m := make(map[int]time.Duration, len(posts))
	for _, p := range posts {
		if _, seen := m[p.signers]; p.err == nil && !seen {
			m[p.signers] = p.sent
		}
	}
	return m
}

// changes is how many of made's states are newer than a stream that began
// with c0 signers: the events it should receive.
func changes(made map[int]time.Duration, c0 int) int {
	n := 0
	for c := range made {
		if c > c0 {
			n++
		}
	}
	return n
}

// tally is the delivery accounting of a run.
type tally struct {
	expected  int // events the subscribers should have received
	received  int // of those, the ones they did receive
	skipped   int // not received, but a newer state was: the relay's slow-subscriber policy
	lost      int // not received, nor any newer state
	unmatched int // events that no sign request of the run accounts for
	duplicate int // an event with a state already received on the same stream
	latencies []time.Duration
}

// addStream counts one subscriber's events. made is produced() of its plan;
// c0 is the number of signers in the stream's first event, so states at or
// below it are not expected. An event that arrived before the request that
// made its state was sent cannot be that request's: it counts as unmatched.
func (t *tally) addStream(made map[int]time.Duration, c0 int, arrivals []arrival) {
	want := changes(made, c0)
	got := make(map[int]bool, len(arrivals))
	for _, a := range arrivals {
		sent, ok := made[a.signers]
		switch {
		case !ok || a.signers <= c0 || a.at < sent:
			t.unmatched++
		case got[a.signers]:
			t.duplicate++
		default:
			got[a.signers] = true
			t.latencies = append(t.latencies, a.at-sent)
		}
	}
	top := 0
	for c := range got {
		top = max(top, c)
	}
	for c := range made {
		if c > c0 && !got[c] {
			if c < top {
				t.skipped++
			} else {
				t.lost++
			}
		}
	}
	t.expected += want
	t.received += len(got)
}

// spread is, for every event the streams of one plan received, how long
// after the first of them to receive the same state each one received it:
// the fan-out alone, without the sign request's own time.
func spread(streams [][]arrival) []time.Duration {
	first := map[int]time.Duration{}
	for _, arr := range streams {
		for _, a := range arr {
			if f, ok := first[a.signers]; !ok || a.at < f {
				first[a.signers] = a.at
			}
		}
	}
	var out []time.Duration
	for _, arr := range streams {
		for _, a := range arr {
			out = append(out, a.at-first[a.signers])
		}
	}
	return out
}

// quantiles are the nearest-rank percentiles of a set of durations.
type quantiles struct {
	n             int
	p50, p99, max time.Duration
}

func quantilesOf(d []time.Duration) quantiles {
	if len(d) == 0 {
		return quantiles{}
	}
	s := slices.Clone(d)
	slices.Sort(s)
	rank := func(p int) time.Duration { return s[(len(s)*p+99)/100-1] } // ceil(p% of n), 1-based
	return quantiles{n: len(s), p50: rank(50), p99: rank(99), max: s[len(s)-1]}
}
