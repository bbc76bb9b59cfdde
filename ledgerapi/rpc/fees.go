package rpc

import (
	"context"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
)

var _ ledgerapi.FeeReader = (*Backend)(nil)

// feeStatsAnswer is the part of getFeeStats' result the preflight reads
// (the SDK's protocols/rpc GetFeeStatsResponse: inclusionFee, decimal
// strings), kept as strings so that a missing field is told from a zero.
type feeStatsAnswer struct {
	InclusionFee *struct {
		Min *string `json:"min"`
		Max *string `json:"max"`
		P70 *string `json:"p70"`
	} `json:"inclusionFee"`
}

// FeeStats implements ledgerapi.FeeReader with getFeeStats:
// inclusionFee.p70, within inclusionFee's min and max. getFeeStats names
// no base fee: BaseFee is 0. An answer lacking a field, or contradicting
// itself (ledger.ParseFeeStats; no transaction in the window gives zeros),
// is an error: the fee is then unknown.
func (b *Backend) FeeStats(ctx context.Context) (ledger.FeeStats, error) {
	var a feeStatsAnswer
	status, err := b.call(ctx, "getFeeStats", nil, &a)
	if err != nil {
		return ledger.FeeStats{}, classify(ctx, err, status)
	}
	if a.InclusionFee == nil {
		return ledger.FeeStats{}, ledgerapi.Unreachable("the account API's fee statistics lack a field", nil)
	}
	out, why := ledger.ParseFeeStats(a.InclusionFee.P70, a.InclusionFee.Min, a.InclusionFee.Max, nil, false)
	if why != "" {
		return ledger.FeeStats{}, ledgerapi.Unreachable("the account API's answer: "+why, nil)
	}
	return out, nil
}
