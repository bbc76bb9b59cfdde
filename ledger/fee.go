package ledger

import (
	"strconv"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// FeeStats is what the preflight reads of the network's fee statistics
// (docs/API.md section 12): Horizon's GET /fee_stats, Stellar RPC's
// getFeeStats. A backend gives them only when its answer holds them and
// agrees with itself; otherwise the read fails and the fee is unknown.
type FeeStats struct {
	// Network is the 70th percentile of the inclusion fee per operation
	// the last ledgers charged: Horizon's fee_charged.p70, RPC's
	// inclusionFee.p70. Always above 0.
	Network int64
	// BaseFee is the last ledger's base fee per operation
	// (last_ledger_base_fee), the network's minimum; 0 when the API does
	// not say (Stellar RPC's getFeeStats does not).
	BaseFee int64
}

// FeeAdvice is a preflight run's word on a close's fee bid (status
// preflight.fee, docs/API.md section 12): advice, never a blocker.
type FeeAdvice struct {
	// Bid is the close's fee bid per operation, in stroops (its fee over
	// its operations, rounded down); 0 when the run has no envelope.
	Bid int64
	// Stats are the network's fee statistics as the run read them; nil
	// when they are unknown (not read, or an answer missing or
	// contradicting itself).
	Stats *FeeStats
}

// Known reports whether the network's fee is known.
func (f FeeAdvice) Known() bool { return f.Stats != nil && f.Stats.Network > 0 }

// Low reports whether the bid is below the network's p70 fee; false when
// that fee is unknown.
func (f FeeAdvice) Low() bool { return f.Known() && f.Bid < f.Stats.Network }

// BidPerOperation is env's fee bid per operation, in stroops: the fee
// over the operations, rounded down (a fee-bump's outer fee over its inner
// operations plus one).
func BidPerOperation(env xdr.TransactionEnvelope) int64 {
	switch {
	case env.Type == xdr.EnvelopeTypeEnvelopeTypeTxFeeBump && env.FeeBump != nil:
		return env.FeeBumpFee() / int64(len(env.Operations())+1)
	case isClassic(env):
		return int64(env.Fee()) / int64(max(len(env.Operations()), 1))
	}
	return 0
}

// ParseFeeStats reads fee statistics as the APIs give them (decimal
// strings; nil for a field the answer lacks): the p70 inclusion fee per
// operation within [lo, hi], and the base fee (base; when the API names
// none, withBase is false and base is ignored). It returns why they cannot
// be used, "" when they can: a missing or non-decimal field, a p70 of 0
// or less, outside [lo, hi], or a base fee of 0 or less. Statistics that
// fail are an unknown fee, never a guess.
func ParseFeeStats(p70, lo, hi, base *string, withBase bool) (FeeStats, string) {
	p, ok1 := decimal(p70)
	l, ok2 := decimal(lo)
	h, ok3 := decimal(hi)
	b, ok4 := decimal(base)
	if !ok1 || !ok2 || !ok3 || (withBase && !ok4) {
		return FeeStats{}, "the fee statistics lack a field"
	}
	if p <= 0 || l <= 0 || p < l || p > h || (withBase && b <= 0) {
		return FeeStats{}, "the fee statistics contradict themselves"
	}
	if !withBase {
		b = 0
	}
	return FeeStats{Network: p, BaseFee: b}, ""
}

// decimal parses a decimal string field; false when absent or not one.
func decimal(s *string) (int64, bool) {
	if s == nil {
		return 0, false
	}
	v, err := strconv.ParseInt(*s, 10, 64)
	return v, err == nil
}
