package ledgertest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/support/render/hal"
	"github.com/stellar/go-stellar-sdk/support/render/problem"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Claimable balances: the double holds ClaimableBalanceEntry ledger entries
// (made by AddClaimableBalance; create_claimable_balance is not modelled),
// lists them on Horizon's GET /claimable_balances, serves each on
// Horizon's GET /claimable_balances/{id} and as Stellar RPC's
// getLedgerEntries of its key, and applies claim_claimable_balance as
// ClaimClaimableBalanceOpFrame.cpp does.

// claimable is one claimable balance entry.
type claimable struct {
	id        string // Horizon's hex of the ClaimableBalanceId
	xid       xdr.ClaimableBalanceId
	asset     xdr.Asset
	amount    int64
	claimants []xdr.Claimant
	sponsor   string // pays one base reserve per claimant
	ledger    uint32 // the ledger it was created in
	createdAt time.Time
}

// ClaimableBalance is a claimable balance for AddClaimableBalance: Amount
// (stroops) of Asset, claimable by each of Claimants under its predicate.
type ClaimableBalance struct {
	Asset     xdr.Asset
	Amount    int64
	Claimants []Claimant
	// Sponsor is the account that created it and pays its reserve, one
	// base reserve per claimant (its num_sponsoring goes up by as many);
	// "" is none the double knows.
	Sponsor string
}

// Claimant is who may claim a claimable balance, and when.
type Claimant struct {
	Destination string
	Predicate   xdr.ClaimPredicate
}

// AddClaimableBalance adds the claimable balance cb, created in the last
// ledger at the double's clock, and returns its id as Horizon spells it.
// A rel_before predicate is stored as the abs_before it stands for, as
// core stores it (CreateClaimableBalanceOpFrame.cpp relativeToAbsolute:
// the creating ledger's close time plus the seconds, capped at
// INT64_MAX), so it never reaches the ledger, Horizon or a claim as
// relative. It returns "" when cb is not a valid balance (no claimant, an
// amount not above 0, a claimant twice: CreateClaimableBalanceOpFrame.cpp
// doCheckValid).
func (h *Handler) AddClaimableBalance(cb ClaimableBalance) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if cb.Amount <= 0 || len(cb.Claimants) == 0 || len(cb.Claimants) > 10 || !assetValid(cb.Asset) {
		return ""
	}
	now := h.now().UTC().Truncate(time.Second)
	c := &claimable{asset: cb.Asset, amount: cb.Amount, sponsor: cb.Sponsor, ledger: uint32(max(h.lastLedger, 1)), createdAt: now}
	seen := map[string]bool{}
	for _, cl := range cb.Claimants {
		if seen[cl.Destination] {
			return ""
		}
		seen[cl.Destination] = true
		dest, err := xdr.AddressToAccountId(cl.Destination)
		if err != nil {
			return ""
		}
		pred := absolute(cl.Predicate, now.Unix())
		c.claimants = append(c.claimants, xdr.Claimant{Type: xdr.ClaimantTypeClaimantTypeV0, V0: &xdr.ClaimantV0{Destination: dest, Predicate: pred}})
	}
	// The id is the hash of the creating operation (an OperationID
	// preimage in core); the double hashes a counter instead.
	h.claimSeq++
	var seed [8]byte
	binary.BigEndian.PutUint64(seed[:], h.claimSeq)
	hash := xdr.Hash(sha256.Sum256(append([]byte("ledgertest claimable balance "), seed[:]...)))
	c.xid = xdr.ClaimableBalanceId{Type: xdr.ClaimableBalanceIdTypeClaimableBalanceIdTypeV0, V0: &hash}
	id, err := xdr.MarshalHex(c.xid)
	if err != nil {
		return ""
	}
	c.id = id
	if h.claimables == nil {
		h.claimables = map[string]*claimable{}
	}
	h.claimables[id] = c
	if s := h.accounts[cb.Sponsor]; s != nil {
		s.numSponsor += uint32(len(c.claimants))
		s.raw = nil
	}
	return id
}

// ClaimableBalanceExists says whether the claimable balance id (Horizon's
// hex) is still on the ledger.
func (h *Handler) ClaimableBalanceExists(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.claimables[id]
	return ok
}

// AddClaimableBalance is Handler.AddClaimableBalance.
func (s *Server) AddClaimableBalance(cb ClaimableBalance) string { return s.h.AddClaimableBalance(cb) }

// ClaimableBalanceExists is Handler.ClaimableBalanceExists.
func (s *Server) ClaimableBalanceExists(id string) bool { return s.h.ClaimableBalanceExists(id) }

// absolute is p with every rel_before made the abs_before it means at
// closeTime (CreateClaimableBalanceOpFrame.cpp updatePredicatesForApply).
func absolute(p xdr.ClaimPredicate, closeTime int64) xdr.ClaimPredicate {
	switch p.Type {
	case xdr.ClaimPredicateTypeClaimPredicateBeforeRelativeTime:
		rel := int64(*p.RelBefore)
		abs := xdr.Int64(math.MaxInt64)
		if closeTime <= math.MaxInt64-rel {
			abs = xdr.Int64(closeTime + rel)
		}
		return xdr.ClaimPredicate{Type: xdr.ClaimPredicateTypeClaimPredicateBeforeAbsoluteTime, AbsBefore: &abs}
	case xdr.ClaimPredicateTypeClaimPredicateAnd, xdr.ClaimPredicateTypeClaimPredicateOr:
		var parts []xdr.ClaimPredicate
		if p.Type == xdr.ClaimPredicateTypeClaimPredicateAnd {
			parts = *p.AndPredicates
		} else {
			parts = *p.OrPredicates
		}
		out := make([]xdr.ClaimPredicate, len(parts))
		for i, q := range parts {
			out[i] = absolute(q, closeTime)
		}
		if p.Type == xdr.ClaimPredicateTypeClaimPredicateAnd {
			return xdr.ClaimPredicate{Type: p.Type, AndPredicates: &out}
		}
		return xdr.ClaimPredicate{Type: p.Type, OrPredicates: &out}
	case xdr.ClaimPredicateTypeClaimPredicateNot:
		if p.NotPredicate == nil || *p.NotPredicate == nil {
			return p
		}
		q := absolute(**p.NotPredicate, closeTime)
		qp := &q
		return xdr.ClaimPredicate{Type: p.Type, NotPredicate: &qp}
	}
	return p
}

// predicateHolds is ClaimClaimableBalanceOpFrame.cpp validatePredicate: a
// stored predicate at a ledger's close time (abs_before compared as
// unsigned, as core casts it).
func predicateHolds(p xdr.ClaimPredicate, closeTime int64) bool {
	switch p.Type {
	case xdr.ClaimPredicateTypeClaimPredicateUnconditional:
		return true
	case xdr.ClaimPredicateTypeClaimPredicateAnd:
		ps := *p.AndPredicates
		return len(ps) == 2 && predicateHolds(ps[0], closeTime) && predicateHolds(ps[1], closeTime)
	case xdr.ClaimPredicateTypeClaimPredicateOr:
		ps := *p.OrPredicates
		return len(ps) == 2 && (predicateHolds(ps[0], closeTime) || predicateHolds(ps[1], closeTime))
	case xdr.ClaimPredicateTypeClaimPredicateNot:
		return p.NotPredicate != nil && *p.NotPredicate != nil && !predicateHolds(**p.NotPredicate, closeTime)
	case xdr.ClaimPredicateTypeClaimPredicateBeforeAbsoluteTime:
		return uint64(*p.AbsBefore) > uint64(closeTime)
	}
	return false // core throws on anything else; a stored entry has none
}

// claimable is the balance id in v, nil when it does not exist (or was
// claimed in v or a parent).
func (v *ledgerView) claimable(id string) *claimable {
	for w := v; w != nil; w = w.parent {
		if c, ok := w.cbs[id]; ok {
			return c
		}
	}
	return v.h.claimables[id]
}

// commitClaimables is commit's part for claimable balances.
func (v *ledgerView) commitClaimables() {
	if v.parent != nil {
		for id, c := range v.cbs {
			if v.parent.cbs == nil {
				v.parent.cbs = map[string]*claimable{}
			}
			v.parent.cbs[id] = c
		}
		return
	}
	for id, c := range v.cbs {
		if c == nil {
			delete(v.h.claimables, id)
		} else {
			v.h.claimables[id] = c
		}
	}
}

// applyClaim follows ClaimClaimableBalanceOpFrame.cpp doApply, in its
// order (its doCheckValid accepts every operation).
func applyClaim(v *ledgerView, src *account, op xdr.ClaimClaimableBalanceOp) (xdr.OperationResult, bool) {
	fail := func(c xdr.ClaimClaimableBalanceResultCode) (xdr.OperationResult, bool) { return claimResult(c), false }
	id, err := xdr.MarshalHex(op.BalanceId)
	if err != nil {
		return fail(xdr.ClaimClaimableBalanceResultCodeClaimClaimableBalanceDoesNotExist)
	}
	// ClaimClaimableBalanceOpFrame.cpp: the entry must exist.
	cb := v.claimable(id)
	if cb == nil {
		return fail(xdr.ClaimClaimableBalanceResultCodeClaimClaimableBalanceDoesNotExist)
	}
	// ClaimClaimableBalanceOpFrame.cpp: the source must be a claimant whose
	// predicate holds at the close time of the ledger being closed.
	i := slices.IndexFunc(cb.claimants, func(c xdr.Claimant) bool { return c.MustV0().Destination.Address() == src.id })
	if i < 0 || !predicateHolds(cb.claimants[i].MustV0().Predicate, v.h.now().Unix()) {
		return fail(xdr.ClaimClaimableBalanceResultCodeClaimClaimableBalanceCannotClaim)
	}
	if cb.asset.Type == xdr.AssetTypeAssetTypeNative {
		// ClaimClaimableBalanceOpFrame.cpp: addBalance on the source
		// account (op_line_full past INT64_MAX - buying liabilities).
		if !src.addNative(cb.amount) {
			return fail(xdr.ClaimClaimableBalanceResultCodeClaimClaimableBalanceLineFull)
		}
	} else if cb.asset.GetIssuer() != src.id { // the issuer's own "trustline" takes anything
		// ClaimClaimableBalanceOpFrame.cpp: the source's trustline must
		// exist, be authorized, and take the amount.
		tl := src.trustline(cb.asset)
		switch {
		case tl == nil:
			return fail(xdr.ClaimClaimableBalanceResultCodeClaimClaimableBalanceNoTrust)
		case tl.flags&TrustAuthorized == 0:
			return fail(xdr.ClaimClaimableBalanceResultCodeClaimClaimableBalanceNotAuthorized)
		case !src.addLine(tl, cb.amount):
			return fail(xdr.ClaimClaimableBalanceResultCodeClaimClaimableBalanceLineFull)
		}
	}
	// ClaimClaimableBalanceOpFrame.cpp removeEntryWithPossibleSponsorship:
	// the sponsor gets back one reserve per claimant (SponsorshipUtils.cpp
	// computeMultiplier); a claimable balance has no owner account whose
	// num_sponsored would change.
	if cb.sponsor != "" {
		if s := v.get(cb.sponsor); s != nil {
			s.numSponsor -= min(s.numSponsor, uint32(len(cb.claimants)))
		}
	}
	if v.cbs == nil {
		v.cbs = map[string]*claimable{}
	}
	v.cbs[id] = nil
	return claimResult(xdr.ClaimClaimableBalanceResultCodeClaimClaimableBalanceSuccess), true
}

func claimResult(c xdr.ClaimClaimableBalanceResultCode) xdr.OperationResult {
	return innerOf(xdr.OperationResultTr{Type: xdr.OperationTypeClaimClaimableBalance, ClaimClaimableBalanceResult: &xdr.ClaimClaimableBalanceResult{Code: c}})
}

var claimCodes = map[int32]string{
	-1: "op_does_not_exist", -2: "op_cannot_claim", -3: "op_line_full", -4: "op_no_trust", -5: "op_not_authorized",
}

// horizonClaimable is Horizon's JSON for c.
func (c *claimable) horizonClaimable() horizon.ClaimableBalance {
	asset := assetString(c.asset)
	at := c.createdAt
	out := horizon.ClaimableBalance{
		BalanceID: c.id, Asset: asset, Amount: amount.StringFromInt64(c.amount), Sponsor: c.sponsor,
		LastModifiedLedger: c.ledger, LastModifiedTime: &at, PT: c.pagingToken(),
	}
	for _, cl := range c.claimants {
		v0 := cl.MustV0()
		out.Claimants = append(out.Claimants, horizon.Claimant{Destination: v0.Destination.Address(), Predicate: v0.Predicate})
	}
	out.Links.Self = hal.Link{Href: "/claimable_balances/" + c.id}
	return out
}

// entry is c's ClaimableBalanceEntry as Stellar RPC's getLedgerEntries
// gives it: its sponsor, the account whose reserve it holds, in the
// entry's extension (LedgerEntryExtensionV1 sponsoringID).
func (c *claimable) entry() xdr.LedgerEntry {
	return xdr.LedgerEntry{
		LastModifiedLedgerSeq: xdr.Uint32(max(c.ledger, 1)),
		Data: xdr.LedgerEntryData{Type: xdr.LedgerEntryTypeClaimableBalance, ClaimableBalance: &xdr.ClaimableBalanceEntry{
			BalanceId: c.xid, Claimants: slices.Clone(c.claimants), Asset: c.asset, Amount: xdr.Int64(c.amount),
		}},
		Ext: sponsorExt(c.sponsor),
	}
}

// claimableBalance serves GET /claimable_balances/{id} as Horizon does: the
// balance's resource, 404 when the ledger does not hold it (claimed, or
// never made), 400 for an id that is not a balance id's hex.
func (h *Handler) claimableBalance(w http.ResponseWriter, r *http.Request) {
	id := strings.ToLower(r.PathValue("id"))
	var xid xdr.ClaimableBalanceId
	if err := xdr.SafeUnmarshalHex(id, &xid); err != nil {
		writeProblem(w, invalidField("id", "The balance id is not a claimable balance id in hex."))
		return
	}
	h.mu.Lock()
	h.requests++
	failing := h.failing
	var rec *horizon.ClaimableBalance
	if c := h.claimables[id]; c != nil {
		cb := c.horizonClaimable()
		rec = &cb
	}
	h.mu.Unlock()
	switch {
	case failing:
		writeProblem(w, problem.ServerError)
	case rec == nil:
		writeProblem(w, problem.NotFound)
	default:
		w.Header().Set("Content-Type", "application/hal+json; charset=utf-8")
		_ = json.NewEncoder(w).Encode(rec)
	}
}

// pagingToken is Horizon's: the last modified ledger and the id.
func (c *claimable) pagingToken() string { return fmt.Sprintf("%d-%s", c.ledger, c.id) }

// claimableBalances serves GET /claimable_balances as Horizon does for the
// filters the double knows (claimant, sponsor, asset), ordered by paging
// token, with limit (1 to 200, default 10), cursor and order.
func (h *Handler) claimableBalances(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit := 10
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 200 {
			writeProblem(w, invalidField("limit", "The limit must be an integer from 1 to 200."))
			return
		}
		limit = n
	}
	order := q.Get("order")
	switch order {
	case "":
		order = "asc"
	case "asc", "desc":
	default:
		writeProblem(w, invalidField("order", "The order must be asc or desc."))
		return
	}
	cursor := q.Get("cursor")
	h.mu.Lock()
	h.requests++
	failing := h.failing
	var all []*claimable
	for _, c := range h.claimables {
		if who := q.Get("claimant"); who != "" && !slices.ContainsFunc(c.claimants, func(cl xdr.Claimant) bool { return cl.MustV0().Destination.Address() == who }) {
			continue
		}
		if s := q.Get("sponsor"); s != "" && c.sponsor != s {
			continue
		}
		if a := q.Get("asset"); a != "" && a != assetString(c.asset) {
			continue
		}
		all = append(all, c)
	}
	var page horizon.ClaimableBalances
	page.Embedded.Records = []horizon.ClaimableBalance{}
	slices.SortFunc(all, func(x, y *claimable) int {
		if x.ledger != y.ledger {
			return cmpInt64(int64(x.ledger), int64(y.ledger))
		}
		return strings.Compare(x.id, y.id)
	})
	if order == "desc" {
		slices.Reverse(all)
	}
	for _, c := range all {
		if len(page.Embedded.Records) == limit {
			break
		}
		if cursor != "" && ((order == "asc" && !tokenAfter(c, cursor)) || (order == "desc" && !tokenBefore(c, cursor))) {
			continue
		}
		page.Embedded.Records = append(page.Embedded.Records, c.horizonClaimable())
	}
	h.mu.Unlock()
	if failing {
		writeProblem(w, problem.ServerError)
		return
	}
	page.Links.Self = hal.Link{Href: r.URL.RequestURI()}
	w.Header().Set("Content-Type", "application/hal+json; charset=utf-8")
	_ = json.NewEncoder(w).Encode(page)
}

// tokenAfter says whether c's paging token sorts after cursor.
func tokenAfter(c *claimable, cursor string) bool { return cmpToken(c, cursor) > 0 }

func tokenBefore(c *claimable, cursor string) bool { return cmpToken(c, cursor) < 0 }

func cmpToken(c *claimable, cursor string) int {
	l, id, _ := strings.Cut(cursor, "-")
	n, _ := strconv.ParseUint(l, 10, 32)
	if c.ledger != uint32(n) {
		return cmpInt64(int64(c.ledger), int64(n))
	}
	return strings.Compare(c.id, id)
}

// assetString is an asset as Horizon's query parameters and claimable
// balances spell it: "native" or "CODE:ISSUER".
func assetString(a xdr.Asset) string {
	if a.Type == xdr.AssetTypeAssetTypeNative {
		return "native"
	}
	return a.StringCanonical()
}
