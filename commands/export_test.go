package commands

// What the kernel's external tests (package commands_test, which may use the capabilities) read
// of its insides.

import (
	"context"
	"maps"
	"reflect"

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
	// A copy: the snapshot writer, which the load may have started, replaces records in e.seen.
	seen := maps.Clone(e.seen)
	for _, rec := range seen {
		if err := rec.decodeRestored(e.st); err != nil {
			return nil, nil, 0, err
		}
	}
	return e.st, seen, e.version, nil
}

// SnapshotOf is the snapshot s would write of stream as it loads it; ok is false when the
// stream's aggregate cannot be encoded.
func SnapshotOf(ctx context.Context, s *Service, stream string) (events.Snapshot, bool, error) {
	e, _, err := s.loadWithin(ctx, stream, 0)
	if err != nil {
		return events.Snapshot{}, false, err
	}
	defer e.mu.Unlock()
	return encodeSnapshot(e, nil)
}

// SnapshotPieces is each encodable piece of st by name (its shell's name, then the piece's: its
// own fields, then its parts), and
// whether the same piece of a new aggregate of stream encodes differently: whether st holds
// state there.
func SnapshotPieces(stream string, st State) (map[string]bool, error) {
	names, pieces, ok := snapshotLayout(st)
	if !ok {
		return nil, nil
	}
	_, empty, _ := snapshotLayout(stateFor(stream))
	held := make(map[string]bool, len(names))
	for i, p := range pieces {
		a, err := p.MarshalSnapshot()
		if err != nil {
			return nil, err
		}
		b, err := empty[i].MarshalSnapshot()
		if err != nil {
			return nil, err
		}
		held[names[0]+"."+names[i]] = string(a) != string(b)
		// Each field on its own too: a field a part's mirror leaves out restores empty, which
		// the comparison cannot tell from a field no event of the logs filled.
		if v := reflect.ValueOf(p); v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct {
			v = v.Elem()
			for j := range v.NumField() {
				f := v.Field(j)
				filled := !f.IsZero() && !((f.Kind() == reflect.Map || f.Kind() == reflect.Slice) && f.Len() == 0)
				key := names[0] + "." + names[i] + "." + v.Type().Field(j).Name
				held[key] = held[key] || filled
			}
		}
	}
	return held, nil
}
