// Package console is the ops console's HTTP side: the review queues with their counts (declared
// by each capability's read model, projections.RegisterQueue), the deposit channels, the root
// invite codes, the texts members read, and the history of every configuration change.
package console

import (
	"context"
	"fmt"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	fundscmd "github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/commands/siteconfig"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/config"
	"github.com/lotbook/lotbook/projections/console"
)

// Commands are the write side's operations the console sends.
type Commands interface {
	CreateInviteCode(ctx context.Context, meta commands.Meta, code string) (string, commands.Result, error)
	DisableInviteCode(ctx context.Context, meta commands.Meta, code, reason string) (commands.Result, error)
}

// Channels configures deposit channels (*fundscmd.Commands).
type Channels interface {
	ConfigureDepositChannel(ctx context.Context, meta commands.Meta, in fundscmd.ChannelInput) (commands.Result, error)
}

// Texts sets the texts members read (*siteconfig.Commands).
type Texts interface {
	SetText(ctx context.Context, meta commands.Meta, name, lang, text string) (commands.Result, error)
}

// Module serves the ops console's routes.
type Module struct {
	cmd      Commands
	channels Channels
	texts    Texts
	read     *projections.ReadDB
}

// New is the console over the commands and the read models.
func New(cmd Commands, channels Channels, texts Texts, read *projections.ReadDB) *Module {
	return &Module{cmd: cmd, channels: channels, texts: texts, read: read}
}

// Routes are the console's operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/console/queues", httpx.IdemNone, m.queues),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/channels", httpx.IdemNone, m.listChannels),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/channels", httpx.IdemRequired, m.configureChannel),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/invites", httpx.IdemNone, m.invites),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/invites", httpx.IdemRequired, m.createInvite),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/invites/{code}/uses", httpx.IdemNone, m.inviteUses),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/invites/{code}/disable", httpx.IdemRequired, m.disableInvite),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/texts", httpx.IdemNone, m.listTexts),
		httpx.Op(httpx.Public, "GET", "/api/vue/common/texts", httpx.IdemNone, m.listTexts),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/texts", httpx.IdemRequired, m.setText),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/changes", httpx.IdemNone, m.changes),
	}
}

func (m *Module) queues(c *httpx.Call) (httpx.Reply, error) {
	qs := projections.Queues()
	out := make([]wire.OpsQueue, 0, len(qs))
	err := c.Snapshot(func(rd *projections.Reader) error {
		for _, q := range qs {
			n, err := q.Count(c.Ctx(), rd)
			if err != nil {
				return err
			}
			out = append(out, wire.OpsQueue{Id: q.ID, Path: q.Path, Count: n})
		}
		return nil
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(out)
}

// opsChannels reads every deposit channel with its payee.
func opsChannels(ctx context.Context, rd *projections.Reader) ([]wire.OpsDepositChannel, error) {
	chs, err := config.Channels(ctx, rd)
	if err != nil {
		return nil, fmt.Errorf("channels: %w", err)
	}
	payees, err := config.Payees(ctx, rd)
	if err != nil {
		return nil, fmt.Errorf("payees: %w", err)
	}
	out := make([]wire.OpsDepositChannel, 0, len(chs))
	for _, ch := range chs {
		out = append(out, wire.OpsDepositChannel{Id: ch.ID, Name: ch.Name, Currency: ch.Currency, Min: httpx.Money(ch.Min),
			Max: httpx.Money(ch.Max), Window: httpx.Window(ch.Window), Enabled: ch.Enabled, Payee: httpx.Payee(payees[ch.ID]),
			UpdatedAt: ch.UpdatedAt})
	}
	return out, nil
}

func (m *Module) listChannels(c *httpx.Call) (httpx.Reply, error) {
	var out []wire.OpsDepositChannel
	err := c.Snapshot(func(rd *projections.Reader) (err error) {
		out, err = opsChannels(c.Ctx(), rd)
		return err
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(out)
}

func (m *Module) configureChannel(c *httpx.Call) (httpx.Reply, error) {
	var req wire.ChannelConfigRequest
	if err := c.Decode("ChannelConfigRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	w := req.Window
	res, err := m.channels.ConfigureDepositChannel(c.Ctx(), c.Meta(), fundscmd.ChannelInput{
		ID: req.Id, Name: req.Name, Currency: req.Currency, Min: req.Min, Max: req.Max, Password: httpx.Deref(req.Password),
		Window: events.TimeWindow{Weekdays: w.Weekdays, Open: w.Open, Close: w.Close, TZ: w.Tz, ClosedOnHolidays: w.ClosedOnHolidays,
			AlwaysOpen: w.AlwaysOpen},
		Enabled: req.Enabled,
		Payee:   events.Payee{Bank: req.Payee.Bank, Branch: req.Payee.Branch, Account: req.Payee.Account, Name: req.Payee.Name},
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	c.CatchUpTo(res.Position)
	chs, err := opsChannels(c.Ctx(), m.read.Reader)
	if err != nil {
		return httpx.Reply{}, err
	}
	for _, ch := range chs {
		if ch.Id == req.Id {
			return httpx.OK(ch)
		}
	}
	return httpx.Reply{}, fmt.Errorf("channel %s not in the read model after position %d", req.Id, res.Position)
}

func (m *Module) invites(c *httpx.Call) (httpx.Reply, error) {
	page, size, err := httpx.Paging(c.R.URL.Query())
	if err != nil {
		return httpx.Reply{}, err
	}
	ivs, more, err := console.Invites(c.Ctx(), m.read.Reader, page, size)
	if err != nil {
		return httpx.Reply{}, err
	}
	items := make([]wire.OpsInvite, 0, len(ivs))
	for _, iv := range ivs {
		items = append(items, wire.OpsInvite{Code: iv.Code, CreatedBy: iv.CreatedBy, CreatedAt: iv.CreatedAt, Disabled: iv.Disabled,
			DisabledBy: iv.DisabledBy, DisabledAt: iv.DisabledAt, Reason: iv.Reason, Uses: iv.Uses})
	}
	return httpx.OK(wire.OpsInvitePage{Items: items, Page: page, HasMore: more})
}

func (m *Module) createInvite(c *httpx.Call) (httpx.Reply, error) {
	var req wire.CreateInviteRequest
	if err := c.Decode("CreateInviteRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	code, res, err := m.cmd.CreateInviteCode(c.Ctx(), c.Meta(), req.Code)
	if err != nil {
		return httpx.Reply{}, err
	}
	c.CatchUpTo(res.Position)
	return httpx.OK(wire.InviteResult{Code: code, Position: res.Position})
}

func (m *Module) inviteUses(c *httpx.Call) (httpx.Reply, error) {
	uses, err := console.Uses(c.Ctx(), m.read.Reader, c.Var("code"))
	if err != nil {
		return httpx.Reply{}, err
	}
	out := make([]wire.InviteUse, 0, len(uses))
	for _, u := range uses {
		out = append(out, wire.InviteUse{Account: u.Account, RegisteredAt: u.RegisteredAt})
	}
	return httpx.OK(out)
}

func (m *Module) disableInvite(c *httpx.Call) (httpx.Reply, error) {
	var req wire.DisableInviteRequest
	if err := c.Decode("DisableInviteRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	code := c.Var("code")
	res, err := m.cmd.DisableInviteCode(c.Ctx(), c.Meta(), code, req.Reason)
	if err != nil {
		return httpx.Reply{}, err
	}
	c.CatchUpTo(res.Position)
	return httpx.OK(wire.InviteResult{Code: code, Position: res.Position})
}

// siteTexts are every text in both languages, empty where ops set none.
func siteTexts(ctx context.Context, rd *projections.Reader) ([]wire.SiteText, error) {
	entries, err := config.Site(ctx, rd)
	if err != nil {
		return nil, fmt.Errorf("site config: %w", err)
	}
	set := map[string]string{}
	for _, e := range entries {
		set[e.Name] = e.Value
	}
	out := make([]wire.SiteText, 0, len(siteconfig.TextNames)*len(siteconfig.TextLangs))
	for _, n := range siteconfig.TextNames {
		for _, l := range siteconfig.TextLangs {
			out = append(out, wire.SiteText{Name: wire.TextName(n), Lang: wire.Lang(l), Text: set[siteconfig.TextEntry(n, l)]})
		}
	}
	return out, nil
}

func (m *Module) listTexts(c *httpx.Call) (httpx.Reply, error) {
	out, err := siteTexts(c.Ctx(), m.read.Reader)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(out)
}

func (m *Module) setText(c *httpx.Call) (httpx.Reply, error) {
	var req wire.SiteText
	if err := c.Decode("SiteText", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.texts.SetText(c.Ctx(), c.Meta(), string(req.Name), string(req.Lang), req.Text)
	if err != nil {
		return httpx.Reply{}, err
	}
	c.CatchUpTo(res.Position)
	return httpx.OK(req)
}

func (m *Module) changes(c *httpx.Call) (httpx.Reply, error) {
	q := c.R.URL.Query()
	page, size, err := httpx.Paging(q)
	if err != nil {
		return httpx.Reply{}, err
	}
	kind := q.Get("kind")
	if !console.ValidKind(kind) {
		return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("change kind %q", kind))
	}
	chs, more, err := console.Changes(c.Ctx(), m.read.Reader, kind, page, size)
	if err != nil {
		return httpx.Reply{}, err
	}
	items := make([]wire.ConfigChange, 0, len(chs))
	for _, ch := range chs {
		items = append(items, wire.ConfigChange{Position: ch.Position, Kind: wire.ConfigChangeKind(ch.Kind), Subject: ch.Subject,
			Actor: ch.Actor, Before: ch.Before, After: ch.After, At: ch.At})
	}
	return httpx.OK(wire.ConfigChangePage{Items: items, Page: page, HasMore: more})
}
