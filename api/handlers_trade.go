package api

import (
	"fmt"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/fees"
	"github.com/lotbook/lotbook/commands/rules/margin"
	"github.com/lotbook/lotbook/commands/rules/matching"
	"github.com/lotbook/lotbook/commands/rules/settlement"
	"github.com/lotbook/lotbook/commands/trading/engine"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/valuation"
)

// Trading routes: orders (place, cancel, list), positions (list, detail, close), the day-trading
// summary, margin notices and the rules. Prices come from the market through the matching
// engine's view of it; positions are valued at live quotes.

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func tradeOut(r commands.TradeResult) wire.TradeResult {
	return wire.TradeResult{OrderNo: r.OrderNo, Status: wire.TradeOrderStatus(r.Status), PositionId: r.PositionID,
		Filled: r.Filled, Position: r.Position}
}

func (s *server) placeOrder(c *call) (reply, error) {
	var req wire.OrderRequest
	if err := c.decode("OrderRequest", &req); err != nil {
		return reply{}, err
	}
	in := commands.OrderInput{Symbol: req.Symbol, Direction: string(req.Direction), Type: string(req.Type),
		Lots: deref(req.Lots), Shares: deref(req.Shares), Price: deref(req.Price), Leverage: deref(req.Leverage), DayTrade: deref(req.DayTrade)}
	res, err := s.cmd.PlaceOrder(c.ctx(), c.meta(), c.sess.MemberID, in, engine.View(s.trade.Market(), req.Symbol, s.now()))
	if err != nil {
		return reply{}, err
	}
	return ok(tradeOut(res))
}

func (s *server) cancelOrder(c *call) (reply, error) {
	if c.r.Method == http.MethodPost {
		var req wire.Empty
		if err := c.decode("Empty", &req); err != nil {
			return reply{}, err
		}
	}
	res, err := s.cmd.CancelOrder(c.ctx(), c.meta(), commands.CancelOrder{MemberID: c.sess.MemberID, OrderNo: mux.Vars(c.r)["orderNo"]})
	if err != nil {
		return reply{}, err
	}
	return reply{key: wire.MessageKeyOrderCancelled, data: tradeOut(res)}, nil
}

// orderStatuses maps the orders filter to statuses.
var orderStatuses = map[string][]string{
	"all": nil, "working": {projections.OrderPending, projections.OrderPartial},
	"done":    {projections.OrderFilled, projections.OrderCancelled, projections.OrderExpired},
	"pending": {projections.OrderPending}, "partial": {projections.OrderPartial}, "filled": {projections.OrderFilled},
	"cancelled": {projections.OrderCancelled}, "expired": {projections.OrderExpired},
}

func (s *server) orders(c *call) (reply, error) {
	q := c.r.URL.Query()
	filter := orDefault(q.Get("status"), "all")
	statuses, known := orderStatuses[filter]
	if !known {
		return reply{}, errInvalidRequest(fmt.Errorf("status %q", filter))
	}
	page, size, err := paging(q)
	if err != nil {
		return reply{}, err
	}
	os, more, err := s.read.Orders(c.ctx(), c.sess.MemberID, statuses, page, size)
	if err != nil {
		return reply{}, fmt.Errorf("orders: %w", err)
	}
	items := make([]wire.TradeOrder, 0, len(os))
	for _, o := range os {
		items = append(items, tradeOrderOut(o))
	}
	return ok(wire.TradeOrderPage{Items: items, Page: page, HasMore: more})
}

func tradeOrderOut(o projections.Order) wire.TradeOrder {
	return wire.TradeOrder{OrderNo: o.OrderNo, PositionId: o.PositionID, Intent: wire.TradeOrderIntent(o.Intent), Symbol: o.Symbol,
		Name: o.Name, Side: wire.TradeOrderSide(o.Side), Direction: wire.TradeOrderDirection(o.Direction), Type: wire.TradeOrderType(o.Type),
		Shares: o.Shares, OddLot: o.OddLot, Price: price(o.Price), Leverage: o.Leverage.StringFixed(2), DayTrade: o.DayTrade,
		PlacedBy: wire.TradeOrderPlacedBy(o.PlacedBy), TradingDay: o.TradingDay, Status: wire.TradeOrderStatus(o.Status),
		Reason: o.Reason, Filled: o.Filled, AvgPrice: price(o.AvgPrice()), Amount: money(o.Amount), Commission: money(o.Commission),
		Tax: money(o.Tax), CreatedAt: o.CreatedAt.UTC(), UpdatedAt: o.UpdatedAt.UTC()}
}

// positionStatuses maps the positions filter (the app's tabs) to statuses.
var positionStatuses = map[string][]string{
	"holding": {projections.PositionHolding, projections.PositionClosing}, "pending": {projections.PositionPending},
	"closed": {projections.PositionClosed, projections.PositionCancelled}, "all": nil,
}

func optTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

// positionOut maps a position and its valuation at a live price.
func positionOut(p projections.Position, v valuation.Position) wire.TradePosition {
	return wire.TradePosition{Id: p.ID, OrderNo: p.ID, Symbol: p.Symbol, Name: p.Name,
		InstrumentType: wire.TradePositionInstrumentType(p.Kind), Direction: wire.TradePositionDirection(p.Direction),
		Status: wire.TradePositionStatus(p.Status), Shares: v.Shares, ClosingShares: p.Closing, Lots: v.Lots.StringFixed(3),
		Leverage: p.Leverage.StringFixed(2), DayTrade: p.DayTrade, EntryPrice: price(p.EntryPrice()), ExitPrice: price(p.ExitPrice()),
		Price: price(v.Price), MarketValue: money(v.MarketValue), Fee: money(p.Fees), Tax: money(p.Tax), Margin: money(v.Own),
		Loan: money(p.Loan), Profit: money(p.Profit), UnrealisedProfit: money(v.Unrealised),
		OpenedAt: optTime(p.OpenedAt), ClosedAt: optTime(p.ClosedAt), CreatedAt: p.CreatedAt.UTC()}
}

func (s *server) positions(c *call) (reply, error) {
	q := c.r.URL.Query()
	filter := orDefault(q.Get("status"), "holding")
	statuses, known := positionStatuses[filter]
	if !known {
		return reply{}, errInvalidRequest(fmt.Errorf("status %q", filter))
	}
	page, size, err := paging(q)
	if err != nil {
		return reply{}, err
	}
	ps, more, err := s.read.Positions(c.ctx(), c.sess.MemberID, statuses, page, size)
	if err != nil {
		return reply{}, fmt.Errorf("positions: %w", err)
	}
	today := engine.TradingDay(s.now())
	items := make([]wire.TradePosition, 0, len(ps))
	for _, p := range ps {
		items = append(items, positionOut(p, valuation.At(p, s.trade.Market(), today)))
	}
	return ok(wire.TradePositionPage{Items: items, Page: page, HasMore: more})
}

// ownPosition is the member's position named in the path; someone else's is not found.
func (s *server) ownPosition(c *call) (projections.Position, error) {
	id := mux.Vars(c.r)["id"]
	p, err := s.read.PositionByID(c.ctx(), id)
	if isNotFound(err) {
		s.catchUpHead(c.ctx())
		p, err = s.read.PositionByID(c.ctx(), id)
	}
	switch {
	case isNotFound(err), err == nil && p.MemberID != c.sess.MemberID:
		return projections.Position{}, refuse(http.StatusNotFound, wire.MessageKeyPositionNotFound, err)
	case err != nil:
		return projections.Position{}, fmt.Errorf("position %s: %w", id, err)
	}
	return p, nil
}

func (s *server) position(c *call) (reply, error) {
	p, err := s.ownPosition(c)
	if err != nil {
		return reply{}, err
	}
	// The position again with its orders, from one snapshot: a fill in between must not show
	// in one and not the other.
	var os []projections.Order
	id := p.ID
	err = s.snapshot(c, func(rd *projections.Reader) error {
		if p, err = rd.PositionByID(c.ctx(), id); err != nil {
			return fmt.Errorf("position %s: %w", id, err)
		}
		if os, err = rd.OrdersOfPosition(c.ctx(), id); err != nil {
			return fmt.Errorf("orders of %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return reply{}, err
	}
	v := valuation.At(p, s.trade.Market(), engine.TradingDay(s.now()))
	out := wire.TradePositionDetail{Position: positionOut(p, v), Orders: make([]wire.TradeOrder, 0, len(os))}
	for _, o := range os {
		out.Orders = append(out.Orders, tradeOrderOut(o))
	}
	return ok(out)
}

func (s *server) closePosition(c *call) (reply, error) {
	var req wire.CloseRequest
	if err := c.decode("CloseRequest", &req); err != nil {
		return reply{}, err
	}
	id := mux.Vars(c.r)["id"]
	// The position's symbol picks the market view; the command checks the position is the
	// member's (another member's id is not found on their account stream).
	p, err := s.read.PositionByID(c.ctx(), id)
	if isNotFound(err) {
		s.catchUpHead(c.ctx())
		p, err = s.read.PositionByID(c.ctx(), id)
	}
	if err != nil && !isNotFound(err) {
		return reply{}, fmt.Errorf("position %s: %w", id, err)
	}
	in := commands.CloseInput{Lots: deref(req.Lots), Shares: deref(req.Shares), Type: string(req.Type), Price: deref(req.Price)}
	res, err := s.cmd.ClosePosition(c.ctx(), c.meta(), commands.ClosePosition{MemberID: c.sess.MemberID, PositionID: id, Close: in, Market: engine.View(s.trade.Market(), p.Symbol, s.now())})
	if err != nil {
		return reply{}, err
	}
	return reply{key: wire.MessageKeyCloseSubmitted, data: tradeOut(res)}, nil
}

func (s *server) dayTrading(c *call) (reply, error) {
	today := engine.TradingDay(s.now())
	var ps []projections.Position
	orders := map[string][]projections.Order{}
	err := s.snapshot(c, func(rd *projections.Reader) error {
		var err error
		if ps, _, err = rd.Positions(c.ctx(), c.sess.MemberID, nil, 0, 0); err != nil {
			return fmt.Errorf("positions: %w", err)
		}
		for _, p := range ps {
			if !valuation.DayTraded(p, today) {
				continue
			}
			if orders[p.ID], err = rd.OrdersOfPosition(c.ctx(), p.ID); err != nil {
				return fmt.Errorf("orders of %s: %w", p.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return reply{}, err
	}
	sum := valuation.DayTrading(ps, s.trade.Market(), today)
	out := wire.DayTradingSummary{TradingDay: today, Positions: make([]wire.TradePosition, 0, len(sum.Items)), Orders: []wire.TradeOrder{},
		HoldingShares: sum.HoldingShares, Valuation: money(sum.Valuation), Committed: money(sum.Committed),
		Profit: money(sum.Profit), ReturnRate: sum.ReturnRate.StringFixed(2)}
	for _, it := range sum.Items {
		out.Positions = append(out.Positions, positionOut(it.Row, it.Value))
		for _, o := range orders[it.Row.ID] {
			out.Orders = append(out.Orders, tradeOrderOut(o))
		}
	}
	return ok(out)
}

func (s *server) tradeNotices(c *call) (reply, error) {
	page, size, err := paging(c.r.URL.Query())
	if err != nil {
		return reply{}, err
	}
	var ns []projections.Notice
	var more bool
	var ps []projections.Position
	err = s.snapshot(c, func(rd *projections.Reader) error {
		if ns, more, err = rd.Notices(c.ctx(), c.sess.MemberID, page, size); err != nil {
			return fmt.Errorf("notices: %w", err)
		}
		if ps, _, err = rd.Positions(c.ctx(), c.sess.MemberID, positionStatuses["holding"], 0, 0); err != nil {
			return fmt.Errorf("positions: %w", err)
		}
		return nil
	})
	if err != nil {
		return reply{}, err
	}
	out := wire.TradeNoticePage{Items: make([]wire.TradeNotice, 0, len(ns)), Page: page, HasMore: more}
	if r, owed := valuation.MarginRatio(ps, s.trade.Market()); owed {
		ratio := r.StringFixed(4)
		out.Ratio = &ratio
	}
	for _, n := range ns {
		out.Items = append(out.Items, wire.TradeNotice{Id: n.ID, Type: wire.TradeNoticeType(n.Type), Ratio: n.Ratio.StringFixed(4),
			Deadline: n.Deadline, Reason: n.Reason, Positions: n.Positions, CreatedAt: n.CreatedAt.UTC()})
	}
	return ok(out)
}

func (s *server) tradeRules(c *call) (reply, error) {
	r := s.cmd.TradingRules()
	return ok(wire.TradeRules{
		CommissionRate: fees.CommissionRate.String(), MinCommissionBoardLot: fees.MinBoardLot.String(),
		MinCommissionOddLot: fees.MinOddLot.String(), StockTaxRate: fees.StockTaxRate.String(), EtfTaxRate: fees.ETFTaxRate.String(),
		BondEtfTaxRate: fees.BondETFTaxRate.String(), DayTradeTaxRate: fees.DayTradeTaxRate.String(),
		MaxFinancing: margin.MaxFinancing.String(), MinShortMargin: margin.MinShortMargin.String(),
		MaxLongLeverage: margin.MaxLongLeverage.String(), MaxShortLeverage: margin.MaxShortLeverage.String(),
		MaintenanceRatio: margin.MaintenanceRatio.String(), ForcedCloseRatio: margin.ForcedCloseRatio.String(),
		CallDeadlineDays: margin.CallDeadlineDays, LoanUnit: margin.LoanUnit.String(), SettlementDays: settlement.Days,
		ProtectiveStep: matching.ProtectiveStep.String(), BoardLot: commands.BoardLot, MaxLots: commands.MaxLots,
		LockMinutes: r.LockMinutes, HoldDays: r.HoldDays,
	})
}

// tradeLineOut adds a trade line's symbol and settlement: a sale's trade line is unsettled until
// its settlement date (the proceeds trade at once and are withdrawable from that day).
func tradeLineOut(out *wire.FundRecord, symbol, settleDate string, now time.Time) {
	out.Symbol = &symbol
	if settleDate == "" {
		return
	}
	out.SettleDate = &settleDate
	if !settlement.Settled(settleDate, now) {
		out.Status = wire.FundRecordStatusUnsettled
	}
}
