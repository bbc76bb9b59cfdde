package ledger

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stellar/go-stellar-sdk/clients/horizonclient"
	"github.com/stellar/go-stellar-sdk/strkey"
)

// DefaultAccountTimeout bounds one account API call when NewAccountClient is
// given no positive timeout (CONTRACT section 1, HORIZON_TIMEOUT).
const DefaultAccountTimeout = 10 * time.Second

// DefaultAccountConcurrency bounds the account API calls in flight at once
// when WithConcurrency is never given a positive bound (CONTRACT section 9,
// HORIZON_CONCURRENCY).
const DefaultAccountConcurrency = 32

// maxAccountBody caps the account API's answer. An account with the most
// subentries the ledger allows answers a few hundred kilobytes; the cap stops
// a broken or hostile upstream from streaming without end inside the
// timeout.
const maxAccountBody = 4 << 20

// signerTypeEd25519 is the account API's name for an ed25519 public key
// signer, the only type that can be a candidate.
const signerTypeEd25519 = "ed25519_public_key"

var _ AccountReader = (*AccountClient)(nil)

// AccountClient reads signer sets, with the account's thresholds, from
// Horizon's account API through the SDK's horizonclient: one endpoint per
// network, each call bounded by the client's timeout.
//
// Callers that ask for the same account on the same network while a call for
// it is under way share that call and its answer: a burst of publishes for
// one account costs one round trip. The shared call runs on a goroutine of
// its own, under a context detached from its callers (their values kept), so
// a caller that goes away does not end it for the others; each caller stops
// waiting when its own context ends, and the call is cancelled once no caller
// waits for it any more.
//
// At most the concurrency bound (DefaultAccountConcurrency unless set with
// WithConcurrency) calls are in flight at once, over all networks; a further
// call waits for a free slot, first come first served, for at most the
// client's timeout, and then fails with ErrAccountUnreachable without sending
// anything. A caller therefore waits at most twice the timeout: once for a
// slot, once for the answer.
//
// It is safe for concurrent use. Configure it (WithConcurrency,
// WithTransport) before sharing it; WithObserver may also be called later.
type AccountClient struct {
	// Immutable after construction (WithTransport and WithConcurrency aside,
	// see their comments).
	endpoints map[Network]*endpoint
	timeout   time.Duration
	slots     chan struct{} // one token per call in flight; its capacity is the bound

	mu      sync.Mutex
	flights map[flightKey]*flight // the calls under way

	observe atomic.Pointer[func(Network, bool, time.Duration)]
}

// flightKey names what a call reads: callers with the same key share a call.
type flightKey struct {
	network Network
	account string
}

// flight is one account API call, shared by the callers that asked for its
// key while it was under way.
type flight struct {
	done   chan struct{} // closed once set and err are final
	set    *SignerSet
	err    error
	cancel context.CancelFunc // ends the call; called when no caller waits

	waiters int // callers still waiting; guarded by AccountClient.mu
}

// endpoint is one network's account API: its base URL, or the reason it has
// none, and the HTTP client whose connection pool the network's calls share.
type endpoint struct {
	url     string
	invalid string // non-empty when url is unusable; the call then fails
	http    *http.Client
}

// NewAccountClient builds a client for the given per-network base URLs (for
// example https://horizon-testnet.stellar.org). Each call is bounded by
// timeout, DefaultAccountTimeout when timeout is not positive. A network
// without a usable http(s) URL is not an error here: its calls fail with
// ErrAccountUnreachable, as an unreachable upstream would.
func NewAccountClient(urls map[Network]string, timeout time.Duration) *AccountClient {
	if timeout <= 0 {
		timeout = DefaultAccountTimeout
	}
	c := &AccountClient{
		endpoints: make(map[Network]*endpoint, len(urls)),
		timeout:   timeout,
		slots:     make(chan struct{}, DefaultAccountConcurrency),
		flights:   make(map[flightKey]*flight),
	}
	for n, raw := range urls {
		ep := &endpoint{
			url:  raw,
			http: &http.Client{Timeout: timeout, Transport: CapBody(nil)},
		}
		if u, err := url.Parse(raw); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			ep.invalid = fmt.Sprintf("the account API URL for network %s is not an http(s) URL", n)
		}
		c.endpoints[n] = ep
	}
	return c
}

// WithObserver installs f, called once per account API round trip (not once
// per caller: callers sharing a call share its observation) with the
// network, whether the call succeeded, and how long the round trip took, so
// the caller can time calls for metrics. Calls that fail before any request
// is sent (an unconfigured network, an invalid address, no free slot within
// the timeout) are not observed. f runs on the goroutine of the shared call,
// before the callers that waited for its answer return, and must be quick.
// It may be installed at any time and replaces any earlier observer; nil
// removes it. It returns c.
func (c *AccountClient) WithObserver(f func(n Network, ok bool, d time.Duration)) *AccountClient {
	if f == nil {
		c.observe.Store(nil)
	} else {
		c.observe.Store(&f)
	}
	return c
}

// WithTransport makes every network's calls go through rt instead of
// http.DefaultTransport, keeping the timeout and the answer size cap. Tests
// use it to reach an in-process account API double (ledgertest) without a
// listener, which lets them run under testing/synctest. Call it before the
// client is shared. It returns c.
func (c *AccountClient) WithTransport(rt http.RoundTripper) *AccountClient {
	for _, ep := range c.endpoints {
		ep.http = &http.Client{Timeout: c.timeout, Transport: CapBody(rt)}
	}
	return c
}

// WithConcurrency bounds the account API calls in flight at once to n;
// n <= 0 restores DefaultAccountConcurrency. A call that finds no free slot
// waits for one for at most the client's timeout. Call it before the client
// is shared. It returns c.
func (c *AccountClient) WithConcurrency(n int) *AccountClient {
	if n <= 0 {
		n = DefaultAccountConcurrency
	}
	c.slots = make(chan struct{}, n)
	return c
}

// Timeout is the bound on one call, and on the wait for a slot before it.
func (c *AccountClient) Timeout() time.Duration { return c.timeout }

// Concurrency is the bound on the calls in flight at once.
func (c *AccountClient) Concurrency() int { return cap(c.slots) }

// Signers implements AccountReader: it reads account on network n and returns
// its candidate set, the signers listed with type ed25519_public_key and a
// weight above 0, in the account API's order (the master key included when
// its weight is above 0), carrying the account's low, medium and high
// thresholds (SignerSet.Thresholds). Concurrent callers for the same n and
// account share one call and receive the same set.
//
// Every failure wraps ErrAccountUnreachable: an unconfigured network, an
// address that is not a G… account, no free call slot within the timeout, a
// transport error, a timeout, a cancelled ctx (the error then also wraps
// ctx's error, even when the shared call goes on for other callers), a
// non-2xx answer (404 for an unknown account), an answer that does not
// parse, names another account, lists more signers than the ledger allows or
// lists an invalid key. The error's text never carries the upstream's body.
func (c *AccountClient) Signers(ctx context.Context, n Network, account string) (*SignerSet, error) {
	ep, ok := c.endpoints[n]
	if !ok {
		return nil, unreachable(fmt.Sprintf("no account API is configured for network %q", string(n)), nil)
	}
	if ep.invalid != "" {
		return nil, unreachable(ep.invalid, nil)
	}
	if !strkey.IsValidEd25519PublicKey(account) {
		// Also keeps the address from shaping the request path.
		return nil, unreachable("the account is not a G… address", nil)
	}
	if err := ctx.Err(); err != nil {
		return nil, unreachable("the request ended before the account API was called", err)
	}

	key := flightKey{network: n, account: account}
	c.mu.Lock()
	f := c.flights[key]
	if f == nil {
		// Detached from ctx, so that this caller going away does not end the
		// call for callers that join it; await cancels it when none is left.
		fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		f = &flight{done: make(chan struct{}), cancel: cancel}
		c.flights[key] = f
		go c.fly(fctx, key, ep, f)
	}
	f.waiters++
	c.mu.Unlock()
	return c.await(ctx, key, f)
}

// await waits for f's answer or for ctx to end. The last caller to stop
// waiting before the answer cancels the call and waits for it to end (at
// once, being cancelled), so that no call outlives all its callers.
func (c *AccountClient) await(ctx context.Context, key flightKey, f *flight) (*SignerSet, error) {
	select {
	case <-f.done:
		return f.set, f.err
	case <-ctx.Done():
	}
	c.mu.Lock()
	f.waiters--
	last := f.waiters == 0
	if last {
		// A caller arriving from now on starts a call of its own.
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
		return nil, unreachable("the account API did not answer in time", ctx.Err())
	}
	return nil, unreachable("the request was cancelled before the account API answered", ctx.Err())
}

// fly runs the shared call f for key under ctx, then hands its answer to the
// callers still waiting.
func (c *AccountClient) fly(ctx context.Context, key flightKey, ep *endpoint, f *flight) {
	set, err := c.call(ctx, key.network, ep, key.account)
	f.cancel()
	c.mu.Lock()
	if c.flights[key] == f {
		delete(c.flights, key)
	}
	f.set, f.err = set, err
	c.mu.Unlock()
	close(f.done)
}

// call takes a slot, waiting for at most the timeout, and makes the round
// trip.
func (c *AccountClient) call(ctx context.Context, n Network, ep *endpoint, account string) (*SignerSet, error) {
	slots := c.slots
	if err := c.acquire(ctx, slots); err != nil {
		return nil, err
	}
	defer func() { <-slots }()

	start := time.Now()
	set, err := c.read(ctx, ep, account)
	if f := c.observe.Load(); f != nil {
		(*f)(n, err == nil, time.Since(start))
	}
	return set, err
}

// acquire takes a slot of slots, waiting for one for at most the client's
// timeout or until ctx ends.
func (c *AccountClient) acquire(ctx context.Context, slots chan struct{}) error {
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
		return unreachable("too many account API calls are in flight; none ended in time", context.DeadlineExceeded)
	case <-ctx.Done():
		return unreachable("the request was cancelled before an account API call could start", ctx.Err())
	}
}

func (c *AccountClient) read(ctx context.Context, ep *endpoint, account string) (*SignerSet, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	// The SDK's client replaces each request's context with one derived from
	// context.Background, and its AccountDetail takes no context, so a
	// horizonclient.Client shared between calls cannot carry a caller's
	// context. The shared per-network part is therefore the *http.Client (its
	// connection pool and Timeout); the horizonclient.Client, a few words, is
	// built per call around a doer that puts this call's context back.
	doer := &HorizonDoer{Ctx: ctx, Client: ep.http}
	hc := &horizonclient.Client{HorizonURL: ep.url, HTTP: doer}
	hc.SetHorizonTimeout(c.timeout)

	acc, err := hc.AccountDetail(horizonclient.AccountRequest{AccountID: account})
	if err != nil {
		return nil, classify(ctx, err, doer.Status)
	}
	if acc.AccountID != account {
		return nil, unreachable("the account API answered for another account", nil)
	}

	var signers []Signer
	for _, s := range acc.Signers {
		if s.Type != signerTypeEd25519 || s.Weight <= 0 {
			continue
		}
		raw, err := strkey.Decode(strkey.VersionByteAccountID, s.Key)
		if err != nil || len(raw) != ed25519.PublicKeySize {
			return nil, unreachable("the account API listed a signer key that is not an ed25519 public key", nil)
		}
		signers = append(signers, Signer{Address: s.Key, Key: ed25519.PublicKey(raw), Weight: s.Weight})
	}
	if len(signers) > MaxPlanSignerSet {
		// The ledger cannot hold more; a longer list is not a real account's,
		// and would only lengthen every recovery sweep.
		return nil, unreachable("the account API listed more signers than the ledger allows", nil)
	}
	return NewSignerSet(signers).WithThresholds(Thresholds{
		Low: acc.Thresholds.LowThreshold, Medium: acc.Thresholds.MedThreshold, High: acc.Thresholds.HighThreshold,
	}), nil
}

// classify turns a failed call into an ErrAccountUnreachable whose text is
// built from what we know (the context, the status, the kind of failure),
// never from the upstream's answer.
func classify(ctx context.Context, err error, status int) error {
	switch {
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded), isTimeout(err):
		return unreachable("the account API did not answer in time", context.DeadlineExceeded)
	case ctx.Err() != nil:
		return unreachable("the request was cancelled before the account API answered", ctx.Err())
	case status == http.StatusNotFound:
		return unreachable("the account API does not know the account", nil)
	case status != 0 && (status < 200 || status > 299):
		return unreachable(fmt.Sprintf("the account API answered status %d", status), nil)
	case errors.Is(err, errBodyTooLarge):
		return unreachable(fmt.Sprintf("the account API's answer is larger than %d bytes", maxAccountBody), nil)
	case status != 0:
		return unreachable("the account API's answer does not parse", nil)
	}
	return unreachable("the account API could not be reached", nil)
}

// HorizonDoer is the horizonclient.HTTP of one call: the SDK's AccountDetail
// takes no context, so the doer sends every request with Ctx, and it
// remembers the last status, so failures can be told apart without reading
// the upstream's error body. Client's transport should be a CapBody one.
type HorizonDoer struct {
	Ctx    context.Context
	Client *http.Client
	Status int // of the last answer; 0 before any
}

// Do implements horizonclient.HTTP.
func (d *HorizonDoer) Do(req *http.Request) (*http.Response, error) {
	resp, err := d.Client.Do(req.WithContext(d.Ctx))
	if resp != nil {
		d.Status = resp.StatusCode
	}
	return resp, err
}

// Get implements horizonclient.HTTP.
func (d *HorizonDoer) Get(u string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(d.Ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	return d.Do(req)
}

// PostForm implements horizonclient.HTTP.
func (d *HorizonDoer) PostForm(u string, data url.Values) (*http.Response, error) {
	req, err := http.NewRequestWithContext(d.Ctx, http.MethodPost, u, strings.NewReader(data.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return d.Do(req)
}

// CapBody wraps rt (http.DefaultTransport when nil) so that every answer's
// body is capped at 4 MiB; reading past the cap is an error, so a JSON
// decoder fails instead of reading on. An account answer is a few kilobytes.
func CapBody(rt http.RoundTripper) http.RoundTripper {
	if rt == nil {
		rt = http.DefaultTransport
	}
	return limitBody{rt}
}

// limitBody caps every answer's body at maxAccountBody bytes; reading past
// the cap is an error, so the JSON decoder fails instead of reading on.
type limitBody struct{ rt http.RoundTripper }

func (l limitBody) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := l.rt.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &cappedBody{rc: resp.Body, left: maxAccountBody}
	return resp, nil
}

type cappedBody struct {
	rc   io.ReadCloser
	left int64
}

var errBodyTooLarge = errors.New("account API answer exceeds the size cap")

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errBodyTooLarge
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &t) && t.Timeout()
}

// accountError is a failure of the account API call. Its text is ours alone:
// it never includes the upstream's answer, which may be anything.
type accountError struct {
	reason string
	cause  error // a context error, or nil
}

func unreachable(reason string, cause error) error {
	return &accountError{reason: reason, cause: cause}
}

func (e *accountError) Error() string { return ErrAccountUnreachable.Error() + ": " + e.reason }

func (e *accountError) Unwrap() []error {
	if e.cause == nil {
		return []error{ErrAccountUnreachable}
	}
	return []error{ErrAccountUnreachable, e.cause}
}
