package planstore

import (
	"context"
	"maps"
	"sync"
	"time"
)

// Memory is a Bucket held in the process: single mode's store. Its entries
// and registry obey the same compare-and-set rules as the JetStream
// bucket's, so the plan actor runs the same code on either. Instance makes
// another handle on the same entries, as another relay instance opens the
// same bucket; a handle's watch delivers the other handles' writes, never
// its own (a lone handle, single mode's, has no watch to feed).
type Memory struct {
	shared *memShared

	// The handle's watch: writes of other handles wait in queue, newest
	// per id, until the pump hands them to changes.
	mu      sync.Mutex
	queue   []Change
	pumping bool
	wake    chan struct{} // one slot
	stop    chan struct{}
	closed  bool
	changes chan Change
	done    sync.WaitGroup
}

type memShared struct {
	// mu guards everything below; Get, on every request's path, takes it
	// only to read. Entries are held by value: a write of an existing
	// entry allocates nothing.
	mu       sync.RWMutex
	entries  map[string]memEntry
	rev      uint64 // the last revision given, shared by every entry
	registry registry
	handles  []*Memory
}

type memEntry struct {
	record   Record
	revision uint64
}

// NewMemory returns an empty in-memory store with one handle.
func NewMemory() *Memory {
	return newHandle(&memShared{entries: map[string]memEntry{}, registry: registry{}})
}

func newHandle(s *memShared) *Memory {
	m := &Memory{shared: s, wake: make(chan struct{}, 1), stop: make(chan struct{}), changes: make(chan Change)}
	s.mu.Lock()
	s.handles = append(s.handles, m)
	s.mu.Unlock()
	return m
}

// Instance returns another handle on m's entries and registry, with a
// watch of its own.
func (m *Memory) Instance() *Memory { return newHandle(m.shared) }

// Close stops the handle's watch and closes Changes.
func (m *Memory) Close() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	close(m.stop)
	m.mu.Unlock()
	m.done.Wait()
	close(m.changes)
}

// Available is always true: the store is the process's own memory.
func (m *Memory) Available() bool { return true }

// Changes delivers the other handles' writes (see Bucket).
func (m *Memory) Changes() <-chan Change { return m.changes }

// Get reads plan id's entry.
func (m *Memory) Get(ctx context.Context, id string) (Entry, error) {
	if err := ctx.Err(); err != nil {
		return Entry{}, err
	}
	s := m.shared
	s.mu.RLock()
	e, ok := s.entries[id]
	s.mu.RUnlock()
	if !ok {
		return Entry{}, ErrNotFound
	}
	return Entry{Record: e.record, Revision: e.revision}, nil
}

// Create writes plan id's first entry.
func (m *Memory) Create(ctx context.Context, id string, r Record) (uint64, error) {
	return m.write(ctx, id, r, 0, true)
}

// Update writes plan id's entry if its revision is still revision.
func (m *Memory) Update(ctx context.Context, id string, r Record, revision uint64) (uint64, error) {
	return m.write(ctx, id, r, revision, false)
}

func (m *Memory) write(ctx context.Context, id string, r Record, revision uint64, create bool) (uint64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s := m.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[id]
	switch {
	case create && ok, !create && !ok:
		return 0, ErrConflict
	case !create && e.revision != revision:
		return 0, ErrConflict
	}
	s.rev++
	s.entries[id] = memEntry{record: r, revision: s.rev}
	m.tellOthers(Change{ID: id, Record: r, Revision: s.rev})
	return s.rev, nil
}

// Delete removes plan id's entry if its revision is still revision.
func (m *Memory) Delete(ctx context.Context, id string, revision uint64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s := m.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.entries[id]; ok {
		if e.revision != revision {
			return ErrConflict
		}
		delete(s.entries, id)
		s.rev++
		m.tellOthers(Change{ID: id, Revision: s.rev, Deleted: true})
	}
	return nil
}

// CheckCapacity is guard 5 (see Bucket).
func (m *Memory) CheckCapacity(ctx context.Context, account string, now time.Time, capacity, perAccount int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s := m.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	s.registry.live(now)
	return check(s.registry, account, capacity, perAccount)
}

// Reserve is guard 8 (see Bucket).
func (m *Memory) Reserve(ctx context.Context, id, account string, expiry, now time.Time, capacity, perAccount int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s := m.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	s.registry.live(now)
	_, err := s.registry.reserve(id, account, expiry, capacity, perAccount)
	return err
}

// Hold keeps plan id's slot until until (see Bucket).
func (m *Memory) Hold(ctx context.Context, id, account string, until time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s := m.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	s.registry.hold(id, account, until)
	return nil
}

// Open counts the plans open at now.
func (m *Memory) Open(ctx context.Context, now time.Time) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s := m.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	live := maps.Clone(s.registry)
	live.live(now)
	return len(live), nil
}

// tellOthers queues c on every other handle's watch. Called with
// shared.mu held, so every watch sees one entry's writes in revision order.
func (m *Memory) tellOthers(c Change) {
	for _, h := range m.shared.handles {
		if h != m {
			h.enqueue(c)
		}
	}
}

// enqueue adds c to the handle's queue, replacing an undelivered change of
// the same id (every change carries the whole plan), and starts the pump
// the first time. It never waits for the watch's reader.
func (m *Memory) enqueue(c Change) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	i := 0
	for _, q := range m.queue {
		if q.ID != c.ID {
			m.queue[i] = q
			i++
		}
	}
	m.queue = append(m.queue[:i], c)
	if !m.pumping {
		m.pumping = true
		m.done.Go(m.pump)
	}
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// pump hands queued changes to Changes until Close.
func (m *Memory) pump() {
	for {
		m.mu.Lock()
		var c Change
		ok := len(m.queue) > 0
		if ok {
			c = m.queue[0]
			m.queue = m.queue[1:]
		}
		m.mu.Unlock()
		if !ok {
			select {
			case <-m.wake:
				continue
			case <-m.stop:
				return
			}
		}
		select {
		case m.changes <- c:
		case <-m.stop:
			return
		}
	}
}
