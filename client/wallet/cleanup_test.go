package wallet_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	hProtocol "github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The clean-up is checked against the ledger double, which applies each
// operation with stellar-core's rules: a close it builds must land there,
// and the preflight must say so before it is submitted.

const stroopsPerXLM = 10_000_000

type cleanupWorld struct {
	h                            *ledgertest.Handler
	master                       *keypair.Full
	account, dest, issuer, maker string
	usd, eur, gbp                xdr.Asset
}

// cleanupNow is the double's clock in these tests: the close time of every
// ledger it closes.
var cleanupNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func newCleanupWorld(t *testing.T) *cleanupWorld {
	t.Helper()
	w := &cleanupWorld{h: ledgertest.NewHandler(), master: keypair.MustRandom(), dest: keypair.MustRandom().Address(), issuer: keypair.MustRandom().Address(), maker: keypair.MustRandom().Address()}
	w.h.SetClock(func() time.Time { return cleanupNow })
	w.account = w.master.Address()
	w.usd = ledgertest.Credit("USD", w.issuer)
	w.eur = ledgertest.Credit("EURC", w.issuer)
	w.gbp = ledgertest.Credit("GBPTOKEN", w.issuer)
	w.h.Fund(w.account, 100*stroopsPerXLM)
	w.h.Fund(w.dest, 5*stroopsPerXLM)
	w.h.Fund(w.issuer, 5*stroopsPerXLM)
	w.h.Fund(w.maker, 1000*stroopsPerXLM)
	return w
}

// market makes the maker offer 100 XLM for each of assets at 0.5 of the
// asset per XLM (an amount core's adjustOffer keeps as it is).
func (w *cleanupWorld) market(assets ...xdr.Asset) {
	for _, a := range assets {
		w.h.AddTrustline(w.maker, ledgertest.Trustline{Asset: a})
		w.h.AddOffer(w.maker, ledgertest.Offer{Selling: ledgertest.Native(), Buying: a, Amount: 100 * stroopsPerXLM, Price: xdr.Price{N: 1, D: 2}})
	}
}

// claimable gives the account a claimable balance of amount of asset
// under pred, sponsored by the issuer, and returns its id.
func (w *cleanupWorld) claimable(t *testing.T, asset xdr.Asset, amount int64, pred xdr.ClaimPredicate) string {
	t.Helper()
	id := w.h.AddClaimableBalance(ledgertest.ClaimableBalance{Asset: asset, Amount: amount, Sponsor: w.issuer,
		Claimants: []ledgertest.Claimant{{Destination: w.account, Predicate: pred}, {Destination: w.issuer, Predicate: txnbuild.UnconditionalPredicate}}})
	if id == "" {
		t.Fatal("the double refused the claimable balance")
	}
	return id
}

// horizon reads the double as the command line does.
func (w *cleanupWorld) horizon() *wallet.Horizon {
	return wallet.NewHorizon("http://double.invalid", &http.Client{Transport: w.h.Transport()})
}

// withClaims fills p.Claimable from the double's listing, for a close
// valid for an hour from the double's clock.
func (w *cleanupWorld) withClaims(t *testing.T, p *wallet.CleanUpParams) []wallet.Unclaimed {
	t.Helper()
	recs, complete, err := w.horizon().ClaimableBalances(context.Background(), w.account)
	if err != nil || !complete {
		t.Fatalf("claimable balances: %v (complete %v)", err, complete)
	}
	claim, left, err := wallet.SortClaimable(recs, w.account, cleanupNow, cleanupNow.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	p.Claimable, p.Claim = claim, true
	return left
}

// withQuotes fills p.Sell from the double's paths, at the default slippage.
func (w *cleanupWorld) withQuotes(t *testing.T, p *wallet.CleanUpParams) {
	t.Helper()
	q, err := w.horizon().SellQuotes(context.Background(), p.State.Accounts[w.account].Trustlines, wallet.DefaultSlippage)
	if err != nil {
		t.Fatal(err)
	}
	p.Assets, p.Sell = wallet.AssetsSell, q
}

func (w *cleanupWorld) params(t *testing.T) wallet.CleanUpParams {
	t.Helper()
	s, err := w.h.ReadState(w.account, w.dest, w.issuer)
	if err != nil {
		t.Fatal(err)
	}
	return wallet.CleanUpParams{Account: w.account, Destination: w.dest, State: s, Reserved: 1}
}

// land builds the whole close from the clean-up, checks the preflight says
// landable, submits it and checks the account is gone.
func (w *cleanupWorld) land(t *testing.T, p wallet.CleanUpParams) {
	t.Helper()
	prelude, err := wallet.CleanUp(p)
	if err != nil {
		t.Fatalf("clean-up refused: %v", err)
	}
	acc := p.State.Accounts[w.account]
	txs, err := wallet.BuildClose(wallet.CloseParams{Account: w.account, Sequence: acc.Sequence, Destination: w.dest, Prelude: prelude, Timeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if len(txs) != 1 {
		t.Fatalf("%d transactions, want one", len(txs))
	}
	tx, err := txs[0].Sign(network.TestNetworkPassphrase, w.master)
	if err != nil {
		t.Fatal(err)
	}
	env := tx.ToXDR()
	// The preflight reads neither claimable balances nor the order book:
	// a close that claims or sells is uncertain to it, any other landable.
	want := ledger.PreflightLandable
	for _, op := range env.Operations() {
		if op.Body.Type == xdr.OperationTypeClaimClaimableBalance || op.Body.Type == xdr.OperationTypePathPaymentStrictSend {
			want = ledger.PreflightUncertain
		}
	}
	if got := ledger.CheckClose(env, p.State); got.State != want {
		t.Fatalf("preflight %s %+v, want %s", got.State, got.Blockers, want)
	}
	b64, err := tx.Base64()
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/transactions", strings.NewReader(url.Values{"tx": {b64}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w.h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		var pb struct {
			Extras struct {
				ResultCodes json.RawMessage `json:"result_codes"`
			} `json:"extras"`
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &pb)
		t.Fatalf("the double refused the close: %d %s", rec.Code, pb.Extras.ResultCodes)
	}
	if _, ok := w.h.Balance(w.account); ok {
		t.Fatal("the account still exists after its close")
	}
	for _, c := range p.Claimable {
		if p.Claim && w.h.ClaimableBalanceExists(c.ID) {
			t.Errorf("claimable balance %s was not claimed", c.ID)
		}
	}
}

func TestCleanUpLandsAnAccountWithEverything(t *testing.T) {
	for _, how := range []wallet.AssetDisposal{wallet.AssetsSend, wallet.AssetsReturn, wallet.AssetsSell} {
		for _, claim := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s claim=%v", how, claim), func(t *testing.T) {
				w := newCleanupWorld(t)
				w.market(w.usd)
				w.h.AddTrustline(w.account, ledgertest.Trustline{Asset: w.usd, Balance: 50 * stroopsPerXLM})
				w.h.AddTrustline(w.account, ledgertest.Trustline{Asset: w.eur})
				w.h.AddTrustline(w.dest, ledgertest.Trustline{Asset: w.usd})
				w.h.AddOffer(w.account, ledgertest.Offer{Selling: w.usd, Buying: ledgertest.Native(), Amount: 10 * stroopsPerXLM, Price: xdr.Price{N: 3, D: 2}})
				w.h.AddOffer(w.account, ledgertest.Offer{Selling: ledgertest.Native(), Buying: w.eur, Amount: 2 * stroopsPerXLM, Price: xdr.Price{N: 1, D: 4}})
				w.h.SetData(w.account, "note", []byte("x"), "")
				w.h.SetData(w.account, "config.memo_required", []byte("1"), "")
				w.claimable(t, ledgertest.Native(), 2*stroopsPerXLM, txnbuild.UnconditionalPredicate)
				w.claimable(t, w.eur, 2*stroopsPerXLM, txnbuild.UnconditionalPredicate)
				p := w.params(t)
				p.Assets = how
				if how == wallet.AssetsSell {
					w.withQuotes(t, &p)
				}
				if claim {
					w.withClaims(t, &p)
				}
				w.land(t, p)
			})
		}
	}
}

// TestCleanUpClaimsCountTowardTheLimit: each claim is an operation of the
// close: 97 data entries, 2 claims and the merge fit; one more entry does
// not, and the refusal counts the claims.
func TestCleanUpClaimsCountTowardTheLimit(t *testing.T) {
	for _, entries := range []int{97, 98} {
		w := newCleanupWorld(t)
		for i := range entries {
			w.h.SetData(w.account, fmt.Sprintf("entry-%03d", i), []byte("x"), "")
		}
		w.claimable(t, ledgertest.Native(), stroopsPerXLM, txnbuild.UnconditionalPredicate)
		w.claimable(t, ledgertest.Native(), stroopsPerXLM, txnbuild.UnconditionalPredicate)
		p := w.params(t)
		w.withClaims(t, &p)
		if entries == 97 {
			w.land(t, p)
			continue
		}
		_, err := wallet.CleanUp(p)
		var r *wallet.Refusal
		if !errors.As(err, &r) || !strings.Contains(r.Reason, "needs 101 operations") {
			t.Errorf("98 entries and 2 claims: %v, want a refusal of 101 operations", err)
		}
	}
}

func TestCleanUpSellsAndClaims(t *testing.T) {
	w := newCleanupWorld(t)
	w.market(w.usd, w.eur)
	w.h.AddTrustline(w.account, ledgertest.Trustline{Asset: w.usd, Balance: 50 * stroopsPerXLM})
	w.h.AddTrustline(w.account, ledgertest.Trustline{Asset: w.eur, Balance: 3})
	w.h.AddTrustline(w.account, ledgertest.Trustline{Asset: w.gbp})
	w.h.AddOffer(w.account, ledgertest.Offer{Selling: w.usd, Buying: ledgertest.Native(), Amount: 10 * stroopsPerXLM, Price: xdr.Price{N: 3, D: 2}})
	w.h.SetData(w.account, "note", []byte("x"), "")
	now := txnbuild.UnconditionalPredicate
	a := w.claimable(t, ledgertest.Native(), 3*stroopsPerXLM, now)
	b := w.claimable(t, ledgertest.Native(), 2*stroopsPerXLM, txnbuild.BeforeRelativeTimePredicate(2*3600)) // until after the close's bound
	usd := w.claimable(t, w.usd, 5*stroopsPerXLM, now)
	gone := w.claimable(t, ledgertest.Native(), stroopsPerXLM, txnbuild.BeforeAbsoluteTimePredicate(cleanupNow.Unix()))
	ending := w.claimable(t, ledgertest.Native(), stroopsPerXLM, txnbuild.BeforeRelativeTimePredicate(1800)) // ends within the hour
	p := w.params(t)
	w.withQuotes(t, &p)
	left := w.withClaims(t, &p)
	var ids []string
	for _, c := range p.Claimable {
		ids = append(ids, c.ID)
	}
	if len(ids) != 2 || !slices.Contains(ids, a) || !slices.Contains(ids, b) {
		t.Fatalf("to claim %+v, want %s and %s", p.Claimable, a, b)
	}
	why := map[string]string{}
	for _, u := range left {
		why[u.ID] = u.Why
	}
	for id, want := range map[string]string{usd: "trustline", gone: "cannot claim it now", ending: "ends before"} {
		if !strings.Contains(why[id], want) {
			t.Errorf("%s left %q, want a reason with %q", id, why[id], want)
		}
	}
	// 50 USD fetch 100 XLM and 3 stroops of EURC 6 stroops, at 0.5 per
	// XLM; the minimum is 1 % less.
	if q := p.Sell[w.usd.StringCanonical()]; q.Min != 99*stroopsPerXLM {
		t.Errorf("USD sells for at least %d, want %d", q.Min, 99*stroopsPerXLM)
	}
	// The quote before the slippage, and the book's best bid it is
	// checked against: 2 XLM per USD.
	if q := p.Sell[w.usd.StringCanonical()]; q.Quote != 100*stroopsPerXLM || q.Bid == nil || *q.Bid != (xdr.Price{N: 2, D: 1}) {
		t.Errorf("USD quoted %d against the bid %v, want 100 XLM against 2/1", q.Quote, q.Bid)
	}
	prelude, err := wallet.CleanUp(p)
	if err != nil {
		t.Fatal(err)
	}
	w.land(t, p)
	fee := int64(100 * (len(prelude) + 1))
	want := 5*stroopsPerXLM + 100*stroopsPerXLM - fee + 5*stroopsPerXLM + 100*stroopsPerXLM + 6
	if got, _ := w.h.Balance(w.dest); got != want {
		t.Errorf("the destination holds %d, want %d", got, want)
	}
	for _, id := range []string{usd, gone, ending} {
		if !w.h.ClaimableBalanceExists(id) {
			t.Errorf("%s was claimed, yet the close leaves it", id)
		}
	}
}

// TestClaimPredicates: which balances a close claims: those whose
// predicate holds from now to the end of the close's time bound.
func TestClaimPredicates(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	until := now.Add(time.Hour)
	created := now.Add(-time.Minute)
	abs := func(d time.Duration) xdr.ClaimPredicate {
		return txnbuild.BeforeAbsoluteTimePredicate(now.Add(d).Unix())
	}
	for _, tc := range []struct {
		name              string
		pred              xdr.ClaimPredicate
		holds, throughout bool
	}{
		{"unconditional", txnbuild.UnconditionalPredicate, true, true},
		{"before a time after the bound", abs(2 * time.Hour), true, true},
		{"before the bound's last second", abs(time.Hour), true, false},
		{"before a time within the bound", abs(time.Minute), true, false},
		{"before now (exclusive)", abs(0), false, false},
		{"not before a time gone", txnbuild.NotPredicate(abs(-time.Second)), true, true},
		{"not before a time to come", txnbuild.NotPredicate(abs(time.Minute)), false, false},
		{"after now, so from the next second", txnbuild.NotPredicate(abs(time.Second)), false, false},
		{"and: a window around the bound", txnbuild.AndPredicate(txnbuild.NotPredicate(abs(-time.Second)), abs(3*time.Hour)), true, true},
		{"and: a window closing within it", txnbuild.AndPredicate(txnbuild.NotPredicate(abs(-time.Second)), abs(time.Minute)), true, false},
		{"or: one side gone, the other holds", txnbuild.OrPredicate(abs(-time.Hour), abs(2*time.Hour)), true, true},
		{"or: one ends within, the other starts within", txnbuild.OrPredicate(abs(time.Minute), txnbuild.NotPredicate(abs(2*time.Minute))), true, false},
		{"or: one ends within, the other started already", txnbuild.OrPredicate(abs(time.Minute), txnbuild.NotPredicate(abs(0))), true, true},
		{"relative, from the creation", txnbuild.BeforeRelativeTimePredicate(2 * 3600), true, true},
		{"relative, already over", txnbuild.BeforeRelativeTimePredicate(60), false, false},
	} {
		if got := wallet.PredicateHolds(tc.pred, created, now); got != tc.holds {
			t.Errorf("%s: holds now = %v, want %v", tc.name, got, tc.holds)
		}
		if got := wallet.ClaimableThroughout(tc.pred, created, now, until); got != tc.throughout {
			t.Errorf("%s: holds throughout = %v, want %v", tc.name, got, tc.throughout)
		}
	}
}

func TestCleanUpRefusals(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(w *cleanupWorld)
		edit  func(p *wallet.CleanUpParams)
		want  string
	}{
		{"immutable", func(w *cleanupWorld) { w.h.SetFlags(w.account, uint32(xdr.AccountFlagsAuthImmutableFlag)) }, nil, "AUTH_IMMUTABLE"},
		{"sponsor", func(w *cleanupWorld) { w.h.SetSponsorship(w.account, 3, 0) }, nil, "pays the reserve of 3 entries"},
		{"pool shares", func(w *cleanupWorld) {
			w.h.AddTrustline(w.account, ledgertest.Trustline{Asset: w.usd})
			w.h.AddTrustline(w.account, ledgertest.Trustline{Pool: &ledgertest.Pool{A: ledgertest.Native(), B: w.usd}})
		}, nil, "withdraw from the pool"},
		{"destination without the trustline", func(w *cleanupWorld) {
			w.h.AddTrustline(w.account, ledgertest.Trustline{Asset: w.usd, Balance: 1})
		}, nil, "--assets return"},
		{"not authorized to send", func(w *cleanupWorld) {
			w.h.AddTrustline(w.account, ledgertest.Trustline{Asset: w.usd, Balance: 1, Unauthorized: true})
		}, func(p *wallet.CleanUpParams) { p.Assets = wallet.AssetsReturn }, "has not authorized"},
		{"no path to sell", func(w *cleanupWorld) {
			w.h.AddTrustline(w.account, ledgertest.Trustline{Asset: w.usd, Balance: 1})
		}, func(p *wallet.CleanUpParams) { p.Assets = wallet.AssetsSell }, "no path sells"},
		{"the account's own offer on the sale's path", func(w *cleanupWorld) {
			w.h.AddTrustline(w.account, ledgertest.Trustline{Asset: w.usd, Balance: 1})
			w.h.AddOffer(w.account, ledgertest.Offer{Selling: ledgertest.Native(), Buying: w.usd, Amount: 3 * stroopsPerXLM, Price: xdr.Price{N: 1, D: 3}})
		}, func(p *wallet.CleanUpParams) {
			p.Assets = wallet.AssetsSell
			p.Sell = map[string]wallet.SellQuote{p.State.Accounts[p.Account].Trustlines[0].Asset.StringCanonical(): {Min: 2}}
		}, "own offer"},
		{"memo required", func(w *cleanupWorld) { w.h.SetData(w.dest, "config.memo_required", []byte("1"), "") }, nil, "requires a memo (SEP-29), and this close carries none"},
		{"memo required, a memo without force", func(w *cleanupWorld) { w.h.SetData(w.dest, "config.memo_required", []byte("1"), "") },
			func(p *wallet.CleanUpParams) { p.HasMemo = true }, "exchanges credit inconsistently even with a memo"},
		{"memo required, force without a memo", func(w *cleanupWorld) { w.h.SetData(w.dest, "config.memo_required", []byte("1"), "") },
			func(p *wallet.CleanUpParams) { p.Force = true }, "give --memo and --force"},
		{"too many operations", func(w *cleanupWorld) {
			for i := range 100 {
				w.h.SetData(w.account, fmt.Sprintf("entry-%03d", i), []byte("x"), "")
			}
		}, nil, "more than a transaction's 100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newCleanupWorld(t)
			tc.setup(w)
			p := w.params(t)
			if tc.edit != nil {
				tc.edit(&p)
			}
			_, err := wallet.CleanUp(p)
			var r *wallet.Refusal
			if !errors.As(err, &r) || !strings.Contains(r.Reason, tc.want) {
				t.Fatalf("got %v, want a refusal naming %q", err, tc.want)
			}
		})
	}
}

// TestCleanUpRandomAccountsLand: accounts with any mix of trustlines with
// and without balances, offers selling and buying, data entries and
// claimable balances (native and not, claimable now or not), disposed of by
// sending, returning or selling, with and without --claim, that fit in
// one transaction, close on the double. The only refusals are those that
// must be: a destination without the trustline for send, the account's
// own offer on a sale's path for sell.
func TestCleanUpRandomAccountsLand(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 17))
	landed := map[wallet.AssetDisposal]int{}
	claimed := 0
	for n := range 300 {
		w := newCleanupWorld(t)
		assets := []xdr.Asset{w.usd, w.eur, w.gbp}
		w.market(assets...)
		held := map[int]bool{}
		for i, a := range assets {
			if rng.IntN(2) == 0 {
				continue
			}
			held[i] = true
			w.h.AddTrustline(w.account, ledgertest.Trustline{Asset: a, Balance: []int64{0, 1, 7 * stroopsPerXLM}[rng.IntN(3)]})
			if rng.IntN(2) == 0 {
				w.h.AddTrustline(w.dest, ledgertest.Trustline{Asset: a})
			}
		}
		for range rng.IntN(4) {
			i := rng.IntN(len(assets))
			if !held[i] {
				continue
			}
			if rng.IntN(2) == 0 {
				w.h.AddOffer(w.account, ledgertest.Offer{Selling: ledgertest.Native(), Buying: assets[i], Amount: 3 * stroopsPerXLM, Price: xdr.Price{N: 1, D: 3}})
			} else if bal, _ := w.h.ReadState(w.account); bal.Accounts[w.account] != nil {
				w.h.AddOffer(w.account, ledgertest.Offer{Selling: assets[i], Buying: ledgertest.Native(), Amount: 0 + 1, Price: xdr.Price{N: 5, D: 1}})
			}
		}
		for i := range rng.IntN(4) {
			w.h.SetData(w.account, fmt.Sprintf("d%d", i), []byte("v"), "")
		}
		for range rng.IntN(4) {
			asset, pred := ledgertest.Native(), txnbuild.UnconditionalPredicate
			switch rng.IntN(4) {
			case 0:
				asset = assets[rng.IntN(len(assets))]
			case 1:
				pred = txnbuild.BeforeAbsoluteTimePredicate(cleanupNow.Unix()) // gone
			case 2:
				pred = txnbuild.NotPredicate(txnbuild.BeforeRelativeTimePredicate(60)) // not yet
			}
			w.claimable(t, asset, int64(1+rng.IntN(3))*stroopsPerXLM, pred)
		}
		p := w.params(t)
		switch rng.IntN(3) {
		case 0:
			p.Assets = wallet.AssetsReturn
		case 1:
			p.Assets = wallet.AssetsSend
		default:
			w.withQuotes(t, &p)
		}
		if rng.IntN(2) == 0 {
			w.withClaims(t, &p)
		}
		_, err := wallet.CleanUp(p)
		var r *wallet.Refusal
		if errors.As(err, &r) {
			if p.Assets == wallet.AssetsSend && strings.Contains(r.Reason, "--assets return") {
				continue // a destination without the trustline: refused, as it must be
			}
			if p.Assets == wallet.AssetsSell && strings.Contains(r.Reason, "own offer") {
				continue // the quote may count an offer the close cancels
			}
			t.Fatalf("case %d: refused: %v", n, r)
		}
		t.Run(fmt.Sprint(n), func(t *testing.T) { w.land(t, p) })
		landed[p.Assets]++
		if p.Claim {
			claimed += len(p.Claimable)
		}
	}
	// Every way out was taken, and balances were claimed.
	t.Logf("landed %v, claimed %d", landed, claimed)
	if landed[wallet.AssetsSend] == 0 || landed[wallet.AssetsReturn] == 0 || landed[wallet.AssetsSell] == 0 || claimed == 0 {
		t.Errorf("landed %v, claimed %d: a way out never ran", landed, claimed)
	}
}

// TestSortClaimableBadAnswers: a listing that names a balance the account
// cannot claim, or an amount that cannot be read, cannot be used.
func TestSortClaimableBadAnswers(t *testing.T) {
	account := keypair.MustRandom().Address()
	ok := hProtocol.ClaimableBalance{BalanceID: "00000000aa", Asset: "native", Amount: "1.0000000",
		Claimants: []hProtocol.Claimant{{Destination: account, Predicate: txnbuild.UnconditionalPredicate}}}
	stranger, garbled := ok, ok
	stranger.Claimants = []hProtocol.Claimant{{Destination: keypair.MustRandom().Address(), Predicate: txnbuild.UnconditionalPredicate}}
	garbled.Amount = "lots"
	for name, rec := range map[string]hProtocol.ClaimableBalance{"another claimant": stranger, "a garbled amount": garbled} {
		if _, _, err := wallet.SortClaimable([]hProtocol.ClaimableBalance{ok, rec}, account, cleanupNow, cleanupNow.Add(time.Hour)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	claim, left, err := wallet.SortClaimable([]hProtocol.ClaimableBalance{ok}, account, cleanupNow, cleanupNow.Add(time.Hour))
	if err != nil || len(claim) != 1 || claim[0].Amount != stroopsPerXLM || len(left) != 0 {
		t.Errorf("a good record: %v %+v %+v", err, claim, left)
	}
}
