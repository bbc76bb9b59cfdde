package mediator

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// maxSignatures is the XDR limit on an envelope's signature list; the SDK's
// encoder does not enforce it, so an envelope pushed past it would encode
// into something no decoder (the ledger's included) accepts.
const maxSignatures = 20

// passphrases maps CONTRACT section 2's identifiers, and only those, to the
// SDK's passphrases. There is no fallback here: the co-signer must never sign
// under a network the client did not name.
var passphrases = map[string]string{
	"mainnet":   network.PublicNetworkPassphrase,
	"testnet":   network.TestNetworkPassphrase,
	"futurenet": network.FutureNetworkPassphrase,
}

// Options configure a Service. Only cmd reads the environment; it fills these.
type Options struct {
	// Secret is MEDIATOR_SECRET. Empty means unset: the Service still answers
	// (INVALID_DESTINATION keeps precedence), with MEDIATOR_NOT_CONFIGURED.
	Secret string
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Rand is the nonce source; crypto/rand.Reader when nil.
	Rand io.Reader
}

// Service mints flows and co-signs forwards for the HTTP layer. It is safe for
// concurrent use. Its only state is the memoized master: the secret is parsed
// once, at first use, and the outcome (master or error) is kept, because the
// secret cannot change while the process runs.
type Service struct {
	now  func() time.Time
	rand io.Reader
	// master holds the secret in its closure rather than in a field, so that
	// printing a Service with %+v cannot reveal it.
	master func() (Master, error)
}

// New returns a Service for opts. It does not parse the secret yet: SPEC puts
// the strict seed check at first use.
func New(opts Options) *Service {
	s := &Service{now: opts.Now, rand: opts.Rand}
	if s.now == nil {
		s.now = time.Now
	}
	if s.rand == nil {
		s.rand = rand.Reader
	}
	secret := opts.Secret
	s.master = sync.OnceValues(func() (Master, error) { return ParseMaster(secret) })
	return s
}

// Configured runs (or recalls) the strict secret check: nil, ErrNotConfigured
// or ErrMalformedSecret. cmd may call it at start to log the mediator's state.
func (s *Service) Configured() error {
	_, err := s.master()
	return err
}

// Mint is GET /api/mediator/sign: a fresh, independent flow for destination.
// Errors: CodeInvalidDestination (400), checked before configuration
// (CONTRACT section 8); CodeNotConfigured (500); or a plain internal error if
// the random source fails.
func (s *Service) Mint(destination string) (flowToken, mediatorPublicKey string, err error) {
	if !ValidDestination(destination) {
		return "", "", clientError(CodeInvalidDestination, "destination must be a G… account address")
	}
	m, err := s.master()
	if err != nil {
		return "", "", notConfigured(err)
	}
	return m.Mint(s.rand, destination, s.now())
}

// MintMemo is GET /api/mediator/sign?destination=…&memo=… (CONTRACT section
// 13): a fresh flow whose five-part token also commits the forward's memo.
// memo is the query value, "<type>:<value>" as ParseMemo reads it; it is
// always checked, so an empty memo is refused, never taken for "no memo" (a
// caller without a memo calls Mint). Errors, in this order:
// CodeInvalidDestination (400); CodeInvalidMemo (400); CodeNotConfigured
// (500); or a plain internal error if the random source fails.
func (s *Service) MintMemo(destination, memo string) (flowToken, mediatorPublicKey string, err error) {
	if !ValidDestination(destination) {
		return "", "", clientError(CodeInvalidDestination, "destination must be a G… account address")
	}
	committed, err := ParseMemo(memo)
	if err != nil {
		return "", "", err
	}
	m, err := s.master()
	if err != nil {
		return "", "", notConfigured(err)
	}
	return m.MintMemo(s.rand, destination, committed, s.now())
}

// Cosign is POST /api/mediator/sign after the HTTP layer's own checks. In
// order: CodeBadNetwork (400) unless network is exactly mainnet, testnet or
// futurenet; CodeNotConfigured (500); CodeInvalidFlowToken (400); the 13
// forward codes (400), with CodeMemoNotCommitted after
// CodeDestinationNotCommitted when the token commits a memo
// (ForwardCodesWithMemo). Then the flow's derived key signs the transaction
// hash under network's passphrase, and the envelope comes back with that
// signature appended, together with the hash in lowercase hex.
//
// Posting an envelope that already carries this flow's signature returns it
// unchanged rather than adding a duplicate, which the ledger would refuse. An
// envelope that already holds 20 other signatures has no room for the
// mediator's and is refused with CodeMalformedXDR.
func (s *Service) Cosign(envelopeXDR, flowToken, networkID string) (signedXDR, hashHex string, err error) {
	passphrase, ok := passphrases[networkID]
	if !ok {
		return "", "", clientError(CodeBadNetwork, "network must be one of mainnet, testnet, futurenet")
	}
	m, err := s.master()
	if err != nil {
		return "", "", notConfigured(err)
	}
	now := s.now() // one reading, so token expiry and the horizon agree
	flow, ok := VerifyToken(m, flowToken, now)
	if !ok {
		return "", "", clientError(CodeInvalidFlowToken, "flow token is invalid or expired")
	}
	kp, err := m.FlowKeypair(flow.Nonce)
	if err != nil {
		return "", "", fmt.Errorf("mediator: deriving flow key: %w", err)
	}
	env, verr := parseForward(envelopeXDR, kp.Address(), flow.Destination, flow.Memo, now)
	if verr != nil {
		return "", "", verr
	}
	return signForward(env, kp, passphrase)
}

// signForward signs a validated forward's hash under passphrase with the
// flow's key and returns the envelope with the signature added.
func signForward(env xdr.TransactionEnvelope, kp *keypair.Full, passphrase string) (signedXDR, hashHex string, err error) {
	hash, err := network.HashTransactionInEnvelope(env, passphrase)
	if err != nil {
		return "", "", fmt.Errorf("mediator: hashing forward: %w", err)
	}
	sig, err := kp.SignDecorated(hash[:])
	if err != nil {
		return "", "", fmt.Errorf("mediator: signing forward: %w", err)
	}
	if err := addSignature(&env, sig); err != nil {
		return "", "", err
	}
	out, err := xdr.MarshalBase64(env)
	if err != nil {
		return "", "", fmt.Errorf("mediator: encoding forward: %w", err)
	}
	return out, hex.EncodeToString(hash[:]), nil
}

// addSignature appends sig to a classic envelope (parseForward has refused
// every other kind) unless an identical signature is already there.
func addSignature(env *xdr.TransactionEnvelope, sig xdr.DecoratedSignature) error {
	var sigs *[]xdr.DecoratedSignature
	if env.Type == xdr.EnvelopeTypeEnvelopeTypeTxV0 {
		sigs = &env.V0.Signatures
	} else {
		sigs = &env.V1.Signatures
	}
	for _, have := range *sigs {
		if have.Hint == sig.Hint && bytes.Equal(have.Signature, sig.Signature) {
			return nil // ed25519 is deterministic: a re-post carries exactly this one
		}
	}
	if len(*sigs) >= maxSignatures {
		return &Error{Code: CodeMalformedXDR, Status: http.StatusBadRequest,
			Reason: "envelope already carries 20 signatures; there is no room for the mediator's"}
	}
	*sigs = append(*sigs, sig)
	return nil
}
