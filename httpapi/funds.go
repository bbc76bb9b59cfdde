package httpapi

import (
	"sync"
	"time"

	"github.com/closerelay/closerelay/web"
)

// maxFunds bounds the balances kept for the page: more than the plans a
// relay holds (500), so that only a flood of short-lived plans evicts one.
const maxFunds = 2048

// fundsBook keeps, per plan, the closing account's native balance that the
// preflight's read found at publish, for the page to say how much the close
// sends (issue 26). The plan record does not carry it (ledger.PreflightRun
// has the verdict only), so this instance keeps what it read: another
// instance of a cluster has no figure and its page says "the whole
// balance" instead. Entries end with their plan's expiry.
type fundsBook struct {
	mu    sync.Mutex
	byID  map[string]fundsEntry
	order []string // ids in the order kept, for eviction
}

type fundsEntry struct {
	funds  web.Funds
	expiry time.Time
}

// keep records id's balance, dropping expired entries, then the oldest,
// at the bound.
func (b *fundsBook) keep(id string, f web.Funds, expiry, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.byID == nil {
		b.byID = make(map[string]fundsEntry)
	}
	if _, ok := b.byID[id]; !ok {
		if len(b.order) >= maxFunds {
			kept := b.order[:0]
			for _, k := range b.order {
				if e, ok := b.byID[k]; ok && now.Before(e.expiry) {
					kept = append(kept, k)
				} else {
					delete(b.byID, k)
				}
			}
			b.order = kept
			if len(b.order) >= maxFunds {
				delete(b.byID, b.order[0])
				b.order = b.order[1:]
			}
		}
		b.order = append(b.order, id)
	}
	b.byID[id] = fundsEntry{funds: f, expiry: expiry}
}

// get returns id's balance, or nil.
func (b *fundsBook) get(id string) *web.Funds {
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.byID[id]
	if !ok {
		return nil
	}
	f := e.funds
	return &f
}
