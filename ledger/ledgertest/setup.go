package ledgertest

import (
	"slices"

	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The test-setup API: what an account holds beyond its signers. Every
// setter reports false, and does nothing, when the double does not know the
// account (or, for AddTrustline and AddOffer, when the entry cannot be
// made as asked). Amounts are in stroops. The setters model the ledger as
// given: they do not check reserves, so a test can set up an account below
// its minimum balance, as an account can end up after a fee.

// Credit is the credit asset code:issuer (4 or 12 characters), for the
// setup API; it panics on an invalid code or issuer.
func Credit(code, issuer string) xdr.Asset {
	typ := "credit_alphanum4"
	if len(code) > 4 {
		typ = "credit_alphanum12"
	}
	a, err := xdr.BuildAsset(typ, issuer, code)
	if err != nil {
		panic("ledgertest: asset " + code + ":" + issuer + ": " + err.Error())
	}
	return a
}

// Native is the native asset, XLM.
func Native() xdr.Asset { return xdr.MustNewNativeAsset() }

// Trustline is a trustline for AddTrustline: to Asset, or, when Pool is set,
// to the shares of the constant-product pool of Pool's assets (which then
// counts as two sub-entries).
type Trustline struct {
	Asset   xdr.Asset
	Pool    *Pool
	Balance int64
	Limit   int64 // 0 is the largest limit, math.MaxInt64
	// Flags are the trustline's flags (TrustAuthorized...); 0 is
	// TrustAuthorized unless Unauthorized is set.
	Flags        uint32
	Unauthorized bool
	Sponsor      string // the account paying its reserve; "" is the owner
}

// Pool names a constant-product liquidity pool: its two assets, in either
// order, at the usual fee (30 basis points).
type Pool struct{ A, B xdr.Asset }

// ID is the pool's id, as core computes it.
func (p Pool) ID() xdr.PoolId {
	a, b := p.A, p.B
	if !a.LessThan(b) {
		a, b = b, a
	}
	id, err := xdr.NewPoolId(a, b, xdr.LiquidityPoolFeeV18)
	if err != nil {
		panic("ledgertest: pool id: " + err.Error())
	}
	return id
}

// Offer is an offer for AddOffer: Amount of Selling for Buying at Price
// (units of Buying per unit of Selling).
type Offer struct {
	ID      int64 // 0: the double numbers it
	Selling xdr.Asset
	Buying  xdr.Asset
	Amount  int64
	Price   xdr.Price
	Sponsor string
}

// Fund makes the double know account id with a native balance of stroops:
// a new account is made as create_account makes one (master weight 1,
// thresholds 0, no sub-entries) at sequence number 1<<32; a known one just
// gets the balance.
func (h *Handler) Fund(id string, stroops int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if a := h.accounts[id]; a != nil {
		a.balance = stroops
		a.raw = nil
		return
	}
	h.accounts[id] = &account{id: id, balance: stroops, seq: 1 << 32, masterWeight: 1, data: map[string]dataEntry{}}
}

// SetBalance sets account id's native balance.
func (h *Handler) SetBalance(id string, stroops int64) bool {
	return h.change(id, func(a *account) bool { a.balance = stroops; return true })
}

// Balance is account id's native balance, if the double knows id.
func (h *Handler) Balance(id string) (int64, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if a := h.accounts[id]; a != nil {
		return a.balance, true
	}
	return 0, false
}

// SetFlags sets account id's flags (AuthRequired, ...), replacing them.
func (h *Handler) SetFlags(id string, flags uint32) bool {
	return h.change(id, func(a *account) bool { a.flags = flags; return true })
}

// SetSequenceChange sets when account id's sequence number last changed:
// the ledger and the close time (Unix seconds) that min_seq_ledger_gap and
// min_seq_age count from (sequence_ledger and sequence_time,
// AccountEntryExtensionV3's seqLedger and seqTime).
func (h *Handler) SetSequenceChange(id string, ledgerSeq uint32, closeTime uint64) bool {
	return h.change(id, func(a *account) bool {
		a.seqLedger, a.seqTime = ledgerSeq, closeTime
		return true
	})
}

// SetSponsorship sets account id's sponsorship counters, as given: the
// reserves it pays for entries of other accounts (num_sponsoring) and the
// reserves others pay for its own (num_sponsored). Entries added later with
// a Sponsor add to them.
func (h *Handler) SetSponsorship(id string, numSponsoring, numSponsored uint32) bool {
	return h.change(id, func(a *account) bool {
		a.numSponsor, a.numSponsored = numSponsoring, numSponsored
		return true
	})
}

// AddTrustline gives account id the trustline tl, replacing one to the same
// asset or pool.
func (h *Handler) AddTrustline(id string, tl Trustline) bool {
	if tl.Pool == nil && tl.Asset.Type == xdr.AssetTypeAssetTypeNative {
		return false
	}
	return h.change(id, func(a *account) bool {
		line := &trustline{asset: tl.Asset, balance: tl.Balance, limit: tl.Limit, flags: tl.Flags, sponsor: tl.Sponsor, modified: uint32(h.lastLedger)}
		if line.limit == 0 {
			line.limit = 1<<63 - 1
		}
		if line.flags == 0 && !tl.Unauthorized {
			line.flags = TrustAuthorized
		}
		if tl.Unauthorized {
			line.flags = 0
		}
		if tl.Pool != nil {
			p := tl.Pool
			a1, b1 := p.A, p.B
			if !a1.LessThan(b1) {
				a1, b1 = b1, a1
			}
			line.asset = xdr.Asset{}
			line.pool = &poolShare{id: p.ID(), a: a1, b: b1}
		}
		for i, old := range a.trustlines {
			if (line.pool == nil && old.pool == nil && old.asset.Equals(line.asset)) ||
				(line.pool != nil && old.pool != nil && old.pool.id == line.pool.id) {
				h.unsponsor(a, old.sponsor, old.mult())
				a.trustlines = slices.Delete(a.trustlines, i, i+1)
				break
			}
		}
		a.trustlines = append(a.trustlines, line)
		h.sponsorEntry(a, tl.Sponsor, line.mult())
		return true
	})
}

// AddOffer gives account id the offer o and returns its id (0 when the
// double does not know id, or o's id is taken).
func (h *Handler) AddOffer(id string, o Offer) int64 {
	var offerID int64
	h.change(id, func(a *account) bool {
		if o.ID == 0 {
			h.lastOffer++
			o.ID = h.lastOffer
		}
		h.lastOffer = max(h.lastOffer, o.ID)
		if h.offerTaken(o.ID) {
			return false
		}
		a.offers = append(a.offers, &offer{
			id: o.ID, seller: id, selling: o.Selling, buying: o.Buying,
			amount: o.Amount, price: o.Price, sponsor: o.Sponsor, modified: uint32(h.lastLedger),
		})
		slices.SortFunc(a.offers, func(x, y *offer) int { return cmpInt64(x.id, y.id) })
		h.sponsorEntry(a, o.Sponsor, 1)
		offerID = o.ID
		return true
	})
	return offerID
}

// SetData sets account id's data entry name to value; a nil value removes
// it. sponsor is the account paying its reserve ("" is the owner).
func (h *Handler) SetData(id, name string, value []byte, sponsor string) bool {
	return h.change(id, func(a *account) bool {
		if old, ok := a.data[name]; ok {
			h.unsponsor(a, old.sponsor, 1)
			delete(a.data, name)
		}
		if value != nil {
			a.data[name] = dataEntry{value: value, sponsor: sponsor}
			h.sponsorEntry(a, sponsor, 1)
		}
		return true
	})
}

// AccountState is Horizon's JSON for account id as the double holds it now
// (a hand-made answer of SetAccountDetail as given).
func (h *Handler) AccountState(id string) (horizon.Account, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if a := h.accounts[id]; a != nil {
		return a.horizonAccount(), true
	}
	return horizon.Account{}, false
}

// change runs f on account id under the lock; f's result is the setter's.
func (h *Handler) change(id string, f func(*account) bool) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	a := h.accounts[id]
	if a == nil {
		return false
	}
	if !f(a) {
		return false
	}
	a.raw = nil
	return true
}

// sponsorEntry counts mult reserves of an entry of a paid by sponsor.
func (h *Handler) sponsorEntry(a *account, sponsor string, mult int64) {
	if sponsor == "" || sponsor == a.id {
		return
	}
	a.numSponsored += uint32(mult)
	if s := h.accounts[sponsor]; s != nil {
		s.numSponsor += uint32(mult)
	}
}

// unsponsor undoes sponsorEntry.
func (h *Handler) unsponsor(a *account, sponsor string, mult int64) {
	if sponsor == "" || sponsor == a.id {
		return
	}
	a.numSponsored -= min(a.numSponsored, uint32(mult))
	if s := h.accounts[sponsor]; s != nil {
		s.numSponsor -= min(s.numSponsor, uint32(mult))
	}
}

func (h *Handler) offerTaken(id int64) bool {
	for _, a := range h.accounts {
		if _, o := a.offer(id); o != nil {
			return true
		}
	}
	return false
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Server mirrors of the setup API.

// Fund is Handler.Fund.
func (s *Server) Fund(id string, stroops int64) { s.h.Fund(id, stroops) }

// SetBalance is Handler.SetBalance.
func (s *Server) SetBalance(id string, stroops int64) bool { return s.h.SetBalance(id, stroops) }

// Balance is Handler.Balance.
func (s *Server) Balance(id string) (int64, bool) { return s.h.Balance(id) }

// SetFlags is Handler.SetFlags.
func (s *Server) SetFlags(id string, flags uint32) bool { return s.h.SetFlags(id, flags) }

// SetSequenceChange is Handler.SetSequenceChange.
func (s *Server) SetSequenceChange(id string, ledgerSeq uint32, closeTime uint64) bool {
	return s.h.SetSequenceChange(id, ledgerSeq, closeTime)
}

// SetSponsorship is Handler.SetSponsorship.
func (s *Server) SetSponsorship(id string, numSponsoring, numSponsored uint32) bool {
	return s.h.SetSponsorship(id, numSponsoring, numSponsored)
}

// AddTrustline is Handler.AddTrustline.
func (s *Server) AddTrustline(id string, tl Trustline) bool { return s.h.AddTrustline(id, tl) }

// AddOffer is Handler.AddOffer.
func (s *Server) AddOffer(id string, o Offer) int64 { return s.h.AddOffer(id, o) }

// SetData is Handler.SetData.
func (s *Server) SetData(id, name string, value []byte, sponsor string) bool {
	return s.h.SetData(id, name, value, sponsor)
}

// AccountState is Handler.AccountState.
func (s *Server) AccountState(id string) (horizon.Account, bool) { return s.h.AccountState(id) }
