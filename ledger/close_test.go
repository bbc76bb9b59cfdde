package ledger_test

import (
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

func TestParseClose(t *testing.T) {
	k := keys(10, 4)
	acct, dest, payer, other := k[0], k[1].Address(), k[2], k[3]
	muxed, err := xdr.MuxedAccountFromAccountId(acct.Address(), 7)
	if err != nil {
		t.Fatal(err)
	}
	mAddr := muxed.Address()
	const maxTime = 1_900_000_000

	plain, plainHash := ledgertest.BuildClose(acct, dest, 100, maxTime, testPass, acct)
	tx := func(source string, ops ...txnbuild.Operation) string {
		b64, _ := ledgertest.BuildTx(source, 100, maxTime, testPass, ops, acct)
		return b64
	}
	merge := func(src string) *txnbuild.AccountMerge {
		return &txnbuild.AccountMerge{Destination: dest, SourceAccount: src}
	}
	bump := func(src string) *txnbuild.BumpSequence {
		return &txnbuild.BumpSequence{BumpTo: 0, SourceAccount: src}
	}
	payment := func(src string) *txnbuild.Payment {
		return &txnbuild.Payment{Destination: dest, Amount: "1", Asset: txnbuild.NativeAsset{}, SourceAccount: src}
	}

	tests := []struct {
		name     string
		xdr      string
		network  ledger.Network
		wantCode ledger.Code // "" for a close
		account  string
		maxTime  uint64
	}{
		{name: "plain close", xdr: plain, account: acct.Address(), maxTime: maxTime},
		{name: "unsigned close is still a close", xdr: ledgertest.StripSignatures(plain), account: acct.Address(), maxTime: maxTime},
		{name: "no upper time bound", xdr: func() string { b, _ := ledgertest.BuildClose(acct, dest, 100, 0, testPass, acct); return b }(), account: acct.Address()},
		{name: "v0 envelope", xdr: ledgertest.ToV0(plain), account: acct.Address(), maxTime: maxTime},
		{name: "separate fee payer", xdr: tx(payer.Address(), bump(acct.Address()), merge(acct.Address())), account: acct.Address(), maxTime: maxTime},
		{name: "merge not last", xdr: tx(acct.Address(), merge(""), bump("")), account: acct.Address(), maxTime: maxTime},
		{name: "ops before the merge, sources explicit and implicit", xdr: tx(acct.Address(), payment(""), bump(acct.Address()), merge("")), account: acct.Address(), maxTime: maxTime},
		{name: "two merges of the same account", xdr: tx(acct.Address(), merge(""), merge(acct.Address())), account: acct.Address(), maxTime: maxTime},
		{name: "on mainnet", xdr: plain, network: ledger.Mainnet, account: acct.Address(), maxTime: maxTime},

		{name: "fee-bump", xdr: ledgertest.FeeBump(plain, payer, testPass), wantCode: ledger.CodeNotAClose},
		{name: "no operations", xdr: mutate(t, plain, func(e *xdr.TransactionEnvelope) { e.V1.Tx.Operations = nil }), wantCode: ledger.CodeNotAClose},
		{name: "no merge", xdr: tx(acct.Address(), payment("")), wantCode: ledger.CodeNotAClose},
		{name: "payment from another account", xdr: tx(acct.Address(), payment(other.Address()), merge("")), wantCode: ledger.CodeNotAClose},
		{name: "merge of another account, other ops implicit", xdr: tx(acct.Address(), bump(""), merge(other.Address())), wantCode: ledger.CodeNotAClose},
		{name: "fee payer's op spliced in", xdr: tx(payer.Address(), bump(""), merge(acct.Address())), wantCode: ledger.CodeNotAClose},
		{name: "two merges of different accounts", xdr: tx(acct.Address(), merge(""), merge(other.Address())), wantCode: ledger.CodeNotAClose},
		{name: "muxed merge source", xdr: tx(acct.Address(), merge(mAddr)), wantCode: ledger.CodeNotAClose},
		{name: "muxed transaction source", xdr: tx(mAddr, merge("")), wantCode: ledger.CodeNotAClose},
		{name: "muxed op beside the G merge, same key", xdr: tx(acct.Address(), bump(mAddr), merge("")), wantCode: ledger.CodeNotAClose},
		{name: "empty", xdr: "", wantCode: ledger.CodeNotAClose},
		{name: "not base64", xdr: "not an envelope", wantCode: ledger.CodeNotAClose},
		{name: "trailing bytes", xdr: withTrailing(t, plain, 0, 0, 0, 0), wantCode: ledger.CodeNotAClose},
		{name: "unknown network", xdr: plain, network: "public", wantCode: ledger.CodeBadNetwork},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := tt.network
			if n == "" {
				n = ledger.Testnet
			}
			c, err := ledger.ParseClose(tt.xdr, n)
			if tt.wantCode != "" {
				wantCode(t, err, tt.wantCode)
				if c != nil {
					t.Fatalf("refused close returned %+v", c)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseClose: %v", err)
			}
			if c.Account != tt.account {
				t.Errorf("Account = %s, want %s", c.Account, tt.account)
			}
			if c.MaxTime != tt.maxTime {
				t.Errorf("MaxTime = %d, want %d", c.MaxTime, tt.maxTime)
			}
			if c.Envelope.IsFeeBump() {
				t.Error("Envelope is a fee-bump")
			}
			want := ledgertest.Hash(tt.xdr, n.Passphrase())
			if c.Hash != want {
				t.Errorf("Hash = %x, want %x", c.Hash, want)
			}
		})
	}

	// The V0 form is the same transaction: same hash, so signatures carry over.
	v0, err := ledger.ParseClose(ledgertest.ToV0(plain), ledger.Testnet)
	if err != nil || v0.Hash != plainHash {
		t.Fatalf("v0 hash = %x, %v; want the v1 hash %x", v0.Hash, err, plainHash)
	}
	// The passphrase is part of the hash.
	main, err := ledger.ParseClose(plain, ledger.Mainnet)
	if err != nil || main.Hash == plainHash {
		t.Fatalf("mainnet hash = %x, %v; want it to differ from testnet's", main.Hash, err)
	}
}
