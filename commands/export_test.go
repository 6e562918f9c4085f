package commands

// What the kernel's external tests (package commands_test, which may use the capabilities) read
// of its insides.

import (
	"context"

	"github.com/lotbook/lotbook/events"
)

// OpenSessions is how many sessions the member aggregate holds.
func OpenSessions(m *Member) int { return len(m.sessions) }

// CachedStreams is how many aggregates the service keeps in memory.
func CachedStreams(s *Service) int { return s.cache.len() }

// CachedEvents is how many events the cache counts its aggregates as holding, and how many they
// hold by their versions.
func CachedEvents(s *Service) (counted, held int64) {
	s.cache.mu.Lock()
	defer s.cache.mu.Unlock()
	for _, e := range s.cache.m.Values() {
		held += e.weight
	}
	return s.cache.events, held
}

// LoadedAggregate is stream's aggregate as s loads it (from a stored snapshot, when its store
// keeps one), with the records retries are answered from (decoded, as a retry sees them) and its
// version.
func LoadedAggregate(ctx context.Context, s *Service, stream string) (State, map[string]*Record, int64, error) {
	e, _, err := s.loadWithin(ctx, stream, 0)
	if err != nil {
		return nil, nil, 0, err
	}
	defer e.mu.Unlock()
	for _, rec := range e.seen {
		if err := rec.decodeRestored(); err != nil {
			return nil, nil, 0, err
		}
	}
	return e.st, e.seen, e.version, nil
}

// SnapshotOf is the snapshot s would write of stream as it loads it; ok is false when the
// stream's aggregate cannot be encoded.
func SnapshotOf(ctx context.Context, s *Service, stream string) (events.Snapshot, bool, error) {
	e, _, err := s.loadWithin(ctx, stream, 0)
	if err != nil {
		return events.Snapshot{}, false, err
	}
	defer e.mu.Unlock()
	return encodeSnapshot(e)
}
