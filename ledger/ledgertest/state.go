package ledgertest

import (
	"encoding/base64"
	"encoding/hex"
	"math"
	"math/big"
	"slices"
	"strconv"

	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/protocols/horizon/base"
	"github.com/stellar/go-stellar-sdk/support/render/hal"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The ledger's constants, as on the public network today.
const (
	// BaseReserve is the base reserve in stroops (0.5 XLM).
	BaseReserve int64 = 5_000_000
	// BaseFee is the minimum fee per operation in stroops.
	BaseFee int64 = 100
	// DefaultBalance is the native balance of an account made by
	// SetAccount, AddAccount or SetAccountDetail (unless its answer lists
	// another): 10,000 XLM.
	DefaultBalance int64 = 10_000 * 10_000_000
	// subEntryLimit is core's ACCOUNT_SUBENTRY_LIMIT (SponsorshipUtils.cpp:
	// tooManyNumSubEntries).
	subEntryLimit = 1000
	// maxSigners is the signer list's XDR bound (SetOptionsOpFrame.cpp:
	// addOrChangeSigner, signers.max_size()).
	maxSigners = 20
)

// Account flags (xdr.AccountFlags) and trustline flags (xdr.TrustLineFlags).
const (
	AuthRequired        = uint32(xdr.AccountFlagsAuthRequiredFlag)
	AuthRevocable       = uint32(xdr.AccountFlagsAuthRevocableFlag)
	AuthImmutable       = uint32(xdr.AccountFlagsAuthImmutableFlag)
	AuthClawbackEnabled = uint32(xdr.AccountFlagsAuthClawbackEnabledFlag)

	TrustAuthorized                = uint32(xdr.TrustLineFlagsAuthorizedFlag)
	TrustAuthorizedToMaintainLiab  = uint32(xdr.TrustLineFlagsAuthorizedToMaintainLiabilitiesFlag)
	TrustClawbackEnabled           = uint32(xdr.TrustLineFlagsTrustlineClawbackEnabledFlag)
	allAccountAuthFlags            = AuthRequired | AuthRevocable | AuthImmutable | AuthClawbackEnabled
	trustAuthorizedOrMaintainFlags = TrustAuthorized | TrustAuthorizedToMaintainLiab
)

// account is one account of the in-memory ledger: core's AccountEntry and
// the sub-entries it owns.
type account struct {
	id           string
	balance      int64
	seq          int64
	masterWeight byte
	low, med     byte
	high         byte
	flags        uint32
	homeDomain   string
	signers      []signer // extra signers, in the order they were added
	masterAt     int      // where the master key stands in Horizon's signer list
	trustlines   []*trustline
	offers       []*offer // by id
	data         map[string]dataEntry
	numSponsor   uint32 // numSponsoring: reserves this account pays for others
	numSponsored uint32 // reserves others pay for this account
	sponsor      string // who pays this account's own reserve, if anyone
	modified     uint32 // last modified ledger
	// seqLedger and seqTime are AccountEntryExtensionV3's: the ledger and
	// close time at which the sequence number last changed (0 before it
	// ever did), read by min_seq_age and min_seq_ledger_gap
	// (TransactionFrame.cpp isTooEarlyForAccount).
	seqLedger uint32
	seqTime   uint64

	// raw, when set, is answered as given at GET /accounts/{id} (a test's
	// hand-made answer); the first change a transaction makes drops it.
	raw *horizon.Account
}

type signer struct {
	key     string // strkey: G…, T…, X… or P…
	typ     string // Horizon's signer type
	weight  int32
	sponsor string
}

type trustline struct {
	asset    xdr.Asset // credit asset; for a pool share, the zero Asset
	pool     *poolShare
	balance  int64
	limit    int64
	flags    uint32
	sponsor  string
	modified uint32
}

type poolShare struct {
	id   xdr.PoolId
	a, b xdr.Asset
}

type offer struct {
	id       int64
	seller   string
	selling  xdr.Asset
	buying   xdr.Asset
	amount   int64
	price    xdr.Price
	sponsor  string
	modified uint32
}

type dataEntry struct {
	value   []byte
	sponsor string
}

// numSubEntries is core's numSubEntries: every signer, trustline (a pool
// share's counts twice: SponsorshipUtils.cpp computeMultiplier), offer and
// data entry.
func (a *account) numSubEntries() int64 {
	n := int64(len(a.signers) + len(a.offers) + len(a.data))
	for _, tl := range a.trustlines {
		n += tl.mult()
	}
	return n
}

func (tl *trustline) mult() int64 {
	if tl.pool != nil {
		return 2
	}
	return 1
}

// minBalance is core's getMinBalance (TransactionUtils.cpp): (2 +
// numSubEntries + numSponsoring - numSponsored) base reserves.
func (a *account) minBalance() int64 {
	return (2 + a.numSubEntries() + int64(a.numSponsor) - int64(a.numSponsored)) * BaseReserve
}

// liabilities are the native buying and selling liabilities of a's offers.
func (a *account) nativeLiabilities() (buying, selling int64) {
	for _, o := range a.offers {
		b, s := o.liabilities()
		if o.buying.Type == xdr.AssetTypeAssetTypeNative {
			buying += b
		}
		if o.selling.Type == xdr.AssetTypeAssetTypeNative {
			selling += s
		}
	}
	return buying, selling
}

// available is core's getAvailableBalance for the native balance
// (TransactionUtils.cpp): balance - minBalance - selling liabilities.
func (a *account) available() int64 {
	_, selling := a.nativeLiabilities()
	return a.balance - a.minBalance() - selling
}

// addNative is core's addBalance for an account (TransactionUtils.cpp): a
// debit may not take the balance below minBalance + selling liabilities, a
// credit may not take it above INT64_MAX - buying liabilities.
func (a *account) addNative(delta int64) bool {
	if delta == 0 {
		return true
	}
	nb, ok := addInt64(a.balance, delta)
	if !ok {
		return false
	}
	buying, selling := a.nativeLiabilities()
	if delta < 0 && nb-a.minBalance() < selling {
		return false
	}
	if nb > math.MaxInt64-buying {
		return false
	}
	a.balance = nb
	return true
}

// liabilities of the trustline for asset (computed from a's offers).
func (a *account) lineLiabilities(asset xdr.Asset) (buying, selling int64) {
	for _, o := range a.offers {
		b, s := o.liabilities()
		if o.buying.Equals(asset) {
			buying += b
		}
		if o.selling.Equals(asset) {
			selling += s
		}
	}
	return buying, selling
}

// addLine is core's addBalance for a trustline (TransactionUtils.cpp
// addBalanceSkipAuthorization): 0 <= balance <= limit, balance >= selling
// liabilities, balance <= limit - buying liabilities.
func (a *account) addLine(tl *trustline, delta int64) bool {
	if delta == 0 {
		return true
	}
	nb, ok := addInt64(tl.balance, delta)
	if !ok || nb < 0 || nb > tl.limit {
		return false
	}
	buying, selling := a.lineLiabilities(tl.asset)
	if nb < selling || nb > tl.limit-buying {
		return false
	}
	tl.balance = nb
	return true
}

func addInt64(a, b int64) (int64, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, false
	}
	return s, true
}

func (a *account) trustline(asset xdr.Asset) *trustline {
	for _, tl := range a.trustlines {
		if tl.pool == nil && tl.asset.Equals(asset) {
			return tl
		}
	}
	return nil
}

func (a *account) poolLine(id xdr.PoolId) *trustline {
	for _, tl := range a.trustlines {
		if tl.pool != nil && tl.pool.id == id {
			return tl
		}
	}
	return nil
}

// poolUseCount is the trustline's liquidityPoolUseCount: how many of a's
// pool-share trustlines use asset (ChangeTrustOpFrame.cpp
// tryIncrementPoolUseCount).
func (a *account) poolUseCount(asset xdr.Asset) int {
	n := 0
	for _, tl := range a.trustlines {
		if tl.pool != nil && (tl.pool.a.Equals(asset) || tl.pool.b.Equals(asset)) {
			n++
		}
	}
	return n
}

func (a *account) offer(id int64) (int, *offer) {
	for i, o := range a.offers {
		if o.id == id {
			return i, o
		}
	}
	return -1, nil
}

// liabilities are an offer's buying and selling liabilities, as core's
// getOfferBuyingLiabilities and getOfferSellingLiabilities compute them
// (OfferExchange.cpp: exchangeV10WithoutPriceErrorThresholds, normal
// rounding, the offer's own amount the only limit): the wheat it would
// receive, floor(amount·n/d), and the sheep it would send for that,
// ceil(wheat·d/n).
func (o *offer) liabilities() (buying, selling int64) {
	n, d := big.NewInt(int64(o.price.N)), big.NewInt(int64(o.price.D))
	if n.Sign() <= 0 || d.Sign() <= 0 {
		return 0, 0
	}
	wheat := new(big.Int).Mul(big.NewInt(o.amount), n)
	wheat.Quo(wheat, d)
	if !wheat.IsInt64() {
		return math.MaxInt64, o.amount
	}
	sheep := new(big.Int).Mul(wheat, d)
	sheep.Add(sheep, new(big.Int).Sub(n, big.NewInt(1)))
	sheep.Quo(sheep, n)
	return wheat.Int64(), min(sheep.Int64(), o.amount)
}

func (a *account) clone() *account {
	c := *a
	c.signers = slices.Clone(a.signers)
	c.trustlines = make([]*trustline, len(a.trustlines))
	for i, tl := range a.trustlines {
		t := *tl
		c.trustlines[i] = &t
	}
	c.offers = make([]*offer, len(a.offers))
	for i, o := range a.offers {
		oc := *o
		c.offers[i] = &oc
	}
	c.data = make(map[string]dataEntry, len(a.data))
	for k, v := range a.data {
		c.data[k] = v
	}
	return &c
}

// horizonAccount is Horizon's JSON for a.
func (a *account) horizonAccount() horizon.Account {
	if a.raw != nil {
		return *a.raw
	}
	acc := horizon.Account{
		ID:                 a.id,
		AccountID:          a.id,
		Sequence:           a.seq,
		SubentryCount:      int32(a.numSubEntries()),
		HomeDomain:         a.homeDomain,
		LastModifiedLedger: max(a.modified, 1),
		Thresholds:         horizon.AccountThresholds{LowThreshold: a.low, MedThreshold: a.med, HighThreshold: a.high},
		Flags: horizon.AccountFlags{
			AuthRequired:        a.flags&AuthRequired != 0,
			AuthRevocable:       a.flags&AuthRevocable != 0,
			AuthImmutable:       a.flags&AuthImmutable != 0,
			AuthClawbackEnabled: a.flags&AuthClawbackEnabled != 0,
		},
		Data:          map[string]string{},
		NumSponsoring: a.numSponsor,
		NumSponsored:  a.numSponsored,
		Sponsor:       a.sponsor,
		PT:            a.id,
	}
	if a.seqLedger != 0 || a.seqTime != 0 {
		acc.SequenceLedger = a.seqLedger
		acc.SequenceTime = strconv.FormatUint(a.seqTime, 10)
	}
	// Horizon lists the credit balances first and the native one last.
	for _, tl := range a.trustlines {
		b := horizon.Balance{
			Balance:            amount.StringFromInt64(tl.balance),
			Limit:              amount.StringFromInt64(tl.limit),
			Sponsor:            tl.sponsor,
			LastModifiedLedger: max(tl.modified, 1),
		}
		if tl.pool != nil {
			b.Asset = base.Asset{Type: "liquidity_pool_shares"}
			b.LiquidityPoolId = hex.EncodeToString(tl.pool.id[:])
		} else {
			buying, selling := a.lineLiabilities(tl.asset)
			b.BuyingLiabilities = amount.StringFromInt64(buying)
			b.SellingLiabilities = amount.StringFromInt64(selling)
			b.Asset = horizonAsset(tl.asset)
			auth := tl.flags&TrustAuthorized != 0
			maintain := tl.flags&TrustAuthorizedToMaintainLiab != 0
			clawback := tl.flags&TrustClawbackEnabled != 0
			b.IsAuthorized, b.IsAuthorizedToMaintainLiabilities, b.IsClawbackEnabled = &auth, &maintain, &clawback
		}
		acc.Balances = append(acc.Balances, b)
	}
	buying, selling := a.nativeLiabilities()
	acc.Balances = append(acc.Balances, horizon.Balance{
		Balance:            amount.StringFromInt64(a.balance),
		BuyingLiabilities:  amount.StringFromInt64(buying),
		SellingLiabilities: amount.StringFromInt64(selling),
		Asset:              base.Asset{Type: "native"},
	})
	// Horizon lists the master key among the signers while its weight is
	// above 0.
	for i, s := range a.signers {
		if i == a.masterAt && a.masterWeight > 0 {
			acc.Signers = append(acc.Signers, horizon.Signer{Weight: int32(a.masterWeight), Key: a.id, Type: "ed25519_public_key"})
		}
		acc.Signers = append(acc.Signers, horizon.Signer{Weight: s.weight, Key: s.key, Type: s.typ, Sponsor: s.sponsor})
	}
	if a.masterAt >= len(a.signers) && a.masterWeight > 0 {
		acc.Signers = append(acc.Signers, horizon.Signer{Weight: int32(a.masterWeight), Key: a.id, Type: "ed25519_public_key"})
	}
	for k, v := range a.data {
		acc.Data[k] = base64.StdEncoding.EncodeToString(v.value)
	}
	setAccountLinks(&acc)
	return acc
}

func setAccountLinks(acc *horizon.Account) {
	self := "/accounts/" + acc.ID
	acc.Links.Self = hal.Link{Href: self}
	acc.Links.Transactions = hal.Link{Href: self + "/transactions{?cursor,limit,order}", Templated: true}
	acc.Links.Operations = hal.Link{Href: self + "/operations{?cursor,limit,order}", Templated: true}
	acc.Links.Payments = hal.Link{Href: self + "/payments{?cursor,limit,order}", Templated: true}
	acc.Links.Effects = hal.Link{Href: self + "/effects{?cursor,limit,order}", Templated: true}
	acc.Links.Offers = hal.Link{Href: self + "/offers{?cursor,limit,order}", Templated: true}
	acc.Links.Trades = hal.Link{Href: self + "/trades{?cursor,limit,order}", Templated: true}
	acc.Links.Data = hal.Link{Href: self + "/data/{key}", Templated: true}
}

// horizonOffer is Horizon's JSON for o.
func (o *offer) horizonOffer() horizon.Offer {
	id := strconv.FormatInt(o.id, 10)
	ho := horizon.Offer{
		ID:                 o.id,
		PT:                 id,
		Seller:             o.seller,
		Selling:            horizon.Asset(horizonAsset(o.selling)),
		Buying:             horizon.Asset(horizonAsset(o.buying)),
		Amount:             amount.StringFromInt64(o.amount),
		PriceR:             horizon.Price{N: int32(o.price.N), D: int32(o.price.D)},
		Price:              o.price.String(),
		LastModifiedLedger: int32(max(o.modified, 1)),
		Sponsor:            o.sponsor,
	}
	ho.Links.Self = hal.Link{Href: "/offers/" + id}
	ho.Links.OfferMaker = hal.Link{Href: "/accounts/" + o.seller}
	return ho
}

func horizonAsset(a xdr.Asset) base.Asset {
	var typ, code, issuer string
	if err := a.Extract(&typ, &code, &issuer); err != nil {
		return base.Asset{Type: "native"}
	}
	return base.Asset{Type: typ, Code: code, Issuer: issuer}
}

// signerType is Horizon's name for a signer key's type.
func signerType(k xdr.SignerKey) string {
	switch k.Type {
	case xdr.SignerKeyTypeSignerKeyTypePreAuthTx:
		return "preauth_tx"
	case xdr.SignerKeyTypeSignerKeyTypeHashX:
		return "sha256_hash"
	case xdr.SignerKeyTypeSignerKeyTypeEd25519SignedPayload:
		return "ed25519_signed_payload"
	}
	return "ed25519_public_key"
}

// fromHorizon models a hand-made answer: what it says of the account's
// signers, thresholds, flags, sequence number, balances, data and
// sponsorship counters, read as far as it can be. It keeps the answer to
// serve as given.
func fromHorizon(h horizon.Account) *account {
	a := &account{
		id:           h.ID,
		balance:      DefaultBalance,
		seq:          h.Sequence,
		low:          h.Thresholds.LowThreshold,
		med:          h.Thresholds.MedThreshold,
		high:         h.Thresholds.HighThreshold,
		homeDomain:   h.HomeDomain,
		data:         map[string]dataEntry{},
		numSponsor:   h.NumSponsoring,
		numSponsored: h.NumSponsored,
		sponsor:      h.Sponsor,
		seqLedger:    h.SequenceLedger,
	}
	a.seqTime, _ = strconv.ParseUint(h.SequenceTime, 10, 64)
	raw := h
	a.raw = &raw
	if h.Flags.AuthRequired {
		a.flags |= AuthRequired
	}
	if h.Flags.AuthRevocable {
		a.flags |= AuthRevocable
	}
	if h.Flags.AuthImmutable {
		a.flags |= AuthImmutable
	}
	if h.Flags.AuthClawbackEnabled {
		a.flags |= AuthClawbackEnabled
	}
	a.masterAt = len(h.Signers)
	for i, s := range h.Signers {
		if s.Key == h.ID {
			a.masterWeight, a.masterAt = clampByte(s.Weight), i
			continue
		}
		a.signers = append(a.signers, signer{key: s.Key, typ: s.Type, weight: s.Weight, sponsor: s.Sponsor})
	}
	for _, b := range h.Balances {
		bal, _ := amount.ParseInt64(b.Balance)
		switch b.Type {
		case "native":
			a.balance = bal
		case "credit_alphanum4", "credit_alphanum12":
			asset, err := xdr.BuildAsset(b.Type, b.Issuer, b.Code)
			if err != nil {
				continue
			}
			limit, _ := amount.ParseInt64(b.Limit)
			tl := &trustline{asset: asset, balance: bal, limit: limit, sponsor: b.Sponsor}
			if b.IsAuthorized != nil && *b.IsAuthorized {
				tl.flags |= TrustAuthorized
			}
			if b.IsAuthorizedToMaintainLiabilities != nil && *b.IsAuthorizedToMaintainLiabilities {
				tl.flags |= TrustAuthorizedToMaintainLiab
			}
			if b.IsClawbackEnabled != nil && *b.IsClawbackEnabled {
				tl.flags |= TrustClawbackEnabled
			}
			a.trustlines = append(a.trustlines, tl)
		}
	}
	for k, v := range h.Data {
		if b, err := base64.StdEncoding.DecodeString(v); err == nil {
			a.data[k] = dataEntry{value: b}
		}
	}
	return a
}
