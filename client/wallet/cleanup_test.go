package wallet_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The clean-up is checked against the ledger double, which applies each
// operation with stellar-core's rules: a close it builds must land there,
// and the preflight must say so before it is submitted.

const stroopsPerXLM = 10_000_000

type cleanupWorld struct {
	h                     *ledgertest.Handler
	master                *keypair.Full
	account, dest, issuer string
	usd, eur, gbp         xdr.Asset
}

func newCleanupWorld(t *testing.T) *cleanupWorld {
	t.Helper()
	w := &cleanupWorld{h: ledgertest.NewHandler(), master: keypair.MustRandom(), dest: keypair.MustRandom().Address(), issuer: keypair.MustRandom().Address()}
	w.account = w.master.Address()
	w.usd = ledgertest.Credit("USD", w.issuer)
	w.eur = ledgertest.Credit("EURC", w.issuer)
	w.gbp = ledgertest.Credit("GBPTOKEN", w.issuer)
	w.h.Fund(w.account, 100*stroopsPerXLM)
	w.h.Fund(w.dest, 5*stroopsPerXLM)
	w.h.Fund(w.issuer, 5*stroopsPerXLM)
	return w
}

func (w *cleanupWorld) params(t *testing.T) wallet.CleanUpParams {
	t.Helper()
	s, err := w.h.ReadState(w.account, w.dest, w.issuer)
	if err != nil {
		t.Fatal(err)
	}
	return wallet.CleanUpParams{Account: w.account, Destination: w.dest, State: s, Reserved: 1}
}

// land builds the whole close from the clean-up, checks the preflight says
// landable, submits it and checks the account is gone.
func (w *cleanupWorld) land(t *testing.T, p wallet.CleanUpParams) {
	t.Helper()
	prelude, err := wallet.CleanUp(p)
	if err != nil {
		t.Fatalf("clean-up refused: %v", err)
	}
	acc := p.State.Accounts[w.account]
	txs, err := wallet.BuildClose(wallet.CloseParams{Account: w.account, Sequence: acc.Sequence, Destination: w.dest, Prelude: prelude, Timeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if len(txs) != 1 {
		t.Fatalf("%d transactions, want one", len(txs))
	}
	tx, err := txs[0].Sign(network.TestNetworkPassphrase, w.master)
	if err != nil {
		t.Fatal(err)
	}
	env := tx.ToXDR()
	if got := ledger.CheckClose(env, p.State); got.State != ledger.PreflightLandable {
		t.Fatalf("preflight %s %+v, want landable", got.State, got.Blockers)
	}
	b64, err := tx.Base64()
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/transactions", strings.NewReader(url.Values{"tx": {b64}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w.h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		var pb struct {
			Extras struct {
				ResultCodes json.RawMessage `json:"result_codes"`
			} `json:"extras"`
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &pb)
		t.Fatalf("the double refused the close: %d %s", rec.Code, pb.Extras.ResultCodes)
	}
	if _, ok := w.h.Balance(w.account); ok {
		t.Fatal("the account still exists after its close")
	}
}

func TestCleanUpLandsAnAccountWithEverything(t *testing.T) {
	for _, how := range []wallet.AssetDisposal{wallet.AssetsSend, wallet.AssetsReturn} {
		t.Run(string(how), func(t *testing.T) {
			w := newCleanupWorld(t)
			w.h.AddTrustline(w.account, ledgertest.Trustline{Asset: w.usd, Balance: 50 * stroopsPerXLM})
			w.h.AddTrustline(w.account, ledgertest.Trustline{Asset: w.eur})
			w.h.AddTrustline(w.dest, ledgertest.Trustline{Asset: w.usd})
			w.h.AddOffer(w.account, ledgertest.Offer{Selling: w.usd, Buying: ledgertest.Native(), Amount: 10 * stroopsPerXLM, Price: xdr.Price{N: 3, D: 2}})
			w.h.AddOffer(w.account, ledgertest.Offer{Selling: ledgertest.Native(), Buying: w.eur, Amount: 2 * stroopsPerXLM, Price: xdr.Price{N: 1, D: 4}})
			w.h.SetData(w.account, "note", []byte("x"), "")
			w.h.SetData(w.account, "config.memo_required", []byte("1"), "")
			p := w.params(t)
			p.Assets = how
			w.land(t, p)
		})
	}
}

func TestCleanUpRefusals(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(w *cleanupWorld)
		edit  func(p *wallet.CleanUpParams)
		want  string
	}{
		{"immutable", func(w *cleanupWorld) { w.h.SetFlags(w.account, uint32(xdr.AccountFlagsAuthImmutableFlag)) }, nil, "AUTH_IMMUTABLE"},
		{"sponsor", func(w *cleanupWorld) { w.h.SetSponsorship(w.account, 3, 0) }, nil, "pays the reserve of 3 entries"},
		{"pool shares", func(w *cleanupWorld) {
			w.h.AddTrustline(w.account, ledgertest.Trustline{Asset: w.usd})
			w.h.AddTrustline(w.account, ledgertest.Trustline{Pool: &ledgertest.Pool{A: ledgertest.Native(), B: w.usd}})
		}, nil, "withdraw from the pool"},
		{"destination without the trustline", func(w *cleanupWorld) {
			w.h.AddTrustline(w.account, ledgertest.Trustline{Asset: w.usd, Balance: 1})
		}, nil, "--assets return"},
		{"not authorized to send", func(w *cleanupWorld) {
			w.h.AddTrustline(w.account, ledgertest.Trustline{Asset: w.usd, Balance: 1, Unauthorized: true})
		}, func(p *wallet.CleanUpParams) { p.Assets = wallet.AssetsReturn }, "has not authorized"},
		{"no path to sell", func(w *cleanupWorld) {
			w.h.AddTrustline(w.account, ledgertest.Trustline{Asset: w.usd, Balance: 1})
		}, func(p *wallet.CleanUpParams) { p.Assets = wallet.AssetsSell }, "no path sells"},
		{"memo required", func(w *cleanupWorld) { w.h.SetData(w.dest, "config.memo_required", []byte("1"), "") }, nil, "requires a memo"},
		{"too many operations", func(w *cleanupWorld) {
			for i := range 100 {
				w.h.SetData(w.account, fmt.Sprintf("entry-%03d", i), []byte("x"), "")
			}
		}, nil, "more than a transaction's 100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newCleanupWorld(t)
			tc.setup(w)
			p := w.params(t)
			if tc.edit != nil {
				tc.edit(&p)
			}
			_, err := wallet.CleanUp(p)
			var r *wallet.Refusal
			if !errors.As(err, &r) || !strings.Contains(r.Reason, tc.want) {
				t.Fatalf("got %v, want a refusal naming %q", err, tc.want)
			}
		})
	}
}

// TestCleanUpRandomAccountsLand: accounts with any mix of trustlines with
// and without balances, offers selling and buying, and data entries, that
// fit in one transaction, close on the double.
func TestCleanUpRandomAccountsLand(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 17))
	for n := range 300 {
		w := newCleanupWorld(t)
		assets := []xdr.Asset{w.usd, w.eur, w.gbp}
		held := map[int]bool{}
		for i, a := range assets {
			if rng.IntN(2) == 0 {
				continue
			}
			held[i] = true
			w.h.AddTrustline(w.account, ledgertest.Trustline{Asset: a, Balance: []int64{0, 1, 7 * stroopsPerXLM}[rng.IntN(3)]})
			if rng.IntN(2) == 0 {
				w.h.AddTrustline(w.dest, ledgertest.Trustline{Asset: a})
			}
		}
		for range rng.IntN(4) {
			i := rng.IntN(len(assets))
			if !held[i] {
				continue
			}
			if rng.IntN(2) == 0 {
				w.h.AddOffer(w.account, ledgertest.Offer{Selling: ledgertest.Native(), Buying: assets[i], Amount: stroopsPerXLM, Price: xdr.Price{N: 1, D: 3}})
			} else if bal, _ := w.h.ReadState(w.account); bal.Accounts[w.account] != nil {
				w.h.AddOffer(w.account, ledgertest.Offer{Selling: assets[i], Buying: ledgertest.Native(), Amount: 0 + 1, Price: xdr.Price{N: 5, D: 1}})
			}
		}
		for i := range rng.IntN(4) {
			w.h.SetData(w.account, fmt.Sprintf("d%d", i), []byte("v"), "")
		}
		p := w.params(t)
		p.Assets = wallet.AssetsReturn
		if rng.IntN(2) == 0 {
			p.Assets = wallet.AssetsSend
		}
		_, err := wallet.CleanUp(p)
		var r *wallet.Refusal
		if errors.As(err, &r) {
			if p.Assets == wallet.AssetsSend && strings.Contains(r.Reason, "--assets return") {
				continue // a destination without the trustline: refused, as it must be
			}
			t.Fatalf("case %d: refused: %v", n, r)
		}
		t.Run(fmt.Sprint(n), func(t *testing.T) { w.land(t, p) })
	}
}
