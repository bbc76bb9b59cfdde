package ledger

import (
	"crypto/ed25519"

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
