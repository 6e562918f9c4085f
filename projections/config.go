package projections

import (
	"context"

	"github.com/lotbook/lotbook/events"
)

// The config projection: deposit channels and the public site config, from the config stream.
// The channel password hash stays in the log: commands check it there, and no read needs it.

var channelsTable = channelTable("deposit_channels")

type siteRow struct {
	name, value         string
	updatedAt, position int64
}

var siteFields = RowMap[siteRow]{
	Text("name", func(r *siteRow) *string { return &r.name }),
	Text("value", func(r *siteRow) *string { return &r.value }),
	Integer("updated_at", func(r *siteRow) *int64 { return &r.updatedAt }),
	Integer("position", func(r *siteRow) *int64 { return &r.position }),
}

var siteConfigTable = &Table{
	Name: "site_config",
	Cols: siteFields.Columns(),
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
	channels := channelPage{}
	site := map[string][]any{} // name -> row, the last setting of the page
	for _, d := range evs {
		switch e := d.P.(type) {
		case events.DepositChannelConfigured:
			if err := channels.define(d, e.ID, e.Name, e.Currency, e.Min, e.Max, e.Window, e.Enabled); err != nil {
				return err
			}
		case events.SiteConfigured:
			site[e.Name] = siteFields.Args(&siteRow{name: e.Name, value: e.Value, updatedAt: Micros(d.Ev.Metadata.ServerTime), position: d.Ev.Position})
		}
	}
	if err := channels.write(ctx, w, channelsTable); err != nil {
		return err
	}
	srows := make([][]any, 0, len(site))
	for _, r := range site {
		srows = append(srows, r)
	}
	return w.Upsert(ctx, siteConfigTable, srows)
}
