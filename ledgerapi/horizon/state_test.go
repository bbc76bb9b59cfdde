package horizon_test

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The preflight's reads through the Horizon backend (CONTRACT section 14),
// against the ledger double.

func TestStateReadsWhatThePreflightNeeds(t *testing.T) {
	h := ledgertest.NewHandler()
	acct, dest, issuer, absent := keypair.MustRandom().Address(), keypair.MustRandom().Address(), keypair.MustRandom().Address(), keypair.MustRandom().Address()
	usd := ledgertest.Credit("USD", issuer)
	h.Fund(acct, 100*10_000_000)
	h.Fund(dest, 5*10_000_000)
	h.Fund(issuer, 5*10_000_000)
	h.AddTrustline(acct, ledgertest.Trustline{Asset: usd, Balance: 50 * 10_000_000, Limit: 1000 * 10_000_000})
	h.AddTrustline(acct, ledgertest.Trustline{Pool: &ledgertest.Pool{A: ledgertest.Native(), B: usd}})
	for range 250 {
		h.AddOffer(acct, ledgertest.Offer{Selling: ledgertest.Native(), Buying: usd, Amount: 1000, Price: xdr.Price{N: 1, D: 2}})
	}
	h.SetData(acct, "note", []byte("x"), dest)
	h.SetData(dest, "config.memo_required", []byte("1"), "")

	s, err := h.ReadState(acct, dest, absent)
	if err != nil {
		t.Fatal(err)
	}
	a := s.Accounts[acct]
	if a == nil || a.Incomplete != "" {
		t.Fatalf("the account: %+v", a)
	}
	if len(a.Offers) != 250 || !a.OffersComplete {
		t.Errorf("%d offers, complete %v; want 250 over two pages, complete", len(a.Offers), a.OffersComplete)
	}
	if len(a.Trustlines) != 2 || a.Trustlines[0].Balance != 50*10_000_000 || a.Trustlines[0].Buying == 0 || a.Trustlines[1].PoolID == "" {
		t.Errorf("trustlines %+v: want USD with 50 and the offers' buying liabilities, then the pool share", a.Trustlines)
	}
	if a.NativeSelling != 250*1000 || string(a.Data["note"]) != "x" {
		t.Errorf("native selling liabilities %d, data %q", a.NativeSelling, a.Data)
	}
	if !s.Accounts[dest].MemoRequiredBy() {
		t.Error("the destination's SEP-29 entry is not read")
	}
	if got, read := s.Accounts[absent]; !read || got != nil {
		t.Errorf("an absent destination: %v read %v, want read as absent", got, read)
	}
}

// TestStateBoundsAnAccountOfManyOffers: 1,200 offers are read as far as
// MaxOffers and marked incomplete, so the preflight names a count.
func TestStateBoundsAnAccountOfManyOffers(t *testing.T) {
	h := ledgertest.NewHandler()
	acct, issuer := keypair.MustRandom().Address(), keypair.MustRandom().Address()
	h.Fund(acct, 10_000*10_000_000)
	h.AddTrustline(acct, ledgertest.Trustline{Asset: ledgertest.Credit("USD", issuer)})
	for range 1200 {
		h.AddOffer(acct, ledgertest.Offer{Selling: ledgertest.Native(), Buying: ledgertest.Credit("USD", issuer), Amount: 10, Price: xdr.Price{N: 1, D: 1}})
	}
	s, err := h.ReadState(acct)
	if err != nil {
		t.Fatal(err)
	}
	if a := s.Accounts[acct]; len(a.Offers) != ledgerapi.MaxOffers || a.OffersComplete {
		t.Errorf("%d offers, complete %v; want %d, incomplete", len(a.Offers), a.OffersComplete, ledgerapi.MaxOffers)
	}
}

// TestStateOfAGarbledAccount: balances that do not parse leave guard 6 its
// signers and mark the state incomplete for the preflight.
func TestStateOfAGarbledAccount(t *testing.T) {
	h := ledgertest.NewHandler()
	a := ledgertest.NewAccount(1, 1)
	d := ledgertest.AccountDetail(a.Address, a.Signers, a.Thresholds)
	d.Balances[0].Balance = "lots"
	h.SetAccountDetail(d)
	s, err := h.ReadState(a.Address)
	if err != nil {
		t.Fatal(err)
	}
	if s.Accounts[a.Address].Incomplete == "" {
		t.Error("a balance of \"lots\" read as an amount")
	}
}

// TestStateIsBoundedByTheTimeout: an account API that never answers fails
// the whole read once the timeout has passed, never later.
func TestStateIsBoundedByTheTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := ledgertest.NewHandler()
		a := ledgertest.NewAccount(1, 1)
		h.AddAccount(a)
		h.SetStalled(true)
		defer h.Release()
		c := ledgertest.InProcessClient(h, 3*time.Second)
		start := time.Now()
		_, err := c.State(t.Context(), ledger.Testnet, a.Address, []string{keypair.MustRandom().Address()})
		if !errors.Is(err, ledgerapi.ErrAccountUnreachable) {
			t.Fatalf("err %v, want ErrAccountUnreachable", err)
		}
		if took := time.Since(start); took != 3*time.Second {
			t.Errorf("gave up after %v, want the 3s timeout", took)
		}
	})
}
