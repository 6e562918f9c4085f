package sqlite

import (
	"bytes"
	"sync"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/internal/backend"
)

// recentEvents is about how many of the events this store's writer committed last it keeps in
// memory (between recentEvents and twice as many): a few pages of every reader that keeps up.
const recentEvents = 4096

// recent holds the events this store's writer committed last, at consecutive positions, for
// ReadAll. Every reader that keeps up with the log (in one server: the projections' and the
// process managers' shared readers, the sockets' pushes, the command cache's follower) reads each
// event right after its commit; each read the rows again and decoded their metadata, 8 % of the
// CPU of an order. They hold only what was committed, in order: a commit of another process in
// between (its positions lie between two of this writer's) starts them over, so that a read they
// cover never misses an event, and one they do not cover reads the file.
type recent struct {
	mu  sync.RWMutex
	evs []events.RecordedEvent // consecutive positions
}

// add records the rows of a commit, in position order, once it committed.
func (r *recent) add(rows []backend.Row) {
	recs := make([]events.RecordedEvent, len(rows))
	for i, row := range rows {
		md, err := backend.UnmarshalMetadata(row.Metadata)
		if err != nil {
			r.clear() // read back from the file, which reports it
			return
		}
		recs[i] = events.RecordedEvent{ID: row.ID, Stream: row.Stream, Version: row.Version, Position: row.Position,
			Type: row.Type, Data: bytes.Clone(row.Data), Metadata: md}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := len(r.evs); n > 0 && r.evs[n-1].Position+1 != recs[0].Position {
		r.evs = nil
	}
	if len(r.evs)+len(recs) > 2*recentEvents {
		keep := recentEvents - min(len(recs), recentEvents)
		r.evs = append(make([]events.RecordedEvent, 0, 2*recentEvents), r.evs[len(r.evs)-keep:]...)
	}
	r.evs = append(r.evs, recs...)
}

func (r *recent) clear() {
	r.mu.Lock()
	r.evs = nil
	r.mu.Unlock()
}

// read returns up to limit events after position after, in a slice of the caller's own, when
// it holds the next one; ok is false when it does not (after is before what it holds, or at or
// past its last event: the file may hold more, another process's).
func (r *recent) read(after int64, limit int) (out []events.RecordedEvent, ok bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	n := len(r.evs)
	if n == 0 || after < r.evs[0].Position-1 || after >= r.evs[n-1].Position {
		return nil, false
	}
	i := int(after - r.evs[0].Position + 1)
	return append([]events.RecordedEvent(nil), r.evs[i:i+min(limit, n-i)]...), true
}
