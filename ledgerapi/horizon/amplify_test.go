package horizon_test

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// What one close may cost the ledger API (docs/API.md section 12): the
// accounts one preflight reads, the offers listing and destinations shared
// across preflights, and the budgets per client and per account, counted
// on the double (ledgertest's Calls).

const (
	routeAccount = "GET /accounts/{id}"
	routeOffers  = "GET /accounts/{id}/offers"
)

// payingClose is acct's close paying 1 XLM to each of dests, then merging
// into the first.
func payingClose(t *testing.T, acct string, dests []string) xdr.TransactionEnvelope {
	t.Helper()
	var ops []txnbuild.Operation
	for _, d := range dests {
		ops = append(ops, &txnbuild.Payment{Destination: d, Amount: "1", Asset: txnbuild.NativeAsset{}})
	}
	ops = append(ops, &txnbuild.AccountMerge{Destination: dests[0]})
	x, _ := ledgertest.BuildTx(acct, 101, time.Now().Add(time.Hour).Unix(), network.TestNetworkPassphrase, ops)
	env, err := ledger.DecodeEnvelope(x)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// funded is n accounts the double holds.
func funded(h *ledgertest.Handler, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = keypair.MustRandom().Address()
		h.Fund(out[i], 10*10_000_000)
	}
	return out
}

func missing(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = keypair.MustRandom().Address()
	}
	return out
}

func closingAccount(h *ledgertest.Handler) string {
	acct := keypair.MustRandom().Address()
	h.Fund(acct, 10_000*10_000_000)
	h.SetSequence(acct, 100)
	return acct
}

func client(h *ledgertest.Handler, o ledgerapi.Options) *ledgerapi.Client {
	o.Backends, o.Timeout = h.Backends(), 5*time.Second
	return ledgerapi.New(o)
}

func publishRun(t *testing.T, ctx context.Context, c *ledgerapi.Client, acct string, env xdr.TransactionEnvelope) ledger.PreflightRun {
	t.Helper()
	acc, err := c.Account(ctx, ledger.Testnet, acct)
	if err != nil {
		t.Fatal(err)
	}
	return c.PreflightWith(ctx, ledger.Testnet, acc, env, nil, time.Now())
}

// TestPreflightReadsAtMostMaxAccounts: a close paying 25 accounts reads
// the first 20 of them and is uncertain, saying why; with room for all 25
// the same close is landable, so the bound alone made it uncertain.
func TestPreflightReadsAtMostMaxAccounts(t *testing.T) {
	h := ledgertest.NewHandler()
	acct := closingAccount(h)
	dests := funded(h, 25)
	env := payingClose(t, acct, dests)

	before := h.Calls()[routeAccount]
	r := client(h, ledgerapi.Options{MaxAccounts: 20}).Preflight(t.Context(), ledger.Testnet, acct, env, nil, time.Now())
	if r.State != ledger.PreflightUncertain || len(r.Blockers) != 0 {
		t.Fatalf("preflight %+v, want uncertain without blockers", r.Preflight)
	}
	if !strings.Contains(r.Reason, "PREFLIGHT_MAX_ACCOUNTS") || !strings.Contains(r.Reason, "first 20") || !strings.Contains(r.Reason, dests[20]) {
		t.Errorf("reason %q: want the bound, its value and the first account not read", r.Reason)
	}
	if got := h.Calls()[routeAccount] - before; got != 21 {
		t.Errorf("%d account reads; want 21 (the closing account and the first 20)", got)
	}

	r = client(h, ledgerapi.Options{MaxAccounts: 25}).Preflight(t.Context(), ledger.Testnet, acct, env, nil, time.Now())
	if r.State != ledger.PreflightLandable || r.Reason != "" {
		t.Errorf("with room for every account: %+v reason %q, want landable", r.Preflight, r.Reason)
	}
}

// TestPreflightBoundKeepsAnEarlierBlocker: the flood's close (payments to
// accounts that do not exist) is blocked at its first operation whatever
// the bound, and costs the bound's reads, not one per payment.
func TestPreflightBoundKeepsAnEarlierBlocker(t *testing.T) {
	h := ledgertest.NewHandler()
	acct := closingAccount(h)
	env := payingClose(t, acct, missing(99))
	before := h.Reads()
	r := client(h, ledgerapi.Options{MaxAccounts: 20}).Preflight(t.Context(), ledger.Testnet, acct, env, nil, time.Now())
	if r.State != ledger.PreflightBlocked || r.Blockers[0].Code != "op_no_destination" || r.Blockers[0].Op != 0 {
		t.Fatalf("preflight %+v, want blocked op_no_destination at op 0", r.Preflight)
	}
	// The account, 20 destinations, one page of offers, the latest ledger,
	// the fee statistics.
	if got := h.Reads() - before; got != 24 {
		t.Errorf("%d ledger calls; want 24", got)
	}
}

// TestOffersListingShared: an account of 1,200 offers is listed once for
// every preflight of it while it does not change, the read before
// submission included; once it changes, the next preflight lists again.
func TestOffersListingShared(t *testing.T) {
	h := ledgertest.NewHandler()
	acct := closingAccount(h)
	issuer := funded(h, 1)[0]
	usd := ledgertest.Credit("USD", issuer)
	h.AddTrustline(acct, ledgertest.Trustline{Asset: usd, Limit: 1000 * 10_000_000})
	for range 1200 {
		h.AddOffer(acct, ledgertest.Offer{Selling: ledgertest.Native(), Buying: usd, Amount: 10, Price: xdr.Price{N: 1, D: 1}})
	}
	env := payingClose(t, acct, funded(h, 1))
	c := client(h, ledgerapi.Options{})

	for i := range 3 {
		if r := publishRun(t, t.Context(), c, acct, env); r.State != ledger.PreflightBlocked {
			t.Fatalf("publish %d: %+v, want blocked (op_has_sub_entries)", i, r.Preflight)
		}
	}
	if got := h.Calls()[routeOffers]; got != 5 {
		t.Errorf("%d offers pages for three publishes; want 5 (one listing of 1,000)", got)
	}
	accounts := h.Calls()[routeAccount]
	if r := c.Preflight(t.Context(), ledger.Testnet, acct, env, nil, time.Now()); r.State != ledger.PreflightBlocked {
		t.Fatalf("re-read: %+v", r.Preflight)
	}
	if got := h.Calls()[routeOffers]; got != 5 {
		t.Errorf("the re-read before submission listed the offers again (%d pages)", got)
	}
	if got := h.Calls()[routeAccount] - accounts; got != 2 {
		t.Errorf("the re-read made %d account reads; want 2 (the closing account and its destination, fresh)", got)
	}

	// A new offer: the listing no longer fits the account.
	h.AddOffer(acct, ledgertest.Offer{Selling: ledgertest.Native(), Buying: usd, Amount: 10, Price: xdr.Price{N: 1, D: 1}})
	publishRun(t, t.Context(), c, acct, env)
	if got := h.Calls()[routeOffers]; got != 10 {
		t.Errorf("%d offers pages after the account changed; want 10 (listed again)", got)
	}
}

// TestReadBeforeSubmissionReadsDestinationsFresh: a destination's read is
// shared between publishes for PREFLIGHT_MAX_AGE, but the read before
// submission reads it again, so a destination created since is seen.
func TestReadBeforeSubmissionReadsDestinationsFresh(t *testing.T) {
	h := ledgertest.NewHandler()
	acct := closingAccount(h)
	dest := missing(1)
	env := payingClose(t, acct, dest)
	c := client(h, ledgerapi.Options{})
	if r := publishRun(t, t.Context(), c, acct, env); r.State != ledger.PreflightBlocked {
		t.Fatalf("publish: %+v, want op_no_destination", r.Preflight)
	}
	h.Fund(dest[0], 10*10_000_000)
	accounts := h.Calls()[routeAccount]
	if r := publishRun(t, t.Context(), c, acct, env); r.State != ledger.PreflightBlocked {
		t.Errorf("a second publish within PREFLIGHT_MAX_AGE: %+v, want the shared read (blocked)", r.Preflight)
	}
	if got := h.Calls()[routeAccount] - accounts; got != 1 {
		t.Errorf("the second publish made %d account reads; want 1 (guard 6's)", got)
	}
	if r := c.Preflight(t.Context(), ledger.Testnet, acct, env, nil, time.Now()); r.State != ledger.PreflightLandable {
		t.Errorf("the read before submission: %+v, want landable (the destination read again)", r.Preflight)
	}
}

// TestMaxAgeOffSharesNothing: PREFLIGHT_MAX_AGE=0 (a negative MaxAge)
// lists the offers for each preflight.
func TestMaxAgeOffSharesNothing(t *testing.T) {
	h := ledgertest.NewHandler()
	acct := closingAccount(h)
	env := payingClose(t, acct, funded(h, 1))
	c := client(h, ledgerapi.Options{MaxAge: -1})
	publishRun(t, t.Context(), c, acct, env)
	publishRun(t, t.Context(), c, acct, env)
	if got := h.Calls()[routeOffers]; got != 2 {
		t.Errorf("%d listings; want 2", got)
	}
}

// TestPreflightBudgetPerClient: a client that floods publishes of closes
// naming new accounts spends its budget; its next preflight makes no call
// and is unchecked, saying why; another client, and the relay's own read
// before submission, are not held back; a minute later the client is
// served again.
func TestPreflightBudgetPerClient(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := ledgertest.NewHandler()
		acct := closingAccount(h)
		c := client(h, ledgerapi.Options{CallsPerClient: 50, CallsPerAccount: 1000})
		flood := ledgerapi.WithClient(t.Context(), "192.0.2.7")
		for i := range 3 {
			// 20 destinations, the offers, the latest ledger, the fee
			// statistics: 23 calls.
			if r := publishRun(t, flood, c, acct, payingClose(t, acct, missing(20))); r.State != ledger.PreflightBlocked {
				t.Fatalf("publish %d: %+v, want blocked", i, r.Preflight)
			}
		}
		env := payingClose(t, acct, missing(20))
		acc, err := c.Account(flood, ledger.Testnet, acct)
		if err != nil {
			t.Fatal(err)
		}
		before := h.Reads()
		r := c.PreflightWith(flood, ledger.Testnet, acc, env, nil, time.Now())
		if r.State != ledger.PreflightUnchecked || !strings.Contains(r.Reason, "LEDGER_CALLS_PER_CLIENT") || !strings.Contains(r.Reason, "50 a minute") {
			t.Fatalf("the flood's fourth publish: %+v reason %q, want unchecked naming LEDGER_CALLS_PER_CLIENT", r.Preflight, r.Reason)
		}
		if got := h.Reads() - before; got != 0 {
			t.Errorf("a spent budget made %d ledger calls", got)
		}
		honest := ledgerapi.WithClient(t.Context(), "198.51.100.9")
		if r := c.PreflightWith(honest, ledger.Testnet, acc, env, nil, time.Now()); r.State != ledger.PreflightBlocked {
			t.Errorf("another client: %+v, want its verdict", r.Preflight)
		}
		if r := c.Preflight(t.Context(), ledger.Testnet, acct, env, nil, time.Now()); r.State != ledger.PreflightBlocked {
			t.Errorf("the read before submission: %+v, want its verdict", r.Preflight)
		}
		time.Sleep(time.Minute)
		if r := c.PreflightWith(flood, ledger.Testnet, acc, env, nil, time.Now()); r.State != ledger.PreflightBlocked {
			t.Errorf("a minute later: %+v, want the verdict again", r.Preflight)
		}
	})
}

// TestPreflightBudgetPerAccount: publishes of one account from many
// clients spend that account's budget, not another account's.
func TestPreflightBudgetPerAccount(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := ledgertest.NewHandler()
		acct, other := closingAccount(h), closingAccount(h)
		c := client(h, ledgerapi.Options{CallsPerClient: 1000, CallsPerAccount: 30})
		for i := range 2 {
			ctx := ledgerapi.WithClient(t.Context(), "192.0.2."+string(rune('1'+i)))
			if r := publishRun(t, ctx, c, acct, payingClose(t, acct, missing(20))); r.State != ledger.PreflightBlocked {
				t.Fatalf("publish %d: %+v", i, r.Preflight)
			}
		}
		ctx := ledgerapi.WithClient(t.Context(), "192.0.2.9")
		r := publishRun(t, ctx, c, acct, payingClose(t, acct, missing(20)))
		if r.State != ledger.PreflightUnchecked || !strings.Contains(r.Reason, "LEDGER_CALLS_PER_ACCOUNT") {
			t.Errorf("a third client on the account: %+v reason %q, want unchecked naming LEDGER_CALLS_PER_ACCOUNT", r.Preflight, r.Reason)
		}
		if r := publishRun(t, ctx, c, other, payingClose(t, other, missing(20))); r.State != ledger.PreflightBlocked {
			t.Errorf("another account: %+v, want its verdict", r.Preflight)
		}
	})
}

// TestPreflightReadsAtMostMaxAccountsRPC: through Stellar RPC the bound
// holds the same: the keys of the accounts beyond it are not asked for,
// and the verdict is Horizon's.
func TestPreflightReadsAtMostMaxAccountsRPC(t *testing.T) {
	h := ledgertest.NewHandler()
	acct := closingAccount(h)
	dests := funded(h, 25)
	env := payingClose(t, acct, dests)
	for _, tc := range []struct {
		max  int
		want ledger.PreflightState
	}{{20, ledger.PreflightUncertain}, {25, ledger.PreflightLandable}} {
		c := ledgerapi.New(ledgerapi.Options{Backends: h.RPCBackends(), Timeout: 5 * time.Second, MaxAccounts: tc.max})
		r := c.Preflight(t.Context(), ledger.Testnet, acct, env, nil, time.Now())
		if r.State != tc.want {
			t.Errorf("bound %d: %+v, want %s", tc.max, r.Preflight, tc.want)
		}
		if bounded := tc.want == ledger.PreflightUncertain; bounded != strings.Contains(r.Reason, "PREFLIGHT_MAX_ACCOUNTS") {
			t.Errorf("bound %d: reason %q", tc.max, r.Reason)
		}
	}
}

// TestPreflightBudgetHoldsUnderABurst: runs that start at once each
// reserve what they may cost before any call is made, so a burst of ten
// runs of one account is held to what its budget covers, not ten.
func TestPreflightBudgetHoldsUnderABurst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := ledgertest.NewHandler()
		acct := closingAccount(h)
		c := client(h, ledgerapi.Options{CallsPerClient: 1000, CallsPerAccount: 60})
		acc, err := c.Account(t.Context(), ledger.Testnet, acct)
		if err != nil {
			t.Fatal(err)
		}
		h.SetHeld(true) // every call waits until all runs have started
		runs := make(chan ledger.PreflightRun, 10)
		for i := range 10 {
			ctx := ledgerapi.WithClient(t.Context(), "192.0.2."+string(rune('0'+i)))
			env := payingClose(t, acct, missing(20))
			go func() { runs <- c.PreflightWith(ctx, ledger.Testnet, acc, env, nil, time.Now()) }()
		}
		synctest.Wait()
		h.SetHeld(false)
		verdicts := 0
		for range 10 {
			if r := <-runs; r.State != ledger.PreflightUnchecked {
				verdicts++
			}
		}
		// 20 accounts, a listing of up to 1,000 offers, the latest: 27 each.
		if verdicts != 3 {
			t.Errorf("%d runs of the burst read the ledger; want 3 (60 calls at 27 each)", verdicts)
		}
	})
}
