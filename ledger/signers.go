package ledger

import (
	"context"
	"crypto/ed25519"
	"runtime"

	"github.com/closerelay/closerelay/ledger/corever"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// SweepGate bounds recovery's sweeps (pass two of Recover). It is a value
// that the composition root creates once and passes down, not package
// state: one gate is shared by every plan of a relay. A SweepGate is safe for
// concurrent use; the zero value is not usable, use NewSweepGate.
//
// Sweeps are the only unbounded-by-honesty cost of admission: a signature
// under a hint that matches nobody, or an invalid one, costs one
// verification per candidate, and nothing but CPU stops a client from
// sending them. So sweeps are gated twice, while pass one (an honest
// signature under its own hint: one verification) never waits:
//
//   - per plan: at most one sweep at a time for one transaction hash
//     (striped over sweepStripes gates, so two plans may rarely share one,
//     which only serializes their sweeps). Hammering one plan with such
//     signatures therefore takes at most one core, however many connections
//     the hammering uses, and the plan's honest co-signers keep the others.
//   - relay-wide: at most slots sweeps at once (DefaultSweepSlots in
//     production, GOMAXPROCS-1), so that even sweeps spread over many plans
//     leave a core to pass one, replays and the HTTP stack. Each plan has at
//     most one waiter here, and a channel's waiters are served in order, so
//     plans take turns.
//
// Waiting costs a parked goroutine, no CPU, and every wait selects on the
// caller's context: a request whose client has gone stops queueing at once,
// and one whose context has already ended never sweeps. The total work is
// unchanged; it is only kept from crowding out cheap, honest requests.
type SweepGate struct {
	plans [sweepStripes]chan struct{} // one slot each: a plan's sweep in progress
	slots chan struct{}               // capacity slots: the relay's sweeps in progress

	// onVerify, when set, is called before each verification made under
	// this gate. Only tests set it (signers_export_test.go), before the gate is
	// shared, so that they can count verifications, the cost recovery is
	// designed to bound; ed25519.Verify itself stays a direct call so it
	// keeps allocating nothing.
	onVerify func()
}

const sweepStripes = 256

// NewSweepGate returns a gate that lets at most slots sweeps run at once
// (at least one), and at most one per plan.
func NewSweepGate(slots int) *SweepGate {
	g := &SweepGate{slots: make(chan struct{}, max(1, slots))}
	for i := range g.plans {
		g.plans[i] = make(chan struct{}, 1)
	}
	return g
}

// DefaultSweepSlots is the relay-wide sweep limit for production: one less
// than GOMAXPROCS as it is now, and at least one.
func DefaultSweepSlots() int { return max(1, runtime.GOMAXPROCS(0)-1) }

// verify checks sig by stellar-core's rule (corever): a signature Go's
// crypto/ed25519 would accept but the ledger refuses is never admitted, so
// a co-signer cannot make a "complete" plan fail on the ledger.
func (g *SweepGate) verify(key *corever.Key, msg, sig []byte) bool {
	if g.onVerify != nil {
		g.onVerify()
	}
	return key.Verify(msg, sig)
}

// acquire waits for hash's plan gate, then for a relay-wide slot, or for
// ctx to end; on success the caller must release(hash). A context that has
// already ended never takes a gate, even a free one.
func (g *SweepGate) acquire(ctx context.Context, hash [32]byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	plan := g.plans[int(hash[0])%sweepStripes]
	select {
	case plan <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case g.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		<-plan
		return ctx.Err()
	}
}

// release gives back what acquire(hash) took.
func (g *SweepGate) release(hash [32]byte) {
	<-g.slots
	<-g.plans[int(hash[0])%sweepStripes]
}

// HintOf is a public key's canonical signature hint: its last four bytes,
// as the SDK's keypair Hint computes it. A key that is not 32 bytes long has
// no hint and answers the zero hint.
func HintOf(key ed25519.PublicKey) xdr.SignatureHint {
	var h xdr.SignatureHint
	if len(key) == ed25519.PublicKeySize {
		copy(h[:], key[len(key)-4:])
	}
	return h
}

// NewSignerSet builds a candidate set from signers, copying them, so the
// caller may reuse its slice.
//
// Each signer is completed from what it carries: Key is decoded from Address
// when absent, Address is encoded from Key when absent, and Hint is always
// recomputed from Key (a hint supplied by the caller is not trusted). A
// signer whose key is not a 32-byte ed25519 key keeps its index, so indices
// match the input, but it is never a candidate.
//
// Duplicate keys are kept too; recovery always tries lower indices first, so
// a signature always recovers to the lowest index holding its key and a
// duplicate can never count twice.
func NewSignerSet(signers []Signer) *SignerSet {
	s := &SignerSet{
		signers: make([]Signer, len(signers)),
		keys:    make([]*corever.Key, len(signers)),
		byHint:  make(map[xdr.SignatureHint][]int, len(signers)),
	}
	for i, sg := range signers {
		if len(sg.Key) == 0 && sg.Address != "" {
			if raw, err := strkey.Decode(strkey.VersionByteAccountID, sg.Address); err == nil {
				sg.Key = ed25519.PublicKey(raw)
			}
		}
		sg.Key = append(ed25519.PublicKey(nil), sg.Key...)
		if len(sg.Key) == ed25519.PublicKeySize {
			if sg.Address == "" {
				sg.Address, _ = strkey.Encode(strkey.VersionByteAccountID, sg.Key)
			}
			sg.Hint = HintOf(sg.Key)
			// Expanded once per set (a set is read per publish, so once per
			// plan): every verification under this key reuses it. A key the
			// ledger can never verify under (small order, not canonical)
			// stays in the list but is no candidate.
			if key, ok := corever.NewKey(sg.Key); ok {
				s.keys[i] = key
				s.byHint[sg.Hint] = append(s.byHint[sg.Hint], i)
				s.usable++
			}
		} else {
			sg.Hint = xdr.SignatureHint{}
		}
		s.signers[i] = sg
	}
	return s
}

// WithThresholds is s with the account's thresholds t (CONTRACT section 10),
// a new set sharing s's signers: s itself is not changed. NewSignerSet gives
// a set whose thresholds are all 0; the account API client sets the ones it
// reads.
func (s *SignerSet) WithThresholds(t Thresholds) *SignerSet {
	if s == nil {
		s = NewSignerSet(nil)
	}
	c := *s
	c.thresholds = t
	return &c
}

// Thresholds are the account's low, medium and high thresholds, as the set
// was given them (WithThresholds); all 0 for a nil set or one never given
// any.
func (s *SignerSet) Thresholds() Thresholds {
	if s == nil {
		return Thresholds{}
	}
	return s.thresholds
}

// Signers lists the candidates; index i is signer i's stable id. Callers must
// not modify the slice.
func (s *SignerSet) Signers() []Signer {
	if s == nil {
		return nil
	}
	return s.signers
}

// Len is the number of signers in the set; a nil set is empty.
func (s *SignerSet) Len() int {
	if s == nil {
		return 0
	}
	return len(s.signers)
}

// Recover finds the signer whose key verifies sig over hash (SPEC "Signature
// admission", items 1 and 2) and returns its index; ok is false when no
// candidate does.
//
// The hint is attacker-chosen, so it only orders the work: pass one verifies
// against the candidates whose canonical hint equals sig.Hint (normally one,
// so an honest signature costs one verification); pass two sweeps every
// candidate pass one did not try. A signature that is not 64 bytes long
// matches nobody and costs nothing. The worst case, a signature that
// matches nobody, costs one verification per candidate.
//
// Pass one never waits. Pass two waits for its plan's sweep gate and a
// relay-wide slot of gate (see SweepGate), or for ctx: err is ctx's error
// when ctx ended before the sweep could start, and nil otherwise. gate must
// not be nil.
func (s *SignerSet) Recover(ctx context.Context, gate *SweepGate, hash [32]byte, sig xdr.DecoratedSignature) (signer int, ok bool, err error) {
	if s == nil || len(sig.Signature) != ed25519.SignatureSize {
		return 0, false, nil
	}
	msg := hash[:]
	tried := s.byHint[sig.Hint]
	for _, i := range tried {
		if gate.verify(s.keys[i], msg, sig.Signature) {
			return i, true, nil
		}
	}
	if len(tried) == s.usable {
		return 0, false, nil // pass one tried every candidate
	}
	if err := gate.acquire(ctx, hash); err != nil {
		return 0, false, err
	}
	defer gate.release(hash)
	for i := range s.signers {
		// Every candidate whose hint equals sig.Hint was tried in pass one.
		if s.keys[i] == nil || s.signers[i].Hint == sig.Hint {
			continue
		}
		if gate.verify(s.keys[i], msg, sig.Signature) {
			return i, true, nil
		}
	}
	return 0, false, nil
}

// stamp is sig re-stamped with signer i's canonical hint (SPEC "Signature
// admission", item 5); the signature bytes are copied.
func (s *SignerSet) stamp(i int, sig xdr.DecoratedSignature) xdr.DecoratedSignature {
	return xdr.DecoratedSignature{
		Hint:      s.signers[i].Hint,
		Signature: append(xdr.Signature(nil), sig.Signature...),
	}
}

// verifies reports whether sig is signer i's signature of hash by
// stellar-core's rule; a signer that is no candidate verifies nothing.
func (s *SignerSet) verifies(i int, hash [32]byte, sig []byte) bool {
	if s == nil || i < 0 || i >= len(s.keys) || s.keys[i] == nil {
		return false
	}
	return s.keys[i].Verify(hash[:], sig)
}
