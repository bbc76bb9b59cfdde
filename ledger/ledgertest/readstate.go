package ledgertest

import (
	"context"
	"time"

	"github.com/closerelay/closerelay/ledger"
)

// ReadState reads, through the relay's own Horizon backend over the
// double's routes, what the preflight of a close of account on Testnet
// reads: the account, its offers, and each of others (absent ones as nil).
func (h *Handler) ReadState(account string, others ...string) (ledger.LedgerState, error) {
	return InProcessClient(h, 5*time.Second).State(context.Background(), ledger.Testnet, account, others)
}
