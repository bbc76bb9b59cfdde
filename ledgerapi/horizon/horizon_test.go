package horizon_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/ledgerapi"
	horizonapi "github.com/closerelay/closerelay/ledgerapi/horizon"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// TestAccountState: every field of ledger.AccountState comes from the
// field of Horizon's account JSON that means it, as the SDK's own types
// encode it (the double serves those types), so the rules read the same
// state whichever backend read it.
func TestAccountState(t *testing.T) {
	h := ledgertest.NewHandler()
	id := ledgertest.Keypair(1).Address()
	other := ledgertest.Keypair(2).Address()
	acc := ledgertest.AccountDetail(id, []horizon.Signer{
		{Key: other, Weight: 3, Type: "ed25519_public_key"},
		{Key: "XDRPF6NZRR7EEVO7ESIWUDXHAOMM2QSKIQQBJK6I2FB7YKDZES5A7HNG", Weight: 1, Type: "sha256_hash"},
		{Key: id, Weight: 1, Type: "ed25519_public_key"},
	}, horizon.AccountThresholds{LowThreshold: 1, MedThreshold: 2, HighThreshold: 3})
	acc.Sequence = 1<<40 + 7
	acc.SubentryCount = 4
	acc.NumSponsoring = 5
	acc.NumSponsored = 6
	acc.Flags = horizon.AccountFlags{AuthRequired: true, AuthClawbackEnabled: true}
	h.SetAccountDetail(acc)

	b, err := horizonapi.New("http://horizon.invalid/", h.Transport())
	if err != nil {
		t.Fatal(err)
	}
	got, err := b.Account(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	want := ledger.AccountState{
		ID:         id,
		Sequence:   1<<40 + 7,
		Thresholds: ledger.Thresholds{Low: 1, Medium: 2, High: 3},
		Signers: []ledger.AccountSigner{
			{Type: ledger.SignerEd25519, Key: other, Weight: 3},
			{Type: ledger.SignerHashX, Key: "XDRPF6NZRR7EEVO7ESIWUDXHAOMM2QSKIQQBJK6I2FB7YKDZES5A7HNG", Weight: 1},
			{Type: ledger.SignerEd25519, Key: id, Weight: 1},
		},
		NumSubEntries: 4,
		NumSponsoring: 5,
		NumSponsored:  6,
		Flags:         ledger.AccountFlags{AuthRequired: true, AuthClawbackEnabled: true},
		Balance:       10_000 * 10_000_000, // AccountDetail's
		Data:          map[string][]byte{},
		PoolUseKnown:  true, // no pool share uses any of its (no) trustlines
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Account = %+v\nwant      %+v", got, want)
	}

	if _, err := b.Account(t.Context(), other); !errors.Is(err, ledgerapi.ErrAccountUnreachable) || !errors.Is(err, ledgerapi.ErrNoAccount) {
		t.Errorf("an account the double does not hold: %v, want ErrAccountUnreachable and ErrNoAccount", err)
	}
	if _, err := b.Entries(t.Context(), []xdr.LedgerKey{{}}); !errors.Is(err, horizonapi.ErrNoEntries) || !errors.Is(err, ledgerapi.ErrAccountUnreachable) {
		t.Errorf("Entries = %v, want ErrNoEntries", err)
	}
}

// TestBackends: a URL that is not http(s) gives its network an Unusable
// backend naming the network, and leaves the others usable.
func TestBackends(t *testing.T) {
	bs := horizonapi.Backends(map[ledger.Network]string{
		ledger.Testnet: "https://horizon-testnet.stellar.org",
		ledger.Mainnet: "ftp://horizon.invalid",
	}, nil)
	if _, ok := bs[ledger.Testnet].(*horizonapi.Backend); !ok {
		t.Errorf("testnet: %T, want *horizon.Backend", bs[ledger.Testnet])
	}
	u, ok := bs[ledger.Mainnet].(ledgerapi.Unusable)
	if !ok || u.Reason != "the account API URL for network mainnet is not an http(s) URL" {
		t.Errorf("mainnet: %#v, want Unusable naming the network", bs[ledger.Mainnet])
	}
	if _, err := horizonapi.New("horizon.invalid", nil); err == nil {
		t.Error("New accepted a URL without a scheme")
	}
}

// answer is a RoundTripper that answers every request with status and body.
type answer struct {
	status int
	body   string
}

func (a answer) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: a.status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(a.body)), Request: req,
	}, nil
}

// FuzzAccount: whatever Horizon answers, an account read through the
// client either succeeds with the account asked for or fails with
// ErrAccountUnreachable whose text carries nothing of the answer; it never
// panics.
func FuzzAccount(f *testing.F) {
	id := ledgertest.Keypair(1).Address()
	good, err := json.Marshal(ledgertest.AccountDetail(id, []horizon.Signer{{Key: id, Weight: 1, Type: "ed25519_public_key"}},
		horizon.AccountThresholds{LowThreshold: 1, MedThreshold: 1, HighThreshold: 1}))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(200, string(good))
	f.Add(200, `{"account_id":"`+id+`","sequence":"12","signers":[{"key":"`+id+`","weight":300,"type":"ed25519_public_key"}]}`)
	f.Add(200, `{"account_id":"`+id+`","sequence":12}`)
	f.Add(200, `{"account_id":"`+id+`","thresholds":{"low_threshold":256}}`)
	f.Add(200, `{"account_id":"`+id+`","signers":[{"key":"GAAAA","weight":1,"type":"ed25519_public_key"}]}`)
	f.Add(404, `{"type":"https://stellar.org/horizon-errors/not_found","status":404}`)
	f.Add(500, `<html>secret</html>`)
	f.Add(200, `[]`)
	f.Fuzz(func(t *testing.T, status int, body string) {
		if status < 100 || status > 999 {
			return
		}
		b, err := horizonapi.New("http://horizon.invalid", answer{status, body})
		if err != nil {
			t.Fatal(err)
		}
		c := ledgerapi.New(ledgerapi.Options{Backends: map[ledger.Network]ledgerapi.Backend{ledger.Testnet: b}, Timeout: time.Second})
		set, err := c.Signers(t.Context(), ledger.Testnet, id)
		if err != nil {
			if !errors.Is(err, ledgerapi.ErrAccountUnreachable) {
				t.Fatalf("err = %v, want ErrAccountUnreachable", err)
			}
			if len(body) >= 8 && strings.Contains(err.Error(), body) {
				t.Fatalf("error %q carries the answer", err)
			}
			return
		}
		if status < 200 || status > 299 || set.Len() > ledger.MaxPlanSignerSet {
			t.Fatalf("status %d answered a set of %d", status, set.Len())
		}
	})
}
