// Package lending is stock lending's HTTP side: members see what they may lend with the published
// rate and an estimated daily fee, lend, list and recall their lendings; ops set the channel, the
// default rate and per symbol rates and quotas, and list every lending.
package lending

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	lendingcmd "github.com/lotbook/lotbook/commands/lending"
	rule "github.com/lotbook/lotbook/commands/rules/lending"
	"github.com/lotbook/lotbook/market"
	"github.com/lotbook/lotbook/projections"
	readlending "github.com/lotbook/lotbook/projections/lending"

	// The lending fee process manager and the crash-repair sweep register themselves
	// (process.Register) when linked in.
	_ "github.com/lotbook/lotbook/commands/lending/fee"
	_ "github.com/lotbook/lotbook/commands/lending/repair"
)

// Commands are the write side's operations this module sends (*lending.Commands).
type Commands interface {
	Lend(ctx context.Context, meta commands.Meta, memberID string, in lendingcmd.Lend) (lendingcmd.Result, error)
	Recall(ctx context.Context, meta commands.Meta, memberID, lendNo string, closes lendingcmd.Closes) (lendingcmd.Result, error)
	SetChannel(ctx context.Context, meta commands.Meta, open bool, defaultRate string) (commands.Result, error)
	SetSymbol(ctx context.Context, meta commands.Meta, symbol, rate string, quota int64) (commands.Result, error)
	Desk(ctx context.Context) (lendingcmd.Desk, error)
	Holdings(ctx context.Context, memberID string) ([]lendingcmd.Holding, error)
}

// Module serves the lending routes.
type Module struct {
	cmd  Commands
	read *projections.ReadDB
	mkt  *market.Service // the only source of prices
}

// New is the lending module over its commands, the read models and the market.
func New(cmd Commands, read *projections.ReadDB, mkt *market.Service) *Module {
	return &Module{cmd: cmd, read: read, mkt: mkt}
}

// Routes are the lending operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Member, "GET", "/api/vue/lending", httpx.IdemNone, m.summary),
		httpx.Op(httpx.Member, "GET", "/api/vue/lending/records", httpx.IdemNone, m.records),
		httpx.Op(httpx.Member, "POST", "/api/vue/lending/records", httpx.IdemRequired, m.lend),
		httpx.Op(httpx.Member, "POST", "/api/vue/lending/records/{lendNo}/recall", httpx.IdemRequired, m.recall),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/lending", httpx.IdemNone, m.desk),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/lending/channel", httpx.IdemRequired, m.setChannel),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/lending/symbols/{symbol}", httpx.IdemRequired, m.setSymbol),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/lending/records", httpx.IdemNone, m.allRecords),
	}
}

func (m *Module) closes() lendingcmd.Closes { return lendingcmd.MarketCloses{M: m.mkt} }

// name is the market's name of symbol ("" when it does not know it).
func (m *Module) name(symbol string) string {
	in, err := m.mkt.Instrument(symbol)
	if err != nil {
		return ""
	}
	return in.Name
}

func (m *Module) summary(c *httpx.Call) (httpx.Reply, error) {
	desk, err := m.cmd.Desk(c.Ctx())
	if err != nil {
		return httpx.Reply{}, err
	}
	hs, err := m.cmd.Holdings(c.Ctx(), c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, err
	}
	rules := map[string]lendingcmd.SymbolRule{}
	for _, r := range desk.Symbols {
		rules[r.Symbol] = r
	}
	out := wire.LendingSummary{Open: desk.Open, DefaultRate: desk.DefaultRate.String(), MaxRate: desk.MaxRate.String(),
		DaysPerYear: rule.DaysPerYear, Holdings: []wire.LendingHolding{}}
	for _, h := range hs {
		r, ok := rules[h.Symbol]
		item := wire.LendingHolding{Symbol: h.Symbol, Name: m.name(h.Symbol), Free: h.Free, Lent: h.Lent, Lendable: h.Lendable,
			Quota: r.Quota, Used: r.Used, Price: httpx.Money(decimal.Zero), DailyFee: httpx.Money(decimal.Zero)}
		price := decimal.Zero
		if q, err := m.mkt.Quote(h.Symbol); err == nil {
			price = q.Price
			item.Price = q.Price.String()
		}
		if ok && r.Effective.IsPositive() {
			rate := r.Effective.String()
			item.Rate = &rate
			item.DailyFee = httpx.Money(rule.DailyFee(price, h.Lendable, r.Effective))
		}
		out.Holdings = append(out.Holdings, item)
	}
	return httpx.OK(out)
}

func resultOut(r lendingcmd.Result) wire.LendingResult {
	return wire.LendingResult{LendNo: r.LendNo, Status: wire.LendingStatus(r.Status), Position: r.Position}
}

func (m *Module) lend(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "LendRequest", wire.MessageKeyStockLent, func(req wire.LendRequest) (lendingcmd.Result, error) {
		return m.cmd.Lend(c.Ctx(), c.Meta(), c.Sess.MemberID, lendingcmd.Lend{Symbol: req.Symbol, Name: m.name(req.Symbol), Shares: req.Shares})
	}, resultOut)
}

func (m *Module) recall(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "Empty", wire.MessageKeyStockRecalled, func(wire.Empty) (lendingcmd.Result, error) {
		return m.cmd.Recall(c.Ctx(), c.Meta(), c.Sess.MemberID, c.Var("lendNo"), m.closes())
	}, resultOut)
}

func recordOut(l readlending.Lending, ops bool) wire.LendingRecord {
	out := wire.LendingRecord{LendNo: l.LendNo, Symbol: l.Symbol, Name: l.Name, Shares: l.Shares, AnnualRate: l.AnnualRate.String(),
		Status: wire.LendingStatus(l.Status), Fees: httpx.Money(l.Fees), LentDay: l.LentDay, CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt}
	if l.AccruedThrough != "" {
		out.AccruedThrough = &l.AccruedThrough
	}
	if l.RecalledDay != "" {
		out.RecalledDay = &l.RecalledDay
	}
	if ops {
		out.Account, out.MemberName = &l.Account, &l.MemberName
	}
	return out
}

func page(ls []readlending.Lending, n int, more, ops bool) wire.LendingPage {
	items := make([]wire.LendingRecord, 0, len(ls))
	for _, l := range ls {
		items = append(items, recordOut(l, ops))
	}
	return wire.LendingPage{Items: items, Page: n, HasMore: more}
}

func validStatus(s string) bool { return s == "" || wire.LendingStatus(s).Valid() }

func (m *Module) records(c *httpx.Call) (httpx.Reply, error) {
	status, n, size, err := httpx.QueueQuery(c, "", validStatus)
	if err != nil {
		return httpx.Reply{}, err
	}
	ls, more, err := readlending.MemberLendings(c.Ctx(), m.read.Reader, c.Sess.MemberID, status, n, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("lendings of %s: %w", c.Sess.MemberID, err)
	}
	return httpx.OK(page(ls, n, more, false))
}

func (m *Module) allRecords(c *httpx.Call) (httpx.Reply, error) {
	status, n, size, err := httpx.QueueQuery(c, "", validStatus)
	if err != nil {
		return httpx.Reply{}, err
	}
	ls, more, err := readlending.AllLendings(c.Ctx(), m.read.Reader, status, n, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("all lendings: %w", err)
	}
	return httpx.OK(page(ls, n, more, true))
}

func (m *Module) desk(c *httpx.Call) (httpx.Reply, error) {
	d, err := m.cmd.Desk(c.Ctx())
	if err != nil {
		return httpx.Reply{}, err
	}
	out := wire.LendingDesk{Open: d.Open, DefaultRate: d.DefaultRate.String(), MaxRate: d.MaxRate.String(), Symbols: []wire.LendingSymbolRule{}}
	for _, r := range d.Symbols {
		item := wire.LendingSymbolRule{Symbol: r.Symbol, Name: m.name(r.Symbol), EffectiveRate: r.Effective.String(), Quota: r.Quota, Used: r.Used}
		if r.Rate.IsPositive() {
			rate := r.Rate.String()
			item.Rate = &rate
		}
		out.Symbols = append(out.Symbols, item)
	}
	return httpx.OK(out)
}

func (m *Module) setChannel(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "LendingChannelRequest", wire.MessageKeyOk, func(req wire.LendingChannelRequest) (commands.Result, error) {
		return m.cmd.SetChannel(c.Ctx(), c.Meta(), req.Open, req.DefaultRate)
	}, httpx.Done)
}

func (m *Module) setSymbol(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "LendingSymbolRequest", wire.MessageKeyOk, func(req wire.LendingSymbolRequest) (commands.Result, error) {
		symbol := c.Var("symbol")
		if _, err := m.mkt.Instrument(symbol); err != nil {
			return commands.Result{}, commands.NotFound(commands.KeySymbolNotFound)
		}
		return m.cmd.SetSymbol(c.Ctx(), c.Meta(), symbol, req.Rate, req.Quota)
	}, httpx.Done)
}
