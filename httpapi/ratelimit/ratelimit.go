// Package ratelimit throttles requests per client key with token buckets
// (CONTRACT.md section 3): capacity N, refilled continuously at N per period.
//
// A Limiter holds a bounded number of keys so a flood of distinct addresses
// cannot grow memory without limit. At the cap, only buckets that have
// refilled completely are dropped: a full bucket behaves exactly like a fresh
// one, so dropping it loses nothing. A bucket that is still refilling is never
// evicted, because evicting it would hand its owner a fresh bucket whenever
// someone sent requests from enough new addresses; the new key is refused
// instead.
package ratelimit

import (
	"math"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
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

	mu sync.Mutex
	// buckets is in order of last token taken: the oldest entry is the
	// bucket idle longest. A bucket refills from empty within one period of
	// its last take, so the oldest has the earliest deadline by which a
	// bucket is surely full, and eviction only ever looks there. Its size is
	// maxKeys, but Allow never adds past it (it evicts or refuses first), so
	// the LRU's own eviction never runs.
	buckets *simplelru.LRU[string, *bucket]
	latest  time.Time // the newest bucket's last take
}

type bucket struct {
	lim  *rate.Limiter
	last time.Time // when a token was last taken
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
	buckets, err := simplelru.NewLRU[string, *bucket](maxKeys, nil)
	if err != nil {
		panic("ratelimit: " + err.Error())
	}
	return &Limiter{
		n:       n,
		per:     per,
		limit:   rate.Limit(float64(n) / per.Seconds()),
		maxKeys: maxKeys,
		now:     now,
		buckets: buckets,
	}
}

// Allow takes one token from key's bucket. When none is available it reports
// false and how long until one is. A new key arriving while the Limiter is at
// its cap and no bucket can be dropped is refused too; its wait is the time
// until the longest-idle bucket is full again, at least one second.
func (l *Limiter) Allow(key string) (ok bool, retryAfter time.Duration) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()

	b, known := l.buckets.Peek(key)
	if !known {
		if l.buckets.Len() >= l.maxKeys && !l.evictFull(now) {
			_, idlest, _ := l.buckets.GetOldest()
			return false, l.untilFull(idlest, now)
		}
		b = &bucket{lim: rate.NewLimiter(l.limit, l.n)}
		l.buckets.Add(key, b)
	}
	if !b.lim.AllowN(now, 1) {
		return false, max(l.untilTokens(b, 1, now), time.Nanosecond)
	}
	// The clock is read before taking the lock, so concurrent callers can
	// arrive slightly out of order. Never stamping earlier than the newest
	// bucket keeps the list sorted; erring towards "used later" only ever
	// delays an eviction.
	if l.latest.After(now) {
		now = l.latest
	}
	if now.After(b.last) {
		b.last = now
	}
	l.latest = b.last
	l.buckets.Get(key) // now the most recently used
	return true, 0
}

// Len reports how many keys the Limiter holds.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buckets.Len()
}

// evictFull drops full buckets from the idle end and reports whether any room
// was made. It stops at the first bucket still refilling even though a lightly
// used bucket behind it may already be full: scanning on would cost O(keys)
// per refused request under a flood of new addresses, and the front bucket is
// full within one period anyway, so a new key waits at most that long.
func (l *Limiter) evictFull(now time.Time) bool {
	freed := false
	for range evictBatch {
		_, b, ok := l.buckets.GetOldest()
		if !ok || !l.full(b, now) {
			break
		}
		l.buckets.RemoveOldest()
		freed = true
	}
	return freed
}

// full is judged the way waits are rounded, so a refused new key that comes
// back after the wait it was given finds the bucket full, not a hair short.
func (l *Limiter) full(b *bucket, now time.Time) bool {
	return now.Sub(b.last) >= l.per || l.untilTokens(b, float64(l.n), now) == 0
}

// untilTokens is how long until b holds want tokens. It works from n and per
// rather than the float rate, and rounds to the nearest nanosecond rather than
// up, so whole-token waits come out exact: 60 s / 10 is 6 s, not 6 s and a
// nanosecond of float noise, which a Retry-After would round up to 7 s. The
// bucket itself forgives a shortfall under a nanosecond, so waiting the
// rounded time is enough.
func (l *Limiter) untilTokens(b *bucket, want float64, now time.Time) time.Duration {
	missing := want - b.lim.TokensAt(now)
	if missing <= 0 {
		return 0
	}
	return time.Duration(math.Round(missing * float64(l.per) / float64(l.n)))
}

func (l *Limiter) untilFull(b *bucket, now time.Time) time.Duration {
	d := l.untilTokens(b, float64(l.n), now)
	if byAge := l.per - now.Sub(b.last); byAge < d {
		d = byAge
	}
	// Room opens only as other clients go idle; a near-zero wait would have a
	// flood of new addresses retry in a tight loop.
	return max(d, time.Second)
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
