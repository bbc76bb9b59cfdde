package actor

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/plan"
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
	// logged by relay's Publish, which knows the request); nil discards.
	Log *slog.Logger
	// Submitter submits the submit-ready envelope of a ready plan published
	// with "submit": true, on a goroutine of the plan's (CONTRACT section
	// 10); nil is a ledger API client with no backend, whose every
	// submission fails with ledgerapi.SubmitCodeUnconfigured.
	Submitter Submitter
	// Preflighter runs the preflight of a plan's submit-ready envelope
	// before each submission's first try (CONTRACT section 14): a blocked
	// close is not posted. nil runs none: every envelope is posted.
	Preflighter Preflighter
	// Forwarder runs the mediator forward of a plan published with a
	// flow once its close's submission succeeded (CONTRACT section 16);
	// nil runs none (such a plan's forward stays pending).
	Forwarder Forwarder
	// FlowCheck verifies a flow a plan's record holds (CONTRACT section 9,
	// round 4): the flow its token commits to under the master, whatever
	// the token's expiry, and the flow's mediator address
	// (mediator.Service.KeptFlow). nil when no master is configured: a
	// record with a flow cannot be checked, and its plan is unavailable
	// here (ErrUnavailable).
	FlowCheck FlowCheck
	// Store is where the plans live, required: a planstore.Memory in
	// single mode, the JetStream bucket every instance shares in cluster
	// mode. The Supervisor reads its Changes until Stop; the caller closes
	// it after Stop.
	Store Store
	// SoleWriter says that nothing but this Supervisor writes Store (single
	// mode's in-memory store): a plan answers a request only after its
	// write, so Lookup answers a live plan without reading its entry.
	SoleWriter bool
	// SubmitLease is how long a cluster instance's claim on a submission
	// holds without renewal (DefaultSubmitLease when 0): the owner renews
	// it every third of it, and another instance takes the submission over
	// once it lapses.
	SubmitLease time.Duration
	// Instance names this instance in its submission claims; a fresh random
	// name when empty, so that a restarted instance does not take its
	// former self's claims for its own.
	Instance string
	// ForwardBudget bounds a forward's retries, from its first claim
	// (DefaultForwardBudget when 0): a forward still pending then fails
	// with plan.ForwardCodeTimedOut. ForwardRetention is how long a plan stays
	// once its forward settled past its signing window
	// (DefaultForwardRetention when 0). See life.go.
	ForwardBudget, ForwardRetention time.Duration
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
	preflighter    Preflighter
	forwarder      Forwarder
	flowCheck      FlowCheck
	store          Store
	lease          time.Duration
	instance       string
	budget         time.Duration
	retention      time.Duration

	// Channels. Handlers post on mailbox; plan actors post on reaped when their
	// timer ended them. quit is closed once by Stop and is also every plan's
	// signal to end; done is closed by run after every plan has returned.
	mailbox  chan supRequest
	reaped   chan *Plan
	quit     chan struct{}
	done     chan struct{}
	stopOnce sync.Once

	// Owned by the run loop, which every function touching them checks
	// (owner.check). plans holds only live or not-yet-swept plans, changed
	// in add and remove only; the limits are the store's (its registry).
	// running also counts plans swept from the registry whose goroutine has
	// not returned yet, and the plans' submitters, so that Stop waits for
	// them too.
	owner   loopOwner
	plans   map[string]*Plan
	running sync.WaitGroup

	// loops counts the plans whose run loop has started and not returned
	// (Loops); raised before the loop's goroutine starts, lowered as it
	// returns.
	loops atomic.Int64

	// index mirrors plans for Lookup, which reads it without a round trip
	// through the run loop (a sign, a GET or a stream starts with one);
	// the run loop alone writes it, in add and remove.
	index sync.Map // plan id → *Plan

	// soleWriter: nothing but this supervisor's plans writes the store
	// (Options.SoleWriter).
	soleWriter bool

	// creating holds the ids a Create of this instance is registering
	// (plan id → a channel closed when it is done): a second Create of the
	// id waits for it, and a Lookup or the watch leaves the plan to it.
	creating sync.Map
}

// NewSupervisor starts the supervisor goroutine; Stop ends it and every
// plan. opts.Store is required.
func NewSupervisor(opts Options) *Supervisor {
	if opts.Store == nil {
		panic("actor: NewSupervisor without a Store")
	}
	s := &Supervisor{
		soleWriter:     opts.SoleWriter,
		capacity:       opts.Capacity,
		maxSubscribers: opts.MaxSubscribers,
		perAccount:     opts.PlansPerAccount,
		now:            opts.Now,
		metrics:        opts.Metrics,
		log:            opts.Log,
		submitter:      opts.Submitter,
		preflighter:    opts.Preflighter,
		forwarder:      opts.Forwarder,
		flowCheck:      opts.FlowCheck,
		store:          opts.Store,
		lease:          opts.SubmitLease,
		instance:       opts.Instance,
		budget:         opts.ForwardBudget,
		retention:      opts.ForwardRetention,
		mailbox:        make(chan supRequest),
		reaped:         make(chan *Plan),
		quit:           make(chan struct{}),
		done:           make(chan struct{}),
		plans:          make(map[string]*Plan),
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
	if s.budget <= 0 {
		s.budget = DefaultForwardBudget
	}
	if s.retention <= 0 {
		s.retention = DefaultForwardRetention
	}
	if s.instance == "" {
		s.instance = rand.Text()
	}
	s.owner.handOver()
	go s.run()
	s.running.Go(s.dispatch)
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
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case <-s.quit:
		return ErrStopped
	default:
	}
	if !s.store.Available() {
		return ErrUnavailable
	}
	return s.refusal(account, s.store.CheckCapacity(ctx, account, s.now(), s.capacity, s.perAccount))
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
// It answers ErrUnavailable while the store cannot be reached, reads the
// plan's entry (in cluster mode, or for a plan not held), and restores
// here a plan this instance does not hold yet (lookup).
func (s *Supervisor) Lookup(ctx context.Context, id string) (*Plan, error) {
	p, err := s.lookup(ctx, id)
	if err != nil {
		return nil, err
	}
	if !s.now().Before(p.Expiry()) {
		return nil, ErrNotFound // past its window: kept only for its forward
	}
	return p, nil
}

// LookupStatus is Lookup for GET /status, which also answers a plan past
// its signing window that lives on for its mediator forward (life.go):
// its forward, and the rest of its status as the window left it. Read it
// with Plan.Status, not Snapshot.
func (s *Supervisor) LookupStatus(ctx context.Context, id string) (*Plan, error) {
	return s.lookup(ctx, id)
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
	return s.createPlan(ctx, published, false)
}

// CreateSubmitting is Create for a publish with "submit": true (CONTRACT
// section 10): the plan is born marked for the relay to submit, and starts
// its submission as soon as a version is ready, its first one included. An
// existing plan (created=false) is returned as it is; the caller marks it
// with Plan.SetSubmit after merging into it.
func (s *Supervisor) CreateSubmitting(ctx context.Context, published *ledger.AdmittedPlan) (p *Plan, created bool, err error) {
	return s.createPlan(ctx, published, true)
}

// CreateForwarding is CreateSubmitting for a publish with a mediator flow
// (CONTRACT section 16): the plan is born keeping flow, and runs its
// forward once its submission succeeds. An existing plan (created=false)
// is returned as it is; the caller gives it the flow with Plan.SetFlow
// after merging into it.
func (s *Supervisor) CreateForwarding(ctx context.Context, published *ledger.AdmittedPlan, flow plan.Flow) (p *Plan, created bool, err error) {
	return s.createPlan(ctx, published, true, &flow)
}

func (s *Supervisor) createPlan(ctx context.Context, published *ledger.AdmittedPlan, submit bool, flow ...*plan.Flow) (p *Plan, created bool, err error) {
	if published == nil || published.Canonical() == nil {
		return nil, false, errNoPlan
	}
	// The plan and its first view are built here, in the request goroutine,
	// so the supervisor's serial section is an insert.
	fresh := newPlan(s, published, 1)
	if submit {
		first := fresh.settled.Load().at(0)
		first.sub = &plan.Submission{Submit: true, Claim: plan.Claim{Seq: 1}}
		if len(flow) > 0 && flow[0] != nil {
			first.fwd = &plan.Forward{Flow: flow[0], Claim: plan.Claim{Seq: 1}}
		}
		fresh.settled.Store(first)
	}
	return s.create(ctx, fresh)
}

// gone is what a call answers once the Supervisor is stopping or stopped.
func (s *Supervisor) gone() error { return ErrStopped }

// run is the supervisor goroutine: the only code that touches plans.
func (s *Supervisor) run() {
	s.owner.start()
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

// live reports whether p is still registered at now: before its end,
// which is its expiry unless its forward keeps it longer (lifeEnd); past
// the window, only LookupStatus hands it out. A plan whose goroutine has
// ended without quit has expired, even if its reaped message is still on
// the way.
func (s *Supervisor) live(p *Plan, now time.Time) bool {
	// A plan ends at its window's end or later (lifeEnd), so one inside
	// its window is live without a look at its forward: on every
	// request's path, that look was two more cold reads.
	if !now.Before(p.expiry) && !now.Before(p.endAt()) {
		return false
	}
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// startLoop starts p's run loop, which owns p from then on.
func (s *Supervisor) startLoop(p *Plan) {
	s.owner.check()
	p.owner.handOver()
	s.loops.Add(1)
	s.running.Go(p.run)
}

// Loops is how many plans' run loops are running: one per plan this
// instance serves, and for a moment one per plan that has ended (expired,
// swept or stopped) and is still telling its subscribers. Each loop is a
// goroutine, so a Loops back to its count before a plan was created says
// that the plan left nothing running behind.
func (s *Supervisor) Loops() int { return int(s.loops.Load()) }

// add registers p.
func (s *Supervisor) add(p *Plan) {
	s.owner.check()
	s.plans[p.ID()] = p
	s.index.Store(p.ID(), p)
}

// remove takes p, which must be registered, out of the registry: the only
// way a plan leaves (its timer, a sweep, shutdown).
func (s *Supervisor) remove(p *Plan) {
	s.owner.check()
	delete(s.plans, p.ID())
	s.index.CompareAndDelete(p.ID(), p)
}

// sweep removes p from the registry as expired and tells its actor to end
// now rather than at its next timer tick.
func (s *Supervisor) sweep(p *Plan) {
	s.owner.check()
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

// sweepAll sweeps every plan past its expiry, so that Open never counts a
// plan that is gone. (The limits are the store's registry's, which drops a
// plan at its expiry by itself.)
func (s *Supervisor) sweepAll() {
	now := s.now()
	for _, p := range s.plans {
		if !s.live(p, now) {
			s.sweep(p)
		}
	}
}

// supRequest is one request served by the supervisor's run loop.
type supRequest interface{ serve(s *Supervisor) }

type openReq struct{ ans chan<- reply[int] }

func (r openReq) serve(s *Supervisor) {
	s.owner.check()
	s.sweepAll()
	r.ans <- reply[int]{v: len(s.plans)}
}

type lookupReq struct {
	id  string
	ans chan<- reply[*Plan]
}

func (r lookupReq) serve(s *Supervisor) {
	s.owner.check()
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

type createResult struct {
	plan    *Plan
	created bool
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
