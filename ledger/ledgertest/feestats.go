package ledgertest

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/support/render/problem"
)

// The network's fee statistics, on both faces: Horizon's GET /fee_stats
// (protocols/horizon FeeStats) and Stellar RPC's getFeeStats
// (inclusionFee and sorobanInclusionFee, protocols/rpc
// GetFeeStatsResponse). The double has no surge pricing and charges every
// transaction the base fee per operation (SetBaseFee), so every percentile
// of the fees charged, and of the bids, is that base fee:
// last_ledger_base_fee and fee_charged.p70 (inclusionFee.p70) read what a
// close must bid now. While FailFeeStats is on, both faces fail (Horizon's
// 500 server_error, a JSON-RPC internal error) and nothing else does; the
// Horizon face fails while SetFailing is on too, the RPC face with
// FailRPC's faults.

// FailFeeStats makes the fee statistics' reads fail, on both faces, while
// on: an API whose statistics are unknown while its accounts read.
func (h *Handler) FailFeeStats(on bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.feeStatsFailing = on
}

// feeStats is the double's GET /fee_stats answer. h.mu is held.
func (h *Handler) feeStats() horizon.FeeStats {
	base := h.baseFee()
	d := horizon.FeeDistribution{Max: base, Min: base, Mode: base, P10: base, P20: base, P30: base, P40: base,
		P50: base, P60: base, P70: base, P80: base, P90: base, P95: base, P99: base}
	seq, _ := h.latest()
	return horizon.FeeStats{LastLedger: seq, LastLedgerBaseFee: base, FeeCharged: d, MaxFee: d}
}

func (h *Handler) horizonFeeStats(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	st, failing := h.feeStats(), h.failing || h.feeStatsFailing
	h.mu.Unlock()
	if failing {
		writeProblem(w, problem.ServerError)
		return
	}
	w.Header().Set("Content-Type", "application/hal+json; charset=utf-8")
	_ = json.NewEncoder(w).Encode(st)
}

// rpcFeeStats is getFeeStats' result: the inclusion fees as Stellar RPC
// spells them (decimal strings, ledgerCount a number). h.mu is held.
func (h *Handler) rpcFeeStats() map[string]any {
	base := strconv.FormatInt(h.baseFee(), 10)
	seq, _ := h.latest()
	dist := map[string]any{"transactionCount": "0", "ledgerCount": 1}
	for _, k := range []string{"max", "min", "mode", "p10", "p20", "p30", "p40", "p50", "p60", "p70", "p80", "p90", "p95", "p99"} {
		dist[k] = base
	}
	return map[string]any{"sorobanInclusionFee": dist, "inclusionFee": dist, "latestLedger": seq}
}
