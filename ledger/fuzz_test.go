package ledger_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Seeds live in testdata/fuzz/<target>; each target also adds a few built
// here. FuzzParseClose and FuzzCheckPartial take raw XDR and encode it
// themselves, so that mutations land in the XDR rather than break base64.

func rawOf(t testing.TB, b64 string) []byte {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// FuzzDecodeEnvelope: decoding never panics, and what decodes re-encodes to
// the very input (one envelope, one spelling).
func FuzzDecodeEnvelope(f *testing.F) {
	p := newPlan(f, 1)
	f.Add(p.xdr)
	f.Add(ledgertest.ToV0(p.xdr))
	f.Add(ledgertest.FeeBump(p.xdr, p.acct.Master, testPass))
	f.Fuzz(func(t *testing.T, in string) {
		env, err := ledger.DecodeEnvelope(in)
		if err != nil {
			return
		}
		out, err := ledger.EncodeEnvelope(env)
		if err != nil {
			t.Fatalf("decoded envelope does not encode: %v", err)
		}
		if out != in {
			t.Fatalf("round trip changed the envelope:\n in %q\nout %q", in, out)
		}
	})
}

// FuzzParseClose: never panics; refusals are NOT_A_CLOSE; an accepted close
// satisfies every rule of SPEC "Accepted close transaction".
func FuzzParseClose(f *testing.F) {
	p := newPlan(f, 1)
	f.Add(rawOf(f, p.xdr))
	f.Add(rawOf(f, ledgertest.ToV0(p.xdr)))
	f.Add(rawOf(f, ledgertest.FeeBump(p.xdr, p.acct.Master, testPass)))
	f.Fuzz(func(t *testing.T, raw []byte) {
		in := base64.StdEncoding.EncodeToString(raw)
		c, err := ledger.ParseClose(in, ledger.Testnet)
		if err != nil {
			if ledger.CodeOf(err) != ledger.CodeNotAClose {
				t.Fatalf("refusal %v is not NOT_A_CLOSE", err)
			}
			return
		}
		if out, err := ledger.EncodeEnvelope(c.Envelope); err != nil || out != in {
			t.Fatalf("round trip changed the envelope: %v", err)
		}
		key, err := strkey.Decode(strkey.VersionByteAccountID, c.Account)
		if err != nil {
			t.Fatalf("Account %q is not a G… address", c.Account)
		}
		if c.Envelope.IsFeeBump() {
			t.Fatal("accepted a fee-bump")
		}
		ops := c.Envelope.Operations()
		merges := 0
		for i, op := range ops {
			src := c.Envelope.SourceAccount()
			if op.SourceAccount != nil {
				src = *op.SourceAccount
			}
			if src.Type != xdr.CryptoKeyTypeKeyTypeEd25519 || string(src.Ed25519[:]) != string(key) {
				t.Fatalf("operation %d's source is not %s", i, c.Account)
			}
			if op.Body.Type == xdr.OperationTypeAccountMerge {
				merges++
			}
		}
		if merges == 0 {
			t.Fatal("accepted a transaction without ACCOUNT_MERGE")
		}
		if h, err := ledger.HashEnvelope(c.Envelope, testPass); err != nil || h != c.Hash {
			t.Fatalf("Hash = %x, want %x (%v)", c.Hash, h, err)
		}
	})
}

// FuzzCheckPartial: never panics; refusals are BAD_XDR or REJECTED; what is
// admitted verifies, carries its signer's hint, holds each signer once and
// never more than the ledger's cap.
func FuzzCheckPartial(f *testing.F) {
	p := newPlan(f, 3)
	k := p.acct.Keys
	unsigned := ledgertest.StripSignatures(p.xdr)
	for _, seed := range []string{
		p.canon.XDR,
		unsigned,
		ledgertest.SignXDR(unsigned, testPass, k[0], k[1]),
		ledgertest.SignXDRWithHint(unsigned, testPass, k[2], k[0].Hint()),
		ledgertest.ToV0(ledgertest.SignXDR(unsigned, testPass, k[1])),
		ledgertest.FeeBump(p.xdr, k[0], testPass),
	} {
		f.Add(rawOf(f, seed))
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, err := p.canon.CheckPartial(t.Context(), gate, base64.StdEncoding.EncodeToString(raw), nil)
		if err != nil {
			if c := ledger.CodeOf(err); c != ledger.CodeBadXDR && c != ledger.CodeRejected {
				t.Fatalf("refusal %v has code %q", err, c)
			}
			return
		}
		if len(got) > ledger.MaxSignatures {
			t.Fatalf("admitted %d signatures", len(got))
		}
		seen := map[int]bool{}
		for _, a := range got {
			if seen[a.Signer] {
				t.Fatalf("signer %d admitted twice", a.Signer)
			}
			seen[a.Signer] = true
			s := p.set.Signers()[a.Signer]
			if a.Sig.Hint != s.Hint || !ed25519.Verify(s.Key, p.hash[:], a.Sig.Signature) {
				t.Fatalf("signer %d's admitted signature is not valid under its hint", a.Signer)
			}
		}
	})
}
