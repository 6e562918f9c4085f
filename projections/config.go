package projections

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/lotbook/lotbook/events"
)

// The config projection: deposit channels and the public site config, from the config stream.
// The channel password hash stays in the log: commands check it there, and no read needs it.

var channelsTable = &Table{
	Name: "deposit_channels",
	Cols: []Column{{"id", KindText}, {"name", KindText}, {"currency", KindText}, {"min_amount", KindText}, {"max_amount", KindText},
		{"time_window", KindText}, {"enabled", KindInt}, {"updated_at", KindInt}, {"seq", KindInt}, {"position", KindInt}},
	Key: []string{"id"},
}

var siteConfigTable = &Table{
	Name: "site_config",
	Cols: []Column{{"name", KindText}, {"value", KindText}, {"updated_at", KindInt}, {"position", KindInt}},
	Key:  []string{"name"},
}

var configProjector = &Projector{
	Name:    "config",
	Version: 1,
	Tables:  []*Table{channelsTable, siteConfigTable},
	Wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.DepositChannelConfigured, events.SiteConfigured:
			return true
		}
		return false
	},
	Apply: applyConfig,
}

func applyConfig(ctx context.Context, w *Wtx, evs []Decoded) error {
	channels := map[string][]any{}
	site := map[string][]any{}
	for _, d := range evs {
		at := Micros(d.Ev.Metadata.ServerTime)
		switch e := d.P.(type) {
		case events.DepositChannelConfigured:
			win, err := json.Marshal(e.Window)
			if err != nil {
				return d.Fail(fmt.Errorf("channel window: %w", err))
			}
			seq := d.Ev.Position
			if prev := channels[e.ID]; prev != nil {
				seq = prev[8].(int64)
			}
			channels[e.ID] = []any{e.ID, e.Name, e.Currency, e.Min.String(), e.Max.String(), string(win),
				BoolInt(e.Enabled), at, seq, d.Ev.Position}
		case events.SiteConfigured:
			site[e.Name] = []any{e.Name, e.Value, at, d.Ev.Position}
		}
	}
	// A channel keeps its first position (seq) as its display order across redefinitions.
	if err := w.SelectIn(ctx, channelsTable, "id", KeysOf(channels), func(rows Rows) error {
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
	if err := w.Upsert(ctx, channelsTable, crows); err != nil {
		return err
	}
	srows := make([][]any, 0, len(site))
	for _, r := range site {
		srows = append(srows, r)
	}
	return w.Upsert(ctx, siteConfigTable, srows)
}
