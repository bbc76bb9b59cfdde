package ledger_test

import (
	"encoding/base64"
	"errors"
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/xdr"
)

const testPass = network.TestNetworkPassphrase

// keys returns n deterministic keypairs starting at ledgertest.Keypair(from).
func keys(from, n int) []*keypair.Full {
	out := make([]*keypair.Full, n)
	for i := range out {
		out[i] = ledgertest.Keypair(from + i)
	}
	return out
}

// gate is the sweep gate of the external tests, sized as in production.
var gate = ledger.NewSweepGate(ledger.DefaultSweepSlots())

// recoverSig is set.Recover under gate, for a caller whose context never
// ends: any error fails the test.
func recoverSig(tb testing.TB, set *ledger.SignerSet, hash [32]byte, sig xdr.DecoratedSignature) (int, bool) {
	tb.Helper()
	i, ok, err := set.Recover(tb.Context(), gate, hash, sig)
	if err != nil {
		tb.Fatalf("Recover: %v", err)
	}
	return i, ok
}

// admitAll is ledger.AdmitAll under gate, for a caller whose context never
// ends: any error fails the test.
func admitAll(tb testing.TB, set *ledger.SignerSet, hash [32]byte, sigs []xdr.DecoratedSignature) []ledger.Admitted {
	tb.Helper()
	admitted, err := ledger.AdmitAll(tb.Context(), gate, set, hash, sigs)
	if err != nil {
		tb.Fatalf("AdmitAll: %v", err)
	}
	return admitted
}

// setOf is the candidate set of kps, signer i being kps[i].
func setOf(kps ...*keypair.Full) *ledger.SignerSet {
	signers := make([]ledger.Signer, len(kps))
	for i, kp := range kps {
		signers[i] = ledger.Signer{Address: kp.Address(), Weight: 1}
	}
	return ledger.NewSignerSet(signers)
}

// mutate decodes b64, applies f and re-encodes, for envelopes txnbuild
// refuses to build.
func mutate(t testing.TB, b64 string, f func(*xdr.TransactionEnvelope)) string {
	t.Helper()
	env, err := ledger.DecodeEnvelope(b64)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	f(&env)
	out, err := ledger.EncodeEnvelope(env)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return out
}

// withTrailing appends raw bytes after the envelope's XDR.
func withTrailing(t testing.TB, b64 string, extra ...byte) string {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(append(raw, extra...))
}

// wantCode fails unless err is a *ledger.Error with code want.
func wantCode(t testing.TB, err error, want ledger.Code) {
	t.Helper()
	var le *ledger.Error
	if !errors.As(err, &le) {
		t.Fatalf("err = %v, want *ledger.Error with code %s", err, want)
	}
	if le.Code != want {
		t.Fatalf("code = %s (%s), want %s", le.Code, le.Reason, want)
	}
	if le.Reason == "" {
		t.Fatalf("code %s carries no reason", le.Code)
	}
}

func hintOf(kp *keypair.Full) xdr.SignatureHint { return xdr.SignatureHint(kp.Hint()) }

// signerIDs lists the signer indices of admitted, in order.
func signerIDs(admitted []ledger.Admitted) []int {
	out := make([]int, len(admitted))
	for i, a := range admitted {
		out[i] = a.Signer
	}
	return out
}
