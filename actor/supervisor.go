package actor

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/closerelay/closerelay/metrics"
)

// Sentinel errors answered by the supervisor and plan actors.
var (
	// ErrNotFound: no plan with that id, or it has expired (treated as gone).
	ErrNotFound = errors.New("actor: plan not found")
	// ErrCapacity: the supervisor already holds Options.Capacity plans.
	ErrCapacity = errors.New("actor: plan capacity reached")
	// ErrAccountCapacity: the closing account already has
	// Options.PlansPerAccount open plans (CONTRACT section 9).
	ErrAccountCapacity = errors.New("actor: per-account plan capacity reached")
	// ErrExpired: the plan's expiry had passed when Create came to insert it
	// (guard 8 re-checks it: the account API round trip takes time).
	ErrExpired = errors.New("actor: plan expired before it was inserted")
	// ErrSignatureCap: the merge would take the envelope past ledger.MaxSignatures.
	ErrSignatureCap = errors.New("actor: signature cap reached")
	// ErrTooManySubscribers: the plan already has Options.MaxSubscribers streams.
	ErrTooManySubscribers = errors.New("actor: too many subscribers")
	// ErrStopped: the supervisor is shutting down.
	ErrStopped = errors.New("actor: stopped")
)

// Production limits (SPEC "Limits"), used when Options leaves them zero.
const (
	DefaultCapacity        = 500
	DefaultMaxSubscribers  = 50
	DefaultPlansPerAccount = 5 // CONTRACT section 9, PLANS_PER_ACCOUNT
)

// Options configure a Supervisor.
type Options struct {
	Capacity        int              // plans; 500 in production (DefaultCapacity when 0)
	MaxSubscribers  int              // per plan; 50 in production (DefaultMaxSubscribers when 0)
	PlansPerAccount int              // open plans per closing account; 5 in production (DefaultPlansPerAccount when 0)
	Now             func() time.Time // defaults to time.Now
	Metrics         *metrics.Metrics // may be nil
	// Log gets one line per expiry and per capacity refusal (creation is
	// logged by the publish route, which knows the request); nil discards.
	Log *slog.Logger
	// Submitter submits the submit-ready envelope of a ready plan published
	// with "submit": true, on a goroutine of the plan's (CONTRACT section
	// 10); nil is a ledger API client with no backend, whose every
	// submission fails with ledgerapi.SubmitCodeUnconfigured.
	Submitter Submitter
	// Store is cluster mode's plan store (CONTRACT section 12); nil keeps
	// plans in this process only. The Supervisor reads its Changes until
	// Stop; the caller closes the store after Stop.
	Store Store
	// SubmitLease is how long a cluster instance's claim on a submission
	// holds without renewal (DefaultSubmitLease when 0): the owner renews
	// it every third of it, and another instance takes the submission over
	// once it lapses.
	SubmitLease time.Duration
	// Instance names this instance in its submission claims; a fresh random
	// name when empty, so that a restarted instance does not take its
	// former self's claims for its own.
	Instance string
}

// DefaultSubmitLease: an instance that dies with a submission in flight
// delays it by at most this long; renewals cost one store write per third
// of it while a submission is in flight.
const DefaultSubmitLease = 15 * time.Second

// Supervisor owns the registry of plans and their lifecycle (one goroutine).
type Supervisor struct {
	// Immutable after NewSupervisor.
	capacity       int
	maxSubscribers int
	perAccount     int
	now            func() time.Time
	metrics        *metrics.Metrics
	log            *slog.Logger
	submitter      Submitter
	store          Store // nil in single mode
	lease          time.Duration
	instance       string

	// Channels. Handlers post on mailbox; plan actors post on reaped when their
	// timer ended them. quit is closed once by Stop and is also every plan's
	// signal to end; done is closed by run after every plan has returned.
	mailbox  chan supRequest
	reaped   chan *Plan
	quit     chan struct{}
	done     chan struct{}
	stopOnce sync.Once

	// Owned by the run loop. plans holds only live or not-yet-swept plans;
	// accounts counts them by closing account (no zero entries), so the two
	// change together, in add and remove only; running also counts plans
	// swept from the registry whose goroutine has not returned yet, so that
	// Stop waits for them too.
	plans    map[string]*Plan
	accounts map[string]int
	running  sync.WaitGroup

	// index mirrors plans for Lookup, which reads it without a round trip
	// through the run loop (a sign, a GET or a stream starts with one);
	// the run loop alone writes it, in add and remove.
	index sync.Map // plan id → *Plan
}

// NewSupervisor starts the supervisor goroutine; Stop ends it and every plan.
func NewSupervisor(opts Options) *Supervisor {
	s := &Supervisor{
		capacity:       opts.Capacity,
		maxSubscribers: opts.MaxSubscribers,
		perAccount:     opts.PlansPerAccount,
		now:            opts.Now,
		metrics:        opts.Metrics,
		log:            opts.Log,
		submitter:      opts.Submitter,
		store:          opts.Store,
		lease:          opts.SubmitLease,
		instance:       opts.Instance,
		mailbox:        make(chan supRequest),
		reaped:         make(chan *Plan),
		quit:           make(chan struct{}),
		done:           make(chan struct{}),
		plans:          make(map[string]*Plan),
		accounts:       make(map[string]int),
	}
	if s.capacity <= 0 {
		s.capacity = DefaultCapacity
	}
	if s.maxSubscribers <= 0 {
		s.maxSubscribers = DefaultMaxSubscribers
	}
	if s.perAccount <= 0 {
		s.perAccount = DefaultPlansPerAccount
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.submitter == nil {
		s.submitter = ledgerapi.New(ledgerapi.Options{})
	}
	if s.lease <= 0 {
		s.lease = DefaultSubmitLease
	}
	if s.instance == "" {
		s.instance = rand.Text()
	}
	go s.run()
	if s.store != nil {
		s.running.Go(s.dispatch)
	}
	return s
}

// Stop ends every plan (subscribers see their streams end) and the supervisor,
// waiting for all their goroutines or ctx. Calls made after Stop began answer
// ErrStopped; Stop may be called again, for instance with a fresh ctx after
// one expired.
func (s *Supervisor) Stop(ctx context.Context) error {
	s.stopOnce.Do(func() { close(s.quit) })
	select {
	case <-s.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// CheckCapacity is guard 5 for a new plan closing account (a G… address):
// ErrCapacity when no plan slot is free, else ErrAccountCapacity when account
// already has PlansPerAccount open plans. Plans past their expiry are swept
// before either refusal.
func (s *Supervisor) CheckCapacity(ctx context.Context, account string) error {
	if s.store != nil {
		return s.clusterRefusal(account, storeError(s.store.CheckCapacity(ctx, account, s.now(), s.capacity, s.perAccount)))
	}
	ans := make(chan reply[struct{}], 1)
	_, err := ask(ctx, s.mailbox, supRequest(capacityReq{account, ans}), ans, s.quit, s.done, s.gone)
	return err
}

// PlansPerAccount returns the per-account limit in force (Options.PlansPerAccount
// or its default), for the reason of a refusal.
func (s *Supervisor) PlansPerAccount() int { return s.perAccount }

// Open returns the number of live plans.
func (s *Supervisor) Open(ctx context.Context) (int, error) {
	ans := make(chan reply[int], 1)
	return ask(ctx, s.mailbox, supRequest(openReq{ans}), ans, s.quit, s.done, s.gone)
}

// Lookup returns the live plan with that id (lowercase hex), or ErrNotFound;
// a plan past its expiry is swept first and is never returned.
//
// In cluster mode it answers ErrUnavailable while the store cannot be
// reached, reads the plan's entry, and restores here a plan this instance
// does not hold yet (lookupClustered).
func (s *Supervisor) Lookup(ctx context.Context, id string) (*Plan, error) {
	if s.store != nil {
		return s.lookupClustered(ctx, id)
	}
	return s.lookupLocal(ctx, id)
}

func (s *Supervisor) lookupLocal(ctx context.Context, id string) (*Plan, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case <-s.quit:
		return nil, ErrStopped
	default:
	}
	v, ok := s.index.Load(id)
	if !ok {
		return nil, ErrNotFound
	}
	if p := v.(*Plan); s.live(p, s.now()) {
		return p, nil
	}
	// Past its expiry: the run loop sweeps it, and answers.
	ans := make(chan reply[*Plan], 1)
	return ask(ctx, s.mailbox, supRequest(lookupReq{id, ans}), ans, s.quit, s.done, s.gone)
}

// errNoPlan refuses a Create without a plan that ledger admitted.
var errNoPlan = errors.New("actor: Create needs a plan made by ledger.AdmitPlan")

// Create inserts a new plan, as ledger admitted it, atomically with the
// capacity checks and the expiry check (guard 8). When a live plan with the
// same id already exists it returns that plan with created=false and no
// error (the caller then merges into it; a merge is not a new plan, so no
// limit applies). Otherwise it returns ErrExpired when published.Expiry() is
// not after the supervisor's clock, ErrCapacity when no plan slot is free,
// and ErrAccountCapacity when published.Account() already has
// PlansPerAccount open plans, in that order. The account's open plans count
// against Options.PlansPerAccount.
//
// published is taken as it is: ledger.AdmitPlan is its only constructor and
// guarantees that its parts agree. A nil or zero one is refused with a plain
// error: that is a caller's bug, not a client's.
func (s *Supervisor) Create(ctx context.Context, published *ledger.AdmittedPlan) (p *Plan, created bool, err error) {
	return s.create(ctx, published, false)
}

// CreateSubmitting is Create for a publish with "submit": true (CONTRACT
// section 10): the plan is born marked for the relay to submit, and starts
// its submission as soon as a version is ready, its first one included. An
// existing plan (created=false) is returned as it is; the caller marks it
// with Plan.SetSubmit after merging into it.
func (s *Supervisor) CreateSubmitting(ctx context.Context, published *ledger.AdmittedPlan) (p *Plan, created bool, err error) {
	return s.create(ctx, published, true)
}

func (s *Supervisor) create(ctx context.Context, published *ledger.AdmittedPlan, submit bool) (p *Plan, created bool, err error) {
	if published == nil || published.Canonical() == nil {
		return nil, false, errNoPlan
	}
	// The plan and its first view are built here, in the request goroutine,
	// so the supervisor's serial section is an insert.
	fresh := newPlan(s, published, 1)
	if submit {
		fresh.submission.Store(&Submission{Submit: true, seq: 1})
	}
	if s.store != nil {
		return s.createClustered(ctx, fresh)
	}
	ans := make(chan reply[createResult], 1)
	r, err := ask(ctx, s.mailbox, supRequest(createReq{fresh, ans}), ans, s.quit, s.done, s.gone)
	return r.plan, r.created, err
}

// gone is what a call answers once the Supervisor is stopping or stopped.
func (s *Supervisor) gone() error { return ErrStopped }

// run is the supervisor goroutine: the only code that touches plans.
func (s *Supervisor) run() {
	defer close(s.done)
	for {
		select {
		case req := <-s.mailbox:
			req.serve(s)
		case p := <-s.reaped:
			// A sweep may have removed p already, or replaced it under the
			// same id; only the registered plan is counted.
			if s.plans[p.ID()] == p {
				s.remove(p)
				s.expired(p)
			}
		case <-s.quit:
			for _, p := range s.plans {
				s.remove(p)
				s.metrics.PlanClosed()
			}
			// Plans end on quit by themselves and never wait for this loop
			// once quit is closed, so this wait cannot deadlock.
			s.running.Wait()
			return
		}
	}
}

// live reports whether p may still be handed out at now. A plan whose
// goroutine has ended without quit has expired, even if its reaped message
// is still on the way.
func (s *Supervisor) live(p *Plan, now time.Time) bool {
	if !now.Before(p.Expiry()) {
		return false
	}
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// add registers p and takes a slot of its account.
func (s *Supervisor) add(p *Plan) {
	s.plans[p.ID()] = p
	s.index.Store(p.ID(), p)
	s.accounts[p.published.Account()]++
}

// remove takes p, which must be registered, out of the registry and frees
// its account's slot: the only way a plan leaves (its timer, a sweep,
// shutdown), so the per-account counts never drift from the registry.
func (s *Supervisor) remove(p *Plan) {
	delete(s.plans, p.ID())
	s.index.CompareAndDelete(p.ID(), p)
	account := p.published.Account()
	if n := s.accounts[account] - 1; n > 0 {
		s.accounts[account] = n
	} else {
		delete(s.accounts, account)
	}
}

// sweep removes p from the registry as expired and tells its actor to end
// now rather than at its next timer tick.
func (s *Supervisor) sweep(p *Plan) {
	s.remove(p)
	s.expired(p)
	select {
	case p.evict <- struct{}{}:
	default: // already told
	}
}

// expired counts and logs the end of p's life, once per plan: whichever of
// its own timer and a sweep removes it from the registry.
func (s *Supervisor) expired(p *Plan) {
	s.metrics.PlanExpired()
	s.log.Info("plan expired", "id", p.ID(), "network", string(p.published.Network()), "open_plans", len(s.plans))
}

// refused counts and logs a publish turned away at the plan limit.
func (s *Supervisor) refused() {
	s.metrics.CapacityRefused()
	s.log.Warn("plan capacity refusal", "open_plans", len(s.plans), "capacity", s.capacity)
}

// sweepAll sweeps every plan past its expiry. It runs only at a limit, so
// neither a full registry nor an account at its limit ever refuses a publish
// because of plans that are gone.
func (s *Supervisor) sweepAll() {
	now := s.now()
	for _, p := range s.plans {
		if !s.live(p, now) {
			s.sweep(p)
		}
	}
}

// full reports whether no slot is free once expired plans are swept.
func (s *Supervisor) full() bool {
	if len(s.plans) < s.capacity {
		return false
	}
	s.sweepAll()
	return len(s.plans) >= s.capacity
}

// accountFull reports whether account has no slot free once expired plans
// are swept.
func (s *Supervisor) accountFull(account string) bool {
	if s.accounts[account] < s.perAccount {
		return false
	}
	s.sweepAll()
	return s.accounts[account] >= s.perAccount
}

// admit is the capacity check of guards 5 and 8 for a new plan of account:
// the relay's limit first, then the account's. A refusal is counted and
// logged.
func (s *Supervisor) admit(account string) error {
	if s.full() {
		s.refused()
		return ErrCapacity
	}
	if s.accountFull(account) {
		s.log.Warn("plan account capacity refusal", "account", account,
			"account_plans", s.accounts[account], "plans_per_account", s.perAccount)
		return ErrAccountCapacity
	}
	return nil
}

// supRequest is one request served by the supervisor's run loop.
type supRequest interface{ serve(s *Supervisor) }

type capacityReq struct {
	account string
	ans     chan<- reply[struct{}]
}

func (r capacityReq) serve(s *Supervisor) {
	r.ans <- reply[struct{}]{err: s.admit(r.account)}
}

type openReq struct{ ans chan<- reply[int] }

func (r openReq) serve(s *Supervisor) {
	s.sweepAll()
	r.ans <- reply[int]{v: len(s.plans)}
}

type lookupReq struct {
	id  string
	ans chan<- reply[*Plan]
}

func (r lookupReq) serve(s *Supervisor) {
	p, ok := s.plans[r.id]
	switch {
	case !ok:
		r.ans <- reply[*Plan]{err: ErrNotFound}
	case !s.live(p, s.now()):
		s.sweep(p)
		r.ans <- reply[*Plan]{err: ErrNotFound}
	default:
		r.ans <- reply[*Plan]{v: p}
	}
}

type createReq struct {
	plan *Plan
	ans  chan<- reply[createResult]
}

type createResult struct {
	plan    *Plan
	created bool
}

func (r createReq) serve(s *Supervisor) {
	// quit may have been closed while this request was being taken: a plan
	// started now would only be stopped at once.
	select {
	case <-s.quit:
		r.ans <- reply[createResult]{err: ErrStopped}
		return
	default:
	}
	now := s.now()
	if cur, ok := s.plans[r.plan.ID()]; ok {
		if s.live(cur, now) {
			r.ans <- reply[createResult]{v: createResult{plan: cur}}
			return
		}
		s.sweep(cur)
	}
	// The publish checked the expiry before its account API round trip;
	// the plan may have run out since. Registered, it would be live for no
	// instant at all, and its publish would have answered 200.
	if !now.Before(r.plan.Expiry()) {
		r.ans <- reply[createResult]{err: ErrExpired}
		return
	}
	if err := s.admit(r.plan.published.Account()); err != nil {
		r.ans <- reply[createResult]{err: err}
		return
	}
	s.add(r.plan)
	s.running.Go(r.plan.run)
	s.metrics.PlanCreated()
	r.ans <- reply[createResult]{v: createResult{plan: r.plan, created: true}}
}

// reply is an actor's answer to one request; its channel is buffered to one
// so the actor never waits for the caller to take it.
type reply[T any] struct {
	v   T
	err error
}

// ask posts req on an actor's mailbox and waits for its answer. Posting gives
// up when closing is closed (the actor accepts nothing more) and waiting when
// done is closed (the actor has returned); both then answer gone(). Either
// step gives up on ctx, so a vanished caller never stays behind. An answer
// that is already there wins over done: the actor answers every request it
// took before it returns.
func ask[M, T any](ctx context.Context, box chan<- M, req M, ans <-chan reply[T], closing, done <-chan struct{}, gone func() error) (T, error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	// A select picks at random among ready cases: look at closing first so
	// that a call made after the end is refused deterministically.
	select {
	case <-closing:
		return zero, gone()
	default:
	}
	select {
	case box <- req:
	case <-closing:
		return zero, gone()
	case <-ctx.Done():
		return zero, ctx.Err()
	}
	select {
	case r := <-ans:
		return r.v, r.err
	case <-ctx.Done():
		return zero, ctx.Err()
	case <-done:
		select {
		case r := <-ans:
			return r.v, r.err
		default:
			return zero, gone()
		}
	}
}
