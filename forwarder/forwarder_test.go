package forwarder_test

import (
	"context"
	"crypto/rand"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/forwarder"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/closerelay/closerelay/mediator"
	mt "github.com/closerelay/closerelay/mediator/mediatortest"
	"github.com/closerelay/closerelay/plan"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The forwarder against the account-API double, in process and in a
// synctest bubble, so backoffs and time bounds take no real time.

// fixture is a mediator holding balance on a double, and a flow to an
// existing exchange with a hash memo.
type fixture struct {
	h        *ledgertest.Handler
	client   *ledgerapi.Client
	svc      *mediator.Service
	job      plan.ForwardJob
	mediator string
	exchange string
	memo     xdr.Memo
}

const hashMemo = "hash:00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

func newFixture(t *testing.T, balance int64) *fixture {
	t.Helper()
	h := ledgertest.NewHandler()
	svc := mediator.New(mediator.Options{Secret: mt.Secret})
	m, err := mediator.ParseMaster(mt.Secret)
	if err != nil {
		t.Fatal(err)
	}
	exchange := keypair.MustRandom().Address()
	memo, err := mediator.ParseMemo(hashMemo)
	if err != nil {
		t.Fatal(err)
	}
	token, med, err := m.MintMemo(rand.Reader, exchange, memo, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	flow, _ := mediator.VerifyToken(m, token, time.Now())
	h.Fund(exchange, 5_0000000)
	h.Fund(med, balance)
	return &fixture{
		h: h, svc: svc, mediator: med, exchange: exchange, memo: memo.XDR(),
		client: ledgerapi.New(ledgerapi.Options{Backends: h.Backends(), Timeout: 5 * time.Second}),
		job: plan.ForwardJob{Network: ledger.Testnet, FeePerOp: 100,
			Flow: plan.Flow{Nonce: flow.Nonce, Destination: exchange, Memo: hashMemo, Token: token}},
	}
}

func (f *fixture) run(l forwarder.Ledger) (plan.Forward, int) {
	var retried int
	out := forwarder.New(forwarder.Options{Ledger: l, Signer: f.svc}).Forward(context.Background(), f.job, func() { retried++ })
	return out, retried
}

// A mediator holding more than the close left in it (a stray payment, an
// exchange's refund) forwards all of it: the payment is the balance less
// the fee and the kept unit, the merge carries the unit, and the exchange
// is credited everything but the fee, with the committed memo. Through
// Horizon and through Stellar RPC alike (CONTRACT section 15).
func TestForwardsEveryStroop(t *testing.T) {
	for _, api := range []string{"horizon", "rpc"} {
		t.Run(api, func(t *testing.T) { testForwardsEveryStroop(t, api) })
	}
}

func testForwardsEveryStroop(t *testing.T, api string) {
	synctest.Test(t, func(t *testing.T) {
		const balance = 123_4567891
		f := newFixture(t, balance)
		l := f.client
		if api == "rpc" {
			l = ledgerapi.New(ledgerapi.Options{Backends: f.h.RPCBackends(), Timeout: 5 * time.Second})
		}
		out, retried := f.run(l)
		if out.State != plan.ForwardForwarded || retried != 0 {
			t.Fatalf("outcome %+v after %d retries", out, retried)
		}
		pay := int64(balance - 200 - 1_0000000)
		if out.Amount != "122.4567691" || out.Amount != ledger.Units(pay) {
			t.Errorf("amount = %s, want %s", out.Amount, ledger.Units(pay))
		}
		credits := f.h.Credits(f.exchange)
		if len(credits) != 2 || credits[0].Amount != pay || credits[1].Amount != 1_0000000 || !credits[1].Merge {
			t.Fatalf("credits = %+v", credits)
		}
		for _, c := range credits {
			if c.From != f.mediator || c.Memo.Type != f.memo.Type || *c.Memo.Hash != *f.memo.Hash || c.Hash != out.Hash {
				t.Errorf("credit %+v: not the forward %s from the mediator with the committed memo", c, out.Hash)
			}
		}
		if got, _ := f.h.Balance(f.exchange); got != 5_0000000+balance-200 {
			t.Errorf("exchange balance = %d, want %d", got, 5_0000000+balance-200)
		}
		if _, ok := f.h.Balance(f.mediator); ok {
			t.Error("the mediator still exists")
		}
	})
}

// seqMover moves the mediator's sequence number on (another transaction
// of the mediator's, say) after the first read, once.
type seqMover struct {
	*ledgerapi.Client
	h    *ledgertest.Handler
	once sync.Once
}

func (s *seqMover) Account(ctx context.Context, n ledger.Network, id string) (ledger.AccountState, error) {
	acc, err := s.Client.Account(ctx, n, id)
	s.once.Do(func() { s.h.SetSequence(id, acc.Sequence+5) })
	return acc, err
}

// A forward whose sequence number was used meanwhile is refused
// (tx_bad_seq), built again from a fresh read, and lands.
func TestForwardRebuiltWhenTheSequenceMoved(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, 30_0000000)
		out, retried := f.run(&seqMover{Client: f.client, h: f.h})
		if out.State != plan.ForwardForwarded {
			t.Fatalf("outcome %+v", out)
		}
		if retried != 1 || f.h.Submissions() != 2 {
			t.Errorf("%d retries, %d submissions; want one refusal, then the rebuilt forward", retried, f.h.Submissions())
		}
	})
}

// hungOnce never answers the first forward's submission (the ledger API
// stalls), and passes every later call on.
type hungOnce struct {
	*ledgerapi.Client
	mu   sync.Mutex
	sent []xdr.TransactionEnvelope
}

func (h *hungOnce) Submit(ctx context.Context, n ledger.Network, x string, observe func(ledgerapi.SubmitAttempt)) ledgerapi.SubmitOutcome {
	env, _ := ledger.DecodeEnvelope(x)
	h.mu.Lock()
	h.sent = append(h.sent, env)
	first := len(h.sent) == 1
	h.mu.Unlock()
	if first {
		<-ctx.Done()
		return ledgerapi.SubmitOutcome{State: ledgerapi.SubmitAbandoned, Err: ctx.Err()}
	}
	return h.Client.Submit(ctx, n, x, observe)
}

// A forward whose time bounds pass while its submission is still retried
// can never land: a new one is built, with new time bounds, and lands.
func TestForwardRebuiltWhenItsTimeBoundsPass(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, 30_0000000)
		start := time.Now()
		l := &hungOnce{Client: f.client}
		out, _ := f.run(l)
		if out.State != plan.ForwardForwarded {
			t.Fatalf("outcome %+v", out)
		}
		if len(l.sent) != 2 {
			t.Fatalf("%d forwards sent, want 2", len(l.sent))
		}
		first, second := l.sent[0].TimeBounds(), l.sent[1].TimeBounds()
		if int64(first.MaxTime) != start.Add(ledger.ForwardTimeout).Unix() || second.MaxTime <= first.MaxTime {
			t.Errorf("time bounds %+v then %+v: the second forward must be built after the first's lapsed", first, second)
		}
		if time.Since(start) < ledger.ForwardTimeout {
			t.Errorf("rebuilt after %v, before the first forward's time bounds passed", time.Since(start))
		}
	})
}

// lostAnswer applies the first forward but loses its answer, as if the
// time bounds ran out on the wire.
type lostAnswer struct {
	*ledgerapi.Client
	lost bool
}

func (l *lostAnswer) Submit(ctx context.Context, n ledger.Network, x string, observe func(ledgerapi.SubmitAttempt)) ledgerapi.SubmitOutcome {
	out := l.Client.Submit(ctx, n, x, observe)
	if !l.lost {
		l.lost = true
		return ledgerapi.SubmitOutcome{State: ledgerapi.SubmitAbandoned, Err: context.DeadlineExceeded}
	}
	return out
}

// A forward that landed with its answer lost finds the mediator gone on
// the next read: the forward sent is posted again, the ledger API answers
// it with its success, and the outcome is forwarded, not a failure.
func TestForwardLandedWithItsAnswerLost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, 30_0000000)
		out, _ := f.run(&lostAnswer{Client: f.client})
		if out.State != plan.ForwardForwarded || out.Amount != ledger.Units(30_0000000-200-1_0000000) {
			t.Fatalf("outcome %+v", out)
		}
		if f.h.Applied() != 1 || len(f.h.Credits(f.exchange)) != 2 {
			t.Errorf("applied %d, credits %+v: want the one forward", f.h.Applied(), f.h.Credits(f.exchange))
		}
	})
}

// flaky fails the first reads of the mediator's account.
type flaky struct {
	*ledgerapi.Client
	failures int
}

func (l *flaky) Account(ctx context.Context, n ledger.Network, id string) (ledger.AccountState, error) {
	if l.failures > 0 {
		l.failures--
		return ledger.AccountState{}, ledgerapi.Unreachable("the ledger API answered 503", errors.New("503"))
	}
	return l.Client.Account(ctx, n, id)
}

// A ledger API that fails reads is read again after the backoff, each
// retry counted, until it answers.
func TestForwardReadsAgainAfterAFailedRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, 30_0000000)
		out, retried := f.run(&flaky{Client: f.client, failures: 4})
		if out.State != plan.ForwardForwarded || retried != 4 {
			t.Fatalf("outcome %+v after %d retries, want forwarded after 4", out, retried)
		}
	})
}

// A mediator that cannot pay the fee, keep its unit and pay at least a
// stroop fails at once, and nothing is sent.
func TestForwardUnfunded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, 1_0000200)
		out, _ := f.run(f.client)
		if out.State != plan.ForwardFailed || out.Code != forwarder.CodeUnfunded || f.h.Submissions() != 0 {
			t.Fatalf("outcome %+v, %d submissions", out, f.h.Submissions())
		}
	})
}

// The plan's end abandons a forward: nothing to tell.
func TestForwardAbandonedWithThePlan(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, 30_0000000)
		ctx, cancel := context.WithCancel(context.Background())
		l := &flaky{Client: f.client, failures: 1 << 20}
		done := make(chan plan.Forward)
		go func() { done <- forwarder.New(forwarder.Options{Ledger: l, Signer: f.svc}).Forward(ctx, f.job, nil) }()
		time.Sleep(time.Hour)
		cancel()
		if out := <-done; out.State != "" {
			t.Fatalf("outcome %+v, want abandoned", out)
		}
	})
}

// A plan's flow as the store holds it (a cluster record any NATS client
// could write) is not trusted on its own word: the forward is signed only
// for what the flow's token commits to. A flow whose destination or memo
// was rewritten after publish, or whose nonce was swapped for another
// mediator's, gets no signature and sends nothing: no credit to the
// rewritten destination, the mediators keep their funds.
func TestForwardOnlyWhatTheTokenCommits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const balance = 40_0000000
		victim := newFixture(t, balance)
		m, _ := mediator.ParseMaster(mt.Secret)
		thief := keypair.MustRandom().Address()
		victim.h.Fund(thief, 5_0000000)
		// Another flow's token, with the thief's own destination.
		memo, _ := mediator.ParseMemo(hashMemo)
		thiefToken, _, err := m.MintMemo(rand.Reader, thief, memo, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		for name, edit := range map[string]func(*plan.Flow){
			"destination rewritten": func(f *plan.Flow) { f.Destination = thief },
			"memo rewritten":        func(f *plan.Flow) { f.Memo = "text:thief" },
			"token of another flow": func(f *plan.Flow) { f.Destination, f.Token = thief, thiefToken },
			"no token":              func(f *plan.Flow) { f.Token = "" },
		} {
			job := victim.job
			edit(&job.Flow)
			out := forwarder.New(forwarder.Options{Ledger: victim.client, Signer: victim.svc}).Forward(context.Background(), job, nil)
			if out.State != plan.ForwardFailed {
				t.Errorf("%s: outcome %+v, want failed", name, out)
			}
		}
		if c := victim.h.Credits(thief); len(c) != 0 {
			t.Errorf("the rewritten destination was credited: %+v", c)
		}
		if got, ok := victim.h.Balance(victim.mediator); !ok || got != balance {
			t.Errorf("mediator balance = %d (%v), want %d untouched", got, ok, balance)
		}
		if n := victim.h.Submissions(); n != 0 {
			t.Errorf("%d forwards were submitted, want none", n)
		}
	})
}
