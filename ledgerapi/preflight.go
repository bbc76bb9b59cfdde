package ledgerapi

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// DefaultMaxAccounts bounds the accounts one preflight reads besides the
// closing one when Options.MaxAccounts is not positive (docs/API.md
// section 12, PREFLIGHT_MAX_ACCOUNTS).
const DefaultMaxAccounts = 20

// Preflight reads what the preflight of env, a close of account on
// network n, needs (State: the accounts and the latest ledger) and runs it
// (ledger.CheckCloseForward), as of now. fwd is the plan's flow when the
// relay runs its forward (CONTRACT section 18), else nil: its destination
// is read with the close's, within the same timeout and concurrency bound.
// A failed read (the latest ledger's included), balances the account
// API's answer did not let it read, or an answer that contradicts itself,
// is an unchecked run: the preflight never fails a publish or a
// submission, it only tells, and never on evidence it could not check.
//
// At most Options.MaxAccounts accounts besides account are read, the
// first ones in operation order (the forward's destination last); an
// operation that needs one beyond them is uncertain, and the run's Reason
// says so. Every account is read for this run (only the offers listing may
// be another run's, for the account as it is now): Preflight is the read
// before a submission's first try.
//
// Beside the state it reads the network's fee statistics (FeeStats) for
// the run's fee advice (ledger.FeeAdvice): the close's bid per operation,
// and the statistics when they could be read and agree with themselves.
// Whether they could is no part of the verdict: a low fee is advice.
func (c *Client) Preflight(ctx context.Context, n ledger.Network, account string, env xdr.TransactionEnvelope, fwd *ledger.FlowForward, now time.Time) ledger.PreflightRun {
	return c.preflight(ctx, n, account, nil, env, fwd, now, readOpts{})
}

// claimablesRead is the answer of a read started by claimablesAsync.
type claimablesRead struct {
	claimables map[string]*ledger.ClaimableBalance
	err        error
}

// claimablesAsync starts reading, beside a state's other reads, the
// claimable balances env claims, by id (Backend.Entries of their keys:
// Horizon's GET /claimable_balances/{id}); the channel gets their answer,
// at once when env claims none. Through Stellar RPC they are among
// CloseState's keys instead.
func (c *Client) claimablesAsync(ctx context.Context, n ledger.Network, env xdr.TransactionEnvelope) <-chan claimablesRead {
	ch := make(chan claimablesRead, 1)
	keys := ledger.ClaimKeys(env)
	if len(keys) == 0 {
		ch <- claimablesRead{}
		return ch
	}
	go func() {
		entries, err := c.Entries(ctx, n, keys)
		if err != nil {
			ch <- claimablesRead{err: err}
			return
		}
		m, err := ledger.ClaimablesFromEntries(keys, entries)
		if err != nil {
			err = Unreachable("the account API's claimable balance is not one the ledger can hold", nil)
		}
		ch <- claimablesRead{claimables: m, err: err}
	}()
	return ch
}

// withClaimables is st with the claimable balances read; a failure of
// either read is the whole read's.
func withClaimables(st ledger.LedgerState, err error, r claimablesRead) (ledger.LedgerState, error) {
	if err != nil {
		return st, err
	}
	if r.err != nil {
		return ledger.LedgerState{}, r.err
	}
	st.Claimables = r.claimables
	return st, nil
}

// keyedOnly reports whether network n's backend reads entries by key only
// (Stellar RPC): the preflight then reads what the close names, in one call.
func (c *Client) keyedOnly(n ledger.Network) bool {
	b, _ := c.usable(n)
	_, keyed := b.(KeyedOnly)
	return keyed
}

// PreflightWith is Preflight with the account's state read already (guard
// 6's read at publish). The accounts the close pays or merges into may be
// served from reads made within Options.MaxAge, so that a burst of
// publishes naming the same accounts reads each once. When ctx carries a
// client (WithClient), the run spends that client's ledger-call budget and
// the account's; a run for a client or an account whose budget is spent
// makes no call and is unchecked, its Reason naming the budget.
func (c *Client) PreflightWith(ctx context.Context, n ledger.Network, acc ledger.AccountState, env xdr.TransactionEnvelope, fwd *ledger.FlowForward, now time.Time) ledger.PreflightRun {
	return c.preflight(ctx, n, acc.ID, &acc, env, fwd, now, readOpts{shareOthers: true})
}

func (c *Client) preflight(ctx context.Context, n ledger.Network, account string, known *ledger.AccountState, env xdr.TransactionEnvelope, fwd *ledger.FlowForward, now time.Time, o readOpts) ledger.PreflightRun {
	all := reads(env, fwd)
	ids, skipped := all, []string(nil)
	if len(all) > c.maxAccounts {
		ids, skipped = all[:c.maxAccounts], all[c.maxAccounts:]
	}
	keyed := c.keyedOnly(n)
	claims := 0 // the claimable balances read by id beside the state
	if !keyed {
		claims = len(ledger.ClaimKeys(env))
	}
	if client, ok := clientOf(ctx); ok {
		// The most this run can cost: the account unless known, each
		// account read, a whole listing of offers, the latest ledger, the
		// claimable balances, the fee statistics.
		most := len(ids) + offersCalls(MaxOffers) + 1 + claims + 1
		if known == nil {
			most++
		}
		if why := c.reserve(client, n, account, most); why != "" {
			return withFee(ledger.UncheckedBecause(now, why), env, feeStatsRead{err: errNotRead})
		}
		var calls atomic.Int64
		o.calls = &calls
		defer func() { c.refund(client, n, account, most-int(calls.Load())) }()
	}
	o.count(1)
	fees := c.feeStatsAsync(ctx, n)
	var st ledger.LedgerState
	var err error
	if keyed {
		st, err = c.closeState(ctx, n, env, ids, skipped, o)
	} else {
		o.count(claims)
		read := c.claimablesAsync(ctx, n, env)
		st, err = c.state(ctx, n, account, known, ids, o)
		st, err = withClaimables(st, err, <-read)
	}
	r := run(st, err, account, env, fwd, now)
	if len(skipped) > 0 && (r.State == ledger.PreflightUncertain || r.State == ledger.PreflightLandable) {
		// Landable cannot be: an operation that needs an account not read
		// is uncertain (ledger's rules). Should that ever change, a
		// verdict still never rests on what was not read.
		r.State = ledger.PreflightUncertain
		r.Reason = beyondBound(len(all), c.maxAccounts, skipped, fwd)
	}
	return withFee(r, env, <-fees)
}

// errNotRead is the fee statistics' read of a run that made no call.
var errNotRead = Unreachable("the preflight made no call", nil)

// withFee is r with the fee advice on env of the statistics read f.
func withFee(r ledger.PreflightRun, env xdr.TransactionEnvelope, f feeStatsRead) ledger.PreflightRun {
	r.Fee = ledger.FeeAdvice{Bid: ledger.BidPerOperation(env)}
	if f.err == nil {
		st := f.stats
		r.Fee.Stats = &st
	}
	return r
}

// beyondBound is the reason of a run that did not read skipped, the
// accounts after the first max of total.
func beyondBound(total, max int, skipped []string, fwd *ledger.FlowForward) string {
	why := fmt.Sprintf("the close names %d accounts besides the closing one, and the preflight reads the first %d (PREFLIGHT_MAX_ACCOUNTS, docs/API.md section 12): what the operations paying or merging into the other %d (the first: %s) would do was not read", total, max, len(skipped), skipped[0])
	if fwd != nil && slices.Contains(skipped, fwd.Destination) {
		why += ", nor whether the forward's destination " + fwd.Destination + " can receive it"
	}
	return why
}

// reserve takes most calls from client's and account's budgets, or
// says why one of them allows no call now (and takes nothing).
func (c *Client) reserve(client string, n ledger.Network, account string, most int) string {
	now := time.Now()
	if !c.perClient.reserve(client, most, now) {
		return fmt.Sprintf("this client has spent its ledger calls for preflights (LEDGER_CALLS_PER_CLIENT, %d a minute, docs/API.md section 12): the preflight made no call", int(c.perClient.perPeriod))
	}
	if !c.perAccount.reserve(accountKey(n, account), most, now) {
		c.perClient.refund(client, most, now)
		return fmt.Sprintf("the preflights of this account have spent its ledger calls (LEDGER_CALLS_PER_ACCOUNT, %d a minute, docs/API.md section 12): the preflight made no call", int(c.perAccount.perPeriod))
	}
	return ""
}

// refund gives back to client's and account's budgets the calls a run
// reserved and did not make.
func (c *Client) refund(client string, n ledger.Network, account string, unused int) {
	now := time.Now()
	c.perClient.refund(client, unused, now)
	c.perAccount.refund(accountKey(n, account), unused, now)
}

func accountKey(n ledger.Network, account string) string { return string(n) + "/" + account }

// reads are the accounts other than the closing one that the preflight of
// env reads: the close's destinations, then the forward's, each once.
func reads(env xdr.TransactionEnvelope, fwd *ledger.FlowForward) []string {
	ids := ledger.Destinations(env)
	if fwd != nil && !slices.Contains(ids, fwd.Destination) {
		ids = append(ids, fwd.Destination)
	}
	return ids
}

// run is the preflight of env (and fwd) on st, read for the close of
// account.
func run(st ledger.LedgerState, err error, account string, env xdr.TransactionEnvelope, fwd *ledger.FlowForward, now time.Time) ledger.PreflightRun {
	if err != nil {
		return ledger.Unchecked(now)
	}
	for _, a := range st.Accounts {
		if a != nil && a.Incomplete != "" {
			return ledger.Unchecked(now)
		}
	}
	r := ledger.PreflightRun{Preflight: ledger.CheckCloseForward(env, st, fwd), Checked: now}
	if a := st.Accounts[account]; a != nil {
		r.Native = a.Balance
	}
	return r
}

// Rechecker runs the preflight of a plan's submit-ready envelope before a
// submission's first try (the actor's Preflighter).
type Rechecker struct {
	Client *Client
	Now    func() time.Time // time.Now when nil
}

// Recheck implements the actor's Preflighter.
func (r Rechecker) Recheck(ctx context.Context, plan *ledger.AdmittedPlan, envelopeXDR string, fwd *ledger.FlowForward) ledger.PreflightRun {
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	env, err := ledger.DecodeEnvelope(envelopeXDR)
	if err != nil {
		return ledger.Unchecked(now())
	}
	return r.Client.Preflight(ctx, plan.Network(), plan.Account(), env, fwd, now())
}
