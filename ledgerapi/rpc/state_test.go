package rpc_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// cleanUp is a close that removes what ledgertest put on the account
// (an offer, a trustline, a data entry), then merges.
func cleanUp(t *testing.T) (*ledgertest.Handler, xdr.TransactionEnvelope) {
	t.Helper()
	h := ledgertest.NewHandler()
	a := ledgertest.DeterministicAccount(12, 0, 1)
	h.AddAccount(a)
	issuer := ledgertest.Keypair(13).Address()
	h.Fund(issuer, 50_000_000)
	h.Fund(dest, 50_000_000)
	h.SetData(dest, "config.memo_required", []byte("1"), "")
	usd := ledgertest.Credit("USD", issuer)
	h.AddTrustline(a.Address, ledgertest.Trustline{Asset: usd})
	id := h.AddOffer(a.Address, ledgertest.Offer{Selling: ledgertest.Native(), Buying: usd, Amount: 1_000_000, Price: xdr.Price{N: 1, D: 2}})
	h.SetData(a.Address, "note", []byte("v"), issuer)
	b64, _ := ledgertest.BuildTx(a.Address, 1<<32+1, 0, pass, []txnbuild.Operation{
		&txnbuild.ManageSellOffer{Selling: txnbuild.NativeAsset{}, Buying: txnbuild.CreditAsset{Code: "USD", Issuer: issuer}, Amount: "0", Price: xdr.Price{N: 1, D: 2}, OfferID: id},
		&txnbuild.ChangeTrust{Line: txnbuild.CreditAsset{Code: "USD", Issuer: issuer}.MustToChangeTrustAsset(), Limit: "0"},
		&txnbuild.ManageData{Name: "note"},
		&txnbuild.AccountMerge{Destination: dest},
	}, a.Keys...)
	env, err := ledger.DecodeEnvelope(b64)
	if err != nil {
		t.Fatal(err)
	}
	return h, env
}

// TestCloseStateOneCall: the preflight's reads through RPC are one
// getLedgerEntries call, whose state gives the verdict Horizon's does
// (here blocked by the destination's memo requirement only, every
// sub-entry being removed), with the sub-entries' sponsorship read from
// the entries' extensions.
func TestCloseStateOneCall(t *testing.T) {
	h, env := cleanUp(t)
	st, err := h.ReadCloseState(env)
	if err != nil {
		t.Fatal(err)
	}
	if n := h.RPCCalls("getLedgerEntries"); n != 1 {
		t.Fatalf("%d calls", n)
	}
	acc := st.Accounts[env.SourceAccount().ToAccountId().Address()]
	if acc == nil || len(acc.Trustlines) != 1 || len(acc.Offers) != 1 || !acc.DataSponsored["note"] || !acc.OffersComplete {
		t.Fatalf("%+v", acc)
	}
	if !st.Accounts[dest].MemoRequiredBy() {
		t.Fatal("the destination's memo requirement was not read")
	}
	horizonState, err := h.ReadState(env.SourceAccount().ToAccountId().Address(), dest)
	if err != nil {
		t.Fatal(err)
	}
	got, want := ledger.CheckClose(env, st), ledger.CheckClose(env, horizonState)
	if got.State != ledger.PreflightBlocked || len(got.Blockers) != 1 || got.Blockers[0].Code != ledger.MemoRequired {
		t.Fatalf("%+v", got)
	}
	if verdict(got) != verdict(want) {
		t.Fatalf("RPC %s, Horizon %s", verdict(got), verdict(want))
	}
}

func verdict(p ledger.Preflight) string {
	s := string(p.State)
	for _, b := range p.Blockers {
		s += " " + b.Code + ": " + b.Reason
	}
	return s
}

// TestCloseStatePartial: a sub-entry the close does not name keeps the
// listing partial, and the merge is op_has_sub_entries with a count.
func TestCloseStatePartial(t *testing.T) {
	h, env := cleanUp(t)
	h.SetData(env.SourceAccount().ToAccountId().Address(), "unnamed", []byte("x"), "")
	st, err := h.ReadCloseState(env)
	if err != nil {
		t.Fatal(err)
	}
	acc := st.Accounts[env.SourceAccount().ToAccountId().Address()]
	if acc.OffersComplete {
		t.Fatal("a listing that misses a sub-entry is complete")
	}
	p := ledger.CheckClose(env, st)
	last := p.Blockers[len(p.Blockers)-1]
	if p.State != ledger.PreflightBlocked || last.Code != "op_has_sub_entries" {
		t.Fatalf("%+v", p)
	}
}

func TestCloseStateFailures(t *testing.T) {
	t.Run("hang", func(t *testing.T) {
		h, env := cleanUp(t)
		defer h.Release()
		h.SetStalled(true)
		c := ledgerapi.New(ledgerapi.Options{Backends: h.RPCBackends(), Timeout: 50 * time.Millisecond})
		_, err := c.CloseState(t.Context(), ledger.Testnet, env, nil)
		if !errors.Is(err, ledgerapi.ErrAccountUnreachable) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("no closing account", func(t *testing.T) {
		h, env := cleanUp(t)
		h.Remove(env.SourceAccount().ToAccountId().Address())
		_, err := h.ReadCloseState(env)
		if !errors.Is(err, ledgerapi.ErrNoAccount) {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("json-rpc error", func(t *testing.T) {
		h, env := cleanUp(t)
		h.FailRPC("getLedgerEntries", 1, 500)
		if _, err := h.ReadCloseState(env); !errors.Is(err, ledgerapi.ErrAccountUnreachable) {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("unconfigured", func(t *testing.T) {
		_, env := cleanUp(t)
		if _, err := ledgerapi.New(ledgerapi.Options{}).CloseState(t.Context(), ledger.Testnet, env, nil); !errors.Is(err, ledgerapi.ErrAccountUnreachable) {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("horizon delegates to State", func(t *testing.T) {
		h, env := cleanUp(t)
		st, err := ledgertest.InProcessClient(h, time.Second).CloseState(t.Context(), ledger.Testnet, env, []string{dest})
		if err != nil || st.Accounts[dest] == nil || h.RPCCalls("getLedgerEntries") != 0 {
			t.Fatalf("%v %+v", err, st)
		}
	})
	t.Run("State through RPC is marked incomplete", func(t *testing.T) {
		h, env := cleanUp(t)
		st, err := ledgertest.InProcessRPCClient(h, time.Second).State(t.Context(), ledger.Testnet, env.SourceAccount().ToAccountId().Address(), nil)
		if err != nil || st.Accounts[env.SourceAccount().ToAccountId().Address()].Incomplete == "" {
			t.Fatalf("%v %+v", err, st)
		}
	})
}
