// Package ratelimit throttles requests per client key with token buckets
// (CONTRACT.md section 3): capacity N, refilled continuously at N per period.
//
// A Limiter holds a bounded number of keys so a flood of distinct addresses
// cannot grow memory without limit. When a new key arrives at the cap, every
// bucket that has refilled completely may be dropped, wherever it sits: a full
// bucket behaves exactly like a fresh one, so dropping it loses nothing. A
// bucket that is still refilling is never evicted, because evicting it would
// hand its owner a fresh bucket whenever someone sent requests from enough new
// addresses; when no bucket is full the new key is refused instead.
//
// Buckets are kept in a min-heap on the instant each will be full again, an
// instant that only moves later as tokens are taken. Finding a droppable
// bucket, or learning there is none, looks only at the top: a new key refused
// at the cap costs O(1), and a dropped bucket or a token taken O(log keys).
package ratelimit

import (
	"container/heap"
	"math"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"
)

// evictBatch bounds how many full buckets one call drops, so the request that
// finds thousands of idle buckets at the cap does not hold the lock for all of
// them; the rest go on later calls.
const evictBatch = 64

// Limiter is a set of per-key token buckets. It is safe for concurrent use.
type Limiter struct {
	n       int
	per     time.Duration
	limit   rate.Limit
	maxKeys int
	now     func() time.Time

	// origin is the clock's reading when the Limiter was made; full instants
	// are kept as offsets from it (Sub uses the monotonic clock when the
	// readings carry one, as time.Now's do).
	origin time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
	// byFull holds the same buckets as buckets, as a min-heap on when each
	// is full again: the top is the bucket that is (or will be) full
	// soonest. Allow never holds more than maxKeys (it evicts or refuses
	// first).
	byFull fullHeap
}

type bucket struct {
	key   string
	lim   *rate.Limiter
	index int // position in byFull, kept by fullHeap's Swap, Push and Pop
}

// New returns a Limiter allowing n requests per period per key, holding at
// most maxKeys keys. now is the clock (time.Now when nil); tests inject one.
func New(n int, per time.Duration, maxKeys int, now func() time.Time) *Limiter {
	if n < 1 || per <= 0 || maxKeys < 1 {
		panic("ratelimit: New needs n >= 1, per > 0 and maxKeys >= 1")
	}
	if now == nil {
		now = time.Now
	}
	return &Limiter{
		n:       n,
		per:     per,
		limit:   rate.Limit(float64(n) / per.Seconds()),
		maxKeys: maxKeys,
		now:     now,
		origin:  now(),
		buckets: make(map[string]*bucket, min(maxKeys, 1024)),
	}
}

// Allow takes one token from key's bucket. When none is available it reports
// false and how long until one is. A new key arriving while the Limiter is at
// its cap and no bucket is full is refused too; its wait is the time until the
// first bucket is full again, at least one second.
func (l *Limiter) Allow(key string) (ok bool, retryAfter time.Duration) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()

	b, known := l.buckets[key]
	if !known {
		if len(l.buckets) >= l.maxKeys && !l.evictFull(now) {
			// Room opens only as other clients go idle; a near-zero wait
			// would have a flood of new addresses retry in a tight loop.
			return false, max(l.byFull[0].fullAt-now.Sub(l.origin), time.Second)
		}
		b = &bucket{key: key, lim: rate.NewLimiter(l.limit, l.n)}
		b.lim.AllowN(now, 1) // a fresh bucket holds n >= 1 tokens
		l.buckets[key] = b
		heap.Push(&l.byFull, heapEntry{l.fullAt(b, now), b})
		return true, 0
	}
	if !b.lim.AllowN(now, 1) {
		// A refused take leaves the bucket, and so its full instant, as is.
		return false, max(l.untilTokens(b, 1, now), time.Nanosecond)
	}
	// The clock is read before taking the lock, so concurrent callers can
	// arrive slightly out of order, and a take stamped before the bucket's
	// previous one makes the rate.Limiter refill from the earlier instant.
	// Keeping the later full instant errs towards "full later", which only
	// ever delays an eviction, never makes one early.
	l.byFull.later(b.index, l.fullAt(b, now))
	return true, 0
}

// Len reports how many keys the Limiter holds.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}

// evictFull drops up to evictBatch buckets that are full by now, soonest-full
// first, and reports whether any room was made. Only the heap's top is ever
// examined, so finding none costs O(1) however many keys are held.
func (l *Limiter) evictFull(now time.Time) bool {
	at := now.Sub(l.origin)
	freed := false
	for range evictBatch {
		if len(l.byFull) == 0 || l.byFull[0].fullAt > at {
			break
		}
		delete(l.buckets, heap.Pop(&l.byFull).(*bucket).key)
		freed = true
	}
	return freed
}

// fullAt is when b, just taken from at now, holds n tokens again, as an
// offset from origin: from then on it is indistinguishable from a fresh
// bucket and may be dropped.
func (l *Limiter) fullAt(b *bucket, now time.Time) time.Duration {
	return now.Sub(l.origin) + l.untilTokens(b, float64(l.n), now)
}

// untilTokens is how long until b holds want tokens. It works from n and per
// rather than the float rate, and rounds to the nearest nanosecond rather than
// up, so whole-token waits come out exact: 60 s / 10 is 6 s, not 6 s and a
// nanosecond of float noise, which a Retry-After would round up to 7 s. The
// bucket itself forgives a shortfall under a nanosecond, so waiting the
// rounded time is enough. Full instants are computed the same way, so a
// refused new key that comes back after the wait it was given finds a bucket
// full, not a hair short.
func (l *Limiter) untilTokens(b *bucket, want float64, now time.Time) time.Duration {
	missing := want - b.lim.TokensAt(now)
	if missing <= 0 {
		return 0
	}
	return time.Duration(math.Round(missing * float64(l.per) / float64(l.n)))
}

// fullHeap is a min-heap of buckets on when each is full again, kept by
// container/heap. Each entry carries that instant, so comparisons stay within
// the slice and a bucket is loaded only to record its new position in Swap,
// which is what lets Allow find a bucket's entry again to move it.
type fullHeap []heapEntry

type heapEntry struct {
	fullAt time.Duration // since the Limiter's origin
	b      *bucket
}

func (h fullHeap) Len() int           { return len(h) }
func (h fullHeap) Less(i, j int) bool { return h[i].fullAt < h[j].fullAt }

func (h fullHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].b.index = i
	h[j].b.index = j
}

// Push takes a heapEntry.
func (h *fullHeap) Push(x any) {
	e := x.(heapEntry)
	e.b.index = len(*h)
	*h = append(*h, e)
}

// Pop returns the removed entry's *bucket.
func (h *fullHeap) Pop() any {
	old := *h
	last := len(old) - 1
	b := old[last].b
	old[last] = heapEntry{} // let the dropped bucket be collected
	*h = old[:last]
	b.index = -1
	return b
}

// later moves the entry at i to fullAt if that is later; an earlier one is
// ignored, so an entry's instant never moves back.
func (h *fullHeap) later(i int, fullAt time.Duration) {
	if e := &(*h)[i]; fullAt > e.fullAt {
		e.fullAt = fullAt
		heap.Fix(h, i)
	}
}

// Middleware throttles each request by keyFunc's key. A refused request goes to
// onLimited, which writes the route's own 429 (JSON or plain text) and
// Retry-After; the handler chain is not run. A nil l (rate limits switched
// off) passes every request through.
func Middleware(l *Limiter, keyFunc func(echo.Context) string, onLimited func(c echo.Context, retryAfter time.Duration) error) echo.MiddlewareFunc {
	if l == nil {
		return func(next echo.HandlerFunc) echo.HandlerFunc { return next }
	}
	if keyFunc == nil || onLimited == nil {
		panic("ratelimit: Middleware needs keyFunc and onLimited")
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if ok, wait := l.Allow(keyFunc(c)); !ok {
				return onLimited(c, wait)
			}
			return next(c)
		}
	}
}
