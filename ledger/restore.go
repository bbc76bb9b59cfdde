package ledger

import (
	"errors"
	"fmt"
	"time"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// RestoreSignatures rebuilds the admitted signatures of an envelope that a
// plan wrote to the cluster's store (CONTRACT section 12): signerOf[i] is the
// index in set of signature i's signer, as the writing instance admitted it.
//
// The writer verified every signature before it wrote it, so nothing is
// verified again here (an instance would otherwise pay one verification per
// signature for every change another instance made). What is checked is
// that the parts agree, the way AdmitPlan's construction guarantees it: the
// envelope decodes, it has one signer index per signature, each index names
// a signer of set whose canonical hint the signature carries, no signer
// twice, and at most MaxSignatures. A record that fails is refused, never
// half taken.
func RestoreSignatures(set *SignerSet, envelopeXDR string, signerOf []int) (xdr.TransactionEnvelope, []Admitted, error) {
	env, err := DecodeEnvelope(envelopeXDR)
	if err != nil {
		return xdr.TransactionEnvelope{}, nil, fmt.Errorf("ledger: stored envelope: %w", err)
	}
	sigs := env.Signatures()
	if len(sigs) != len(signerOf) {
		return xdr.TransactionEnvelope{}, nil, fmt.Errorf("ledger: stored envelope has %d signatures and %d signer indexes", len(sigs), len(signerOf))
	}
	if len(sigs) > MaxSignatures {
		return xdr.TransactionEnvelope{}, nil, fmt.Errorf("ledger: stored envelope has %d signatures, more than %d", len(sigs), MaxSignatures)
	}
	signers := set.Signers()
	seen := make([]bool, len(signers))
	admitted := make([]Admitted, len(sigs))
	for i, sig := range sigs {
		s := signerOf[i]
		if s < 0 || s >= len(signers) {
			return xdr.TransactionEnvelope{}, nil, fmt.Errorf("ledger: stored signature %d names signer %d of %d", i, s, len(signers))
		}
		if seen[s] {
			return xdr.TransactionEnvelope{}, nil, fmt.Errorf("ledger: stored envelope carries signer %d twice", s)
		}
		if sig.Hint != signers[s].Hint {
			return xdr.TransactionEnvelope{}, nil, fmt.Errorf("ledger: stored signature %d does not carry its signer's hint", i)
		}
		seen[s] = true
		admitted[i] = Admitted{Signer: s, Sig: sig}
	}
	return env, admitted, nil
}

// RestorePlan rebuilds, on another instance, a plan that AdmitPlan admitted
// and a plan wrote to the cluster's store: its network, current envelope
// with the signer index of each signature (RestoreSignatures), the signer
// set and thresholds read at publish, expiry, closing account and threshold.
// The restored plan's canonical envelope is the stored one: a plan's merge
// context is its hash, passphrase and signer set, which the signatures do
// not change.
func RestorePlan(n Network, envelopeXDR string, signerOf []int, set *SignerSet, expiry time.Time, account string, threshold int) (*AdmittedPlan, error) {
	if n.Passphrase() == "" {
		return nil, fmt.Errorf("ledger: stored plan has no known network (%q)", string(n))
	}
	if len(signerOf) == 0 {
		return nil, errors.New("ledger: stored plan has no signature")
	}
	canonical, err := NewCanonical(envelopeXDR, n.Passphrase(), set)
	if err != nil {
		return nil, fmt.Errorf("ledger: stored plan: %w", err)
	}
	env, admitted, err := RestoreSignatures(set, envelopeXDR, signerOf)
	if err != nil {
		return nil, err
	}
	if threshold < 1 {
		return nil, fmt.Errorf("ledger: stored plan has threshold %d", threshold)
	}
	return &AdmittedPlan{
		id:        fmt.Sprintf("%x", canonical.Hash),
		network:   n,
		canonical: canonical,
		envelope:  env,
		admitted:  admitted,
		expiry:    expiry,
		account:   account,
		threshold: threshold,
	}, nil
}
