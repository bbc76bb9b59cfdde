package ledgerapi

import (
	"context"
	"sync"
	"time"
)

// Default ledger-call budgets of the preflight at publish, per minute
// (docs/API.md section 12, LEDGER_CALLS_PER_CLIENT and
// LEDGER_CALLS_PER_ACCOUNT). An honest publish of a close that pays
// PREFLIGHT_MAX_ACCOUNTS accounts costs at most about 30 calls, most of
// them shared with the next publish of the same account; a client, or an
// account, that costs more than this a minute is a flood, and its
// preflights are unchecked until its budget refills.
const (
	DefaultCallsPerClient  = 300
	DefaultCallsPerAccount = 150
)

// budgetPeriod is the time in which a spent budget refills whole.
const budgetPeriod = time.Minute

// maxBudgetKeys bounds the buckets one budget keeps, as the HTTP rate
// limiter bounds its own: beyond it, full buckets (keys that spent
// nothing lately) are dropped first.
const maxBudgetKeys = 20_000

// clientKey is the context key of the client a preflight runs for.
type clientKey struct{}

// WithClient is ctx carrying the client (its rate-limit key, an IPv4
// address or an IPv6 /64) whose request the preflight runs for: the
// publish route sets it, and the preflight then spends that client's
// budget as well as the closing account's. A preflight whose ctx carries
// no client (the relay's own re-read before submission) spends no budget.
func WithClient(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, clientKey{}, key)
}

func clientOf(ctx context.Context) (string, bool) {
	k, ok := ctx.Value(clientKey{}).(string)
	return k, ok
}

// budget is a token bucket per key of ledger calls: each key holds at most
// perPeriod calls and regains them over budgetPeriod. A run reserves the
// most it can cost (PREFLIGHT_MAX_ACCOUNTS bounds it) while its key holds
// at least one call, and gets back what it did not spend once it is over,
// so a key is in debt by at most one run's reservation. A nil *budget
// allows everything.
type budget struct {
	perPeriod float64

	mu   sync.Mutex
	keys map[string]*bucket
}

type bucket struct {
	tokens float64 // may be negative: a debt
	at     time.Time
}

func newBudget(perPeriod int) *budget {
	if perPeriod <= 0 {
		return nil
	}
	return &budget{perPeriod: float64(perPeriod), keys: map[string]*bucket{}}
}

// refill brings b up to now.
func (g *budget) refill(b *bucket, now time.Time) {
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(g.perPeriod, b.tokens+g.perPeriod*d.Seconds()/budgetPeriod.Seconds())
		b.at = now
	}
}

// reserve takes n calls from key if it holds at least one now, and
// reports whether it did. Taking them before the run's calls are made,
// under one lock, is what stops a burst of concurrent runs from all
// finding the same calls left.
func (g *budget) reserve(key string, n int, now time.Time) bool {
	if g == nil {
		return true
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	b := g.keys[key]
	if b == nil {
		if len(g.keys) >= maxBudgetKeys {
			g.dropFull(now)
		}
		b = &bucket{tokens: g.perPeriod, at: now}
		g.keys[key] = b
	}
	g.refill(b, now)
	if b.tokens < 1 {
		return false
	}
	b.tokens -= float64(n)
	return true
}

// refund gives back to key n calls reserved and not made.
func (g *budget) refund(key string, n int, now time.Time) {
	if g == nil || n <= 0 {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if b := g.keys[key]; b != nil {
		g.refill(b, now)
		b.tokens = min(g.perPeriod, b.tokens+float64(n))
	}
}

// dropFull forgets the keys whose bucket is full again (forgetting them
// changes nothing), and when none is, the one closest to full.
func (g *budget) dropFull(now time.Time) {
	var fullest string
	best := -1.0
	for k, b := range g.keys {
		g.refill(b, now)
		if b.tokens >= g.perPeriod {
			delete(g.keys, k)
			continue
		}
		if b.tokens > best {
			fullest, best = k, b.tokens
		}
	}
	if len(g.keys) >= maxBudgetKeys {
		delete(g.keys, fullest)
	}
}
