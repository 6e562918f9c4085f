package projections

import (
	"sync"

	"github.com/lotbook/lotbook/events"
)

// entry is one event of a page as the projectors of a unit share it: decoded at most once, by
// whichever projector first wants it (payloads are values that projectors only read).
type entry struct {
	ev   events.RecordedEvent
	once sync.Once
	p    events.Payload
	err  error
}

func (e *entry) payload() (events.Payload, error) {
	e.once.Do(func() { e.p, e.err = events.DecodeRecorded(e.ev) })
	return e.p, e.err
}

func wrap(evs []events.RecordedEvent) []*entry {
	out := make([]*entry, len(evs))
	for i := range evs {
		out[i] = &entry{ev: evs[i]}
	}
	return out
}
