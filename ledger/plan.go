package ledger

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// ErrUnsigned is AdmitPlan's refusal of a close none of whose signatures
// comes from a signer of the account (publish guard 7, UNSIGNED).
var ErrUnsigned = errors.New("ledger: no signature of the close comes from a signer of the account")

// AdmittedPlan is a publish that passed admission (guard 7): everything a
// plan is born with, none of which ever changes. AdmitPlan is its only
// constructor, so its parts always agree: the id is the hex of the
// transaction hash, the envelope carries exactly the admitted signatures in
// their order, the canonical encoding is that envelope's, and every admitted
// signature names a signer of the set and verifies under it.
//
// An AdmittedPlan is immutable and safe for concurrent use; callers must not
// modify what its methods return. The zero value is no plan.
type AdmittedPlan struct {
	id        string
	network   Network
	canonical *Canonical              // the encoding, passphrase, hash and signer set
	envelope  xdr.TransactionEnvelope // canonical: its signatures are admitted's
	admitted  []Admitted              // envelope order, one per signer, at least one
	expiry    time.Time
	account   string // G… address of the account being closed
	threshold int    // CloseThreshold of the close under the set's thresholds
	preflight PreflightRun
}

// AdmitPlan builds the plan that a publish at instant published creates
// from c (as ParseClose returned it, unmodified) and the account's signer
// set: it admits c's signatures (AdmitAllCounted, under gate), computes the
// expiry (PlanExpiry) and the threshold (CloseThreshold under the set's
// thresholds, as the account API read them), and encodes the canonical
// envelope. c is decoded once, by ParseClose, and the plan encoded once,
// here.
//
// counts says what admission did with each signature, for the
// closerelay_signatures_total metric; it is set whenever admission ran,
// ErrUnsigned included. The errors: ErrUnsigned when no signature is
// admitted; ctx's error when ctx ended while a signature waited for a sweep;
// a plain error for a c that ParseClose did not make (a caller's bug).
//
// The expiry is not checked: a publish refuses a past one before the account
// API round trip (EXPIRED after guard 3), and the store again at insert.
func AdmitPlan(ctx context.Context, gate *SweepGate, c *Close, set *SignerSet, published time.Time) (plan *AdmittedPlan, counts SignatureCounts, err error) {
	if c == nil || c.network.Passphrase() == "" {
		return nil, SignatureCounts{}, errors.New("ledger: AdmitPlan needs a Close made by ParseClose")
	}
	admitted, counts, err := AdmitAllCounted(ctx, gate, set, c.Hash, c.Envelope.Signatures())
	if err != nil {
		return nil, SignatureCounts{}, err
	}
	if len(admitted) == 0 {
		return nil, counts, ErrUnsigned
	}
	sigs := make([]xdr.DecoratedSignature, len(admitted))
	for i, a := range admitted {
		sigs[i] = a.Sig
	}
	// WithSignatures copies: the plan shares no signature bytes with c.
	env := WithSignatures(c.Envelope, sigs)
	encoded, err := EncodeEnvelope(env)
	if err != nil {
		return nil, SignatureCounts{}, fmt.Errorf("ledger: encode the canonical envelope: %w", err)
	}
	return &AdmittedPlan{
		id:      hex.EncodeToString(c.Hash[:]),
		network: c.network,
		// Merge checks 1 to 4 hold by construction: the encoding is not
		// empty, the passphrase is a known network's, and the envelope was
		// decoded as a classic transaction. NewCanonical would decode again.
		canonical: &Canonical{XDR: encoded, Passphrase: c.network.Passphrase(), Hash: c.Hash, Signers: set, unsigned: unsignedPrefix(encoded, env)},
		envelope:  env,
		admitted:  admitted,
		expiry:    PlanExpiry(published, c.MaxTime),
		account:   c.Account,
		threshold: CloseThreshold(c.Envelope, c.Account, set.Thresholds()),
	}, counts, nil
}

// ID is the plan id: the lowercase hex of the transaction hash.
func (p *AdmittedPlan) ID() string { return p.id }

// Network is the network the transaction hash is under.
func (p *AdmittedPlan) Network() Network { return p.network }

// Canonical is the plan's merge context: the canonical envelope's encoding,
// the network passphrase, the hash and the signer set.
func (p *AdmittedPlan) Canonical() *Canonical { return p.canonical }

// Envelope is the canonical envelope: the published transaction carrying
// exactly the admitted signatures. Canonical().XDR is its encoding.
func (p *AdmittedPlan) Envelope() xdr.TransactionEnvelope { return p.envelope }

// Admitted lists the admitted signatures in envelope order: at least one, at
// most MaxSignatures, each signer once, each re-stamped with its canonical
// hint.
func (p *AdmittedPlan) Admitted() []Admitted { return p.admitted }

// Expiry is the plan's end of life, PlanExpiry of the publish instant and
// the transaction's maxTime.
func (p *AdmittedPlan) Expiry() time.Time { return p.expiry }

// Account is the G… address of the account being closed.
func (p *AdmittedPlan) Account() string { return p.account }

// WithPreflight is p with the preflight run at its publish (CONTRACT
// section 14), p itself unchanged.
func (p *AdmittedPlan) WithPreflight(run PreflightRun) *AdmittedPlan {
	c := *p
	c.preflight = run
	return &c
}

// Preflight is the preflight run at the plan's publish; the zero value
// (State "") when none was run.
func (p *AdmittedPlan) Preflight() PreflightRun { return p.preflight }

// Threshold is CONTRACT section 10's threshold of the plan: the weight its
// signatures must reach for the ledger to take the close (CloseThreshold of
// the transaction and the closing account's thresholds read at publish), at
// least 1.
func (p *AdmittedPlan) Threshold() int { return p.threshold }
