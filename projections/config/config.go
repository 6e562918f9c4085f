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

// payeeRow is where a deposit channel's members pay (its latest definition).
type payeeRow struct {
	id, bank, branch, account, holder string
	position                          int64
}

var payeeFields = projections.RowMap[payeeRow]{
	projections.Text("id", func(r *payeeRow) *string { return &r.id }),
	projections.Text("bank", func(r *payeeRow) *string { return &r.bank }),
	projections.Text("branch", func(r *payeeRow) *string { return &r.branch }),
	projections.Text("account", func(r *payeeRow) *string { return &r.account }),
	projections.Text("holder", func(r *payeeRow) *string { return &r.holder }),
	projections.Integer("position", func(r *payeeRow) *int64 { return &r.position }),
}

var payeesTable = &projections.Table{Name: "deposit_payees", Cols: payeeFields.Columns(), Key: []string{"id"}}

var projector = &projections.Projector{
	Name:    "config",
	Version: 2,
	Tables:  []*projections.Table{channelsTable, siteConfigTable, payeesTable},
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
	site := map[string][]any{}   // name -> row, the last setting of the page
	payees := map[string][]any{} // channel id -> row, the last definition of the page
	for _, d := range evs {
		switch e := d.P.(type) {
		case events.DepositChannelConfigured:
			if err := channels.Define(d, e.ID, e.Name, e.Currency, e.Min, e.Max, e.Window, e.Enabled); err != nil {
				return err
			}
			payees[e.ID] = payeeFields.Args(&payeeRow{id: e.ID, bank: e.Payee.Bank, branch: e.Payee.Branch,
				account: e.Payee.Account, holder: e.Payee.Name, position: d.Ev.Position})
		case events.SiteConfigured:
			site[e.Name] = siteFields.Args(&siteRow{name: e.Name, value: e.Value, updatedAt: projections.Micros(d.Ev.Metadata.ServerTime), position: d.Ev.Position})
		}
	}
	if err := channels.Write(ctx, w, channelsTable); err != nil {
		return err
	}
	if err := w.Upsert(ctx, payeesTable, rowsOf(payees)); err != nil {
		return err
	}
	return w.Upsert(ctx, siteConfigTable, rowsOf(site))
}

func rowsOf(m map[string][]any) [][]any {
	out := make([][]any, 0, len(m))
	for _, r := range m {
		out = append(out, r)
	}
	return out
}

// Payees are the payee accounts of the deposit channels by channel id (a channel configured
// without one has empty fields).
func Payees(ctx context.Context, db *projections.Reader) (map[string]events.Payee, error) {
	out := map[string]events.Payee{}
	err := db.Query(ctx, "deposit payees", "SELECT id, bank, branch, account, holder FROM deposit_payees", nil, func(rows projections.Rows) error {
		var id string
		var p events.Payee
		if err := rows.Scan(&id, &p.Bank, &p.Branch, &p.Account, &p.Name); err != nil {
			return err
		}
		out[id] = p
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
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
