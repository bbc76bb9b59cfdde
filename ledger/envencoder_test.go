package ledger_test

import (
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// encoderEnvelopes are V1 and V0 envelopes whose XDR before the signatures
// has each length modulo 3 (a data entry's name and value of 1, 5 or 9
// bytes, padded to 8, 12 or 16), and a fee-bump (encoded the long way).
func encoderEnvelopes(t testing.TB) map[string]xdr.TransactionEnvelope {
	k := keys(0, 2)
	out := map[string]xdr.TransactionEnvelope{}
	residues := map[int]bool{}
	for _, memo := range []string{"", "a", "abcde", "abcdefghi"} {
		ops := []txnbuild.Operation{&txnbuild.AccountMerge{Destination: k[1].Address()}}
		if memo != "" {
			ops = append(ops, &txnbuild.ManageData{Name: memo, Value: []byte(memo)})
		}
		x, _ := ledgertest.BuildTx(k[0].Address(), 10, 0, testPass, ops, k[0])
		for name, b64 := range map[string]string{"v1 " + memo: x, "v0 " + memo: ledgertest.ToV0(x)} {
			env, err := ledger.DecodeEnvelope(b64)
			if err != nil {
				t.Fatal(err)
			}
			out[name] = env
			raw, err := ledger.WithSignatures(env, nil).MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			residues[(len(raw)-4)%3] = true
		}
	}
	if len(residues) != 3 {
		t.Fatalf("the envelopes' heads cover the residues %v modulo 3, not all three", residues)
	}
	fb := out["v1 "]
	inner := *fb.V1
	out["fee-bump"] = xdr.TransactionEnvelope{Type: xdr.EnvelopeTypeEnvelopeTypeTxFeeBump, FeeBump: &xdr.FeeBumpTransactionEnvelope{
		Tx: xdr.FeeBumpTransaction{FeeSource: inner.Tx.SourceAccount, Fee: 200,
			InnerTx: xdr.FeeBumpTransactionInnerTx{Type: xdr.EnvelopeTypeEnvelopeTypeTx, V1: &inner}}}}
	return out
}

// TestEnvelopeEncoderIsEncodeEnvelope: the encoding of the transaction once
// and the signatures per version is EncodeEnvelope's, string for string,
// for 0 to 20 signatures of every length XDR allows and beyond it.
func TestEnvelopeEncoderIsEncodeEnvelope(t *testing.T) {
	for name, env := range encoderEnvelopes(t) {
		e := ledger.NewEnvelopeEncoder(env)
		for _, lengths := range [][]int{nil, {64}, {64, 64, 64}, {0, 1, 2, 3, 4, 5, 63}, {65}, {64, 70, 64}, make([]int, 20)} {
			checkEncoder(t, name, e, env, signaturesOf(lengths))
		}
		var twenty []int
		for i := range 20 {
			twenty = append(twenty, 64-i%5)
		}
		checkEncoder(t, name, e, env, signaturesOf(twenty))
	}
}

func FuzzEnvelopeEncoder(f *testing.F) {
	f.Add(uint8(0), []byte{64, 64, 3})
	f.Add(uint8(3), []byte{})
	envs := encoderEnvelopes(f)
	var names []string
	for name := range envs {
		names = append(names, name)
	}
	encoders := map[string]*ledger.EnvelopeEncoder{}
	for name, env := range envs {
		encoders[name] = ledger.NewEnvelopeEncoder(env)
	}
	f.Fuzz(func(t *testing.T, which uint8, lengths []byte) {
		if len(lengths) > 40 {
			lengths = lengths[:40]
		}
		ls := make([]int, len(lengths))
		for i, l := range lengths {
			ls[i] = int(l % 80)
		}
		name := names[int(which)%len(names)]
		checkEncoder(t, name, encoders[name], envs[name], signaturesOf(ls))
	})
}

// signaturesOf makes one signature of each length, with distinct bytes.
func signaturesOf(lengths []int) []xdr.DecoratedSignature {
	sigs := make([]xdr.DecoratedSignature, len(lengths))
	for i, n := range lengths {
		sig := make([]byte, n)
		for j := range sig {
			sig[j] = byte(i*31 + j + 1)
		}
		sigs[i] = xdr.DecoratedSignature{Hint: xdr.SignatureHint{byte(i), 2, 3, byte(n)}, Signature: sig}
	}
	return sigs
}

func checkEncoder(t *testing.T, name string, e *ledger.EnvelopeEncoder, env xdr.TransactionEnvelope, sigs []xdr.DecoratedSignature) {
	t.Helper()
	wantEnv := ledger.WithSignatures(env, sigs)
	want, wantErr := ledger.EncodeEnvelope(wantEnv)
	gotEnv, got, err := e.Encode(sigs)
	if (err != nil) != (wantErr != nil) || got != want {
		t.Fatalf("%s, %d signatures: Encode = %q, %v; EncodeEnvelope = %q, %v", name, len(sigs), got, err, want, wantErr)
	}
	if err != nil {
		return
	}
	// The envelope returned is the one encoded.
	again, err := ledger.EncodeEnvelope(gotEnv)
	if err != nil || again != want {
		t.Fatalf("%s: the envelope Encode returned encodes to %q, %v; want %q", name, again, err, want)
	}
	// Extend from every shorter prefix's encoding gives the same, as a
	// merge appending sigs[n:] to a version of sigs[:n] asks it.
	for n := 0; n <= len(sigs); n++ {
		_, prev, err := e.Encode(sigs[:n])
		if err != nil {
			t.Fatal(err)
		}
		extEnv, ext, err := e.Extend(prev, sigs, n)
		if err != nil || ext != want {
			t.Fatalf("%s: Extend(Encode(sigs[:%d]), %d signatures) = %q, %v; want %q", name, n, len(sigs), ext, err, want)
		}
		if again, err := ledger.EncodeEnvelope(extEnv); err != nil || again != want {
			t.Fatalf("%s: the envelope Extend returned encodes to %q, %v; want %q", name, again, err, want)
		}
	}
}

// TestEnvelopeEncoderExtendCopies: Extend's fast path copies prev's
// characters for the signatures both lists hold (a prev that is not
// sigs[:n]'s encoding shows through where its own signatures differ in
// the middle), and its checks send a prev that is plainly another list's,
// or a signature not 64 bytes long, to Encode.
func TestEnvelopeEncoderExtendCopies(t *testing.T) {
	for name, env := range encoderEnvelopes(t) {
		if name == "fee-bump" {
			continue
		}
		e := ledger.NewEnvelopeEncoder(env)
		sigs := signaturesOf([]int{64, 64, 64, 64, 64, 64})
		_, want, err := e.Encode(sigs)
		if err != nil {
			t.Fatal(err)
		}
		// Another list of 4 whose middle differs: copied, not encoded.
		other := append(signaturesOf([]int{64, 64, 64, 64})[:0:0], sigs[:4]...)
		other[1] = xdr.DecoratedSignature{Hint: other[1].Hint, Signature: make([]byte, 64)}
		_, prevOther, _ := e.Encode(other)
		if _, got, _ := e.Extend(prevOther, sigs, 4); got == want {
			t.Fatalf("%s: Extend encoded the signatures prev holds instead of copying them", name)
		}
		// prev of another length, or ending in another signature, or
		// a 63-byte signature: Encode's answer.
		_, prev3, _ := e.Encode(sigs[:3])
		last := append(signaturesOf([]int{64, 64, 64, 64})[:0:0], sigs[:4]...)
		last[3] = xdr.DecoratedSignature{Hint: last[3].Hint, Signature: make([]byte, 64)}
		_, prevLast, _ := e.Encode(last)
		short := append(signaturesOf(nil), sigs...)
		short[5] = xdr.DecoratedSignature{Hint: short[5].Hint, Signature: make([]byte, 63)}
		_, wantShort, _ := e.Encode(short)
		for _, c := range []struct {
			what, prev string
			sigs       []xdr.DecoratedSignature
			want       string
		}{
			{"prev of 3 signatures for n=4", prev3, sigs, want},
			{"prev ending in another signature", prevLast, sigs, want},
			{"a 63-byte signature", prevLast, short, wantShort},
		} {
			if _, got, err := e.Extend(c.prev, c.sigs, 4); err != nil || got != c.want {
				t.Errorf("%s, %s: Extend = %q, %v; want Encode's %q", name, c.what, got, err, c.want)
			}
		}
	}
}

// BenchmarkEnvelopeEncoder is one merge's encoding of a version of a close
// (the load kit's 20-signer accounts: 11 signatures, the middle of a plan's
// life), afresh (Encode) and from the version before (Extend).
func BenchmarkEnvelopeEncoder(b *testing.B) {
	env := encoderEnvelopes(b)["v1 "]
	e := ledger.NewEnvelopeEncoder(env)
	lengths := make([]int, 11)
	for i := range lengths {
		lengths[i] = 64
	}
	sigs := signaturesOf(lengths)
	_, prev, err := e.Encode(sigs[:10])
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := e.Encode(sigs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Extend", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := e.Extend(prev, sigs, 10); err != nil {
				b.Fatal(err)
			}
		}
	})
}
