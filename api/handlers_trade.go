package api

import (
	"fmt"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands/rules/fees"
	"github.com/lotbook/lotbook/commands/rules/margin"
	"github.com/lotbook/lotbook/commands/rules/matching"
	"github.com/lotbook/lotbook/commands/rules/settlement"
	"github.com/lotbook/lotbook/commands/trading"
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

func tradeOut(r trading.TradeResult) wire.TradeResult {
	return wire.TradeResult{OrderNo: r.OrderNo, Status: wire.TradeOrderStatus(r.Status), PositionId: r.PositionID,
		Filled: r.Filled, Position: r.Position}
}

func (s *server) placeOrder(c *httpx.Call) (httpx.Reply, error) {
	var req wire.OrderRequest
	if err := c.Decode("OrderRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	in := trading.OrderInput{Symbol: req.Symbol, Direction: string(req.Direction), Type: string(req.Type),
		Lots: deref(req.Lots), Shares: deref(req.Shares), Price: deref(req.Price), Leverage: deref(req.Leverage), DayTrade: deref(req.DayTrade)}
	res, err := s.trading.PlaceOrder(c.Ctx(), c.Meta(), c.Sess.MemberID, in, engine.View(s.trade.Market(), req.Symbol, s.now()))
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(tradeOut(res))
}

func (s *server) cancelOrder(c *httpx.Call) (httpx.Reply, error) {
	if c.R.Method == http.MethodPost {
		var req wire.Empty
		if err := c.Decode("Empty", &req); err != nil {
			return httpx.Reply{}, err
		}
	}
	res, err := s.trading.CancelOrder(c.Ctx(), c.Meta(), trading.CancelOrder{MemberID: c.Sess.MemberID, OrderNo: mux.Vars(c.R)["orderNo"]})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.Reply{Key: wire.MessageKeyOrderCancelled, Data: tradeOut(res)}, nil
}

// orderStatuses maps the orders filter to statuses.
var orderStatuses = map[string][]string{
	"all": nil, "working": {projections.OrderPending, projections.OrderPartial},
	"done":    {projections.OrderFilled, projections.OrderCancelled, projections.OrderExpired},
	"pending": {projections.OrderPending}, "partial": {projections.OrderPartial}, "filled": {projections.OrderFilled},
	"cancelled": {projections.OrderCancelled}, "expired": {projections.OrderExpired},
}

func (s *server) orders(c *httpx.Call) (httpx.Reply, error) {
	q := c.R.URL.Query()
	filter := orDefault(q.Get("status"), "all")
	statuses, known := orderStatuses[filter]
	if !known {
		return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("status %q", filter))
	}
	page, size, err := httpx.Paging(q)
	if err != nil {
		return httpx.Reply{}, err
	}
	os, more, err := s.read.Orders(c.Ctx(), c.Sess.MemberID, statuses, page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("orders: %w", err)
	}
	items := make([]wire.TradeOrder, 0, len(os))
	for _, o := range os {
		items = append(items, tradeOrderOut(o))
	}
	return httpx.OK(wire.TradeOrderPage{Items: items, Page: page, HasMore: more})
}

func tradeOrderOut(o projections.Order) wire.TradeOrder {
	return wire.TradeOrder{OrderNo: o.OrderNo, PositionId: o.PositionID, Intent: wire.TradeOrderIntent(o.Intent), Symbol: o.Symbol,
		Name: o.Name, Side: wire.TradeOrderSide(o.Side), Direction: wire.TradeOrderDirection(o.Direction), Type: wire.TradeOrderType(o.Type),
		Shares: o.Shares, OddLot: o.OddLot, Price: httpx.Money(o.Price), Leverage: o.Leverage.StringFixed(2), DayTrade: o.DayTrade,
		PlacedBy: wire.TradeOrderPlacedBy(o.PlacedBy), TradingDay: o.TradingDay, Status: wire.TradeOrderStatus(o.Status),
		Reason: o.Reason, Filled: o.Filled, AvgPrice: httpx.Money(o.AvgPrice()), Amount: httpx.Money(o.Amount), Commission: httpx.Money(o.Commission),
		Tax: httpx.Money(o.Tax), CreatedAt: o.CreatedAt.UTC(), UpdatedAt: o.UpdatedAt.UTC()}
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
		Leverage: p.Leverage.StringFixed(2), DayTrade: p.DayTrade, EntryPrice: httpx.Money(p.EntryPrice()), ExitPrice: httpx.Money(p.ExitPrice()),
		Price: httpx.Money(v.Price), MarketValue: httpx.Money(v.MarketValue), Fee: httpx.Money(p.Fees), Tax: httpx.Money(p.Tax), Margin: httpx.Money(v.Own),
		Loan: httpx.Money(p.Loan), Profit: httpx.Money(p.Profit), UnrealisedProfit: httpx.Money(v.Unrealised),
		OpenedAt: optTime(p.OpenedAt), ClosedAt: optTime(p.ClosedAt), CreatedAt: p.CreatedAt.UTC()}
}

func (s *server) positions(c *httpx.Call) (httpx.Reply, error) {
	q := c.R.URL.Query()
	filter := orDefault(q.Get("status"), "holding")
	statuses, known := positionStatuses[filter]
	if !known {
		return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("status %q", filter))
	}
	page, size, err := httpx.Paging(q)
	if err != nil {
		return httpx.Reply{}, err
	}
	ps, more, err := s.read.Positions(c.Ctx(), c.Sess.MemberID, statuses, page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("positions: %w", err)
	}
	today := engine.TradingDay(s.now())
	items := make([]wire.TradePosition, 0, len(ps))
	for _, p := range ps {
		items = append(items, positionOut(p, valuation.At(p, s.trade.Market(), today)))
	}
	return httpx.OK(wire.TradePositionPage{Items: items, Page: page, HasMore: more})
}

// ownPosition is the member's position named in the path; someone else's is not found.
func (s *server) ownPosition(c *httpx.Call) (projections.Position, error) {
	id := mux.Vars(c.R)["id"]
	p, err := s.read.PositionByID(c.Ctx(), id)
	if httpx.IsNotFound(err) {
		s.catchUpHead(c.Ctx())
		p, err = s.read.PositionByID(c.Ctx(), id)
	}
	switch {
	case httpx.IsNotFound(err), err == nil && p.MemberID != c.Sess.MemberID:
		return projections.Position{}, httpx.Refuse(http.StatusNotFound, wire.MessageKeyPositionNotFound, err)
	case err != nil:
		return projections.Position{}, fmt.Errorf("position %s: %w", id, err)
	}
	return p, nil
}

func (s *server) position(c *httpx.Call) (httpx.Reply, error) {
	p, err := s.ownPosition(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	// The position again with its orders, from one snapshot: a fill in between must not show
	// in one and not the other.
	var os []projections.Order
	id := p.ID
	err = s.snapshot(c, func(rd *projections.Reader) error {
		if p, err = rd.PositionByID(c.Ctx(), id); err != nil {
			return fmt.Errorf("position %s: %w", id, err)
		}
		if os, err = rd.OrdersOfPosition(c.Ctx(), id); err != nil {
			return fmt.Errorf("orders of %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	v := valuation.At(p, s.trade.Market(), engine.TradingDay(s.now()))
	out := wire.TradePositionDetail{Position: positionOut(p, v), Orders: make([]wire.TradeOrder, 0, len(os))}
	for _, o := range os {
		out.Orders = append(out.Orders, tradeOrderOut(o))
	}
	return httpx.OK(out)
}

func (s *server) closePosition(c *httpx.Call) (httpx.Reply, error) {
	var req wire.CloseRequest
	if err := c.Decode("CloseRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	id := mux.Vars(c.R)["id"]
	// The position's symbol picks the market view; the command checks the position is the
	// member's (another member's id is not found on their account stream).
	p, err := s.read.PositionByID(c.Ctx(), id)
	if httpx.IsNotFound(err) {
		s.catchUpHead(c.Ctx())
		p, err = s.read.PositionByID(c.Ctx(), id)
	}
	if err != nil && !httpx.IsNotFound(err) {
		return httpx.Reply{}, fmt.Errorf("position %s: %w", id, err)
	}
	in := trading.CloseInput{Lots: deref(req.Lots), Shares: deref(req.Shares), Type: string(req.Type), Price: deref(req.Price)}
	res, err := s.trading.ClosePosition(c.Ctx(), c.Meta(), trading.ClosePosition{MemberID: c.Sess.MemberID, PositionID: id, Close: in, Market: engine.View(s.trade.Market(), p.Symbol, s.now())})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.Reply{Key: wire.MessageKeyCloseSubmitted, Data: tradeOut(res)}, nil
}

func (s *server) dayTrading(c *httpx.Call) (httpx.Reply, error) {
	today := engine.TradingDay(s.now())
	var ps []projections.Position
	orders := map[string][]projections.Order{}
	err := s.snapshot(c, func(rd *projections.Reader) error {
		var err error
		if ps, _, err = rd.Positions(c.Ctx(), c.Sess.MemberID, nil, 0, 0); err != nil {
			return fmt.Errorf("positions: %w", err)
		}
		for _, p := range ps {
			if !valuation.DayTraded(p, today) {
				continue
			}
			if orders[p.ID], err = rd.OrdersOfPosition(c.Ctx(), p.ID); err != nil {
				return fmt.Errorf("orders of %s: %w", p.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	sum := valuation.DayTrading(ps, s.trade.Market(), today)
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

func (s *server) tradeNotices(c *httpx.Call) (httpx.Reply, error) {
	page, size, err := httpx.Paging(c.R.URL.Query())
	if err != nil {
		return httpx.Reply{}, err
	}
	var ns []projections.Notice
	var more bool
	var ps []projections.Position
	err = s.snapshot(c, func(rd *projections.Reader) error {
		if ns, more, err = rd.Notices(c.Ctx(), c.Sess.MemberID, page, size); err != nil {
			return fmt.Errorf("notices: %w", err)
		}
		if ps, _, err = rd.Positions(c.Ctx(), c.Sess.MemberID, positionStatuses["holding"], 0, 0); err != nil {
			return fmt.Errorf("positions: %w", err)
		}
		return nil
	})
	if err != nil {
		return httpx.Reply{}, err
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
	return httpx.OK(out)
}

func (s *server) tradeRules(c *httpx.Call) (httpx.Reply, error) {
	r := s.trading.TradingRules()
	return httpx.OK(wire.TradeRules{
		CommissionRate: fees.CommissionRate.String(), MinCommissionBoardLot: fees.MinBoardLot.String(),
		MinCommissionOddLot: fees.MinOddLot.String(), StockTaxRate: fees.StockTaxRate.String(), EtfTaxRate: fees.ETFTaxRate.String(),
		BondEtfTaxRate: fees.BondETFTaxRate.String(), DayTradeTaxRate: fees.DayTradeTaxRate.String(),
		MaxFinancing: margin.MaxFinancing.String(), MinShortMargin: margin.MinShortMargin.String(),
		MaxLongLeverage: margin.MaxLongLeverage.String(), MaxShortLeverage: margin.MaxShortLeverage.String(),
		MaintenanceRatio: margin.MaintenanceRatio.String(), ForcedCloseRatio: margin.ForcedCloseRatio.String(),
		CallDeadlineDays: margin.CallDeadlineDays, LoanUnit: margin.LoanUnit.String(), SettlementDays: settlement.Days,
		ProtectiveStep: matching.ProtectiveStep.String(), BoardLot: trading.BoardLot, MaxLots: trading.MaxLots,
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
