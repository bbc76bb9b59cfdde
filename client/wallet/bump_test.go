package wallet_test

import (
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// TestWrapFeeBumpLandsOnTheDouble: under a raised fee floor the ledger
// double refuses the submit-ready close with tx_insufficient_fee; the
// fee-bump WrapFeeBump builds around it lands, through either ledger API
// (the relay's own submission path), the fee source paying and the close
// keeping its hash and signatures.
func TestWrapFeeBumpLandsOnTheDouble(t *testing.T) {
	for _, api := range []string{"horizon", "rpc"} {
		t.Run(api, func(t *testing.T) {
			srv := ledgertest.New()
			t.Cleanup(srv.Close)
			a := ledgertest.DeterministicAccount(71, 1, 1)
			a.Thresholds.HighThreshold = 2
			srv.AddAccount(a)
			dest := ledgertest.Keypair(7199).Address()
			srv.Fund(dest, 10_0000000)
			payer := ledgertest.Keypair(7198)
			srv.Fund(payer.Address(), 10_0000000)
			c := srv.Client(5 * time.Second)
			if api == "rpc" {
				c = ledgerapi.New(ledgerapi.Options{Backends: srv.RPCBackends(), Timeout: 5 * time.Second})
			}
			ready, innerHash := ledgertest.BuildClose(a.Master, dest, 1<<32+1, 0, passphrase, a.Keys...)

			srv.Handler().SetBaseFee(800)
			if out := c.Submit(t.Context(), ledger.Testnet, ready, nil); out.State != ledgerapi.SubmitFailed || out.Code != "tx_insufficient_fee" {
				t.Fatalf("the close under a raised floor: %+v", out)
			}
			b, err := wallet.WrapFeeBump(ready, "testnet", payer, 800)
			if err != nil {
				t.Fatal(err)
			}
			if b.Fee != 1600 || b.FeePerOperation != 800 || b.Operations != 1 || b.FeeSource != payer.Address() || b.InnerHash != hex.EncodeToString(innerHash[:]) {
				t.Fatalf("bump %+v", b)
			}
			var env xdr.TransactionEnvelope
			if err := xdr.SafeUnmarshalBase64(b.XDR, &env); err != nil || !env.IsFeeBump() {
				t.Fatalf("not a fee-bump: %v", err)
			}
			inner, _ := xdr.MarshalBase64(xdr.TransactionEnvelope{Type: xdr.EnvelopeTypeEnvelopeTypeTx, V1: env.FeeBump.Tx.InnerTx.V1})
			if inner != ready {
				t.Fatal("the inner envelope is not the close as given")
			}
			payerBefore, _ := srv.Balance(payer.Address())
			destBefore, _ := srv.Balance(dest)
			closing, _ := srv.Balance(a.Address)
			out := c.Submit(t.Context(), ledger.Testnet, b.XDR, nil)
			if out.State != ledgerapi.SubmitSubmitted || out.Hash != b.Hash {
				t.Fatalf("the bump: %+v", out)
			}
			if after, _ := srv.Balance(payer.Address()); payerBefore-after != 1600 {
				t.Errorf("the fee source paid %d, want 1600", payerBefore-after)
			}
			if after, _ := srv.Balance(dest); after-destBefore != closing {
				t.Errorf("the destination received %d, want the closing account's whole %d", after-destBefore, closing)
			}
		})
	}
}

// TestWrapFeeBumpRefuses: a bid below the close's own rate (which the
// ledger refuses), a close without a signature, an envelope that is a
// fee-bump already, and an unknown network are errors; 0 bids the least
// the ledger takes, the close's rate rounded up.
func TestWrapFeeBumpRefuses(t *testing.T) {
	a := ledgertest.DeterministicAccount(72, 0, 1)
	payer := ledgertest.Keypair(7298)
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount: &txnbuild.SimpleAccount{AccountID: a.Address, Sequence: 1<<32 + 1},
		Operations: []txnbuild.Operation{&txnbuild.BumpSequence{BumpTo: 0}, &txnbuild.BumpSequence{BumpTo: 0},
			&txnbuild.AccountMerge{Destination: ledgertest.Keypair(7299).Address()}},
		BaseFee: 101, Preconditions: txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout()},
	})
	if err != nil {
		t.Fatal(err)
	}
	unsigned, _ := tx.Base64()
	tx, _ = tx.Sign(passphrase, a.Master)
	signed, _ := tx.Base64()
	// 303 over 3 operations: 101 each.
	if least, err := wallet.MinBumpFee(signed); err != nil || least != 101 {
		t.Fatalf("MinBumpFee = %d, %v", least, err)
	}
	b, err := wallet.WrapFeeBump(signed, "testnet", payer, 0)
	if err != nil || b.FeePerOperation != 101 || b.Fee != 404 {
		t.Fatalf("default bid: %+v, %v", b, err)
	}
	for name, c := range map[string]struct {
		xdr, network string
		fee          int64
		want         string
	}{
		"below the close's rate": {signed, "testnet", 100, "at least 101"},
		"unsigned":               {unsigned, "testnet", 200, "no signature"},
		"a fee-bump":             {b.XDR, "testnet", 200, "fee-bump"},
		"unknown network":        {signed, "pubnet", 200, "unknown network"},
	} {
		if _, err := wallet.WrapFeeBump(c.xdr, c.network, payer, c.fee); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", name, err, c.want)
		}
	}
}
