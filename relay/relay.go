package relay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
	"unicode/utf8"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/plan"
	"github.com/closerelay/closerelay/wire"
)

// Options configure a Service. Only cmd reads the environment; it fills
// these.
type Options struct {
	// Plans is the supervisor of the plans the service publishes to and
	// reads from. Required.
	Plans *actor.Supervisor
	// Accounts reads the closing account at publish (guard 6) and runs
	// each new plan's preflight from that read. Required.
	Accounts Accounts
	// Sweeps bounds the expensive signature recoveries of publish and sign
	// (ledger.SweepGate); one gate per relay. nil makes one of
	// ledger.DefaultSweepSlots() slots.
	Sweeps *ledger.SweepGate
	// Flows verifies a publish's flow token (mediator.Service.VerifyFlow,
	// CONTRACT section 16); nil answers every flow token
	// MEDIATOR_NOT_CONFIGURED.
	Flows FlowVerifier
	// Metrics counts publishes' signatures and preflights; may be nil.
	Metrics *metrics.Metrics
	// Log gets one line per plan created; nil discards.
	Log *slog.Logger
	// Now is the publish instant's clock (the plan's expiry is counted
	// from it); nil is time.Now.
	Now func() time.Time
}

// Service runs the use cases over one Supervisor. Its methods may be called
// concurrently.
type Service struct {
	plans    *actor.Supervisor
	accounts Accounts
	sweeps   *ledger.SweepGate
	flows    FlowVerifier
	metrics  *metrics.Metrics
	log      *slog.Logger
	now      func() time.Time
}

// New returns a Service configured by opts.
func New(opts Options) *Service {
	s := &Service{
		plans:    opts.Plans,
		accounts: opts.Accounts,
		sweeps:   opts.Sweeps,
		flows:    opts.Flows,
		metrics:  opts.Metrics,
		log:      opts.Log,
		now:      opts.Now,
	}
	if s.sweeps == nil {
		s.sweeps = ledger.NewSweepGate(ledger.DefaultSweepSlots())
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s
}

// errNotFound is the answer for an unknown or expired plan and for an id
// that is not one; its reason is SPEC's text for the event stream's 404.
var errNotFound = errcode.New(errcode.NotFound, "signing request not found")

// Find returns the open plan that id names (64 hex characters in either
// case, CONTRACT section 4): NOT_FOUND for an id that is not one, or an
// unknown or expired plan.
func (s *Service) Find(ctx context.Context, id string) (*actor.Plan, error) {
	id, ok := wire.ParsePlanID(id)
	if !ok {
		return nil, errNotFound
	}
	plan, err := s.plans.Lookup(ctx, id)
	if err != nil {
		return nil, s.failure(err)
	}
	return plan, nil
}

// Current is the current version of the plan id names (GET
// /api/plan/{id}, the SEP-7 link).
func (s *Service) Current(ctx context.Context, id string) (actor.State, error) {
	plan, err := s.Find(ctx, id)
	if err != nil {
		return actor.State{}, err
	}
	return s.Snapshot(ctx, plan)
}

// Snapshot is plan's current version (plan found with Find), its failures
// coded as Find's: NOT_FOUND when the plan ended meanwhile, UNAVAILABLE.
func (s *Service) Snapshot(ctx context.Context, plan *actor.Plan) (actor.State, error) {
	st, err := plan.Snapshot(ctx)
	if err != nil {
		return actor.State{}, s.failure(err)
	}
	return st, nil
}

// Sign merges a co-signer's partial into plan (found with Find, so that an
// unknown id is NOT_FOUND whatever the body holds) and returns the version
// that holds it. The partial is checked outside the plan's serial section:
// BAD_XDR or REJECTED (SPEC "Merge checks"), REJECTED past the 20-signature
// cap, NOT_FOUND when the plan ended meanwhile.
func (s *Service) Sign(ctx context.Context, plan *actor.Plan, partial string) (actor.State, error) {
	admitted, err := plan.Canonical().CheckPartial(ctx, s.sweeps, partial, plan.Known)
	if err != nil {
		return actor.State{}, err // coded: BAD_XDR or REJECTED; or ctx's, the client has gone
	}
	st, _, err := plan.Merge(ctx, admitted)
	if err != nil {
		return actor.State{}, s.failure(err)
	}
	return st, nil
}

// CheckXDR is guard 1 on an envelope field's string value, shared by
// publish and sign: non-empty, at most 12,000 characters. field names the
// field in the reason.
func CheckXDR(field, x string) (string, error) {
	switch {
	case x == "":
		return "", errcode.New(errcode.BadXDR, field+" is empty")
	case len(x) > ledger.MaxXDRLength && utf8.RuneCountInString(x) > ledger.MaxXDRLength:
		return "", errcode.New(errcode.BadXDR, field+" is longer than 12000 characters")
	}
	return x, nil
}

// Ready is the submit-ready envelope of the plan id names (CONTRACT section
// 10), or NOT_READY, whose reason states the weight and the threshold,
// while its weight is below its threshold.
func (s *Service) Ready(ctx context.Context, id string) (actor.ReadyEnvelope, error) {
	plan, err := s.Find(ctx, id)
	if err != nil {
		return actor.ReadyEnvelope{}, err
	}
	r, ok, err := plan.Ready(ctx)
	switch {
	case err != nil:
		return actor.ReadyEnvelope{}, s.failure(err)
	case !ok:
		return actor.ReadyEnvelope{}, errcode.New(errcode.NotReady, fmt.Sprintf("weight %d of threshold %d: the plan is not ready", r.State.Weight, r.State.Threshold))
	}
	return r, nil
}

// Status is a plan as GET /api/plan/{id}/status tells it.
type Status struct {
	State      actor.State         // the current version
	Expiry     time.Time           // the plan's end
	Submission plan.Submission     // whether it submits, and how its submission stands
	Preflight  ledger.PreflightRun // the latest run; a zero State when none ran
	Forward    plan.Forward        // the mediator's forward the relay runs (CONTRACT section 16)
}

// Status is the status of the plan id names. Unlike every other read it
// also answers a plan past its signing window that the relay keeps for its
// mediator forward (actor.Supervisor.LookupStatus), so that the forward's
// progress can be read until it has settled and a while after.
func (s *Service) Status(ctx context.Context, id string) (Status, error) {
	id, ok := wire.ParsePlanID(id)
	if !ok {
		return Status{}, errNotFound
	}
	plan, err := s.plans.LookupStatus(ctx, id)
	if err != nil {
		return Status{}, s.failure(err)
	}
	st, err := plan.Status(ctx)
	if err != nil {
		return Status{}, s.failure(err)
	}
	return Status{State: st, Expiry: plan.Expiry(), Submission: plan.Submission(), Preflight: plan.Preflight(), Forward: plan.Forward()}, nil
}

// Subscribe subscribes to plan's changes (found with Find):
// TOO_MANY_SUBSCRIBERS at the plan's cap, NOT_FOUND when it ended
// meanwhile. The caller closes the subscription.
func (s *Service) Subscribe(ctx context.Context, plan *actor.Plan) (*actor.Subscription, error) {
	sub, err := plan.Subscribe(ctx)
	if err != nil {
		return nil, s.failure(err)
	}
	return sub, nil
}

// failure is the one translation of the actor's errors into coded ones,
// each with its one reason. Anything else is returned as it is: a coded
// error already, the caller's context ending, or a fault of ours.
func (s *Service) failure(err error) error {
	switch {
	case errors.Is(err, actor.ErrNotFound):
		return errNotFound
	case errors.Is(err, actor.ErrCapacity):
		return errcode.New(errcode.Capacity, "the relay holds its maximum of 500 open plans; retry later")
	case errors.Is(err, actor.ErrAccountCapacity):
		return errcode.New(errcode.Capacity, fmt.Sprintf("the closing account already has %d open plans, the per-account limit (PLANS_PER_ACCOUNT); retry when one expires", s.plans.PlansPerAccount()))
	case errors.Is(err, actor.ErrExpired):
		return errcode.New(errcode.Expired, "the transaction's maxTime left no signing window by the time the plan was stored")
	case errors.Is(err, actor.ErrSignatureCap):
		return errcode.New(errcode.Rejected, "the envelope would carry more than 20 signatures")
	case errors.Is(err, actor.ErrTooManySubscribers):
		return errcode.New(errcode.TooManySubscribers, "too many live listeners; retry shortly")
	case errors.Is(err, actor.ErrStopped):
		return errcode.New(errcode.Unavailable, "the relay is shutting down")
	case errors.Is(err, actor.ErrUnavailable):
		return errcode.Wrap(errcode.Unavailable, "the relay's plan store is unreachable; retry shortly", err)
	}
	return err
}
