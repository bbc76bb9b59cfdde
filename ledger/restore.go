package ledger

import (
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

// The refusals of a stored plan (RestorePlan, RestoreSignatures): the
// cluster's store is shared, and whatever can write it is not trusted with
// a plan (CONTRACT section 9, round 4). Each failure wraps one of these, so
// that the caller can count it by kind.
var (
	// ErrStoredEnvelope: the stored envelope does not decode as a classic
	// account close.
	ErrStoredEnvelope = errors.New("ledger: the stored envelope is not a close that decodes")
	// ErrStoredHash: the stored envelope's transaction hash on the plan's
	// network is not the plan's id: another transaction.
	ErrStoredHash = errors.New("ledger: the stored envelope does not hash to its plan's id")
	// ErrStoredSignature: a stored signature does not verify under the
	// signer it is recorded with, or the signatures and their signer
	// indexes disagree.
	ErrStoredSignature = errors.New("ledger: a stored signature does not verify")
	// ErrStoredFields: a stored field disagrees with the envelope or is out
	// of its bounds (network, closing account, threshold, expiry).
	ErrStoredFields = errors.New("ledger: the stored plan's fields disagree with its envelope")
)

// RestoreSignatures rebuilds the admitted signatures of an envelope that a
// plan's entry holds (CONTRACT section 12): signerOf[i] is the index in c's
// signer set of signature i's signer, as the writing instance admitted it.
//
// The envelope must be c's transaction (its bytes before the signature list
// are c's, or it decodes and hashes to c.Hash on c's network: the hash binds
// every operation, so it is exactly the published close), with one signer
// index per signature, each naming a signer of the set whose canonical hint
// the signature carries, no signer twice, at most MaxSignatures, and every
// signature verifying under its signer's key over c.Hash (stellar-core's
// rule). held reports the signatures the caller holds already, admitted
// against the same c: those are not verified again, so taking in another
// instance's change costs one verification per signature new here, not one
// per signature stored. held may be nil (verify every one). A record that
// fails is refused whole, never half taken; the error wraps one of the
// ErrStored kinds.
func RestoreSignatures(c *Canonical, envelopeXDR string, signerOf []int, held func(signer int, sig []byte) bool) ([]Admitted, error) {
	sigs, same := fastSignatures(c.unsigned, envelopeXDR)
	if !same {
		env, err := DecodeEnvelope(envelopeXDR)
		if err != nil || env.IsFeeBump() || !isClassic(env) {
			return nil, fmt.Errorf("%w: it is not a classic transaction envelope", ErrStoredEnvelope)
		}
		if hash, err := HashEnvelope(env, c.Passphrase); err != nil || hash != c.Hash {
			return nil, fmt.Errorf("%w: another transaction than the plan's", ErrStoredHash)
		}
		sigs = env.Signatures()
	}
	if len(sigs) != len(signerOf) {
		return nil, fmt.Errorf("%w: the envelope has %d signatures and %d signer indexes", ErrStoredSignature, len(sigs), len(signerOf))
	}
	if len(sigs) > MaxSignatures {
		return nil, fmt.Errorf("%w: the envelope has %d signatures, more than %d", ErrStoredSignature, len(sigs), MaxSignatures)
	}
	signers := c.Signers.Signers()
	seen := make([]bool, len(signers))
	admitted := make([]Admitted, len(sigs))
	for i, sig := range sigs {
		s := signerOf[i]
		switch {
		case s < 0 || s >= len(signers):
			return nil, fmt.Errorf("%w: signature %d names signer %d of %d", ErrStoredSignature, i, s, len(signers))
		case seen[s]:
			return nil, fmt.Errorf("%w: the envelope carries signer %d twice", ErrStoredSignature, s)
		case sig.Hint != signers[s].Hint:
			return nil, fmt.Errorf("%w: signature %d does not carry its signer's hint", ErrStoredSignature, i)
		case (held == nil || !held(s, sig.Signature)) && !c.Signers.verifies(s, c.Hash, sig.Signature):
			// The hint is anyone's to write: only the key's verification
			// says the signer signed.
			return nil, fmt.Errorf("%w: signature %d does not verify under signer %d", ErrStoredSignature, i, s)
		}
		seen[s] = true
		admitted[i] = Admitted{Signer: s, Sig: sig}
	}
	return admitted, nil
}

// RestorePlan rebuilds, on another instance, plan id that AdmitPlan admitted
// and a plan wrote to the cluster's store: its network, current envelope
// with the signer index of each signature (RestoreSignatures, every
// signature verified), the signer set and thresholds read at publish,
// expiry, closing account and threshold.
//
// Nothing of the record is taken on trust that the envelope can check: the
// envelope is a close (ParseClose) whose hash on n is id, so it is the
// published transaction, operations and all; account is its closing
// account, threshold its CloseThreshold under the set's thresholds, and
// expiry no later than its maxTime allows (PlanExpiry). The signer set and
// its thresholds are the record's word: they were read from the ledger at
// publish, and the ledger has them, not the envelope (a signature under a
// key the set wrongly holds is refused by the ledger at submission).
//
// The restored plan's canonical envelope is the stored one: a plan's merge
// context is its hash, passphrase and signer set, which the signatures do
// not change.
func RestorePlan(id string, n Network, envelopeXDR string, signerOf []int, set *SignerSet, expiry time.Time, account string, threshold int) (*AdmittedPlan, error) {
	if n.Passphrase() == "" {
		return nil, fmt.Errorf("%w: no known network (%q)", ErrStoredFields, string(n))
	}
	c, err := ParseClose(envelopeXDR, n)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrStoredEnvelope, err)
	}
	if hex.EncodeToString(c.Hash[:]) != id {
		return nil, fmt.Errorf("%w: it hashes to %x on %s", ErrStoredHash, c.Hash, n)
	}
	if len(signerOf) == 0 {
		return nil, fmt.Errorf("%w: no signature", ErrStoredSignature)
	}
	switch {
	case c.Account != account:
		return nil, fmt.Errorf("%w: the record names account %s, the close closes %s", ErrStoredFields, account, c.Account)
	case threshold < 1 || threshold != CloseThreshold(c.Envelope, c.Account, set.Thresholds()):
		return nil, fmt.Errorf("%w: threshold %d is not the close's under the set's thresholds", ErrStoredFields, threshold)
	case expiry.IsZero() || expiry.After(PlanExpiry(expiry, c.MaxTime)):
		return nil, fmt.Errorf("%w: expiry %s is past what the close's maxTime allows", ErrStoredFields, expiry)
	case set.Len() > MaxPlanSignerSet:
		return nil, fmt.Errorf("%w: %d signers, more than %d", ErrStoredFields, set.Len(), MaxPlanSignerSet)
	}
	canonical := &Canonical{XDR: envelopeXDR, Passphrase: n.Passphrase(), Hash: c.Hash, Signers: set, unsigned: unsignedPrefix(envelopeXDR, c.Envelope)}
	admitted, err := RestoreSignatures(canonical, envelopeXDR, signerOf, nil)
	if err != nil {
		return nil, err
	}
	return &AdmittedPlan{
		id:        id,
		network:   n,
		canonical: canonical,
		envelope:  c.Envelope,
		admitted:  admitted,
		expiry:    expiry,
		account:   account,
		threshold: threshold,
	}, nil
}
