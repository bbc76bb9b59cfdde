package wallet_test

import (
	"testing"

	"github.com/closerelay/closerelay/client/wallet"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The helpers the test files of this package share: the network, and the
// builders' results with their errors checked.

const passphrase = network.TestNetworkPassphrase

// hashOf is an envelope's transaction hash under the test network.
func hashOf(t *testing.T, x string) [32]byte {
	t.Helper()
	var env xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(x, &env); err != nil {
		t.Fatal(err)
	}
	h, err := network.HashTransactionInEnvelope(env, passphrase)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// base64Of is tx's envelope in base64.
func base64Of(t *testing.T, tx *txnbuild.Transaction) string {
	t.Helper()
	x, err := tx.Base64()
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// signedXDR is tx signed by kps under the test network, in base64.
func signedXDR(t *testing.T, tx *txnbuild.Transaction, kps ...*keypair.Full) string {
	t.Helper()
	signed, err := tx.Sign(passphrase, kps...)
	if err != nil {
		t.Fatal(err)
	}
	return base64Of(t, signed)
}

// buildForward is wallet.BuildForward's transaction and its envelope in
// base64.
func buildForward(t *testing.T, p wallet.ForwardParams) (*txnbuild.Transaction, string) {
	t.Helper()
	tx, err := wallet.BuildForward(p)
	if err != nil {
		t.Fatal(err)
	}
	return tx, base64Of(t, tx)
}

// txOf decodes an envelope that holds a transaction (not a fee-bump).
func txOf(t *testing.T, x string) *txnbuild.Transaction {
	t.Helper()
	gtx, err := txnbuild.TransactionFromXDR(x)
	if err != nil {
		t.Fatal(err)
	}
	tx, ok := gtx.Transaction()
	if !ok {
		t.Fatalf("%.40s… is a fee-bump, want a transaction", x)
	}
	return tx
}
