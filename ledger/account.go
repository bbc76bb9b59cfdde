package ledger

import (
	"crypto/ed25519"
	"errors"
	"fmt"

	"github.com/stellar/go-stellar-sdk/strkey"
)

// AccountState is an account's entry as the ledger holds it, in the terms
// both ledger APIs give (Horizon's account JSON, Stellar RPC's AccountEntry).
// It is a plain value: the ledger API backends fill it in, and the rules
// here (the candidate set, and the preflight to come) read it, so that no
// rule depends on which API the relay talks to.
type AccountState struct {
	ID       string // G… strkey
	Sequence int64
	// SeqLedger and SeqTime are the ledger and the close time (Unix
	// seconds) at which Sequence last changed (AccountEntryExtensionV3;
	// Horizon's sequence_ledger and sequence_time), 0 when the ledger
	// never recorded them: min_seq_age and min_seq_ledger_gap count from
	// them.
	SeqLedger  uint32
	SeqTime    uint64
	Thresholds Thresholds
	// Signers is every signer the account lists, in the API's order, the
	// master key included (with its weight, 0 when disabled).
	Signers       []AccountSigner
	NumSubEntries uint32
	NumSponsoring uint32
	NumSponsored  uint32
	Flags         AccountFlags

	// What the preflight (preflight.go) reads besides, when the backend
	// reads it: the native balance and its liabilities, in stroops; the
	// trustlines; the offers, and whether Offers is all of them; the data
	// entries, and which of them another account sponsors.
	Balance                     int64
	NativeBuying, NativeSelling int64
	Trustlines                  []Trustline
	Offers                      []Offer
	OffersComplete              bool
	// OffersRead, when OffersComplete is false, are the offers a ledger
	// API that reads by key looked for (Stellar RPC): one of them missing
	// from Offers is known not to exist.
	OffersRead    []int64
	Data          map[string][]byte
	DataSponsored map[string]bool
	// PoolUseKnown says each credit trustline's PoolUse is the ledger's
	// liquidityPoolUseCount: read from the entry (Stellar RPC), or worked
	// out from the pool-share trustlines listed (Horizon, PoolUseFromShares).
	// When false, a trustline of an account holding pool shares may be one
	// a pool share uses.
	PoolUseKnown bool
	// Incomplete, when not empty, says why the balances or data could not
	// be read: the preflight is then unchecked.
	Incomplete string
}

// AccountSigner is one signer an account lists. Key is the strkey of the
// signer key (G… for an ed25519 key, T… pre-authorized transaction, X…
// hash(x), P… signed payload).
type AccountSigner struct {
	Type   SignerType
	Key    string
	Weight int32
}

// SignerType names a signer key's type as Horizon spells it; the Stellar RPC
// backend maps the XDR signer key types to the same names, so the rules see
// one spelling.
type SignerType string

// The signer key types of the ledger.
const (
	SignerEd25519       SignerType = "ed25519_public_key"
	SignerPreAuthTx     SignerType = "preauth_tx"
	SignerHashX         SignerType = "sha256_hash"
	SignerSignedPayload SignerType = "ed25519_signed_payload"
)

// AccountFlags are the account's authorization flags (AUTH_REQUIRED and the
// others of the AccountEntry's flags).
type AccountFlags struct {
	AuthRequired, AuthRevocable, AuthImmutable, AuthClawbackEnabled bool
}

// The reasons CandidateSet refuses an account's signer list. A real account
// never has either, so the ledger API client treats them as an answer it
// cannot use (ErrAccountUnreachable), not as a property of the account.
var (
	// ErrSignerKey: a signer of type ed25519_public_key whose key is not a
	// G… strkey of 32 bytes.
	ErrSignerKey = errors.New("a signer key is not an ed25519 public key")
	// ErrTooManySigners: more candidates than MaxPlanSignerSet.
	ErrTooManySigners = errors.New("more signers than the ledger allows")
)

// CandidateSet is the account's candidate signer set: the signers of type
// ed25519_public_key with a weight above 0, in the account's order (the
// master key included when its weight is above 0), carrying the account's
// low, medium and high thresholds. Only those keys can sign a transaction
// envelope's signatures the relay recovers; the others (pre-authorized
// transactions, hash(x), signed payloads) never appear as signatures.
func CandidateSet(acc AccountState) (*SignerSet, error) {
	var signers []Signer
	for _, s := range acc.Signers {
		if s.Type != SignerEd25519 || s.Weight <= 0 {
			continue
		}
		raw, err := strkey.Decode(strkey.VersionByteAccountID, s.Key)
		if err != nil || len(raw) != ed25519.PublicKeySize {
			return nil, ErrSignerKey
		}
		signers = append(signers, Signer{Address: s.Key, Key: ed25519.PublicKey(raw), Weight: s.Weight})
	}
	if len(signers) > MaxPlanSignerSet {
		// The ledger cannot hold more; a longer list is not a real account's,
		// and would only lengthen every recovery sweep.
		return nil, ErrTooManySigners
	}
	return NewSignerSet(signers).WithThresholds(acc.Thresholds), nil
}

// Contradiction says how a, as a ledger API answered it, contradicts
// itself, or "" when it does not: its count of sub-entries is below the
// sub-entries it lists (its signers other than the master key, its
// trustlines, two for a pool share's, its offers and its data entries).
// The ledger keeps numSubEntries equal to what the account holds, and a
// listing never shows more than that, so such an answer is not the
// ledger's, and no verdict may be built on it (CONTRACT section 18).
func (a *AccountState) Contradiction() string {
	if listed := a.listed(); int64(a.NumSubEntries) < int64(listed) {
		return fmt.Sprintf("the account API counts %d sub-entries and lists %d", a.NumSubEntries, listed)
	}
	return ""
}

// listed is how many sub-entries a lists.
func (a *AccountState) listed() int {
	n := a.extraSigners(a.ID) + len(a.Offers) + len(a.Data)
	for _, t := range a.Trustlines {
		n++
		if t.IsPoolShare() {
			n++
		}
	}
	return n
}
