package ledger

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"strings"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// KnownFunc reports whether a signature's 64 bytes were already admitted on a
// plan, and by which signer: a replay then costs a lookup, not a
// verification.
//
// CheckPartial trusts the answer without verifying, so a KnownFunc must only
// ever answer for bytes that passed admission against the same plan (same
// hash, same signer set). Fed anything else, it would admit forgeries.
type KnownFunc func(sig []byte) (signer int, ok bool)

// Canonical is the immutable half of a plan that the merge checks need. It is
// safe for concurrent use, so partials are checked in request goroutines,
// outside the plan actor's serial section.
type Canonical struct {
	XDR        string // the envelope as published (canonicalized)
	Passphrase string
	Hash       [32]byte
	Signers    *SignerSet

	// unsigned is XDR's raw bytes before its signature list (see
	// fastSignatures); nil in a Canonical built field by field, which then
	// takes the full checks every time.
	unsigned []byte
}

// NewCanonical runs merge checks 1 to 4 of SPEC "Merge checks", in order, on
// the canonical envelope and computes its hash. Every failure is an *Error
// with CodeRejected: a canonical envelope that fails them is a fault of the
// caller, never of a co-signer's partial.
func NewCanonical(canonicalXDR string, passphrase string, signers *SignerSet) (*Canonical, error) {
	// Check 1.
	if canonicalXDR == "" {
		return nil, rejected("the plan's canonical envelope is empty")
	}
	// Check 2. Whitespace-only counts as empty, as it does for the SDK's
	// hashing, so a passphrase that passes here can always hash.
	if strings.TrimSpace(passphrase) == "" {
		return nil, rejected("the plan's network passphrase is empty")
	}
	// Check 3.
	env, err := DecodeEnvelope(canonicalXDR)
	if err != nil {
		return nil, rejected("the plan's canonical envelope does not decode")
	}
	// Check 4.
	if !isClassic(env) {
		return nil, rejected("the plan's canonical envelope is not a classic transaction")
	}
	hash, err := HashEnvelope(env, passphrase)
	if err != nil {
		return nil, rejected("the plan's canonical transaction cannot be hashed")
	}
	return &Canonical{XDR: canonicalXDR, Passphrase: passphrase, Hash: hash, Signers: signers, unsigned: unsignedPrefix(canonicalXDR, env)}, nil
}

// CheckPartial runs merge checks 5 to 9 of SPEC "Merge checks", in order, on
// one partial and returns its admitted signatures: deduplicated by signer
// (the first occurrence wins), re-stamped with canonical hints, in envelope
// order. A partial without signatures passes with an empty result.
//
// Failures are *Error: CodeBadXDR for an empty or undecodable partial (checks
// 5 and 6), CodeRejected for a fee-bump (7), a different transaction (8) or
// a signature that no candidate recovers (9). One unrecoverable signature
// refuses the whole partial, at once.
//
// known may be nil. When it recognises a signature's bytes, the signature is
// taken as that signer's without verification (see KnownFunc); a replay
// costs a lookup. An answer naming no signer of the set is ignored.
//
// Recovery runs under gate and may wait for a sweep (see SignerSet.Recover):
// when ctx ends before a sweep can start, CheckPartial stops and returns
// ctx's error, which is no *Error (the client has gone; nobody is answered).
//
// Cost: a decoded envelope carries at most MaxSignatures (20) signatures, and
// recovering one costs at most one verification per candidate (MaxPlanSignerSet,
// 21, for a real account), since pass two skips what pass one tried. The
// worst hostile partial, valid signatures under forged hints with an
// unrecoverable one last, therefore costs at most 20 × 21 ed25519
// verifications, and refusal stops the work at the first bad signature.
func (c *Canonical) CheckPartial(ctx context.Context, gate *SweepGate, partial string, known KnownFunc) ([]Admitted, error) {
	// Check 5.
	if partial == "" {
		return nil, &Error{Code: CodeBadXDR, Reason: "the partial envelope is empty"}
	}
	// Checks 6 to 8 pass at once for the plan's own transaction, byte for
	// byte; anything else takes them in full.
	sigs, same := fastSignatures(c.unsigned, partial)
	if !same {
		// Check 6.
		env, err := DecodeEnvelope(partial)
		if err != nil {
			return nil, &Error{Code: CodeBadXDR, Reason: "the partial does not decode as a transaction envelope"}
		}
		// Check 7.
		if env.IsFeeBump() || !isClassic(env) {
			return nil, rejected("the partial is a fee-bump; sign the plan's classic transaction itself")
		}
		// Check 8.
		hash, err := HashEnvelope(env, c.Passphrase)
		if err != nil || hash != c.Hash {
			return nil, rejected("the partial's transaction hash differs from the plan's")
		}
		sigs = env.Signatures()
	}
	// Check 9.
	out := make([]Admitted, 0, len(sigs))
	seen := make([]bool, c.Signers.Len())
	for k, sig := range sigs {
		i, ok := c.lookup(known, sig.Signature)
		if !ok && repeatsAdmitted(out, sig.Signature) {
			continue // the same bytes again, under another hint: a duplicate
		}
		if !ok {
			var err error
			i, ok, err = c.Signers.Recover(ctx, gate, c.Hash, sig)
			if err != nil {
				return nil, err
			}
		}
		if !ok {
			return nil, rejected(fmt.Sprintf("signature %d of the partial does not verify under any signer of the account", k+1))
		}
		if seen[i] {
			continue
		}
		seen[i] = true
		out = append(out, Admitted{Signer: i, Sig: c.Signers.stamp(i, sig)})
	}
	return out, nil
}

// lookup asks known about sig, keeping only answers that name a signer of
// the set, so a confused KnownFunc cannot make CheckPartial index out of
// range.
func (c *Canonical) lookup(known KnownFunc, sig xdr.Signature) (int, bool) {
	if known == nil || len(sig) != ed25519.SignatureSize {
		return 0, false
	}
	i, ok := known(sig)
	if !ok || i < 0 || i >= c.Signers.Len() {
		return 0, false
	}
	return i, true
}

func rejected(reason string) *Error { return &Error{Code: CodeRejected, Reason: reason} }
