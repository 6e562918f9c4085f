package api

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/gorilla/mux"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/fees"
	"github.com/lotbook/lotbook/commands/rules/margin"
	"github.com/lotbook/lotbook/commands/rules/matching"
	"github.com/lotbook/lotbook/commands/rules/settlement"
	"github.com/lotbook/lotbook/commands/trading/engine"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
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
	res, err := s.cmd.CancelOrder(c.ctx(), c.meta(), c.sess.MemberID, mux.Vars(c.r)["orderNo"])
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

// valuation is a position at a live price.
type valuation struct {
	price, value, unrealised, equity decimal.Decimal
}

func feeKind(kind string) fees.Kind {
	switch kind {
	case fees.ETF.String():
		return fees.ETF
	case fees.BondETF.String():
		return fees.BondETF
	}
	return fees.Stock
}

// value prices the held shares of p at last: the market value, the unrealised profit after the
// estimated commission and tax of closing now, and what the position adds to the member's assets
// (a long's value less its loan; a short's collateral less what covering costs).
func value(p projections.Position, last decimal.Decimal, today string) valuation {
	v := valuation{price: last}
	if p.Shares == 0 {
		return v
	}
	v.value = last.Mul(decimal.NewFromInt(p.Shares))
	odd := p.Shares%commands.BoardLot != 0
	commission := fees.Commission(v.value, odd)
	if p.Direction == events.DirectionShort {
		v.unrealised = p.Basis.Sub(v.value).Sub(commission)
		v.equity = p.Basis.Add(p.Margin).Sub(v.value)
		return v
	}
	tax := fees.Tax(v.value, feeKind(p.Kind), p.OpenDay == today)
	v.unrealised = v.value.Sub(commission).Sub(tax).Sub(p.Basis)
	v.equity = v.value.Sub(p.Loan)
	return v
}

// lastPrice is the symbol's live last price (zero when the market does not know it).
func (s *server) lastPrice(symbol string) decimal.Decimal {
	q, err := s.trade.Market().Quote(symbol)
	if err != nil {
		return decimal.Zero
	}
	return q.Price
}

func optTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

func (s *server) positionOut(p projections.Position, today string) wire.TradePosition {
	v := value(p, s.lastPrice(p.Symbol), today)
	shares := p.Shares
	if p.Status == projections.PositionClosed {
		shares = p.Bought
	}
	own := p.Basis.Sub(p.Loan)
	if p.Direction == events.DirectionShort {
		own = p.Margin
	}
	return wire.TradePosition{Id: p.ID, OrderNo: p.ID, Symbol: p.Symbol, Name: p.Name,
		InstrumentType: wire.TradePositionInstrumentType(p.Kind), Direction: wire.TradePositionDirection(p.Direction),
		Status: wire.TradePositionStatus(p.Status), Shares: shares, ClosingShares: p.Closing,
		Lots:     decimal.NewFromInt(shares).Div(decimal.NewFromInt(commands.BoardLot)).StringFixed(3),
		Leverage: p.Leverage.StringFixed(2), DayTrade: p.DayTrade, EntryPrice: price(p.EntryPrice()), ExitPrice: price(p.ExitPrice()),
		Price: price(v.price), MarketValue: money(v.value), Fee: money(p.Fees), Tax: money(p.Tax), Margin: money(own),
		Loan: money(p.Loan), Profit: money(p.Profit), UnrealisedProfit: money(v.unrealised),
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
		items = append(items, s.positionOut(p, today))
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
	out := wire.TradePositionDetail{Position: s.positionOut(p, engine.TradingDay(s.now())), Orders: make([]wire.TradeOrder, 0, len(os))}
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
	res, err := s.cmd.ClosePosition(c.ctx(), c.meta(), c.sess.MemberID, id, in, engine.View(s.trade.Market(), p.Symbol, s.now()))
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
			if !p.DayTrade || p.OpenDay != today {
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
	out := wire.DayTradingSummary{TradingDay: today, Positions: []wire.TradePosition{}, Orders: []wire.TradeOrder{}}
	var valuationSum, committed, profit decimal.Decimal
	for _, p := range ps {
		if !p.DayTrade || p.OpenDay != today {
			continue
		}
		v := value(p, s.lastPrice(p.Symbol), today)
		out.HoldingShares += p.Shares
		valuationSum = valuationSum.Add(v.value)
		profit = profit.Add(p.Profit).Add(v.unrealised)
		// What the member put in for every share opened (closed ones included): the amount over
		// the leverage, which is a long's cost less its financing (before the loan's rounding to
		// thousands) and a short's margin.
		committed = committed.Add(p.EntryAmount.DivRound(p.Leverage, 2))
		out.Positions = append(out.Positions, s.positionOut(p, today))
		for _, o := range orders[p.ID] {
			out.Orders = append(out.Orders, tradeOrderOut(o))
		}
	}
	out.Valuation, out.Committed, out.Profit = money(valuationSum), money(committed), money(profit)
	out.ReturnRate = "0.00"
	if committed.IsPositive() {
		out.ReturnRate = profit.Mul(decimal.NewFromInt(100)).DivRound(committed, 2).StringFixed(2)
	}
	return ok(out)
}

// marginRatio is the account's maintenance ratio at live prices; nil without margin positions.
func (s *server) marginRatio(ps []projections.Position) *string {
	var acc margin.Account
	for _, p := range ps {
		if p.Shares == 0 {
			continue
		}
		v := s.lastPrice(p.Symbol).Mul(decimal.NewFromInt(p.Shares))
		switch {
		case p.Direction == events.DirectionShort:
			acc.ShortCollateral = acc.ShortCollateral.Add(p.Basis).Add(p.Margin)
			acc.ShortValue = acc.ShortValue.Add(v)
		case p.Loan.IsPositive():
			acc.LongValue = acc.LongValue.Add(v)
			acc.Loans = acc.Loans.Add(p.Loan)
		}
	}
	r, owed := margin.Ratio(acc)
	if !owed {
		return nil
	}
	out := r.StringFixed(4)
	return &out
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
	out := wire.TradeNoticePage{Items: make([]wire.TradeNotice, 0, len(ns)), Page: page, HasMore: more, Ratio: s.marginRatio(ps)}
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

// tradeTotals are what a member's positions add to the mine screen: their equity to total assets,
// realised plus unrealised profit.
func (s *server) tradeTotals(ctx context.Context, rd *projections.Reader, memberID string) (equity, profit decimal.Decimal, err error) {
	realised, err := rd.RealisedProfit(ctx, memberID)
	if err != nil {
		return decimal.Zero, decimal.Zero, fmt.Errorf("realised profit: %w", err)
	}
	ps, _, err := rd.Positions(ctx, memberID, positionStatuses["holding"], 0, 0)
	if err != nil {
		return decimal.Zero, decimal.Zero, fmt.Errorf("positions: %w", err)
	}
	today := engine.TradingDay(s.now())
	profit = realised
	for _, p := range ps {
		v := value(p, s.lastPrice(p.Symbol), today)
		equity, profit = equity.Add(v.equity), profit.Add(v.unrealised)
	}
	return equity, profit, nil
}

// tradeLineOut adds a trade line's symbol and settlement: a sale's trade line is unsettled until
// its settlement date (the proceeds trade at once and are withdrawable from that day).
func tradeLineOut(out *wire.FundRecord, l projections.FundLine, now time.Time) {
	out.Symbol = &l.Symbol
	if l.SettleDate == "" {
		return
	}
	out.SettleDate = &l.SettleDate
	if !settlement.Settled(l.SettleDate, now) {
		out.Status = wire.FundRecordStatusUnsettled
	}
}
