// Package trading is the trading capability's HTTP side: orders (place, cancel, list),
// positions (list, detail, close), the day-trading summary, margin notices and the rules. Prices
// come from the market through the matching engine's view of it; positions are valued at live
// quotes.
package trading

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/fees"
	"github.com/lotbook/lotbook/commands/rules/margin"
	"github.com/lotbook/lotbook/commands/rules/matching"
	"github.com/lotbook/lotbook/commands/rules/settlement"
	tradingcmd "github.com/lotbook/lotbook/commands/trading"
	"github.com/lotbook/lotbook/commands/trading/engine"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/trading"
	"github.com/lotbook/lotbook/projections/trading/valuation"
)

// Commands are the write side's operations this module sends (*trading.Commands of commands/trading).
type Commands interface {
	PlaceOrder(ctx context.Context, meta commands.Meta, memberID string, in tradingcmd.OrderInput, mkt tradingcmd.Market) (tradingcmd.TradeResult, error)
	CancelOrder(ctx context.Context, meta commands.Meta, in tradingcmd.CancelOrder) (tradingcmd.TradeResult, error)
	ClosePosition(ctx context.Context, meta commands.Meta, cp tradingcmd.ClosePosition) (tradingcmd.TradeResult, error)
	TradingRules() tradingcmd.TradingRules
}

// Prices is where orders are priced and positions valued: the matching engine's view of the
// market (scenario tests script it).
type Prices interface{ Market() engine.Market }

// Module serves the trading routes.
type Module struct {
	cmd    Commands
	read   *projections.ReadDB
	prices Prices
	now    func() time.Time
}

// New is the trading module over the command service, the read models, the market prices and
// the clock.
func New(cmd Commands, read *projections.ReadDB, prices Prices, now func() time.Time) *Module {
	return &Module{cmd: cmd, read: read, prices: prices, now: now}
}

// Routes are the trading operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Member, "POST", "/api/vue/trade/orders", httpx.IdemRequired, m.placeOrder),
		httpx.Op(httpx.Member, "GET", "/api/vue/trade/orders", httpx.IdemNone, m.orders),
		httpx.Op(httpx.Member, "DELETE", "/api/vue/trade/orders/{orderNo}", httpx.IdemRequired, m.cancelOrder),
		httpx.Op(httpx.Member, "POST", "/api/vue/trade/orders/{orderNo}/cancel", httpx.IdemRequired, m.cancelOrder),
		httpx.Op(httpx.Member, "GET", "/api/vue/trade/positions", httpx.IdemNone, m.positions),
		httpx.Op(httpx.Member, "GET", "/api/vue/trade/holdingsSummary", httpx.IdemNone, m.holdingsSummary),
		httpx.Op(httpx.Member, "GET", "/api/vue/trade/positions/{id}", httpx.IdemNone, m.position),
		httpx.Op(httpx.Member, "POST", "/api/vue/trade/positions/{id}/close", httpx.IdemRequired, m.closePosition),
		httpx.Op(httpx.Member, "GET", "/api/vue/trade/dayTrading", httpx.IdemNone, m.dayTrading),
		httpx.Op(httpx.Member, "GET", "/api/vue/trade/notices", httpx.IdemNone, m.tradeNotices),
		httpx.Op(httpx.Public, "GET", "/api/vue/trade/rules", httpx.IdemNone, m.tradeRules),
	}
}

func tradeOut(r tradingcmd.TradeResult) wire.TradeResult {
	return wire.TradeResult{OrderNo: r.OrderNo, Status: wire.TradeOrderStatus(r.Status), PositionId: r.PositionID,
		Filled: r.Filled, Position: r.Position}
}

func (m *Module) placeOrder(c *httpx.Call) (httpx.Reply, error) {
	var req wire.OrderRequest
	if err := c.Decode("OrderRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	in := tradingcmd.OrderInput{Symbol: req.Symbol, Direction: string(req.Direction), Type: string(req.Type),
		Lots: httpx.Deref(req.Lots), Shares: httpx.Deref(req.Shares), Price: httpx.Deref(req.Price), Leverage: httpx.Deref(req.Leverage), DayTrade: httpx.Deref(req.DayTrade),
		Condition: string(httpx.Deref(req.Condition)), Session: string(httpx.Deref(req.Session)), TimeInForce: string(httpx.Deref(req.TimeInForce))}
	res, err := m.cmd.PlaceOrder(c.Ctx(), c.Meta(), c.Sess.MemberID, in, engine.View(m.prices.Market(), req.Symbol, m.now()))
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(tradeOut(res))
}

func (m *Module) cancelOrder(c *httpx.Call) (httpx.Reply, error) {
	if c.R.Method == http.MethodPost {
		var req wire.Empty
		if err := c.Decode("Empty", &req); err != nil {
			return httpx.Reply{}, err
		}
	}
	res, err := m.cmd.CancelOrder(c.Ctx(), c.Meta(), tradingcmd.CancelOrder{MemberID: c.Sess.MemberID, OrderNo: c.Var("orderNo")})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.Reply{Key: wire.MessageKeyOrderCancelled, Data: tradeOut(res)}, nil
}

// orderStatuses maps the orders filter to statuses.
var orderStatuses = map[string][]string{
	"all": nil, "working": {trading.OrderPending, trading.OrderPartial},
	"done":    {trading.OrderFilled, trading.OrderCancelled, trading.OrderExpired},
	"pending": {trading.OrderPending}, "partial": {trading.OrderPartial}, "filled": {trading.OrderFilled},
	"cancelled": {trading.OrderCancelled}, "expired": {trading.OrderExpired},
}

func (m *Module) orders(c *httpx.Call) (httpx.Reply, error) {
	q := c.R.URL.Query()
	filter := cmp.Or(q.Get("status"), "all")
	statuses, known := orderStatuses[filter]
	if !known {
		return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("status %q", filter))
	}
	page, size, err := httpx.Paging(q)
	if err != nil {
		return httpx.Reply{}, err
	}
	os, more, err := trading.Orders(c.Ctx(), m.read.Reader, c.Sess.MemberID, statuses, page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("orders: %w", err)
	}
	items := make([]wire.TradeOrder, 0, len(os))
	for _, o := range os {
		items = append(items, tradeOrderOut(o))
	}
	return httpx.OK(wire.TradeOrderPage{Items: items, Page: page, HasMore: more})
}

func tradeOrderOut(o trading.Order) wire.TradeOrder {
	condition, session, tif := o.Ticket()
	out := wire.TradeOrder{Condition: wire.TradeCondition(condition), Session: wire.TradeSession(session), TimeInForce: wire.TimeInForce(tif), OrderNo: o.OrderNo, PositionId: o.PositionID, Intent: wire.TradeOrderIntent(o.Intent), Symbol: o.Symbol,
		Name: o.Name, Side: wire.TradeOrderSide(o.Side), Direction: wire.TradeOrderDirection(o.Direction), Type: wire.TradeOrderType(o.Type),
		Shares: o.Shares, OddLot: o.OddLot, Price: httpx.Money(o.Price), Leverage: o.Leverage.StringFixed(2), DayTrade: o.DayTrade,
		PlacedBy: wire.TradeOrderPlacedBy(o.PlacedBy), TradingDay: o.TradingDay, Status: wire.TradeOrderStatus(o.Status),
		Reason: o.Reason, Filled: o.Filled, AvgPrice: httpx.Money(o.AvgPrice()), Amount: httpx.Money(o.Amount), Commission: httpx.Money(o.Commission),
		Tax: httpx.Money(o.Tax), CreatedAt: o.CreatedAt.UTC(), UpdatedAt: o.UpdatedAt.UTC()}
	if o.Origin != "" {
		out.Origin, out.OriginName = &o.Origin, &o.OriginName
	}
	return out
}

// positionStatuses maps the positions filter (the app's tabs) to statuses.
var positionStatuses = map[string][]string{
	"holding": trading.Held, "pending": {trading.PositionPending},
	"closed": {trading.PositionClosed, trading.PositionCancelled}, "all": nil,
}

func optTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

// positionOut maps a position and its valuation at a live price.
func positionOut(p trading.Position, v valuation.Position) wire.TradePosition {
	return wire.TradePosition{Id: p.ID, OrderNo: p.ID, Symbol: p.Symbol, Name: p.Name,
		InstrumentType: wire.TradePositionInstrumentType(p.Kind), Direction: wire.TradePositionDirection(p.Direction),
		Status: wire.TradePositionStatus(p.Status), Shares: v.Shares, ClosingShares: p.Closing, Lots: v.Lots.StringFixed(3),
		Leverage: p.Leverage.StringFixed(2), DayTrade: p.DayTrade, EntryPrice: httpx.Money(p.EntryPrice()), ExitPrice: httpx.Money(p.ExitPrice()),
		Price: httpx.Money(v.Price), MarketValue: httpx.Money(v.MarketValue), Fee: httpx.Money(p.Fees), Tax: httpx.Money(p.Tax), Margin: httpx.Money(v.Own),
		Loan: httpx.Money(p.Loan), Profit: httpx.Money(p.Profit), UnrealisedProfit: httpx.Money(v.Unrealised),
		OpenedAt: optTime(p.OpenedAt), ClosedAt: optTime(p.ClosedAt), CreatedAt: p.CreatedAt.UTC()}
}

func (m *Module) positions(c *httpx.Call) (httpx.Reply, error) {
	q := c.R.URL.Query()
	filter := cmp.Or(q.Get("status"), "holding")
	statuses, known := positionStatuses[filter]
	if !known {
		return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("status %q", filter))
	}
	page, size, err := httpx.Paging(q)
	if err != nil {
		return httpx.Reply{}, err
	}
	ps, more, err := trading.Positions(c.Ctx(), m.read.Reader, c.Sess.MemberID, statuses, page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("positions: %w", err)
	}
	today := engine.TradingDay(m.now())
	items := make([]wire.TradePosition, 0, len(ps))
	for _, p := range ps {
		items = append(items, positionOut(p, valuation.At(p, m.prices.Market(), today)))
	}
	return httpx.OK(wire.TradePositionPage{Items: items, Page: page, HasMore: more})
}

// holdingsSummary is the 庫存 summary of the member's held positions at live quotes.
func (m *Module) holdingsSummary(c *httpx.Call) (httpx.Reply, error) {
	ps, _, err := trading.Positions(c.Ctx(), m.read.Reader, c.Sess.MemberID, trading.Held, 0, 0)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("held positions: %w", err)
	}
	s := valuation.Summarise(ps, m.prices.Market(), engine.TradingDay(m.now()))
	return httpx.OK(wire.HoldingsSummary{MarketValue: httpx.Money(s.MarketValue), Cost: httpx.Money(s.Cost),
		TodayProfit: httpx.Money(s.TodayProfit), TodayPercent: s.TodayPercent.StringFixed(2),
		TotalProfit: httpx.Money(s.TotalProfit), TotalPercent: s.TotalPercent.StringFixed(2), Positions: s.Positions})
}

// ownPosition is the member's position named in the path; someone else's is not found.
func (m *Module) ownPosition(c *httpx.Call) (trading.Position, error) {
	id := c.Var("id")
	p, err := trading.PositionByID(c.Ctx(), m.read.Reader, id)
	if httpx.IsNotFound(err) {
		c.CatchUpHead()
		p, err = trading.PositionByID(c.Ctx(), m.read.Reader, id)
	}
	switch {
	case httpx.IsNotFound(err), err == nil && p.MemberID != c.Sess.MemberID:
		return trading.Position{}, httpx.Refuse(http.StatusNotFound, wire.MessageKeyPositionNotFound, err)
	case err != nil:
		return trading.Position{}, fmt.Errorf("position %s: %w", id, err)
	}
	return p, nil
}

func (m *Module) position(c *httpx.Call) (httpx.Reply, error) {
	p, err := m.ownPosition(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	// The position again with its orders, from one snapshot: a fill in between must not show
	// in one and not the other.
	var os []trading.Order
	id := p.ID
	err = c.Snapshot(func(rd *projections.Reader) error {
		if p, err = trading.PositionByID(c.Ctx(), rd, id); err != nil {
			return fmt.Errorf("position %s: %w", id, err)
		}
		if os, err = trading.OrdersOfPosition(c.Ctx(), rd, id); err != nil {
			return fmt.Errorf("orders of %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	v := valuation.At(p, m.prices.Market(), engine.TradingDay(m.now()))
	out := wire.TradePositionDetail{Position: positionOut(p, v), Orders: make([]wire.TradeOrder, 0, len(os))}
	for _, o := range os {
		out.Orders = append(out.Orders, tradeOrderOut(o))
	}
	return httpx.OK(out)
}

func (m *Module) closePosition(c *httpx.Call) (httpx.Reply, error) {
	var req wire.CloseRequest
	if err := c.Decode("CloseRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	id := c.Var("id")
	// The position's symbol picks the market view; the command checks the position is the
	// member's (another member's id is not found on their account stream).
	p, err := trading.PositionByID(c.Ctx(), m.read.Reader, id)
	if httpx.IsNotFound(err) {
		c.CatchUpHead()
		p, err = trading.PositionByID(c.Ctx(), m.read.Reader, id)
	}
	if err != nil && !httpx.IsNotFound(err) {
		return httpx.Reply{}, fmt.Errorf("position %s: %w", id, err)
	}
	in := tradingcmd.CloseInput{Lots: httpx.Deref(req.Lots), Shares: httpx.Deref(req.Shares), Type: string(req.Type), Price: httpx.Deref(req.Price)}
	res, err := m.cmd.ClosePosition(c.Ctx(), c.Meta(), tradingcmd.ClosePosition{MemberID: c.Sess.MemberID, PositionID: id, Close: in, Market: engine.View(m.prices.Market(), p.Symbol, m.now())})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.Reply{Key: wire.MessageKeyCloseSubmitted, Data: tradeOut(res)}, nil
}

func (m *Module) dayTrading(c *httpx.Call) (httpx.Reply, error) {
	today := engine.TradingDay(m.now())
	var ps []trading.Position
	orders := map[string][]trading.Order{}
	err := c.Snapshot(func(rd *projections.Reader) error {
		var err error
		if ps, _, err = trading.Positions(c.Ctx(), rd, c.Sess.MemberID, nil, 0, 0); err != nil {
			return fmt.Errorf("positions: %w", err)
		}
		for _, p := range ps {
			if !valuation.DayTraded(p, today) {
				continue
			}
			if orders[p.ID], err = trading.OrdersOfPosition(c.Ctx(), rd, p.ID); err != nil {
				return fmt.Errorf("orders of %s: %w", p.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	sum := valuation.DayTrading(ps, m.prices.Market(), today)
	out := wire.DayTradingSummary{TradingDay: today, Positions: make([]wire.TradePosition, 0, len(sum.Items)), Orders: []wire.TradeOrder{},
		HoldingShares: sum.HoldingShares, Valuation: httpx.Money(sum.Valuation), Committed: httpx.Money(sum.Committed),
		Profit: httpx.Money(sum.Profit), ReturnRate: sum.ReturnRate.StringFixed(2)}
	for _, it := range sum.Items {
		out.Positions = append(out.Positions, positionOut(it.Row, it.Value))
		for _, o := range orders[it.Row.ID] {
			out.Orders = append(out.Orders, tradeOrderOut(o))
		}
	}
	return httpx.OK(out)
}

func (m *Module) tradeNotices(c *httpx.Call) (httpx.Reply, error) {
	page, size, err := httpx.Paging(c.R.URL.Query())
	if err != nil {
		return httpx.Reply{}, err
	}
	var ns []trading.Notice
	var more bool
	var ps []trading.Position
	err = c.Snapshot(func(rd *projections.Reader) error {
		if ns, more, err = trading.Notices(c.Ctx(), rd, c.Sess.MemberID, page, size); err != nil {
			return fmt.Errorf("notices: %w", err)
		}
		if ps, _, err = trading.Positions(c.Ctx(), rd, c.Sess.MemberID, trading.Held, 0, 0); err != nil {
			return fmt.Errorf("positions: %w", err)
		}
		return nil
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	out := wire.TradeNoticePage{Items: make([]wire.TradeNotice, 0, len(ns)), Page: page, HasMore: more}
	if r, owed := valuation.MarginRatio(ps, m.prices.Market()); owed {
		ratio := r.StringFixed(4)
		out.Ratio = &ratio
	}
	for _, n := range ns {
		out.Items = append(out.Items, wire.TradeNotice{Id: n.ID, Type: wire.TradeNoticeType(n.Type), Ratio: n.Ratio.StringFixed(4),
			Deadline: n.Deadline, Reason: n.Reason, Positions: n.Positions, CreatedAt: n.CreatedAt.UTC()})
	}
	return httpx.OK(out)
}

func (m *Module) tradeRules(c *httpx.Call) (httpx.Reply, error) {
	r := m.cmd.TradingRules()
	return httpx.OK(wire.TradeRules{
		CommissionRate: fees.CommissionRate.String(), MinCommissionBoardLot: fees.MinBoardLot.String(),
		MinCommissionOddLot: fees.MinOddLot.String(), StockTaxRate: fees.StockTaxRate.String(), EtfTaxRate: fees.ETFTaxRate.String(),
		BondEtfTaxRate: fees.BondETFTaxRate.String(), DayTradeTaxRate: fees.DayTradeTaxRate.String(),
		MaxFinancing: margin.MaxFinancing.String(), MinShortMargin: margin.MinShortMargin.String(),
		MaxLongLeverage: margin.MaxLongLeverage.String(), MaxShortLeverage: margin.MaxShortLeverage.String(),
		MaintenanceRatio: margin.MaintenanceRatio.String(), ForcedCloseRatio: margin.ForcedCloseRatio.String(),
		CallDeadlineDays: margin.CallDeadlineDays, LoanUnit: margin.LoanUnit.String(), SettlementDays: settlement.Days,
		ProtectiveStep: matching.ProtectiveStep.String(), BoardLot: tradingcmd.BoardLot, MaxLots: tradingcmd.MaxLots,
		LockMinutes: r.LockMinutes, HoldDays: r.HoldDays,
	})
}
