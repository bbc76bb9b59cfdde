package ledgertest_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/closerelay/closerelay/ledger"
)

// TestPreflightVerdictSameThroughRPC is issue 22's property: for random
// accounts and closes (the generator of TestPreflightAgreesWithTheDouble),
// the preflight's verdict on what the relay reads through Stellar RPC (the
// entries the close names, in one getLedgerEntries call) is the verdict on
// what it reads through Horizon (the accounts and every offer): the same
// state, and the same blockers in the same order with the same reasons,
// but for op_has_sub_entries, whose reason may give counts where RPC
// cannot list (CONTRACT section 15).
func TestPreflightVerdictSameThroughRPC(t *testing.T) {
	const cases = 2000
	rng := rand.New(rand.NewPCG(22, 15))
	calls := 0
	for n := range cases {
		c := newPropertyCase(t, rng)
		env := c.build(t, rng)
		viaHorizon := ledger.CheckClose(env, c.read(t))
		before := c.h.RPCCalls("getLedgerEntries")
		state, err := c.h.ReadCloseState(env)
		if err != nil {
			t.Fatalf("case %d: %v", n, err)
		}
		calls += c.h.RPCCalls("getLedgerEntries") - before
		viaRPC := ledger.CheckClose(env, state)
		if got, want := verdict(viaRPC), verdict(viaHorizon); got != want {
			t.Fatalf("case %d: through RPC %s, through Horizon %s\n%s", n, got, want, c.describe(env))
		}
	}
	if calls != cases {
		t.Errorf("%d getLedgerEntries calls for %d closes, want one each", calls, cases)
	}
}

func verdict(p ledger.Preflight) string {
	s := string(p.State)
	for _, b := range p.Blockers {
		reason := b.Reason
		if b.Code == "op_has_sub_entries" {
			reason = "…"
		}
		s += fmt.Sprintf("\n  op %d %s: %s", b.Op, b.Code, reason)
	}
	return s
}
