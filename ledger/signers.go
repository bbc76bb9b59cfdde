package ledger

import (
	"crypto/ed25519"
	"runtime"

	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// onVerify, when set, is called before each verification. It exists so that
// tests can count verifications, the cost recovery is designed to bound;
// ed25519.Verify itself stays a direct call so it keeps allocating nothing.
var onVerify func()

func verify(key ed25519.PublicKey, msg, sig []byte) bool {
	if onVerify != nil {
		onVerify()
	}
	return ed25519.Verify(key, msg, sig)
}

// Sweeps (recovery's pass two) are the only unbounded-by-honesty cost of
// admission: a signature under a hint that matches nobody, or an invalid one,
// costs one verification per candidate, and nothing but CPU stops a client
// from sending them. So sweeps are gated twice, while pass one (an honest
// signature under its own hint: one verification) never waits:
//
//   - per plan: at most one sweep at a time for one transaction hash
//     (striped over sweepStripes gates, so two plans may rarely share one,
//     which only serializes their sweeps). Hammering one plan with such
//     signatures therefore takes at most one core, however many connections
//     the hammering uses, and the plan's honest co-signers keep the others.
//   - process-wide: at most sweepSlots sweeps at once, GOMAXPROCS-1 (at
//     least 1), so that even sweeps spread over many plans leave a core to
//     pass one, replays and the HTTP stack. Each plan has at most one waiter
//     here, and a channel's waiters are served in order, so plans take turns.
//
// Waiting costs a parked goroutine, no CPU. The total work is unchanged; it
// is only kept from crowding out cheap, honest requests.
const sweepStripes = 256

var (
	sweepGates = func() (g [sweepStripes]chan struct{}) {
		for i := range g {
			g[i] = make(chan struct{}, 1)
		}
		return g
	}()
	sweepSlots = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)-1))
)

// acquireSweep waits for hash's plan gate, then for a process-wide slot;
// the returned function releases both.
func acquireSweep(hash [32]byte) (release func()) {
	gate := sweepGates[int(hash[0])%sweepStripes]
	gate <- struct{}{}
	slots := sweepSlots
	slots <- struct{}{}
	return func() {
		<-slots
		<-gate
	}
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
			s.byHint[sg.Hint] = append(s.byHint[sg.Hint], i)
			s.usable++
		} else {
			sg.Hint = xdr.SignatureHint{}
		}
		s.signers[i] = sg
	}
	return s
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
// admission", items 1 and 2) and returns its index.
//
// The hint is attacker-chosen, so it only orders the work: pass one verifies
// against the candidates whose canonical hint equals sig.Hint (normally one,
// so an honest signature costs one verification); pass two sweeps every
// candidate pass one did not try. A signature that is not 64 bytes long
// matches nobody and costs nothing. The worst case, a signature that
// matches nobody, costs one verification per candidate.
//
// Pass two waits for its plan's sweep gate and a process-wide slot (see
// sweepGates); pass one never waits.
func (s *SignerSet) Recover(hash [32]byte, sig xdr.DecoratedSignature) (int, bool) {
	if s == nil || len(sig.Signature) != ed25519.SignatureSize {
		return 0, false
	}
	msg := hash[:]
	tried := s.byHint[sig.Hint]
	for _, i := range tried {
		if verify(s.signers[i].Key, msg, sig.Signature) {
			return i, true
		}
	}
	if len(tried) == s.usable {
		return 0, false // pass one tried every candidate
	}
	release := acquireSweep(hash)
	defer release()
	for i := range s.signers {
		// Every valid key whose hint equals sig.Hint was tried in pass one.
		if len(s.signers[i].Key) != ed25519.PublicKeySize || s.signers[i].Hint == sig.Hint {
			continue
		}
		if verify(s.signers[i].Key, msg, sig.Signature) {
			return i, true
		}
	}
	return 0, false
}

// stamp is sig re-stamped with signer i's canonical hint (SPEC "Signature
// admission", item 5); the signature bytes are copied.
func (s *SignerSet) stamp(i int, sig xdr.DecoratedSignature) xdr.DecoratedSignature {
	return xdr.DecoratedSignature{
		Hint:      s.signers[i].Hint,
		Signature: append(xdr.Signature(nil), sig.Signature...),
	}
}
