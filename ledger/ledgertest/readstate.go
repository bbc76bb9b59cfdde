package ledgertest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// ReadState reads accounts ids through the double's Horizon routes, as a
// client reads them (GET /accounts/{id}, every page of its offers), into
// the preflight's and the builder's view of the ledger. An account the
// double does not know is read as absent (nil).
func (h *Handler) ReadState(ids ...string) (ledger.LedgerState, error) {
	s := ledger.LedgerState{Accounts: map[string]*ledger.AccountState{}}
	for _, id := range ids {
		var acc horizon.Account
		switch code, err := h.getJSON("/accounts/"+id, &acc); {
		case err != nil:
			return s, err
		case code == http.StatusNotFound:
			s.Accounts[id] = nil
			continue
		case code != http.StatusOK:
			return s, fmt.Errorf("ledgertest: GET /accounts/%s: %d", id, code)
		}
		var offers []horizon.Offer
		next := "/accounts/" + id + "/offers?limit=2"
		for next != "" {
			var page struct {
				Links struct {
					Next struct{ Href string } `json:"next"`
				} `json:"_links"`
				Embedded struct {
					Records []horizon.Offer `json:"records"`
				} `json:"_embedded"`
			}
			if code, err := h.getJSON(next, &page); err != nil || code != http.StatusOK {
				return s, fmt.Errorf("ledgertest: GET %s: %d %v", next, code, err)
			}
			offers = append(offers, page.Embedded.Records...)
			next = ""
			if len(page.Embedded.Records) > 0 {
				u, err := url.Parse(page.Links.Next.Href)
				if err != nil {
					return s, err
				}
				next = u.RequestURI()
			}
		}
		st, err := StateOf(acc, offers)
		if err != nil {
			return s, err
		}
		s.Accounts[id] = st
	}
	return s, nil
}

func (h *Handler) getJSON(path string, into any) (int, error) {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	if rec.Code != http.StatusOK {
		return rec.Code, nil
	}
	return rec.Code, json.Unmarshal(rec.Body.Bytes(), into)
}

// StateOf maps Horizon's account and its offers to ledger.AccountState.
func StateOf(a horizon.Account, offers []horizon.Offer) (*ledger.AccountState, error) {
	s := &ledger.AccountState{
		ID:             a.AccountID,
		Sequence:       a.Sequence,
		Thresholds:     ledger.Thresholds{Low: a.Thresholds.LowThreshold, Medium: a.Thresholds.MedThreshold, High: a.Thresholds.HighThreshold},
		NumSubEntries:  uint32(a.SubentryCount),
		NumSponsoring:  a.NumSponsoring,
		NumSponsored:   a.NumSponsored,
		OffersComplete: true,
		Data:           map[string][]byte{},
		DataSponsored:  map[string]bool{},
		Flags: ledger.AccountFlags{
			AuthRequired: a.Flags.AuthRequired, AuthRevocable: a.Flags.AuthRevocable,
			AuthImmutable: a.Flags.AuthImmutable, AuthClawbackEnabled: a.Flags.AuthClawbackEnabled,
		},
	}
	for _, sg := range a.Signers {
		s.Signers = append(s.Signers, ledger.AccountSigner{Type: ledger.SignerType(sg.Type), Key: sg.Key, Weight: sg.Weight})
	}
	for k, v := range a.Data {
		raw, err := base64.StdEncoding.DecodeString(v)
		if err != nil {
			return nil, fmt.Errorf("ledgertest: data entry %q: %w", k, err)
		}
		s.Data[k] = raw
	}
	var err error
	stroops := func(v string) int64 {
		if v == "" || err != nil {
			return 0
		}
		var n xdr.Int64
		n, err = amount.Parse(v)
		return int64(n)
	}
	for _, b := range a.Balances {
		if b.Type == "native" {
			s.Balance, s.NativeBuying, s.NativeSelling = stroops(b.Balance), stroops(b.BuyingLiabilities), stroops(b.SellingLiabilities)
			continue
		}
		tl := ledger.Trustline{Balance: stroops(b.Balance), Limit: stroops(b.Limit), Sponsored: b.Sponsor != ""}
		if b.Type == "liquidity_pool_shares" {
			tl.PoolID = b.LiquidityPoolId
		} else {
			tl.Asset = Credit(b.Code, b.Issuer)
			tl.Buying, tl.Selling = stroops(b.BuyingLiabilities), stroops(b.SellingLiabilities)
		}
		if b.IsAuthorized != nil && *b.IsAuthorized {
			tl.Flags |= xdr.TrustLineFlagsAuthorizedFlag
		}
		if b.IsAuthorizedToMaintainLiabilities != nil && *b.IsAuthorizedToMaintainLiabilities {
			tl.Flags |= xdr.TrustLineFlagsAuthorizedToMaintainLiabilitiesFlag
		}
		s.Trustlines = append(s.Trustlines, tl)
	}
	assetOf := func(a horizon.Asset) xdr.Asset {
		if a.Type == "native" {
			return Native()
		}
		return Credit(a.Code, a.Issuer)
	}
	for _, o := range offers {
		s.Offers = append(s.Offers, ledger.Offer{
			ID: o.ID, Selling: assetOf(o.Selling), Buying: assetOf(o.Buying), Amount: stroops(o.Amount),
			Price: xdr.Price{N: xdr.Int32(o.PriceR.N), D: xdr.Int32(o.PriceR.D)}, Sponsored: o.Sponsor != "",
		})
	}
	return s, err
}
