package horizon

import (
	"context"
	"net/http"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
)

var _ ledgerapi.FeeReader = (*Backend)(nil)

// feeStats is the part of Horizon's GET /fee_stats the preflight reads
// (the SDK's protocols/horizon FeeStats: decimal strings), kept as
// strings so that a field the answer lacks is told from a zero.
type feeStats struct {
	LastLedgerBaseFee *string `json:"last_ledger_base_fee"`
	FeeCharged        struct {
		Min *string `json:"min"`
		Max *string `json:"max"`
		P70 *string `json:"p70"`
	} `json:"fee_charged"`
}

// FeeStats implements ledgerapi.FeeReader with GET /fee_stats:
// fee_charged.p70 and last_ledger_base_fee. An answer lacking one, or
// contradicting itself (ledger.ParseFeeStats), is an error: the fee is
// then unknown.
func (b *Backend) FeeStats(ctx context.Context) (ledger.FeeStats, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.base+"/fee_stats", nil)
	if err != nil {
		return ledger.FeeStats{}, ledgerapi.Unreachable("the account API could not be reached", nil)
	}
	var st feeStats
	status, _, err := b.do(req, &st)
	if status == http.StatusNotFound {
		return ledger.FeeStats{}, ledgerapi.Unreachable("the account API publishes no fee statistics", nil)
	}
	if err != nil {
		return ledger.FeeStats{}, classify(ctx, err, status)
	}
	out, why := ledger.ParseFeeStats(st.FeeCharged.P70, st.FeeCharged.Min, st.FeeCharged.Max, st.LastLedgerBaseFee, true)
	if why != "" {
		return ledger.FeeStats{}, ledgerapi.Unreachable("the account API's answer: "+why, nil)
	}
	return out, nil
}
