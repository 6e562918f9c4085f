package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/lotbook/lotbook/events"
)

// The config projection: deposit channels and the public site config, from the config stream.
// The channel password hash stays in the log: commands check it there, and no read needs it.

var channelsTable = &table{
	name: "deposit_channels",
	cols: []column{{"id", kText}, {"name", kText}, {"currency", kText}, {"min_amount", kText}, {"max_amount", kText},
		{"time_window", kText}, {"enabled", kInt}, {"updated_at", kInt}, {"seq", kInt}, {"position", kInt}},
	key: []string{"id"},
}

var siteConfigTable = &table{
	name: "site_config",
	cols: []column{{"name", kText}, {"value", kText}, {"updated_at", kInt}, {"position", kInt}},
	key:  []string{"name"},
}

var configProjector = &projector{
	name:    "config",
	version: 1,
	tables:  []*table{channelsTable, siteConfigTable},
	wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.DepositChannelConfigured, events.SiteConfigured:
			return true
		}
		return false
	},
	apply: applyConfig,
}

func applyConfig(ctx context.Context, w *wtx, evs []decoded) error {
	channels := map[string][]any{}
	site := map[string][]any{}
	for _, d := range evs {
		at := micros(d.ev.Metadata.ServerTime)
		switch e := d.p.(type) {
		case events.DepositChannelConfigured:
			win, err := json.Marshal(e.Window)
			if err != nil {
				return d.fail(fmt.Errorf("channel window: %w", err))
			}
			seq := d.ev.Position
			if prev := channels[e.ID]; prev != nil {
				seq = prev[8].(int64)
			}
			channels[e.ID] = []any{e.ID, e.Name, e.Currency, e.Min.String(), e.Max.String(), string(win),
				boolInt(e.Enabled), at, seq, d.ev.Position}
		case events.SiteConfigured:
			site[e.Name] = []any{e.Name, e.Value, at, d.ev.Position}
		}
	}
	// A channel keeps its first position (seq) as its display order across redefinitions.
	if err := w.selectIn(ctx, channelsTable, "id", keysOf(channels), func(rows *sql.Rows) error {
		var id, name, cur, lo, hi, win string
		var enabled, updated, seq, pos int64
		if err := rows.Scan(&id, &name, &cur, &lo, &hi, &win, &enabled, &updated, &seq, &pos); err != nil {
			return err
		}
		channels[id][8] = seq
		return nil
	}); err != nil {
		return err
	}
	crows := make([][]any, 0, len(channels))
	for _, r := range channels {
		crows = append(crows, r)
	}
	if err := w.upsert(ctx, channelsTable, crows); err != nil {
		return err
	}
	srows := make([][]any, 0, len(site))
	for _, r := range site {
		srows = append(srows, r)
	}
	return w.upsert(ctx, siteConfigTable, srows)
}
