package ledgerapi_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/ledgerapi"
	horizonapi "github.com/closerelay/closerelay/ledgerapi/horizon"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// unreachable fails unless err wraps ledgerapi.ErrAccountUnreachable and its
// text carries none of leaks (pieces of the upstream's answer).
func unreachable(t *testing.T, err error, leaks ...string) {
	t.Helper()
	if !errors.Is(err, ledgerapi.ErrAccountUnreachable) {
		t.Fatalf("err = %v, want it to wrap ErrAccountUnreachable", err)
	}
	for _, l := range leaks {
		if strings.Contains(err.Error(), l) {
			t.Fatalf("error %q leaks the upstream's %q", err, l)
		}
	}
}

func TestClientCandidates(t *testing.T) {
	srv := ledgertest.New()
	defer srv.Close()
	k := keys(100, 6)
	master := k[0]
	signers := []horizon.Signer{
		{Key: k[1].Address(), Weight: 1, Type: "ed25519_public_key"},
		{Key: k[2].Address(), Weight: 0, Type: "ed25519_public_key"}, // weight 0: not a candidate
		{Key: "XDRPF6NZRR7EEVO7ESIWUDXHAOMM2QSKIQQBJK6I2FB7YKDZES5A7HNG", Weight: 1, Type: "sha256_hash"},
		{Key: "TBU2RRGLXH3E5CQHTD3ODLDF2BWDCYUSSBLLZ5GNW7JXHDIYKXZWHXL7", Weight: 1, Type: "preauth_tx"},
		{Key: k[3].Address(), Weight: 255, Type: "ed25519_public_key"},
		{Key: "PA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAQACAQDAQCQMBYIBEFAWDANBYHRAEISCMKBKFQXDAMRUGY4DUPB6IBZGM", Weight: 1, Type: "ed25519_signed_payload"},
		{Key: master.Address(), Weight: 1, Type: "ed25519_public_key"},
	}
	srv.SetAccount(master.Address(), signers, horizon.AccountThresholds{HighThreshold: 2})
	// Master weight 0: the master is not a candidate.
	srv.SetAccount(k[4].Address(), []horizon.Signer{
		{Key: k[5].Address(), Weight: 3, Type: "ed25519_public_key"},
		{Key: k[4].Address(), Weight: 0, Type: "ed25519_public_key"},
	}, horizon.AccountThresholds{})

	c := srv.Client(5 * time.Second)
	tests := []struct {
		account string
		want    []string
		weights []int32
	}{
		{master.Address(), []string{k[1].Address(), k[3].Address(), master.Address()}, []int32{1, 255, 1}},
		{k[4].Address(), []string{k[5].Address()}, []int32{3}},
	}
	for _, tt := range tests {
		set, err := c.Signers(context.Background(), ledger.Testnet, tt.account)
		if err != nil {
			t.Fatalf("Signers(%s): %v", tt.account, err)
		}
		var got []string
		for i, s := range set.Signers() {
			got = append(got, s.Address)
			if s.Weight != tt.weights[i] || len(s.Key) != 32 || s.Hint != ledger.HintOf(s.Key) {
				t.Errorf("signer %d = %+v", i, s)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("candidates of %s = %v, want %v", tt.account, got, tt.want)
		}
	}
}

func TestClientFailures(t *testing.T) {
	srv := ledgertest.New()
	defer srv.Close()
	k := keys(110, 3)
	known := k[0].Address()
	srv.AddAccount(ledgertest.DeterministicAccount(3, 1, 1))
	srv.SetAccount(known, []horizon.Signer{{Key: known, Weight: 1, Type: "ed25519_public_key"}}, horizon.AccountThresholds{})

	badKey := ledgertest.AccountDetail(k[1].Address(), []horizon.Signer{{Key: "GNOTAKEY", Weight: 1, Type: "ed25519_public_key"}}, horizon.AccountThresholds{})
	srv.SetAccountDetail(badKey)
	wrongID := ledgertest.AccountDetail(k[2].Address(), nil, horizon.AccountThresholds{})
	wrongID.AccountID = known
	srv.SetAccountDetail(wrongID)
	many := ledgertest.NewAccount(ledger.MaxPlanSignerSet, 1) // 22 candidates
	srv.AddAccount(many)

	tests := []struct {
		name     string
		urls     map[ledger.Network]string
		network  ledger.Network
		account  string
		failing  bool
		requests int // requests the double should see
		leaks    []string
	}{
		{name: "unknown account: 404", account: ledgertest.Keypair(119).Address(), requests: 1, leaks: []string{"Resource Missing", "not_found"}},
		{name: "upstream 500", account: known, failing: true, requests: 1, leaks: []string{"Internal Server Error", "server_error"}},
		{name: "bad key in the answer", account: k[1].Address(), requests: 1, leaks: []string{"GNOTAKEY"}},
		{name: "answer for another account", account: k[2].Address(), requests: 1},
		{name: "more signers than the ledger allows", account: many.Address, requests: 1},
		{name: "network without URL", urls: map[ledger.Network]string{ledger.Mainnet: srv.URL}, account: known},
		{name: "URL not http", urls: map[ledger.Network]string{ledger.Testnet: "ftp://" + strings.TrimPrefix(srv.URL, "http://")}, account: known},
		{name: "empty URL", urls: map[ledger.Network]string{ledger.Testnet: ""}, account: known},
		{name: "unknown network", network: "public", account: known},
		{name: "account is not an address", account: "../../ledgers", requests: 0},
		{name: "muxed account", account: "MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVAAAAAAAAAAAAAJLK", requests: 0},
		{name: "seed instead of address", account: k[0].Seed(), requests: 0, leaks: []string{k[0].Seed()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			urls := tt.urls
			if urls == nil {
				urls = srv.URLs()
			}
			n := tt.network
			if n == "" {
				n = ledger.Testnet
			}
			srv.SetFailing(tt.failing)
			defer srv.SetFailing(false)
			before := srv.Requests()
			c := ledgerapi.New(ledgerapi.Options{Backends: horizonapi.Backends(urls, nil), Timeout: 5 * time.Second})
			set, err := c.Signers(context.Background(), n, tt.account)
			if set != nil {
				t.Fatalf("failed call returned a set of %d", set.Len())
			}
			unreachable(t, err, tt.leaks...)
			if got := srv.Requests() - before; got != tt.requests {
				t.Errorf("double saw %d requests, want %d", got, tt.requests)
			}
		})
	}
}

// TestClientUpstreamBodies: whatever an upstream answers, the error
// text is ours.
func TestClientUpstreamBodies(t *testing.T) {
	const secret = "SECRET-UPSTREAM-DETAIL"
	account := ledgertest.Keypair(120).Address()
	tests := []struct {
		name   string
		status int
		body   func(w io.Writer)
	}{
		{"200 not JSON", 200, func(w io.Writer) { io.WriteString(w, "<html>"+secret+"</html>") }},
		{"200 JSON of the wrong shape", 200, func(w io.Writer) { io.WriteString(w, `{"id": 12, "signers": "`+secret+`"}`) }},
		{"404 not JSON", 404, func(w io.Writer) { io.WriteString(w, secret) }},
		{"502 problem JSON", 502, func(w io.Writer) {
			io.WriteString(w, `{"type":"x","title":"`+secret+`","status":502,"detail":"`+secret+`"}`)
		}},
		{"200 endless body", 200, func(w io.Writer) {
			io.WriteString(w, `{"id":"`+secret)
			chunk := strings.Repeat("a", 64<<10)
			for range 100 { // 6.4 MB, past the cap
				if _, err := io.WriteString(w, chunk); err != nil {
					return
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				tt.body(w)
			}))
			defer srv.Close()
			c := ledgerapi.New(ledgerapi.Options{
				Backends: horizonapi.Backends(map[ledger.Network]string{ledger.Testnet: srv.URL}, nil),
				Timeout:  5 * time.Second,
			})
			_, err := c.Signers(context.Background(), ledger.Testnet, account)
			unreachable(t, err, secret)
		})
	}
}

// TestClientTimeout runs over a real loopback connection: the double
// stalls until the client gives up, so the test waits exactly as long as
// the bound and cannot pass by luck.
func TestClientTimeout(t *testing.T) {
	srv := ledgertest.New()
	defer srv.Close()
	acct := ledgertest.NewAccount(1, 1)
	srv.AddAccount(acct)
	srv.SetStalled(true)
	_, err := srv.Client(50*time.Millisecond).Signers(context.Background(), ledger.Testnet, acct.Address)
	unreachable(t, err)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want it to wrap context.DeadlineExceeded", err)
	}
	srv.SetStalled(false)
	if _, err := srv.Client(5*time.Second).Signers(context.Background(), ledger.Testnet, acct.Address); err != nil {
		t.Fatalf("after the stall: %v", err)
	}
}

// TestClientBoundsInFakeTime checks, in fake time, that a call ends at
// exactly the client's timeout, or at the caller's deadline or cancellation
// when that comes first, and that a slow but timely answer succeeds.
func TestClientBoundsInFakeTime(t *testing.T) {
	const timeout = 10 * time.Second
	tests := []struct {
		name    string
		delay   time.Duration // 0: stalled
		ctx     func(context.Context) (context.Context, func())
		cancel  bool // cancel the caller's context once the request waits
		want    time.Duration
		wantErr error
	}{
		{name: "stall ends at the timeout", want: timeout, wantErr: context.DeadlineExceeded},
		{name: "caller's earlier deadline wins", ctx: func(c context.Context) (context.Context, func()) {
			return context.WithTimeout(c, 3*time.Second)
		}, want: 3 * time.Second, wantErr: context.DeadlineExceeded},
		{name: "caller cancels", cancel: true, want: 0, wantErr: context.Canceled},
		{name: "slow answer inside the bound", delay: timeout - time.Second, want: timeout - time.Second},
		{name: "answer too late", delay: timeout + time.Second, want: timeout, wantErr: context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := ledgertest.NewHandler()
				defer h.Release()
				acct := ledgertest.DeterministicAccount(4, 2, 1)
				h.AddAccount(acct)
				if tt.delay > 0 {
					h.SetDelay(tt.delay)
				} else {
					h.SetStalled(true)
				}
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				if tt.ctx != nil {
					var stop func()
					ctx, stop = tt.ctx(ctx)
					defer stop()
				}
				var observed []bool
				c := newClient(h, timeout, 0, func(n ledger.Network, ok bool, d time.Duration) {
					observed = append(observed, ok)
				})

				start := time.Now()
				var set *ledger.SignerSet
				var err error
				done := make(chan struct{})
				go func() {
					defer close(done)
					set, err = c.Signers(ctx, ledger.Testnet, acct.Address)
				}()
				synctest.Wait() // the request is in the double
				if tt.cancel {
					cancel()
				}
				<-done
				if got := time.Since(start); got != tt.want {
					t.Errorf("call took %v, want %v", got, tt.want)
				}
				if tt.wantErr == nil {
					if err != nil || set.Len() != 3 {
						t.Fatalf("Signers = %v, %v; want 3 candidates", set, err)
					}
				} else {
					unreachable(t, err)
					if !errors.Is(err, tt.wantErr) {
						t.Errorf("err = %v, want it to wrap %v", err, tt.wantErr)
					}
				}
				if len(observed) != 1 || observed[0] != (tt.wantErr == nil) {
					t.Errorf("observer saw %v, want one call with ok=%v", observed, tt.wantErr == nil)
				}
			})
		})
	}
}

func TestClientObserver(t *testing.T) {
	srv := ledgertest.New()
	defer srv.Close()
	acct := ledgertest.NewAccount(0, 1)
	srv.AddAccount(acct)
	type call struct {
		n  ledger.Network
		ok bool
	}
	var mu sync.Mutex
	var calls []call
	c := ledgerapi.New(ledgerapi.Options{Backends: srv.Backends(), Timeout: 5 * time.Second,
		Observe: func(n ledger.Network, ok bool, d time.Duration) {
			mu.Lock()
			defer mu.Unlock()
			if d < 0 {
				t.Errorf("negative duration %v", d)
			}
			calls = append(calls, call{n, ok})
		}})
	ctx := context.Background()
	c.Signers(ctx, ledger.Mainnet, acct.Address)
	c.Signers(ctx, ledger.Futurenet, ledgertest.Keypair(130).Address())
	c.Signers(ctx, "elsewhere", acct.Address)   // not sent: not observed
	c.Signers(ctx, ledger.Testnet, "not an id") // not sent: not observed
	want := []call{{ledger.Mainnet, true}, {ledger.Futurenet, false}}
	if fmt.Sprint(calls) != fmt.Sprint(want) {
		t.Errorf("observed %v, want %v", calls, want)
	}
	// A client without an observer reads as well.
	if _, err := srv.Client(5*time.Second).Signers(ctx, ledger.Mainnet, acct.Address); err != nil {
		t.Errorf("without an observer: %v", err)
	}
}

// TestClientConcurrent shares one client between goroutines (run with
// -race).
func TestClientConcurrent(t *testing.T) {
	srv := ledgertest.New()
	defer srv.Close()
	accts := make([]ledgertest.Account, 4)
	for i := range accts {
		accts[i] = ledgertest.NewAccount(i, 1)
		srv.AddAccount(accts[i])
	}
	c := srv.Client(5 * time.Second)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			a := accts[i%len(accts)]
			set, err := c.Signers(context.Background(), ledger.Testnet, a.Address)
			if err != nil || set.Len() != len(a.Keys) {
				t.Errorf("Signers(%s) = %v, %v", a.Address, set, err)
			}
		})
	}
	wg.Wait()
}

// signersResult is what one Signers call returned, and when.
type signersResult struct {
	set  *ledger.SignerSet
	err  error
	took time.Duration
}

// goSigners calls c.Signers on a goroutine of its own; the answer arrives on
// the returned channel.
func goSigners(ctx context.Context, c *ledgerapi.Client, account string) <-chan signersResult {
	out := make(chan signersResult, 1)
	go func() {
		start := time.Now()
		set, err := c.Signers(ctx, ledger.Testnet, account)
		out <- signersResult{set, err, time.Since(start)}
	}()
	return out
}

// roundTrips counts the observer's calls, by outcome.
type roundTrips struct {
	mu     sync.Mutex
	ok, ko int
}

// observe is an Options.Observe.
func (r *roundTrips) observe(_ ledger.Network, ok bool, _ time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ok {
		r.ok++
	} else {
		r.ko++
	}
}

// newClient is a client reading every network from h in process, with the
// bounds and observer given (0 and nil for production's).
func newClient(h *ledgertest.Handler, timeout time.Duration, concurrency int, observe func(ledger.Network, bool, time.Duration)) *ledgerapi.Client {
	return ledgerapi.New(ledgerapi.Options{Backends: h.Backends(), Timeout: timeout, Concurrency: concurrency, Observe: observe})
}

func (r *roundTrips) check(t *testing.T, ok, ko int) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ok != ok || r.ko != ko {
		t.Errorf("observer saw %d successful and %d failed round trips, want %d and %d", r.ok, r.ko, ok, ko)
	}
}

// TestClientSharesOneCall is the reproduction of CONTRACT section 9:
// 200 concurrent reads of one account, the account API holding its answer,
// make one upstream request, observed once, whose answer every caller gets.
func TestClientSharesOneCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := ledgertest.NewHandler()
		defer h.Release()
		acct := ledgertest.DeterministicAccount(5, 2, 1)
		h.AddAccount(acct)
		h.SetHeld(true)
		var trips roundTrips
		c := newClient(h, 10*time.Second, 0, trips.observe)

		const callers = 200
		results := make([]<-chan signersResult, callers)
		for i := range results {
			results[i] = goSigners(t.Context(), c, acct.Address)
		}
		synctest.Wait() // every caller waits, the shared request in the double
		if got := h.Requests(); got != 1 {
			t.Fatalf("%d concurrent callers for one account made %d upstream requests, want 1", callers, got)
		}
		h.SetHeld(false)
		var first *ledger.SignerSet
		for i, r := range results {
			res := <-r
			if res.err != nil || res.set.Len() != 3 {
				t.Fatalf("caller %d: Signers = %v, %v; want 3 candidates", i, res.set, res.err)
			}
			if first == nil {
				first = res.set
			} else if res.set != first {
				t.Errorf("caller %d got a set of its own, not the shared call's", i)
			}
		}
		if got := h.Requests(); got != 1 {
			t.Errorf("upstream requests = %d, want 1", got)
		}
		trips.check(t, 1, 0)

		// The answer is not cached: a later read makes a call of its own.
		if _, err := c.Signers(t.Context(), ledger.Testnet, acct.Address); err != nil {
			t.Fatal(err)
		}
		if got := h.Requests(); got != 2 {
			t.Errorf("upstream requests after a later read = %d, want 2", got)
		}
		// Another network is another call.
		h.SetHeld(true)
		a, b := goSigners(t.Context(), c, acct.Address), make(chan signersResult, 1)
		go func() {
			set, err := c.Signers(t.Context(), ledger.Mainnet, acct.Address)
			b <- signersResult{set: set, err: err}
		}()
		synctest.Wait()
		if got := h.Requests(); got != 4 {
			t.Errorf("upstream requests for one account on two networks = %d, want 4", got)
		}
		h.SetHeld(false)
		<-a
		<-b
	})
}

// TestClientConcurrencyBound: with the account API holding every
// answer, N+k callers for distinct accounts put exactly N requests upstream;
// the other k wait for a slot, without a request, and go once slots free.
func TestClientConcurrencyBound(t *testing.T) {
	tests := []struct {
		name  string
		n     int // Options.Concurrency
		bound int
		extra int
	}{
		{name: "Concurrency 4", n: 4, bound: 4, extra: 3},
		{name: "default", bound: ledgerapi.DefaultConcurrency, extra: 8},
		{name: "Concurrency -1 is the default", n: -1, bound: ledgerapi.DefaultConcurrency, extra: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := ledgertest.NewHandler()
				defer h.Release()
				callers := tt.bound + tt.extra
				accts := make([]ledgertest.Account, callers)
				for i := range accts {
					accts[i] = ledgertest.DeterministicAccount(1000+i, 1, 1)
					h.AddAccount(accts[i])
				}
				h.SetHeld(true)
				var trips roundTrips
				c := newClient(h, 10*time.Second, tt.n, trips.observe)
				if got := c.Concurrency(); got != tt.bound {
					t.Errorf("Concurrency() = %d, want %d", got, tt.bound)
				}

				results := make([]<-chan signersResult, callers)
				for i, a := range accts {
					results[i] = goSigners(t.Context(), c, a.Address)
				}
				synctest.Wait()
				if got := h.Requests(); got != tt.bound {
					t.Fatalf("%d callers for distinct accounts put %d requests upstream, want the bound %d", callers, got, tt.bound)
				}
				h.SetHeld(false)
				for i, r := range results {
					if res := <-r; res.err != nil || res.set.Len() != 2 {
						t.Errorf("caller %d: Signers = %v, %v; want 2 candidates", i, res.set, res.err)
					}
				}
				if got := h.Requests(); got != callers {
					t.Errorf("upstream requests = %d, want %d", got, callers)
				}
				if got := h.PeakServing(); got != tt.bound {
					t.Errorf("at most %d requests were in flight, want %d", got, tt.bound)
				}
				trips.check(t, callers, 0)
			})
		})
	}
}

// TestClientSlotTimeout: a call that finds every slot busy waits for
// one, first come first served, for at most the client's timeout, then fails
// with ErrAccountUnreachable without ever reaching the upstream; a caller
// whose context ends while it waits stops waiting at once.
func TestClientSlotTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const timeout = 10 * time.Second
		h := ledgertest.NewHandler()
		defer h.Release()
		h.SetStalled(true) // every round trip lasts the whole timeout
		var trips roundTrips
		c := newClient(h, timeout, 1, trips.observe)
		k := keys(140, 4)

		// t=0: a takes the only slot until t=10s.
		a := goSigners(t.Context(), c, k[0].Address())
		synctest.Wait()
		// t=1s: b waits for a slot; it gets a's at t=10s and holds it
		// until t=20s.
		time.Sleep(time.Second)
		b := goSigners(t.Context(), c, k[1].Address())
		// t=2s: a caller that gives up while waiting stops at once.
		time.Sleep(time.Second)
		ctx, cancel := context.WithCancel(t.Context())
		gone := goSigners(ctx, c, k[2].Address())
		synctest.Wait()
		cancel()
		res := <-gone
		unreachable(t, res.err)
		if !errors.Is(res.err, context.Canceled) || res.took != 0 {
			t.Errorf("cancelled waiter: err = %v after %v, want context.Canceled at once", res.err, res.took)
		}
		// t=5s: c waits behind b; no slot frees before its timeout.
		time.Sleep(3 * time.Second)
		cw := goSigners(t.Context(), c, k[3].Address())
		synctest.Wait()
		if got := h.Requests(); got != 1 {
			t.Fatalf("with one slot, %d requests reached the upstream, want 1", got)
		}

		res = <-cw
		unreachable(t, res.err)
		if !errors.Is(res.err, context.DeadlineExceeded) || res.took != timeout {
			t.Errorf("waiter without a slot: err = %v after %v, want context.DeadlineExceeded after %v", res.err, res.took, timeout)
		}
		if got := h.Requests(); got != 2 {
			t.Errorf("upstream requests = %d, want 2 (the waiter that timed out sent none)", got)
		}
		for name, r := range map[string]<-chan signersResult{"first": a, "second": b} {
			res := <-r
			unreachable(t, res.err)
			if !errors.Is(res.err, context.DeadlineExceeded) {
				t.Errorf("%s caller: err = %v, want the round trip's timeout", name, res.err)
			}
		}
		if got := h.PeakServing(); got != 1 {
			t.Errorf("at most %d requests were in flight, want 1", got)
		}
		trips.check(t, 0, 2) // the two round trips; no wait is observed
	})
}

// TestClientCallerGoneKeepsSharedCall: a caller that goes away,
// even the one that started the shared call, does not end it for the others;
// once every caller has gone, the call is cancelled.
func TestClientCallerGoneKeepsSharedCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := ledgertest.NewHandler()
		defer h.Release()
		acct := ledgertest.DeterministicAccount(6, 2, 1)
		h.AddAccount(acct)
		h.SetHeld(true)
		var trips roundTrips
		c := newClient(h, 10*time.Second, 0, trips.observe)

		firstCtx, cancelFirst := context.WithCancel(t.Context())
		first := goSigners(firstCtx, c, acct.Address)
		synctest.Wait() // the first caller's request is in the double
		deadlineCtx, stop := context.WithTimeout(t.Context(), 3*time.Second)
		defer stop()
		early := goSigners(deadlineCtx, c, acct.Address)
		var others []<-chan signersResult
		for range 5 {
			others = append(others, goSigners(t.Context(), c, acct.Address))
		}
		synctest.Wait()

		cancelFirst()
		res := <-first
		unreachable(t, res.err)
		if !errors.Is(res.err, context.Canceled) || res.took != 0 {
			t.Errorf("first caller: err = %v after %v, want context.Canceled at once", res.err, res.took)
		}
		res = <-early // ends at its own deadline
		unreachable(t, res.err)
		if !errors.Is(res.err, context.DeadlineExceeded) || res.took != 3*time.Second {
			t.Errorf("caller with a 3s deadline: err = %v after %v, want context.DeadlineExceeded after 3s", res.err, res.took)
		}
		if got := h.Serving(); got != 1 {
			t.Fatalf("after two callers went away, %d requests are in flight, want the shared 1", got)
		}
		h.SetHeld(false)
		for i, r := range others {
			if res := <-r; res.err != nil || res.set.Len() != 3 {
				t.Errorf("remaining caller %d: Signers = %v, %v; want 3 candidates", i, res.set, res.err)
			}
		}
		if got := h.Requests(); got != 1 {
			t.Errorf("upstream requests = %d, want 1", got)
		}
		trips.check(t, 1, 0)

		// Every caller goes: the call ends with them, and a new caller
		// starts a call of its own.
		h.SetHeld(true)
		ctx, cancel := context.WithCancel(t.Context())
		var gone []<-chan signersResult
		for range 3 {
			gone = append(gone, goSigners(ctx, c, acct.Address))
		}
		synctest.Wait()
		cancel()
		for _, r := range gone {
			if res := <-r; !errors.Is(res.err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", res.err)
			}
		}
		if got := h.Serving(); got != 0 {
			t.Errorf("after every caller went away, %d requests are still in flight", got)
		}
		trips.check(t, 1, 1)
		h.SetHeld(false)
		if _, err := c.Signers(t.Context(), ledger.Testnet, acct.Address); err != nil {
			t.Fatal(err)
		}
		if got := h.Requests(); got != 3 {
			t.Errorf("upstream requests = %d, want 3", got)
		}
	})
}

// TestClientThresholds: the account API client reads the account's
// low, medium and high thresholds with its signers, and the double's
// NewAccount serves a high threshold of every signer's weight together (3
// for three signers of weight 1, as the demo says).
func TestClientThresholds(t *testing.T) {
	srv := ledgertest.New()
	defer srv.Close()
	k := keys(300, 2)
	srv.SetAccount(k[0].Address(), []horizon.Signer{{Key: k[0].Address(), Weight: 1, Type: "ed25519_public_key"}},
		horizon.AccountThresholds{LowThreshold: 1, MedThreshold: 7, HighThreshold: 200})
	demo := ledgertest.NewAccount(2, 1)
	srv.AddAccount(demo)
	srv.SetAccount(k[1].Address(), []horizon.Signer{{Key: k[1].Address(), Weight: 1, Type: "ed25519_public_key"}}, horizon.AccountThresholds{})

	c := srv.Client(5 * time.Second)
	for _, tt := range []struct {
		account string
		want    ledger.Thresholds
	}{
		{k[0].Address(), ledger.Thresholds{Low: 1, Medium: 7, High: 200}},
		{demo.Address, ledger.Thresholds{Low: 1, Medium: 1, High: 3}},
		{k[1].Address(), ledger.Thresholds{}},
	} {
		set, err := c.Signers(context.Background(), ledger.Testnet, tt.account)
		if err != nil {
			t.Fatalf("Signers(%s): %v", tt.account, err)
		}
		if got := set.Thresholds(); got != tt.want {
			t.Errorf("thresholds of %s = %+v, want %+v", tt.account, got, tt.want)
		}
	}
}

// TestClientAccountSharesTheRead: Account and Signers for one account, at
// once, make one upstream request; Account answers the whole state the
// candidates came from.
func TestClientAccountSharesTheRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := ledgertest.NewHandler()
		defer h.Release()
		acct := ledgertest.DeterministicAccount(8, 2, 1)
		h.AddAccount(acct)
		h.SetHeld(true)
		var trips roundTrips
		c := newClient(h, 10*time.Second, 0, trips.observe)

		signers := goSigners(t.Context(), c, acct.Address)
		type stateResult struct {
			state ledger.AccountState
			err   error
		}
		states := make(chan stateResult, 1)
		go func() {
			st, err := c.Account(t.Context(), ledger.Testnet, acct.Address)
			states <- stateResult{st, err}
		}()
		synctest.Wait()
		if got := c.Waiting(); got != 2 {
			t.Errorf("Waiting() = %d with both callers on the read, want 2", got)
		}
		h.SetHeld(false)
		res, st := <-signers, <-states
		if res.err != nil || st.err != nil {
			t.Fatalf("Signers: %v; Account: %v", res.err, st.err)
		}
		if got := h.Requests(); got != 1 {
			t.Errorf("upstream requests = %d, want 1", got)
		}
		trips.check(t, 1, 0)
		if st.state.ID != acct.Address || len(st.state.Signers) != 3 || st.state.Thresholds != res.set.Thresholds() {
			t.Errorf("Account = %+v, want the state of %s with its 3 signers", st.state, acct.Address)
		}
		if got := c.Waiting(); got != 0 {
			t.Errorf("Waiting() = %d after the answers, want 0", got)
		}
	})
}

// TestClientEntries: a read of entries by key goes to the network's
// backend, and fails like an account read when there is none or it is
// unusable; Horizon reads none yet.
func TestClientEntries(t *testing.T) {
	c := ledgerapi.New(ledgerapi.Options{Backends: map[ledger.Network]ledgerapi.Backend{
		ledger.Testnet: ledgerapi.Unusable{Reason: "no usable URL"},
		ledger.Mainnet: ledgertest.NewHandler().Backends()[ledger.Mainnet],
	}})
	keys := []xdr.LedgerKey{{Type: xdr.LedgerEntryTypeAccount, Account: &xdr.LedgerKeyAccount{AccountId: xdr.MustAddress(ledgertest.Keypair(1).Address())}}}
	if _, err := c.Entries(t.Context(), ledger.Futurenet, keys); !errors.Is(err, ledgerapi.ErrAccountUnreachable) {
		t.Errorf("no backend: %v, want ErrAccountUnreachable", err)
	}
	if _, err := c.Entries(t.Context(), ledger.Testnet, keys); !errors.Is(err, ledgerapi.ErrAccountUnreachable) || !strings.Contains(err.Error(), "no usable URL") {
		t.Errorf("unusable backend: %v, want ErrAccountUnreachable with its reason", err)
	}
	if _, err := c.Entries(t.Context(), ledger.Mainnet, keys); !errors.Is(err, horizonapi.ErrNoEntries) {
		t.Errorf("horizon: %v, want ErrNoEntries", err)
	}
}
