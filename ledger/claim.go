package ledger

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// Claimable balances the close claims (CONTRACT section 17's --claim):
// the preflight reads each by its id (Horizon's GET
// /claimable_balances/{id}, Stellar RPC's getLedgerEntries of its key),
// as a ClaimableBalanceEntry either way, and applies the claim with
// ClaimClaimableBalanceOpFrame.cpp's rules.

// ClaimableBalance is a claimable balance entry as the preflight reads it.
type ClaimableBalance struct {
	ID        string // the ClaimableBalanceId's XDR in hex, as Horizon spells it
	Asset     xdr.Asset
	Amount    int64 // stroops
	Claimants []xdr.Claimant
	Sponsor   string // the account whose reserve it holds; "" when none is named
}

// ClaimableID is id as Horizon spells it: its XDR in lower-case hex.
func ClaimableID(id xdr.ClaimableBalanceId) (string, bool) {
	if id.Type != xdr.ClaimableBalanceIdTypeClaimableBalanceIdTypeV0 || id.V0 == nil {
		return "", false
	}
	s, err := xdr.MarshalHex(id)
	return s, err == nil
}

// ErrNotClaimableEntry: a ledger entry read as a claimable balance is
// another kind, or one the ledger cannot hold.
var ErrNotClaimableEntry = errors.New("the ledger entry is not a claimable balance the ledger can hold")

// ClaimableFromEntry is the claimable balance of a ClaimableBalanceEntry,
// with its sponsor from the entry's extension (a claimable balance's
// reserve is always sponsored: by its creator). An entry with no claimant,
// more than 10, one of an unset key, an amount not above 0, or a
// predicate a ledger does not store (a relative time: core stores it
// absolute; deeper than 4; and/or without two parts) is an error.
func ClaimableFromEntry(e xdr.LedgerEntry) (ClaimableBalance, error) {
	cb := e.Data.ClaimableBalance
	if e.Data.Type != xdr.LedgerEntryTypeClaimableBalance || cb == nil {
		return ClaimableBalance{}, ErrNotClaimableEntry
	}
	id, ok := ClaimableID(cb.BalanceId)
	if !ok || cb.Amount <= 0 || len(cb.Claimants) == 0 || len(cb.Claimants) > 10 || !assetSet(cb.Asset) {
		return ClaimableBalance{}, ErrNotClaimableEntry
	}
	out := ClaimableBalance{ID: id, Asset: cb.Asset, Amount: int64(cb.Amount)}
	for _, c := range cb.Claimants {
		if c.Type != xdr.ClaimantTypeClaimantTypeV0 || c.V0 == nil {
			return ClaimableBalance{}, ErrNotClaimableEntry
		}
		if _, ok := address(c.V0.Destination); !ok || !storedPredicate(c.V0.Predicate, 1) {
			return ClaimableBalance{}, ErrNotClaimableEntry
		}
		out.Claimants = append(out.Claimants, c)
	}
	if e.Ext.V == 1 && e.Ext.V1 != nil && e.Ext.V1.SponsoringId != nil {
		if s, ok := address(xdr.AccountId(*e.Ext.V1.SponsoringId)); ok {
			out.Sponsor = s
		}
	}
	return out, nil
}

// assetSet reports whether a's arm for its type is set.
func assetSet(a xdr.Asset) bool {
	switch a.Type {
	case xdr.AssetTypeAssetTypeNative:
		return true
	case xdr.AssetTypeAssetTypeCreditAlphanum4:
		return a.AlphaNum4 != nil
	case xdr.AssetTypeAssetTypeCreditAlphanum12:
		return a.AlphaNum12 != nil
	}
	return false
}

// storedPredicate is whether p is a predicate a ledger entry can hold
// (CreateClaimableBalanceOpFrame.cpp validatePredicate, depth at most 4,
// after updatePredicatesForApply made every relative time absolute).
func storedPredicate(p xdr.ClaimPredicate, depth int) bool {
	if depth > 4 {
		return false
	}
	switch p.Type {
	case xdr.ClaimPredicateTypeClaimPredicateUnconditional:
		return true
	case xdr.ClaimPredicateTypeClaimPredicateAnd, xdr.ClaimPredicateTypeClaimPredicateOr:
		ps := p.AndPredicates
		if p.Type == xdr.ClaimPredicateTypeClaimPredicateOr {
			ps = p.OrPredicates
		}
		return ps != nil && len(*ps) == 2 && storedPredicate((*ps)[0], depth+1) && storedPredicate((*ps)[1], depth+1)
	case xdr.ClaimPredicateTypeClaimPredicateNot:
		return p.NotPredicate != nil && *p.NotPredicate != nil && storedPredicate(**p.NotPredicate, depth+1)
	case xdr.ClaimPredicateTypeClaimPredicateBeforeAbsoluteTime:
		return p.AbsBefore != nil && *p.AbsBefore >= 0
	}
	return false
}

// claim is ClaimClaimableBalanceOpFrame.cpp doApply, in its order: the
// entry must exist, the source must be a claimant whose predicate holds
// at the close time (a predicate that holds for part of the window only
// is uncertain: when the close lands is not known), the sponsor gets its
// reserves back (removeEntryWithPossibleSponsorship, one per claimant),
// then the source's balance takes the amount (op_line_full past what it
// can hold; for a credit asset the trustline must exist, op_no_trust,
// and be authorized, op_not_authorized, but for the asset's issuer).
func (p *preflight) claim(i int, source string, b xdr.ClaimClaimableBalanceOp) verdict {
	id, ok := ClaimableID(b.BalanceId)
	if !ok {
		return p.block(i, "op_does_not_exist", "the claimable balance id is not one the ledger gives")
	}
	cb, read := p.claimables[id]
	if !read {
		return vUncertain
	}
	if cb == nil {
		return p.block(i, "op_does_not_exist", "the claimable balance "+id+" does not exist (claimed already, or never made)")
	}
	at := slices.IndexFunc(cb.Claimants, func(c xdr.Claimant) bool {
		s, ok := address(c.V0.Destination)
		return ok && s == source
	})
	if at < 0 {
		return p.block(i, "op_cannot_claim", "the account is not a claimant of the claimable balance "+id)
	}
	pred := cb.Claimants[at].V0.Predicate
	from, until := time.Unix(int64(max(p.closeTime(), p.minTime())), 0), time.Unix(int64(p.lastTime()), 0)
	switch {
	case ClaimableThroughout(pred, time.Time{}, from, until):
	case !claimableEver(pred, from, until):
		return p.block(i, "op_cannot_claim", "the account's claim on the claimable balance "+id+" does not hold at any time the close can land")
	default:
		return vUncertain
	}
	if s := p.accounts[cb.Sponsor]; s != nil {
		m := p.mutable(cb.Sponsor)
		m.NumSponsoring -= min(m.NumSponsoring, uint32(len(cb.Claimants)))
	}
	src := p.mutable(source)
	switch {
	case cb.Asset.Type == xdr.AssetTypeAssetTypeNative:
		if src.Balance > math.MaxInt64-src.NativeBuying-cb.Amount {
			return p.block(i, "op_line_full", "the account cannot hold the claimed XLM")
		}
		src.Balance += cb.Amount
	case assetIssuer(cb.Asset) == source:
	default:
		tl := src.trustline(cb.Asset)
		switch {
		case tl == nil:
			return p.block(i, "op_no_trust", "the account has no trustline to "+assetName(cb.Asset)+" to claim it into")
		case tl.Flags&xdr.TrustLineFlagsAuthorizedFlag == 0:
			return p.block(i, "op_not_authorized", "the account is not authorized to hold "+assetName(cb.Asset))
		case tl.Balance > tl.Limit-tl.Buying-cb.Amount:
			return p.block(i, "op_line_full", fmt.Sprintf("the account's trustline to %s cannot hold %s more", assetName(cb.Asset), stroops(cb.Amount)))
		}
		tl.Balance += cb.Amount
	}
	p.claimables[id] = nil
	return vApplied
}

// minTime is the transaction's min_time, 0 when it has none.
func (p *preflight) minTime() uint64 {
	if tb := p.env.TimeBounds(); tb != nil {
		return uint64(tb.MinTime)
	}
	return 0
}

// claimableEver is whether pred holds at some close time from from to
// until: it can only change at one of its times, so at from or at one of
// them.
func claimableEver(pred xdr.ClaimPredicate, from, until time.Time) bool {
	if PredicateHolds(pred, time.Time{}, from) {
		return true
	}
	ever := false
	walkTimes(pred, time.Time{}, func(end int64) {
		if end > from.Unix() && end <= until.Unix() {
			ever = ever || PredicateHolds(pred, time.Time{}, time.Unix(end, 0))
		}
	})
	return ever
}

// PredicateHolds is whether pred lets its claimant claim at close time at
// (ClaimClaimableBalanceOpFrame.cpp validatePredicate: abs_before T holds
// while the close time is before T). A ledger entry holds only absolute
// times (CreateClaimableBalanceOpFrame.cpp makes a rel_before absolute
// when the balance is created); a rel_before read anyway counts from the
// balance's creation, created.
func PredicateHolds(pred xdr.ClaimPredicate, created, at time.Time) bool {
	switch pred.Type {
	case xdr.ClaimPredicateTypeClaimPredicateUnconditional:
		return true
	case xdr.ClaimPredicateTypeClaimPredicateAnd:
		ps := pred.AndPredicates
		return ps != nil && len(*ps) == 2 && PredicateHolds((*ps)[0], created, at) && PredicateHolds((*ps)[1], created, at)
	case xdr.ClaimPredicateTypeClaimPredicateOr:
		ps := pred.OrPredicates
		return ps != nil && len(*ps) == 2 && (PredicateHolds((*ps)[0], created, at) || PredicateHolds((*ps)[1], created, at))
	case xdr.ClaimPredicateTypeClaimPredicateNot:
		return pred.NotPredicate != nil && *pred.NotPredicate != nil && !PredicateHolds(**pred.NotPredicate, created, at)
	case xdr.ClaimPredicateTypeClaimPredicateBeforeAbsoluteTime, xdr.ClaimPredicateTypeClaimPredicateBeforeRelativeTime:
		end, ok := predicateEnd(pred, created)
		return ok && at.Unix() < end
	}
	return false
}

// predicateEnd is the close time (unix seconds) a time predicate stops
// holding at.
func predicateEnd(pred xdr.ClaimPredicate, created time.Time) (int64, bool) {
	switch {
	case pred.Type == xdr.ClaimPredicateTypeClaimPredicateBeforeAbsoluteTime && pred.AbsBefore != nil:
		return int64(*pred.AbsBefore), true
	case pred.Type == xdr.ClaimPredicateTypeClaimPredicateBeforeRelativeTime && pred.RelBefore != nil && !created.IsZero():
		rel := int64(*pred.RelBefore)
		if created.Unix() > (1<<63-1)-rel {
			return 1<<63 - 1, true
		}
		return created.Unix() + rel, true
	}
	return 0, false
}

// ClaimableThroughout is whether pred holds at every close time from from
// to until: it is a combination of "before T" conditions, so it can only
// change at one of those Ts, and it holds throughout when it holds at from
// and at each T in (from, until].
func ClaimableThroughout(pred xdr.ClaimPredicate, created, from, until time.Time) bool {
	if !PredicateHolds(pred, created, from) {
		return false
	}
	ok := true
	walkTimes(pred, created, func(end int64) {
		if end > from.Unix() && end <= until.Unix() {
			ok = ok && PredicateHolds(pred, created, time.Unix(end, 0))
		}
	})
	return ok
}

// walkTimes calls f with each time pred names (predicateEnd: a rel_before
// counts from created, and names none without it).
func walkTimes(pred xdr.ClaimPredicate, created time.Time, f func(end int64)) {
	switch pred.Type {
	case xdr.ClaimPredicateTypeClaimPredicateAnd, xdr.ClaimPredicateTypeClaimPredicateOr:
		ps := pred.AndPredicates
		if pred.Type == xdr.ClaimPredicateTypeClaimPredicateOr {
			ps = pred.OrPredicates
		}
		if ps != nil {
			for _, q := range *ps {
				walkTimes(q, created, f)
			}
		}
	case xdr.ClaimPredicateTypeClaimPredicateNot:
		if pred.NotPredicate != nil && *pred.NotPredicate != nil {
			walkTimes(**pred.NotPredicate, created, f)
		}
	default:
		if end, has := predicateEnd(pred, created); has {
			f(end)
		}
	}
}
