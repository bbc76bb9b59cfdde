package actor

// TEMPORARY: the actor API that httpapi builds on. The actor implementer keeps
// these names and signatures (adding more is fine), writes the bodies in files of
// their own (supervisor.go, plan.go, subscriber.go, doc.go) and deletes this file.

import (
	"context"
	"errors"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/metrics"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Sentinel errors answered by the supervisor and plan actors.
var (
	// ErrNotFound: no plan with that id, or it has expired (treated as gone).
	ErrNotFound = errors.New("actor: plan not found")
	// ErrCapacity: the supervisor already holds Options.Capacity plans.
	ErrCapacity = errors.New("actor: plan capacity reached")
	// ErrSignatureCap: the merge would take the envelope past ledger.MaxSignatures.
	ErrSignatureCap = errors.New("actor: signature cap reached")
	// ErrTooManySubscribers: the plan already has Options.MaxSubscribers streams.
	ErrTooManySubscribers = errors.New("actor: too many subscribers")
	// ErrStopped: the supervisor is shutting down.
	ErrStopped = errors.New("actor: stopped")
)

// Options configure a Supervisor.
type Options struct {
	Capacity       int              // plans; 500 in production
	MaxSubscribers int              // per plan; 50 in production
	Now            func() time.Time // defaults to time.Now
	Metrics        *metrics.Metrics // may be nil
}

// Supervisor owns the registry of plans and their lifecycle (one goroutine).
type Supervisor struct{}

// NewSupervisor starts the supervisor goroutine; Stop ends it and every plan.
func NewSupervisor(opts Options) *Supervisor { panic("todo") }

// Stop ends every plan (subscribers see their streams end) and the supervisor,
// waiting for all their goroutines or ctx.
func (s *Supervisor) Stop(ctx context.Context) error { panic("todo") }

// CheckCapacity answers ErrCapacity when no plan slot is free (guard 5).
func (s *Supervisor) CheckCapacity(ctx context.Context) error { panic("todo") }

// Open returns the number of live plans.
func (s *Supervisor) Open(ctx context.Context) (int, error) { panic("todo") }

// Lookup returns the live plan with that id (lowercase hex), or ErrNotFound;
// a plan past its expiry is swept first and is never returned.
func (s *Supervisor) Lookup(ctx context.Context, id string) (*Plan, error) { panic("todo") }

// PlanInit is what a publish hands the supervisor to create a plan.
type PlanInit struct {
	ID        string // lowercase hex of Canonical.Hash
	Network   ledger.Network
	Envelope  xdr.TransactionEnvelope // already canonical: signatures = Admitted, in order
	Admitted  []ledger.Admitted
	Canonical *ledger.Canonical
	Expiry    time.Time
}

// Create inserts a new plan atomically with the capacity check (guard 8). When a
// live plan with the same id already exists it returns that plan with
// created=false and no error (the caller then merges into it); at capacity it
// returns ErrCapacity.
func (s *Supervisor) Create(ctx context.Context, init PlanInit) (p *Plan, created bool, err error) {
	panic("todo")
}

// State is one version of a plan's envelope, as streamed and answered.
type State struct {
	ID      string
	Network ledger.Network
	XDR     string
	Signers []string // recovered G… keys, envelope order
	Version uint64   // 1 at publish, +1 per change
}

// Plan is a handle on one plan actor; its methods are safe for concurrent use.
type Plan struct{}

// ID returns the plan id.
func (p *Plan) ID() string { panic("todo") }

// Canonical returns the plan's immutable merge context (hash, passphrase, signers).
func (p *Plan) Canonical() *ledger.Canonical { panic("todo") }

// Known reports whether a signature's bytes were already admitted on this plan,
// without a round trip to the actor (a replay costs a lookup).
func (p *Plan) Known(sig []byte) (signer int, ok bool) { panic("todo") }

// Snapshot returns the current state, or ErrNotFound once expired.
func (p *Plan) Snapshot(ctx context.Context) (State, error) { panic("todo") }

// Merge applies admitted signatures in arrival order: signers already present
// are skipped; ErrSignatureCap if the new ones would pass ledger.MaxSignatures.
// changed is false when nothing new was added (no event is sent).
// It also returns the counts for metrics: added and duplicates.
func (p *Plan) Merge(ctx context.Context, admitted []ledger.Admitted) (st State, changed bool, err error) {
	panic("todo")
}

// Event is what a subscriber receives: a state, or Expired when the plan ended
// by expiry (the stream then ends). A closed channel without Expired means the
// service is shutting down.
type Event struct {
	State   State
	Expired bool
}

// Subscription is one stream's view of a plan: a one-slot, newest-state-wins feed.
type Subscription struct{}

// Subscribe registers a subscriber; ErrTooManySubscribers at the cap,
// ErrNotFound if expired. The current state is delivered first.
func (p *Plan) Subscribe(ctx context.Context) (*Subscription, error) { panic("todo") }

// C delivers events; it is closed when the plan ends or after Close.
func (s *Subscription) C() <-chan Event { panic("todo") }

// Close unsubscribes; safe to call more than once and after the plan ended.
func (s *Subscription) Close() { panic("todo") }
