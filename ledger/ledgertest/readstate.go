package ledgertest

import (
	"context"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// ReadState reads, through the relay's own Horizon backend over the
// double's routes, what the preflight of a close of account on Testnet
// reads: the account, its offers, and each of others (absent ones as nil).
func (h *Handler) ReadState(account string, others ...string) (ledger.LedgerState, error) {
	return InProcessClient(h, 5*time.Second).State(context.Background(), ledger.Testnet, account, others)
}

// ReadCloseState reads what the preflight of env reads through the relay's
// own Stellar RPC backend over the double's JSON-RPC face: the entries the
// close names, in one getLedgerEntries call (ledgerapi.Client.CloseState).
func (h *Handler) ReadCloseState(env xdr.TransactionEnvelope) (ledger.LedgerState, error) {
	return InProcessRPCClient(h, 5*time.Second).CloseState(context.Background(), ledger.Testnet, env, nil)
}

// Preflight runs, through the relay's own Horizon backend over the double's
// routes, the preflight of env as the relay runs it (ledgerapi.Client's
// Preflight: the reads, their validation, ledger.CheckClose), as of the
// double's clock.
func (h *Handler) Preflight(env xdr.TransactionEnvelope) ledger.PreflightRun {
	return InProcessClient(h, 5*time.Second).Preflight(context.Background(), ledger.Testnet, env.SourceAccount().ToAccountId().Address(), env, nil, h.clockNow())
}

// PreflightRPC is Preflight through the relay's own Stellar RPC backend
// over the double's JSON-RPC face.
func (h *Handler) PreflightRPC(env xdr.TransactionEnvelope) ledger.PreflightRun {
	return InProcessRPCClient(h, 5*time.Second).Preflight(context.Background(), ledger.Testnet, env.SourceAccount().ToAccountId().Address(), env, nil, h.clockNow())
}

// clockNow is the double's clock, read under its lock.
func (h *Handler) clockNow() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.now()
}
