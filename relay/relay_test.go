package relay_test

import (
	"context"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/closerelay/closerelay/planstore"
	"github.com/closerelay/closerelay/relay"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

const pass = network.TestNetworkPassphrase

// dest is the closes' destination: the double refuses a merge into nothing.
var dest = keypair.MustRandom().Address()

// clock is a settable clock shared by the service and its supervisor.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// gate holds guard 6's account read of the accounts in held until the
// test releases it, telling the test when a read has arrived: the way to
// line two publishes up at a chosen step without sleeping.
type gate struct {
	*ledgerapi.Client
	held    map[string]bool
	arrived chan string
	release chan struct{}
}

func (g *gate) wait(ctx context.Context, account string) error {
	if !g.held[account] {
		return nil
	}
	g.arrived <- account
	select {
	case <-g.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (g *gate) Signers(ctx context.Context, n ledger.Network, account string) (*ledger.SignerSet, error) {
	if err := g.wait(ctx, account); err != nil {
		return nil, err
	}
	return g.Client.Signers(ctx, n, account)
}

func (g *gate) Read(ctx context.Context, n ledger.Network, account string) (ledger.AccountState, *ledger.SignerSet, error) {
	if err := g.wait(ctx, account); err != nil {
		return ledger.AccountState{}, nil, err
	}
	return g.Client.Read(ctx, n, account)
}

// fixture is a Service over a supervisor of its own (single mode: the
// in-memory store) whose ledger is the account-API double, in process.
type fixture struct {
	svc    *relay.Service
	plans  *actor.Supervisor
	ledger *ledgertest.Handler
	gate   *gate
	clock  *clock
}

func start(t *testing.T, opts actor.Options) *fixture {
	t.Helper()
	h := ledgertest.NewHandler()
	h.Fund(dest, 10_0000000)
	c := &clock{t: time.Now().Truncate(time.Second)}
	opts.Now = c.Now
	if opts.Store == nil {
		opts.Store, opts.SoleWriter = planstore.NewMemory(), true
	}
	plans := actor.NewSupervisor(opts)
	t.Cleanup(func() {
		if err := plans.Stop(context.Background()); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	g := &gate{
		Client:  ledgertest.InProcessClient(h, 5*time.Second),
		held:    map[string]bool{},
		arrived: make(chan string),
		release: make(chan struct{}),
	}
	svc := relay.New(relay.Options{Plans: plans, Accounts: g, Now: c.Now})
	return &fixture{svc: svc, plans: plans, ledger: h, gate: g, clock: c}
}

func (f *fixture) account(n int) ledgertest.Account {
	a := ledgertest.NewAccount(n, 1)
	f.ledger.AddAccount(a)
	return a
}

func wantCode(t *testing.T, err error, code errcode.Code) {
	t.Helper()
	var ce *errcode.Error
	if !errors.As(err, &ce) || ce.Code != code || ce.Reason == "" {
		t.Fatalf("error %v, want %s with a reason", err, code)
	}
}

func idOf(hash [32]byte) string { return hex.EncodeToString(hash[:]) }

// TestPublishGuardOrder: each request fails the guard it is named after
// and every guard after it; the first one's code answers (SPEC "POST
// /api/plan", CONTRACT sections 4 and 10).
func TestPublishGuardOrder(t *testing.T) {
	f := start(t, actor.Options{Capacity: 1})
	acc := f.account(1)
	unknown := keypair.MustRandom()
	soon := f.clock.Now().Add(30 * time.Second).Unix() // expiry = maxTime - 60 s: past
	badRequest := errcode.New(errcode.BadRequest, "submit must be true or false")

	payment, _ := ledgertest.BuildPayment(unknown, dest, 1, pass, unknown)
	expiringPayment, _ := ledgertest.BuildTx(unknown.Address(), 1, soon, pass, []txnbuild.Operation{
		&txnbuild.Payment{Destination: dest, Amount: "1", Asset: txnbuild.NativeAsset{}},
	})
	expiringUnknown, _ := ledgertest.BuildClose(unknown, dest, 1, soon, pass)
	// A separate fee payer: the relay cannot submit it (SUBMIT_UNSUPPORTED).
	feePaid, _ := ledgertest.BuildTx(keypair.MustRandom().Address(), 1, 0, pass, []txnbuild.Operation{
		&txnbuild.AccountMerge{Destination: dest, SourceAccount: unknown.Address()},
	})
	for _, tc := range []struct {
		name string
		req  relay.PublishRequest
		code errcode.Code
	}{
		{"empty xdr, malformed submit, bad network", relay.PublishRequest{XDR: "", Network: "bogus", Malformed: badRequest}, errcode.BadXDR},
		{"long xdr, malformed submit, bad network", relay.PublishRequest{XDR: strings.Repeat("A", 12001), Network: "x", Malformed: badRequest}, errcode.BadXDR},
		{"malformed submit, bad network", relay.PublishRequest{XDR: "garbage", Network: "x", Malformed: badRequest}, errcode.BadRequest},
		{"bad network, undecodable", relay.PublishRequest{XDR: "garbage", Network: "TESTNET"}, errcode.BadNetwork},
		{"no network, payment", relay.PublishRequest{XDR: payment, Network: ""}, errcode.BadNetwork},
		{"undecodable", relay.PublishRequest{XDR: "garbage", Network: "testnet"}, errcode.NotAClose},
		{"payment, expiring, unknown account", relay.PublishRequest{XDR: expiringPayment, Network: "testnet", Submit: true}, errcode.NotAClose},
		{"expiring, unknown account, unsigned", relay.PublishRequest{XDR: expiringUnknown, Network: "testnet"}, errcode.Expired},
		{"submit unsupported, unknown account, unsigned", relay.PublishRequest{XDR: feePaid, Network: "testnet", Submit: true}, errcode.SubmitUnsupported},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.svc.Publish(t.Context(), tc.req)
			wantCode(t, err, tc.code)
		})
	}

	unsignedUnknown, _ := ledgertest.BuildClose(unknown, dest, 2, 0, pass)
	t.Run("unknown account, unsigned", func(t *testing.T) {
		_, err := f.svc.Publish(t.Context(), relay.PublishRequest{XDR: unsignedUnknown, Network: "testnet"})
		wantCode(t, err, errcode.AccountUnreachable)
	})
	unsigned, _ := ledgertest.BuildClose(acc.Master, dest, 3, 0, pass)
	t.Run("unsigned", func(t *testing.T) {
		_, err := f.svc.Publish(t.Context(), relay.PublishRequest{XDR: unsigned, Network: "testnet"})
		wantCode(t, err, errcode.Unsigned)
	})

	// Fill the relay (capacity 1): guard 5 comes before the account read.
	held, heldHash := ledgertest.BuildClose(acc.Master, dest, 10, 0, pass, acc.Keys[0])
	if id, err := f.svc.Publish(t.Context(), relay.PublishRequest{XDR: held, Network: "testnet"}); err != nil || id != idOf(heldHash) {
		t.Fatalf("publish = %q, %v; want %s", id, err, idOf(heldHash))
	}
	t.Run("capacity full, unknown account, unsigned", func(t *testing.T) {
		_, err := f.svc.Publish(t.Context(), relay.PublishRequest{XDR: unsignedUnknown, Network: "testnet"})
		wantCode(t, err, errcode.Capacity)
	})
	// Guard 4 comes before guard 5: a re-publish of the held plan merges.
	t.Run("rejected re-publish, capacity full", func(t *testing.T) {
		_, err := f.svc.Publish(t.Context(), relay.PublishRequest{XDR: ledgertest.SignXDR(held, pass, keypair.MustRandom()), Network: "testnet"})
		wantCode(t, err, errcode.Rejected)
	})
	t.Run("re-publish, capacity full", func(t *testing.T) {
		id, err := f.svc.Publish(t.Context(), relay.PublishRequest{XDR: ledgertest.SignXDR(held, pass, acc.Master), Network: "testnet"})
		if err != nil || id != idOf(heldHash) {
			t.Fatalf("re-publish = %q, %v; want the held plan's id", id, err)
		}
		st, err := f.svc.Current(t.Context(), id)
		if err != nil || len(st.Signers) != 2 {
			t.Fatalf("after the re-publish: %+v, %v; want two signers", st, err)
		}
	})
}

// TestPublishGuard8: the capacity and the expiry are checked again at
// insert, after the account read, which takes time (SPEC guard 8,
// CONTRACT section 9).
func TestPublishGuard8(t *testing.T) {
	t.Run("capacity", func(t *testing.T) {
		f := start(t, actor.Options{Capacity: 1})
		a, b := f.account(0), f.account(0)
		xa, _ := ledgertest.BuildClose(a.Master, dest, 1, 0, pass, a.Master)
		xb, _ := ledgertest.BuildClose(b.Master, dest, 1, 0, pass, b.Master)
		f.gate.held[a.Address] = true
		errc := make(chan error, 1)
		go func() {
			_, err := f.svc.Publish(context.Background(), relay.PublishRequest{XDR: xa, Network: "testnet"})
			errc <- err
		}()
		<-f.gate.arrived // a has passed guard 5, and waits at guard 6
		if _, err := f.svc.Publish(t.Context(), relay.PublishRequest{XDR: xb, Network: "testnet"}); err != nil {
			t.Fatalf("publish b: %v", err)
		}
		close(f.gate.release)
		wantCode(t, <-errc, errcode.Capacity)
	})
	t.Run("expiry", func(t *testing.T) {
		f := start(t, actor.Options{})
		a := f.account(0)
		x, hash := ledgertest.BuildClose(a.Master, dest, 1, f.clock.Now().Add(2*time.Minute).Unix(), pass, a.Master)
		f.gate.held[a.Address] = true
		errc := make(chan error, 1)
		go func() {
			_, err := f.svc.Publish(context.Background(), relay.PublishRequest{XDR: x, Network: "testnet"})
			errc <- err
		}()
		<-f.gate.arrived // the expiry (maxTime - 60 s) was a minute away
		f.clock.Add(time.Minute)
		close(f.gate.release)
		wantCode(t, <-errc, errcode.Expired)
		_, err := f.svc.Current(t.Context(), idOf(hash))
		wantCode(t, err, errcode.NotFound)
	})
}

// TestPublishRaceOfOneID: two publishes of one new id, each with another
// signature, both pass guard 4 (no plan yet) before either inserts. One
// creates the plan, the other merges into it: both answer the id, and the
// plan holds both signatures.
func TestPublishRaceOfOneID(t *testing.T) {
	f := start(t, actor.Options{})
	a := f.account(1)
	bare, hash := ledgertest.BuildClose(a.Master, dest, 1, 0, pass)
	one, two := ledgertest.SignXDR(bare, pass, a.Keys[0]), ledgertest.SignXDR(bare, pass, a.Master)
	f.gate.held[a.Address] = true

	type answer struct {
		id  string
		err error
	}
	answers := make(chan answer, 2)
	for _, x := range []string{one, two} {
		go func() {
			id, err := f.svc.Publish(context.Background(), relay.PublishRequest{XDR: x, Network: "testnet"})
			answers <- answer{id, err}
		}()
	}
	<-f.gate.arrived
	<-f.gate.arrived // both wait at guard 6: neither has inserted
	close(f.gate.release)
	for range 2 {
		if a := <-answers; a.err != nil || a.id != idOf(hash) {
			t.Errorf("publish = %q, %v; want %s", a.id, a.err, idOf(hash))
		}
	}
	st, err := f.svc.Current(t.Context(), idOf(hash))
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Signers) != 2 || st.Version != 2 {
		t.Errorf("plan after the race: signers %v, version %d; want both signers at version 2 (created, then merged)", st.Signers, st.Version)
	}
	if n, err := f.plans.Open(t.Context()); err != nil || n != 1 {
		t.Errorf("open plans = %d, %v; want 1", n, err)
	}
}

// TestReadsAreCoded: every read answers an unknown plan, and a path id
// that is not one, with NOT_FOUND; a stopped relay with UNAVAILABLE; and a
// plan below its threshold's Ready with NOT_READY, whose reason states
// both.
func TestReadsAreCoded(t *testing.T) {
	f := start(t, actor.Options{})
	a := f.account(1)
	x, hash := ledgertest.BuildClose(a.Master, dest, 1, 0, pass, a.Keys[0])
	id, err := f.svc.Publish(t.Context(), relay.PublishRequest{XDR: x, Network: "testnet"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	reads := map[string]func(id string) error{
		"Find":    func(id string) error { _, err := f.svc.Find(ctx, id); return err },
		"Current": func(id string) error { _, err := f.svc.Current(ctx, id); return err },
		"Ready":   func(id string) error { _, err := f.svc.Ready(ctx, id); return err },
		"Status":  func(id string) error { _, err := f.svc.Status(ctx, id); return err },
	}
	for name, read := range reads {
		for _, bad := range []string{strings.Repeat("ab", 32), "not-an-id", strings.Repeat("0", 65)} {
			if err := read(bad); errcode.CodeOf(err) != errcode.NotFound {
				t.Errorf("%s(%q) = %v, want NOT_FOUND", name, bad, err)
			}
		}
	}
	// Ids are matched case-insensitively and answered in lowercase.
	if st, err := f.svc.Current(ctx, strings.ToUpper(id)); err != nil || st.ID != idOf(hash) {
		t.Errorf("Current(upper case) = %q, %v; want %s", st.ID, err, idOf(hash))
	}
	_, err = f.svc.Ready(ctx, id)
	wantCode(t, err, errcode.NotReady)
	if reason := err.(*errcode.Error).Reason; !strings.Contains(reason, "weight 1 of threshold 2") {
		t.Errorf("NOT_READY reason %q does not state the weight and the threshold", reason)
	}

	if err := f.plans.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	for name, read := range reads {
		if err := read(id); errcode.CodeOf(err) != errcode.Unavailable {
			t.Errorf("%s after Stop = %v, want UNAVAILABLE", name, err)
		}
	}
	_, err = f.svc.Publish(ctx, relay.PublishRequest{XDR: x, Network: "testnet"})
	wantCode(t, err, errcode.Unavailable)
}

// TestSubscribeAtTheCap: the subscriber past the plan's cap is
// TOO_MANY_SUBSCRIBERS, and a slot given back is free again.
func TestSubscribeAtTheCap(t *testing.T) {
	f := start(t, actor.Options{MaxSubscribers: 2})
	a := f.account(0)
	x, _ := ledgertest.BuildClose(a.Master, dest, 1, 0, pass, a.Master)
	id, err := f.svc.Publish(t.Context(), relay.PublishRequest{XDR: x, Network: "testnet"})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := f.svc.Find(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	var subs []*actor.Subscription
	for range 2 {
		sub, err := f.svc.Subscribe(t.Context(), plan)
		if err != nil {
			t.Fatal(err)
		}
		subs = append(subs, sub)
	}
	_, err = f.svc.Subscribe(t.Context(), plan)
	wantCode(t, err, errcode.TooManySubscribers)
	subs[0].Close()
	sub, err := f.svc.Subscribe(t.Context(), plan)
	if err != nil {
		t.Fatalf("subscribe after a Close: %v", err)
	}
	sub.Close()
	subs[1].Close()
}
