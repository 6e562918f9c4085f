package projections

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
)

// Deposit channels (config) and withdrawal channels (member funds) are stored in tables of one
// shape, declared here once: a channel keeps the position of its first definition (seq) as its
// display order across redefinitions.

type channelRow struct {
	id, name, currency, min, max, window string
	enabled, updatedAt, seq, position    int64
}

var channelFields = RowMap[channelRow]{
	Text("id", func(r *channelRow) *string { return &r.id }),
	Text("name", func(r *channelRow) *string { return &r.name }),
	Text("currency", func(r *channelRow) *string { return &r.currency }),
	Text("min_amount", func(r *channelRow) *string { return &r.min }),
	Text("max_amount", func(r *channelRow) *string { return &r.max }),
	Text("time_window", func(r *channelRow) *string { return &r.window }),
	Integer("enabled", func(r *channelRow) *int64 { return &r.enabled }),
	Integer("updated_at", func(r *channelRow) *int64 { return &r.updatedAt }),
	Integer("seq", func(r *channelRow) *int64 { return &r.seq }),
	Integer("position", func(r *channelRow) *int64 { return &r.position }),
}

// ChannelTable is a channels table called name.
func ChannelTable(name string) *Table {
	return &Table{Name: name, Cols: channelFields.Columns(), Key: []string{"id"}}
}

// ChannelPage folds the channel definitions of one page, by channel id.
type ChannelPage map[string]*channelRow

// Define records a definition at d; a channel defined earlier in the page keeps its seq.
func (cp ChannelPage) Define(d Decoded, id, name, currency string, lo, hi decimal.Decimal, win events.TimeWindow, enabled bool) error {
	w, err := json.Marshal(win)
	if err != nil {
		return d.Fail(fmt.Errorf("channel window: %w", err))
	}
	seq := d.Ev.Position
	if prev := cp[id]; prev != nil {
		seq = prev.seq
	}
	cp[id] = &channelRow{id: id, name: name, currency: currency, min: lo.String(), max: hi.String(), window: string(w),
		enabled: BoolInt(enabled), updatedAt: Micros(d.Ev.Metadata.ServerTime), seq: seq, position: d.Ev.Position}
	return nil
}

// Write gives each channel defined before this page its stored seq back and upserts the page's
// channels into tb.
func (cp ChannelPage) Write(ctx context.Context, w *Wtx, tb *Table) error {
	ids := make(map[string]struct{}, len(cp))
	for id := range cp {
		ids[id] = struct{}{}
	}
	if err := channelFields.SelectIn(ctx, w, tb, "id", KeysOf(ids), func(stored *channelRow) { cp[stored.id].seq = stored.seq }); err != nil {
		return err
	}
	out := make([][]any, 0, len(cp))
	for _, r := range cp {
		out = append(out, channelFields.Args(r))
	}
	return w.Upsert(ctx, tb, out)
}

// channel is the stored row as a Channel.
func (r *channelRow) channel() (Channel, error) {
	c := Channel{ID: r.id, Name: r.name, Currency: r.currency, Enabled: r.enabled != 0, UpdatedAt: FromMicros(r.updatedAt)}
	var err error
	if c.Min, err = decimal.NewFromString(r.min); err != nil {
		return Channel{}, fmt.Errorf("channel %s min: %w", r.id, err)
	}
	if c.Max, err = decimal.NewFromString(r.max); err != nil {
		return Channel{}, fmt.Errorf("channel %s max: %w", r.id, err)
	}
	if err := json.Unmarshal([]byte(r.window), &c.Window); err != nil {
		return Channel{}, fmt.Errorf("channel %s window: %w", r.id, err)
	}
	return c, nil
}

// ChannelList lists every channel of tb (enabled or not) in the order they were first defined.
func (db *Reader) ChannelList(ctx context.Context, what string, tb *Table) ([]Channel, error) {
	out := []Channel{}
	err := db.Query(ctx, what, "SELECT "+channelFields.List()+" FROM "+tb.Name+" ORDER BY seq", nil, Collect(&out, channelFields, (*channelRow).channel))
	if err != nil {
		return nil, err
	}
	return out, nil
}
