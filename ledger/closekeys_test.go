package ledger_test

import (
	"errors"
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// TestCloseKeys: every entry an operation names, once each, accounts first.
func TestCloseKeys(t *testing.T) {
	src, other, dest, issuer := keypair.MustRandom(), keypair.MustRandom(), keypair.MustRandom(), keypair.MustRandom()
	usd := txnbuild.CreditAsset{Code: "USD", Issuer: issuer.Address()}
	pool := txnbuild.LiquidityPoolShareChangeTrustAsset{LiquidityPoolParameters: txnbuild.LiquidityPoolParameters{
		AssetA: txnbuild.NativeAsset{}, AssetB: usd, Fee: txnbuild.LiquidityPoolFeeV18}}
	infl := dest.Address()
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount: &txnbuild.SimpleAccount{AccountID: src.Address(), Sequence: 1},
		Operations: []txnbuild.Operation{
			&txnbuild.Payment{Destination: dest.Address(), Amount: "1", Asset: usd},
			&txnbuild.Payment{Destination: dest.Address(), Amount: "1", Asset: usd}, // the same keys again
			&txnbuild.PathPaymentStrictSend{Destination: other.Address(), SendAsset: txnbuild.NativeAsset{}, SendAmount: "1", DestAsset: usd, DestMin: "1"},
			&txnbuild.PathPaymentStrictReceive{Destination: other.Address(), SendAsset: txnbuild.NativeAsset{}, SendMax: "1", DestAsset: usd, DestAmount: "1"},
			&txnbuild.ManageSellOffer{Selling: txnbuild.NativeAsset{}, Buying: usd, Amount: "0", Price: xdr.Price{N: 1, D: 1}, OfferID: 7},
			&txnbuild.ManageBuyOffer{Selling: txnbuild.NativeAsset{}, Buying: usd, Amount: "0", Price: xdr.Price{N: 1, D: 1}, OfferID: 8, SourceAccount: other.Address()},
			&txnbuild.ManageSellOffer{Selling: txnbuild.NativeAsset{}, Buying: usd, Amount: "1", Price: xdr.Price{N: 1, D: 1}}, // a new offer: no key
			&txnbuild.ChangeTrust{Line: usd.MustToChangeTrustAsset(), Limit: "0"},
			&txnbuild.ChangeTrust{Line: pool, Limit: "0"},
			&txnbuild.ManageData{Name: "n"},
			&txnbuild.SetOptions{InflationDestination: &infl},
			&txnbuild.CreateAccount{Destination: issuer.Address(), Amount: "1"},
			&txnbuild.AccountMerge{Destination: dest.Address()},
		},
		BaseFee:       100,
		Preconditions: txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout()},
	})
	if err != nil {
		t.Fatal(err)
	}
	tx, _ = tx.Sign(network.TestNetworkPassphrase, src)
	keys := ledger.CloseKeys(tx.ToXDR())
	count := map[xdr.LedgerEntryType]int{}
	accountsDone := false
	for _, k := range keys {
		count[k.Type]++
		if k.Type != xdr.LedgerEntryTypeAccount {
			accountsDone = true
		} else if accountsDone {
			t.Fatal("an account key after the others")
		}
	}
	// Accounts: src, other (an op source, a path payment's destination),
	// dest, issuer. Trustlines: src's and dest's USD, src's pool share.
	// Offers 7 (src's) and 8 (other's). Data: dest's and other's
	// memo_required, src's "n".
	if count[xdr.LedgerEntryTypeAccount] != 4 || count[xdr.LedgerEntryTypeTrustline] != 3 ||
		count[xdr.LedgerEntryTypeOffer] != 2 || count[xdr.LedgerEntryTypeData] != 3 || len(keys) != 12 {
		t.Fatalf("keys by type %v (%d)", count, len(keys))
	}
}

func TestEntriesThatAreNotAccounts(t *testing.T) {
	if _, err := ledger.AccountFromEntry(xdr.LedgerEntry{Data: xdr.LedgerEntryData{Type: xdr.LedgerEntryTypeData}}); !errors.Is(err, ledger.ErrNotAccountEntry) {
		t.Fatalf("err %v", err)
	}
	if _, err := ledger.AccountFromEntry(xdr.LedgerEntry{Data: xdr.LedgerEntryData{Type: xdr.LedgerEntryTypeAccount}}); !errors.Is(err, ledger.ErrNotAccountEntry) {
		t.Fatalf("no arm: err %v", err)
	}
	bad := xdr.LedgerEntry{Data: xdr.LedgerEntryData{Type: xdr.LedgerEntryTypeAccount, Account: &xdr.AccountEntry{
		AccountId: xdr.MustAddress(keypair.MustRandom().Address()),
		Signers:   []xdr.Signer{{Key: xdr.SignerKey{Type: xdr.SignerKeyTypeSignerKeyTypeEd25519}, Weight: 1}},
	}}}
	id := bad.Data.Account.AccountId
	keys := []xdr.LedgerKey{{Type: xdr.LedgerEntryTypeAccount, Account: &xdr.LedgerKeyAccount{AccountId: id}}}
	if _, err := ledger.StateFromEntries(keys, []xdr.LedgerEntry{bad}); err == nil {
		t.Fatal("a signer key with no bytes was accepted")
	}
	// Entries of accounts not asked for, or whose owner is absent, are
	// left out; an account asked for and not answered is absent.
	st, err := ledger.StateFromEntries(keys, nil)
	if err != nil || len(st.Accounts) != 1 || st.Accounts[id.Address()] != nil {
		t.Fatalf("%v %+v", err, st)
	}
	orphan := xdr.LedgerEntry{Data: xdr.LedgerEntryData{Type: xdr.LedgerEntryTypeData, Data: &xdr.DataEntry{AccountId: id, DataName: "x"}}}
	if st, err := ledger.StateFromEntries(keys, []xdr.LedgerEntry{orphan}); err != nil || st.Accounts[id.Address()] != nil {
		t.Fatalf("%v %+v", err, st)
	}
}
