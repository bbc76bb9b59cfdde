// Package rpc is the ledgerapi Backend that speaks Stellar RPC's JSON-RPC
// 2.0 (getLedgerEntries, sendTransaction, getTransaction) with net/http
// (CONTRACT section 15).
//
// Like package horizon it decodes the answers into small structs of its
// own: the SDK's clients/rpcclient needs a module the build does not carry,
// and the server binary must link no test hook. The ledger entries
// themselves are XDR, decoded with the SDK's xdr package and read into
// ledger.AccountState by package ledger, so that both backends feed the
// rules one shape. Every failure is a ledgerapi.Unreachable error whose text
// is ours: nothing of an RPC node's answer (a JSON-RPC error's message
// included) reaches a client.
package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/closerelay/closerelay/ledgerapi/horizon"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// MaxKeys is Stellar RPC's bound on the keys of one getLedgerEntries call.
const MaxKeys = 200

// ErrTooManyKeys: Entries was asked for more than MaxKeys keys. RPC would
// refuse the call; it is refused before anything is sent.
var ErrTooManyKeys = errors.New("rpc: more than 200 ledger keys in one read")

// Backend is one network's Stellar RPC endpoint. It bounds nothing itself:
// the ledgerapi.Client that calls it brings the timeout and the slots.
type Backend struct {
	url  string       // the JSON-RPC endpoint, posted to as given
	http *http.Client // its connection pool is the network's calls'
	ids  atomic.Uint64
}

var _ ledgerapi.Backend = (*Backend)(nil)

// New returns the Backend of the Stellar RPC endpoint endpoint (for example
// https://soroban-testnet.stellar.org), whose requests go through rt
// (http.DefaultTransport when nil) with every answer capped
// (horizon.CapBody). A URL that is not http(s) is an error.
func New(endpoint string, rt http.RoundTripper) (*Backend, error) {
	if u, err := url.Parse(endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("not an http(s) URL")
	}
	return &Backend{url: endpoint, http: &http.Client{Transport: horizon.CapBody(rt)}}, nil
}

// Backends is a Backend per network of urls, all through rt (nil for
// http.DefaultTransport). A network whose URL is unusable gets a
// ledgerapi.Unusable saying so, as horizon.Backends does.
func Backends(urls map[ledger.Network]string, rt http.RoundTripper) map[ledger.Network]ledgerapi.Backend {
	out := make(map[ledger.Network]ledgerapi.Backend, len(urls))
	for n, raw := range urls {
		b, err := New(raw, rt)
		if err != nil {
			out[n] = ledgerapi.Unusable{Reason: fmt.Sprintf("the RPC URL for network %s is not an http(s) URL", n)}
			continue
		}
		out[n] = b
	}
	return out
}

// Account implements ledgerapi.Backend: getLedgerEntries of the account's
// key. An account RPC does not hold answers no entry: that is
// ErrNoAccount, as Horizon's 404 is.
func (b *Backend) Account(ctx context.Context, id string) (ledger.AccountState, error) {
	aid, err := xdr.AddressToAccountId(id)
	if err != nil {
		return ledger.AccountState{}, ledgerapi.Unreachable("the account is not a G… address", nil)
	}
	key := xdr.LedgerKey{Type: xdr.LedgerEntryTypeAccount, Account: &xdr.LedgerKeyAccount{AccountId: aid}}
	entries, err := b.Entries(ctx, []xdr.LedgerKey{key})
	if err != nil {
		return ledger.AccountState{}, err
	}
	if len(entries) == 0 {
		return ledger.AccountState{}, ledgerapi.Unreachable("the account API does not know the account", ledgerapi.ErrNoAccount)
	}
	st, err := ledger.AccountFromEntry(entries[0])
	if err != nil {
		return ledger.AccountState{}, ledgerapi.Unreachable("the account API answered an entry that is not an account", nil)
	}
	// The offers, trustlines and data are not listed by this read: the
	// preflight's reads name them (ledgerapi.Client.State).
	return st, nil
}

// Offers implements ledgerapi.Backend: Stellar RPC cannot list an account's
// offers, so it answers none and not complete, without a call.
func (b *Backend) Offers(context.Context, string, int) ([]ledger.Offer, bool, error) {
	return nil, false, nil
}

// CannotList marks a backend that reads entries only by key (ledgerapi's
// Lister).
func (b *Backend) CannotList() {}

// Entries implements ledgerapi.Backend: one getLedgerEntries call of keys,
// at most MaxKeys of them.
func (b *Backend) Entries(ctx context.Context, keys []xdr.LedgerKey) ([]xdr.LedgerEntry, error) {
	if len(keys) > MaxKeys {
		return nil, ledgerapi.Unreachable(fmt.Sprintf("a read names %d ledger entries, more than the %d Stellar RPC reads at once", len(keys), MaxKeys), ErrTooManyKeys)
	}
	if len(keys) == 0 {
		return nil, nil
	}
	params := struct {
		Keys []string `json:"keys"`
	}{Keys: make([]string, len(keys))}
	for i, k := range keys {
		s, err := xdr.MarshalBase64(k)
		if err != nil {
			return nil, ledgerapi.Unreachable("a ledger key does not encode", nil)
		}
		params.Keys[i] = s
	}
	var raw json.RawMessage
	status, err := b.call(ctx, "getLedgerEntries", params, &raw)
	if err != nil {
		return nil, classify(ctx, err, status)
	}
	entries, err := DecodeEntries(raw, len(keys))
	if err != nil {
		return nil, ledgerapi.Unreachable("the account API's ledger entries do not decode", nil)
	}
	return entries, nil
}

// latestAnswer is getLatestLedger's result: closeTime is a string of Unix
// seconds (Stellar RPC 23 and later; an older node gives none).
type latestAnswer struct {
	Sequence  uint32 `json:"sequence"`
	CloseTime string `json:"closeTime"`
}

// Latest implements ledgerapi.Backend with getLatestLedger. An answer
// without a sequence number or a close time (an RPC before version 23) is
// an error: the preflight's rules that need the time cannot be told.
func (b *Backend) Latest(ctx context.Context) (ledger.LatestLedger, error) {
	var a latestAnswer
	status, err := b.call(ctx, "getLatestLedger", nil, &a)
	if err != nil {
		return ledger.LatestLedger{}, classify(ctx, err, status)
	}
	t, err := strconv.ParseInt(a.CloseTime, 10, 64)
	if a.Sequence == 0 || err != nil || t <= 0 {
		return ledger.LatestLedger{}, ledgerapi.Unreachable("the account API's latest ledger has no sequence number or close time", nil)
	}
	return ledger.LatestLedger{Sequence: a.Sequence, CloseTime: time.Unix(t, 0).UTC()}, nil
}

// entriesAnswer is getLedgerEntries' result.
type entriesAnswer struct {
	Entries []struct {
		Key          string `json:"key"`
		XDR          string `json:"xdr"`
		LastModified uint32 `json:"lastModifiedLedgerSeq"`
		Ext          string `json:"extXdr"`
	} `json:"entries"`
	LatestLedger uint32 `json:"latestLedger"`
}

// DecodeEntries reads a getLedgerEntries result that answered a read of
// asked keys: each entry's data (LedgerEntryData, base64 XDR), its
// extension when given (the sponsorship) and its last-modified ledger. An
// answer with more entries than keys asked, or one whose XDR does not
// decode, is an error; so is one whose data's key is not the key it
// answers.
func DecodeEntries(raw json.RawMessage, asked int) ([]xdr.LedgerEntry, error) {
	var a entriesAnswer
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, errors.New("the result is not getLedgerEntries'")
	}
	if len(a.Entries) > asked {
		return nil, errors.New("more entries than keys asked")
	}
	out := make([]xdr.LedgerEntry, 0, len(a.Entries))
	for _, e := range a.Entries {
		var le xdr.LedgerEntry
		if err := xdr.SafeUnmarshalBase64(e.XDR, &le.Data); err != nil {
			return nil, errors.New("an entry's data does not decode")
		}
		if e.Ext != "" {
			if err := xdr.SafeUnmarshalBase64(e.Ext, &le.Ext); err != nil {
				return nil, errors.New("an entry's extension does not decode")
			}
		}
		le.LastModifiedLedgerSeq = xdr.Uint32(e.LastModified)
		var key xdr.LedgerKey
		if err := xdr.SafeUnmarshalBase64(e.Key, &key); err != nil {
			return nil, errors.New("an entry's key does not decode")
		}
		own, err := le.LedgerKey()
		if err != nil || !own.Equals(key) {
			return nil, errors.New("an entry is not the one its key names")
		}
		out = append(out, le)
	}
	return out, nil
}

// rpcError is a JSON-RPC error object. Its message is never passed on.
type rpcError struct {
	Code int `json:"code"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("JSON-RPC error %d", e.Code) }

// statusError is a non-2xx HTTP answer, with its Retry-After header.
type statusError struct {
	status     int
	retryAfter string
}

func (e *statusError) Error() string { return fmt.Sprintf("status %d", e.status) }

// errMalformed: a 2xx whose body is not a JSON-RPC answer to our call.
var errMalformed = errors.New("rpc: the answer is not a JSON-RPC response to the call")

// call posts one JSON-RPC call of method with params and decodes its result
// into v. It returns the answer's HTTP status (0 when there was none) and,
// on failure, a *statusError, a *rpcError, errMalformed, or the transport's
// error.
func (b *Backend) call(ctx context.Context, method string, params, v any) (int, error) {
	id := b.ids.Add(1)
	body, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      uint64 `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"` // nil for a method that takes none
	}{"2.0", id, method, params})
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := b.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, &statusError{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After")}
	}
	var answer struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
		Error   *rpcError       `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil {
		if horizon.IsBodyTooLarge(err) {
			return resp.StatusCode, err
		}
		return resp.StatusCode, errMalformed
	}
	if answer.Error != nil {
		return resp.StatusCode, answer.Error
	}
	if answer.JSONRPC != "2.0" || strings.TrimSpace(string(answer.ID)) != fmt.Sprint(id) || len(answer.Result) == 0 || string(answer.Result) == "null" {
		return resp.StatusCode, errMalformed
	}
	if err := json.Unmarshal(answer.Result, v); err != nil {
		return resp.StatusCode, errMalformed
	}
	return resp.StatusCode, nil
}

// classify turns a failed read into an ErrAccountUnreachable whose text is
// built from what we know, never from the upstream's answer.
func classify(ctx context.Context, err error, status int) error {
	var re *rpcError
	switch {
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded), ledgerapi.IsTimeout(err):
		return ledgerapi.Unreachable("the account API did not answer in time", context.DeadlineExceeded)
	case ctx.Err() != nil:
		return ledgerapi.Unreachable("the request was cancelled before the account API answered", ctx.Err())
	case status != 0 && (status < 200 || status > 299):
		return ledgerapi.Unreachable(fmt.Sprintf("the account API answered status %d", status), nil)
	case horizon.IsBodyTooLarge(err):
		return ledgerapi.Unreachable(fmt.Sprintf("the account API's answer is larger than %d bytes", horizon.MaxBody), nil)
	case errors.As(err, &re):
		return ledgerapi.Unreachable(fmt.Sprintf("the account API answered JSON-RPC error %d", re.Code), nil)
	case status != 0:
		return ledgerapi.Unreachable("the account API's answer does not parse", nil)
	}
	return ledgerapi.Unreachable("the account API could not be reached", nil)
}
