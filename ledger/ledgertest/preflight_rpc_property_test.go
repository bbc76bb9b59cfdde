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
// cannot list (CONTRACT section 15). The preflight runs as the relay runs
// it (its reads, their validation, the rules), the transaction's own rules
// included (issue 38): the latest ledger is read through getLatestLedger
// and Horizon's root alike. An account answer that contradicts itself is
// Horizon's only (the double's RPC face serves the ledger's own counts):
// unchecked through Horizon, it is not compared.
func TestPreflightVerdictSameThroughRPC(t *testing.T) {
	const cases = 2000
	rng := rand.New(rand.NewPCG(22, 15))
	calls, latest, compared := 0, 0, 0
	for n := range cases {
		c := newPropertyCase(t, rng)
		env := c.build(t, rng)
		viaHorizon := c.h.Preflight(env).Preflight
		before, beforeLatest := c.h.RPCCalls("getLedgerEntries"), c.h.RPCCalls("getLatestLedger")
		viaRPC := c.h.PreflightRPC(env).Preflight
		calls += c.h.RPCCalls("getLedgerEntries") - before
		latest += c.h.RPCCalls("getLatestLedger") - beforeLatest
		if viaRPC.State == ledger.PreflightUnchecked {
			t.Fatalf("case %d: unchecked through RPC\n%s", n, c.describe(env))
		}
		if c.contradicts {
			continue
		}
		compared++
		if got, want := verdict(viaRPC), verdict(viaHorizon); got != want {
			t.Fatalf("case %d: through RPC %s, through Horizon %s\n%s", n, got, want, c.describe(env))
		}
	}
	if calls != cases || latest != cases {
		t.Errorf("%d getLedgerEntries and %d getLatestLedger calls for %d closes, want one each", calls, latest, cases)
	}
	if compared < cases*9/10 {
		t.Errorf("%d of %d cases compared", compared, cases)
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
