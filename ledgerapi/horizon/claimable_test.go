package horizon_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/ledgerapi"
	horizonapi "github.com/closerelay/closerelay/ledgerapi/horizon"
	"github.com/closerelay/closerelay/ledgerapi/rpc"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

func claimKey(t *testing.T, id string) xdr.LedgerKey {
	t.Helper()
	var bid xdr.ClaimableBalanceId
	if err := xdr.SafeUnmarshalHex(id, &bid); err != nil {
		t.Fatal(err)
	}
	return xdr.LedgerKey{Type: xdr.LedgerEntryTypeClaimableBalance, ClaimableBalance: &xdr.LedgerKeyClaimableBalance{BalanceId: bid}}
}

// TestClaimableBalanceByID: Entries reads a claimable balance key as
// Horizon's GET /claimable_balances/{id}, into the entry Stellar RPC's
// getLedgerEntries gives for the same key over the same ledger; a balance
// the ledger does not hold has no entry; a key of another kind is
// ErrNoEntries.
func TestClaimableBalanceByID(t *testing.T) {
	h := ledgertest.NewHandler()
	who, sponsor := ledgertest.Keypair(1).Address(), ledgertest.Keypair(2).Address()
	h.Fund(sponsor, 100_0000000)
	id := h.AddClaimableBalance(ledgertest.ClaimableBalance{Asset: ledgertest.Credit("USD", sponsor), Amount: 7_0000000, Sponsor: sponsor,
		Claimants: []ledgertest.Claimant{
			{Destination: who, Predicate: txnbuild.AndPredicate(txnbuild.NotPredicate(txnbuild.BeforeAbsoluteTimePredicate(10)), txnbuild.BeforeRelativeTimePredicate(3600))},
			{Destination: sponsor, Predicate: txnbuild.UnconditionalPredicate},
		}})
	gone := h.AddClaimableBalance(ledgertest.ClaimableBalance{Asset: ledgertest.Native(), Amount: 1, Claimants: []ledgertest.Claimant{{Destination: who, Predicate: txnbuild.UnconditionalPredicate}}})
	missing := strings.Replace(gone, gone[len(gone)-4:], "0000", 1)
	hb, err := horizonapi.New("http://horizon.invalid/", h.Transport())
	if err != nil {
		t.Fatal(err)
	}
	rb, err := rpc.New("http://rpc.invalid/rpc", h.Transport())
	if err != nil {
		t.Fatal(err)
	}
	keys := []xdr.LedgerKey{claimKey(t, id), claimKey(t, missing)}
	got, err := hb.Entries(t.Context(), keys)
	if err != nil || len(got) != 1 {
		t.Fatalf("Horizon: %v %v, want the one entry", got, err)
	}
	want, err := rb.Entries(t.Context(), keys)
	if err != nil || len(want) != 1 {
		t.Fatalf("RPC: %v %v", want, err)
	}
	g, _ := xdr.MarshalBase64(got[0])
	w, _ := xdr.MarshalBase64(want[0])
	if g != w {
		t.Errorf("Horizon's entry\n%s\nis not RPC's\n%s", g, w)
	}
	cb, err := ledger.ClaimableFromEntry(got[0])
	if err != nil || cb.ID != id || cb.Sponsor != sponsor || cb.Amount != 7_0000000 || len(cb.Claimants) != 2 {
		t.Errorf("the balance read: %+v %v", cb, err)
	}
	acct := xdr.LedgerKey{Type: xdr.LedgerEntryTypeAccount, Account: &xdr.LedgerKeyAccount{AccountId: xdr.MustAddress(who)}}
	if _, err := hb.Entries(t.Context(), []xdr.LedgerKey{acct}); !errors.Is(err, horizonapi.ErrNoEntries) {
		t.Errorf("an account key: %v, want ErrNoEntries", err)
	}
}

// TestClaimableBalanceAnswersRefused: an answer that is not the balance
// asked for, or whose predicate is not one a ledger entry holds (the
// SDK reads {} as unconditional; a relative time is never stored), is an
// error, never a balance the preflight would claim.
func TestClaimableBalanceAnswersRefused(t *testing.T) {
	h := ledgertest.NewHandler()
	who := ledgertest.Keypair(1).Address()
	id := h.AddClaimableBalance(ledgertest.ClaimableBalance{Asset: ledgertest.Native(), Amount: 1, Claimants: []ledgertest.Claimant{{Destination: who, Predicate: txnbuild.UnconditionalPredicate}}})
	for name, body := range map[string]string{
		"another id":          `{"id":"00000000` + strings.Repeat("ab", 32) + `","asset":"native","amount":"1.0000000","claimants":[{"destination":"` + who + `","predicate":{"unconditional":true}}]}`,
		"empty predicate":     `{"id":"` + id + `","asset":"native","amount":"1.0000000","claimants":[{"destination":"` + who + `","predicate":{}}]}`,
		"relative predicate":  `{"id":"` + id + `","asset":"native","amount":"1.0000000","claimants":[{"destination":"` + who + `","predicate":{"rel_before":"60"}}]}`,
		"two keys":            `{"id":"` + id + `","asset":"native","amount":"1.0000000","claimants":[{"destination":"` + who + `","predicate":{"unconditional":true,"not":{"unconditional":true}}}]}`,
		"one-part and":        `{"id":"` + id + `","asset":"native","amount":"1.0000000","claimants":[{"destination":"` + who + `","predicate":{"and":[{"unconditional":true}]}}]}`,
		"no claimant":         `{"id":"` + id + `","asset":"native","amount":"1.0000000","claimants":[]}`,
		"zero amount":         `{"id":"` + id + `","asset":"native","amount":"0.0000000","claimants":[{"destination":"` + who + `","predicate":{"unconditional":true}}]}`,
		"too deep":            `{"id":"` + id + `","asset":"native","amount":"1.0000000","claimants":[{"destination":"` + who + `","predicate":{"not":{"not":{"not":{"not":{"unconditional":true}}}}}}]}`,
		"not an asset":        `{"id":"` + id + `","asset":"USD","amount":"1.0000000","claimants":[{"destination":"` + who + `","predicate":{"unconditional":true}}]}`,
		"not a claimant's id": `{"id":"` + id + `","asset":"native","amount":"1.0000000","claimants":[{"destination":"GABC","predicate":{"unconditional":true}}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/hal+json")
				_, _ = w.Write([]byte(body))
			}))
			defer srv.Close()
			b, err := horizonapi.New(srv.URL, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := b.Entries(t.Context(), []xdr.LedgerKey{claimKey(t, id)})
			if !errors.Is(err, ledgerapi.ErrAccountUnreachable) || got != nil {
				t.Errorf("Entries = %v, %v; want ErrAccountUnreachable", got, err)
			}
		})
	}
}
