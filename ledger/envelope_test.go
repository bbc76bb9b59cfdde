package ledger_test

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

func TestDecodeEnvelope(t *testing.T) {
	k := keys(0, 2)
	good, _ := ledgertest.BuildClose(k[0], k[1].Address(), 10, 0, testPass, k[0])
	raw, _ := base64.StdEncoding.DecodeString(good)

	// The V0 form is 200 bytes long, so its base64 ends in padding.
	padded := ledgertest.ToV0(good)
	if !strings.HasSuffix(padded, "=") {
		t.Fatalf("fixture %q has no padding", padded)
	}
	// padded with a non-zero padding bit in its last character: a lenient
	// decoder reads the same bytes, so one envelope would have two spellings.
	sloppy := []byte(padded)
	last := strings.IndexByte(padded, '=') - 1
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	sloppy[last] = alphabet[strings.IndexByte(alphabet, sloppy[last])|1]
	if lenient, err := base64.StdEncoding.DecodeString(string(sloppy)); err != nil || len(lenient) != 200 {
		t.Fatalf("sloppy fixture does not decode leniently: %v", err)
	}

	tests := []struct {
		name string
		in   string
		ok   bool
	}{
		{"valid", good, true},
		{"valid v0, padded", padded, true},
		{"non-zero padding bits", string(sloppy), false},
		{"empty", "", false},
		{"not base64", "!!!!", false},
		{"url alphabet", strings.NewReplacer("+", "-", "/", "_").Replace(good) + "-_", false},
		{"missing padding", strings.TrimRight(padded, "="), false},
		{"line break inside", good[:8] + "\n" + good[8:], false},
		{"trailing newline", good + "\n", false},
		{"trailing carriage return", good + "\r", false},
		{"trailing zero word", withTrailing(t, good, 0, 0, 0, 0), false},
		{"one trailing byte", withTrailing(t, good, 0), false},
		{"truncated", base64.StdEncoding.EncodeToString(raw[:len(raw)-4]), false},
		{"valid base64 of garbage", base64.StdEncoding.EncodeToString([]byte("hello, world")), false},
		{"unknown envelope type", base64.StdEncoding.EncodeToString([]byte{0, 0, 0, 9, 0, 0, 0, 0}), false},
		{"huge array length", base64.StdEncoding.EncodeToString([]byte{0, 0, 0, 2, 0xff, 0xff, 0xff, 0xff}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, err := ledger.DecodeEnvelope(tt.in)
			if (err == nil) != tt.ok {
				t.Fatalf("DecodeEnvelope err = %v, want ok=%v", err, tt.ok)
			}
			if !tt.ok {
				return
			}
			back, err := ledger.EncodeEnvelope(env)
			if err != nil || back != tt.in {
				t.Fatalf("round trip = %q, %v; want the input back", back, err)
			}
		})
	}
}

// TestDecodeLargestClassicEnvelope guards the decoder's depth and memory
// bounds against refusing real envelopes: 100 operations (the ledger's
// maximum) and 20 signatures, larger than any the routes accept.
func TestDecodeLargestClassicEnvelope(t *testing.T) {
	k := keys(0, 20)
	ops := make([]txnbuild.Operation, 0, 100)
	for range 99 {
		ops = append(ops, &txnbuild.Payment{
			Destination: k[1].Address(), Amount: "1", SourceAccount: k[0].Address(),
			Asset: txnbuild.CreditAsset{Code: "ABCDEFGHIJKL", Issuer: k[2].Address()},
		})
	}
	ops = append(ops, &txnbuild.AccountMerge{Destination: k[1].Address()})
	b64, hash := ledgertest.BuildTx(k[0].Address(), 1, 0, testPass, ops, k...)
	if len(b64) <= ledger.MaxXDRLength {
		t.Fatalf("fixture is only %d characters", len(b64))
	}
	c, err := ledger.ParseClose(b64, ledger.Testnet)
	if err != nil {
		t.Fatal(err)
	}
	if c.Hash != hash || len(c.Envelope.Operations()) != 100 || len(c.Envelope.Signatures()) != 20 {
		t.Fatalf("decoded %d operations, %d signatures", len(c.Envelope.Operations()), len(c.Envelope.Signatures()))
	}
}

func TestWithSignaturesCopies(t *testing.T) {
	k := keys(0, 3)
	b64, hash := ledgertest.BuildClose(k[0], k[1].Address(), 10, 0, testPass, k[0])
	for _, form := range []struct {
		name string
		b64  string
	}{{"v1", b64}, {"v0", ledgertest.ToV0(b64)}} {
		t.Run(form.name, func(t *testing.T) {
			env, err := ledger.DecodeEnvelope(form.b64)
			if err != nil {
				t.Fatal(err)
			}
			before := env.Signatures()
			origSig := bytes.Clone(before[0].Signature)
			sigs := []xdr.DecoratedSignature{ledgertest.Signature(hash, k[1]), ledgertest.Signature(hash, k[2])}
			origNew := bytes.Clone(sigs[0].Signature)

			out := ledger.WithSignatures(env, sigs)
			if got := out.Signatures(); len(got) != 2 || !bytes.Equal(got[0].Signature, origNew) {
				t.Fatalf("result signatures = %v", got)
			}
			// The caller's envelope keeps its list...
			if got := env.Signatures(); len(got) != 1 || !bytes.Equal(got[0].Signature, origSig) {
				t.Fatalf("caller's envelope changed: %d signatures", len(got))
			}
			// ...and the result shares no bytes with sigs.
			out.Signatures()[0].Signature[0] ^= 0xff
			out.Signatures()[0].Hint[0] ^= 0xff
			if !bytes.Equal(sigs[0].Signature, origNew) || sigs[0].Hint != hintOf(k[1]) {
				t.Fatal("writing the result changed the caller's signatures")
			}
			if h, err := ledger.HashEnvelope(out, testPass); err != nil || h != hash {
				t.Fatalf("hash after WithSignatures = %x, %v; want %x", h, err, hash)
			}
		})
	}
	t.Run("fee-bump unchanged", func(t *testing.T) {
		fb, err := ledger.DecodeEnvelope(ledgertest.FeeBump(b64, k[2], testPass))
		if err != nil {
			t.Fatal(err)
		}
		out := ledger.WithSignatures(fb, nil)
		if len(out.FeeBump.Signatures) != 1 {
			t.Fatalf("fee-bump signatures = %d, want unchanged 1", len(out.FeeBump.Signatures))
		}
	})
}

func TestHashEnvelope(t *testing.T) {
	k := keys(0, 2)
	b64, hash := ledgertest.BuildClose(k[0], k[1].Address(), 10, 0, testPass, k[0])
	env, err := ledger.DecodeEnvelope(b64)
	if err != nil {
		t.Fatal(err)
	}
	if h, err := ledger.HashEnvelope(env, testPass); err != nil || h != hash {
		t.Fatalf("HashEnvelope = %x, %v; want %x", h, err, hash)
	}
	if h, err := ledger.HashEnvelope(env, ledger.Mainnet.Passphrase()); err != nil || h == hash {
		t.Fatalf("hash under mainnet = %x, %v; want a different hash", h, err)
	}
	for _, p := range []string{"", "   "} {
		if _, err := ledger.HashEnvelope(env, p); err == nil {
			t.Errorf("HashEnvelope with passphrase %q succeeded", p)
		}
	}
	if _, err := ledger.HashEnvelope(xdr.TransactionEnvelope{Type: xdr.EnvelopeTypeEnvelopeTypeTx}, testPass); err == nil {
		t.Error("HashEnvelope of an envelope without its arm succeeded")
	}
}
