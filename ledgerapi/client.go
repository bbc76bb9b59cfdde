package ledgerapi

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"
	"golang.org/x/sync/singleflight"
)

// DefaultTimeout bounds one call when Options.Timeout is not positive
// (CONTRACT section 1, HORIZON_TIMEOUT).
const DefaultTimeout = 10 * time.Second

// DefaultConcurrency bounds the calls in flight at once when
// Options.Concurrency is not positive (CONTRACT section 9,
// HORIZON_CONCURRENCY).
const DefaultConcurrency = 32

// Options configure a Client; the zero value of each field is production's
// choice.
type Options struct {
	// Backends is each network's ledger API. A network without one fails
	// every call without sending anything, as does an Unusable backend.
	Backends map[ledger.Network]Backend
	// Timeout bounds each call, each submission try, and the wait for a
	// call slot; DefaultTimeout when not positive.
	Timeout time.Duration
	// Concurrency bounds the account reads in flight at once over all
	// networks; DefaultConcurrency when not positive.
	Concurrency int
	// Observe, unless nil, is called once per account read sent (not once
	// per caller: callers sharing a call share its observation) with the
	// network, whether the read succeeded, and how long it took, for the
	// account API histogram. Reads that fail before anything is sent (no
	// backend, an invalid address, no free slot within the timeout) are not
	// observed. It runs on the shared call's goroutine, before the callers
	// waiting for its answer return, and must be quick.
	Observe func(n ledger.Network, ok bool, d time.Duration)
	// SubmitBackoff is the wait before a submission's first retry, each
	// following one twice as long, never more than SubmitBackoffCap
	// (DefaultSubmitBackoff and DefaultSubmitBackoffCap when not positive;
	// the cap is at least the first wait).
	SubmitBackoff, SubmitBackoffCap time.Duration
}

var _ AccountReader = (*Client)(nil)

// Client reads accounts and submits transactions through each network's
// Backend, within CONTRACT section 9's bounds.
//
// Callers that ask for the same account on the same network while a read
// of it is under way share that read and its answer: a burst of publishes
// for one account costs one round trip. The shared read runs on a
// goroutine of its own, under a context detached from its callers (their
// values kept), so a caller that goes away does not end it for the others;
// each caller stops waiting when its own context ends, and the read is
// cancelled once no caller waits for it any more.
//
// At most Options.Concurrency reads are in flight at once, over all
// networks; a further read waits for a free slot, first come first served,
// for at most the timeout, and then fails with ErrAccountUnreachable
// without sending anything. A caller therefore waits at most twice the
// timeout: once for a slot, once for the answer.
//
// Submissions take no slot: a submission can legitimately stall for a whole
// timeout on each try (Horizon waits for the ledger to close) while reads
// are fast, and publishes must not queue behind it. At most one submission
// runs per ready plan, which bounds them.
//
// It is safe for concurrent use, and immutable but for the reads under way.
// The zero Client is not usable; New(Options{}) is a client with no
// backend, whose every call fails without sending anything.
type Client struct {
	// Immutable after New.
	backends   map[ledger.Network]Backend
	timeout    time.Duration
	slots      chan struct{} // one token per read in flight; its capacity is the bound
	observe    func(ledger.Network, bool, time.Duration)
	backoff    time.Duration
	backoffCap time.Duration

	mu      sync.Mutex
	flights map[flightKey]*flight // the reads under way
	waiting int                   // callers waiting on a flight, over all flights

	offerFlights  singleflight.Group // the offers listings under way, by network and account
	latestFlights singleflight.Group // the latest ledger reads under way, by network
	feeFlights    singleflight.Group // the fee statistics reads under way, by network
}

// flightKey names what a read reads: callers with the same key share it.
type flightKey struct {
	network ledger.Network
	account string
}

// flight is one account read, shared by the callers that asked for its key
// while it was under way.
type flight struct {
	done   chan struct{} // closed once state, set and err are final
	state  ledger.AccountState
	set    *ledger.SignerSet // the state's candidates, built once for every caller
	err    error
	cancel context.CancelFunc // ends the read; called when no caller waits

	waiters int // callers still waiting; guarded by Client.mu
}

// New returns a Client configured by o.
func New(o Options) *Client {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	backends := make(map[ledger.Network]Backend, len(o.Backends))
	for n, b := range o.Backends {
		if b != nil {
			backends[n] = b
		}
	}
	c := &Client{
		backends: backends,
		timeout:  o.Timeout,
		slots:    make(chan struct{}, o.Concurrency),
		observe:  o.Observe,
		flights:  make(map[flightKey]*flight),
	}
	c.backoff, c.backoffCap = backoffPolicy(o.SubmitBackoff, o.SubmitBackoffCap)
	return c
}

// Timeout is the bound on one call, and on the wait for a slot before it.
func (c *Client) Timeout() time.Duration { return c.timeout }

// Concurrency is the bound on the reads in flight at once.
func (c *Client) Concurrency() int { return cap(c.slots) }

// Waiting is the number of callers waiting for a shared read's answer right
// now, over all reads. Tests of the sharing bound watch it to know that a
// burst of publishes has arrived at the shared read.
func (c *Client) Waiting() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.waiting
}

// usable is network n's backend, or the reason there is none.
func (c *Client) usable(n ledger.Network) (Backend, string) {
	b, ok := c.backends[n]
	if !ok {
		return nil, fmt.Sprintf("no account API is configured for network %q", string(n))
	}
	if u, ok := b.(Unusable); ok {
		return nil, u.Reason
	}
	return b, ""
}

// Signers implements AccountReader: it reads account on network n and
// returns its candidate set (ledger.CandidateSet), with the account's low,
// medium and high thresholds. Concurrent callers for the same n and account
// share one read and receive the same set.
//
// Every failure wraps ErrAccountUnreachable; see Account.
func (c *Client) Signers(ctx context.Context, n ledger.Network, account string) (*ledger.SignerSet, error) {
	f, err := c.share(ctx, n, account)
	if err != nil {
		return nil, err
	}
	return f.set, nil
}

// Account reads account on network n and returns its state, through the
// same shared read as Signers: a publish that needs both the candidates
// (guard 6) and the state (the preflight, CONTRACT section 14) costs one
// call. The state's Signers slice is shared with the read's other callers:
// read it, never change it.
//
// Every failure wraps ErrAccountUnreachable: an unconfigured network, an
// address that is not a G… account, no free slot within the timeout, a
// transport error, a timeout, a cancelled ctx (the error then also wraps
// ctx's error, even when the shared read goes on for other callers), an
// account the ledger does not hold, an answer that does not parse, names
// another account, lists more signers than the ledger allows or lists an
// invalid key. The error's text never carries the upstream's answer.
func (c *Client) Account(ctx context.Context, n ledger.Network, account string) (ledger.AccountState, error) {
	f, err := c.share(ctx, n, account)
	if err != nil {
		return ledger.AccountState{}, err
	}
	return f.state, nil
}

// Read is Account and Signers from one shared read: guard 6 takes the set,
// and the preflight reuses the state rather than reading it again.
func (c *Client) Read(ctx context.Context, n ledger.Network, account string) (ledger.AccountState, *ledger.SignerSet, error) {
	f, err := c.share(ctx, n, account)
	if err != nil {
		return ledger.AccountState{}, nil, err
	}
	return f.state, f.set, nil
}

// share joins the read of account on n under way, or starts one, and
// waits for its answer or for ctx to end. A nil error means f's state and
// set are final.
func (c *Client) share(ctx context.Context, n ledger.Network, account string) (*flight, error) {
	b, why := c.usable(n)
	if b == nil {
		return nil, Unreachable(why, nil)
	}
	if !strkey.IsValidEd25519PublicKey(account) {
		// Also keeps the address from shaping a request path.
		return nil, Unreachable("the account is not a G… address", nil)
	}
	if err := ctx.Err(); err != nil {
		return nil, Unreachable("the request ended before the account API was called", err)
	}

	key := flightKey{network: n, account: account}
	c.mu.Lock()
	f := c.flights[key]
	if f == nil {
		// Detached from ctx, so that this caller going away does not end the
		// read for callers that join it; await cancels it when none is left.
		fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		f = &flight{done: make(chan struct{}), cancel: cancel}
		c.flights[key] = f
		go c.fly(fctx, key, b, f)
	}
	f.waiters++
	c.waiting++
	c.mu.Unlock()
	return c.await(ctx, key, f)
}

// await waits for f's answer or for ctx to end. The last caller to stop
// waiting before the answer cancels the read and waits for it to end (at
// once, being cancelled), so that no read outlives all its callers.
func (c *Client) await(ctx context.Context, key flightKey, f *flight) (*flight, error) {
	select {
	case <-f.done:
		c.mu.Lock()
		c.waiting--
		c.mu.Unlock()
		if f.err != nil {
			return nil, f.err
		}
		return f, nil
	case <-ctx.Done():
	}
	c.mu.Lock()
	c.waiting--
	f.waiters--
	last := f.waiters == 0
	if last {
		// A caller arriving from now on starts a read of its own.
		if c.flights[key] == f {
			delete(c.flights, key)
		}
		f.cancel()
	}
	c.mu.Unlock()
	if last {
		<-f.done
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, Unreachable("the account API did not answer in time", ctx.Err())
	}
	return nil, Unreachable("the request was cancelled before the account API answered", ctx.Err())
}

// fly runs the shared read f for key under ctx, then hands its answer to
// the callers still waiting.
func (c *Client) fly(ctx context.Context, key flightKey, b Backend, f *flight) {
	state, set, err := c.read(ctx, key, b)
	f.cancel()
	c.mu.Lock()
	if c.flights[key] == f {
		delete(c.flights, key)
	}
	f.state, f.set, f.err = state, set, err
	c.mu.Unlock()
	close(f.done)
}

// read takes a slot, waiting for at most the timeout, makes the round trip
// within the timeout, and builds the account's candidate set.
func (c *Client) read(ctx context.Context, key flightKey, b Backend) (ledger.AccountState, *ledger.SignerSet, error) {
	slots := c.slots
	if err := c.acquire(ctx, slots); err != nil {
		return ledger.AccountState{}, nil, err
	}
	defer func() { <-slots }()

	start := time.Now()
	state, set, err := c.candidates(ctx, key.account, b)
	if c.observe != nil {
		c.observe(key.network, err == nil, time.Since(start))
	}
	return state, set, err
}

// candidates is the round trip and the candidate set. An answer whose set
// cannot be built is not a real account's, so it fails the read for
// Account's callers too.
func (c *Client) candidates(ctx context.Context, account string, b Backend) (ledger.AccountState, *ledger.SignerSet, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	acc, err := b.Account(ctx, account)
	if err != nil {
		return ledger.AccountState{}, nil, err
	}
	if acc.ID != account {
		return ledger.AccountState{}, nil, Unreachable("the account API answered for another account", nil)
	}
	set, err := ledger.CandidateSet(acc)
	switch {
	case errors.Is(err, ledger.ErrSignerKey):
		return ledger.AccountState{}, nil, Unreachable("the account API listed a signer key that is not an ed25519 public key", nil)
	case errors.Is(err, ledger.ErrTooManySigners):
		return ledger.AccountState{}, nil, Unreachable("the account API listed more signers than the ledger allows", nil)
	case err != nil:
		return ledger.AccountState{}, nil, Unreachable("the account API's answer is not an account the ledger can hold", nil)
	}
	return acc, set, nil
}

// acquire takes a slot of slots, waiting for one for at most the timeout or
// until ctx ends.
func (c *Client) acquire(ctx context.Context, slots chan struct{}) error {
	select {
	case slots <- struct{}{}:
		return nil
	default:
	}
	t := time.NewTimer(c.timeout)
	defer t.Stop()
	select {
	case slots <- struct{}{}:
		return nil
	case <-t.C:
		return Unreachable("too many account API calls are in flight; none ended in time", context.DeadlineExceeded)
	case <-ctx.Done():
		return Unreachable("the request was cancelled before an account API call could start", ctx.Err())
	}
}

// Entries reads the ledger entries named by keys on network n: one call,
// within the concurrency bound and the timeout like an account read, but
// not shared (two callers rarely name the same keys). Failures wrap
// ErrAccountUnreachable; it is not observed, the histogram being the
// account reads'.
func (c *Client) Entries(ctx context.Context, n ledger.Network, keys []xdr.LedgerKey) ([]xdr.LedgerEntry, error) {
	b, why := c.usable(n)
	if b == nil {
		return nil, Unreachable(why, nil)
	}
	if err := c.acquire(ctx, c.slots); err != nil {
		return nil, err
	}
	defer func() { <-c.slots }()
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	return b.Entries(ctx, keys)
}

// Latest reads the ledger network n closed last (its sequence number and
// close time), within the concurrency bound and the timeout like an
// account read. Concurrent callers for one network share one read: a burst
// of publishes costs one call. Failures wrap ErrAccountUnreachable.
func (c *Client) Latest(ctx context.Context, n ledger.Network) (ledger.LatestLedger, error) {
	b, why := c.usable(n)
	if b == nil {
		return ledger.LatestLedger{}, Unreachable(why, nil)
	}
	ch := c.latestFlights.DoChan(string(n), func() (any, error) {
		// Detached from the first caller, as the account read is: its
		// going away does not end the read for the others.
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.timeout)
		defer cancel()
		if err := c.acquire(fctx, c.slots); err != nil {
			return nil, err
		}
		defer func() { <-c.slots }()
		l, err := b.Latest(fctx)
		if err == nil && (l.Sequence == 0 || l.CloseTime.IsZero()) {
			err = Unreachable("the account API's latest ledger has no sequence number or close time", nil)
		}
		return l, err
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return ledger.LatestLedger{}, r.Err
		}
		return r.Val.(ledger.LatestLedger), nil
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return ledger.LatestLedger{}, Unreachable("the account API did not answer in time", ctx.Err())
		}
		return ledger.LatestLedger{}, Unreachable("the request was cancelled before the account API answered", ctx.Err())
	}
}

// MaxOffers bounds the offers read of one account for the preflight: an
// account with more is read as far as this, and its listing marked
// incomplete, so that no account can make a publish wait on pages.
const MaxOffers = 1000

// State reads, on network n, what the preflight of a close of account
// needs (CONTRACT sections 14 and 18): the account through the read guard
// 6 shares (Account), its offers, each of others (the accounts the close
// pays or merges into) and the latest ledger (Latest), all at once, each
// within the concurrency bound and the timeout, the whole within the
// timeout from now. An account of others the ledger does not hold is in the
// state as absent (nil). Any other failure fails the whole read; its error
// wraps ErrAccountUnreachable. An account whose answer contradicts itself
// (ledger.AccountState.Contradiction) is marked Incomplete.
func (c *Client) State(ctx context.Context, n ledger.Network, account string, others []string) (ledger.LedgerState, error) {
	return c.state(ctx, n, account, nil, others)
}

// StateWith is State for an account whose state was read already (guard
// 6's read, which the preflight reuses): only its offers and others are
// read.
func (c *Client) StateWith(ctx context.Context, n ledger.Network, acc ledger.AccountState, others []string) (ledger.LedgerState, error) {
	return c.state(ctx, n, acc.ID, &acc, others)
}

func (c *Client) state(ctx context.Context, n ledger.Network, account string, known *ledger.AccountState, others []string) (ledger.LedgerState, error) {
	b, why := c.usable(n)
	if b == nil {
		return ledger.LedgerState{}, Unreachable(why, nil)
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()

	type read struct {
		id    string
		state *ledger.AccountState
		err   error
	}
	ids := []string{account}
	for _, id := range others {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	reads := make(chan read, len(ids))
	type listing struct {
		offers   []ledger.Offer
		complete bool
	}
	var offers []ledger.Offer
	var complete bool
	offersErr := make(chan error, 1)
	go func() {
		// Shared like the account read: a burst of publishes of one
		// account lists its offers once, and takes one slot.
		ch := c.offerFlights.DoChan(string(n)+"/"+account, func() (any, error) {
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.timeout)
			defer cancel()
			if err := c.acquire(fctx, c.slots); err != nil {
				return nil, err
			}
			defer func() { <-c.slots }()
			o, done, err := b.Offers(fctx, account, MaxOffers)
			return listing{o, done}, err
		})
		select {
		case r := <-ch:
			if r.Err == nil {
				l := r.Val.(listing)
				offers, complete = l.offers, l.complete
			}
			offersErr <- r.Err
		case <-ctx.Done():
			offersErr <- Unreachable("the account API did not answer in time", ctx.Err())
		}
	}()
	latest := c.latestAsync(ctx, n)
	for _, id := range ids {
		if id == account && known != nil {
			reads <- read{id: id, state: known}
			continue
		}
		go func() {
			st, err := c.Account(ctx, n, id)
			switch {
			case errors.Is(err, ErrNoAccount) && id != account:
				reads <- read{id: id} // read, and absent
			case err != nil:
				reads <- read{id: id, err: err}
			default:
				reads <- read{id: id, state: &st}
			}
		}()
	}
	out := ledger.LedgerState{Accounts: make(map[string]*ledger.AccountState, len(ids))}
	var first error
	for range ids {
		r := <-reads
		if r.err != nil && first == nil {
			first = r.err
		}
		out.Accounts[r.id] = r.state
	}
	if err := <-offersErr; err != nil && first == nil {
		first = err
	}
	l := <-latest
	if l.err != nil && first == nil {
		first = l.err
	}
	if first != nil {
		return ledger.LedgerState{}, first
	}
	out.Latest = l.latest
	// The account's state is shared with guard 6's callers: the offers go
	// on a copy.
	acc := *out.Accounts[account]
	// The listing is shared too: a copy, for the preflight's own changes.
	acc.Offers, acc.OffersComplete = slices.Clone(offers), complete
	if _, keyed := b.(KeyedOnly); keyed {
		// Its trustlines and data were not read: a preflight on this state
		// would see none. CloseState reads what the close names.
		acc.Incomplete = "the ledger API reads entries by key only: the close's entries are read by CloseState"
	}
	out.Accounts[account] = &acc
	flagContradictions(out)
	return out, nil
}

// FeeReader is a Backend that reads the network's fee statistics
// (Horizon's GET /fee_stats, Stellar RPC's getFeeStats). A backend that
// is not one has no fee statistics: the preflight's fee is then unknown.
type FeeReader interface {
	// FeeStats reads the statistics; an answer that lacks a field or
	// contradicts itself is an error, as a failed read is.
	FeeStats(ctx context.Context) (ledger.FeeStats, error)
}

// FeeStats reads network n's fee statistics, within the concurrency bound
// and the timeout like the latest ledger's read, and shared, as it is, by
// the concurrent callers for one network. Failures wrap
// ErrAccountUnreachable.
func (c *Client) FeeStats(ctx context.Context, n ledger.Network) (ledger.FeeStats, error) {
	b, why := c.usable(n)
	if b == nil {
		return ledger.FeeStats{}, Unreachable(why, nil)
	}
	fr, ok := b.(FeeReader)
	if !ok {
		return ledger.FeeStats{}, Unreachable("the account API reads no fee statistics", nil)
	}
	ch := c.feeFlights.DoChan(string(n), func() (any, error) {
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.timeout)
		defer cancel()
		if err := c.acquire(fctx, c.slots); err != nil {
			return nil, err
		}
		defer func() { <-c.slots }()
		return fr.FeeStats(fctx)
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return ledger.FeeStats{}, r.Err
		}
		return r.Val.(ledger.FeeStats), nil
	case <-ctx.Done():
		return ledger.FeeStats{}, Unreachable("the account API did not answer in time", ctx.Err())
	}
}

// feeStatsRead is the answer of a FeeStats read started by feeStatsAsync.
type feeStatsRead struct {
	stats ledger.FeeStats
	err   error
}

// feeStatsAsync starts reading network n's fee statistics beside a
// preflight's other reads, within the same timeout.
func (c *Client) feeStatsAsync(ctx context.Context, n ledger.Network) <-chan feeStatsRead {
	ch := make(chan feeStatsRead, 1)
	go func() {
		ctx, cancel := context.WithTimeout(ctx, c.timeout)
		defer cancel()
		st, err := c.FeeStats(ctx, n)
		ch <- feeStatsRead{st, err}
	}()
	return ch
}

// latestRead is the answer of a Latest read started by latestAsync.
type latestRead struct {
	latest ledger.LatestLedger
	err    error
}

// latestAsync starts reading network n's latest ledger beside a state's
// other reads; the channel gets its answer.
func (c *Client) latestAsync(ctx context.Context, n ledger.Network) <-chan latestRead {
	ch := make(chan latestRead, 1)
	go func() {
		l, err := c.Latest(ctx, n)
		ch <- latestRead{l, err}
	}()
	return ch
}

// flagContradictions marks Incomplete each account of st whose answer
// contradicts itself (ledger.AccountState.Contradiction): the preflight is
// then unchecked, rather than a verdict built on an answer that cannot be
// the ledger's. Each account is a copy of its own, or shared with no one
// but this read, so marking it changes no other caller's state.
func flagContradictions(st ledger.LedgerState) {
	for id, a := range st.Accounts {
		if a == nil || a.Incomplete != "" {
			continue
		}
		if why := a.Contradiction(); why != "" {
			c := *a
			c.Incomplete = why
			st.Accounts[id] = &c
		}
	}
}

// KeyedOnly is a Backend that reads ledger entries by key only and cannot
// list an account's trustlines, offers or data (Stellar RPC): its Account
// gives none of them and its Offers none. The preflight's reads through it
// are CloseState's one Entries call of the keys the close names.
type KeyedOnly interface {
	Backend
	CannotList()
}

// CloseState reads, on network n, what the preflight of the close env
// needs (CONTRACT sections 14 and 15). Through a backend that lists
// (Horizon) it is State of env's source account and others. Through a
// KeyedOnly backend it is one Entries call, within the concurrency bound
// and the timeout, of the entries the close names (ledger.CloseKeys: the
// accounts, their config.memo_required data entries, the trustlines,
// offers and data entries its operations name), read into the state by
// ledger.StateFromEntries, with each of others' account and
// config.memo_required (ledger.CloseKeysAnd: the accounts of others the
// close names are named once), beside the latest ledger (Latest). Every
// failure wraps ErrAccountUnreachable; an account whose answer contradicts
// itself is marked Incomplete, as State marks it.
func (c *Client) CloseState(ctx context.Context, n ledger.Network, env xdr.TransactionEnvelope, others []string) (ledger.LedgerState, error) {
	b, why := c.usable(n)
	if b == nil {
		return ledger.LedgerState{}, Unreachable(why, nil)
	}
	source := env.SourceAccount().ToAccountId().Address()
	if _, keyed := b.(KeyedOnly); !keyed {
		return c.State(ctx, n, source, others)
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	latest := c.latestAsync(ctx, n)
	keys := ledger.CloseKeysAnd(env, others)
	entries, err := c.Entries(ctx, n, keys)
	l := <-latest
	if err != nil {
		return ledger.LedgerState{}, err
	}
	if l.err != nil {
		return ledger.LedgerState{}, l.err
	}
	st, err := ledger.StateFromEntries(keys, entries)
	if err != nil {
		return ledger.LedgerState{}, Unreachable("the account API's answer is not an account the ledger can hold", nil)
	}
	if st.Accounts[source] == nil {
		// As State: the closing account must be read, and exist.
		return ledger.LedgerState{}, Unreachable("the account API does not know the account", ErrNoAccount)
	}
	st.Latest = l.latest
	flagContradictions(st)
	return st, nil
}
