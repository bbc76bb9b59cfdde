package ctl

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// DefaultMaxFee caps the per-operation fee build bids (--max-fee), in
// stroops: 0.001 XLM, a hundred times the network's minimum.
const DefaultMaxFee = 10_000

// minFee is the network's minimum fee per operation, in stroops.
const minFee = 100

// feeStats is the part of Horizon's GET /fee_stats build reads.
type feeStats struct {
	LastLedgerBaseFee string `json:"last_ledger_base_fee"`
	FeeCharged        struct {
		P90 string `json:"p90"`
	} `json:"fee_charged"`
}

// operationFee is the fee per operation build bids: the 90th percentile of
// the fees the last ledgers charged (Horizon's fee statistics), at least the
// last ledger's base fee and the network's minimum, at most maxFee. An
// account API without fee statistics gives the minimum, and why, so that a
// close is still built; a bid too low then waits in the queue rather than
// being lost.
func (c *CLI) operationFee(ctx context.Context, horizonURL string, maxFee int64) (fee int64, note string) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(horizonURL, "/")+"/fee_stats", nil)
	if err != nil {
		return min(minFee, maxFee), "the fee statistics could not be asked for"
	}
	res, err := c.httpClient(10 * time.Second).Do(req)
	if err != nil {
		return min(minFee, maxFee), "the account API's fee statistics could not be read"
	}
	defer res.Body.Close()
	var st feeStats
	if res.StatusCode != http.StatusOK || json.NewDecoder(http.MaxBytesReader(nil, res.Body, 1<<16)).Decode(&st) != nil {
		return min(minFee, maxFee), "the network's minimum; this account API publishes no fee statistics"
	}
	p90, err1 := strconv.ParseInt(st.FeeCharged.P90, 10, 64)
	base, err2 := strconv.ParseInt(st.LastLedgerBaseFee, 10, 64)
	if err1 != nil || err2 != nil || p90 < 0 || base < 0 {
		return min(minFee, maxFee), "the account API's fee statistics do not parse"
	}
	fee = max(p90, base, minFee)
	if fee > maxFee {
		return maxFee, fmt.Sprintf("the fee statistics ask %d stroops per operation; capped by --max-fee", fee)
	}
	return fee, ""
}
