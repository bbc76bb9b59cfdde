package wallet

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/closerelay/closerelay/ledger"
	horizonapi "github.com/closerelay/closerelay/ledgerapi/horizon"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/clients/horizonclient"
	hProtocol "github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Claimable balances waiting for the closing account are not sub-entries:
// they never stop its merge, and a merge does not remove them. A close
// claims the native ones with --claim, when their predicates let the
// account claim them for as long as the close may land. Claiming a credit
// one would need the asset's trustline kept to the end, and the close
// removes every trustline, so those stay; so do the native ones without
// --claim. What stays is not destroyed: it remains on the ledger, claimable
// by its other claimants, and by this key again only if the account is
// created anew.

// MaxClaimableRead bounds how many claimable balances of one claimant are
// read (ten pages of Horizon's largest, 200): a close claims at most 100.
const MaxClaimableRead = 2000

// ClaimableBalances lists, from Horizon's /claimable_balances?claimant=,
// every claimable balance account may claim, paging through all of them up
// to MaxClaimableRead; complete is false when there were more.
func (h *Horizon) ClaimableBalances(ctx context.Context, account string) (recs []hProtocol.ClaimableBalance, complete bool, err error) {
	hc := &horizonclient.Client{HorizonURL: h.url, HTTP: &horizonapi.HorizonDoer{Ctx: ctx, Client: h.http}}
	const pageSize = 200
	cursor := ""
	for len(recs) < MaxClaimableRead {
		page, err := hc.ClaimableBalances(horizonclient.ClaimableBalanceRequest{Claimant: account, Limit: pageSize, Cursor: cursor})
		if err != nil {
			if ctx.Err() != nil {
				return nil, false, ctx.Err()
			}
			return nil, false, fmt.Errorf("wallet: read the claimable balances of %s: %w", account, err)
		}
		got := page.Embedded.Records
		recs = append(recs, got...)
		if len(got) < pageSize {
			return recs, true, nil
		}
		next := got[len(got)-1].PT
		if next == "" || next == cursor {
			return nil, false, errors.New("wallet: the account API's claimable balance pages do not advance")
		}
		cursor = next
	}
	return recs[:MaxClaimableRead], false, nil
}

// Unclaimed is a claimable balance of the account that a close leaves
// where it is, and why.
type Unclaimed struct {
	ID     string
	Asset  string // "native" or CODE:ISSUER, as Horizon lists it
	Amount string
	Native bool
	Why    string
}

// SortClaimable splits the claimable balances recs of account into the
// native ones the account can claim at every close time from now until
// the close's time bound ends (until), which a close may claim, and the
// others, each with why a close does not claim it. A record that does not
// name account as a claimant, or whose amount cannot be read, is an error:
// the account API's answer cannot be used.
func SortClaimable(recs []hProtocol.ClaimableBalance, account string, now, until time.Time) (claim []ClaimableBalance, left []Unclaimed, err error) {
	for _, r := range recs {
		i := slices.IndexFunc(r.Claimants, func(c hProtocol.Claimant) bool { return c.Destination == account })
		if i < 0 {
			return nil, nil, fmt.Errorf("wallet: the account API listed claimable balance %s, which %s cannot claim", r.BalanceID, account)
		}
		value, err := amount.ParseInt64(r.Amount)
		if err != nil || value <= 0 {
			return nil, nil, fmt.Errorf("wallet: claimable balance %s has no valid amount (%q)", r.BalanceID, r.Amount)
		}
		if r.BalanceID == "" {
			return nil, nil, errors.New("wallet: a claimable balance has no id")
		}
		var created time.Time
		if r.LastModifiedTime != nil {
			created = *r.LastModifiedTime
		}
		u := Unclaimed{ID: r.BalanceID, Asset: r.Asset, Amount: amount.StringFromInt64(value), Native: r.Asset == "native"}
		pred := r.Claimants[i].Predicate
		switch {
		case !u.Native:
			u.Why = "claiming it needs a trustline to the asset kept until the merge, and the close removes every trustline; claim it (and send it on) in a transaction of its own before the close if you want it"
		case !ClaimableThroughout(pred, created, now, until):
			if PredicateHolds(pred, created, now) {
				u.Why = "the account's claim on it ends before the close's time bound does (" + until.UTC().Format(time.RFC3339) + "), so claiming it could make the close fail"
			} else {
				u.Why = "the account cannot claim it now"
			}
		default:
			claim = append(claim, ClaimableBalance{ID: r.BalanceID, Amount: value})
			continue
		}
		left = append(left, u)
	}
	return claim, left, nil
}

// PredicateHolds is ledger.PredicateHolds: whether pred lets its
// claimant claim at close time at.
func PredicateHolds(pred xdr.ClaimPredicate, created, at time.Time) bool {
	return ledger.PredicateHolds(pred, created, at)
}

// ClaimableThroughout is ledger.ClaimableThroughout: whether pred holds at
// every close time from from to until.
func ClaimableThroughout(pred xdr.ClaimPredicate, created, from, until time.Time) bool {
	return ledger.ClaimableThroughout(pred, created, from, until)
}
