package ledgerapi_test

import (
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
)

// keys returns n deterministic keypairs starting at ledgertest.Keypair(from).
func keys(from, n int) []*keypair.Full {
	out := make([]*keypair.Full, n)
	for i := range out {
		out[i] = ledgertest.Keypair(from + i)
	}
	return out
}
