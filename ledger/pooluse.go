package ledger

import (
	"strings"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// maxPoolPairs bounds the pairs of assets PoolUseFromShares hashes: an
// account with more credit trustlines than that many pairs allow (about
// 300) keeps its pool use unknown rather than make a read slow.
const maxPoolPairs = 50_000

// PoolUseFromShares works out each credit trustline's liquidityPoolUseCount
// from the pool-share trustlines a listing gives only by pool id (Horizon's
// balances): a pool's id is the hash of its parameters (xdr.NewPoolId:
// two assets in order and the fee, LIQUIDITY_POOL_FEE_V18 being the only
// one), and each credit asset of a pool share has a trustline of the
// account unless the account issues it (ChangeTrustOpFrame.cpp
// tryIncrementPoolUseCount), so every pool share's id is the hash of two
// of the native asset and the account's trustline assets. It sets
// a.PoolUseKnown and the counts when every pool share is found so, and
// reports whether it did; otherwise (a pool of an asset the account
// issues, too many trustlines to pair) a is left as it was.
func PoolUseFromShares(a *AccountState) bool {
	assets := []xdr.Asset{xdr.MustNewNativeAsset()}
	shares := map[string]bool{}
	for _, t := range a.Trustlines {
		if t.IsPoolShare() {
			shares[strings.ToLower(t.PoolID)] = true
		} else {
			assets = append(assets, t.Asset)
		}
	}
	if len(shares) == 0 {
		a.PoolUseKnown = true
		return true
	}
	if len(assets)*(len(assets)-1)/2 > maxPoolPairs {
		return false
	}
	uses := make([]int32, len(assets))
	found := 0
	for i := range assets {
		for j := i + 1; j < len(assets) && found < len(shares); j++ {
			x, y := assets[i], assets[j]
			if y.LessThan(x) {
				x, y = y, x
			}
			id, err := xdr.NewPoolId(x, y, xdr.LiquidityPoolFeeV18)
			if err != nil || !shares[xdr.Hash(id).HexString()] {
				continue
			}
			uses[i]++
			uses[j]++
			found++
		}
	}
	if found < len(shares) {
		return false
	}
	k := 1 // assets[0] is the native asset
	for i := range a.Trustlines {
		if !a.Trustlines[i].IsPoolShare() {
			a.Trustlines[i].PoolUse = uses[k]
			k++
		}
	}
	a.PoolUseKnown = true
	return true
}
