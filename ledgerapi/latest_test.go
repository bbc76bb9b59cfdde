package ledgerapi_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The latest ledger (CONTRACT section 18): read through each backend,
// bounded like every other read, and part of the preflight's state.

func TestClientLatestThroughEachBackend(t *testing.T) {
	at := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	for _, api := range []string{"horizon", "rpc"} {
		t.Run(api, func(t *testing.T) {
			h := ledgertest.NewHandler()
			h.SetClock(func() time.Time { return at })
			c := ledgertest.InProcessClient(h, time.Second)
			if api == "rpc" {
				c = ledgertest.InProcessRPCClient(h, time.Second)
			}
			l, err := c.Latest(t.Context(), ledger.Testnet)
			if err != nil || l.Sequence != 1 || !l.CloseTime.Equal(at) {
				t.Fatalf("Latest = %+v, %v; want ledger 1 closed at %s", l, err, at)
			}
			h.CloseLedgers(41)
			if l, err = c.Latest(t.Context(), ledger.Testnet); err != nil || l.Sequence != 42 {
				t.Fatalf("Latest = %+v, %v; want ledger 42", l, err)
			}
			// The account's sequence number's last change, which
			// min_seq_age and min_seq_ledger_gap count from.
			a := ledgertest.DeterministicAccount(3, 0, 1)
			h.AddAccount(a)
			h.SetSequenceChange(a.Address, 40, uint64(at.Unix()-90))
			acc, err := c.Account(t.Context(), ledger.Testnet, a.Address)
			if err != nil || acc.SeqLedger != 40 || acc.SeqTime != uint64(at.Unix()-90) {
				t.Fatalf("Account = %+v, %v; want its sequence changed at ledger 40, 90 s ago", acc, err)
			}

			h.FailLatest(true)
			if _, err := c.Latest(t.Context(), ledger.Testnet); !errors.Is(err, ledgerapi.ErrAccountUnreachable) {
				t.Fatalf("a failed read: %v, want ErrAccountUnreachable", err)
			}
			env := closeOf(t, a)
			if _, err := c.CloseState(t.Context(), ledger.Testnet, env, nil); !errors.Is(err, ledgerapi.ErrAccountUnreachable) {
				t.Errorf("the state without the latest ledger: %v, want ErrAccountUnreachable", err)
			}
			if run := c.Preflight(t.Context(), ledger.Testnet, a.Address, env, nil, at); run.State != ledger.PreflightUnchecked {
				t.Errorf("the preflight without the latest ledger: %s, want unchecked", run.State)
			}
		})
	}
}

// closeOf is a's bare close into a funded account, at its next sequence
// number.
func closeOf(t *testing.T, a ledgertest.Account) xdr.TransactionEnvelope {
	t.Helper()
	b64, _ := ledgertest.BuildTx(a.Address, 1<<32+1, 0, ledger.Testnet.Passphrase(), []txnbuild.Operation{
		&txnbuild.AccountMerge{Destination: ledgertest.Keypair(9).Address()},
	}, a.Keys...)
	env, err := ledger.DecodeEnvelope(b64)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// latestBackend is a backend whose Latest waits until ctx ends, or release
// closes, and counts its calls; it reads nothing else.
type latestBackend struct {
	ledgerapi.Backend
	calls   atomic.Int32
	release chan struct{}
}

func (b *latestBackend) Latest(ctx context.Context) (ledger.LatestLedger, error) {
	b.calls.Add(1)
	select {
	case <-ctx.Done():
		return ledger.LatestLedger{}, ledgerapi.Unreachable("the account API did not answer in time", ctx.Err())
	case <-b.release:
		return ledger.LatestLedger{Sequence: 7, CloseTime: time.Unix(1_800_000_000, 0)}, nil
	}
}

// TestClientLatestBounds: the latest ledger's read ends at HORIZON_TIMEOUT,
// takes a call slot, and concurrent callers share one (in fake time).
func TestClientLatestBounds(t *testing.T) {
	t.Run("timeout", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			b := &latestBackend{Backend: ledgerapi.Unusable{}, release: make(chan struct{})}
			c := ledgerapi.New(ledgerapi.Options{Backends: map[ledger.Network]ledgerapi.Backend{ledger.Testnet: b}, Timeout: 50 * time.Millisecond})
			start := time.Now()
			_, err := c.Latest(t.Context(), ledger.Testnet)
			if !errors.Is(err, ledgerapi.ErrAccountUnreachable) || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err %v, want a timeout", err)
			}
			if d := time.Since(start); d != 50*time.Millisecond {
				t.Errorf("the read ended after %s, want its 50ms timeout", d)
			}
		})
	})
	t.Run("shared, one slot", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			b := &latestBackend{Backend: ledgerapi.Unusable{}, release: make(chan struct{})}
			c := ledgerapi.New(ledgerapi.Options{Backends: map[ledger.Network]ledgerapi.Backend{ledger.Testnet: b}, Timeout: 5 * time.Second, Concurrency: 1})
			var wg sync.WaitGroup
			errs := make(chan error, 10)
			for range 10 {
				wg.Go(func() {
					l, err := c.Latest(t.Context(), ledger.Testnet)
					if err == nil && l.Sequence != 7 {
						err = errors.New("another ledger")
					}
					errs <- err
				})
			}
			synctest.Wait()
			// The one call holds the one slot: an entries read waits
			// for it, until its caller gives up.
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
			defer cancel()
			if _, err := c.Entries(ctx, ledger.Testnet, nil); !errors.Is(err, ledgerapi.ErrAccountUnreachable) || !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("a read beside the latest ledger's, with the one slot taken: %v, want it to wait and fail", err)
			}
			close(b.release)
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Error(err)
				}
			}
			if n := b.calls.Load(); n != 1 {
				t.Errorf("%d calls for 10 concurrent callers, want 1", n)
			}
		})
	})
}

// keyedBackend answers a read by key with entries of its own: an account
// whose numSubEntries contradicts the trustline it holds.
type keyedBackend struct {
	ledgerapi.Backend
	entries []xdr.LedgerEntry
}

func (b keyedBackend) Entries(context.Context, []xdr.LedgerKey) ([]xdr.LedgerEntry, error) {
	return b.entries, nil
}

func (b keyedBackend) Latest(context.Context) (ledger.LatestLedger, error) {
	return ledger.LatestLedger{Sequence: 7, CloseTime: time.Unix(1_800_000_000, 0)}, nil
}

func (keyedBackend) CannotList() {}

// TestCloseStateContradiction: through Stellar RPC too, an account entry
// counting fewer sub-entries than the entries read of it is marked
// incomplete, and the preflight is unchecked.
func TestCloseStateContradiction(t *testing.T) {
	a := ledgertest.DeterministicAccount(4, 0, 1)
	issuer := ledgertest.Keypair(5).Address()
	usd := ledgertest.Credit("USD", issuer)
	b64, _ := ledgertest.BuildTx(a.Address, 1<<32+1, 0, ledger.Testnet.Passphrase(), []txnbuild.Operation{
		&txnbuild.ChangeTrust{Line: txnbuild.CreditAsset{Code: "USD", Issuer: issuer}.MustToChangeTrustAsset(), Limit: "0"},
		&txnbuild.AccountMerge{Destination: issuer},
	}, a.Keys...)
	env, err := ledger.DecodeEnvelope(b64)
	if err != nil {
		t.Fatal(err)
	}
	id := xdr.MustAddress(a.Address)
	account := func(sub uint32) xdr.LedgerEntry {
		return xdr.LedgerEntry{Data: xdr.LedgerEntryData{Type: xdr.LedgerEntryTypeAccount, Account: &xdr.AccountEntry{
			AccountId: id, Balance: 100_0000000, SeqNum: 1 << 32, NumSubEntries: xdr.Uint32(sub), Thresholds: xdr.Thresholds{1, 0, 0, 0},
		}}}
	}
	line := xdr.LedgerEntry{Data: xdr.LedgerEntryData{Type: xdr.LedgerEntryTypeTrustline, TrustLine: &xdr.TrustLineEntry{
		AccountId: id, Asset: usd.ToTrustLineAsset(), Limit: 1000, Flags: xdr.Uint32(xdr.TrustLineFlagsAuthorizedFlag),
	}}}
	issuerEntry := xdr.LedgerEntry{Data: xdr.LedgerEntryData{Type: xdr.LedgerEntryTypeAccount, Account: &xdr.AccountEntry{
		AccountId: xdr.MustAddress(issuer), Balance: 100_0000000, SeqNum: 1 << 32, Thresholds: xdr.Thresholds{1, 0, 0, 0},
	}}}
	for _, tc := range []struct {
		sub   uint32
		state ledger.PreflightState
	}{{1, ledger.PreflightLandable}, {0, ledger.PreflightUnchecked}} {
		b := keyedBackend{Backend: ledgerapi.Unusable{}, entries: []xdr.LedgerEntry{account(tc.sub), line, issuerEntry}}
		c := ledgerapi.New(ledgerapi.Options{Backends: map[ledger.Network]ledgerapi.Backend{ledger.Testnet: b}, Timeout: time.Second})
		st, err := c.CloseState(t.Context(), ledger.Testnet, env, nil)
		if err != nil {
			t.Fatal(err)
		}
		if incomplete := st.Accounts[a.Address].Incomplete != ""; incomplete != (tc.state == ledger.PreflightUnchecked) {
			t.Errorf("%d sub-entries and a trustline read: Incomplete %q", tc.sub, st.Accounts[a.Address].Incomplete)
		}
		if run := c.Preflight(t.Context(), ledger.Testnet, a.Address, env, nil, time.Unix(1_800_000_000, 0)); run.State != tc.state {
			t.Errorf("%d sub-entries and a trustline read: %s %+v, want %s", tc.sub, run.State, run.Blockers, tc.state)
		}
	}
}
