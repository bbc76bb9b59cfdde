package rpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/ledgerapi"
	horizonapi "github.com/closerelay/closerelay/ledgerapi/horizon"
	rpcapi "github.com/closerelay/closerelay/ledgerapi/rpc"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/xdr"
)

const pass = network.TestNetworkPassphrase

func rpcBackend(t *testing.T, h *ledgertest.Handler) *rpcapi.Backend {
	t.Helper()
	b, err := rpcapi.New(ledgertest.RPCURL("http://rpc.invalid"), h.Transport())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func horizonBackend(t *testing.T, h *ledgertest.Handler) *horizonapi.Backend {
	t.Helper()
	b, err := horizonapi.New("http://horizon.invalid", h.Transport())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAccountStateMatchesHorizon: the account state read through RPC's
// AccountEntry is the one read through Horizon's account JSON (the master
// key added as a signer, the signers in Horizon's order, the counters from
// the extensions), but for what only the preflight's keyed reads fill in
// (trustlines and their pool use, offers, data).
func TestAccountStateMatchesHorizon(t *testing.T) {
	h := ledgertest.NewHandler()
	a := ledgertest.DeterministicAccount(3, 3, 2)
	h.AddAccount(a)
	h.SetFlags(a.Address, ledgertest.AuthRequired|ledgertest.AuthRevocable)
	h.SetSponsorship(a.Address, 2, 1)
	h.SetSequence(a.Address, 1<<40+9)
	issuer := ledgertest.Keypair(7).Address()
	h.Fund(issuer, 50_000_000)
	h.AddOffer(a.Address, ledgertest.Offer{Selling: ledgertest.Native(), Buying: ledgertest.Credit("USD", issuer), Amount: 10_000_000, Price: xdr.Price{N: 1, D: 2}})
	h.AddTrustline(a.Address, ledgertest.Trustline{Asset: ledgertest.Credit("USD", issuer), Balance: 5})

	got, err := rpcBackend(t, h).Account(t.Context(), a.Address)
	if err != nil {
		t.Fatal(err)
	}
	want, err := horizonBackend(t, h).Account(t.Context(), a.Address)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(want.Signers, func(x, y ledger.AccountSigner) int { return strings.Compare(x.Key, y.Key) })
	want.Trustlines, want.Data, want.DataSponsored, want.Offers, want.OffersComplete, want.PoolUseKnown = nil, nil, nil, nil, false, false
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	if string(gj) != string(wj) {
		t.Fatalf("RPC read\n%s\nHorizon read\n%s", gj, wj)
	}
	if got.NativeSelling == 0 || got.NumSponsoring != 2 || got.NumSponsored != 1 || !got.Flags.AuthRequired || len(got.Signers) != 4 {
		t.Fatalf("the state misses what the double holds: %+v", got)
	}
}

// TestMasterWeightZero: a master key of weight 0 is not a signer, as
// Horizon lists none then.
func TestMasterWeightZero(t *testing.T) {
	h := ledgertest.NewHandler()
	a := ledgertest.DeterministicAccount(4, 2, 1)
	a.Signers[len(a.Signers)-1].Weight = 0
	h.AddAccount(a)
	got, err := rpcBackend(t, h).Account(t.Context(), a.Address)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range got.Signers {
		if s.Key == a.Address {
			t.Fatalf("the master of weight 0 is listed: %+v", got.Signers)
		}
	}
	if len(got.Signers) != 2 {
		t.Fatalf("signers %+v", got.Signers)
	}
}

func TestAccountMissingIsNoAccount(t *testing.T) {
	h := ledgertest.NewHandler()
	_, err := rpcBackend(t, h).Account(t.Context(), ledgertest.Keypair(5).Address())
	if !errors.Is(err, ledgerapi.ErrNoAccount) || !errors.Is(err, ledgerapi.ErrAccountUnreachable) {
		t.Fatalf("err %v", err)
	}
	// Through the client, guard 6's read: ACCOUNT_UNREACHABLE.
	c := ledgertest.InProcessRPCClient(h, time.Second)
	if _, err := c.Signers(t.Context(), ledger.Testnet, ledgertest.Keypair(5).Address()); !errors.Is(err, ledgerapi.ErrAccountUnreachable) {
		t.Fatalf("err %v", err)
	}
}

func TestAccountHangTimesOut(t *testing.T) {
	h := ledgertest.NewHandler()
	defer h.Release()
	a := ledgertest.DeterministicAccount(6, 1, 1)
	h.AddAccount(a)
	h.SetStalled(true)
	c := ledgertest.InProcessRPCClient(h, 50*time.Millisecond)
	_, err := c.Signers(t.Context(), ledger.Testnet, a.Address)
	if !errors.Is(err, ledgerapi.ErrAccountUnreachable) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
}

func TestAccountServerError(t *testing.T) {
	h := ledgertest.NewHandler()
	a := ledgertest.DeterministicAccount(6, 1, 1)
	h.AddAccount(a)
	h.FailRPC("getLedgerEntries", 1, http.StatusBadGateway)
	_, err := rpcBackend(t, h).Account(t.Context(), a.Address)
	if !errors.Is(err, ledgerapi.ErrAccountUnreachable) || !strings.Contains(err.Error(), "status 502") {
		t.Fatalf("err %v", err)
	}
	// The fault is spent: the next read succeeds.
	if _, err := rpcBackend(t, h).Account(t.Context(), a.Address); err != nil {
		t.Fatal(err)
	}
}

// TestBadAnswers: whatever an RPC node answers, a read fails with
// ErrAccountUnreachable and a reason of ours, never a panic nor the
// node's text.
func TestBadAnswers(t *testing.T) {
	a := ledgertest.DeterministicAccount(8, 1, 1)
	other := ledgertest.DeterministicAccount(9, 1, 1)
	h := ledgertest.NewHandler()
	h.AddAccount(other)
	otherEntry := entryJSON(t, h, other.Address)
	key := accountKey(t, a.Address)
	for name, body := range map[string]string{
		"not json":          `{"jsonrpc":"2.0","id":1,"result":`,
		"html":              `<html>secret upstream text</html>`,
		"error object":      `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"secret upstream text"}}`,
		"null result":       `{"jsonrpc":"2.0","id":1,"result":null}`,
		"no result":         `{"jsonrpc":"2.0","id":1}`,
		"wrong id":          `{"jsonrpc":"2.0","id":2,"result":{"entries":[]}}`,
		"not 2.0":           `{"jsonrpc":"1.0","id":1,"result":{"entries":[]}}`,
		"entries not array": `{"jsonrpc":"2.0","id":1,"result":{"entries":7}}`,
		"xdr not base64":    `{"jsonrpc":"2.0","id":1,"result":{"entries":[{"key":"` + key + `","xdr":"%%%","lastModifiedLedgerSeq":1}]}}`,
		"xdr not an entry":  `{"jsonrpc":"2.0","id":1,"result":{"entries":[{"key":"` + key + `","xdr":"AAAAAAAA","lastModifiedLedgerSeq":1}]}}`,
		"bad ext":           `{"jsonrpc":"2.0","id":1,"result":{"entries":[{"key":"` + key + `","xdr":"` + otherEntry + `","extXdr":"AAAABQ==","lastModifiedLedgerSeq":1}]}}`,
		"another account":   `{"jsonrpc":"2.0","id":1,"result":{"entries":[{"key":"` + key + `","xdr":"` + otherEntry + `","lastModifiedLedgerSeq":1}]}}`,
		"too many entries":  `{"jsonrpc":"2.0","id":1,"result":{"entries":[{"key":"x"},{"key":"y"}]}}`,
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = w.Write([]byte(body))
			}))
			defer srv.Close()
			b, err := rpcapi.New(srv.URL, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = b.Account(t.Context(), a.Address)
			if !errors.Is(err, ledgerapi.ErrAccountUnreachable) || errors.Is(err, ledgerapi.ErrNoAccount) {
				t.Fatalf("err %v", err)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Fatalf("the node's text reached the error: %v", err)
			}
		})
	}
}

func TestErrorObjectNamesItsCode(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`))
	}))
	defer srv.Close()
	b, _ := rpcapi.New(srv.URL, nil)
	_, err := b.Account(t.Context(), ledgertest.Keypair(1).Address())
	if err == nil || !strings.Contains(err.Error(), "JSON-RPC error -32601") {
		t.Fatalf("err %v", err)
	}
}

func TestEntriesBound(t *testing.T) {
	h := ledgertest.NewHandler()
	keys := make([]xdr.LedgerKey, rpcapi.MaxKeys+1)
	for i := range keys {
		keys[i] = xdr.LedgerKey{Type: xdr.LedgerEntryTypeAccount, Account: &xdr.LedgerKeyAccount{AccountId: xdr.MustAddress(ledgertest.Keypair(i + 1).Address())}}
	}
	_, err := rpcBackend(t, h).Entries(t.Context(), keys)
	if !errors.Is(err, rpcapi.ErrTooManyKeys) || !errors.Is(err, ledgerapi.ErrAccountUnreachable) {
		t.Fatalf("err %v", err)
	}
	if h.RPCCalls("getLedgerEntries") != 0 {
		t.Fatal("a read of too many keys was sent")
	}
	got, err := rpcBackend(t, h).Entries(t.Context(), keys[:rpcapi.MaxKeys])
	if err != nil || len(got) != 0 {
		t.Fatalf("200 keys: %v %v", got, err)
	}
	if got, err := rpcBackend(t, h).Entries(t.Context(), nil); err != nil || got != nil {
		t.Fatalf("no key: %v %v", got, err)
	}
}

func TestNewRefusesNonHTTP(t *testing.T) {
	for _, u := range []string{"", "ftp://x", "http://", "::"} {
		if _, err := rpcapi.New(u, nil); err == nil {
			t.Errorf("%q accepted", u)
		}
	}
	bs := rpcapi.Backends(map[ledger.Network]string{ledger.Testnet: "nope"}, nil)
	if _, ok := bs[ledger.Testnet].(ledgerapi.Unusable); !ok {
		t.Fatalf("%T", bs[ledger.Testnet])
	}
}

func TestOffersCannotList(t *testing.T) {
	h := ledgertest.NewHandler()
	offers, complete, err := rpcBackend(t, h).Offers(t.Context(), ledgertest.Keypair(1).Address(), 10)
	if offers != nil || complete || err != nil {
		t.Fatalf("%v %v %v", offers, complete, err)
	}
	if h.RPCCalls("getLedgerEntries") != 0 {
		t.Fatal("a call was sent")
	}
}

func accountKey(t *testing.T, id string) string {
	t.Helper()
	k := xdr.LedgerKey{Type: xdr.LedgerEntryTypeAccount, Account: &xdr.LedgerKeyAccount{AccountId: xdr.MustAddress(id)}}
	s, err := xdr.MarshalBase64(k)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// entryJSON is the double's LedgerEntryData of account id, base64.
func entryJSON(t *testing.T, h *ledgertest.Handler, id string) string {
	t.Helper()
	es, err := rpcBackend(t, h).Entries(t.Context(), []xdr.LedgerKey{{Type: xdr.LedgerEntryTypeAccount, Account: &xdr.LedgerKeyAccount{AccountId: xdr.MustAddress(id)}}})
	if err != nil || len(es) != 1 {
		t.Fatalf("%v %v", es, err)
	}
	s, err := xdr.MarshalBase64(es[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// FuzzDecodeEntries: no getLedgerEntries answer makes the decoding panic,
// and what it accepts is entries whose keys are the ones they answer.
func FuzzDecodeEntries(f *testing.F) {
	h := ledgertest.NewHandler()
	a := ledgertest.DeterministicAccount(2, 2, 1)
	h.AddAccount(a)
	k := xdr.LedgerKey{Type: xdr.LedgerEntryTypeAccount, Account: &xdr.LedgerKeyAccount{AccountId: xdr.MustAddress(a.Address)}}
	key, _ := xdr.MarshalBase64(k)
	b, _ := rpcapi.New(ledgertest.RPCURL("http://rpc.invalid"), h.Transport())
	es, _ := b.Entries(context.Background(), []xdr.LedgerKey{k})
	data, _ := xdr.MarshalBase64(es[0].Data)
	f.Add([]byte(`{"entries":[{"key":"`+key+`","xdr":"`+data+`","lastModifiedLedgerSeq":3}],"latestLedger":4}`), 1)
	f.Add([]byte(`{"entries":[]}`), 0)
	f.Add([]byte(`{"entries":[{"key":"`+key+`","xdr":"`+data+`","extXdr":"AAAAAA=="}]}`), 2)
	f.Add([]byte(`{"entries":[{"xdr":"AAAAAAAA"}]}`), 1)
	f.Fuzz(func(t *testing.T, raw []byte, asked int) {
		entries, err := rpcapi.DecodeEntries(raw, asked)
		if err != nil {
			return
		}
		if len(entries) > max(asked, 0) {
			t.Fatalf("%d entries for %d keys", len(entries), asked)
		}
		for _, e := range entries {
			if _, err := e.LedgerKey(); err != nil {
				t.Fatalf("an accepted entry has no key: %v", err)
			}
			if e.Data.Type == xdr.LedgerEntryTypeAccount {
				_, _ = ledger.AccountFromEntry(e)
			}
		}
	})
}
