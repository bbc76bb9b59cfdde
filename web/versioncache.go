package web

import (
	"html/template"
	"sync"
	"sync/atomic"

	"github.com/closerelay/closerelay/sep7"
)

// built is what the plan page shows that depends only on a plan's version
// (its envelope): the decoded transaction, the SEP-7 link and its QR code.
// Encoding the QR code alone takes tens of milliseconds for a plan of many
// signatures, so a page served again must not do it again (CONTRACT
// section 9, round 3): each is built once per version and kept.
type built struct {
	plan string // the plan's id
	xdr  string
	once sync.Once

	tx      *Summary
	txError string
	sep7    string
	qr      template.HTML
	qrError string

	// The page last rendered for this version, and what it was rendered
	// for (pageKey); guarded by builds.mu. A page served again with the
	// same key costs a map lookup and a write.
	pageKey  string
	pageBody []byte
}

// maxBuilt bounds the versions kept: one per plan, and more plans than the
// capacity of a single relay; past it the oldest plan's is dropped, and
// built again if its page is asked for.
const maxBuilt = 1024

// maxPageBytes bounds the rendered pages kept, all plans together: a page
// of a 20-signature plan is about 125 KB (its QR code most of it), so this
// keeps the pages of at least 250 plans, half the relay's capacity (the
// deploy files give the pod 1 GiB); past it the pages of the plans kept
// longest are dropped first (their parts stay).
var maxPageBytes = 32 << 20 // a var for the tests (export_test.go)

// builds keeps the latest version's built parts of each plan.
type builds struct {
	mu    sync.Mutex
	byID  map[string]*built
	order []string // ids in the order they were first kept, for eviction

	count atomic.Int64 // parts built, for Handler.Builds

	pageBytes int          // the sum of the kept pages' lengths, under mu
	renders   atomic.Int64 // pages rendered, for Handler.Renders
}

// get returns the built parts of plan id at envelope xdr, building them
// once: concurrent first requests for one version share one build.
func (b *builds) get(id, xdr string, build func(*built)) *built {
	b.mu.Lock()
	e := b.byID[id]
	if e == nil || e.xdr != xdr {
		if b.byID == nil {
			b.byID = make(map[string]*built)
		}
		if e == nil {
			if len(b.order) >= maxBuilt {
				if old := b.byID[b.order[0]]; old != nil {
					b.pageBytes -= len(old.pageBody)
				}
				delete(b.byID, b.order[0])
				b.order = b.order[1:]
			}
			b.order = append(b.order, id)
		}
		if e != nil {
			b.pageBytes -= len(e.pageBody)
		}
		e = &built{plan: id, xdr: xdr}
		b.byID[id] = e
	}
	b.mu.Unlock()
	e.once.Do(func() {
		b.count.Add(1)
		build(e)
	})
	return e
}

// build fills in what version d of a plan shows.
func (h *Handler) build(d PageData) func(*built) {
	return func(e *built) {
		if tx, err := Summarize(d.XDR); err != nil {
			e.txError = err.Error()
		} else {
			e.tx = tx
		}
		e.sep7 = sep7.ForPlan(d.Network, d.ID, d.XDR, h.cfg.PublicURL)
		if qr, err := qrSVG(e.sep7, "QR code of the SEP-7 signing link"); err != nil {
			e.qrError = "The link is too long for a QR code: open it or copy it instead."
		} else {
			e.qr = qr
		}
	}
}

// Builds is how many times the handler has built a plan version's page
// parts (decoded transaction, SEP-7 link, QR code): once per version seen,
// however often its page is served.
func (h *Handler) Builds() int64 { return h.builds.count.Load() }

// page returns the page kept for e under key, or nil.
func (b *builds) page(e *built, key string) []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	if e.pageKey == key {
		return e.pageBody
	}
	return nil
}

// keep keeps body as e's page for key, in place of the one it had, and
// drops other plans' pages, oldest first, while the pages kept exceed
// maxPageBytes. A page larger than the bound is not kept.
func (b *builds) keep(e *built, key string, body []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(body) > maxPageBytes || b.byID[e.plan] != e {
		return // too large, or a newer version has replaced e meanwhile
	}
	b.pageBytes += len(body) - len(e.pageBody)
	e.pageKey, e.pageBody = key, body
	for i := 0; b.pageBytes > maxPageBytes && i < len(b.order); i++ {
		if old := b.byID[b.order[i]]; old != nil && old != e && old.pageBody != nil {
			b.pageBytes -= len(old.pageBody)
			old.pageKey, old.pageBody = "", nil
		}
	}
}

// Renders is how many times the handler has rendered a plan page, as
// opposed to serving one kept from an earlier request.
func (h *Handler) Renders() int64 { return h.builds.renders.Load() }

// KeptPageBytes is the size of the rendered pages kept in memory.
func (h *Handler) KeptPageBytes() int {
	h.builds.mu.Lock()
	defer h.builds.mu.Unlock()
	return h.builds.pageBytes
}
