package projections

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lotbook/lotbook/events"
)

// A projector owns some tables and applies pages of events to them. apply gets only the events
// the projector wants, already decoded, in global order, and must write set-based: it folds
// the page in memory, loads the rows the page touches with a few IN (...) selects and writes
// them back with multi-row upserts, all inside the caller's transaction, which also moves the
// checkpoint.
type Projector struct {
	Name    string
	Version int  // bump when apply semantics change: the projection is rebuilt on next open
	Money   bool // a money projection: documents that it stalls, never skips (all projectors do)
	// unit names the projectors that apply every page together, in one transaction, so that
	// their tables always reflect one log position: a response that reads several of them (the
	// mine screen's cash, positions and profit) sees one moment. Empty: the projector is its own
	// unit and stalls or catches up alone.
	Unit string
	// Partitioned: each of its rows is changed only by the events of one member's streams
	// (member-<id>, account-<id>) or of one other stream, and its Apply reads no rows that
	// other streams' events write. Then instances of `serve --role projector --partition i/n`
	// each apply the events of their own streams (partition.go); a read model that combines
	// streams (totals, queues across members, config, a directory of other members' names)
	// is not, and runs whole on partition 0.
	Partitioned bool
	Tables      []*Table
	// Retired names tables the projector no longer keeps: the open that creates its new tables
	// drops them, so that a database from before does not keep their rows.
	Retired []string
	Wants   func(events.Payload) bool
	Apply   func(ctx context.Context, w *Wtx, evs []Decoded) error

	relevant sync.Map // stored type ("Name.vN") -> wants (bool); a type's Go shape never changes
	hashOnce sync.Once
	hash     string
}

type Decoded struct {
	Ev *events.RecordedEvent
	P  events.Payload
}

// fail names the event a projector could not apply.
func (d Decoded) Fail(err error) error {
	return fmt.Errorf("event %d (%s, %s v%d): %w", d.Ev.Position, d.Ev.Type, d.Ev.Stream, d.Ev.Version, err)
}

// projectors is the registry of read models, in the order Names reports them: the core's own
// first, then each capability's as its package registers it.
var projectors = []*Projector{membersProjector, balancesProjector, houseBalancesProjector}

// Register adds a capability's read model to the registry that the runner applies, OpenReadDB
// creates and `lotbook rebuild` names. A capability package calls it once, from init, so that
// importing the package (cmd/lotbook lists them) is what brings its read model into a binary.
func Register(p *Projector) {
	if _, err := projectorByName(p.Name); err == nil {
		panic(fmt.Sprintf("projections: read model %q registered twice", p.Name))
	}
	projectors = append(projectors, p)
}

// AccountUnit holds the read models of a member's account that responses read together.
const AccountUnit = "account"

// unit is projectors applied together: each page is applied to all of them in one read-model
// transaction that moves all their checkpoints to the page's end.
type unit struct {
	Name string
	ps   []*Projector
}

// units groups projectors by their unit, in the order of the first member of each.
func units(ps []*Projector) []*unit {
	var out []*unit
	byName := map[string]*unit{}
	for _, p := range ps {
		name := p.Unit
		if name == "" {
			name = p.Name
		}
		u, ok := byName[name]
		if !ok {
			u = &unit{Name: name}
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
		if pos := cps[p.Name]; low < 0 || pos < low {
			low = pos
		}
	}
	return max(low, 0)
}

// unitNamed is the unit called name.
func unitNamed(name string) (*unit, error) {
	for _, u := range units(projectors) {
		if u.Name == name {
			return u, nil
		}
	}
	return nil, fmt.Errorf("projections: no unit named %q: %w", name, ErrNotFound)
}

func projectorByName(name string) (*Projector, error) {
	for _, p := range projectors {
		if p.Name == name {
			return p, nil
		}
	}
	return nil, fmt.Errorf("projections: no read model named %q: %w", name, ErrNotFound)
}

func (p *Projector) schemaHash() string {
	p.hashOnce.Do(func() { p.hash = schemaHash(p.Version, p.Tables) })
	return p.hash
}

// selectEvents returns the events of page this projector wants, decoded. An event of a type it
// has not seen is decoded to learn whether the projector wants that type; an event that does not
// decode fails the page (the projector stalls on it rather than skip it).
func (p *Projector) selectEvents(page []*entry) ([]Decoded, error) {
	var out []Decoded
	for _, e := range page {
		want, known := p.relevant.Load(e.Ev.Type)
		if known && !want.(bool) {
			continue
		}
		pl, err := e.payload()
		if err != nil {
			return nil, fmt.Errorf("%s: event %d: %w", p.Name, e.Ev.Position, err)
		}
		if !known {
			w := p.Wants(pl)
			p.relevant.Store(e.Ev.Type, w)
			if !w {
				continue
			}
		}
		out = append(out, Decoded{Ev: &e.Ev, P: pl})
	}
	return out, nil
}

// applyPage applies the events of page above the checkpoint cpName to the projector's tables
// under w.suffix and moves the checkpoint to the page's last position, in w's transaction.
// Events at or below the checkpoint are dropped, so a page delivered twice (a restart, a
// subscription that lags behind a rebuild swap) never applies twice. It returns the new
// checkpoint.
func (p *Projector) applyPage(ctx context.Context, w *Wtx, cpName string, page []*entry) (int64, error) {
	cp, err := lockCheckpoint(ctx, w, cpName)
	if err != nil {
		return 0, err
	}
	return p.applyAbove(ctx, w, cpName, cp, page)
}

// applyAbove is applyPage once the checkpoint cpName, at cp, is locked in w.
func (p *Projector) applyAbove(ctx context.Context, w *Wtx, cpName string, cp int64, page []*entry) (int64, error) {
	for len(page) > 0 && page[0].Ev.Position <= cp {
		page = page[1:]
	}
	if len(page) == 0 {
		return cp, nil
	}
	evs, err := p.selectEvents(share(cpName, page))
	if err != nil {
		return 0, err
	}
	if len(evs) > 0 {
		if err := p.Apply(ctx, w, evs); err != nil {
			return 0, fmt.Errorf("%s: %w", p.Name, err)
		}
	}
	last := page[len(page)-1].Ev.Position
	if err := setCheckpoint(ctx, w, cpName, p.schemaHash(), last); err != nil {
		return 0, err
	}
	return last, nil
}

// MemberOf is the member id of a member-<id> or account-<id> stream.
func MemberOf(stream string) (string, error) {
	if id, ok := events.StreamMember(stream); ok {
		return id, nil
	}
	return "", fmt.Errorf("stream %q is not a member or account stream", stream)
}

func Micros(t time.Time) int64 { return t.UnixMicro() }

func FromMicros(v int64) time.Time { return time.UnixMicro(v).UTC() }

// Registered is every read model registered in this binary, in the order Names reports them.
func Registered() []*Projector { return slices.Clone(projectors) }

// ApplyOneByOne applies evs to p's live tables one event per page, each page in its own
// transaction. A capability's tests use it to check that its page fold agrees with applying the
// same events one at a time.
func (db *ReadDB) ApplyOneByOne(ctx context.Context, p *Projector, evs []events.RecordedEvent) error {
	for i := range evs {
		if err := db.writeTx(ctx, func(w *Wtx) error {
			_, err := p.applyPage(ctx, w, p.Name, wrap(evs[i:i+1]))
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}

// TableRows is every row of tb, each as its columns' text joined by "|", sorted: tests compare
// the rows of read databases projected in different ways (one runner, partitions) with it.
func (db *ReadDB) TableRows(ctx context.Context, tb *Table) ([]string, error) {
	cols := tb.colNames()
	var out []string
	err := db.Reader.Query(ctx, "rows of "+tb.Name, "SELECT "+strings.Join(cols, ", ")+" FROM "+tb.Name, nil,
		textRow(len(cols), func(row []string) { out = append(out, strings.Join(row, "|")) }))
	if err != nil {
		return nil, err
	}
	slices.Sort(out)
	return out, nil
}
