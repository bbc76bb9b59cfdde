package loadkit

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"runtime"
	"sync"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// ForgedHint is the hint the Forged partials carry: no real key's hint in
// practice, so the relay finds their signer only by sweeping every
// candidate (until it has admitted those bytes; then they are replays).
var ForgedHint = xdr.SignatureHint{0xde, 0xad, 0xbe, 0xef}

// Counts says how many of each optional kind of partial to prepare per plan.
type Counts struct {
	Fresh     int // distinct valid signatures by the publisher (ledgertest.AltSign)
	Strangers int // signatures by keys that are not signers
	Expensive int // ledgertest.ExpensiveSignature under a real signer's hint
}

// PlanInput is one published plan as BuildPlan needs it.
type PlanInput struct {
	ID         string
	Envelope   xdr.TransactionEnvelope // the plan's transaction; its signatures are ignored
	Passphrase string
	// Keys are the signers whose secrets the load tool holds; Keys[Publisher]
	// signed the published envelope, so its signature is on the plan.
	Keys      []*keypair.Full
	Publisher int
}

// BuildPlan prepares one plan's partials (see Plan). Each partial is the
// plan's transaction carrying exactly one signature:
//
//   - Valid: one per key but the publisher, under its own hint;
//   - Forged: the same signatures under ForgedHint;
//   - Fresh: the publisher's AltSignatures under its own hint. The publisher
//     is on the plan from the start, so a fresh partial never adds a signer
//     or an event, and since the relay only remembers admitted bytes, every
//     send of one costs it one verification again;
//   - Strangers: signatures by random keys;
//   - Expensive: ExpensiveSignatures under the hints of the keys in turn, so
//     the relay tries the hinted key, then sweeps the others: one full
//     verification per candidate.
func BuildPlan(in PlanInput, c Counts) (Plan, error) {
	hash, err := ledger.HashEnvelope(in.Envelope, in.Passphrase)
	if err != nil {
		return Plan{}, fmt.Errorf("loadkit: hash plan %s: %w", in.ID, err)
	}
	if in.Publisher < 0 || in.Publisher >= len(in.Keys) {
		return Plan{}, fmt.Errorf("loadkit: plan %s: publisher %d is not one of its %d keys", in.ID, in.Publisher, len(in.Keys))
	}
	partial := func(sig xdr.DecoratedSignature) (string, error) {
		return ledger.EncodeEnvelope(ledger.WithSignatures(in.Envelope, []xdr.DecoratedSignature{sig}))
	}
	p := Plan{ID: in.ID}
	add := func(to *[]string, sig xdr.DecoratedSignature) error {
		s, err := partial(sig)
		if err != nil {
			return fmt.Errorf("loadkit: plan %s: encode a partial: %w", in.ID, err)
		}
		*to = append(*to, s)
		return nil
	}
	for i, kp := range in.Keys {
		p.Signers = append(p.Signers, kp.Address())
		if i == in.Publisher {
			continue
		}
		sig, err := kp.SignDecorated(hash[:])
		if err != nil {
			return Plan{}, err
		}
		if err := add(&p.Valid, sig); err != nil {
			return Plan{}, err
		}
		forged := xdr.DecoratedSignature{Hint: ForgedHint, Signature: sig.Signature}
		if err := add(&p.Forged, forged); err != nil {
			return Plan{}, err
		}
	}
	pub := in.Keys[in.Publisher]
	priv, err := privateKey(pub)
	if err != nil {
		return Plan{}, err
	}
	for n := range c.Fresh {
		sig := xdr.DecoratedSignature{Hint: xdr.SignatureHint(pub.Hint()), Signature: ledgertest.AltSign(priv, hash[:], uint64(n)+1)}
		if err := add(&p.Fresh, sig); err != nil {
			return Plan{}, err
		}
	}
	for range c.Strangers {
		sig, err := keypair.MustRandom().SignDecorated(hash[:])
		if err != nil {
			return Plan{}, err
		}
		if err := add(&p.Strangers, sig); err != nil {
			return Plan{}, err
		}
	}
	for n := range c.Expensive {
		bad, err := ledgertest.ExpensiveSignature(rand.Reader)
		if err != nil {
			return Plan{}, err
		}
		sig := xdr.DecoratedSignature{Hint: xdr.SignatureHint(in.Keys[n%len(in.Keys)].Hint()), Signature: bad}
		if err := add(&p.Expensive, sig); err != nil {
			return Plan{}, err
		}
	}
	return p, nil
}

// BuildPlans is BuildPlan over many plans, on every core: the results keep
// the order of ins. The first failure is returned.
func BuildPlans(ins []PlanInput, c Counts) ([]Plan, error) {
	out := make([]Plan, len(ins))
	errs := make([]error, len(ins))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				out[i], errs[i] = BuildPlan(ins[i], c)
			}
		})
	}
	for i := range ins {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// privateKey is kp's ed25519 private key.
func privateKey(kp *keypair.Full) (ed25519.PrivateKey, error) {
	seed, err := strkey.Decode(strkey.VersionByteSeed, kp.Seed())
	if err != nil {
		return nil, fmt.Errorf("loadkit: seed of %s: %w", kp.Address(), err)
	}
	return ed25519.NewKeyFromSeed(seed), nil
}
