package ledgertest_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/clients/horizonclient"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The double's claimable balances against ClaimClaimableBalanceOpFrame.cpp.

var claimNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func before(t time.Time) xdr.ClaimPredicate {
	return txnbuild.BeforeAbsoluteTimePredicate(t.Unix())
}

func TestApplyClaimClaimableBalance(t *testing.T) {
	var id string
	claim := func(w *world) []txnbuild.Operation {
		return []txnbuild.Operation{&txnbuild.ClaimClaimableBalance{BalanceID: id}}
	}
	// give sets the clock and adds a balance of amount of asset for src
	// (under pred) and other (unconditional), created by issuer.
	give := func(asset func(w *world) xdr.Asset, amount int64, pred func() xdr.ClaimPredicate) func(w *world) {
		return func(w *world) {
			w.h.SetClock(func() time.Time { return claimNow })
			id = w.h.AddClaimableBalance(ledgertest.ClaimableBalance{
				Asset: asset(w), Amount: amount, Sponsor: w.issuer.Address,
				Claimants: []ledgertest.Claimant{{Destination: w.src.Address, Predicate: pred()}, {Destination: w.other.Address, Predicate: txnbuild.UnconditionalPredicate}},
			})
			if id == "" {
				panic("no claimable balance")
			}
		}
	}
	native := func(*world) xdr.Asset { return ledgertest.Native() }
	usd := func(w *world) xdr.Asset { return w.usd }
	always := func() xdr.ClaimPredicate { return txnbuild.UnconditionalPredicate }
	claimed := func(want int64) func(t *testing.T, w *world) {
		return func(t *testing.T, w *world) {
			wantNative(t, w, w.src.Address, ledgertest.DefaultBalance-100+want)
			if w.h.ClaimableBalanceExists(id) {
				t.Error("the balance is still on the ledger after its claim")
			}
			// The sponsor gets its two reserves (one per claimant) back.
			if n := w.state(t, w.issuer.Address).NumSponsoring; n != 0 {
				t.Errorf("the sponsor's num_sponsoring = %d, want 0", n)
			}
		}
	}
	unclaimed := func(t *testing.T, w *world) {
		if !w.h.ClaimableBalanceExists(id) {
			t.Error("a failed claim removed the balance")
		}
		if n := w.state(t, w.issuer.Address).NumSponsoring; n != 2 {
			t.Errorf("the sponsor's num_sponsoring = %d, want 2", n)
		}
	}
	runRules(t, []ruleCase{
		{name: "native, unconditional", setup: give(native, 7*xlm, always), ops: claim, check: claimed(7 * xlm)},
		{name: "native, before a time to come", setup: give(native, 7*xlm, func() xdr.ClaimPredicate { return before(claimNow.Add(time.Second)) }), ops: claim, check: claimed(7 * xlm)},
		{name: "native, not before a time gone", setup: give(native, 7*xlm, func() xdr.ClaimPredicate {
			return txnbuild.NotPredicate(before(claimNow))
		}), ops: claim, check: claimed(7 * xlm)},
		{name: "native, within a relative time (stored as absolute)", setup: give(native, 7*xlm, func() xdr.ClaimPredicate {
			return txnbuild.BeforeRelativeTimePredicate(60)
		}), ops: claim, check: claimed(7 * xlm)},
		{name: "op_cannot_claim: the time has passed (abs_before is exclusive)", setup: give(native, 7*xlm, func() xdr.ClaimPredicate { return before(claimNow) }), ops: claim,
			tx: "tx_failed", opc: []string{"op_cannot_claim"}, check: unclaimed},
		{name: "op_cannot_claim: and of a future and a past time", setup: give(native, 7*xlm, func() xdr.ClaimPredicate {
			return txnbuild.AndPredicate(before(claimNow.Add(time.Hour)), before(claimNow.Add(-time.Hour)))
		}), ops: claim, tx: "tx_failed", opc: []string{"op_cannot_claim"}, check: unclaimed},
		{name: "or of a future and a past time", setup: give(native, 7*xlm, func() xdr.ClaimPredicate {
			return txnbuild.OrPredicate(before(claimNow.Add(time.Hour)), before(claimNow.Add(-time.Hour)))
		}), ops: claim, check: claimed(7 * xlm)},
		{name: "op_cannot_claim: not a claimant", setup: func(w *world) {
			w.h.SetClock(func() time.Time { return claimNow })
			id = w.h.AddClaimableBalance(ledgertest.ClaimableBalance{Asset: ledgertest.Native(), Amount: xlm, Claimants: []ledgertest.Claimant{{Destination: w.other.Address, Predicate: txnbuild.UnconditionalPredicate}}})
		}, ops: claim, tx: "tx_failed", opc: []string{"op_cannot_claim"}},
		{name: "op_does_not_exist", setup: give(native, xlm, always), ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ClaimClaimableBalance{BalanceID: "00000000" + "00000000000000000000000000000000000000000000000000000000000000aa"}}
		}, tx: "tx_failed", opc: []string{"op_does_not_exist"}},
		{name: "op_does_not_exist: claimed twice", setup: give(native, xlm, always), ops: func(w *world) []txnbuild.Operation {
			return append(claim(w), claim(w)...)
		}, tx: "tx_failed", opc: []string{"op_success", "op_does_not_exist"}, check: unclaimed},
		{name: "credit into a trustline", setup: func(w *world) {
			give(usd, 3*xlm, always)(w)
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd, Balance: xlm})
		}, ops: claim, check: func(t *testing.T, w *world) {
			if b, _ := creditOf(w.state(t, w.src.Address), "USD"); b.Balance != "4.0000000" {
				t.Errorf("USD balance %s, want 4", b.Balance)
			}
		}},
		{name: "op_no_trust", setup: give(usd, 3*xlm, always), ops: claim, tx: "tx_failed", opc: []string{"op_no_trust"}, check: unclaimed},
		{name: "op_not_authorized", setup: func(w *world) {
			give(usd, 3*xlm, always)(w)
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd, Unauthorized: true})
		}, ops: claim, tx: "tx_failed", opc: []string{"op_not_authorized"}, check: unclaimed},
		{name: "op_line_full", setup: func(w *world) {
			give(usd, 3*xlm, always)(w)
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd, Balance: xlm, Limit: 2 * xlm})
		}, ops: claim, tx: "tx_failed", opc: []string{"op_line_full"}, check: unclaimed},
	})
}

// TestClaimableBalancesListing: GET /claimable_balances?claimant= lists
// the balances a claimant may claim, with their predicates as stored (a
// relative one made absolute at creation, as core stores it), paged by
// paging token.
func TestClaimableBalancesListing(t *testing.T) {
	w := newWorld(t)
	w.h.SetClock(func() time.Time { return claimNow })
	var ids []string
	for i := range 5 {
		ids = append(ids, w.h.AddClaimableBalance(ledgertest.ClaimableBalance{
			Asset: ledgertest.Native(), Amount: int64(i+1) * xlm,
			Claimants: []ledgertest.Claimant{{Destination: w.src.Address, Predicate: txnbuild.BeforeRelativeTimePredicate(3600)}},
		}))
	}
	w.h.AddClaimableBalance(ledgertest.ClaimableBalance{Asset: ledgertest.Native(), Amount: xlm, Claimants: []ledgertest.Claimant{{Destination: w.other.Address, Predicate: txnbuild.UnconditionalPredicate}}})
	seen := map[string]bool{}
	cursor := ""
	for range 10 {
		page, err := w.hc.ClaimableBalances(horizonclient.ClaimableBalanceRequest{Claimant: w.src.Address, Limit: 2, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		recs := page.Embedded.Records
		if len(recs) == 0 {
			break
		}
		for _, r := range recs {
			if seen[r.BalanceID] {
				t.Fatalf("%s listed twice", r.BalanceID)
			}
			seen[r.BalanceID] = true
			p := r.Claimants[0].Predicate
			if r.Asset != "native" || len(r.Claimants) != 1 || p.Type != xdr.ClaimPredicateTypeClaimPredicateBeforeAbsoluteTime || int64(*p.AbsBefore) != claimNow.Unix()+3600 {
				t.Errorf("record %+v: want native, one claimant, abs_before %d", r, claimNow.Unix()+3600)
			}
			if r.LastModifiedTime == nil || !r.LastModifiedTime.Equal(claimNow) {
				t.Errorf("last_modified_time %v, want %v", r.LastModifiedTime, claimNow)
			}
		}
		cursor = recs[len(recs)-1].PT
	}
	for _, id := range ids {
		if !seen[id] {
			t.Errorf("%s not listed", id)
		}
	}
	if len(seen) != len(ids) {
		t.Errorf("%d listed, want %d", len(seen), len(ids))
	}
	rec := httptest.NewRecorder()
	w.h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/claimable_balances?claimant="+w.src.Address+"&limit=201", nil))
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "limit") {
		t.Errorf("limit 201: %d %s", rec.Code, rec.Body)
	}
}
