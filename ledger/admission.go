package ledger

import (
	"bytes"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// AdmitAll is publish-time admission (SPEC "Signature admission and
// deduplication"): each signature, in envelope order, is recovered against
// set; an unrecoverable one is dropped, one whose signer was already admitted
// is dropped as a duplicate, and an admitted one is re-stamped with its
// signer's canonical hint. The result keeps envelope order and never holds
// more than MaxSignatures entries.
func AdmitAll(set *SignerSet, hash [32]byte, sigs []xdr.DecoratedSignature) []Admitted {
	admitted, _, _ := AdmitAllCounted(set, hash, sigs)
	return admitted
}

// AdmitAllCounted is AdmitAll that also counts what it refused, for the
// closerelay_signatures_total metric: len(admitted)+duplicates+dropped is
// always len(sigs).
//
// The key of deduplication is the recovered signer, never the wire bytes: the
// hint is attacker-chosen, and keying on it would let one captured signature
// be replayed under many hints up to the envelope's signature cap. Bytes that
// equal an already admitted signature are still recognised without a second
// verification, because the same bytes under a forged hint would otherwise
// cost a full sweep each time.
//
// Signatures beyond MaxSignatures admitted ones are counted as dropped
// without being verified. A decoded envelope never carries more.
func AdmitAllCounted(set *SignerSet, hash [32]byte, sigs []xdr.DecoratedSignature) (admitted []Admitted, duplicates, dropped int) {
	seen := make([]bool, set.Len())
	for _, sig := range sigs {
		if len(admitted) == MaxSignatures {
			dropped++
			continue
		}
		if repeatsAdmitted(admitted, sig.Signature) {
			duplicates++
			continue
		}
		i, ok := set.Recover(hash, sig)
		switch {
		case !ok:
			dropped++
		case seen[i]:
			duplicates++
		default:
			seen[i] = true
			admitted = append(admitted, Admitted{Signer: i, Sig: set.stamp(i, sig)})
		}
	}
	return admitted, duplicates, dropped
}

// repeatsAdmitted reports whether sig's bytes equal an admitted signature's;
// such a signature recovers to the same signer, so it is a duplicate.
func repeatsAdmitted(admitted []Admitted, sig []byte) bool {
	for _, a := range admitted {
		if bytes.Equal(a.Sig.Signature, sig) {
			return true
		}
	}
	return false
}
