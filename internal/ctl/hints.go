package ctl

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/strkey"
)

// What the messages of this file are for: an error that says what to do
// next (issue 26 item 3), a second line after the error itself.

// hintedError is err with what to do about it.
type hintedError struct {
	err  error
	hint string
}

func (e *hintedError) Error() string { return e.err.Error() }
func (e *hintedError) Unwrap() error { return e.err }

// withHint attaches hint to err; Fail prints it after the error.
func withHint(err error, hint string) error { return &hintedError{err, hint} }

// hintFor is what to do about err, or "".
func hintFor(err error) string {
	var h *hintedError
	if errors.As(err, &h) {
		return h.hint
	}
	var apiErr *client.Error
	if errors.As(err, &apiErr) && apiErr.Code == "EXPIRED" {
		return "a transaction past its time bounds can never land: build the close again (closerelayctl build), sign it and publish the new one"
	}
	if errors.As(err, &apiErr) {
		if like := foreignAnswer(apiErr); like != "" {
			return fmt.Sprintf("the server at --%s answered like %s, not like a closerelay relay: point --%s (or %s) at the relay's API address", relayFlag, like, relayFlag, EnvURL)
		}
	}
	if errors.As(err, &apiErr) && apiErr.Code == "NOT_FOUND" {
		// The relay answers an expired plan and one it never had alike.
		return fmt.Sprintf("this relay holds no plan with that id: either it expired (a plan ends 60 s before its close's time bound), and the close must be built and published again, or it was published to another relay: check --%s (or %s)", relayFlag, EnvURL)
	}
	return ""
}

// foreignAnswer names the kind of server that answered e when it was not a
// closerelay relay: Horizon's problem documents, or the plain 404 of Go's
// default mux (a relay's ops listener answers so); "" otherwise. A relay
// answers a JSON error with a code, or (the event stream) a short sentence.
func foreignAnswer(e *client.Error) string {
	switch r := e.Reason; {
	case e.Code != "":
		return ""
	case strings.Contains(r, "stellar.org/horizon-errors"):
		return "Horizon"
	case strings.HasPrefix(r, "{"):
		return "a JSON API of another kind"
	case r == "404 page not found":
		return "a server with no such route (a relay's ops listener answers so)"
	}
	return ""
}

// relayUnreachableError is a relay that could not be dialled: nothing
// listens at the URL, or its host is unknown.
type relayUnreachableError struct {
	url string
	err error
}

func (e *relayUnreachableError) Error() string {
	return fmt.Sprintf("no relay answers at %s (%v)", e.url, e.err)
}
func (e *relayUnreachableError) Unwrap() error { return e.err }

// relayTransport marks the dial failures of requests to the relay, so that
// Fail can say which setting names the relay.
type relayTransport struct {
	base http.RoundTripper
	url  string
}

func (t relayTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(req)
	var op *net.OpError
	if err != nil && errors.As(err, &op) && op.Op == "dial" {
		return nil, &relayUnreachableError{url: t.url, err: err}
	}
	return resp, err
}

// networkNames are the networks --network takes.
var networkNames = []string{"mainnet", "testnet", "futurenet"}

// networkValue is --network: any case, stored in lower case.
type networkValue struct{ p *string }

func (v networkValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}
func (v networkValue) Get() any { return *v.p }
func (v networkValue) Set(s string) error {
	n := strings.ToLower(strings.TrimSpace(s))
	switch {
	case slices.Contains(networkNames, n):
	case slices.Contains([]string{"public", "pubnet", "main", "mainnet-public"}, n):
		// Horizon and the SDKs call it the public network; here it is mainnet.
		return fmt.Errorf("unknown network %q: the public network is called mainnet here", s)
	default:
		msg := fmt.Sprintf("unknown network %q: want mainnet, testnet or futurenet", s)
		if near := Suggest(n, networkNames); near != "" {
			msg += "; did you mean " + near + "?"
		}
		return errors.New(msg)
	}
	*v.p = n
	return nil
}

// unsignedHint explains an UNSIGNED answer to a publish on network: when a
// signature of the closing account's master key verifies under another
// network, that network; otherwise what to check.
func unsignedHint(x, network string) string {
	generic := fmt.Sprintf("the relay found no signature of a signer of the account for %s. A signature is bound to its network: check that --network (or %s) is the network the close was built and signed for, and that a signer signed it (build --sign, or publish --sign)", network, EnvNetwork)
	env, err := ledger.DecodeEnvelope(x)
	if err != nil {
		return generic
	}
	account, err := wallet.CloseAccount(x)
	if err != nil {
		return generic
	}
	pub, err := strkey.Decode(strkey.VersionByteAccountID, account)
	if err != nil {
		return generic
	}
	for _, n := range networkNames {
		if n == network {
			continue
		}
		hash, err := ledger.HashEnvelope(env, ledger.Network(n).Passphrase())
		if err != nil {
			continue
		}
		for _, sig := range env.Signatures() {
			if ed25519.Verify(ed25519.PublicKey(pub), hash[:], sig.Signature) {
				return fmt.Sprintf("the close was signed for %s, not %s: publish it with --network %s (or set %s=%s)", n, network, n, EnvNetwork, n)
			}
		}
	}
	return generic
}
