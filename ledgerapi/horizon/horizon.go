// Package horizon is the ledgerapi Backend that speaks Horizon's REST API
// (GET /accounts/{id}, POST /transactions) with net/http.
//
// It decodes Horizon's JSON into structs of its own rather than using the
// SDK's horizonclient: that client, and the SDK's protocols/horizon types,
// link testify, logrus's test hook and net/http/httptest into whatever
// imports them, and the server binary must carry none of those. The
// structs hold only the fields the relay reads, with the SDK's field types,
// so an answer the SDK would refuse is refused here too.
package horizon

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Backend is one network's Horizon. It bounds nothing itself: the
// ledgerapi.Client that calls it brings the timeout and the slots.
type Backend struct {
	base string       // the base URL, without a trailing slash
	http *http.Client // its connection pool is the network's calls'
}

var _ ledgerapi.Backend = (*Backend)(nil)

// New returns the Backend of the Horizon at baseURL (for example
// https://horizon-testnet.stellar.org), whose requests go through rt
// (http.DefaultTransport when nil) with every answer capped (CapBody). A
// URL that is not http(s) is an error.
func New(baseURL string, rt http.RoundTripper) (*Backend, error) {
	if u, err := url.Parse(baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("not an http(s) URL")
	}
	return &Backend{
		base: strings.TrimRight(baseURL, "/"),
		http: &http.Client{Transport: CapBody(rt)},
	}, nil
}

// Backends is a Backend per network of urls, all through rt (nil for
// http.DefaultTransport). A network whose URL is unusable gets a
// ledgerapi.Unusable saying so, not an error: its calls fail as an
// unreachable upstream's would, and the other networks keep working.
func Backends(urls map[ledger.Network]string, rt http.RoundTripper) map[ledger.Network]ledgerapi.Backend {
	out := make(map[ledger.Network]ledgerapi.Backend, len(urls))
	for n, raw := range urls {
		b, err := New(raw, rt)
		if err != nil {
			out[n] = ledgerapi.Unusable{Reason: fmt.Sprintf("the account API URL for network %s is not an http(s) URL", n)}
			continue
		}
		out[n] = b
	}
	return out
}

// account is the part of Horizon's account resource the relay reads, with
// the field types of the SDK's protocols/horizon.Account.
type account struct {
	AccountID      string `json:"account_id"`
	Sequence       int64  `json:"sequence,string"`
	SequenceLedger uint32 `json:"sequence_ledger"`
	SequenceTime   string `json:"sequence_time"`
	// The counts are the ledger's uint32s; they are decoded wider so
	// that a negative one is told apart (the answer then contradicts
	// itself) rather than failing the account's read.
	SubentryCount int64 `json:"subentry_count"`
	Thresholds    struct {
		Low  byte `json:"low_threshold"`
		Med  byte `json:"med_threshold"`
		High byte `json:"high_threshold"`
	} `json:"thresholds"`
	Flags struct {
		AuthRequired        bool `json:"auth_required"`
		AuthRevocable       bool `json:"auth_revocable"`
		AuthImmutable       bool `json:"auth_immutable"`
		AuthClawbackEnabled bool `json:"auth_clawback_enabled"`
	} `json:"flags"`
	Signers []struct {
		Weight int32  `json:"weight"`
		Key    string `json:"key"`
		Type   string `json:"type"`
	} `json:"signers"`
	NumSponsoring int64 `json:"num_sponsoring"`
	NumSponsored  int64 `json:"num_sponsored"`
	// What the preflight reads (CONTRACT section 14).
	Balances []balance         `json:"balances"`
	Data     map[string]string `json:"data"`
}

// balance is one of the account's balances: native, a credit asset's
// trustline or a pool share's.
type balance struct {
	Balance                           string `json:"balance"`
	Limit                             string `json:"limit"`
	BuyingLiabilities                 string `json:"buying_liabilities"`
	SellingLiabilities                string `json:"selling_liabilities"`
	AssetType                         string `json:"asset_type"`
	AssetCode                         string `json:"asset_code"`
	AssetIssuer                       string `json:"asset_issuer"`
	LiquidityPoolID                   string `json:"liquidity_pool_id"`
	IsAuthorized                      *bool  `json:"is_authorized"`
	IsAuthorizedToMaintainLiabilities *bool  `json:"is_authorized_to_maintain_liabilities"`
	Sponsor                           string `json:"sponsor"`
}

// Account implements ledgerapi.Backend with GET /accounts/{id}. account
// must be a valid G… address (ledgerapi.Client checks), which keeps it from
// shaping the path.
func (b *Backend) Account(ctx context.Context, id string) (ledger.AccountState, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.base+"/accounts/"+id, nil)
	if err != nil {
		return ledger.AccountState{}, ledgerapi.Unreachable("the account API could not be reached", nil)
	}
	var acc account
	status, _, err := b.do(req, &acc)
	if err != nil {
		return ledger.AccountState{}, classify(ctx, err, status)
	}
	st := ledger.AccountState{
		ID:            acc.AccountID,
		Sequence:      acc.Sequence,
		SeqLedger:     acc.SequenceLedger,
		Thresholds:    ledger.Thresholds{Low: acc.Thresholds.Low, Medium: acc.Thresholds.Med, High: acc.Thresholds.High},
		NumSubEntries: count(acc.SubentryCount),
		NumSponsoring: count(acc.NumSponsoring),
		NumSponsored:  count(acc.NumSponsored),
		Flags: ledger.AccountFlags{
			AuthRequired: acc.Flags.AuthRequired, AuthRevocable: acc.Flags.AuthRevocable,
			AuthImmutable: acc.Flags.AuthImmutable, AuthClawbackEnabled: acc.Flags.AuthClawbackEnabled,
		},
	}
	for _, s := range acc.Signers {
		st.Signers = append(st.Signers, ledger.AccountSigner{Type: ledger.SignerType(s.Type), Key: s.Key, Weight: s.Weight})
	}
	// Guard 6 needs the signers only: counts, balances or data that
	// cannot be the ledger's leave the preflight without them, never the
	// publish without its account.
	if err := holdings(&st, acc); err != nil {
		st.Incomplete = err.Error()
	}
	return st, nil
}

// count is a count the ledger keeps as a uint32; 0 for one no ledger holds
// (holdings marks the state incomplete for it).
func count(n int64) uint32 {
	if n < 0 || n > math.MaxUint32 {
		return 0
	}
	return uint32(n)
}

// counts checks the account's counts and the time of its sequence
// number's last change, as the ledger keeps them: a negative count, or
// one past a uint32, is not a real account's.
func counts(st *ledger.AccountState, acc account) error {
	for _, c := range []struct {
		name string
		n    int64
	}{{"subentry_count", acc.SubentryCount}, {"num_sponsoring", acc.NumSponsoring}, {"num_sponsored", acc.NumSponsored}} {
		if c.n < 0 || c.n > math.MaxUint32 {
			return fmt.Errorf("the account API's %s %d is not a count the ledger keeps", c.name, c.n)
		}
	}
	if acc.SequenceTime != "" {
		t, err := strconv.ParseUint(acc.SequenceTime, 10, 64)
		if err != nil {
			return fmt.Errorf("the account API's sequence_time is not a time")
		}
		st.SeqTime = t
	}
	return nil
}

// holdings checks the account's counts (counts) and reads its balances
// and data entries into st. An account always holds a native balance:
// an answer listing none is not one the preflight can use.
func holdings(st *ledger.AccountState, acc account) error {
	if err := counts(st, acc); err != nil {
		return err
	}
	var bad error
	native := false
	amount := func(what, v string) int64 {
		if v == "" || bad != nil {
			return 0
		}
		n, err := parseAmount(v)
		if err != nil {
			bad = fmt.Errorf("the account API's %s %q is not an amount", what, v)
		}
		return n
	}
	for _, b := range acc.Balances {
		switch b.AssetType {
		case "native":
			native = true
			st.Balance = amount("balance", b.Balance)
			st.NativeBuying = amount("liabilities", b.BuyingLiabilities)
			st.NativeSelling = amount("liabilities", b.SellingLiabilities)
			continue
		case "liquidity_pool_shares":
			st.Trustlines = append(st.Trustlines, ledger.Trustline{
				PoolID: b.LiquidityPoolID, Balance: amount("balance", b.Balance), Limit: amount("limit", b.Limit),
				Flags: trustFlags(b), Sponsored: b.Sponsor != "",
			})
			continue
		}
		asset, err := xdr.BuildAsset(b.AssetType, b.AssetIssuer, b.AssetCode)
		if err != nil {
			return fmt.Errorf("the account API listed a balance of an asset that is not valid")
		}
		st.Trustlines = append(st.Trustlines, ledger.Trustline{
			Asset: asset, Balance: amount("balance", b.Balance), Limit: amount("limit", b.Limit),
			Buying: amount("liabilities", b.BuyingLiabilities), Selling: amount("liabilities", b.SellingLiabilities),
			Flags: trustFlags(b), Sponsored: b.Sponsor != "",
		})
	}
	if bad != nil {
		return bad
	}
	if !native {
		return errors.New("the account API listed no native balance")
	}
	// Horizon lists a pool share by its pool's id and not which of the
	// account's trustlines it uses; the ids say (ledger.PoolUseFromShares).
	ledger.PoolUseFromShares(st)
	st.Data = make(map[string][]byte, len(acc.Data))
	for name, v := range acc.Data {
		raw, err := base64.StdEncoding.DecodeString(v)
		if err != nil {
			return fmt.Errorf("the account API's data entry is not base64")
		}
		st.Data[name] = raw
	}
	return nil
}

func trustFlags(b balance) xdr.TrustLineFlags {
	var f xdr.TrustLineFlags
	if b.IsAuthorized != nil && *b.IsAuthorized {
		f |= xdr.TrustLineFlagsAuthorizedFlag
	}
	if b.IsAuthorizedToMaintainLiabilities != nil && *b.IsAuthorizedToMaintainLiabilities {
		f |= xdr.TrustLineFlagsAuthorizedToMaintainLiabilitiesFlag
	}
	return f
}

// parseAmount reads Horizon's amount, seven decimals, into stroops.
func parseAmount(v string) (int64, error) {
	n, err := amount.Parse(v)
	if err != nil || n < 0 {
		return 0, errors.New("not an amount")
	}
	return int64(n), nil
}

// offersPage is one page of GET /accounts/{id}/offers.
type offersPage struct {
	Embedded struct {
		Records []struct {
			ID      int64  `json:"id,string"`
			PT      string `json:"paging_token"`
			Seller  string `json:"seller"`
			Selling asset  `json:"selling"`
			Buying  asset  `json:"buying"`
			Amount  string `json:"amount"`
			PriceR  struct {
				N int32 `json:"n"`
				D int32 `json:"d"`
			} `json:"price_r"`
			Sponsor string `json:"sponsor"`
		} `json:"records"`
	} `json:"_embedded"`
}

type asset struct {
	Type   string `json:"asset_type"`
	Code   string `json:"asset_code"`
	Issuer string `json:"asset_issuer"`
}

func (a asset) xdr() (xdr.Asset, error) {
	if a.Type == "native" {
		return xdr.MustNewNativeAsset(), nil
	}
	return xdr.BuildAsset(a.Type, a.Issuer, a.Code)
}

// offersPerPage is Horizon's largest page.
const offersPerPage = 200

// Offers implements ledgerapi.Backend: GET /accounts/{id}/offers, page
// after page in ascending order, until a short page or max offers. A
// listing that repeats itself (an offer listed twice, or a page whose
// last paging token does not move the cursor on) is not an answer: an
// account API that pages in a loop would otherwise fill the read with
// copies of one offer, and a blocker's reason with its id.
func (b *Backend) Offers(ctx context.Context, id string, max int) ([]ledger.Offer, bool, error) {
	var out []ledger.Offer
	seen := map[int64]bool{}
	cursor := ""
	for len(out) < max {
		q := url.Values{"limit": {strconv.Itoa(offersPerPage)}, "order": {"asc"}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.base+"/accounts/"+id+"/offers?"+q.Encode(), nil)
		if err != nil {
			return nil, false, ledgerapi.Unreachable("the account API could not be reached", nil)
		}
		var page offersPage
		status, _, err := b.do(req, &page)
		if err != nil {
			return nil, false, classify(ctx, err, status)
		}
		recs := page.Embedded.Records
		for _, r := range recs {
			if r.Seller != id {
				return nil, false, ledgerapi.Unreachable("the account API listed an offer of another account", nil)
			}
			if seen[r.ID] {
				return nil, false, ledgerapi.Unreachable("the account API listed an offer twice", nil)
			}
			seen[r.ID] = true
			selling, err1 := r.Selling.xdr()
			buying, err2 := r.Buying.xdr()
			amt, err3 := parseAmount(r.Amount)
			if err1 != nil || err2 != nil || err3 != nil {
				return nil, false, ledgerapi.Unreachable("the account API's offer does not parse", nil)
			}
			out = append(out, ledger.Offer{
				ID: r.ID, Selling: selling, Buying: buying, Amount: amt,
				Price: xdr.Price{N: xdr.Int32(r.PriceR.N), D: xdr.Int32(r.PriceR.D)}, Sponsored: r.Sponsor != "",
			})
		}
		if len(recs) < offersPerPage {
			return out, true, nil
		}
		next := recs[len(recs)-1].PT
		if next == "" || next == cursor {
			return nil, false, ledgerapi.Unreachable("the account API's offers listing does not move on", nil)
		}
		cursor = next
	}
	return out, false, nil
}

// root is the part of Horizon's root resource (GET /) the relay reads,
// with the field types of the SDK's protocols/horizon.Root.
type root struct {
	HistoryLatestLedger         int32     `json:"history_latest_ledger"`
	HistoryLatestLedgerClosedAt time.Time `json:"history_latest_ledger_closed_at"`
}

// Latest implements ledgerapi.Backend with GET /: the latest ledger
// Horizon has ingested into its history, and when it closed. An answer
// without either is an error.
func (b *Backend) Latest(ctx context.Context) (ledger.LatestLedger, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.base+"/", nil)
	if err != nil {
		return ledger.LatestLedger{}, ledgerapi.Unreachable("the account API could not be reached", nil)
	}
	var r root
	status, _, err := b.do(req, &r)
	if err != nil {
		return ledger.LatestLedger{}, classify(ctx, err, status)
	}
	if r.HistoryLatestLedger <= 0 || r.HistoryLatestLedgerClosedAt.IsZero() {
		return ledger.LatestLedger{}, ledgerapi.Unreachable("the account API's root names no latest ledger", nil)
	}
	return ledger.LatestLedger{Sequence: uint32(r.HistoryLatestLedger), CloseTime: r.HistoryLatestLedgerClosedAt}, nil
}

// ErrNoEntries: Horizon has no read of ledger entries by key; each kind of
// entry is its own resource. Entries reads the one kind the preflight
// reads by key through Horizon too, claimable balances; any other key is
// this error.
var ErrNoEntries = errors.New("horizon: no read of ledger entries by key")

// Entries implements ledgerapi.Backend for claimable balance keys: GET
// /claimable_balances/{id} for each (id the balance id's XDR in hex), a
// 404 being a balance the ledger does not hold, each answer read into the
// ClaimableBalanceEntry it shows (claimableEntry). A key of another kind
// is ErrNoEntries.
func (b *Backend) Entries(ctx context.Context, keys []xdr.LedgerKey) ([]xdr.LedgerEntry, error) {
	var out []xdr.LedgerEntry
	for _, k := range keys {
		if k.Type != xdr.LedgerEntryTypeClaimableBalance || k.ClaimableBalance == nil {
			return nil, ledgerapi.Unreachable("the account API reads no ledger entries by key but claimable balances", ErrNoEntries)
		}
		id, ok := ledger.ClaimableID(k.ClaimableBalance.BalanceId)
		if !ok {
			return nil, ledgerapi.Unreachable("a claimable balance id is not one the ledger gives", nil)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.base+"/claimable_balances/"+id, nil)
		if err != nil {
			return nil, ledgerapi.Unreachable("the account API could not be reached", nil)
		}
		var cb claimableBalance
		status, _, err := b.do(req, &cb)
		if status == http.StatusNotFound {
			continue
		}
		if err != nil {
			return nil, classify(ctx, err, status)
		}
		e, err := cb.entry(id)
		if err != nil {
			return nil, ledgerapi.Unreachable("the account API's claimable balance "+id+" is not one the ledger can hold", nil)
		}
		out = append(out, e)
	}
	return out, nil
}

// do sends req and decodes a 2xx answer's JSON into v. It returns the
// answer's status (0 when there was none) and headers and, for a non-2xx,
// an error that is a *problem when the body is Horizon's problem JSON.
func (b *Backend) do(req *http.Request, v any) (int, http.Header, error) {
	resp, err := b.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	dec := json.NewDecoder(resp.Body)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		p := &problem{}
		if err := dec.Decode(&p.body); err != nil {
			return resp.StatusCode, resp.Header, fmt.Errorf("error decoding the problem: %w", err)
		}
		return resp.StatusCode, resp.Header, p
	}
	if err := dec.Decode(v); err != nil {
		return resp.StatusCode, resp.Header, fmt.Errorf("error decoding the answer: %w", err)
	}
	return resp.StatusCode, resp.Header, nil
}

// classify turns a failed account read into an ErrAccountUnreachable whose
// text is built from what we know (the context, the status, the kind of
// failure), never from the upstream's answer.
func classify(ctx context.Context, err error, status int) error {
	switch {
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded), ledgerapi.IsTimeout(err):
		return ledgerapi.Unreachable("the account API did not answer in time", context.DeadlineExceeded)
	case ctx.Err() != nil:
		return ledgerapi.Unreachable("the request was cancelled before the account API answered", ctx.Err())
	case status == http.StatusNotFound:
		return ledgerapi.Unreachable("the account API does not know the account", ledgerapi.ErrNoAccount)
	case status != 0 && (status < 200 || status > 299):
		return ledgerapi.Unreachable(fmt.Sprintf("the account API answered status %d", status), nil)
	case errors.Is(err, errBodyTooLarge):
		return ledgerapi.Unreachable(fmt.Sprintf("the account API's answer is larger than %d bytes", maxBody), nil)
	case status != 0:
		return ledgerapi.Unreachable("the account API's answer does not parse", nil)
	}
	return ledgerapi.Unreachable("the account API could not be reached", nil)
}
