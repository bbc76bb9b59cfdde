package ledger_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// plan is a published plan's immutable half, built the way publish builds it.
type plan struct {
	acct  ledgertest.Account
	set   *ledger.SignerSet // signer i is acct.Keys[i]
	xdr   string            // the close as signed by the master only
	hash  [32]byte
	canon *ledger.Canonical
}

// newPlan publishes a close of a deterministic account with extra signers
// (plus the master, last), signed by the master.
func newPlan(t testing.TB, extra int) plan {
	t.Helper()
	acct := ledgertest.DeterministicAccount(1, extra, 1)
	set := setOf(acct.Keys...)
	b64, hash := ledgertest.BuildClose(acct.Master, ledgertest.Keypair(999).Address(), 1<<32+1, 0, testPass, acct.Master)
	c, err := ledger.ParseClose(b64, ledger.Testnet)
	if err != nil {
		t.Fatal(err)
	}
	admitted, _, err := ledger.AdmitPlan(t.Context(), gate, c, set, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	canon := admitted.Canonical()
	if canon.Hash != hash {
		t.Fatalf("canonical hash %x, want %x", canon.Hash, hash)
	}
	return plan{acct: acct, set: set, xdr: b64, hash: hash, canon: canon}
}

func TestNewCanonical(t *testing.T) {
	p := newPlan(t, 2)
	fb := ledgertest.FeeBump(p.xdr, ledgertest.Keypair(77), testPass)
	tests := []struct {
		name, xdr, passphrase string
	}{
		{"empty canonical", "", testPass},
		{"empty passphrase", p.xdr, ""},
		{"blank passphrase", p.xdr, " \t"},
		{"undecodable", "AAAA", testPass},
		{"trailing bytes", withTrailing(t, p.xdr, 0, 0, 0, 0), testPass},
		{"fee-bump", fb, testPass},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ledger.NewCanonical(tt.xdr, tt.passphrase, p.set)
			wantCode(t, err, ledger.CodeRejected)
			if c != nil {
				t.Fatal("refused canonical returned a value")
			}
		})
	}
	// Checks run in SPEC order: an empty canonical is reported as such even
	// when the passphrase is empty too.
	_, err := ledger.NewCanonical("", "", p.set)
	if e, ok := err.(*ledger.Error); !ok || e.Reason != "the plan's canonical envelope is empty" {
		t.Errorf("empty canonical and passphrase: %v, want the check 1 reason", err)
	}
	c, err := ledger.NewCanonical(ledgertest.ToV0(p.xdr), testPass, p.set)
	if err != nil || c.Hash != p.hash {
		t.Errorf("v0 canonical = %v, %v; want hash %x", c, err, p.hash)
	}
}

func TestCheckPartial(t *testing.T) {
	p := newPlan(t, 3) // keys 0..2 extra signers, 3 the master
	k := p.acct.Keys
	stranger := ledgertest.Keypair(555)
	unsigned := ledgertest.StripSignatures(p.xdr)
	sign := func(kps ...*keypair.Full) string { return ledgertest.SignXDR(unsigned, testPass, kps...) }
	withSigs := func(sigs ...xdr.DecoratedSignature) string { return ledgertest.AppendSignatures(unsigned, sigs...) }
	sig := func(kp *keypair.Full) xdr.DecoratedSignature { return ledgertest.Signature(p.hash, kp) }
	forged := func(kp *keypair.Full, hint [4]byte) xdr.DecoratedSignature {
		return ledgertest.ForgedSignature(p.hash, kp, hint)
	}
	garbage := xdr.DecoratedSignature{Hint: hintOf(k[0]), Signature: bytes.Repeat([]byte{0xab}, 64)}
	other, _ := ledgertest.BuildClose(p.acct.Master, ledgertest.Keypair(999).Address(), 1<<32+2, 0, testPass, k[0])
	mainnetSigned := ledgertest.SignXDR(unsigned, ledger.Mainnet.Passphrase(), k[1])

	tests := []struct {
		name     string
		partial  string
		known    ledger.KnownFunc
		wantCode ledger.Code
		want     []int
	}{
		{name: "one new signer", partial: sign(k[1]), want: []int{1}},
		{name: "several, envelope order", partial: sign(k[2], k[0], k[3]), want: []int{2, 0, 3}},
		{name: "no signatures", partial: unsigned, want: []int{}},
		{name: "the published envelope again", partial: p.canon.XDR, want: []int{3}},
		{name: "forged hint admitted under the real one", partial: withSigs(forged(k[1], k[0].Hint())), want: []int{1}},
		{name: "one signature under five hints", partial: withSigs(
			sig(k[2]), forged(k[2], k[0].Hint()), forged(k[2], [4]byte{}), forged(k[2], k[1].Hint()), forged(k[2], [4]byte{9, 9, 9, 9}),
		), want: []int{2}},
		{name: "distinct signatures by one signer", partial: withSigs(
			ledgertest.AltSignature(p.hash, k[0], 1), sig(k[1]), ledgertest.AltSignature(p.hash, k[0], 2), sig(k[0]),
		), want: []int{0, 1}},
		{name: "v0 form of the same transaction", partial: ledgertest.ToV0(sign(k[0])), want: []int{0}},

		{name: "non-signer", partial: sign(stranger), wantCode: ledger.CodeRejected},
		{name: "non-signer after a good one", partial: sign(k[0], stranger), wantCode: ledger.CodeRejected},
		{name: "non-signer under a signer's hint", partial: withSigs(forged(stranger, k[0].Hint())), wantCode: ledger.CodeRejected},
		{name: "garbage signature", partial: withSigs(sig(k[0]), garbage), wantCode: ledger.CodeRejected},
		{name: "short signature", partial: withSigs(xdr.DecoratedSignature{Hint: hintOf(k[0]), Signature: sig(k[0]).Signature[:63]}), wantCode: ledger.CodeRejected},
		{name: "another transaction", partial: other, wantCode: ledger.CodeRejected},
		{name: "signed on another network", partial: mainnetSigned, wantCode: ledger.CodeRejected},
		{name: "fee-bump of the plan's transaction", partial: ledgertest.FeeBump(sign(k[0]), k[0], testPass), wantCode: ledger.CodeRejected},
		{name: "empty", partial: "", wantCode: ledger.CodeBadXDR},
		{name: "not base64", partial: "%%%", wantCode: ledger.CodeBadXDR},
		{name: "base64 of garbage", partial: "AAAAAAAAAAAAAAAA", wantCode: ledger.CodeBadXDR},
		{name: "trailing bytes", partial: withTrailing(t, sign(k[0]), 1, 2, 3, 4), wantCode: ledger.CodeBadXDR},

		// The fast path: known's answer is taken without verification. That
		// is why a KnownFunc must only answer for admitted signatures: this
		// one vouches for garbage, and the garbage is admitted.
		{name: "known vouches for garbage", partial: withSigs(garbage), known: knownAs(garbage.Signature, 0), want: []int{0}},
		{name: "known answer out of range ignored", partial: withSigs(garbage), known: knownAs(garbage.Signature, 99), wantCode: ledger.CodeRejected},
		{name: "known answer negative ignored", partial: withSigs(garbage), known: knownAs(garbage.Signature, -1), wantCode: ledger.CodeRejected},
		{name: "known miss falls back to recovery", partial: sign(k[1]), known: knownAs(garbage.Signature, 0), want: []int{1}},
		{name: "first occurrence wins", partial: withSigs(sig(k[2]), garbage, sig(k[1])), known: knownAs(garbage.Signature, 2), want: []int{2, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := p.canon.CheckPartial(t.Context(), gate, tt.partial, tt.known)
			if tt.wantCode != "" {
				wantCode(t, err, tt.wantCode)
				if got != nil {
					t.Fatalf("refused partial returned %v", signerIDs(got))
				}
				return
			}
			if err != nil {
				t.Fatalf("CheckPartial: %v", err)
			}
			if ids := signerIDs(got); !slices.Equal(ids, tt.want) {
				t.Fatalf("admitted %v, want %v", ids, tt.want)
			}
			for _, a := range got {
				if a.Sig.Hint != hintOf(k[a.Signer]) {
					t.Errorf("signer %d stamped with %x, want its hint %x", a.Signer, a.Sig.Hint, k[a.Signer].Hint())
				}
				if tt.known == nil && !ed25519.Verify(p.set.Signers()[a.Signer].Key, p.hash[:], a.Sig.Signature) {
					t.Errorf("signer %d's admitted signature does not verify", a.Signer)
				}
			}
		})
	}
}

// knownAs is a KnownFunc that knows exactly one signature, as signer.
func knownAs(sig []byte, signer int) ledger.KnownFunc {
	return func(b []byte) (int, bool) {
		if bytes.Equal(b, sig) {
			return signer, true
		}
		return 0, false
	}
}

// TestCheckPartialReplaySkipsVerification proves the fast path costs a
// lookup: a signer set whose keys cannot verify anything still accepts a
// replay that known recognises, and the lookup happens once per signature.
func TestCheckPartialReplaySkipsVerification(t *testing.T) {
	p := newPlan(t, 1)
	replay := ledgertest.Signature(p.hash, p.acct.Keys[0])
	// Same hash, same passphrase, but candidates whose keys are wrong:
	// recovery would fail, so success can only come from known.
	blind := &ledger.Canonical{XDR: p.canon.XDR, Passphrase: testPass, Hash: p.hash, Signers: setOf(ledgertest.Keypair(700), ledgertest.Keypair(701))}
	partial := ledgertest.AppendSignatures(ledgertest.StripSignatures(p.xdr), replay)

	if _, err := blind.CheckPartial(t.Context(), gate, partial, nil); ledger.CodeOf(err) != ledger.CodeRejected {
		t.Fatalf("without known: %v, want REJECTED", err)
	}
	calls := 0
	known := func(b []byte) (int, bool) {
		calls++
		return 0, bytes.Equal(b, replay.Signature)
	}
	got, err := blind.CheckPartial(t.Context(), gate, partial, known)
	if err != nil || !slices.Equal(signerIDs(got), []int{0}) {
		t.Fatalf("with known: %v, %v; want signer 0", signerIDs(got), err)
	}
	if calls != 1 {
		t.Errorf("known called %d times, want 1", calls)
	}
}

// TestCheckPartialBigAccount: an account with 20 extra signers plus its
// master has 21 candidates; an envelope carries at most 20 signatures, and
// the result never holds more.
func TestCheckPartialBigAccount(t *testing.T) {
	p := newPlan(t, 20)
	k := p.acct.Keys
	if p.set.Len() != ledger.MaxPlanSignerSet {
		t.Fatalf("set has %d signers, want %d", p.set.Len(), ledger.MaxPlanSignerSet)
	}
	// Every signer but the master, each under the next signer's hint, so
	// every one needs the sweep.
	sigs := make([]xdr.DecoratedSignature, 20)
	for i := range sigs {
		sigs[i] = ledgertest.ForgedSignature(p.hash, k[i], k[(i+1)%len(k)].Hint())
	}
	partial := ledgertest.AppendSignatures(ledgertest.StripSignatures(p.xdr), sigs...)
	got, err := p.canon.CheckPartial(t.Context(), gate, partial, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != ledger.MaxSignatures {
		t.Fatalf("admitted %d, want %d", len(got), ledger.MaxSignatures)
	}
	if all := admitAll(t, p.set, p.hash, append(sigs, ledgertest.Signature(p.hash, p.acct.Master))); len(all) > ledger.MaxSignatures {
		t.Fatalf("AdmitAll returned %d signatures", len(all))
	}
}

// TestCheckPartialEndedContext: a partial whose signature needs a sweep
// stops with the context's error, which carries no code (the client has
// gone), when its request's context has ended; one that needs no sweep is
// checked as usual.
func TestCheckPartialEndedContext(t *testing.T) {
	p := newPlan(t, 3)
	k := p.acct.Keys
	unsigned := ledgertest.StripSignatures(p.xdr)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	sweep := ledgertest.AppendSignatures(unsigned, ledgertest.ForgedSignature(p.hash, k[1], [4]byte{0xde, 0xad, 0xbe, 0xef}))
	if got, err := p.canon.CheckPartial(ctx, gate, sweep, nil); !errors.Is(err, context.Canceled) || ledger.CodeOf(err) != "" || got != nil {
		t.Errorf("a sweep under an ended context: %v, %v; want context.Canceled, uncoded", got, err)
	}
	own := ledgertest.SignXDR(unsigned, testPass, k[1])
	if got, err := p.canon.CheckPartial(ctx, gate, own, nil); err != nil || !slices.Equal(signerIDs(got), []int{1}) {
		t.Errorf("pass one under an ended context: %v, %v; want signer 1", signerIDs(got), err)
	}
}
