package commands

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/lotbook/lotbook/events"
)

// State is an aggregate's state; apply is its evolve function, fed every event of the stream in
// order (the recorded event carries metadata such as the server time).
type State interface {
	Apply(r events.RecordedEvent, p events.Payload)
}

// snapshotter is a state that keeps, per command, a copy of what the command's answer reports
// (the account's balances right after it). Aggregate snapshots carry the copies in their records:
// appendCopy appends one's encoding, parseCopy reads it back.
type snapshotter interface {
	snapshot() any
	appendCopy(out []byte, copy any) []byte
	parseCopy(b []byte) (any, error)
}

// Record is what one command wrote to one stream: enough to give the same answer again.
type Record struct {
	Payloads []events.Payload
	Position int64           // global position of the command's last event in the stream
	Snapshot any             // state snapshot after that event, when the state keeps one
	binding  string          // the command's binding (Cmd.binding), from its first event's metadata
	restored []restoredEvent // its first events, not decoded yet, when restored from a snapshot
	// restoredCopy is Snapshot's encoding, not decoded yet, when restored from a snapshot.
	restoredCopy []byte
}

// Entry is one stream's aggregate in memory. mu serialises the commands of one stream inside
// this process, so conflicts only come from other processes; the store's expected-version check
// stays the guard.
type Entry struct {
	mu       entryLock
	stream   string
	version  int64 // events applied
	position int64 // global position of the last event applied
	st       State
	seen     map[string]*Record // command id -> what it wrote here; read through replay
	checked  time.Time          // when its last catch-up with the store began (zero: never)
	weight   int64              // events the cache counts it as holding (under cache.mu)
	noticed  atomic.Int64       // the highest version of its stream the follower saw
	snapped  int64              // version of its last snapshot, stored or restored (snapshot.go)
}

// reset makes e its stream's aggregate before any event: a fresh entry, or one whose state a
// failed catch-up or restore may have left half applied.
func (e *Entry) reset() {
	e.version, e.position, e.snapped, e.st, e.seen, e.checked = 0, 0, 0, stateFor(e.stream), map[string]*Record{}, time.Time{}
}

// entryLock is an entry's mutex, whose waiters give up when their context ends: a request must
// not outwait its deadline behind a holder stuck on a silent store (sync.Mutex hands over in no
// set order, so a waiter could sit through several holders' deadlines in turn).
type entryLock chan struct{}

func (l entryLock) Lock(ctx context.Context) error {
	select {
	case l <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l entryLock) Unlock() { <-l }

func newEntry(stream string) *Entry {
	e := &Entry{mu: make(entryLock, 1), stream: stream}
	e.reset()
	return e
}

// Replay is what command c already wrote to this stream, if anything. Events of c's id that
// another command wrote (another binding) answer key-reused: nothing of theirs may decide or
// answer c. Events from before bindings were stored answer only callers that send no request
// fingerprint (internal callers with deterministic ids, retried across an upgrade).
func (e *Entry) Replay(c Cmd) (*Record, error) {
	rec := e.seen[c.CommandID]
	switch {
	case rec == nil:
		return nil, nil
	case rec.binding == c.binding, rec.binding == "" && c.Request == "":
		if err := rec.decodeRestored(e.st); err != nil {
			return nil, Unavailable(err)
		}
		return rec, nil
	}
	return nil, KeyReused()
}

// cache keeps the most recently used aggregates, at most capacity streams holding at most budget
// events between them: an aggregate's memory (its state and the records replay answers from)
// grows with its stream, so a count of streams alone would not bound it. An entry evicted while
// a command holds it simply becomes private to that command; the next load reads the stream
// again. mu makes a miss and the entry it creates one step, so that two loads of a stream share
// one entry.
type cache struct {
	mu     sync.Mutex
	m      *simplelru.LRU[string, *Entry]
	budget int64 // events the cached entries may hold between them
	events int64 // events they hold (the sum of their weights)
}

func newCache(capacity int, budget int64) *cache {
	c := &cache{budget: budget}
	m, err := simplelru.NewLRU[string, *Entry](capacity, func(_ string, e *Entry) { c.events -= e.weight })
	if err != nil {
		panic(fmt.Sprintf("commands: cache of %d aggregates: %v", capacity, err)) // New passes a positive size
	}
	c.m = m
	return c
}

func (c *cache) get(stream string) *Entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m.Get(stream); ok {
		return e
	}
	e := newEntry(stream)
	c.m.Add(stream, e)
	return e
}

// weigh records that e now holds events events (its version, under e.mu) and evicts the least
// recently used entries while the cache holds more than its budget; the entry just used is the
// most recent, so it goes last (a stream alone above the budget is still kept).
func (c *cache) weigh(e *Entry, events int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cur, ok := c.m.Peek(e.stream); !ok || cur != e {
		return // evicted while held: private to its command, weighing nothing
	}
	c.events += events - e.weight
	e.weight = events
	for c.events > c.budget && c.m.Len() > 1 {
		c.m.RemoveOldest()
	}
}

// drop forgets a stream whose cached state can no longer be trusted.
func (c *cache) drop(e *Entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cur, ok := c.m.Peek(e.stream); ok && cur == e {
		c.m.Remove(e.stream)
	}
}

// peek is the cached entry of stream, if any, without making it recently used.
func (c *cache) peek(stream string) *Entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, _ := c.m.Peek(stream)
	return e
}

func (c *cache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m.Len()
}

// loadWithin returns the stream's aggregate, locked and caught up with the store (only events
// after the cached version are read), unless it trusts the cached aggregate: it caught up less
// than fresh ago (or, with fresh < 0, ever). The caller unlocks e.mu. Inside this process every write
// to a stream goes through its entry (execute catches up after appending), so a cached entry
// misses only other processes' writes. caught tells whether it read the store just now.
func (s *Service) loadWithin(ctx context.Context, stream string, fresh time.Duration) (e *Entry, caught bool, err error) {
	e = s.cache.get(stream)
	if err := e.mu.Lock(ctx); err != nil {
		return nil, false, Unavailable(fmt.Errorf("wait for %s: %w", stream, err))
	}
	if !e.checked.IsZero() && (fresh < 0 || time.Since(e.checked) < fresh || fresh > 0 && s.follow.vouches(e, time.Now(), fresh)) {
		return e, false, nil
	}
	if err := s.catchUp(ctx, e); err != nil {
		e.mu.Unlock()
		return nil, false, err
	}
	return e, true, nil
}

func (s *Service) catchUp(ctx context.Context, e *Entry) error {
	s.loadSnapshot(ctx, e)
	return s.catchUpAfter(ctx, e, nil, nil)
}

// catchUpAfter catches e up after this process appended own (encoded from payloads) at its
// version: a read-back event that is provably one of own (its id, type, binding and server
// time, which another writer of the same command id would not share to the nanosecond) is
// applied with the payload it was encoded from instead of being decoded again. Anything else
// read back is decoded as stored.
func (s *Service) catchUpAfter(ctx context.Context, e *Entry, own []events.EventData, payloads []events.Payload) error {
	at := time.Now()
	recs, err := s.store.ReadStream(ctx, e.stream, e.version)
	if err != nil {
		return Unavailable(fmt.Errorf("read %s after v%d: %w", e.stream, e.version, err))
	}
	return s.apply(e, recs, own, payloads, at)
}

// appended brings e past own (encoded from payloads), which this process appended at e's version
// in an append that began at at and returned res. When the store says that append wrote them,
// they are applied as written, without reading them back: the expected version proved e current
// up to them. Otherwise they are read back (the store kept another command's events under these
// ids, or does not say), so that what e records is what the store holds.
func (s *Service) appended(ctx context.Context, e *Entry, own []events.EventData, payloads []events.Payload, res events.AppendResult, at time.Time) error {
	recs := written(e, own, res)
	if recs == nil {
		return s.catchUpAfter(ctx, e, own, payloads)
	}
	return s.apply(e, recs, own, payloads, at)
}

// written is own as the store holds it after an append at e's version that returned res, or nil
// when res does not say that this append wrote them (see events.AppendResult).
func written(e *Entry, own []events.EventData, res events.AppendResult) []events.RecordedEvent {
	n := int64(len(own))
	if !res.Written || res.Version != e.version+n {
		return nil
	}
	recs := make([]events.RecordedEvent, n)
	for i, d := range own {
		if d.Metadata.ServerTime.IsZero() {
			return nil // the store stamped its own time: read it back
		}
		md := d.Metadata
		md.ServerTime = md.ServerTime.UTC()
		k := int64(i)
		recs[i] = events.RecordedEvent{ID: d.ID, Stream: e.stream, Version: e.version + 1 + k, Position: res.Position - n + 1 + k,
			Type: d.Type, Data: d.Data, Metadata: md}
	}
	return recs
}

// apply evolves e by recs, the stream's events after its version, as of a look at the store that
// began at at; those among own are applied with their payloads (see catchUpAfter).
func (s *Service) apply(e *Entry, recs []events.RecordedEvent, own []events.EventData, payloads []events.Payload, at time.Time) error {
	for i, r := range recs {
		var p events.Payload
		var err error
		if i < len(own) && isOwn(r, own[i]) {
			p = payloads[i]
		} else if p, err = events.DecodeRecorded(r); err != nil {
			// The state may be half applied: start this stream over next time.
			s.cache.drop(e)
			e.reset()
			return Unavailable(err)
		}
		e.st.Apply(r, p)
		e.version, e.position = r.Version, r.Position
		if id := r.Metadata.CommandID; id != "" {
			rec := e.seen[id]
			if rec == nil {
				rec = &Record{binding: r.Metadata.Request}
				e.seen[id] = rec
			}
			rec.Payloads = append(rec.Payloads, p)
			rec.Position = r.Position
			if sn, ok := e.st.(snapshotter); ok {
				rec.Snapshot, rec.restoredCopy = sn.snapshot(), nil
			}
		}
	}
	e.checked = at
	if len(recs) > 0 {
		s.cache.weigh(e, e.version)
		s.offerSnapshot(e)
	}
	return nil
}

// isOwn tells whether the stored r is the event d this process appended.
func isOwn(r events.RecordedEvent, d events.EventData) bool {
	return r.ID == d.ID && r.Type == d.Type && r.Metadata.CommandID == d.Metadata.CommandID &&
		r.Metadata.Request == d.Metadata.Request && r.Metadata.ServerTime.Equal(d.Metadata.ServerTime)
}

// viewFresh is how old a cached aggregate that view reads may be before it reads the store again,
// unless the follower vouches for it (follow.go): other processes' writes to a stream that a
// decision only looks at (a member's flags, a channel) count from that much later. It is of the
// order of the time between such a read and the append it informs, during which such a write
// goes unseen anyway.
const viewFresh = 20 * time.Millisecond

// View runs f on a stream's state under its lock, caught up within viewFresh, to read facts
// another stream's decision needs.
func View[S State, T any](ctx context.Context, s *Service, stream string, f func(st S, e *Entry) T) (T, error) {
	var zero T
	s.follow.askedFor(time.Now())
	e, _, err := s.loadWithin(ctx, stream, viewFresh)
	if err != nil {
		return zero, err
	}
	defer e.mu.Unlock()
	return f(e.st.(S), e), nil
}
