package planstore

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Bucket is where plans live, whichever the mode: Memory in single mode,
// *Store (a NATS JetStream bucket) in cluster mode. Both give the same
// answers to the same calls: plan entries written with compare-and-set on
// their revision, and a registry that holds the plan capacity and
// PLANS_PER_ACCOUNT atomically with a reservation. A Record given to a
// Bucket or read from one is never modified afterwards, by either side.
type Bucket interface {
	// Available reports, without a round trip, whether the bucket can be
	// asked now.
	Available() bool
	// Get reads plan id's entry as it stands: every write acknowledged
	// before the call is in it. ErrNotFound when there is none;
	// ErrCorrupt, with the entry's revision, when it does not decode.
	Get(ctx context.Context, id string) (Entry, error)
	// Create writes plan id's first entry: ErrConflict when it exists.
	Create(ctx context.Context, id string, r Record) (revision uint64, err error)
	// Update writes plan id's entry if its revision is still revision:
	// ErrConflict when another write came first or the entry is gone.
	Update(ctx context.Context, id string, r Record, revision uint64) (uint64, error)
	// Delete removes plan id's entry if its revision is still revision:
	// ErrConflict when another write came first (the entry stays). One
	// already gone is no error.
	Delete(ctx context.Context, id string, revision uint64) error
	// CheckCapacity is guard 5: a *CapacityError (ErrCapacity, else
	// ErrAccountCapacity) when no slot is free for a plan of account at now.
	CheckCapacity(ctx context.Context, account string, now time.Time, capacity, perAccount int) error
	// Reserve takes a slot for plan id of account until expiry, atomically
	// with CheckCapacity's checks (guard 8). An id that holds a slot keeps
	// it and takes no other.
	Reserve(ctx context.Context, id, account string, expiry, now time.Time, capacity, perAccount int) error
	// Hold keeps plan id's slot (of account) until until, in place of the
	// end it was reserved with: a plan that outlives its signing window
	// for its mediator forward still counts against the capacity. A slot
	// already gone is taken again, past any limit: the plan never stopped
	// holding it.
	Hold(ctx context.Context, id, account string, until time.Time) error
	// Open counts the registry's plans open at now.
	Open(ctx context.Context, now time.Time) (int, error)
	// Changes delivers other instances' writes to plan entries, in
	// revision order per entry and ending on each entry's newest value (a
	// write superseded before it was delivered may be skipped). Whether an
	// instance's own writes come back is the implementation's: the writer
	// holds them already.
	Changes() <-chan Change
}

// ErrCorrupt: a plan entry's value does not decode as a Record.
var ErrCorrupt = errors.New("planstore: a stored plan does not decode")

// Change is one write to a plan entry, as a watch delivers it.
type Change struct {
	ID       string // the plan id
	Record   Record // zero when Deleted
	Revision uint64
	Deleted  bool
}

// Entry is a plan entry as read.
type Entry struct {
	Record   Record
	Revision uint64
}

// Record is a plan as the store holds it: everything another instance
// needs to rebuild it without the account API (the signer set and
// thresholds read at publish), its current envelope, its version and its
// submission. Its JSON is the bucket's value: instances of different
// builds read each other's, so a field's name never changes.
type Record struct {
	Network    string           `json:"network"`
	Account    string           `json:"account"`
	Expiry     time.Time        `json:"expiry"`
	Threshold  int              `json:"threshold"`
	Thresholds [3]uint8         `json:"thresholds"` // low, medium, high
	Set        []Signer         `json:"set"`
	XDR        string           `json:"xdr"`
	SignerOf   []int            `json:"signer_of"` // per signature of XDR, its index in Set
	Version    uint64           `json:"version"`
	Submission SubmissionRecord `json:"submission"`
	// Preflight is the preflight run at publish (CONTRACT section 14).
	Preflight *PreflightRecord `json:"preflight,omitempty"`
	// Forward is the plan's mediator flow and forward (CONTRACT section
	// 16); nil for a plan published without a flow.
	Forward *ForwardRecord `json:"forward,omitempty"`
}

// ForwardRecord is a plan's mediator flow (Nonce, Destination, Memo and the
// Token committing to them: set once) and its forward: Seq orders its
// changes (the newest wins), Owner and Lease are a pending forward's claim,
// Deadline the end of its retry budget and Settled when it got its outcome
// (together they say how long the plan outlives its signing window).
type ForwardRecord struct {
	Seq         uint64    `json:"seq"`
	Nonce       string    `json:"nonce,omitempty"`
	Destination string    `json:"destination,omitempty"`
	Memo        string    `json:"memo,omitempty"`
	Token       string    `json:"token,omitempty"`
	State       string    `json:"state,omitempty"`
	Hash        string    `json:"hash,omitempty"`
	Ledger      int64     `json:"ledger,omitempty"`
	Amount      string    `json:"amount,omitempty"`
	Code        string    `json:"code,omitempty"`
	Reason      string    `json:"reason,omitempty"`
	Owner       string    `json:"owner,omitempty"`
	Lease       time.Time `json:"lease,omitzero"`
	Deadline    time.Time `json:"deadline,omitzero"`
	Settled     time.Time `json:"settled,omitzero"`
}

// PreflightRecord is one run of the preflight.
type PreflightRecord struct {
	State    string          `json:"state"`
	Blockers []BlockerRecord `json:"blockers,omitempty"`
	Checked  time.Time       `json:"checked"`
	Native   int64           `json:"native,omitempty"` // the closing account's native balance read, stroops
	// The run's fee advice: the bid per operation (0: a record written
	// before there was one), the network's p70 fee and base fee (0:
	// unknown), stroops.
	FeeBid     int64  `json:"feeBid,omitempty"`
	FeeNetwork int64  `json:"feeNetwork,omitempty"`
	FeeBase    int64  `json:"feeBase,omitempty"`
	Reason     string `json:"reason,omitempty"` // why an uncertain or unchecked run could not tell, when a bound of the relay's stopped it
}

// BlockerRecord is one blocker of a preflight run.
type BlockerRecord struct {
	Op     int    `json:"op"`
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

// Signer is one signer of a plan's set, with its weight.
type Signer struct {
	Address string `json:"a"`
	Weight  int32  `json:"w"`
}

// SubmissionRecord is a plan's submission with what lets instances agree
// on it: Seq orders its changes (the newest wins), Tried is the
// submit-ready envelope of the last submission started (a failed one is
// not tried again), and Owner and Lease are a pending submission's claim.
type SubmissionRecord struct {
	Submit bool      `json:"submit"`
	Seq    uint64    `json:"seq"`
	State  string    `json:"state,omitempty"`
	Hash   string    `json:"hash,omitempty"`
	Ledger int64     `json:"ledger,omitempty"`
	Code   string    `json:"code,omitempty"`
	Reason string    `json:"reason,omitempty"`
	Tried  string    `json:"tried,omitempty"`
	Owner  string    `json:"owner,omitempty"`
	Lease  time.Time `json:"lease,omitzero"`
	// Preflight is the run before the submission's first try, when one
	// was made (it then replaces the publish's).
	Preflight *PreflightRecord `json:"preflight,omitempty"`
}

// CapacityError is a refusal of CheckCapacity or Reserve, with the counts
// it was made on; it unwraps to ErrCapacity or ErrAccountCapacity.
type CapacityError struct {
	Err         error
	Open        int // the open plans
	AccountOpen int // the closing account's open plans
}

func (e *CapacityError) Error() string { return e.Err.Error() }
func (e *CapacityError) Unwrap() error { return e.Err }

// registry is the registry's value: every open plan.
type registry map[string]registered

// registered is the registry's record of one open plan.
type registered struct {
	Account string `json:"a"`
	Expiry  int64  `json:"e"` // Unix milliseconds
}

// live drops the plans whose expiry is not after now and reports whether
// any was dropped.
func (r registry) live(now time.Time) (swept bool) {
	ms := now.UnixMilli()
	for id, p := range r {
		if p.Expiry <= ms {
			delete(r, id)
			swept = true
		}
	}
	return swept
}

func (r registry) ofAccount(account string) int {
	n := 0
	for _, p := range r {
		if p.Account == account {
			n++
		}
	}
	return n
}

// check is the capacity rule on a registry of live plans.
func check(reg registry, account string, capacity, perAccount int) error {
	if len(reg) >= capacity {
		return &CapacityError{Err: ErrCapacity, Open: len(reg), AccountOpen: reg.ofAccount(account)}
	}
	if n := reg.ofAccount(account); n >= perAccount {
		return &CapacityError{Err: ErrAccountCapacity, Open: len(reg), AccountOpen: n}
	}
	return nil
}

// hold is Hold's rule: changed is false when id's slot ends at until
// already.
func (r registry) hold(id, account string, until time.Time) (changed bool) {
	ms := until.UnixMilli()
	if p, ok := r[id]; ok && p.Expiry == ms {
		return false
	}
	r[id] = registered{Account: account, Expiry: ms}
	return true
}

// reserve is Reserve's rule on a registry of live plans: nil when id holds
// a slot already (changed false) or took one (changed true).
func (r registry) reserve(id, account string, expiry time.Time, capacity, perAccount int) (changed bool, err error) {
	if _, ok := r[id]; ok {
		return false, nil
	}
	if err := check(r, account, capacity, perAccount); err != nil {
		return false, err
	}
	r[id] = registered{Account: account, Expiry: expiry.UnixMilli()}
	return true, nil
}

func errCorrupt(err error) error { return fmt.Errorf("%w: %v", ErrCorrupt, err) }
