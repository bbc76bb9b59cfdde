// Package planstore keeps closerelay's plans: the plan record (Record), the
// registry of open plans, and the one compare-and-set interface (Bucket)
// that the plan actor writes through, with two implementations. Memory
// holds them in the process (single mode). Store keeps them in a NATS
// JetStream key-value bucket, for cluster mode (CONTRACT section 12):
// several instances behind a load balancer share every plan, and a plan
// outlives the instance that took its publish.
//
// The bucket holds one entry per plan ("plan.<id>", a Record as JSON)
// and one registry entry ("registry") listing every
// open plan with its closing account and expiry, through which the plan
// capacity and PLANS_PER_ACCOUNT hold for the whole cluster: a reservation
// is a compare-and-set on the registry, so two instances can never both
// take the last slot. Plan entries are written with compare-and-set on
// their revision too; the store tells a lost race (ErrConflict) from an
// absent entry (ErrNotFound) and from a store it cannot reach
// (ErrUnavailable), and leaves merging to the plan's actor.
//
// The bucket uses memory storage: nothing is written to disk, as closerelay
// has never written a plan to disk. Its replicas (NATS_REPLICAS) are what
// survive the loss of a NATS server. A bucket that exists with file storage
// is refused (ErrFileStorage), never converted.
//
// One watch per instance follows every plan entry and hands each change to
// Changes, in revision order. After NATS comes back (a reconnect), the
// bucket is ensured again (a NATS server with memory storage restarts
// empty) and the watch restarts, replaying every entry's current value, so
// that an instance that missed changes while cut off catches up.
package planstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/closerelay/closerelay/metrics"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Errors of the store's calls.
var (
	// ErrNotFound: the entry does not exist.
	ErrNotFound = errors.New("planstore: no such entry")
	// ErrConflict: a compare-and-set lost (the entry's revision moved on),
	// or a create found the entry already there.
	ErrConflict = errors.New("planstore: the entry changed meanwhile")
	// ErrUnavailable: NATS did not answer (not connected, no JetStream
	// quorum, or the round trip timed out).
	ErrUnavailable = errors.New("planstore: NATS is unreachable")
	// ErrFileStorage: the bucket exists with file storage; closerelay keeps
	// plans in memory only and refuses to start on it (exit 2).
	ErrFileStorage = errors.New("planstore: the bucket exists with file storage; closerelay needs memory storage (delete the bucket or choose another NATS_BUCKET)")
	// ErrCapacity and ErrAccountCapacity: Reserve found the cluster's plan
	// capacity, or the closing account's, taken.
	ErrCapacity        = errors.New("planstore: the cluster's plan capacity is reached")
	ErrAccountCapacity = errors.New("planstore: the closing account has its plans per account open in the cluster")
)

// Keys of the bucket.
const (
	planPrefix  = "plan."
	registryKey = "registry"
)

// bucketTTL bounds how long an entry outlives its last write: a plan lives
// 72 hours at most (SPEC), so anything older is a plan nobody expired (every
// instance was down at its expiry). It is a backstop, not the expiry.
const bucketTTL = 73 * time.Hour

// maxValueSize bounds one entry: a plan's envelope (at most 64 KiB of
// base64, SPEC's XDR cap) with its signer set, or the registry of 500 plans
// (about 60 KB).
const maxValueSize = 256 << 10

// Options configure Open.
type Options struct {
	URLs     []string // NATS_URL's servers
	Bucket   string   // NATS_BUCKET
	Replicas int      // NATS_REPLICAS (1 when 0)
	// Timeout bounds each round trip (2 s when 0); past it the call
	// answers ErrUnavailable.
	Timeout time.Duration
	// Name is the connection's name as NATS monitoring shows it.
	Name    string
	Log     *slog.Logger
	Metrics *metrics.Metrics
}

// Store is a connection to the bucket, cluster mode's Bucket. Its methods
// are safe for concurrent use.
type Store struct {
	opts    Options
	log     *slog.Logger
	metrics *metrics.Metrics
	nc      *nats.Conn
	js      jetstream.JetStream
	// leader reads plan entries from the bucket's stream leader (Get).
	leader nats.JetStreamContext

	// kv is the bucket as last ensured; nil until Open ensured it and while
	// a reconnect's ensure has not succeeded.
	kv atomic.Pointer[kvHandle]

	changes chan Change
	// reset (one slot) tells the watch loop that NATS came back.
	reset  chan struct{}
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

type kvHandle struct{ kv jetstream.KeyValue }

// Open connects to NATS, ensures the bucket (created with memory storage and
// Options.Replicas when absent; ErrFileStorage when it exists on disk) and
// starts the watch. It gives up when ctx ends; NATS must be reachable at
// start. Close releases everything.
func Open(ctx context.Context, opts Options) (*Store, error) {
	if len(opts.URLs) == 0 {
		return nil, errors.New("planstore: no NATS URL")
	}
	if opts.Replicas <= 0 {
		opts.Replicas = 1
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 2 * time.Second
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	s := &Store{
		opts:    opts,
		log:     opts.Log,
		metrics: opts.Metrics,
		changes: make(chan Change, 64),
		reset:   make(chan struct{}, 1),
	}
	nc, err := nats.Connect(strings.Join(opts.URLs, ","),
		nats.Name(opts.Name),
		// Reconnect for as long as the process lives: the relay answers
		// UNAVAILABLE meanwhile and recovers without a restart.
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250*time.Millisecond),
		nats.ReconnectJitter(100*time.Millisecond, time.Second),
		nats.Timeout(opts.Timeout),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			// Unavailable from now until the bucket is ensured again after
			// the reconnect: the server that answers next may have come
			// back without it.
			s.kv.Store(nil)
			s.metrics.StoreAvailable(false)
			s.log.Warn("plan store disconnected", "err", err)
		}),
		nats.ReconnectHandler(func(c *nats.Conn) {
			s.log.Info("plan store reconnected", "server", c.ConnectedUrlRedacted())
			select {
			case s.reset <- struct{}{}:
			default: // already told
			}
		}),
	)
	if err != nil {
		return nil, fmt.Errorf("planstore: connect to NATS: %w", err)
	}
	s.nc = nc
	if s.js, err = jetstream.New(nc); err != nil {
		nc.Close()
		return nil, fmt.Errorf("planstore: JetStream: %w", err)
	}
	if s.leader, err = nc.JetStream(); err != nil {
		nc.Close()
		return nil, fmt.Errorf("planstore: JetStream: %w", err)
	}
	// A NATS cluster that has just formed (every pod of a fresh install
	// starting at once) may take a few seconds to elect the leaders that
	// create a replicated bucket: try until ctx ends.
	for {
		err := s.ensure(ctx)
		if err == nil {
			break
		}
		if errors.Is(err, ErrFileStorage) || ctx.Err() != nil {
			nc.Close()
			return nil, err
		}
		s.log.Warn("plan store: bucket not ready yet", "err", err)
		select {
		case <-ctx.Done():
			nc.Close()
			return nil, err
		case <-time.After(250 * time.Millisecond):
		}
	}
	s.metrics.StoreAvailable(true)
	s.ctx, s.cancel = context.WithCancel(context.Background())
	// The first watch starts before Open returns, so that Changes has every
	// write made after it.
	w, err := s.startWatch()
	if err != nil {
		s.cancel()
		nc.Close()
		return nil, fmt.Errorf("planstore: watch: %w", err)
	}
	s.wg.Go(func() { s.watch(w) })
	return s, nil
}

// Close stops the watch and closes the connection; Changes is closed.
func (s *Store) Close() {
	s.cancel()
	s.nc.Close()
	s.wg.Wait()
}

// Changes delivers the writes to plan entries, this instance's own
// included, in revision order per entry, ending on each entry's newest
// value. The bucket keeps one revision per entry, so a write replaced
// before the watch delivered it is skipped: every change carries the whole
// plan, and the newest is all a reader needs. A value that does not decode
// is logged, counted (closerelay_store_records_refused_total{reason="value"})
// and skipped. After a reconnect it replays the current value of
// every entry. It is closed by Close. Its reader must keep up: the watch
// waits for it.
func (s *Store) Changes() <-chan Change { return s.changes }

// Available reports whether the store can be asked now: connected, with the
// bucket ensured. It costs no round trip.
func (s *Store) Available() bool {
	return s.nc.IsConnected() && s.kv.Load() != nil
}

// ensure finds or creates the bucket. A bucket found with file storage is
// ErrFileStorage.
func (s *Store) ensure(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	kv, err := s.js.KeyValue(ctx, s.opts.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = s.js.CreateKeyValue(ctx, jetstream.KeyValueConfig{
			Bucket:       s.opts.Bucket,
			Description:  "closerelay plans (CONTRACT section 12); memory only",
			Storage:      jetstream.MemoryStorage,
			Replicas:     s.opts.Replicas,
			History:      1,
			TTL:          bucketTTL,
			MaxValueSize: maxValueSize,
		})
		if errors.Is(err, jetstream.ErrBucketExists) {
			// Another instance created it meanwhile.
			kv, err = s.js.KeyValue(ctx, s.opts.Bucket)
		}
	}
	if err != nil {
		return fmt.Errorf("planstore: bucket %s: %w", s.opts.Bucket, err)
	}
	status, err := kv.Status(ctx)
	if err != nil {
		return fmt.Errorf("planstore: bucket %s status: %w", s.opts.Bucket, err)
	}
	info := status.(*jetstream.KeyValueBucketStatus).StreamInfo()
	if info.Config.Storage != jetstream.MemoryStorage {
		return ErrFileStorage
	}
	if info.Config.Replicas != s.opts.Replicas {
		s.log.Warn("plan store bucket has another replica count; keeping it", "bucket", s.opts.Bucket,
			"replicas", info.Config.Replicas, "NATS_REPLICAS", s.opts.Replicas)
	}
	s.kv.Store(&kvHandle{kv})
	return nil
}

// bucket is the ensured bucket, or ErrUnavailable.
func (s *Store) bucket() (jetstream.KeyValue, error) {
	h := s.kv.Load()
	if h == nil || !s.nc.IsConnected() {
		return nil, ErrUnavailable
	}
	return h.kv, nil
}

// startWatch starts a watch of every plan entry on the ensured bucket.
func (s *Store) startWatch() (jetstream.KeyWatcher, error) {
	kv, err := s.bucket()
	if err != nil {
		return nil, err
	}
	return kv.Watch(s.ctx, planPrefix+"*")
}

// watch follows every plan entry until Close, starting with w, and
// restarting after each reconnect.
func (s *Store) watch(w jetstream.KeyWatcher) {
	defer close(s.changes)
	for s.ctx.Err() == nil {
		if w != nil {
			s.follow(w)
		}
		w = nil
		// Wait for NATS to come back, then ensure the bucket (a restarted
		// memory-only server has none) and follow again.
		for s.ctx.Err() == nil {
			if s.nc.IsConnected() {
				err := s.ensure(s.ctx)
				if err == nil {
					if w, err = s.startWatch(); err == nil {
						s.metrics.StoreAvailable(true)
						break
					}
				}
				if s.ctx.Err() == nil {
					s.log.Warn("plan store: bucket not ready", "err", err)
				}
			}
			select {
			case <-s.reset:
			case <-time.After(time.Second):
			case <-s.ctx.Done():
			}
		}
	}
}

// follow runs the watch w until the connection comes back from an outage
// (reset), the watch ends, or Close.
func (s *Store) follow(w jetstream.KeyWatcher) {
	defer func() { _ = w.Stop() }()
	for {
		select {
		case e, ok := <-w.Updates():
			if !ok {
				return
			}
			if e == nil {
				continue // the end of the current values
			}
			c := Change{ID: strings.TrimPrefix(e.Key(), planPrefix), Revision: e.Revision()}
			if e.Operation() == jetstream.KeyValuePut {
				r, err := decode(e.Value())
				if err != nil {
					s.metrics.StoreRecordRefused(metrics.StoreRefusedValue)
					s.log.Error("plan store: a stored plan does not decode; refused", "id", c.ID, "revision", c.Revision, "err", err)
					continue
				}
				c.Record = r
			} else {
				c.Deleted = true
			}
			select {
			case s.changes <- c:
			case <-s.ctx.Done():
				return
			}
		case <-s.reset:
			// Reconnected: a watch that missed messages while cut off
			// catches up by starting again from every current value. The
			// store is unavailable until watch has ensured the bucket again
			// (one round trip): the server may have come back without it,
			// and Available must not say yes to a bucket that is gone.
			s.kv.Store(nil)
			return
		case <-s.ctx.Done():
			return
		}
	}
}

// op runs one round trip under the store's timeout, observing its duration
// and outcome, and maps its error onto the store's errors.
func (s *Store) op(ctx context.Context, name string, f func(context.Context, jetstream.KeyValue) error) error {
	kv, err := s.bucket()
	if err != nil {
		s.metrics.StoreRequest(name, "error", 0)
		return err
	}
	opCtx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	start := time.Now()
	err = f(opCtx, kv)
	if err != nil && ctx.Err() != nil {
		return ctx.Err() // the caller gave up: not the store's failure
	}
	err = mapError(err)
	outcome := "ok"
	switch {
	case err == nil, errors.Is(err, ErrNotFound):
	case errors.Is(err, ErrConflict):
		outcome = "conflict"
	default:
		outcome = "error"
	}
	s.metrics.StoreRequest(name, outcome, time.Since(start))
	return err
}

// mapError maps a round trip's failure onto the store's errors. Anything
// that is not an answer about the entry, the round trip's own timeout
// included, is ErrUnavailable: NATS did not serve the call.
func mapError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrCorrupt):
		return err // an answer about the entry: its value
	case errors.Is(err, jetstream.ErrKeyNotFound), errors.Is(err, jetstream.ErrKeyDeleted):
		return ErrNotFound
	case errors.Is(err, jetstream.ErrKeyExists), errors.Is(err, jetstream.ErrKeyRevisionMismatch):
		return ErrConflict
	default:
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
}

// Get reads plan id's entry as it stands: every write acknowledged before
// the call is in it (ErrNotFound when there is none; ErrCorrupt, with the
// entry's revision, when its value does not decode).
//
// It asks the bucket's stream leader, never a direct get. The bucket allows
// direct gets (nats.go creates KV buckets so), which any replica answers,
// the one on the caller's NATS server first; a follower applies a write
// only once it learns it was committed, after the writer's acknowledgement,
// so with NATS_REPLICAS above 1 a direct get right after another
// instance's write can answer the entry without it, and a Lookup would
// then answer without a sign that instance answered 200 (CONTRACT section
// 12). The leader acknowledges a write once it has applied it, so what it
// answers holds every acknowledged write.
func (s *Store) Get(ctx context.Context, id string) (Entry, error) {
	var e Entry
	err := s.op(ctx, metrics.StoreGet, func(ctx context.Context, _ jetstream.KeyValue) error {
		m, err := s.leader.GetLastMsg("KV_"+s.opts.Bucket, "$KV."+s.opts.Bucket+"."+planPrefix+id, nats.Context(ctx))
		switch {
		case errors.Is(err, nats.ErrMsgNotFound):
			return jetstream.ErrKeyNotFound
		case err != nil:
			return err
		case m.Header.Get(kvOperation) != "":
			return jetstream.ErrKeyDeleted // a delete or purge marker
		}
		e.Revision = m.Sequence
		var derr error
		if e.Record, derr = decode(m.Data); derr != nil {
			return derr
		}
		return nil
	})
	return e, err
}

// decode is a plan entry's value as a Record.
func decode(value []byte) (Record, error) {
	var r Record
	if err := json.Unmarshal(value, &r); err != nil {
		return Record{}, errCorrupt(err)
	}
	return r, nil
}

// kvOperation is the header a KV bucket's delete and purge markers carry.
const kvOperation = "KV-Operation"

// Create writes plan id's first entry: ErrConflict when it exists already.
func (s *Store) Create(ctx context.Context, id string, r Record) (revision uint64, err error) {
	value, err := json.Marshal(r)
	if err != nil {
		return 0, fmt.Errorf("planstore: encode plan %s: %w", id, err)
	}
	err = s.op(ctx, metrics.StoreCreate, func(ctx context.Context, kv jetstream.KeyValue) error {
		revision, err = kv.Create(ctx, planPrefix+id, value)
		return err
	})
	return revision, err
}

// Update writes plan id's entry if its revision is still revision:
// ErrConflict when another write came first (or the entry is gone).
func (s *Store) Update(ctx context.Context, id string, r Record, revision uint64) (uint64, error) {
	value, err := json.Marshal(r)
	if err != nil {
		return 0, fmt.Errorf("planstore: encode plan %s: %w", id, err)
	}
	var next uint64
	err = s.op(ctx, metrics.StoreUpdate, func(ctx context.Context, kv jetstream.KeyValue) error {
		var err error
		next, err = kv.Update(ctx, planPrefix+id, value, revision)
		return err
	})
	if errors.Is(err, ErrConflict) {
		s.metrics.StoreConflict(metrics.StoreEntryPlan)
	}
	return next, err
}

// readRegistry reads the registry and its revision (0: absent).
func (s *Store) readRegistry(ctx context.Context) (registry, uint64, error) {
	reg := registry{}
	var rev uint64
	err := s.op(ctx, metrics.StoreRegistryRead, func(ctx context.Context, kv jetstream.KeyValue) error {
		e, err := kv.Get(ctx, registryKey)
		if err != nil {
			return err
		}
		rev = e.Revision()
		return json.Unmarshal(e.Value(), &reg)
	})
	if errors.Is(err, ErrNotFound) {
		return registry{}, 0, nil
	}
	return reg, rev, err
}

// CheckCapacity is guard 5 over the cluster: ErrCapacity when capacity
// plans are open, else ErrAccountCapacity when account has perAccount.
func (s *Store) CheckCapacity(ctx context.Context, account string, now time.Time, capacity, perAccount int) error {
	reg, _, err := s.readRegistry(ctx)
	if err != nil {
		return err
	}
	reg.live(now)
	return check(reg, account, capacity, perAccount)
}

// Open counts the cluster's open plans at now.
func (s *Store) Open(ctx context.Context, now time.Time) (int, error) {
	reg, _, err := s.readRegistry(ctx)
	if err != nil {
		return 0, err
	}
	reg.live(now)
	return len(reg), nil
}

// maxRegistryTries bounds Reserve's compare-and-set loop: each lost race
// means another publish took effect, so a few hundred cover a burst of every
// slot of the cluster at once.
const maxRegistryTries = 600

// Reserve takes a slot of the cluster for plan id of account, open until
// expiry, atomically with the capacity checks (guard 8): ErrCapacity,
// ErrAccountCapacity. Plans past their expiry free their slots first. An id
// that holds a slot already keeps it (another instance is creating the same
// plan; its create decides).
func (s *Store) Reserve(ctx context.Context, id, account string, expiry, now time.Time, capacity, perAccount int) error {
	return s.changeRegistry(ctx, func(reg registry) (bool, error) {
		reg.live(now)
		return reg.reserve(id, account, expiry, capacity, perAccount)
	})
}

// Hold keeps plan id's slot until until, over the cluster (see Bucket).
func (s *Store) Hold(ctx context.Context, id, account string, until time.Time) error {
	return s.changeRegistry(ctx, func(reg registry) (bool, error) {
		return reg.hold(id, account, until), nil
	})
}

// changeRegistry writes what change makes of the registry with
// compare-and-set, reading it again after each lost race; change reports
// whether it changed anything to write.
func (s *Store) changeRegistry(ctx context.Context, change func(registry) (bool, error)) error {
	for range maxRegistryTries {
		reg, rev, err := s.readRegistry(ctx)
		if err != nil {
			return err
		}
		if changed, err := change(reg); err != nil || !changed {
			return err
		}
		value, err := json.Marshal(reg)
		if err != nil {
			return fmt.Errorf("planstore: encode the registry: %w", err)
		}
		err = s.op(ctx, metrics.StoreRegistryWrite, func(ctx context.Context, kv jetstream.KeyValue) error {
			if rev == 0 {
				_, err := kv.Create(ctx, registryKey, value)
				return err
			}
			_, err := kv.Update(ctx, registryKey, value, rev)
			return err
		})
		if errors.Is(err, ErrConflict) {
			s.metrics.StoreConflict(metrics.StoreEntryRegistry)
			continue
		}
		return err
	}
	return fmt.Errorf("%w: the registry kept changing", ErrUnavailable)
}

// Delete removes plan id's entry (its expiry) if its revision is still
// revision (ErrConflict when another write came first); an entry already
// gone is no error.
func (s *Store) Delete(ctx context.Context, id string, revision uint64) error {
	err := s.op(ctx, metrics.StoreDelete, func(ctx context.Context, kv jetstream.KeyValue) error {
		return kv.Delete(ctx, planPrefix+id, jetstream.LastRevision(revision))
	})
	if errors.Is(err, ErrConflict) {
		// A delete leaves a marker at a revision of its own, so an entry
		// already deleted conflicts too: gone is no error.
		if _, gerr := s.Get(ctx, id); errors.Is(gerr, ErrNotFound) {
			return nil
		}
	}
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}
