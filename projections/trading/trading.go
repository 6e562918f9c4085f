// Package trading is the trading read model: orders, positions and margin notices, and their
// queries over projections.Reader.
package trading

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// The trading projection: each member's orders, positions (one per opening order) and the margin
// notices (calls, forced closes); the money lines of every fill are the journal's. Positions
// evolve from the figures each OrderFilled records (basis, loan, margin, profit), as the account
// aggregate does.

// Position statuses, as the write side defines them.
const (
	PositionPending   = "pending"
	PositionHolding   = "holding"
	PositionClosing   = "closing"
	PositionClosed    = "closed"
	PositionCancelled = "cancelled"
)

// Held are the statuses of a position that holds shares: what assets and margin count.
var Held = []string{PositionHolding, PositionClosing}

// Order statuses.
const (
	OrderPending   = "pending"
	OrderPartial   = "partial"
	OrderFilled    = "filled"
	OrderCancelled = "cancelled"
	OrderExpired   = "expired"
)

var tradeOrdersTable = &projections.Table{
	Name:    "trade_orders",
	Cols:    orderFields.Columns(),
	Key:     []string{"order_no"},
	Indexes: []string{"member_id, seq", "member_id, status, seq", "status"},
}

var tradePositionsTable = &projections.Table{
	Name:    "trade_positions",
	Cols:    positionFields.Columns(),
	Key:     []string{"id"},
	Indexes: []string{"member_id, status, seq", "member_id, seq"},
}

type noticeRow struct {
	id, memberID, typ, ratio, deadline, reason, positions string
	createdAt, seq                                        int64
}

var noticeFields = projections.RowMap[noticeRow]{
	projections.Text("id", func(r *noticeRow) *string { return &r.id }),
	projections.Text("member_id", func(r *noticeRow) *string { return &r.memberID }),
	projections.Text("type", func(r *noticeRow) *string { return &r.typ }),
	projections.Text("ratio", func(r *noticeRow) *string { return &r.ratio }),
	projections.Text("deadline", func(r *noticeRow) *string { return &r.deadline }),
	projections.Text("reason", func(r *noticeRow) *string { return &r.reason }),
	projections.Text("positions", func(r *noticeRow) *string { return &r.positions }),
	projections.Integer("created_at", func(r *noticeRow) *int64 { return &r.createdAt }),
	projections.Integer("seq", func(r *noticeRow) *int64 { return &r.seq }),
}

var tradeNoticesTable = &projections.Table{
	Name:    "trade_notices",
	Cols:    noticeFields.Columns(),
	Key:     []string{"id"},
	Indexes: []string{"member_id, seq"},
}

// Partitioned: an order, position or notice row is made with the member of the stream of the
// event that makes it, and changed only by later events of that stream (the account aggregate
// decides only on its own order numbers and positions; order numbers derive from the member).
var tradingProjector = &projections.Projector{
	Name:        "trading",
	Version:     1,
	Unit:        projections.AccountUnit,
	Money:       true,
	Partitioned: true,
	Tables:      []*projections.Table{tradeOrdersTable, tradePositionsTable, tradeNoticesTable},
	Wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.OrderPlaced, events.OrderFilled, events.OrderCancelled, events.OrderExpired,
			events.MarginCallIssued, events.MarginCallMet, events.ForcedCloseStarted, events.DeliversShares, events.MarginToppedUp:
			return true
		}
		return false
	},
	Apply: applyTrading,
}

func init() { projections.Register(tradingProjector) }

type orderRow struct {
	orderNo, memberID, positionID, intent, symbol, name, kind, side, direction, typ string
	shares, oddLot                                                                  int64
	price, leverage                                                                 string
	dayTrade                                                                        int64
	placedBy, tradingDay, status                                                    string
	filled                                                                          int64
	amount, commission, tax, reason                                                 string
	createdAt, updatedAt, seq, position                                             int64
	condition, session, tif                                                         string
	origin, originName                                                              string
}

var orderFields = projections.RowMap[orderRow]{
	projections.Text("order_no", func(r *orderRow) *string { return &r.orderNo }),
	projections.Text("member_id", func(r *orderRow) *string { return &r.memberID }),
	projections.Text("position_id", func(r *orderRow) *string { return &r.positionID }),
	projections.Text("intent", func(r *orderRow) *string { return &r.intent }),
	projections.Text("symbol", func(r *orderRow) *string { return &r.symbol }),
	projections.Text("name", func(r *orderRow) *string { return &r.name }),
	projections.Text("kind", func(r *orderRow) *string { return &r.kind }),
	projections.Text("side", func(r *orderRow) *string { return &r.side }),
	projections.Text("direction", func(r *orderRow) *string { return &r.direction }),
	projections.Text("type", func(r *orderRow) *string { return &r.typ }),
	projections.Integer("shares", func(r *orderRow) *int64 { return &r.shares }),
	projections.Integer("odd_lot", func(r *orderRow) *int64 { return &r.oddLot }),
	projections.Text("price", func(r *orderRow) *string { return &r.price }),
	projections.Text("leverage", func(r *orderRow) *string { return &r.leverage }),
	projections.Integer("day_trade", func(r *orderRow) *int64 { return &r.dayTrade }),
	projections.Text("placed_by", func(r *orderRow) *string { return &r.placedBy }),
	projections.Text("trading_day", func(r *orderRow) *string { return &r.tradingDay }),
	projections.Text("status", func(r *orderRow) *string { return &r.status }),
	projections.Integer("filled", func(r *orderRow) *int64 { return &r.filled }),
	projections.Text("amount", func(r *orderRow) *string { return &r.amount }),
	projections.Text("commission", func(r *orderRow) *string { return &r.commission }),
	projections.Text("tax", func(r *orderRow) *string { return &r.tax }),
	projections.Text("reason", func(r *orderRow) *string { return &r.reason }),
	projections.Integer("created_at", func(r *orderRow) *int64 { return &r.createdAt }),
	projections.Integer("updated_at", func(r *orderRow) *int64 { return &r.updatedAt }),
	projections.Integer("seq", func(r *orderRow) *int64 { return &r.seq }),
	projections.Integer("position", func(r *orderRow) *int64 { return &r.position }),
	projections.Text("condition", func(r *orderRow) *string { return &r.condition }),
	projections.Text("session", func(r *orderRow) *string { return &r.session }),
	projections.Text("time_in_force", func(r *orderRow) *string { return &r.tif }),
	projections.Text("origin", func(r *orderRow) *string { return &r.origin }),
	projections.Text("origin_name", func(r *orderRow) *string { return &r.originName }),
}

type positionRow struct {
	id, memberID, symbol, name, kind, direction, leverage string
	dayTrade                                              int64
	openDay, status                                       string
	shares, closing, bought                               int64
	entryAmount                                           string
	exitShares                                            int64
	exitAmount, fees, tax, loan, margin, basis, profit    string
	openWorking                                           int64
	closeOrder                                            string
	openedAt, closedAt, createdAt, updatedAt, seq, pos    int64
}

// positionFields are the columns of trade_positions, the one place they are declared.
var positionFields = projections.RowMap[positionRow]{
	projections.Text("id", func(r *positionRow) *string { return &r.id }),
	projections.Text("member_id", func(r *positionRow) *string { return &r.memberID }),
	projections.Text("symbol", func(r *positionRow) *string { return &r.symbol }),
	projections.Text("name", func(r *positionRow) *string { return &r.name }),
	projections.Text("kind", func(r *positionRow) *string { return &r.kind }),
	projections.Text("direction", func(r *positionRow) *string { return &r.direction }),
	projections.Text("leverage", func(r *positionRow) *string { return &r.leverage }),
	projections.Integer("day_trade", func(r *positionRow) *int64 { return &r.dayTrade }),
	projections.Text("open_day", func(r *positionRow) *string { return &r.openDay }),
	projections.Text("status", func(r *positionRow) *string { return &r.status }),
	projections.Integer("shares", func(r *positionRow) *int64 { return &r.shares }),
	projections.Integer("closing", func(r *positionRow) *int64 { return &r.closing }),
	projections.Integer("bought", func(r *positionRow) *int64 { return &r.bought }),
	projections.Text("entry_amount", func(r *positionRow) *string { return &r.entryAmount }),
	projections.Integer("exit_shares", func(r *positionRow) *int64 { return &r.exitShares }),
	projections.Text("exit_amount", func(r *positionRow) *string { return &r.exitAmount }),
	projections.Text("fees", func(r *positionRow) *string { return &r.fees }),
	projections.Text("tax", func(r *positionRow) *string { return &r.tax }),
	projections.Text("loan", func(r *positionRow) *string { return &r.loan }),
	projections.Text("margin", func(r *positionRow) *string { return &r.margin }),
	projections.Text("basis", func(r *positionRow) *string { return &r.basis }),
	projections.Text("profit", func(r *positionRow) *string { return &r.profit }),
	projections.Integer("open_working", func(r *positionRow) *int64 { return &r.openWorking }),
	projections.Text("close_order", func(r *positionRow) *string { return &r.closeOrder }),
	projections.Integer("opened_at", func(r *positionRow) *int64 { return &r.openedAt }),
	projections.Integer("closed_at", func(r *positionRow) *int64 { return &r.closedAt }),
	projections.Integer("created_at", func(r *positionRow) *int64 { return &r.createdAt }),
	projections.Integer("updated_at", func(r *positionRow) *int64 { return &r.updatedAt }),
	projections.Integer("seq", func(r *positionRow) *int64 { return &r.seq }),
	projections.Integer("position", func(r *positionRow) *int64 { return &r.pos }),
}

// refresh recomputes the status from the counts, as the write side does.
func (r *positionRow) refresh() {
	switch {
	case r.closing > 0:
		r.status = PositionClosing
	case r.shares > 0:
		r.status = PositionHolding
	case r.openWorking != 0:
		r.status = PositionPending
	case r.bought > 0:
		r.status = PositionClosed
	default:
		r.status = PositionCancelled
	}
}

// dsum adds decimal strings; a stored value that does not parse fails the page.
func dsum(a string, b decimal.Decimal) (string, error) {
	x := decimal.Zero
	if a != "" {
		var err error
		if x, err = decimal.NewFromString(a); err != nil {
			return "", fmt.Errorf("stored decimal %q: %w", a, err)
		}
	}
	return x.Add(b).String(), nil
}

type tradingPage struct {
	orders    map[string]*orderRow
	positions map[string]*positionRow
	notices   [][]any
}

func applyTrading(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	pg := &tradingPage{orders: map[string]*orderRow{}, positions: map[string]*positionRow{}}
	if err := pg.load(ctx, w, evs); err != nil {
		return err
	}
	for _, d := range evs {
		if err := pg.apply(d); err != nil {
			return err
		}
	}
	rows := func(n int) [][]any { return make([][]any, 0, n) }
	os, ps := rows(len(pg.orders)), rows(len(pg.positions))
	for _, r := range pg.orders {
		os = append(os, orderFields.Args(r))
	}
	for _, r := range pg.positions {
		ps = append(ps, positionFields.Args(r))
	}
	for _, up := range []struct {
		t    *projections.Table
		rows [][]any
	}{{tradeOrdersTable, os}, {tradePositionsTable, ps}, {tradeNoticesTable, pg.notices}} {
		if err := w.Upsert(ctx, up.t, up.rows); err != nil {
			return err
		}
	}
	return nil
}

// load reads the orders and positions this page's events change but did not create.
func (pg *tradingPage) load(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	needOrders, needPositions := map[string]struct{}{}, map[string]struct{}{}
	created := map[string]bool{}
	for _, d := range evs {
		switch e := d.P.(type) {
		case events.DeliversShares:
			created[e.Delivered().PositionID] = true
		case events.OrderPlaced:
			created[e.OrderNo] = true
			if e.Intent == events.IntentClose && !created[e.PositionID] {
				needPositions[e.PositionID] = struct{}{}
			}
		case events.OrderFilled:
			pg.need(created, needOrders, needPositions, e.OrderNo, e.PositionID)
		case events.OrderCancelled:
			pg.need(created, needOrders, needPositions, e.OrderNo, e.PositionID)
		case events.OrderExpired:
			pg.need(created, needOrders, needPositions, e.OrderNo, e.PositionID)
		case events.MarginToppedUp:
			if !created[e.PositionID] {
				needPositions[e.PositionID] = struct{}{}
			}
		}
	}
	if err := orderFields.SelectIn(ctx, w, tradeOrdersTable, "order_no", projections.KeysOf(needOrders), func(r *orderRow) { pg.orders[r.orderNo] = r }); err != nil {
		return err
	}
	return positionFields.SelectIn(ctx, w, tradePositionsTable, "id", projections.KeysOf(needPositions), func(r *positionRow) { pg.positions[r.id] = r })
}

func (pg *tradingPage) need(created map[string]bool, orders, positions map[string]struct{}, orderNo, positionID string) {
	if !created[orderNo] {
		orders[orderNo] = struct{}{}
	}
	if !created[positionID] {
		positions[positionID] = struct{}{}
	}
}

func (pg *tradingPage) apply(d projections.Decoded) error {
	member, err := projections.MemberOf(d.Ev.Stream)
	if err != nil {
		return d.Fail(err)
	}
	at, pos := projections.Micros(d.Ev.Metadata.ServerTime), d.Ev.Position
	switch e := d.P.(type) {
	case events.OrderPlaced:
		if pg.orders[e.OrderNo] != nil {
			return d.Fail(fmt.Errorf("order %s placed twice", e.OrderNo))
		}
		pg.orders[e.OrderNo] = &orderRow{orderNo: e.OrderNo, memberID: member, positionID: e.PositionID, intent: e.Intent,
			symbol: e.Symbol, name: e.Name, kind: e.Kind, side: e.Side, direction: e.Direction, typ: e.Type, shares: e.Shares,
			oddLot: projections.BoolInt(e.OddLot), price: e.Price.String(), leverage: e.Leverage.String(), dayTrade: projections.BoolInt(e.DayTrade),
			placedBy: e.By, tradingDay: e.TradingDay, status: OrderPending, amount: "0", commission: "0", tax: "0",
			createdAt: at, updatedAt: at, seq: pos, position: pos, condition: e.Condition, session: e.Session, tif: e.TimeInForce,
			origin: e.Origin, originName: e.OriginName}
		if e.Intent == events.IntentOpen {
			pg.positions[e.OrderNo] = &positionRow{id: e.OrderNo, memberID: member, symbol: e.Symbol, name: e.Name, kind: e.Kind,
				direction: e.Direction, leverage: e.Leverage.String(), dayTrade: projections.BoolInt(e.DayTrade), openDay: e.TradingDay,
				status: PositionPending, entryAmount: "0", exitAmount: "0", fees: "0", tax: "0", loan: "0", margin: "0", basis: "0",
				profit: "0", openWorking: 1, createdAt: at, updatedAt: at, seq: pos, pos: pos}
			return nil
		}
		p := pg.positions[e.PositionID]
		if p == nil {
			return d.Fail(fmt.Errorf("order %s closes unknown position %s", e.OrderNo, e.PositionID))
		}
		p.closing += e.Shares
		p.closeOrder, p.updatedAt, p.pos = e.OrderNo, at, pos
		p.refresh()
	case events.DeliversShares:
		// A holding that arrived outside trading (an allotment): a long held at its basis, as if
		// bought on its first trading day, that closes like any other.
		h := e.Delivered()
		if pg.positions[h.PositionID] != nil {
			return d.Fail(fmt.Errorf("position %s delivered twice", h.PositionID))
		}
		pg.positions[h.PositionID] = &positionRow{id: h.PositionID, memberID: member, symbol: h.Symbol, name: h.Name,
			kind: "stock", direction: events.DirectionLong, leverage: "1", openDay: h.Day, status: PositionHolding,
			shares: h.Shares, bought: h.Shares, entryAmount: h.Basis.String(), exitAmount: "0", fees: "0", tax: "0", loan: "0",
			margin: "0", basis: h.Basis.String(), profit: "0", openedAt: at, createdAt: at, updatedAt: at, seq: pos, pos: pos}
	case events.OrderFilled:
		return pg.fill(d, e)
	case events.OrderCancelled:
		return pg.stop(d, e.OrderNo, e.PositionID, OrderCancelled, e.Reason, e.Shares)
	case events.OrderExpired:
		return pg.stop(d, e.OrderNo, e.PositionID, OrderExpired, "", e.Shares)
	case events.MarginCallIssued:
		pg.notice(member, "margin_call", e.MarginRatio, e.Deadline, "", nil, at, pos)
	case events.MarginCallMet:
		pg.notice(member, "margin_call_met", e.MarginRatio, "", "", nil, at, pos)
	case events.ForcedCloseStarted:
		pg.notice(member, "forced_close", e.MarginRatio, "", e.Reason, e.Positions, at, pos)
	case events.MarginToppedUp:
		return pg.topUp(d, e, at, pos)
	}
	return nil
}

// topUp pays down a long's financing or adds to a short's margin (additional credit margin).
func (pg *tradingPage) topUp(d projections.Decoded, e events.MarginToppedUp, at, pos int64) error {
	p := pg.positions[e.PositionID]
	if p == nil {
		return d.Fail(fmt.Errorf("top-up %s of unknown position %s", e.TopUpNo, e.PositionID))
	}
	var err error
	if p.loan, err = dsum(p.loan, e.Loan.Neg()); err != nil {
		return d.Fail(err)
	}
	if p.margin, err = dsum(p.margin, e.Margin); err != nil {
		return d.Fail(err)
	}
	p.updatedAt, p.pos = at, pos
	p.refresh()
	return nil
}

func (pg *tradingPage) notice(member, typ string, r events.MarginRatio, deadline, reason string, positions []string, at, pos int64) {
	pg.notices = append(pg.notices, noticeFields.Args(&noticeRow{id: "n" + strconv.FormatInt(pos, 10), memberID: member, typ: typ,
		ratio: r.Ratio.String(), deadline: deadline, reason: reason, positions: strings.Join(positions, ","), createdAt: at, seq: pos}))
}

func (pg *tradingPage) fill(d projections.Decoded, e events.OrderFilled) error {
	o, p := pg.orders[e.OrderNo], pg.positions[e.PositionID]
	if o == nil || p == nil {
		return d.Fail(fmt.Errorf("fill of unknown order %s or position %s", e.OrderNo, e.PositionID))
	}
	at, pos := projections.Micros(d.Ev.Metadata.ServerTime), d.Ev.Position
	var err error
	o.filled += e.Shares
	if o.amount, err = dsum(o.amount, e.Amount); err != nil {
		return d.Fail(err)
	}
	if o.commission, err = dsum(o.commission, e.Commission); err != nil {
		return d.Fail(err)
	}
	if o.tax, err = dsum(o.tax, e.Tax); err != nil {
		return d.Fail(err)
	}
	o.status, o.updatedAt, o.position = OrderPartial, at, pos
	if e.Remaining == 0 {
		o.status = OrderFilled
	}
	open := o.intent == events.IntentOpen
	sign := decimal.NewFromInt(1)
	if open {
		p.shares += e.Shares
		p.bought += e.Shares
		if p.entryAmount, err = dsum(p.entryAmount, e.Amount); err != nil {
			return d.Fail(err)
		}
		if e.Remaining == 0 {
			p.openWorking = 0
		}
		if p.openedAt == 0 {
			p.openedAt = at
		}
	} else {
		sign = sign.Neg()
		p.shares -= e.Shares
		p.closing -= e.Shares
		p.exitShares += e.Shares
		if p.exitAmount, err = dsum(p.exitAmount, e.Amount); err != nil {
			return d.Fail(err)
		}
		if p.profit, err = dsum(p.profit, e.Profit); err != nil {
			return d.Fail(err)
		}
		if e.Remaining == 0 && p.closeOrder == e.OrderNo {
			p.closeOrder = ""
		}
		if p.shares == 0 {
			p.closedAt = at
		}
	}
	for _, f := range []struct {
		dst *string
		v   decimal.Decimal
	}{{&p.fees, e.Commission}, {&p.tax, e.Tax}, {&p.basis, e.Basis.Mul(sign)}, {&p.loan, e.Loan.Mul(sign)}, {&p.margin, e.Margin.Mul(sign)}} {
		if *f.dst, err = dsum(*f.dst, f.v); err != nil {
			return d.Fail(err)
		}
	}
	p.updatedAt, p.pos = at, pos
	p.refresh()
	return nil
}

func (pg *tradingPage) stop(d projections.Decoded, orderNo, positionID, status, reason string, shares int64) error {
	o, p := pg.orders[orderNo], pg.positions[positionID]
	if o == nil || p == nil {
		return d.Fail(fmt.Errorf("%s of unknown order %s or position %s", status, orderNo, positionID))
	}
	at, pos := projections.Micros(d.Ev.Metadata.ServerTime), d.Ev.Position
	o.status, o.reason, o.updatedAt, o.position = status, reason, at, pos
	if o.intent == events.IntentOpen {
		p.openWorking = 0
	} else {
		p.closing -= shares
		if p.closeOrder == orderNo {
			p.closeOrder = ""
		}
	}
	p.updatedAt, p.pos = at, pos
	p.refresh()
	return nil
}
