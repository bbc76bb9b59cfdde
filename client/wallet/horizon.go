package wallet

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	horizonapi "github.com/closerelay/closerelay/ledgerapi/horizon"
	"github.com/stellar/go-stellar-sdk/clients/horizonclient"
	hProtocol "github.com/stellar/go-stellar-sdk/protocols/horizon"
)

// ErrAccountNotFound is returned (wrapped) when the account API does not know
// the account: it does not exist on that network, or was already merged.
var ErrAccountNotFound = errors.New("wallet: account not found")

// Account is what the threshold check and the builders need of an account.
type Account struct {
	ID            string
	Sequence      int64
	HighThreshold int
	Signers       []Signer
}

// Signer is one of an account's signers as the account API lists it.
type Signer struct {
	Key    string // G… for ed25519 keys; other types list other strkeys
	Weight int
	Type   string // e.g. "ed25519_public_key"
}

// AccountAPI reads accounts; *Horizon implements it, tests may fake it.
type AccountAPI interface {
	Account(ctx context.Context, id string) (Account, error)
}

var _ AccountAPI = (*Horizon)(nil)

// Horizon reads accounts from a Horizon server through the SDK's
// horizonclient, one base URL per network.
type Horizon struct {
	url  string
	http *http.Client
}

// NewHorizon returns a reader of the Horizon at baseURL; hc nil means a
// client of its own. Answers are size-capped as the relay's are
// (horizonapi.CapBody), on a copy of hc, so the caller's client is unchanged.
func NewHorizon(baseURL string, hc *http.Client) *Horizon {
	capped := &http.Client{}
	if hc != nil {
		*capped = *hc
	}
	capped.Transport = horizonapi.CapBody(capped.Transport)
	return &Horizon{url: strings.TrimSuffix(baseURL, "/"), http: capped}
}

// Account reads one account. ctx bounds the call: the SDK's AccountDetail
// takes no context, so the request is sent through a horizonapi.HorizonDoer.
func (h *Horizon) Account(ctx context.Context, id string) (Account, error) {
	hc := &horizonclient.Client{HorizonURL: h.url, HTTP: &horizonapi.HorizonDoer{Ctx: ctx, Client: h.http}}
	acc, err := hc.AccountDetail(horizonclient.AccountRequest{AccountID: id})
	if err != nil {
		if ctx.Err() != nil {
			return Account{}, ctx.Err()
		}
		var herr *horizonclient.Error
		if errors.As(err, &herr) && herr.Problem.Status == http.StatusNotFound {
			return Account{}, fmt.Errorf("%w: %s", ErrAccountNotFound, id)
		}
		return Account{}, fmt.Errorf("wallet: read account %s: %w", id, err)
	}
	if acc.AccountID != id {
		return Account{}, fmt.Errorf("wallet: the account API answered for %s instead of %s", acc.AccountID, id)
	}
	return fromHorizon(acc), nil
}

func fromHorizon(acc hProtocol.Account) Account {
	out := Account{ID: acc.AccountID, Sequence: acc.Sequence, HighThreshold: int(acc.Thresholds.HighThreshold)}
	for _, s := range acc.Signers {
		out.Signers = append(out.Signers, Signer{Key: s.Key, Weight: int(s.Weight), Type: s.Type})
	}
	return out
}
