package ledgerapi

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
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
	// MaxAccounts bounds the distinct accounts one preflight reads besides
	// the closing one, the first ones in operation order
	// (PREFLIGHT_MAX_ACCOUNTS); DefaultMaxAccounts when not positive.
	MaxAccounts int
	// MaxAge is how long an offers listing and a destination's read serve
	// other preflights (PREFLIGHT_MAX_AGE; see evidence); DefaultMaxAge
	// when zero, nothing shared across time when negative.
	MaxAge time.Duration
	// CallsPerClient and CallsPerAccount are the ledger calls a minute
	// that the preflights at publish may spend per client (WithClient) and
	// per closing account (LEDGER_CALLS_PER_CLIENT,
	// LEDGER_CALLS_PER_ACCOUNT); DefaultCallsPerClient and
	// DefaultCallsPerAccount when zero, no budget when negative.
	CallsPerClient, CallsPerAccount int
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
	backends    map[ledger.Network]Backend
	timeout     time.Duration
	slots       chan struct{} // one token per read in flight; its capacity is the bound
	observe     func(ledger.Network, bool, time.Duration)
	backoff     time.Duration
	backoffCap  time.Duration
	maxAccounts int
	evidence    *evidence
	perClient   *budget // nil: none
	perAccount  *budget // nil: none

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
	c.maxAccounts = o.MaxAccounts
	if c.maxAccounts <= 0 {
		c.maxAccounts = DefaultMaxAccounts
	}
	if o.MaxAge == 0 {
		o.MaxAge = DefaultMaxAge
	}
	c.evidence = newEvidence(o.MaxAge)
	c.perClient = newBudget(orDefault(o.CallsPerClient, DefaultCallsPerClient))
	c.perAccount = newBudget(orDefault(o.CallsPerAccount, DefaultCallsPerAccount))
	return c
}

// orDefault is v, or def when v is zero (a negative v stays: off).
func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
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
// 6 shares (Account), then its offers, beside each of others (the accounts
// the close pays or merges into) and the latest ledger (Latest), each
// within the concurrency bound and the timeout, the whole within the
// timeout from now. An account of others the ledger does not hold is in the
// state as absent (nil). Any other failure fails the whole read; its error
// wraps ErrAccountUnreachable. An account whose answer contradicts itself
// (ledger.AccountState.Contradiction) is marked Incomplete.
//
// The account and the latest ledger are read for this call; the offers
// listing is one another call made within Options.MaxAge for the account
// as it is now (see evidence), or a new one; others are read for this
// call too.
func (c *Client) State(ctx context.Context, n ledger.Network, account string, others []string) (ledger.LedgerState, error) {
	return c.state(ctx, n, account, nil, others, readOpts{})
}

// StateWith is State for an account whose state was read already (guard
// 6's read, which the preflight reuses): only its offers and others are
// read, and each of others' read may be one made within Options.MaxAge.
func (c *Client) StateWith(ctx context.Context, n ledger.Network, acc ledger.AccountState, others []string) (ledger.LedgerState, error) {
	return c.state(ctx, n, acc.ID, &acc, others, readOpts{shareOthers: true})
}

// readOpts say how a state's reads are made.
type readOpts struct {
	// shareOthers: an account of others may be served from a read made
	// within MaxAge (evidence); otherwise each is read now.
	shareOthers bool
	// calls, unless nil, counts the backend calls the read made.
	calls *atomic.Int64
}

func (o readOpts) count(n int) {
	if o.calls != nil {
		o.calls.Add(int64(n))
	}
}

// closingRead is the closing account's entry and offers listing.
type closingRead struct {
	state    ledger.AccountState
	offers   []ledger.Offer
	complete bool
	err      error
}

func (c *Client) state(ctx context.Context, n ledger.Network, account string, known *ledger.AccountState, others []string, o readOpts) (ledger.LedgerState, error) {
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
	var ids []string
	for _, id := range others {
		if id != account && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	reads := make(chan read, len(ids))
	closing := make(chan closingRead, 1)
	go func() { closing <- c.closing(ctx, n, account, known, b, o) }()
	latest := c.latestAsync(ctx, n, o)
	for _, id := range ids {
		go func() {
			st, err := c.other(ctx, n, id, o)
			reads <- read{id: id, state: st, err: err}
		}()
	}
	out := ledger.LedgerState{Accounts: make(map[string]*ledger.AccountState, len(ids)+1)}
	var first error
	for range ids {
		r := <-reads
		if r.err != nil && first == nil {
			first = r.err
		}
		out.Accounts[r.id] = r.state
	}
	cl := <-closing
	if cl.err != nil && first == nil {
		first = cl.err
	}
	l := <-latest
	if l.err != nil && first == nil {
		first = l.err
	}
	if first != nil {
		return ledger.LedgerState{}, first
	}
	out.Latest = l.latest
	// The account's state is shared with guard 6's callers, and the
	// listing with other preflights: a copy of each, for the preflight's
	// own changes.
	acc := cl.state
	acc.Offers, acc.OffersComplete = slices.Clone(cl.offers), cl.complete
	if _, keyed := b.(KeyedOnly); keyed {
		// Its trustlines and data were not read: a preflight on this state
		// would see none. CloseState reads what the close names.
		acc.Incomplete = "the ledger API reads entries by key only: the close's entries are read by CloseState"
	}
	out.Accounts[account] = &acc
	flagContradictions(out)
	return out, nil
}

// closing reads the closing account (unless known) and then its offers:
// the listing of another preflight within MaxAge when the account has not
// changed since it began (evidence), else a new one, shared with the
// concurrent callers for the same account (one call and one slot for a
// burst of publishes) and kept for the next ones.
func (c *Client) closing(ctx context.Context, n ledger.Network, account string, known *ledger.AccountState, b Backend, o readOpts) closingRead {
	var acc ledger.AccountState
	if known != nil {
		acc = *known
	} else {
		o.count(1)
		st, err := c.Account(ctx, n, account)
		if err != nil {
			return closingRead{err: err}
		}
		acc = st
	}
	key := flightKey{network: n, account: account}
	if l, ok := c.evidence.listing(key, acc, time.Now()); ok {
		return closingRead{state: acc, offers: l.offers, complete: l.complete}
	}
	type listing struct {
		offers   []ledger.Offer
		complete bool
	}
	// The flight's key carries the account's tag: a caller that read the
	// account as it is now never joins a listing begun for an older entry.
	ch := c.offerFlights.DoChan(string(n)+"/"+account+"/"+offersTag(acc), func() (any, error) {
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.timeout)
		defer cancel()
		if err := c.acquire(fctx, c.slots); err != nil {
			return nil, err
		}
		defer func() { <-c.slots }()
		offers, done, err := b.Offers(fctx, account, MaxOffers)
		if err == nil {
			c.evidence.keepListing(key, acc, offers, done, time.Now())
		}
		return listing{offers, done}, err
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return closingRead{err: r.Err}
		}
		l := r.Val.(listing)
		o.count(offersCalls(len(l.offers)))
		return closingRead{state: acc, offers: l.offers, complete: l.complete}
	case <-ctx.Done():
		return closingRead{err: Unreachable("the account API did not answer in time", ctx.Err())}
	}
}

// offersCalls is what a listing of n offers costs in calls: Horizon's
// pages hold 200 offers, and the last page is the one that is not full.
func offersCalls(n int) int { return n/offersPerPage + 1 }

// offersPerPage is the largest page of offers an account API answers
// (Horizon's), which a listing's cost is counted in.
const offersPerPage = 200

// other reads account id, one the close pays or merges into: nil when the
// ledger does not hold it. With o.shareOthers a read made within MaxAge
// serves; every read made is kept for the next ones.
func (c *Client) other(ctx context.Context, n ledger.Network, id string, o readOpts) (*ledger.AccountState, error) {
	key := flightKey{network: n, account: id}
	if o.shareOthers {
		if d, ok := c.evidence.dest(key, time.Now()); ok {
			return d.state, nil
		}
	}
	o.count(1)
	st, err := c.Account(ctx, n, id)
	switch {
	case errors.Is(err, ErrNoAccount):
		c.evidence.keepDest(key, nil, time.Now())
		return nil, nil // read, and absent
	case err != nil:
		return nil, err
	}
	c.evidence.keepDest(key, &st, time.Now())
	return &st, nil
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
func (c *Client) latestAsync(ctx context.Context, n ledger.Network, o readOpts) <-chan latestRead {
	ch := make(chan latestRead, 1)
	go func() {
		o.count(1)
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
	return c.closeState(ctx, n, env, others, nil, readOpts{})
}

// closeState is CloseState; through a KeyedOnly backend, the keys of the
// accounts in skip (and their trustlines and data entries) are not read,
// so those accounts are missing from the state, as accounts not read.
func (c *Client) closeState(ctx context.Context, n ledger.Network, env xdr.TransactionEnvelope, others, skip []string, o readOpts) (ledger.LedgerState, error) {
	b, why := c.usable(n)
	if b == nil {
		return ledger.LedgerState{}, Unreachable(why, nil)
	}
	source := env.SourceAccount().ToAccountId().Address()
	if _, keyed := b.(KeyedOnly); !keyed {
		return c.state(ctx, n, source, nil, others, o)
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	latest := c.latestAsync(ctx, n, o)
	keys := withoutAccounts(ledger.CloseKeysAnd(env, others), skip)
	o.count(1)
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

// withoutAccounts is keys less those of the accounts in skip: their
// account entries, trustlines and data entries.
func withoutAccounts(keys []xdr.LedgerKey, skip []string) []xdr.LedgerKey {
	if len(skip) == 0 {
		return keys
	}
	return slices.DeleteFunc(slices.Clone(keys), func(k xdr.LedgerKey) bool {
		var id xdr.AccountId
		switch {
		case k.Type == xdr.LedgerEntryTypeAccount && k.Account != nil:
			id = k.Account.AccountId
		case k.Type == xdr.LedgerEntryTypeTrustline && k.TrustLine != nil:
			id = k.TrustLine.AccountId
		case k.Type == xdr.LedgerEntryTypeData && k.Data != nil:
			id = k.Data.AccountId
		default:
			return false
		}
		return slices.Contains(skip, id.Address())
	})
}
