package ratelimit

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
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

// checkInvariants verifies that the buckets are in last-take order from the
// idlest, which eviction relies on, that the newest take is latest, and that
// the cap holds.
func checkInvariants(t *testing.T, l *Limiter) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	var prev time.Time
	for _, key := range l.buckets.Keys() { // oldest first
		b, _ := l.buckets.Peek(key)
		if b.last.Before(prev) {
			t.Fatalf("buckets out of order at %q: %v before %v", key, b.last, prev)
		}
		prev = b.last
	}
	if n := l.buckets.Len(); n > 0 && !prev.Equal(l.latest) {
		t.Fatalf("newest bucket's last take %v, latest %v", prev, l.latest)
	}
	if n := l.buckets.Len(); n > l.maxKeys {
		t.Fatalf("%d keys held, cap %d", n, l.maxKeys)
	}
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
	l.mu.Lock()
	aHeld := l.buckets.Contains("a")
	l.mu.Unlock()
	if aHeld {
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
