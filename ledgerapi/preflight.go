package ledgerapi

import (
	"context"
	"slices"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/xdr"
)

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
// Beside the state it reads the network's fee statistics (FeeStats) for
// the run's fee advice (ledger.FeeAdvice): the close's bid per operation,
// and the statistics when they could be read and agree with themselves.
// Whether they could is no part of the verdict: a low fee is advice.
func (c *Client) Preflight(ctx context.Context, n ledger.Network, account string, env xdr.TransactionEnvelope, fwd *ledger.FlowForward, now time.Time) ledger.PreflightRun {
	fees := c.feeStatsAsync(ctx, n)
	var r ledger.PreflightRun
	if c.keyedOnly(n) {
		st, err := c.CloseState(ctx, n, env, reads(env, fwd))
		r = run(st, err, account, env, fwd, now)
	} else {
		claims := c.claimablesAsync(ctx, n, env)
		st, err := c.State(ctx, n, account, reads(env, fwd))
		st, err = withClaimables(st, err, <-claims)
		r = run(st, err, account, env, fwd, now)
	}
	return withFee(r, env, <-fees)
}

// withFee is r with the fee advice on env of the statistics read f.
func withFee(r ledger.PreflightRun, env xdr.TransactionEnvelope, f feeStatsRead) ledger.PreflightRun {
	r.Fee = ledger.FeeAdvice{Bid: ledger.BidPerOperation(env)}
	if f.err == nil {
		st := f.stats
		r.Fee.Stats = &st
	}
	return r
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
// 6's read at publish).
func (c *Client) PreflightWith(ctx context.Context, n ledger.Network, acc ledger.AccountState, env xdr.TransactionEnvelope, fwd *ledger.FlowForward, now time.Time) ledger.PreflightRun {
	if c.keyedOnly(n) {
		return c.Preflight(ctx, n, acc.ID, env, fwd, now)
	}
	fees := c.feeStatsAsync(ctx, n)
	claims := c.claimablesAsync(ctx, n, env)
	st, err := c.StateWith(ctx, n, acc, reads(env, fwd))
	st, err = withClaimables(st, err, <-claims)
	return withFee(run(st, err, acc.ID, env, fwd, now), env, <-fees)
}

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
