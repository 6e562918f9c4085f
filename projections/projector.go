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
	// unit names the projectors that apply every page together, in one transaction, so that
	// their tables always reflect one log position: a response that reads several of them (the
	// mine screen's cash, positions and profit) sees one moment. Empty: the projector is its own
	// unit and stalls or catches up alone.
	unit   string
	tables []*table
	wants  func(events.Payload) bool
	apply  func(ctx context.Context, w *wtx, evs []decoded) error

	relevant sync.Map // stored type ("Name.vN") -> wants (bool); a type's Go shape never changes
	hashOnce sync.Once
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
var projectors = []*projector{membersProjector, balancesProjector, reviewQueueProjector, configProjector, favoritesProjector}

// accountUnit holds the read models of a member's account that responses read together.
const accountUnit = "account"

// unit is projectors applied together: each page is applied to all of them in one read-model
// transaction that moves all their checkpoints to the page's end.
type unit struct {
	name string
	ps   []*projector
}

// units groups projectors by their unit, in the order of the first member of each.
func units(ps []*projector) []*unit {
	var out []*unit
	byName := map[string]*unit{}
	for _, p := range ps {
		name := p.unit
		if name == "" {
			name = p.name
		}
		u, ok := byName[name]
		if !ok {
			u = &unit{name: name}
			byName[name] = u
			out = append(out, u)
		}
		u.ps = append(u.ps, p)
	}
	return out
}

// from is where the unit's feed starts: its lowest checkpoint. A projector ahead of it (one that
// was not reset with the others) drops the events it already has (see applyPage).
func (u *unit) from(cps map[string]int64) int64 {
	low := int64(-1)
	for _, p := range u.ps {
		if pos := cps[p.name]; low < 0 || pos < low {
			low = pos
		}
	}
	return max(low, 0)
}

// unitNamed is the unit called name.
func unitNamed(name string) (*unit, error) {
	for _, u := range units(projectors) {
		if u.name == name {
			return u, nil
		}
	}
	return nil, fmt.Errorf("projections: no unit named %q: %w", name, ErrNotFound)
}

func projectorByName(name string) (*projector, error) {
	for _, p := range projectors {
		if p.name == name {
			return p, nil
		}
	}
	return nil, fmt.Errorf("projections: no read model named %q: %w", name, ErrNotFound)
}

func (p *projector) schemaHash() string {
	p.hashOnce.Do(func() { p.hash = schemaHash(p.version, p.tables) })
	return p.hash
}

// selectEvents returns the events of page this projector wants, decoded. An event of a type it
// has not seen is decoded to learn whether the projector wants that type; an event that does not
// decode fails the page (the projector stalls on it rather than skip it).
func (p *projector) selectEvents(page []*entry) ([]decoded, error) {
	var out []decoded
	for _, e := range page {
		want, known := p.relevant.Load(e.ev.Type)
		if known && !want.(bool) {
			continue
		}
		pl, err := e.payload()
		if err != nil {
			return nil, fmt.Errorf("%s: event %d: %w", p.name, e.ev.Position, err)
		}
		if !known {
			w := p.wants(pl)
			p.relevant.Store(e.ev.Type, w)
			if !w {
				continue
			}
		}
		out = append(out, decoded{ev: &e.ev, p: pl})
	}
	return out, nil
}

// applyPage applies the events of page above the checkpoint cpName to the projector's tables
// under w.suffix and moves the checkpoint to the page's last position, in w's transaction.
// Events at or below the checkpoint are dropped, so a page delivered twice (a restart, a
// subscription that lags behind a rebuild swap) never applies twice. It returns the new
// checkpoint.
func (p *projector) applyPage(ctx context.Context, w *wtx, cpName string, page []*entry) (int64, error) {
	cp, err := lockCheckpoint(ctx, w, cpName)
	if err != nil {
		return 0, err
	}
	for len(page) > 0 && page[0].ev.Position <= cp {
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
	last := page[len(page)-1].ev.Position
	if err := setCheckpoint(ctx, w, cpName, p.schemaHash(), last); err != nil {
		return 0, err
	}
	return last, nil
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
