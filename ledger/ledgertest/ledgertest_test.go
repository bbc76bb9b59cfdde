package ledgertest_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/stellar/go-stellar-sdk/clients/horizonclient"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/strkey"
)

const pass = network.TestNetworkPassphrase

// TestDoubleSpeaksHorizon reads the double with the SDK's own client, not
// ledger's, so the JSON shapes are checked against the real parser.
func TestDoubleSpeaksHorizon(t *testing.T) {
	srv := ledgertest.New()
	defer srv.Close()
	acct := ledgertest.NewAccount(2, 5)
	srv.AddAccount(acct)
	hc := &horizonclient.Client{HorizonURL: srv.URL}

	got, err := hc.AccountDetail(horizonclient.AccountRequest{AccountID: acct.Address})
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != acct.Address || got.AccountID != acct.Address || got.Sequence != 1<<32 {
		t.Errorf("account = %s/%s seq %d", got.ID, got.AccountID, got.Sequence)
	}
	if got.Thresholds != acct.Thresholds || got.Thresholds.HighThreshold != 15 {
		t.Errorf("thresholds = %+v, want %+v", got.Thresholds, acct.Thresholds)
	}
	if len(got.Signers) != 3 || got.Signers[2].Key != acct.Address || got.Signers[0].Weight != 5 {
		t.Errorf("signers = %+v", got.Signers)
	}
	for i, s := range got.Signers {
		if s.Key != acct.Keys[i].Address() || s.Type != "ed25519_public_key" {
			t.Errorf("signer %d = %+v, want key %s", i, s, acct.Keys[i].Address())
		}
	}

	_, err = hc.AccountDetail(horizonclient.AccountRequest{AccountID: ledgertest.Keypair(1).Address()})
	var herr *horizonclient.Error
	if !errors.As(err, &herr) || herr.Problem.Status != 404 || herr.Problem.Type != "https://stellar.org/horizon-errors/not_found" {
		t.Fatalf("unknown account: %v, want Horizon's 404 problem", err)
	}

	srv.Remove(acct.Address)
	if _, err := hc.AccountDetail(horizonclient.AccountRequest{AccountID: acct.Address}); !errors.As(err, &herr) || herr.Problem.Status != 404 {
		t.Fatalf("removed account: %v, want 404", err)
	}
	srv.SetFailing(true)
	if _, err := hc.AccountDetail(horizonclient.AccountRequest{AccountID: acct.Address}); !errors.As(err, &herr) || herr.Problem.Status != 500 {
		t.Fatalf("failing double: %v, want 500", err)
	}
	if n := srv.Requests(); n != 4 {
		t.Errorf("Requests = %d, want 4", n)
	}
}

// TestReleaseFreesStalledRequests: a stalled request ends when the double is
// released, so closing a Server never waits on a patient client.
func TestReleaseFreesStalledRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := ledgertest.NewHandler()
		acct := ledgertest.DeterministicAccount(1, 0, 1)
		h.AddAccount(acct)
		h.SetStalled(true)
		c := ledgertest.InProcessClient(h, time.Hour)
		start := time.Now()
		errc := make(chan error, 1)
		go func() {
			_, err := c.Signers(context.Background(), ledger.Testnet, acct.Address)
			errc <- err
		}()
		synctest.Wait()
		h.Release()
		if err := <-errc; !errors.Is(err, ledgerapi.ErrAccountUnreachable) {
			t.Fatalf("released request: %v, want unreachable", err)
		}
		if d := time.Since(start); d != 0 {
			t.Errorf("released after %v, want at once", d)
		}
	})
}

func TestBuilders(t *testing.T) {
	acct := ledgertest.DeterministicAccount(2, 2, 1)
	if again := ledgertest.DeterministicAccount(2, 2, 1); again.Address != acct.Address || again.Keys[0].Address() != acct.Keys[0].Address() {
		t.Fatal("DeterministicAccount is not deterministic")
	}
	dest := ledgertest.Keypair(50).Address()
	b64, hash := ledgertest.BuildClose(acct.Master, dest, 77, 1_900_000_000, pass, acct.Master)
	c, err := ledger.ParseClose(b64, ledger.Testnet)
	if err != nil {
		t.Fatal(err)
	}
	if c.Hash != hash || c.Account != acct.Address || c.MaxTime != 1_900_000_000 || c.Envelope.SeqNum() != 77 {
		t.Errorf("close = %+v", c)
	}
	if ledgertest.Hash(b64, pass) != hash {
		t.Error("Hash disagrees with BuildClose")
	}

	key := func(i int) ed25519.PublicKey {
		raw, _ := strkey.Decode(strkey.VersionByteAccountID, acct.Keys[i].Address())
		return raw
	}
	signed := ledgertest.SignXDR(b64, pass, acct.Keys[0])
	forged := ledgertest.SignXDRWithHint(signed, pass, acct.Keys[1], [4]byte{1, 2, 3, 4})
	env, err := ledger.DecodeEnvelope(forged)
	if err != nil {
		t.Fatal(err)
	}
	sigs := env.Signatures()
	if len(sigs) != 3 {
		t.Fatalf("%d signatures, want 3", len(sigs))
	}
	if !ed25519.Verify(key(0), hash[:], sigs[1].Signature) || sigs[1].Hint != acct.Keys[0].Hint() {
		t.Error("SignXDR's signature is not valid under its key's hint")
	}
	if !ed25519.Verify(key(1), hash[:], sigs[2].Signature) || sigs[2].Hint != [4]byte{1, 2, 3, 4} {
		t.Error("SignXDRWithHint's signature is not valid under the forged hint")
	}
	if env, _ := ledger.DecodeEnvelope(ledgertest.StripSignatures(forged)); len(env.Signatures()) != 0 {
		t.Error("StripSignatures left signatures")
	}

	alt1, alt2 := ledgertest.AltSignature(hash, acct.Keys[0], 1), ledgertest.AltSignature(hash, acct.Keys[0], 2)
	if bytes.Equal(alt1.Signature, alt2.Signature) || bytes.Equal(alt1.Signature, sigs[1].Signature) {
		t.Error("AltSignature repeats a signature")
	}
	if !ed25519.Verify(key(0), hash[:], alt1.Signature) || !ed25519.Verify(key(0), hash[:], alt2.Signature) {
		t.Error("AltSignature does not verify")
	}

	fb := ledgertest.FeeBump(signed, acct.Keys[1], pass)
	if env, err := ledger.DecodeEnvelope(fb); err != nil || !env.IsFeeBump() {
		t.Errorf("FeeBump = %v, %v", env.Type, err)
	}
	if ledgertest.Hash(ledgertest.ToV0(signed), pass) != hash {
		t.Error("ToV0 changed the hash")
	}
	if _, err := ledger.ParseClose(func() string { b, _ := ledgertest.BuildPayment(acct.Master, dest, 1, pass, acct.Master); return b }(), ledger.Testnet); ledger.CodeOf(err) != ledger.CodeNotAClose {
		t.Errorf("BuildPayment made a close: %v", err)
	}
}
