package horizon

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// claimableBalance is the part of Horizon's claimable balance resource
// (GET /claimable_balances/{id}) the preflight reads, with the field types
// of the SDK's protocols/horizon.ClaimableBalance; the predicates are read
// strictly (predicate).
type claimableBalance struct {
	BalanceID string `json:"id"`
	Asset     string `json:"asset"`
	Amount    string `json:"amount"`
	Sponsor   string `json:"sponsor"`
	Claimants []struct {
		Destination string          `json:"destination"`
		Predicate   json.RawMessage `json:"predicate"`
	} `json:"claimants"`
	Flags struct {
		ClawbackEnabled bool `json:"clawback_enabled"`
	} `json:"flags"`
	LastModifiedLedger uint32 `json:"last_modified_ledger"`
}

// entry is the ClaimableBalanceEntry cb shows, as Stellar RPC would give
// it, so that both backends feed the preflight one shape
// (ledger.ClaimableFromEntry checks what the ledger can hold). It is an
// error unless cb is the balance id asked for, its asset and amount
// parse, and each claimant's predicate is one a ledger entry stores.
func (cb claimableBalance) entry(id string) (xdr.LedgerEntry, error) {
	var bid xdr.ClaimableBalanceId
	if !strings.EqualFold(cb.BalanceID, id) || xdr.SafeUnmarshalHex(id, &bid) != nil {
		return xdr.LedgerEntry{}, errors.New("not the balance asked for")
	}
	asset, err := parseAsset(cb.Asset)
	if err != nil {
		return xdr.LedgerEntry{}, err
	}
	amt, err := parseAmount(cb.Amount)
	if err != nil {
		return xdr.LedgerEntry{}, err
	}
	e := xdr.ClaimableBalanceEntry{BalanceId: bid, Asset: asset, Amount: xdr.Int64(amt)}
	for _, c := range cb.Claimants {
		dest, err := xdr.AddressToAccountId(c.Destination)
		if err != nil {
			return xdr.LedgerEntry{}, err
		}
		pred, err := predicate(c.Predicate, 1)
		if err != nil {
			return xdr.LedgerEntry{}, err
		}
		e.Claimants = append(e.Claimants, xdr.Claimant{Type: xdr.ClaimantTypeClaimantTypeV0, V0: &xdr.ClaimantV0{Destination: dest, Predicate: pred}})
	}
	if cb.Flags.ClawbackEnabled {
		e.Ext = xdr.ClaimableBalanceEntryExt{V: 1, V1: &xdr.ClaimableBalanceEntryExtensionV1{Flags: xdr.Uint32(xdr.ClaimableBalanceFlagsClaimableBalanceClawbackEnabledFlag)}}
	}
	le := xdr.LedgerEntry{
		LastModifiedLedgerSeq: xdr.Uint32(cb.LastModifiedLedger),
		Data:                  xdr.LedgerEntryData{Type: xdr.LedgerEntryTypeClaimableBalance, ClaimableBalance: &e},
	}
	if cb.Sponsor != "" {
		s, err := xdr.AddressToAccountId(cb.Sponsor)
		if err != nil {
			return xdr.LedgerEntry{}, err
		}
		sid := xdr.SponsorshipDescriptor(&s)
		le.Ext = xdr.LedgerEntryExt{V: 1, V1: &xdr.LedgerEntryExtensionV1{SponsoringId: sid}}
	}
	if _, err := ledger.ClaimableFromEntry(le); err != nil {
		return xdr.LedgerEntry{}, err
	}
	return le, nil
}

// parseAsset reads an asset as Horizon's claimable balances spell it:
// "native" or "CODE:ISSUER".
func parseAsset(s string) (xdr.Asset, error) {
	if s == "native" {
		return xdr.MustNewNativeAsset(), nil
	}
	code, issuer, ok := strings.Cut(s, ":")
	if !ok {
		return xdr.Asset{}, errors.New("not an asset")
	}
	return xdr.NewCreditAsset(code, issuer)
}

// predicate reads Horizon's JSON of a stored claim predicate at depth
// (1 for a claimant's own): exactly one of unconditional (true), and or
// or (two parts), not (one), or abs_before_epoch (Unix seconds, as a
// string; abs_before, its RFC 3339 spelling, beside it is not read). A
// rel_before is not one a ledger entry holds (core makes it absolute), and
// an object that names none, or more than one, of these is not a
// predicate: the SDK's reading of {} as unconditional is not followed.
func predicate(raw json.RawMessage, depth int) (xdr.ClaimPredicate, error) {
	bad := errors.New("not a stored claim predicate")
	if depth > 4 {
		return xdr.ClaimPredicate{}, bad
	}
	var m map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&m); err != nil {
		return xdr.ClaimPredicate{}, bad
	}
	if _, ok := m["abs_before_epoch"]; ok {
		delete(m, "abs_before")
	}
	if len(m) != 1 {
		return xdr.ClaimPredicate{}, bad
	}
	for k, v := range m {
		switch k {
		case "unconditional":
			var b bool
			if json.Unmarshal(v, &b) != nil || !b {
				return xdr.ClaimPredicate{}, bad
			}
			return xdr.ClaimPredicate{Type: xdr.ClaimPredicateTypeClaimPredicateUnconditional}, nil
		case "and", "or":
			var parts []json.RawMessage
			if json.Unmarshal(v, &parts) != nil || len(parts) != 2 {
				return xdr.ClaimPredicate{}, bad
			}
			ps := make([]xdr.ClaimPredicate, 2)
			for i, part := range parts {
				p, err := predicate(part, depth+1)
				if err != nil {
					return xdr.ClaimPredicate{}, err
				}
				ps[i] = p
			}
			if k == "and" {
				return xdr.ClaimPredicate{Type: xdr.ClaimPredicateTypeClaimPredicateAnd, AndPredicates: &ps}, nil
			}
			return xdr.ClaimPredicate{Type: xdr.ClaimPredicateTypeClaimPredicateOr, OrPredicates: &ps}, nil
		case "not":
			p, err := predicate(v, depth+1)
			if err != nil {
				return xdr.ClaimPredicate{}, err
			}
			pp := &p
			return xdr.ClaimPredicate{Type: xdr.ClaimPredicateTypeClaimPredicateNot, NotPredicate: &pp}, nil
		case "abs_before_epoch":
			var s string
			if json.Unmarshal(v, &s) != nil {
				return xdr.ClaimPredicate{}, bad
			}
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n < 0 {
				return xdr.ClaimPredicate{}, bad
			}
			t := xdr.Int64(n)
			return xdr.ClaimPredicate{Type: xdr.ClaimPredicateTypeClaimPredicateBeforeAbsoluteTime, AbsBefore: &t}, nil
		}
	}
	return xdr.ClaimPredicate{}, bad
}
