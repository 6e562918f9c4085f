// Package config is the read model of the config stream: deposit channels and the public site
// config.
package config

import (
	"context"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// The channel password hash stays in the log: commands check it there, and no read needs it.

var channelsTable = projections.ChannelTable("deposit_channels")

type siteRow struct {
	name, value         string
	updatedAt, position int64
}

var siteFields = projections.RowMap[siteRow]{
	projections.Text("name", func(r *siteRow) *string { return &r.name }),
	projections.Text("value", func(r *siteRow) *string { return &r.value }),
	projections.Integer("updated_at", func(r *siteRow) *int64 { return &r.updatedAt }),
	projections.Integer("position", func(r *siteRow) *int64 { return &r.position }),
}

var siteConfigTable = &projections.Table{
	Name: "site_config",
	Cols: siteFields.Columns(),
	Key:  []string{"name"},
}

var projector = &projections.Projector{
	Name:    "config",
	Version: 1,
	Tables:  []*projections.Table{channelsTable, siteConfigTable},
	Wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.DepositChannelConfigured, events.SiteConfigured:
			return true
		}
		return false
	},
	Apply: applyConfig,
}

func init() { projections.Register(projector) }

func applyConfig(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	channels := projections.ChannelPage{}
	site := map[string][]any{} // name -> row, the last setting of the page
	for _, d := range evs {
		switch e := d.P.(type) {
		case events.DepositChannelConfigured:
			if err := channels.Define(d, e.ID, e.Name, e.Currency, e.Min, e.Max, e.Window, e.Enabled); err != nil {
				return err
			}
		case events.SiteConfigured:
			site[e.Name] = siteFields.Args(&siteRow{name: e.Name, value: e.Value, updatedAt: projections.Micros(d.Ev.Metadata.ServerTime), position: d.Ev.Position})
		}
	}
	if err := channels.Write(ctx, w, channelsTable); err != nil {
		return err
	}
	srows := make([][]any, 0, len(site))
	for _, r := range site {
		srows = append(srows, r)
	}
	return w.Upsert(ctx, siteConfigTable, srows)
}

// NameValue is one entry of the site config.
type NameValue struct {
	Name, Value string
}

// Channels lists every deposit channel (enabled or not) in the order they were first defined.
func Channels(ctx context.Context, db *projections.Reader) ([]projections.Channel, error) {
	return db.ChannelList(ctx, "channels", channelsTable)
}

// Site returns every site config entry, sorted by name.
func Site(ctx context.Context, db *projections.Reader) ([]NameValue, error) {
	out := []NameValue{}
	err := db.Query(ctx, "site config", "SELECT name, value FROM site_config ORDER BY name", nil, func(rows projections.Rows) error {
		var nv NameValue
		if err := rows.Scan(&nv.Name, &nv.Value); err != nil {
			return err
		}
		out = append(out, nv)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
