package client_test

import (
	"context"
	"encoding/hex"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/internal/relaytest"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

const passphrase = network.TestNetworkPassphrase

// fixture is a relay, a client of it, and an account of three signers of
// weight 1 (high threshold 3) that the relay's account API knows.
type fixture struct {
	relay *relaytest.Relay
	c     *client.Client
	acct  ledgertest.Account
	dest  string
}

func newFixture(t *testing.T, opts relaytest.Options, copts ...client.Option) *fixture {
	t.Helper()
	r := relaytest.Start(t, opts)
	acct := ledgertest.NewAccount(2, 1)
	r.Horizon.AddAccount(acct)
	copts = append([]client.Option{client.WithPollInterval(20 * time.Millisecond), client.WithReconnectDelay(10*time.Millisecond, 100*time.Millisecond)}, copts...)
	c, err := client.New(r.URL, copts...)
	if err != nil {
		t.Fatal(err)
	}
	dest := keypair.MustRandom().Address()
	r.Horizon.Fund(dest, 10_0000000) // a merge into an account the ledger lacks fails
	return &fixture{relay: r, c: c, acct: acct, dest: dest}
}

// closeXDR is the account's close into dest, signed by signers.
func (f *fixture) closeXDR(maxTime int64, signers ...*keypair.Full) (string, string) {
	x, h := ledgertest.BuildClose(f.acct.Master, f.dest, 1<<32+1, maxTime, passphrase, signers...)
	return x, hex.EncodeToString(h[:])
}

func (f *fixture) publish(t *testing.T) (id, xdr string) {
	t.Helper()
	x, want := f.closeXDR(time.Now().Add(72*time.Hour).Unix(), f.acct.Keys[0])
	id, err := f.c.Publish(context.Background(), "testnet", x)
	if err != nil {
		t.Fatalf("Publish: %v", err)
	}
	if id != want {
		t.Fatalf("Publish id = %s, want the transaction hash %s", id, want)
	}
	return id, x
}

func (f *fixture) get(t *testing.T, id string) client.Plan {
	t.Helper()
	p, err := f.c.Get(context.Background(), id)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	return p
}

// partial is the plan's envelope signed by kp alone.
func (f *fixture) partial(t *testing.T, id string, kp *keypair.Full) string {
	t.Helper()
	p := f.get(t, id)
	partial, err := wallet.SignPartial(p.XDR, p.Network, kp)
	if err != nil {
		t.Fatal(err)
	}
	return partial
}

func (f *fixture) sign(t *testing.T, id string, kp *keypair.Full) client.Signed {
	t.Helper()
	s, err := f.c.Sign(context.Background(), id, f.partial(t, id, kp))
	if err != nil {
		t.Fatalf("Sign: %v", err)
	}
	return s
}

func wantAPIError(t *testing.T, err error, status int, code string) *client.Error {
	t.Helper()
	var e *client.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *client.Error %d %s", err, err, status, code)
	}
	if e.Status != status || e.Code != code {
		t.Fatalf("err = %d %q (%s), want %d %s", e.Status, e.Code, e.Reason, status, code)
	}
	return e
}

func TestPlanRoutes(t *testing.T) {
	f := newFixture(t, relaytest.Options{})
	ctx := context.Background()
	id, _ := f.publish(t)

	p, err := f.c.Get(ctx, id)
	if err != nil || p.Network != "testnet" || p.XDR == "" {
		t.Fatalf("Get = %+v, %v", p, err)
	}
	s := f.sign(t, id, f.acct.Keys[1])
	if s.Network != "testnet" || len(s.Signers) != 2 || s.Signers[0] != f.acct.Keys[0].Address() || s.Signers[1] != f.acct.Keys[1].Address() {
		t.Fatalf("Sign = %+v", s)
	}
	prog, err := wallet.Weigh(s.XDR, "testnet", accountOf(f.acct))
	if err != nil || prog.Weight != 2 || prog.Needed != 3 {
		t.Fatalf("weigh merged = %v, %v", prog, err)
	}
	// The id is answered lowercase and matched case-insensitively.
	if _, err := f.c.Get(ctx, upper(id)); err != nil {
		t.Fatalf("Get upper-case id: %v", err)
	}
	// A re-publish of the same transaction merges.
	again := ledgertest.SignXDR(ledgertest.StripSignatures(f.get(t, id).XDR), passphrase, f.acct.Master)
	if id2, err := f.c.Publish(ctx, "testnet", again); err != nil || id2 != id {
		t.Fatalf("re-publish = %s, %v", id2, err)
	}
	if mustWeigh(t, f.get(t, id).XDR, f.acct).Weight != 3 {
		t.Fatalf("after re-publish the plan is not at weight 3")
	}
}

func TestRefusals(t *testing.T) {
	f := newFixture(t, relaytest.Options{})
	ctx := context.Background()
	id, _ := f.publish(t)
	x, _ := f.closeXDR(time.Now().Add(time.Hour).Unix(), f.acct.Keys[0])
	unsigned, _ := f.closeXDR(time.Now().Add(time.Hour).Unix())

	_, err := f.c.Publish(ctx, "TESTNET", x)
	wantAPIError(t, err, 400, "BAD_NETWORK")
	_, err = f.c.Publish(ctx, "testnet", "")
	wantAPIError(t, err, 400, "BAD_XDR")
	_, err = f.c.Publish(ctx, "testnet", unsigned)
	wantAPIError(t, err, 400, "UNSIGNED")
	pay, _ := ledgertest.BuildPayment(f.acct.Master, f.dest, 2, passphrase, f.acct.Master)
	_, err = f.c.Publish(ctx, "testnet", pay)
	wantAPIError(t, err, 400, "NOT_A_CLOSE")

	missing := "00" + id[2:]
	if id[:2] == "00" {
		missing = "11" + id[2:]
	}
	_, err = f.c.Get(ctx, missing)
	wantAPIError(t, err, 404, "NOT_FOUND")
	_, err = f.c.Sign(ctx, missing, x)
	wantAPIError(t, err, 404, "NOT_FOUND")
	// A signature by a key that is not the account's signer.
	_, err = f.c.Sign(ctx, id, f.partial(t, id, keypair.MustRandom()))
	wantAPIError(t, err, 400, "REJECTED")
	_, err = f.c.Sign(ctx, id, "not base64")
	wantAPIError(t, err, 400, "BAD_XDR")
	// A path id with a slash cannot reach another route.
	_, err = f.c.Get(ctx, "x/sign")
	wantAPIError(t, err, 404, "NOT_FOUND")
}

func TestRateLimitedCarriesRetryAfter(t *testing.T) {
	f := newFixture(t, relaytest.Options{RateLimits: true})
	var last error
	for range 11 { // 10 per 60 s
		_, last = f.c.Publish(context.Background(), "testnet", "")
	}
	e := wantAPIError(t, last, 429, "RATE_LIMITED")
	if e.RetryAfter <= 0 || e.RetryAfter > 60*time.Second {
		t.Fatalf("RetryAfter = %v, want within (0, 60s]", e.RetryAfter)
	}
}

func TestMediatorRoutes(t *testing.T) {
	f := newFixture(t, relaytest.Options{})
	ctx := context.Background()
	minted, err := f.c.MediatorMint(ctx, f.dest)
	if err != nil {
		t.Fatalf("MediatorMint: %v", err)
	}
	flow, err := wallet.NewMediatorFlow(minted, f.dest)
	if err != nil {
		t.Fatal(err)
	}
	fx := forwardXDR(t, wallet.ForwardParams{
		Mediator: flow.MediatorPublicKey, Sequence: 1 << 32, Destination: f.dest,
		Amount: "10", Memo: txnbuild.MemoText("deposit 42"),
	})
	out, err := f.c.MediatorCosign(ctx, fx, flow.Token, "testnet")
	if err != nil {
		t.Fatalf("MediatorCosign: %v", err)
	}
	if err := wallet.VerifyCosigned(fx, out.SignedXDR, out.Hash, "testnet", flow.MediatorPublicKey); err != nil {
		t.Fatalf("VerifyCosigned: %v", err)
	}

	_, err = f.c.MediatorMint(ctx, "not-a-key")
	wantAPIError(t, err, 400, "INVALID_DESTINATION")
	_, err = f.c.MediatorCosign(ctx, fx, "1.2.3.4", "testnet")
	wantAPIError(t, err, 400, "INVALID_FLOW_TOKEN")
	_, err = f.c.MediatorCosign(ctx, fx, flow.Token, "public")
	wantAPIError(t, err, 400, "BAD_NETWORK")
	// A forward to another destination than the committed one.
	ox := forwardXDR(t, wallet.ForwardParams{
		Mediator: flow.MediatorPublicKey, Sequence: 1 << 32, Destination: keypair.MustRandom().Address(),
		Amount: "10", Memo: txnbuild.MemoID(7),
	})
	_, err = f.c.MediatorCosign(ctx, ox, flow.Token, "testnet")
	wantAPIError(t, err, 400, "FORWARD_DESTINATION_NOT_COMMITTED")
}

func TestMediatorNotConfigured(t *testing.T) {
	f := newFixture(t, relaytest.Options{NoMediator: true})
	_, err := f.c.MediatorMint(context.Background(), f.dest)
	wantAPIError(t, err, 500, "MEDIATOR_NOT_CONFIGURED")
}

func TestTransportErrorIsNotAPIError(t *testing.T) {
	f := newFixture(t, relaytest.Options{})
	f.relay.Stop(t)
	_, err := f.c.Get(context.Background(), "00")
	var e *client.Error
	if err == nil || errors.As(err, &e) {
		t.Fatalf("err = %v, want a transport error", err)
	}
}

// watch runs Watch in the background and hands its states over a channel.
type watch struct {
	states  chan client.State
	notices chan client.Notice
	done    chan error
	cancel  context.CancelFunc
}

func startWatch(t *testing.T, c *client.Client, id string) *watch {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w := &watch{states: make(chan client.State, 64), notices: make(chan client.Notice, 64), done: make(chan error, 1), cancel: cancel}
	go func() {
		w.done <- c.Watch(ctx, id, func(s client.State) error { w.states <- s; return nil },
			client.WatchNotify(func(n client.Notice) {
				select {
				case w.notices <- n:
				default:
				}
			}))
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-w.done:
		case <-time.After(10 * time.Second):
			t.Errorf("Watch did not return after cancel")
		}
	})
	return w
}

func (w *watch) next(t *testing.T) client.State {
	t.Helper()
	select {
	case s := <-w.states:
		return s
	case err := <-w.done:
		t.Fatalf("Watch ended: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatalf("no state within 10s")
	}
	return client.State{}
}

func (w *watch) waitNotice(t *testing.T, kind client.NoticeKind) client.Notice {
	t.Helper()
	for {
		select {
		case n := <-w.notices:
			if n.Kind == kind {
				return n
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no %s notice within 10s", kind)
		}
	}
}

func TestWatchDeliversEachState(t *testing.T) {
	f := newFixture(t, relaytest.Options{})
	id, _ := f.publish(t)
	w := startWatch(t, f.c, id)
	s1 := w.next(t)
	if s1.Version != 1 || s1.Polled || len(s1.Signers) != 1 || s1.ID != id || s1.Network != "testnet" {
		t.Fatalf("first state = %+v", s1)
	}
	f.sign(t, id, f.acct.Keys[1])
	if s := w.next(t); s.Version != 2 || len(s.Signers) != 2 || mustWeigh(t, s.XDR, f.acct).Weight != 2 {
		t.Fatalf("second state = %+v", s)
	}
	// A signature already present changes nothing and sends nothing.
	f.sign(t, id, f.acct.Keys[1])
	f.sign(t, id, f.acct.Master)
	if s := w.next(t); s.Version != 3 || mustWeigh(t, s.XDR, f.acct).Weight != 3 {
		t.Fatalf("third state = %+v", s)
	}
}

func TestWatchReconnectsAfterDrop(t *testing.T) {
	f := newFixture(t, relaytest.Options{})
	id, _ := f.publish(t)
	w := startWatch(t, f.c, id)
	w.waitNotice(t, client.NoticeConnected)
	w.next(t)

	f.relay.DropConnections() // the server drops every stream
	w.waitNotice(t, client.NoticeDropped)
	w.waitNotice(t, client.NoticeConnected)
	// The reconnect's first event repeats version 1 and is not delivered.
	f.sign(t, id, f.acct.Keys[1])
	if s := w.next(t); s.Version != 2 || s.Polled {
		t.Fatalf("after reconnect: %+v", s)
	}
}

func TestWatchFallsBackToPollingAtSubscriberCap(t *testing.T) {
	f := newFixture(t, relaytest.Options{})
	id, _ := f.publish(t)
	var watchers []*watch
	for range 50 {
		w := startWatch(t, f.c, id)
		w.waitNotice(t, client.NoticeConnected)
		watchers = append(watchers, w)
	}
	last := startWatch(t, f.c, id)
	n := last.waitNotice(t, client.NoticePolling)
	e := wantAPIError(t, n.Err, http.StatusServiceUnavailable, "")
	if e.RetryAfter != 5*time.Second || n.Wait != 5*time.Second {
		t.Fatalf("503 RetryAfter = %v, poll window %v; want 5s", e.RetryAfter, n.Wait)
	}
	if s := last.next(t); !s.Polled || mustWeigh(t, s.XDR, f.acct).Weight != 1 {
		t.Fatalf("51st watcher's first state = %+v", s)
	}
	f.sign(t, id, f.acct.Keys[1])
	if s := last.next(t); !s.Polled || mustWeigh(t, s.XDR, f.acct).Weight != 2 {
		t.Fatalf("51st watcher's next state = %+v", s)
	}
	for _, w := range watchers[:3] {
		if s := w.next(t); s.Polled {
			t.Fatalf("a streaming watcher polled: %+v", s)
		}
		w.next(t)
	}
}

// TestWatchStopsOnExpiry carries a plan to its expiry in a synctest bubble:
// maxTime one hour ahead makes the plan live 59 minutes (SPEC's 60 s grace),
// and Watch must end with ErrExpired at that instant, not before and not by
// polling a plan that is gone.
func TestWatchStopsOnExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := relaytest.StartInMemory(t, relaytest.Options{})
		acct := ledgertest.NewAccount(2, 1)
		r.Horizon.AddAccount(acct)
		c, err := client.New(r.URL, client.WithHTTPClient(r.Client))
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		x, _ := ledgertest.BuildClose(acct.Master, keypair.MustRandom().Address(), 1<<32+1, start.Unix()+3600, passphrase, acct.Keys[0])
		id, err := c.Publish(context.Background(), "testnet", x)
		if err != nil {
			t.Fatal(err)
		}
		var got atomic.Int32
		err = c.Watch(context.Background(), id, func(client.State) error { got.Add(1); return nil })
		if !errors.Is(err, client.ErrExpired) || got.Load() != 1 {
			t.Fatalf("Watch = %v after %d states, want ErrExpired after 1", err, got.Load())
		}
		if lived := time.Since(start); lived != 3540*time.Second {
			t.Fatalf("the watch ended after %v, want the plan's life of 59m0s", lived)
		}
		_, err = c.Get(context.Background(), id)
		wantAPIError(t, err, 404, "NOT_FOUND")
		err = c.Watch(context.Background(), id, func(client.State) error { return nil })
		wantAPIError(t, err, 404, "")
	})
}

func TestWatchCallbackEndsWatch(t *testing.T) {
	f := newFixture(t, relaytest.Options{})
	id, _ := f.publish(t)
	if err := f.c.Watch(context.Background(), id, func(client.State) error { return client.ErrStopWatch }); err != nil {
		t.Fatalf("ErrStopWatch: Watch = %v, want nil", err)
	}
	boom := errors.New("boom")
	if err := f.c.Watch(context.Background(), id, func(client.State) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("Watch = %v, want boom", err)
	}
}

func accountOf(a ledgertest.Account) wallet.Account {
	out := wallet.Account{ID: a.Address, HighThreshold: int(a.Thresholds.HighThreshold)}
	for _, s := range a.Signers {
		out.Signers = append(out.Signers, wallet.Signer{Key: s.Key, Weight: int(s.Weight), Type: s.Type})
	}
	return out
}

// forwardXDR is wallet.BuildForward's envelope in base64.
func forwardXDR(t *testing.T, p wallet.ForwardParams) string {
	t.Helper()
	tx, err := wallet.BuildForward(p)
	if err != nil {
		t.Fatal(err)
	}
	x, err := tx.Base64()
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func mustWeigh(t *testing.T, x string, a ledgertest.Account) wallet.Progress {
	t.Helper()
	p, err := wallet.Weigh(x, "testnet", accountOf(a))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func upper(s string) string {
	b := []byte(s)
	for i, ch := range b {
		if ch >= 'a' && ch <= 'f' {
			b[i] = ch - 'a' + 'A'
		}
	}
	return string(b)
}
