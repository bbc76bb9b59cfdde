package ledger_test

import (
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// TestPoolUseFromShares: the pool shares Horizon lists by id give each
// credit line's use count; a pool share whose assets are not among the
// account's lines (an asset it issues) leaves the counts unknown.
func TestPoolUseFromShares(t *testing.T) {
	issuer := keypair.MustRandom().Address()
	a := xdr.MustNewCreditAsset("AAA", issuer)
	b := xdr.MustNewCreditAsset("BBB", issuer)
	c := xdr.MustNewCreditAsset("CCC", issuer)
	pool := func(x, y xdr.Asset) ledger.Trustline {
		if y.LessThan(x) {
			x, y = y, x
		}
		id, err := xdr.NewPoolId(x, y, xdr.LiquidityPoolFeeV18)
		if err != nil {
			t.Fatal(err)
		}
		return ledger.Trustline{PoolID: xdr.Hash(id).HexString()}
	}
	st := ledger.AccountState{Trustlines: []ledger.Trustline{
		{Asset: a}, pool(a, xdr.MustNewNativeAsset()), {Asset: b}, pool(a, b), {Asset: c},
	}}
	if !ledger.PoolUseFromShares(&st) || !st.PoolUseKnown {
		t.Fatal("the pool shares of the account's own lines were not resolved")
	}
	if got := []int32{st.Trustlines[0].PoolUse, st.Trustlines[2].PoolUse, st.Trustlines[4].PoolUse}; got[0] != 2 || got[1] != 1 || got[2] != 0 {
		t.Errorf("pool use AAA, BBB, CCC = %v, want [2 1 0]", got)
	}

	none := ledger.AccountState{Trustlines: []ledger.Trustline{{Asset: a}}}
	if !ledger.PoolUseFromShares(&none) || !none.PoolUseKnown || none.Trustlines[0].PoolUse != 0 {
		t.Errorf("no pool share: %+v", none)
	}

	own := ledger.AccountState{Trustlines: []ledger.Trustline{{Asset: a}, pool(a, xdr.MustNewCreditAsset("MINE", keypair.MustRandom().Address()))}}
	if ledger.PoolUseFromShares(&own) || own.PoolUseKnown || own.Trustlines[0].PoolUse != 0 {
		t.Errorf("a pool share of an asset the account holds no line of: %+v", own)
	}
}
