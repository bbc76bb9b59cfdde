package wallet_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/internal/relaytest"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// relayFlow starts a relay and mints a flow through it.
func relayFlow(t *testing.T) (*relaytest.Relay, *client.Client, wallet.MediatorFlow) {
	t.Helper()
	r := relaytest.Start(t, relaytest.Options{})
	c, err := client.New(r.URL)
	if err != nil {
		t.Fatal(err)
	}
	dest := keypair.MustRandom().Address()
	minted, err := c.MediatorMint(context.Background(), dest)
	if err != nil {
		t.Fatal(err)
	}
	flow, err := wallet.NewMediatorFlow(minted, dest)
	if err != nil {
		t.Fatal(err)
	}
	return r, c, flow
}

func forwardXDR(t *testing.T, flow wallet.MediatorFlow, now time.Time) string {
	t.Helper()
	_, x := buildForward(t, wallet.ForwardParams{
		Mediator: flow.MediatorPublicKey, Sequence: 1 << 32, Destination: flow.Destination,
		Amount: "40", Memo: txnbuild.MemoID(31337), Now: func() time.Time { return now },
	})
	return x
}

func TestMediatorPlanAndForwardThroughRelay(t *testing.T) {
	r, c, flow := relayFlow(t)
	ctx := context.Background()

	// The mediator plan is a close the relay accepts.
	a := ledgertest.NewAccount(2, 1)
	r.Horizon.AddAccount(a)
	batches, err := wallet.BuildClose(wallet.CloseParams{Account: a.Address, Sequence: 1 << 32, Destination: flow.Destination, Flow: &flow})
	if err != nil {
		t.Fatal(err)
	}
	signed, err := wallet.SignPartial(base64Of(t, batches[0]), "testnet", a.Keys[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Publish(ctx, "testnet", signed); err != nil {
		t.Fatalf("publish the mediator plan: %v", err)
	}

	// The forward is co-signed, and the answer verified.
	x := forwardXDR(t, flow, time.Now())
	out, err := wallet.CosignForward(ctx, c, "testnet", flow, x)
	if err != nil {
		t.Fatalf("CosignForward: %v", err)
	}
	if h := hashOf(t, x); out.Hash != hex.EncodeToString(h[:]) {
		t.Fatalf("hash %s is not the forward's", out.Hash)
	}

	// A forward of another mediator, or to another destination, is refused
	// before anything is sent.
	other := flow
	other.MediatorPublicKey = keypair.MustRandom().Address()
	if _, err := wallet.CosignForward(ctx, c, "testnet", other, x); err == nil {
		t.Fatal("a forward from another source was sent")
	}
	other = flow
	other.Destination = keypair.MustRandom().Address()
	if _, err := wallet.CosignForward(ctx, c, "testnet", other, x); err == nil {
		t.Fatal("a forward to another destination was sent")
	}
}

func TestCosignForwardDetectsAForgedAnswer(t *testing.T) {
	_, _, flow := relayFlow(t)
	x := forwardXDR(t, flow, time.Now())
	// A relay that answers the forward signed by a key of its own.
	h := hashOf(t, x)
	answer, err := json.Marshal(map[string]any{"ok": true, "signedXdr": signedXDR(t, txOf(t, x), keypair.MustRandom()), "hash": hex.EncodeToString(h[:])})
	if err != nil {
		t.Fatal(err)
	}
	forger := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := w.Write(answer); err != nil {
			t.Error(err)
		}
	}))
	defer forger.Close()
	c, err := client.New(forger.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wallet.CosignForward(context.Background(), c, "testnet", flow, x); !errors.Is(err, wallet.ErrNotCosigned) {
		t.Fatalf("CosignForward = %v, want ErrNotCosigned", err)
	}
}

func TestResume(t *testing.T) {
	_, c, flow := relayFlow(t)
	ctx := context.Background()

	// A live forward is sent again as it is.
	live := forwardXDR(t, flow, time.Now())
	rec, err := wallet.NewRecord("testnet", flow, live, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	res, err := wallet.Resume(ctx, c, rec, wallet.ResumeOptions{})
	if err != nil || res.Rebuilt || res.Envelope != live {
		t.Fatalf("Resume live = %+v, %v", res, err)
	}
	if h := hashOf(t, live); res.Hash != hex.EncodeToString(h[:]) {
		t.Fatal("the live forward was not the one co-signed")
	}

	// A forward past its time bound is rebuilt: same sequence, amount and
	// memo, fresh bounds, so a new hash.
	stale := forwardXDR(t, flow, time.Now().Add(-time.Hour))
	if rec, err = wallet.NewRecord("testnet", flow, stale, time.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	res, err = wallet.Resume(ctx, c, rec, wallet.ResumeOptions{})
	if err != nil || !res.Rebuilt {
		t.Fatalf("Resume stale = %+v, %v", res, err)
	}
	if h := hashOf(t, stale); res.Hash == hex.EncodeToString(h[:]) {
		t.Fatal("the stale forward was sent unchanged")
	}
	before, _, err := wallet.ForwardOf(stale)
	if err != nil {
		t.Fatal(err)
	}
	after, maxTime, err := wallet.ForwardOf(res.Envelope)
	if err != nil {
		t.Fatal(err)
	}
	if after.Sequence != before.Sequence || after.Amount != before.Amount || after.Memo != before.Memo || time.Until(maxTime) < 4*time.Minute {
		t.Fatalf("rebuilt %+v (maxTime %v) from %+v", after, maxTime, before)
	}

	// After the flow's expiry nothing is sent.
	res, err = wallet.Resume(ctx, c, rec, wallet.ResumeOptions{Now: func() time.Time { return flow.Expiry }})
	if !errors.Is(err, wallet.ErrFlowExpired) {
		t.Fatalf("Resume after expiry = %+v, %v", res, err)
	}
}

// TestMemoFlowThroughRelay: MediatorMintMemo mints a five-part token through
// the relay's route; a forward with the committed memo is co-signed, a
// stale one is resumed from its record (rebuilt with the same memo), and
// the relay's INVALID_MEMO comes back as a *client.Error.
func TestMemoFlowThroughRelay(t *testing.T) {
	r := relaytest.Start(t, relaytest.Options{})
	c, err := client.New(r.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	dest := keypair.MustRandom().Address()
	memo, err := wallet.ParseMemo("return:" + hex.EncodeToString(make([]byte, 32)))
	if err != nil {
		t.Fatal(err)
	}
	minted, err := c.MediatorMintMemo(ctx, dest, memo.String())
	if err != nil {
		t.Fatal(err)
	}
	flow, err := wallet.NewMemoFlow(minted, dest, memo)
	if err != nil {
		t.Fatal(err)
	}
	txMemo, err := memo.Txn()
	if err != nil {
		t.Fatal(err)
	}
	stale := time.Now().Add(-time.Hour)
	_, x := buildForward(t, wallet.ForwardParams{
		Mediator: flow.MediatorPublicKey, Sequence: 1 << 32, Destination: dest, Amount: "7", Memo: txMemo, Now: func() time.Time { return stale },
	})
	rec, err := wallet.NewRecord("testnet", flow, x, stale)
	if err != nil {
		t.Fatal(err)
	}
	res, err := wallet.Resume(ctx, c, rec, wallet.ResumeOptions{})
	if err != nil || !res.Rebuilt {
		t.Fatalf("Resume of a five-part flow = %+v, %v", res, err)
	}
	if back, _, err := wallet.ForwardOf(res.Envelope); err != nil || back.Memo != txMemo {
		t.Fatalf("the rebuilt forward carries %v, %v", back.Memo, err)
	}

	_, err = c.MediatorMintMemo(ctx, dest, "id:007")
	var apiErr *client.Error
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusBadRequest || apiErr.Code != "INVALID_MEMO" {
		t.Fatalf("MediatorMintMemo(id:007) = %v, want 400 INVALID_MEMO", err)
	}
}
