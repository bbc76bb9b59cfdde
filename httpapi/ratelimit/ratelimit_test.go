package ratelimit

import (
	"container/heap"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"
)

// clock is a manual clock; tests move it, so no test waits on real time.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func mustAllow(t *testing.T, l *Limiter, key string) {
	t.Helper()
	if ok, wait := l.Allow(key); !ok {
		t.Fatalf("Allow(%q) refused (wait %v), want allowed", key, wait)
	}
}

func mustRefuse(t *testing.T, l *Limiter, key string, wantWait time.Duration) {
	t.Helper()
	ok, wait := l.Allow(key)
	if ok {
		t.Fatalf("Allow(%q) allowed, want refused with wait %v", key, wantWait)
	}
	if wait != wantWait {
		t.Fatalf("Allow(%q) wait = %v, want %v", key, wait, wantWait)
	}
}

// checkInvariants verifies that the heap holds exactly the mapped buckets with
// their positions right, that it is a min-heap on fullAt (eviction looks only
// at the top), that no bucket claims to be full before it is (so none is ever
// evicted while refilling), and that the cap holds.
func checkInvariants(t *testing.T, l *Limiter) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.byFull) != len(l.buckets) {
		t.Fatalf("heap holds %d buckets, map %d", len(l.byFull), len(l.buckets))
	}
	for i, e := range l.byFull {
		b := e.b
		if b.index != i {
			t.Fatalf("bucket %q at heap position %d records %d", b.key, i, b.index)
		}
		if l.buckets[b.key] != b {
			t.Fatalf("heap bucket %q is not the map's", b.key)
		}
		if i > 0 {
			if parent := l.byFull[(i-1)/2]; e.fullAt < parent.fullAt {
				t.Fatalf("heap order broken at %d: %q full at %v before its parent %q at %v",
					i, b.key, e.fullAt, parent.b.key, parent.fullAt)
			}
		}
		if d := l.untilTokens(b, float64(l.n), l.origin.Add(e.fullAt)); d != 0 {
			t.Fatalf("bucket %q still %v from full at its full instant %v", b.key, d, e.fullAt)
		}
	}
	if n := len(l.buckets); n > l.maxKeys {
		t.Fatalf("%d keys held, cap %d", n, l.maxKeys)
	}
}

func held(l *Limiter, key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.buckets[key]
	return ok
}

// The route rates from SPEC.md; each must refill in exact whole steps of 60/N s.
func TestRefill(t *testing.T) {
	for _, n := range []int{5, 10, 20, 30, 60} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			clk := newClock()
			l := New(n, time.Minute, 20000, clk.Now)
			step := time.Minute / time.Duration(n)
			for range n {
				mustAllow(t, l, "ip")
			}
			mustRefuse(t, l, "ip", step)

			clk.Advance(step - time.Millisecond)
			mustRefuse(t, l, "ip", time.Millisecond)
			clk.Advance(time.Millisecond)
			mustAllow(t, l, "ip")
			mustRefuse(t, l, "ip", step)

			// Continuous refill, one token per step, for several steps.
			for range 3 {
				clk.Advance(step)
				mustAllow(t, l, "ip")
				mustRefuse(t, l, "ip", step)
			}

			// Idle far beyond a period: capacity is n, not more.
			clk.Advance(10 * time.Minute)
			for range n {
				mustAllow(t, l, "ip")
			}
			mustRefuse(t, l, "ip", step)
		})
	}
}

func TestPartialRefillWait(t *testing.T) {
	clk := newClock()
	l := New(10, time.Minute, 100, clk.Now)
	for range 3 {
		mustAllow(t, l, "ip")
	}
	clk.Advance(3 * time.Second) // 7 + 0.5 tokens
	for range 7 {
		mustAllow(t, l, "ip")
	}
	mustRefuse(t, l, "ip", 3*time.Second) // the missing half token
	clk.Advance(3 * time.Second)
	mustAllow(t, l, "ip")
}

// Whatever state a bucket is in, the wait it reports is exact to the
// nanosecond (the bucket's own float arithmetic allows no finer): a
// microsecond early is refused, on time is allowed. The same holds for a new
// key refused at the cap, waiting for the only bucket to be full.
func TestWaitIsExact(t *testing.T) {
	const early = time.Microsecond
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 5, 7, 10, 20, 30, 60} {
		clk := newClock()
		l := New(n, time.Minute, 1, clk.Now)
		checked, capChecked := 0, 0
		for range 2000 {
			clk.Advance(time.Duration(rnd.Int64N(int64(time.Minute / time.Duration(2*n)))))
			ok, wait := l.Allow("ip")
			if ok || wait <= early {
				continue
			}
			checked++
			clk.Advance(wait - early)
			if ok, w := l.Allow("ip"); ok || w != early {
				t.Fatalf("n=%d: %v before the %v wait: ok=%v wait=%v", n, early, wait, ok, w)
			}
			clk.Advance(early)
			mustAllow(t, l, "ip")
			if checked%10 != 0 {
				continue
			}

			ok, wait = l.Allow("other")
			if ok {
				t.Fatalf("n=%d: new key admitted while the only bucket refills", n)
			}
			if wait > time.Second {
				capChecked++
				clk.Advance(wait - early)
				if ok, _ := l.Allow("other"); ok {
					t.Fatalf("n=%d: new key admitted %v before the %v wait", n, early, wait)
				}
				clk.Advance(early)
				mustAllow(t, l, "other")
				clk.Advance(time.Minute) // let "ip" back in for the next round
			}
		}
		if checked < 100 || capChecked < 10 {
			t.Fatalf("n=%d: only %d refusals and %d at-cap waits exercised", n, checked, capChecked)
		}
	}
}

func TestKeysAreIndependent(t *testing.T) {
	clk := newClock()
	l := New(2, time.Minute, 100, clk.Now)
	mustAllow(t, l, "a")
	mustAllow(t, l, "a")
	mustRefuse(t, l, "a", 30*time.Second)
	mustAllow(t, l, "b")
	mustAllow(t, l, "")
	if got := l.Len(); got != 3 {
		t.Fatalf("Len = %d, want 3", got)
	}
}

func TestCapRefusesNewKeyUntilOldestIdle(t *testing.T) {
	clk := newClock()
	const n = 10
	l := New(n, time.Minute, 3, clk.Now)
	drain := func(key string) {
		for range n {
			mustAllow(t, l, key)
		}
	}
	drain("a") // t=0
	clk.Advance(time.Second)
	drain("b") // t=1
	clk.Advance(time.Second)
	drain("c") // t=2

	// At the cap with every bucket refilling: refused, told when "a" is full.
	clk.Advance(8 * time.Second) // t=10
	mustRefuse(t, l, "d", 50*time.Second)
	if l.Len() != 3 {
		t.Fatalf("refused key was stored: Len = %d", l.Len())
	}

	// Just short of a period "a" is still refilling.
	clk.Advance(50*time.Second - time.Nanosecond)
	mustRefuse(t, l, "d", time.Second) // 1 ns away, but never under 1 s

	// "a" has been idle a whole period: it is full, dropped, and "d" admitted.
	clk.Advance(time.Nanosecond) // t=60
	mustAllow(t, l, "d")
	checkInvariants(t, l)
	if held(l, "a") {
		t.Fatal("full bucket a was not dropped")
	}

	// "a" is now a new key again, and "b" is a second from full.
	mustRefuse(t, l, "a", time.Second)

	// At t=62 "b" and "c" are full; one new key drops both.
	clk.Advance(2 * time.Second)
	mustAllow(t, l, "e")
	if got := l.Len(); got != 2 {
		t.Fatalf("Len = %d after dropping b and c, want 2 (d, e)", got)
	}
	mustAllow(t, l, "a")
	checkInvariants(t, l)
}

// A bucket that took only part of its capacity is full before a whole period
// has passed; it must be dropped as soon as it is.
func TestCapDropsPartlyUsedBucketOnceRefilled(t *testing.T) {
	clk := newClock()
	l := New(10, time.Minute, 1, clk.Now)
	mustAllow(t, l, "a") // one token of ten: full again after 6 s
	clk.Advance(2 * time.Second)
	mustRefuse(t, l, "b", 4*time.Second)
	clk.Advance(4 * time.Second)
	mustAllow(t, l, "b")
}

// A bucket that took one token is full long before one that took all of them,
// even when it was used later. In last-use order the drained bucket sits in
// front of it, yet the full one must still make room for a new key.
func TestCapDropsFullBucketBehindRefillingOne(t *testing.T) {
	clk := newClock()
	const n = 10
	l := New(n, time.Minute, 2, clk.Now)
	for range n {
		mustAllow(t, l, "heavy") // t=0: empty, full again at t=60
	}
	clk.Advance(time.Second)
	mustAllow(t, l, "light") // t=1: one token of ten, full again at t=7

	clk.Advance(9 * time.Second) // t=10
	mustAllow(t, l, "new")
	if got := l.Len(); got != 2 {
		t.Fatalf("Len = %d, want 2 (heavy, new)", got)
	}
	// "heavy" kept its state: ten seconds of refill is 1⅔ tokens.
	mustAllow(t, l, "heavy")
	mustRefuse(t, l, "heavy", 2*time.Second)
	// "light" was the one dropped, so it is a new key at the cap now, and the
	// soonest-full bucket is "new", full at t=16.
	mustRefuse(t, l, "light", 6*time.Second)
}

// Many full buckets behind one drained bucket: every new key finds room, in
// batches, and the drained bucket is never the one dropped.
func TestCapDropsAllFullBucketsBehindRefillingOne(t *testing.T) {
	clk := newClock()
	const n, maxKeys = 5, 3*evictBatch + 1
	l := New(n, time.Minute, maxKeys, clk.Now)
	for range n {
		mustAllow(t, l, "drained")
	}
	for i := range maxKeys - 1 {
		clk.Advance(10 * time.Millisecond)
		mustAllow(t, l, fmt.Sprint("light", i)) // full 12 s after its take
	}
	clk.Advance(20 * time.Second)
	for i := range maxKeys - 1 {
		mustAllow(t, l, fmt.Sprint("new", i))
	}
	if got := l.Len(); got != maxKeys {
		t.Fatalf("Len = %d, want %d", got, maxKeys)
	}
	// The new keys, all taken at one instant, are the soonest full now.
	mustRefuse(t, l, "one more", 12*time.Second)
	// "drained" was kept with its state: a new key would have been refused.
	mustAllow(t, l, "drained")
}

// naive states the contract's rule the slow, obvious way: at the cap, look at
// every bucket and drop each that is full; refuse the new key when none is.
type naive struct {
	n       int
	per     time.Duration
	maxKeys int
	buckets map[string]*rate.Limiter
}

func (m *naive) untilTokens(b *rate.Limiter, want float64, now time.Time) time.Duration {
	missing := want - b.TokensAt(now)
	if missing <= 0 {
		return 0
	}
	return time.Duration(math.Round(missing * float64(m.per) / float64(m.n)))
}

func (m *naive) allow(key string, now time.Time) (bool, time.Duration) {
	b, known := m.buckets[key]
	if !known {
		if len(m.buckets) >= m.maxKeys {
			soonest := time.Duration(math.MaxInt64)
			for k, other := range m.buckets {
				if d := m.untilTokens(other, float64(m.n), now); d == 0 {
					delete(m.buckets, k)
				} else {
					soonest = min(soonest, d)
				}
			}
			if len(m.buckets) >= m.maxKeys {
				return false, max(soonest, time.Second)
			}
		}
		b = rate.NewLimiter(rate.Limit(float64(m.n)/m.per.Seconds()), m.n)
		m.buckets[key] = b
	}
	if !b.AllowN(now, 1) {
		return false, max(m.untilTokens(b, 1, now), time.Nanosecond)
	}
	return true, 0
}

// The Limiter decides every request as the naive rule does. The two may hold
// different sets of keys (the naive model drops every full bucket at once, the
// Limiter a batch), but only ever differ by full buckets, which act exactly
// like absent ones; every bucket still refilling is in both. So outcomes
// agree, and a wait differs at most by the nanosecond rounding of when a
// bucket is full.
func TestCapMatchesNaiveModel(t *testing.T) {
	for _, n := range []int{1, 3, 7, 10} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(uint64(n), 99))
			clk := newClock()
			const maxKeys = 24
			l := New(n, time.Minute, maxKeys, clk.Now)
			m := &naive{n: n, per: time.Minute, maxKeys: maxKeys, buckets: map[string]*rate.Limiter{}}
			var atCapAdmitted, atCapRefused int
			for step := range 20000 {
				var key string
				switch r := rnd.IntN(10); {
				case r < 4: // a few busy clients that drain their buckets
					key = fmt.Sprint("busy", rnd.IntN(4))
				case r < 8: // many light ones
					key = fmt.Sprint("light", rnd.IntN(3*maxKeys))
				default: // fresh addresses
					key = fmt.Sprint("fresh", step)
				}
				now := clk.Now()
				_, wasKnown := m.buckets[key]
				atCap := !wasKnown && len(m.buckets) >= maxKeys
				wantOK, wantWait := m.allow(key, now)
				gotOK, gotWait := l.Allow(key)
				if gotOK != wantOK || (gotWait-wantWait).Abs() > 2*time.Nanosecond {
					t.Fatalf("step %d, %q at %v: got ok=%v wait=%v, naive rule says ok=%v wait=%v",
						step, key, now.Sub(newClock().Now()), gotOK, gotWait, wantOK, wantWait)
				}
				if atCap && wantOK {
					atCapAdmitted++
				} else if atCap {
					atCapRefused++
				}
				if got := l.Len(); got > maxKeys {
					t.Fatalf("step %d: Len = %d above cap %d", step, got, maxKeys)
				}
				if rnd.IntN(3) == 0 {
					clk.Advance(time.Duration(rnd.IntN(3000)) * time.Millisecond)
				}
			}
			if atCapAdmitted < 50 || atCapRefused < 50 {
				t.Fatalf("only %d new keys admitted and %d refused at the cap", atCapAdmitted, atCapRefused)
			}
		})
	}
}

// With one token a second (n = 10 per 10 s) and whole-second steps every
// instant is exact, so the test can say precisely which buckets a new key at
// the cap drops: each one whose full instant has come, wherever its last use
// puts it, and none other. Takes keep moving buckets' full instants later.
func TestCapEvictsExactlyTheFullBuckets(t *testing.T) {
	const n, per, maxKeys = 10, 10 * time.Second, 8
	rnd := rand.New(rand.NewPCG(7, 8))
	clk := newClock()
	l := New(n, per, maxKeys, clk.Now)
	type state struct {
		tokens int
		last   time.Time
	}
	model := map[string]*state{}
	refill := func(s *state, now time.Time) int {
		return min(n, s.tokens+int(now.Sub(s.last)/time.Second))
	}
	fullAt := func(s *state) time.Time { return s.last.Add(time.Duration(n-s.tokens) * time.Second) }
	fresh, refused, dropped := 0, 0, 0
	for round := range 3000 {
		now := clk.Now()
		if rnd.IntN(4) != 0 && len(model) > 0 {
			// Take tokens from a held key: its full instant moves later.
			key := slices.Sorted(maps.Keys(model))[rnd.IntN(len(model))]
			s := model[key]
			for range 1 + rnd.IntN(n) {
				if refill(s, now) == 0 {
					mustRefuse(t, l, key, s.last.Add(time.Second).Sub(now))
					break
				}
				s.tokens, s.last = refill(s, now)-1, now
				mustAllow(t, l, key)
			}
		} else {
			key := fmt.Sprint("k", fresh)
			fresh++
			var full []string
			soonest := time.Time{}
			for k, s := range model {
				if !fullAt(s).After(now) {
					full = append(full, k)
				} else if soonest.IsZero() || fullAt(s).Before(soonest) {
					soonest = fullAt(s)
				}
			}
			switch {
			case len(model) < maxKeys:
				mustAllow(t, l, key)
				model[key] = &state{tokens: n - 1, last: now}
			case len(full) == 0:
				mustRefuse(t, l, key, max(soonest.Sub(now), time.Second))
				refused++
			default:
				mustAllow(t, l, key)
				dropped += len(full)
				for _, k := range full {
					if held(l, k) {
						t.Fatalf("round %d: full bucket %q kept", round, k)
					}
					delete(model, k)
				}
				model[key] = &state{tokens: n - 1, last: now}
			}
			for k := range model {
				if !held(l, k) {
					t.Fatalf("round %d: bucket %q dropped before it was full", round, k)
				}
			}
			if l.Len() != len(model) {
				t.Fatalf("round %d: Len = %d, want %d", round, l.Len(), len(model))
			}
		}
		checkInvariants(t, l)
		clk.Advance(time.Duration(rnd.IntN(4)/3) * time.Second)
	}
	t.Logf("%d new keys refused, %d buckets dropped at the cap", refused, dropped)
	if refused < 100 || dropped < 100 {
		t.Fatalf("only %d new keys refused and %d buckets dropped at the cap", refused, dropped)
	}
}

// The heap itself: pushes, later-moving updates (and ignored earlier ones) and
// pops come out in order with every bucket's index kept right.
func TestFullHeapOrder(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	var h fullHeap
	want := map[*bucket]time.Duration{}
	check := func() {
		t.Helper()
		for i, e := range h {
			if e.b.index != i {
				t.Fatalf("bucket %q at %d records index %d", e.b.key, i, e.b.index)
			}
			if e.fullAt != want[e.b] {
				t.Fatalf("bucket %q full at %v, want %v", e.b.key, e.fullAt, want[e.b])
			}
			if i > 0 && e.fullAt < h[(i-1)/2].fullAt {
				t.Fatalf("heap order broken at %d", i)
			}
		}
	}
	var all []*bucket
	for i := range 500 {
		b := &bucket{key: strconv.Itoa(i)}
		at := time.Duration(rnd.IntN(1000)) * time.Millisecond
		heap.Push(&h, heapEntry{at, b})
		want[b] = at
		all = append(all, b)
	}
	check()
	for range 2000 {
		b := all[rnd.IntN(len(all))]
		at := want[b] + time.Duration(rnd.IntN(500)-100)*time.Millisecond
		h.later(b.index, at)
		want[b] = max(want[b], at)
	}
	check()
	sorted := slices.Sorted(maps.Values(want))
	for i, at := range sorted {
		b := heap.Pop(&h).(*bucket)
		if want[b] != at {
			t.Fatalf("pop %d: full at %v, want %v", i, want[b], at)
		}
		if b.index != -1 {
			t.Fatalf("popped bucket keeps index %d", b.index)
		}
		delete(want, b)
		if i%50 == 0 {
			check()
		}
	}
	if len(h) != 0 {
		t.Fatalf("%d left after popping all", len(h))
	}
}

// The request that finds many idle buckets drops a bounded batch, not all.
func TestEvictionIsBatched(t *testing.T) {
	clk := newClock()
	const keys = 3 * evictBatch
	l := New(5, time.Minute, keys, clk.Now)
	for i := range keys {
		mustAllow(t, l, fmt.Sprint("k", i))
	}
	clk.Advance(time.Minute)
	mustAllow(t, l, "new")
	if got, want := l.Len(), keys-evictBatch+1; got != want {
		t.Fatalf("Len = %d, want %d", got, want)
	}
	checkInvariants(t, l)
}

// A flood of fresh keys must never reset a client's bucket: the victim's
// outcomes match an independent bucket fed the same requests.
func TestFloodNeverEvictsActiveBucket(t *testing.T) {
	clk := newClock()
	const n, maxKeys = 5, 100
	l := New(n, time.Minute, maxKeys, clk.Now)
	ref := rate.NewLimiter(rate.Limit(float64(n)/60), n)

	for i := range maxKeys - 1 {
		mustAllow(t, l, fmt.Sprint("other", i))
	}
	fresh := 0
	admitted := 0
	for step := range 240 { // two minutes in half-second steps
		now := clk.Now()
		got, _ := l.Allow("victim")
		if want := ref.AllowN(now, 1); got != want {
			t.Fatalf("step %d: victim allowed=%v, independent bucket says %v", step, got, want)
		}
		for range 50 {
			if ok, wait := l.Allow(fmt.Sprint("flood", fresh)); ok {
				admitted++
			} else if wait < time.Second {
				t.Fatalf("refused new key told to retry in %v", wait)
			}
			fresh++
		}
		if l.Len() > maxKeys {
			t.Fatalf("Len = %d above cap", l.Len())
		}
		clk.Advance(500 * time.Millisecond)
	}
	// Idle buckets did make room over two minutes; only active ones were kept.
	if admitted == 0 {
		t.Fatal("no flood key was ever admitted although buckets went idle")
	}
	checkInvariants(t, l)
}

func TestConcurrentSameKey(t *testing.T) {
	clk := newClock()
	const n = 100
	l := New(n, time.Minute, 10, clk.Now)
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			for range 10 {
				if ok, _ := l.Allow("ip"); ok {
					allowed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if got := allowed.Load(); got != n {
		t.Fatalf("%d allowed on a frozen clock, want exactly %d", got, n)
	}
}

func TestConcurrentManyKeys(t *testing.T) {
	clk := newClock()
	// Jitter stands in for callers that read the clock and then queue for
	// the lock: timestamps reach the Limiter out of order.
	var calls atomic.Uint64
	jittery := func() time.Time {
		j := time.Duration(calls.Add(0x9e3779b97f4a7c15)>>40%10) * time.Millisecond
		return clk.Now().Add(j)
	}
	l := New(3, time.Minute, 50, jittery)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				l.Allow(strconv.Itoa((g*7919 + i*31) % 200))
				if i%100 == 0 {
					clk.Advance(time.Second)
				}
			}
		})
	}
	wg.Go(func() {
		for range 100 {
			_ = l.Len()
		}
	})
	wg.Wait()
	checkInvariants(t, l)
}

// With no clock injected the Limiter reads time.Now; inside a synctest bubble
// that is the bubble's fake clock, so the wait is taken at face value.
func TestRealClockInBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := New(2, time.Minute, 10, nil)
		mustAllow(t, l, "ip")
		mustAllow(t, l, "ip")
		ok, wait := l.Allow("ip")
		if ok || wait != 30*time.Second {
			t.Fatalf("third request: ok=%v wait=%v, want refused for 30s", ok, wait)
		}
		time.Sleep(wait)
		mustAllow(t, l, "ip")
	})
}

func TestNewRejectsBadParameters(t *testing.T) {
	for _, tc := range []struct {
		n       int
		per     time.Duration
		maxKeys int
	}{{0, time.Minute, 1}, {1, 0, 1}, {1, time.Minute, 0}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("New(%d, %v, %d) did not panic", tc.n, tc.per, tc.maxKeys)
				}
			}()
			New(tc.n, tc.per, tc.maxKeys, nil)
		}()
	}
}

func TestMiddleware(t *testing.T) {
	errLimited := errors.New("limited")
	run := func(l *Limiter, ip string) (handled bool, limitedWait time.Duration, err error) {
		e := echo.New()
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Header.Set("X-Key", ip)
		c := e.NewContext(req, httptest.NewRecorder())
		mw := Middleware(l,
			func(c echo.Context) string { return c.Request().Header.Get("X-Key") },
			func(c echo.Context, wait time.Duration) error { limitedWait = wait; return errLimited })
		err = mw(func(echo.Context) error { handled = true; return nil })(c)
		return handled, limitedWait, err
	}

	t.Run("limits by key", func(t *testing.T) {
		clk := newClock()
		l := New(2, time.Minute, 100, clk.Now)
		for range 2 {
			if handled, _, err := run(l, "a"); !handled || err != nil {
				t.Fatalf("within limit: handled=%v err=%v", handled, err)
			}
		}
		handled, wait, err := run(l, "a")
		if handled || !errors.Is(err, errLimited) || wait != 30*time.Second {
			t.Fatalf("over limit: handled=%v err=%v wait=%v; want onLimited's error, 30s, handler not run", handled, err, wait)
		}
		if handled, _, _ := run(l, "b"); !handled {
			t.Fatal("another key was throttled")
		}
	})

	t.Run("nil limiter passes everything", func(t *testing.T) {
		for range 1000 {
			if handled, _, err := run(nil, "a"); !handled || err != nil {
				t.Fatalf("handled=%v err=%v", handled, err)
			}
		}
	})
}

func benchLimiter(n, maxKeys int) *Limiter { return New(n, time.Minute, maxKeys, time.Now) }

// An effectively unlimited rate keeps every call on the allowed path, which
// does the most work (token take plus list move).
func BenchmarkAllowSameKey(b *testing.B) {
	l := benchLimiter(1<<30, 20000)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			l.Allow("203.0.113.1")
		}
	})
}

func BenchmarkAllowSameKeyRefused(b *testing.B) {
	l := benchLimiter(10, 20000)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			l.Allow("203.0.113.1")
		}
	})
}

func benchKeys(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255)
	}
	return keys
}

func BenchmarkAllowManyKeys(b *testing.B) {
	keys := benchKeys(10000)
	l := benchLimiter(1<<30, 20000)
	var seed atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := int(seed.Add(7919))
		for pb.Next() {
			l.Allow(keys[i%len(keys)])
			i++
		}
	})
}

// The attack path: the limiter is full of active buckets and every request
// brings a new address, which must be refused cheaply. The clock is frozen so
// the buckets cannot refill (and rightly be evicted) on a slow run.
func BenchmarkAllowFloodAtCap(b *testing.B) {
	const maxKeys = 20000
	frozen := time.Now()
	l := New(10, time.Minute, maxKeys, func() time.Time { return frozen })
	for _, k := range benchKeys(maxKeys) {
		l.Allow(k)
	}
	flood := make([]string, 1<<16)
	for i := range flood {
		flood[i] = fmt.Sprintf("2001:db8::%x", i)
	}
	var seed atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := int(seed.Add(7919))
		for pb.Next() {
			if ok, _ := l.Allow(flood[i%len(flood)]); ok {
				b.Error("new key admitted at the cap")
				return
			}
			i++
		}
	})
}

// A new key refused at the cap, one caller at a time: 20,000 buckets all
// refilling (each took between one and all of its tokens, so last-use order
// and full-again order disagree) and a fresh address on every call. The
// refusal looks only at the soonest-full bucket, so it costs the same however
// many keys are held.
func BenchmarkAllowNewKeyRefusedAtCap(b *testing.B) {
	const n, maxKeys = 10, 20000
	frozen := newClock().Now()
	l := New(n, time.Minute, maxKeys, func() time.Time { return frozen })
	for i, k := range benchKeys(maxKeys) {
		for range 1 + (i*7919)%n {
			l.Allow(k)
		}
	}
	flood := make([]string, 1<<16)
	for i := range flood {
		flood[i] = fmt.Sprintf("2001:db8::%x", i)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if ok, _ := l.Allow(flood[i%len(flood)]); ok {
			b.Fatal("new key admitted at the cap")
		}
		i++
	}
}
