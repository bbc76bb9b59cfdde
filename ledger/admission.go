package ledger

import (
	"bytes"
	"context"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// AdmitAll is publish-time admission (SPEC "Signature admission and
// deduplication"): each signature, in envelope order, is recovered against
// set; an unrecoverable one is dropped, one whose signer was already admitted
// is dropped as a duplicate, and an admitted one is re-stamped with its
// signer's canonical hint. The result keeps envelope order and never holds
// more than MaxSignatures entries.
//
// Recovery runs under gate and may wait for a sweep (see SignerSet.Recover);
// the only error is ctx's, when it ended before a sweep could start, and
// then nothing is admitted.
func AdmitAll(ctx context.Context, gate *SweepGate, set *SignerSet, hash [32]byte, sigs []xdr.DecoratedSignature) ([]Admitted, error) {
	admitted, _, err := AdmitAllCounted(ctx, gate, set, hash, sigs)
	return admitted, err
}

// SignatureCounts says what an admission did with each signature it was
// given, for the closerelay_signatures_total metric: Admitted + Duplicates
// + Dropped is always the number of signatures.
type SignatureCounts struct {
	Admitted   int
	Duplicates int
	Dropped    int
}

// AdmitAllCounted is AdmitAll that also counts what it refused.
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
func AdmitAllCounted(ctx context.Context, gate *SweepGate, set *SignerSet, hash [32]byte, sigs []xdr.DecoratedSignature) ([]Admitted, SignatureCounts, error) {
	var (
		admitted []Admitted
		n        SignatureCounts
	)
	seen := make([]bool, set.Len())
	for _, sig := range sigs {
		if len(admitted) == MaxSignatures {
			n.Dropped++
			continue
		}
		if repeatsAdmitted(admitted, sig.Signature) {
			n.Duplicates++
			continue
		}
		i, ok, err := set.Recover(ctx, gate, hash, sig)
		switch {
		case err != nil:
			return nil, SignatureCounts{}, err
		case !ok:
			n.Dropped++
		case seen[i]:
			n.Duplicates++
		default:
			seen[i] = true
			admitted = append(admitted, Admitted{Signer: i, Sig: set.stamp(i, sig)})
		}
	}
	n.Admitted = len(admitted)
	return admitted, n, nil
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
