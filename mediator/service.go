package mediator

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/xdr"
)

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
// Errors: INVALID_DESTINATION (400), checked before configuration
// (CONTRACT section 8); MEDIATOR_NOT_CONFIGURED (500); or a plain internal
// error if the random source fails.
func (s *Service) Mint(destination string) (flowToken, mediatorPublicKey string, err error) {
	if !ValidDestination(destination) {
		return "", "", errcode.New(errcode.InvalidDestination, "destination must be a G… account address")
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
// INVALID_DESTINATION (400); INVALID_MEMO (400); MEDIATOR_NOT_CONFIGURED
// (500); or a plain internal error if the random source fails.
func (s *Service) MintMemo(destination, memo string) (flowToken, mediatorPublicKey string, err error) {
	if !ValidDestination(destination) {
		return "", "", errcode.New(errcode.InvalidDestination, "destination must be a G… account address")
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
// order: BAD_NETWORK (400) unless network is exactly mainnet, testnet or
// futurenet (ledger.ParseNetwork: there is no fallback here, the co-signer
// must never sign under a network the client did not name);
// MEDIATOR_NOT_CONFIGURED (500); INVALID_FLOW_TOKEN (400); the 13 forward
// codes (400), with FORWARD_MEMO_NOT_COMMITTED after
// FORWARD_DESTINATION_NOT_COMMITTED when the token commits a memo
// (ForwardCodesWithMemo). Then the flow's derived key signs the transaction
// hash under network's passphrase, and the envelope comes back with that
// signature appended, together with the hash in lowercase hex.
//
// Posting an envelope that already carries this flow's signature returns it
// unchanged rather than adding a duplicate, which the ledger would refuse. An
// envelope that already holds ledger.MaxSignatures (20) other signatures has
// no room for the mediator's and is refused with MALFORMED_XDR.
func (s *Service) Cosign(envelopeXDR, flowToken, networkID string) (signedXDR, hashHex string, err error) {
	network, ok := ledger.ParseNetwork(networkID)
	if !ok {
		return "", "", errcode.New(errcode.BadNetwork, "network must be one of mainnet, testnet, futurenet")
	}
	m, err := s.master()
	if err != nil {
		return "", "", notConfigured(err)
	}
	now := s.now() // one reading, so token expiry and the horizon agree
	flow, ok := VerifyToken(m, flowToken, now)
	if !ok {
		return "", "", errcode.New(errcode.InvalidFlowToken, "flow token is invalid or expired")
	}
	kp, err := m.FlowKeypair(flow.Nonce)
	if err != nil {
		return "", "", fmt.Errorf("mediator: deriving flow key: %w", err)
	}
	env, verr := parseForward(envelopeXDR, kp.Address(), flow.Destination, flow.Memo, now)
	if verr != nil {
		return "", "", verr
	}
	return signForward(env, kp, network.Passphrase())
}

// signForward signs a validated forward's hash under passphrase with the
// flow's key and returns the envelope with the signature added.
func signForward(env xdr.TransactionEnvelope, kp *keypair.Full, passphrase string) (signedXDR, hashHex string, err error) {
	hash, err := ledger.HashEnvelope(env, passphrase)
	if err != nil {
		return "", "", fmt.Errorf("mediator: hashing forward: %w", err)
	}
	sig, err := kp.SignDecorated(hash[:])
	if err != nil {
		return "", "", fmt.Errorf("mediator: signing forward: %w", err)
	}
	env, err = addSignature(env, sig)
	if err != nil {
		return "", "", err
	}
	out, err := ledger.EncodeEnvelope(env)
	if err != nil {
		return "", "", fmt.Errorf("mediator: encoding forward: %w", err)
	}
	return out, hex.EncodeToString(hash[:]), nil
}

// addSignature returns the classic envelope env (parseForward has refused
// every other kind) with sig appended, or env itself when an identical
// signature is already there. An envelope at the ledger's signature cap has
// no room: the SDK's encoder does not enforce the cap, so one more would
// encode into something no decoder (the ledger's included) accepts.
func addSignature(env xdr.TransactionEnvelope, sig xdr.DecoratedSignature) (xdr.TransactionEnvelope, error) {
	sigs := env.Signatures()
	for _, have := range sigs {
		if have.Hint == sig.Hint && bytes.Equal(have.Signature, sig.Signature) {
			return env, nil // ed25519 is deterministic: a re-post carries exactly this one
		}
	}
	if len(sigs) >= ledger.MaxSignatures {
		return env, errcode.New(errcode.MalformedXDR,
			"envelope already carries 20 signatures; there is no room for the mediator's")
	}
	return ledger.WithSignatures(env, append(slices.Clip(sigs), sig)), nil
}

// VerifyFlow is the flow check of a publish that hands the relay a flow to
// forward (CONTRACT section 16): MEDIATOR_NOT_CONFIGURED (500) without a
// master; INVALID_FLOW_TOKEN (400) when the token fails verification (the
// same seven checks as Cosign's, so it is fresh now); otherwise the flow
// it commits to, with the flow's mediator address.
func (s *Service) VerifyFlow(flowToken string) (*Flow, string, error) {
	m, err := s.master()
	if err != nil {
		return nil, "", notConfigured(err)
	}
	flow, ok := VerifyToken(m, flowToken, s.now())
	if !ok {
		return nil, "", errcode.New(errcode.InvalidFlowToken, "flow token is invalid or expired")
	}
	kp, err := m.FlowKeypair(flow.Nonce)
	if err != nil {
		return nil, "", fmt.Errorf("mediator: deriving flow key: %w", err)
	}
	return flow, kp.Address(), nil
}

// SignForward is Cosign for the relay's own forward (CONTRACT section 16):
// flowToken is the token the plan was published with, and it must still
// carry the master's MAC (INVALID_FLOW_TOKEN otherwise), but its expiry no
// longer matters: the plan kept the flow past it. The mediator, the
// destination and the memo are the token's, never a caller's word, so a
// plan record rewritten in the store cannot turn the relay into a signer
// of another payment. Everything else is Cosign's: the envelope must pass
// the same validation (the 13 forward codes and FORWARD_MEMO_NOT_COMMITTED)
// and is signed with the flow's derived key under network's passphrase.
func (s *Service) SignForward(envelopeXDR, flowToken string, network ledger.Network) (signedXDR, hashHex string, err error) {
	if network.Passphrase() == "" {
		return "", "", errcode.New(errcode.BadNetwork, "network must be one of mainnet, testnet, futurenet")
	}
	m, err := s.master()
	if err != nil {
		return "", "", notConfigured(err)
	}
	flow, ok := verifyToken(m, flowToken, s.now(), false)
	if !ok {
		return "", "", errcode.New(errcode.InvalidFlowToken, "flow token is invalid")
	}
	kp, err := m.FlowKeypair(flow.Nonce)
	if err != nil {
		return "", "", fmt.Errorf("mediator: deriving flow key: %w", err)
	}
	env, verr := parseForward(envelopeXDR, kp.Address(), flow.Destination, flow.Memo, s.now())
	if verr != nil {
		return "", "", verr
	}
	return signForward(env, kp, network.Passphrase())
}

// KeptFlow verifies a flow token as a plan keeps it, for a record read
// from the cluster's store (CONTRACT section 9, round 4): the token must
// carry the master's MAC (INVALID_FLOW_TOKEN otherwise) but its expiry no
// longer matters, as for SignForward. It returns the flow the token commits
// to and the flow's mediator address; MEDIATOR_NOT_CONFIGURED without a
// master.
func (s *Service) KeptFlow(flowToken string) (*Flow, string, error) {
	m, err := s.master()
	if err != nil {
		return nil, "", notConfigured(err)
	}
	flow, ok := verifyToken(m, flowToken, s.now(), false)
	if !ok {
		return nil, "", errcode.New(errcode.InvalidFlowToken, "flow token is invalid")
	}
	kp, err := m.FlowKeypair(flow.Nonce)
	if err != nil {
		return nil, "", fmt.Errorf("mediator: deriving flow key: %w", err)
	}
	return flow, kp.Address(), nil
}

// FlowAddress is the G… address of the mediator of the flow with nonce:
// the account a relay-run forward reads and spends from.
func (s *Service) FlowAddress(nonce string) (string, error) {
	m, err := s.master()
	if err != nil {
		return "", notConfigured(err)
	}
	kp, err := m.FlowKeypair(nonce)
	if err != nil {
		return "", fmt.Errorf("mediator: deriving flow key: %w", err)
	}
	return kp.Address(), nil
}
