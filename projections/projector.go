package projections

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/lotbook/lotbook/events"
)

// A projector owns some tables and applies pages of events to them. apply gets only the events
// the projector wants, already decoded, in global order, and must write set-based: it folds
// the page in memory, loads the rows the page touches with a few IN (...) selects and writes
// them back with multi-row upserts, all inside the caller's transaction, which also moves the
// checkpoint.
type projector struct {
	name    string
	version int  // bump when apply semantics change: the projection is rebuilt on next open
	money   bool // a money projection: documents that it stalls, never skips (all projectors do)
	tables  []*table
	wants   func(events.Payload) bool
	apply   func(ctx context.Context, w *wtx, evs []decoded) error

	mu       sync.Mutex
	relevant map[string]bool // stored type ("Name.vN") -> wants; a type's Go shape never changes
	hash     string
}

type decoded struct {
	ev *events.RecordedEvent
	p  events.Payload
}

// fail names the event a projector could not apply.
func (d decoded) fail(err error) error {
	return fmt.Errorf("event %d (%s, %s v%d): %w", d.ev.Position, d.ev.Type, d.ev.Stream, d.ev.Version, err)
}

// projectors is the fixed set of read models, in the order Names reports them.
var projectors = []*projector{membersProjector, balancesProjector, fundRecordsProjector, reviewQueueProjector, configProjector}

func projectorByName(name string) (*projector, error) {
	for _, p := range projectors {
		if p.name == name {
			return p, nil
		}
	}
	return nil, fmt.Errorf("projections: no read model named %q: %w", name, ErrNotFound)
}

func (p *projector) schemaHash() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.hash == "" {
		p.hash = schemaHash(p.version, p.tables)
	}
	return p.hash
}

// select decodes the events of page this projector wants. An event of a type it has not seen is
// decoded once to learn whether the projector wants that type; an event that does not decode
// fails the page (the projector stalls on it rather than skip it).
func (p *projector) selectEvents(page []events.RecordedEvent) ([]decoded, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.relevant == nil {
		p.relevant = map[string]bool{}
	}
	var out []decoded
	for i := range page {
		ev := &page[i]
		want, known := p.relevant[ev.Type]
		if known && !want {
			continue
		}
		pl, err := events.DecodeRecorded(*ev)
		if err != nil {
			return nil, fmt.Errorf("%s: event %d: %w", p.name, ev.Position, err)
		}
		if !known {
			want = p.wants(pl)
			p.relevant[ev.Type] = want
			if !want {
				continue
			}
		}
		out = append(out, decoded{ev: ev, p: pl})
	}
	return out, nil
}

// applyPage applies the events of page above the checkpoint cpName to the projector's tables
// under w.suffix and moves the checkpoint to the page's last position, in w's transaction.
// Events at or below the checkpoint are dropped, so a page delivered twice (a restart, a
// subscription that lags behind a rebuild swap) never applies twice. It returns the new
// checkpoint.
func (p *projector) applyPage(ctx context.Context, w *wtx, cpName string, page []events.RecordedEvent) (int64, error) {
	cp, err := lockCheckpoint(ctx, w, cpName)
	if err != nil {
		return 0, err
	}
	for len(page) > 0 && page[0].Position <= cp {
		page = page[1:]
	}
	if len(page) == 0 {
		return cp, nil
	}
	evs, err := p.selectEvents(page)
	if err != nil {
		return 0, err
	}
	if len(evs) > 0 {
		if err := p.apply(ctx, w, evs); err != nil {
			return 0, fmt.Errorf("%s: %w", p.name, err)
		}
	}
	last := page[len(page)-1]
	if err := setCheckpoint(ctx, w, cpName, p.schemaHash(), last.Position); err != nil {
		return 0, err
	}
	return last.Position, nil
}

// memberOf is the member id of a member-<id> or account-<id> stream.
func memberOf(stream string) (string, error) {
	for _, prefix := range []string{"member-", "account-"} {
		if len(stream) > len(prefix) && stream[:len(prefix)] == prefix {
			return stream[len(prefix):], nil
		}
	}
	return "", fmt.Errorf("stream %q is not a member or account stream", stream)
}

func micros(t time.Time) int64 { return t.UnixMicro() }

func fromMicros(v int64) time.Time { return time.UnixMicro(v).UTC() }
