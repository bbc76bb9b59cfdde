package mediator

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/closerelay/closerelay/errcode"
	mt "github.com/closerelay/closerelay/mediator/mediatortest"
)

// The HTTP layer's view of the service (httpapi.Mediator).
var _ interface {
	Mint(destination string) (flowToken, mediatorPublicKey string, err error)
	MintMemo(destination, memo string) (flowToken, mediatorPublicKey string, err error)
	Cosign(envelopeXDR, flowToken, network string) (signedXDR, hashHex string, err error)
} = (*Service)(nil)

func TestCosign(t *testing.T) {
	svc := newTestService(testSecret)
	for _, tc := range []struct {
		network, passphrase string
		v0                  bool
	}{
		{"mainnet", network.PublicNetworkPassphrase, false},
		{"testnet", network.TestNetworkPassphrase, false},
		{"futurenet", network.FutureNetworkPassphrase, false},
		{"testnet", network.TestNetworkPassphrase, true},
	} {
		t.Run(fmt.Sprintf("%s/v0=%v", tc.network, tc.v0), func(t *testing.T) {
			token, mediator, f := minted(t, svc, testDest)
			f.V0 = tc.v0
			f.Sigs = mt.DummySigs(2)
			signed, hash, err := svc.Cosign(f.B64(), token, tc.network)
			if err != nil {
				t.Fatal(err)
			}
			env := verifyCosigned(t, signed, hash, mediator, tc.passphrase)
			if got := env.Signatures(); len(got) != 3 || !bytes.Equal(got[0].Signature, f.Sigs[0].Signature) || !bytes.Equal(got[1].Signature, f.Sigs[1].Signature) {
				t.Fatal("existing signatures were not kept in order")
			}
			if (env.Type == xdr.EnvelopeTypeEnvelopeTypeTxV0) != tc.v0 {
				t.Fatalf("envelope type changed to %v", env.Type)
			}
			// The signature is bound to the network named in the request.
			for _, other := range []string{network.PublicNetworkPassphrase, network.TestNetworkPassphrase, network.FutureNetworkPassphrase} {
				if other == tc.passphrase {
					continue
				}
				h := must(network.HashTransactionInEnvelope(env, other))
				last := env.Signatures()[2]
				if ed25519.Verify(strkey.MustDecode(strkey.VersionByteAccountID, mediator), h[:], last.Signature) {
					t.Fatal("signature verifies under another network")
				}
			}
			// Re-posting the co-signed envelope adds nothing.
			again, hash2, err := svc.Cosign(signed, token, tc.network)
			if err != nil || again != signed || hash2 != hash {
				t.Fatalf("re-post changed the envelope (err %v)", err)
			}
		})
	}
}

func TestCosignSignatureRoom(t *testing.T) {
	svc := newTestService(testSecret)
	token, mediator, f := minted(t, svc, testDest)
	f.Sigs = mt.DummySigs(19)
	signed, hash, err := svc.Cosign(f.B64(), token, "testnet")
	if err != nil {
		t.Fatal(err)
	}
	if env := verifyCosigned(t, signed, hash, mediator, network.TestNetworkPassphrase); len(env.Signatures()) != 20 {
		t.Fatalf("%d signatures", len(env.Signatures()))
	}
	f.Sigs = mt.DummySigs(20)
	_, _, err = svc.Cosign(f.B64(), token, "testnet")
	if errcode.CodeOf(err) != errcode.MalformedXDR || errcode.StatusOf(err) != http.StatusBadRequest {
		t.Fatalf("full envelope: %v", err)
	}
}

// TestCosignOrder: BAD_NETWORK, then MEDIATOR_NOT_CONFIGURED, then
// INVALID_FLOW_TOKEN, then the forward codes (CONTRACT section 6).
func TestCosignOrder(t *testing.T) {
	good := newTestService(testSecret)
	token, _, f := minted(t, good, testDest)
	valid := f.B64()
	otherToken, otherMediator, _ := minted(t, good, otherDest)
	unset := newTestService("")
	malformed := newTestService(badChecksum)
	foreign := newTestService(otherSecret)

	for _, tc := range []struct {
		name                string
		svc                 *Service
		envelope, tok, netw string
		want                errcode.Code
		status              int
		cause               error
	}{
		{"bad network before configuration", unset, "garbage", "garbage", "TESTNET", errcode.BadNetwork, 400, nil},
		{"configuration before token", unset, "garbage", "garbage", "testnet", errcode.MediatorNotConfigured, 500, ErrNotConfigured},
		{"malformed secret", malformed, valid, token, "testnet", errcode.MediatorNotConfigured, 500, ErrMalformedSecret},
		{"token before envelope", good, "garbage", "garbage", "testnet", errcode.InvalidFlowToken, 400, nil},
		{"token of another master", foreign, valid, token, "testnet", errcode.InvalidFlowToken, 400, nil},
		{"envelope after token", good, "garbage", token, "testnet", errcode.MalformedXDR, 400, nil},
		{"another flow's token: not its mediator", good, valid, otherToken, "testnet", errcode.TxSourceNotMediator, 400, nil},
		{"another flow's mediator, its own destination", good,
			mt.NewForward(otherMediator, testDest, uint64(t0.Unix())+600).B64(), otherToken, "testnet", errcode.DestinationNotCommitted, 400, nil},
		{"success", good, valid, token, "testnet", "", 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := tc.svc.Cosign(tc.envelope, tc.tok, tc.netw)
			if errcode.CodeOf(err) != tc.want || errcode.StatusOf(err) != tc.status {
				t.Fatalf("got %v (status %d), want %s/%d", err, errcode.StatusOf(err), tc.want, tc.status)
			}
			if tc.cause != nil && !errors.Is(err, tc.cause) {
				t.Fatalf("%v does not wrap %v", err, tc.cause)
			}
		})
	}
}

func TestCosignBadNetwork(t *testing.T) {
	svc := newTestService(testSecret)
	token, _, f := minted(t, svc, testDest)
	for _, n := range []string{"", "TESTNET", "Testnet", "public", "pubnet", "mainnet ", " testnet", "testnet\x00", "standalone",
		network.TestNetworkPassphrase} {
		if _, _, err := svc.Cosign(f.B64(), token, n); errcode.CodeOf(err) != errcode.BadNetwork || errcode.StatusOf(err) != 400 {
			t.Errorf("network %q: %v", n, err)
		}
	}
}

func TestServiceMint(t *testing.T) {
	svc := newTestService(testSecret)
	a, pa, err := svc.Mint(testDest)
	if err != nil {
		t.Fatal(err)
	}
	b, pb, _ := minted(t, svc, testDest)
	if a == b || pa == pb {
		t.Fatal("two mints gave the same flow")
	}
	if !strings.HasPrefix(strings.Split(a, ".")[1], fmt.Sprint(t0.Add(TokenLifetime).UnixMilli())) {
		t.Errorf("expiry not from the injected clock: %s", a)
	}

	// INVALID_DESTINATION comes before MEDIATOR_NOT_CONFIGURED (CONTRACT 8).
	for _, s := range []*Service{newTestService(""), newTestService(badChecksum), svc} {
		if _, _, err := s.Mint(mt.Muxed(testDest, 1)); errcode.CodeOf(err) != errcode.InvalidDestination || errcode.StatusOf(err) != 400 {
			t.Errorf("bad destination: %v", err)
		}
	}
	_, _, err = newTestService("").Mint(testDest)
	if errcode.CodeOf(err) != errcode.MediatorNotConfigured || errcode.StatusOf(err) != 500 || !errors.Is(err, ErrNotConfigured) {
		t.Errorf("unset: %v", err)
	}
	_, _, err = newTestService(badChecksum).Mint(testDest)
	if errcode.CodeOf(err) != errcode.MediatorNotConfigured || !errors.Is(err, ErrMalformedSecret) || errors.Is(err, ErrNotConfigured) {
		t.Errorf("malformed: %v", err)
	}

	failing := New(Options{Secret: testSecret, Rand: bytes.NewReader(nil)})
	if _, _, err := failing.Mint(testDest); err == nil || errcode.CodeOf(err) != "" {
		t.Errorf("random failure: %v", err)
	}
}

func TestServiceDefaultsAndConfigured(t *testing.T) {
	svc := New(Options{Secret: testSecret})
	if err := svc.Configured(); err != nil {
		t.Fatal(err)
	}
	// SPEC: the nonce is 16 bytes from a cryptographic source.
	if svc.rand != rand.Reader {
		t.Fatalf("default nonce source is %T, want crypto/rand.Reader", svc.rand)
	}
	token, _, err := svc.Mint(testDest)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := VerifyToken(testMaster(t), token, time.Now()); !ok {
		t.Fatal("token from the default clock and rand does not verify now")
	}
	if !errors.Is(New(Options{}).Configured(), ErrNotConfigured) {
		t.Fatal("empty secret is configured")
	}
	if !errors.Is(New(Options{Secret: badChecksum}).Configured(), ErrMalformedSecret) {
		t.Fatal("bad checksum is configured")
	}
}

// TestCosignExpiry: in a synctest bubble, a forward is co-signed just before
// the token's 15 minutes are up and refused from then on.
func TestCosignExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		svc := New(Options{Secret: testSecret})
		token, mediator, err := svc.Mint(testDest)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(TokenLifetime - time.Nanosecond)
		b64 := mt.NewForward(mediator, testDest, uint64(time.Now().Unix())+60).B64()
		if _, _, err := svc.Cosign(b64, token, "testnet"); err != nil {
			t.Fatalf("just before expiry: %v", err)
		}
		time.Sleep(time.Nanosecond)
		if _, _, err := svc.Cosign(b64, token, "testnet"); errcode.CodeOf(err) != errcode.InvalidFlowToken {
			t.Fatalf("at expiry: %v", err)
		}
	})
}

// TestSecretNeverInErrors drives every failing path with several secrets and
// looks for the secret (and the raw seed) in everything printable.
func TestSecretNeverInErrors(t *testing.T) {
	secrets := []string{testSecret, badChecksum, "S" + strings.Repeat("B", 55), testSecret[:40] + strings.Repeat("Z", 16)}
	for _, secret := range secrets {
		svc := New(Options{Secret: secret, Now: fixedClock(t0)})
		var errs []error
		_, _, err := svc.Mint(testDest)
		errs = append(errs, err, svc.Configured())
		_, _, err = svc.Mint("bad")
		errs = append(errs, err)
		token, mediator, _ := svc.Mint(testDest)
		if mediator == "" {
			mediator = testMediator // unconfigured: any shape will do
		}
		for _, c := range mt.Cases(testMediator, testDest, t0) {
			_, _, err = svc.Cosign(c.B64, token, "testnet")
			errs = append(errs, err)
		}
		_, _, err = svc.Cosign(mt.NewForward(mediator, otherDest, uint64(t0.Unix())+60).B64(), token, "testnet")
		errs = append(errs, err)
		for _, n := range []string{"x", "testnet"} {
			_, _, err = svc.Cosign("x", "x", n)
			errs = append(errs, err)
		}
		_, err = ParseMaster(secret)
		errs = append(errs, err, ParseSecretEnv(secret), ParseSecretEnv(secret+"x"))

		var out strings.Builder
		fmt.Fprintf(&out, "%v %+v %#v\n", svc, svc, *svc)
		for _, err := range errs {
			if err != nil {
				fmt.Fprintf(&out, "%v %+v %#v\n", err, err, err)
				var e *errcode.Error
				if errors.As(err, &e) {
					out.WriteString(e.Reason)
				}
			}
		}
		leaks := []string{secret, secret[1:], secret[10:40]}
		if raw, err := strkey.Decode(strkey.VersionByteSeed, secret); err == nil {
			leaks = append(leaks, hex.EncodeToString(raw), fmt.Sprint(raw[:4]))
		}
		for _, leak := range leaks {
			if strings.Contains(out.String(), leak) {
				t.Fatalf("secret material %q appears in:\n%s", leak, out.String())
			}
		}
	}
}

// TestServiceConcurrent exercises the memo and the shared service from many
// goroutines; -race checks it.
func TestServiceConcurrent(t *testing.T) {
	svc := New(Options{Secret: testSecret, Now: fixedClock(t0)})
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			token, mediator, err := svc.Mint(testDest)
			if err != nil {
				t.Error(err)
				return
			}
			b64 := mt.NewForward(mediator, testDest, uint64(t0.Unix())+60).B64()
			if _, _, err := svc.Cosign(b64, token, "mainnet"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}
