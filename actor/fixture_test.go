package actor

import (
	"bytes"
	"context"
	"encoding/hex"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/planstore"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// keys are the account's master key (index 0) and its 20 co-signers: the
// largest signer set a plan can have (ledger.MaxPlanSignerSet).
var keys = func() []*keypair.Full {
	out := make([]*keypair.Full, ledger.MaxPlanSignerSet)
	for i := range out {
		var seed [32]byte
		seed[0] = byte(i + 1)
		out[i] = mustKey(seed)
	}
	return out
}()

func mustKey(seed [32]byte) *keypair.Full {
	kp, err := keypair.FromRawSeed(seed)
	if err != nil {
		panic(err)
	}
	return kp
}

var destination = mustKey([32]byte{0xde, 0x57}).Address()

const passphrase = network.TestNetworkPassphrase

// signerSet is the candidate set of every fixture plan, in keys order.
var signerSet = func() *ledger.SignerSet {
	signers := make([]ledger.Signer, len(keys))
	for i, kp := range keys {
		signers[i] = ledger.Signer{Address: kp.Address(), Weight: 1}
	}
	return ledger.NewSignerSet(signers)
}()

// sweeps is the tests' sweep gate. Fixture signatures carry their own hints,
// so nothing here ever sweeps or waits on it.
var sweeps = ledger.NewSweepGate(1)

// fixture is one account-close transaction: what a publish would hand to
// Create, and the signatures its co-signers would send.
type fixture struct {
	account  string // the G… address of the account closed
	unsigned xdr.TransactionEnvelope
	id       string
	sigs     []ledger.Admitted // by signer index: that key's signature over the hash
}

// newFixture builds a close of keys[0]'s account; seq varies the transaction,
// hence the plan id. Every key signs it.
func newFixture(tb testing.TB, seq int64) *fixture {
	tb.Helper()
	return newFixtureSigned(tb, seq, len(keys))
}

// newFixtureSigned is newFixture with only the first n keys signing, for
// tests that need many plans and few signatures.
func newFixtureSigned(tb testing.TB, seq int64, n int) *fixture {
	tb.Helper()
	return newFixtureOf(tb, keys[0].Address(), seq, n)
}

// newFixtureOf is newFixtureSigned for a close of another account (source,
// a G… address), for the per-account limit. The candidate set stays keys:
// the supervisor counts plans by the closing account and never asks whose
// signers they are.
func newFixtureOf(tb testing.TB, source string, seq int64, n int) *fixture {
	tb.Helper()
	return newFixtureOps(tb, source, seq, n, &txnbuild.AccountMerge{Destination: destination})
}

// newMediatorFixture is newFixture's close through mediator, as a plan
// with a flow has it: create_account of the mediator with 2 units, then
// the merge into it.
func newMediatorFixture(tb testing.TB, seq int64, mediator string) *fixture {
	tb.Helper()
	return newFixtureOps(tb, keys[0].Address(), seq, len(keys),
		&txnbuild.CreateAccount{Destination: mediator, Amount: "2"}, &txnbuild.AccountMerge{Destination: mediator})
}

// newFixtureOps is newFixtureOf with the close's operations ops.
func newFixtureOps(tb testing.TB, source string, seq int64, n int, ops ...txnbuild.Operation) *fixture {
	tb.Helper()
	acct := txnbuild.NewSimpleAccount(source, seq)
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount:        &acct,
		IncrementSequenceNum: true,
		Operations:           ops,
		BaseFee:              txnbuild.MinBaseFee,
		Preconditions:        txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout()},
	})
	if err != nil {
		tb.Fatal(err)
	}
	hash, err := tx.Hash(passphrase)
	if err != nil {
		tb.Fatal(err)
	}
	f := &fixture{account: source, unsigned: tx.ToXDR(), id: hex.EncodeToString(hash[:])}
	for i, kp := range keys[:n] {
		sig, err := kp.SignDecorated(hash[:])
		if err != nil {
			tb.Fatal(err)
		}
		f.sigs = append(f.sigs, ledger.Admitted{Signer: i, Sig: sig})
	}
	return f
}

// plan is a publish carrying the signatures of signers (signer 0's when none
// is named), expiring at expiry, admitted as the publish route admits it.
// The transaction has no maxTime, so its plan expires a signing window
// after the publish: the publish is dated that much before expiry.
func (f *fixture) plan(tb testing.TB, expiry time.Time, signers ...int) *ledger.AdmittedPlan {
	tb.Helper()
	if len(signers) == 0 {
		signers = []int{0}
	}
	admitted := f.admitted(signers...)
	sigs := make([]xdr.DecoratedSignature, len(admitted))
	for i, a := range admitted {
		sigs[i] = a.Sig
	}
	c, err := ledger.ParseClose(f.partial(tb, sigs...), ledger.Testnet)
	if err != nil {
		tb.Fatal(err)
	}
	p, _, err := ledger.AdmitPlan(context.Background(), sweeps, c, signerSet, expiry.Add(-ledger.SigningWindow))
	if err != nil {
		tb.Fatal(err)
	}
	if !p.Expiry().Equal(expiry) || p.ID() != f.id || len(p.Admitted()) != len(signers) {
		tb.Fatalf("fixture plan: expiry %v, id %s, %d admitted", p.Expiry(), p.ID(), len(p.Admitted()))
	}
	return p
}

func (f *fixture) admitted(signers ...int) []ledger.Admitted {
	out := make([]ledger.Admitted, len(signers))
	for i, s := range signers {
		out[i] = f.sigs[s]
	}
	return out
}

// partial is the transaction carrying the given signatures, as a co-signer
// would post it.
func (f *fixture) partial(tb testing.TB, sigs ...xdr.DecoratedSignature) string {
	tb.Helper()
	b64, err := ledger.EncodeEnvelope(ledger.WithSignatures(f.unsigned, sigs))
	if err != nil {
		tb.Fatal(err)
	}
	return b64
}

// startSubscribed starts a supervisor with opts, creates a plan of a fresh
// fixture living the whole signing window, and subscribes to it; the
// subscription ends with the test.
func startSubscribed(t *testing.T, opts Options) (*fixture, *Plan, *Subscription) {
	t.Helper()
	s := start(t, opts)
	f := newFixture(t, 1)
	p := create(t, s, f, time.Now().Add(ledger.SigningWindow))
	sub, err := p.Subscribe(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sub.Close)
	return f, p, sub
}

// create publishes f on s and fails the test unless a new plan results.
func create(tb testing.TB, s *Supervisor, f *fixture, expiry time.Time, signers ...int) *Plan {
	tb.Helper()
	p, created, err := s.Create(context.Background(), f.plan(tb, expiry, signers...))
	if err != nil || !created {
		tb.Fatalf("Create: created=%v err=%v", created, err)
	}
	return p
}

// addresses are the G… keys of signers, as State.Signers lists them.
func addresses(signers ...int) []string {
	out := make([]string, len(signers))
	for i, s := range signers {
		out[i] = keys[s].Address()
	}
	return out
}

// metricValue reads one series from m's registry: the counter or gauge named
// name whose labels include the given name/value pairs. A missing series is 0.
func metricValue(tb testing.TB, m *metrics.Metrics, name string, labels ...string) float64 {
	tb.Helper()
	mfs, err := m.Registry.Gather()
	if err != nil {
		tb.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
	series:
		for _, s := range mf.GetMetric() {
			for i := 0; i+1 < len(labels); i += 2 {
				found := false
				for _, lp := range s.GetLabel() {
					if lp.GetName() == labels[i] && lp.GetValue() == labels[i+1] {
						found = true
					}
				}
				if !found {
					continue series
				}
			}
			if c := s.GetCounter(); c != nil {
				return c.GetValue()
			}
			return s.GetGauge().GetValue()
		}
	}
	return 0
}

// drain returns the events waiting on c without blocking, and whether c is
// closed. Call it after synctest.Wait, when every actor is idle.
func drain(c <-chan Event) (events []Event, closed bool) {
	for {
		select {
		case ev, ok := <-c:
			if !ok {
				return events, true
			}
			events = append(events, ev)
		default:
			return events, false
		}
	}
}

// wantMetrics checks several unlabelled metrics at once.
func wantMetrics(tb testing.TB, m *metrics.Metrics, want map[string]float64) {
	tb.Helper()
	for name, w := range want {
		if v := metricValue(tb, m, name); v != w {
			tb.Errorf("%s = %v, want %v", name, v, w)
		}
	}
}

// loopDo is a request that runs f in a plan's run loop, as one of its turns.
type loopDo struct {
	f    func(*Plan)
	done chan struct{}
}

func (r loopDo) serve(p *Plan)  { r.f(p); close(r.done) }
func (r loopDo) refuse(_ error) { close(r.done) }

// inLoop runs f in p's run loop and returns once it has.
func inLoop(p *Plan, f func(*Plan)) {
	r := loopDo{f, make(chan struct{})}
	p.tell(r)
	<-r.done
}

// lookedUp is what s answers for plan id, as a GET reads it: its Lookup,
// then the plan's Snapshot.
func lookedUp(tb testing.TB, s *Supervisor, id string) State {
	tb.Helper()
	p, err := s.Lookup(context.Background(), id)
	if err != nil {
		tb.Fatalf("Lookup: %v", err)
	}
	st, err := p.Snapshot(context.Background())
	if err != nil {
		tb.Fatalf("Snapshot: %v", err)
	}
	return st
}

// solo is opts for single mode when they name no store: an in-memory
// store that nothing but the supervisor writes, as the composition root
// passes in single mode.
func solo(opts Options) Options {
	if opts.Store == nil {
		opts.Store, opts.SoleWriter = planstore.NewMemory(), true
	}
	return opts
}

// start runs a supervisor for the length of the test.
func start(t *testing.T, opts Options) *Supervisor {
	t.Helper()
	s := NewSupervisor(solo(opts))
	t.Cleanup(func() {
		if err := s.Stop(context.Background()); err != nil {
			t.Errorf("Stop: %v", err)
		}
	})
	return s
}

// skewedClock is a Now that runs ahead of the bubble's clock by a settable
// amount, so a test can put the supervisor past a plan's expiry before the
// plan's timer fires.
type skewedClock struct{ skew atomic.Int64 }

func (c *skewedClock) now() time.Time          { return time.Now().Add(time.Duration(c.skew.Load())) }
func (c *skewedClock) advance(d time.Duration) { c.skew.Add(int64(d)) }

// equalState reports whether a and b are the same version of a plan with
// the same envelope and signers.
func equalState(a, b State) bool {
	if a.ID != b.ID || a.Network != b.Network || a.XDR != b.XDR || a.Version != b.Version || len(a.Signers) != len(b.Signers) {
		return false
	}
	for i := range a.Signers {
		if a.Signers[i] != b.Signers[i] {
			return false
		}
	}
	return true
}

// checkEnvelope decodes st.XDR and checks that it carries exactly the
// signatures of signers, in that order, with canonical hints.
func checkEnvelope(t *testing.T, f *fixture, st State, signers ...int) {
	t.Helper()
	env, err := ledger.DecodeEnvelope(st.XDR)
	if err != nil {
		t.Fatalf("state XDR does not decode: %v", err)
	}
	sigs := env.Signatures()
	if len(sigs) != len(signers) {
		t.Fatalf("envelope carries %d signatures, want %d", len(sigs), len(signers))
	}
	for i, s := range signers {
		want := f.sigs[s].Sig
		if sigs[i].Hint != want.Hint || !bytes.Equal(sigs[i].Signature, want.Signature) {
			t.Errorf("signature %d is not signer %d's", i, s)
		}
	}
	if !slices.Equal(st.Signers, addresses(signers...)) {
		t.Errorf("Signers = %v, want signers %v", st.Signers, signers)
	}
}

// testHash and the test nonces have the shapes a stored record's hash and
// flow nonce must have (storecheck.go): 64 and 32 lowercase hex characters.
var (
	testHash   = strings.Repeat("ab", 32)
	testNonce1 = strings.Repeat("1", 32)
	testNonce2 = strings.Repeat("2", 32)
)
