package ledgerapi

import (
	"context"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Preflight reads what the preflight of env, a close of account on
// network n, needs (State: the accounts and the latest ledger) and runs it
// (ledger.CheckClose), as of now. A failed read (the latest ledger's
// included), balances the account API's answer did not let it read, or an
// answer that contradicts itself, is an unchecked run: the preflight never
// fails a publish or a submission, it only tells, and never on evidence it
// could not check.
func (c *Client) Preflight(ctx context.Context, n ledger.Network, account string, env xdr.TransactionEnvelope, now time.Time) ledger.PreflightRun {
	if c.keyedOnly(n) {
		st, err := c.CloseState(ctx, n, env, ledger.Destinations(env))
		return run(st, err, account, env, now)
	}
	st, err := c.State(ctx, n, account, ledger.Destinations(env))
	return run(st, err, account, env, now)
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
func (c *Client) PreflightWith(ctx context.Context, n ledger.Network, acc ledger.AccountState, env xdr.TransactionEnvelope, now time.Time) ledger.PreflightRun {
	if c.keyedOnly(n) {
		return c.Preflight(ctx, n, acc.ID, env, now)
	}
	st, err := c.StateWith(ctx, n, acc, ledger.Destinations(env))
	return run(st, err, acc.ID, env, now)
}

// run is the preflight of env on st, read for the close of account.
func run(st ledger.LedgerState, err error, account string, env xdr.TransactionEnvelope, now time.Time) ledger.PreflightRun {
	if err != nil {
		return ledger.Unchecked(now)
	}
	for _, a := range st.Accounts {
		if a != nil && a.Incomplete != "" {
			return ledger.Unchecked(now)
		}
	}
	r := ledger.PreflightRun{Preflight: ledger.CheckClose(env, st), Checked: now}
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
func (r Rechecker) Recheck(ctx context.Context, plan *ledger.AdmittedPlan, envelopeXDR string) ledger.PreflightRun {
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	env, err := ledger.DecodeEnvelope(envelopeXDR)
	if err != nil {
		return ledger.Unchecked(now())
	}
	return r.Client.Preflight(ctx, plan.Network(), plan.Account(), env, now())
}
