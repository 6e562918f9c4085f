package projections

import (
	"slices"
	"sort"
	"sync"

	"github.com/lotbook/lotbook/events"
)

// entry is one event of a page as the projectors of a unit share it: decoded at most once, by
// whichever projector first wants it (payloads are values that projectors only read).
type entry struct {
	Ev   events.RecordedEvent
	once sync.Once
	p    events.Payload
	err  error
}

func (e *entry) payload() (events.Payload, error) {
	e.once.Do(func() { e.p, e.err = events.DecodeRecorded(e.Ev) })
	return e.p, e.err
}

func wrap(evs []events.RecordedEvent) []*entry {
	out := make([]*entry, len(evs))
	for i := range evs {
		out[i] = &entry{Ev: evs[i]}
	}
	return out
}

// shared keeps the newest entries the units were handed, so that an event two units want is
// decoded once (each unit's page arrives as bytes in its own message). It holds at most max
// entries, the newest; a unit reading behind them decodes its own.
type shared struct {
	mu  sync.Mutex
	buf []*entry // ascending positions
	max int
}

// entries returns the page's entries, reusing those another unit already made.
func (s *shared) entries(evs []events.RecordedEvent) []*entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*entry, len(evs))
	for i, ev := range evs {
		j := sort.Search(len(s.buf), func(j int) bool { return s.buf[j].Ev.Position >= ev.Position })
		if j < len(s.buf) && s.buf[j].Ev.Position == ev.Position && s.buf[j].Ev.ID == ev.ID {
			out[i] = s.buf[j]
			continue
		}
		out[i] = &entry{Ev: ev}
		if j == len(s.buf) {
			s.buf = append(s.buf, out[i])
		}
	}
	if over := len(s.buf) - s.max; over > 0 {
		s.buf = slices.Delete(s.buf, 0, over)
	}
	return out
}
