package projections

import (
	"context"
	"fmt"
	"reflect"

	"github.com/lotbook/lotbook/events"
)

// Keyed declares a table whose rows a projector keeps by one text key column (Table.Key), with
// the row struct R that RowMap Fields maps: what a page of events reads, changes and writes back.
type Keyed[R any] struct {
	Table  *Table
	Fields RowMap[R]
	Key    func(*R) string // the row's key column value
	What   string          // what a row is, for the error of an event whose row was never made
	// Changes names the row an event changes that an earlier event may have made ("" for an
	// event that makes its row or has none); nil: the projector names them itself (Need).
	Changes func(Decoded) string
}

// Page starts the rows of the page evs, needing those that Changes names.
func (k *Keyed[R]) Page(evs []Decoded) *PageRows[R] {
	if len(k.Table.Key) != 1 {
		panic("projections: " + k.Table.Name + " is not keyed by one column")
	}
	p := &PageRows[R]{k: k, rows: map[string]*R{}, need: map[string]bool{}}
	if k.Changes != nil {
		for _, d := range evs {
			p.Need(k.Changes(d))
		}
	}
	return p
}

// PageRows are the rows of one table that a page of events writes: those its events create and
// those they change that earlier pages created. The projector names the latter (Need) and reads
// them (Load) before it folds the page, so that a page and the same events one by one agree.
type PageRows[R any] struct {
	k    *Keyed[R]
	rows map[string]*R
	need map[string]bool
}

// Need names a row an event of the page changes; "" names none.
func (p *PageRows[R]) Need(key string) {
	if key != "" {
		p.need[key] = true
	}
}

// Load reads the needed rows that earlier pages wrote. A row needed once is read once: a
// projector may load a table early (to learn what else to need) and FoldPage load it again.
func (p *PageRows[R]) Load(ctx context.Context, w *Wtx) error {
	keys := KeysOf(p.need)
	clear(p.need)
	return p.k.Fields.SelectIn(ctx, w, p.k.Table, p.k.Table.Key[0], keys, p.Put)
}

// Put adds or replaces a row.
func (p *PageRows[R]) Put(r *R) { p.rows[p.k.Key(r)] = r }

// Row is the row of key, or nil when neither this page nor a loaded one has it.
func (p *PageRows[R]) Row(key string) *R { return p.rows[key] }

// Changed is the row of key that d changes; the event fails when no earlier event made it.
func (p *PageRows[R]) Changed(d Decoded, key string) (*R, error) {
	r := p.rows[key]
	if r == nil {
		return nil, d.Fail(fmt.Errorf("%s %s changed but never made", p.k.What, key))
	}
	return r, nil
}

// Each calls fn with every row held (after Load: the loaded ones).
func (p *PageRows[R]) Each(fn func(*R)) {
	for _, r := range p.rows {
		fn(r)
	}
}

// Write upserts every row held.
func (p *PageRows[R]) Write(ctx context.Context, w *Wtx) error {
	out := make([][]any, 0, len(p.rows))
	for _, r := range p.rows {
		out = append(out, p.k.Fields.Args(r))
	}
	return w.Upsert(ctx, p.k.Table, out)
}

// Wanting is a Projector's Wants for the event types of ps (zero values serve).
func Wanting(ps ...events.Payload) func(events.Payload) bool {
	types := make(map[reflect.Type]bool, len(ps))
	for _, p := range ps {
		types[reflect.TypeOf(p)] = true
	}
	return func(p events.Payload) bool { return types[reflect.TypeOf(p)] }
}

// PageTable is one table's rows of a page (PageRows): read before the fold, written after it.
type PageTable interface {
	Load(ctx context.Context, w *Wtx) error
	Write(ctx context.Context, w *Wtx) error
}

// FoldPage applies a page the set-based way: it loads the rows of tables that the page needs (in
// one round trip on PostgreSQL), folds the events one by one in order and writes the rows back.
func FoldPage(ctx context.Context, w *Wtx, evs []Decoded, fold func(Decoded) error, tables ...PageTable) error {
	err := w.Together(ctx, func() error {
		for _, t := range tables {
			if err := t.Load(ctx, w); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, d := range evs {
		if err := fold(d); err != nil {
			return err
		}
	}
	for _, t := range tables {
		if err := t.Write(ctx, w); err != nil {
			return err
		}
	}
	return nil
}

// KeyRule is one event type's part of a Keyed's Changes (On, OnMember).
type KeyRule func(Decoded) (key string, ok bool)

// On is the rule of event type E: key names the row an event of it changes.
func On[E events.Payload](key func(E) string) KeyRule {
	return func(d Decoded) (string, bool) {
		e, ok := d.P.(E)
		if !ok {
			return "", false
		}
		return key(e), true
	}
}

// OnMember is the rule of event type E for a row keyed by the member of the event's stream.
func OnMember[E events.Payload]() KeyRule {
	return func(d Decoded) (string, bool) {
		if _, ok := d.P.(E); !ok {
			return "", false
		}
		m, _ := MemberOf(d.Ev.Stream) // "": the fold fails the event
		return m, true
	}
}

// KeyBy is a Keyed's Changes from the rules of the event types that change a row: the key of
// the rule of d's type, "" when none has one.
func KeyBy(rules ...KeyRule) func(Decoded) string {
	return func(d Decoded) string {
		for _, r := range rules {
			if key, ok := r(d); ok {
				return key
			}
		}
		return ""
	}
}
