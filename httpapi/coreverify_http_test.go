package httpapi_test

import (
	"crypto/ed25519"
	"net/http"
	"testing"

	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// TestSignRefusesWhatOnlyGoAccepts: an account lists the identity point as
// an ed25519 signer (any key can be listed). Under Go's crypto/ed25519 the
// signature R = identity, S = 0 verifies for every message under that key
// (ZIP-215 vector 0), so a co-signer could "complete" a plan the ledger then
// refuses. The relay verifies by stellar-core's rule: the sign route answers
// REJECTED and the envelope does not change. Before core-exact admission the
// relay admitted it and answered 200.
func TestSignRefusesWhatOnlyGoAccepts(t *testing.T) {
	r := planStart(t, 0)
	pass := planPass(planTest)
	acc := ledgertest.NewAccount(0, 1)
	identity := make(ed25519.PublicKey, ed25519.PublicKeySize)
	identity[0] = 1
	identityAddr, err := strkey.Encode(strkey.VersionByteAccountID, identity)
	if err != nil {
		t.Fatal(err)
	}
	signers := append([]horizon.Signer{}, acc.Signers...)
	signers = append(signers, horizon.Signer{Key: identityAddr, Weight: 1, Type: "ed25519_public_key"})
	r.horizon.SetAccount(acc.Address, signers, acc.Thresholds)

	close1, hash := ledgertest.BuildClose(acc.Master, planDest, 1, 0, pass, acc.Master)
	id := planWantPublished(t, r.publish(t, planTest, close1), hash)

	forged := make([]byte, ed25519.SignatureSize)
	forged[0] = 1 // R = the identity point, S = 0
	if !ed25519.Verify(identity, hash[:], forged) {
		t.Fatal("the premise: crypto/ed25519 accepts this signature for any message")
	}
	partial := ledgertest.AppendSignatures(ledgertest.StripSignatures(close1),
		xdr.DecoratedSignature{Hint: xdr.SignatureHint{identity[28], identity[29], identity[30], identity[31]}, Signature: forged})
	planWantErr(t, r.sign(t, id, partial), http.StatusBadRequest, "REJECTED")
	if _, x := planWantPlan(t, r.get(t, id)); len(planSigs(t, x)) != 1 {
		t.Errorf("the plan carries %d signatures after the refused one, want 1", len(planSigs(t, x)))
	}
}
