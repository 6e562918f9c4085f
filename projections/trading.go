package projections

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
)

// The trading projection: each member's orders, positions (one per opening order), the money
// lines of every fill (trade amount, commission, tax, financing, short collateral; fund history
// merges them) and the margin notices (calls, forced closes). Positions evolve from the figures
// each OrderFilled records (basis, loan, margin, profit), as the account aggregate does.

// Trade line types of the fund history: together the lines of one fill are exactly what it did
// to the member's cash.
const (
	RecordTrade      = "trade"      // the traded amount: negative bought, positive sold
	RecordFee        = "fee"        // the broker's commission
	RecordTax        = "tax"        // the securities transaction tax
	RecordFinancing  = "financing"  // margin financing drawn (positive) or repaid (negative)
	RecordCollateral = "collateral" // short proceeds and margin held by the broker (negative) or given back
)

// Position statuses, as the write side defines them.
const (
	PositionPending   = "pending"
	PositionHolding   = "holding"
	PositionClosing   = "closing"
	PositionClosed    = "closed"
	PositionCancelled = "cancelled"
)

// Order statuses.
const (
	OrderPending   = "pending"
	OrderPartial   = "partial"
	OrderFilled    = "filled"
	OrderCancelled = "cancelled"
	OrderExpired   = "expired"
)

var tradeOrdersTable = &table{
	name: "trade_orders",
	cols: []column{
		{"order_no", kText}, {"member_id", kText}, {"position_id", kText}, {"intent", kText}, {"symbol", kText}, {"name", kText},
		{"kind", kText}, {"side", kText}, {"direction", kText}, {"type", kText}, {"shares", kInt}, {"odd_lot", kInt},
		{"price", kText}, {"leverage", kText}, {"day_trade", kInt}, {"placed_by", kText}, {"trading_day", kText},
		{"status", kText}, {"filled", kInt}, {"amount", kText}, {"commission", kText}, {"tax", kText}, {"reason", kText},
		{"created_at", kInt}, {"updated_at", kInt}, {"seq", kInt}, {"position", kInt},
	},
	key:     []string{"order_no"},
	indexes: []string{"member_id, seq", "member_id, status, seq", "status"},
}

var tradePositionsTable = &table{
	name:    "trade_positions",
	cols:    positionFields.columns(),
	key:     []string{"id"},
	indexes: []string{"member_id, status, seq", "member_id, seq"},
}

var tradeMovesTable = &table{
	name: "trade_moves",
	cols: []column{
		{"record_id", kText}, {"member_id", kText}, {"type", kText}, {"order_no", kText}, {"currency", kText}, {"amount", kText},
		{"symbol", kText}, {"remark", kText}, {"settle_date", kText}, {"created_at", kInt}, {"leg", kInt}, {"seq", kInt}, {"position", kInt},
	},
	key:     []string{"record_id"},
	indexes: []string{"member_id, seq", "member_id, type, seq"},
}

var tradeNoticesTable = &table{
	name: "trade_notices",
	cols: []column{
		{"id", kText}, {"member_id", kText}, {"type", kText}, {"ratio", kText}, {"deadline", kText}, {"reason", kText},
		{"positions", kText}, {"created_at", kInt}, {"seq", kInt},
	},
	key:     []string{"id"},
	indexes: []string{"member_id, seq"},
}

var tradingProjector = &projector{
	name:    "trading",
	version: 1,
	unit:    accountUnit,
	money:   true,
	tables:  []*table{tradeOrdersTable, tradePositionsTable, tradeMovesTable, tradeNoticesTable},
	wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.OrderPlaced, events.OrderFilled, events.OrderCancelled, events.OrderExpired,
			events.MarginCallIssued, events.MarginCallMet, events.ForcedCloseStarted:
			return true
		}
		return false
	},
	apply: applyTrading,
}

// Registered from this file, like member_funds, so that the shared list stays untouched.
func init() { projectors = append(projectors, tradingProjector) }

type orderRow struct {
	orderNo, memberID, positionID, intent, symbol, name, kind, side, direction, typ string
	shares, oddLot                                                                  int64
	price, leverage                                                                 string
	dayTrade                                                                        int64
	placedBy, tradingDay, status                                                    string
	filled                                                                          int64
	amount, commission, tax, reason                                                 string
	createdAt, updatedAt, seq, position                                             int64
}

func (r *orderRow) args() []any {
	return []any{r.orderNo, r.memberID, r.positionID, r.intent, r.symbol, r.name, r.kind, r.side, r.direction, r.typ, r.shares,
		r.oddLot, r.price, r.leverage, r.dayTrade, r.placedBy, r.tradingDay, r.status, r.filled, r.amount, r.commission, r.tax,
		r.reason, r.createdAt, r.updatedAt, r.seq, r.position}
}

func (r *orderRow) scan(rows interface{ Scan(...any) error }) error {
	return rows.Scan(&r.orderNo, &r.memberID, &r.positionID, &r.intent, &r.symbol, &r.name, &r.kind, &r.side, &r.direction, &r.typ,
		&r.shares, &r.oddLot, &r.price, &r.leverage, &r.dayTrade, &r.placedBy, &r.tradingDay, &r.status, &r.filled, &r.amount,
		&r.commission, &r.tax, &r.reason, &r.createdAt, &r.updatedAt, &r.seq, &r.position)
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
var positionFields = rowMap[positionRow]{
	text("id", func(r *positionRow) *string { return &r.id }),
	text("member_id", func(r *positionRow) *string { return &r.memberID }),
	text("symbol", func(r *positionRow) *string { return &r.symbol }),
	text("name", func(r *positionRow) *string { return &r.name }),
	text("kind", func(r *positionRow) *string { return &r.kind }),
	text("direction", func(r *positionRow) *string { return &r.direction }),
	text("leverage", func(r *positionRow) *string { return &r.leverage }),
	integer("day_trade", func(r *positionRow) *int64 { return &r.dayTrade }),
	text("open_day", func(r *positionRow) *string { return &r.openDay }),
	text("status", func(r *positionRow) *string { return &r.status }),
	integer("shares", func(r *positionRow) *int64 { return &r.shares }),
	integer("closing", func(r *positionRow) *int64 { return &r.closing }),
	integer("bought", func(r *positionRow) *int64 { return &r.bought }),
	text("entry_amount", func(r *positionRow) *string { return &r.entryAmount }),
	integer("exit_shares", func(r *positionRow) *int64 { return &r.exitShares }),
	text("exit_amount", func(r *positionRow) *string { return &r.exitAmount }),
	text("fees", func(r *positionRow) *string { return &r.fees }),
	text("tax", func(r *positionRow) *string { return &r.tax }),
	text("loan", func(r *positionRow) *string { return &r.loan }),
	text("margin", func(r *positionRow) *string { return &r.margin }),
	text("basis", func(r *positionRow) *string { return &r.basis }),
	text("profit", func(r *positionRow) *string { return &r.profit }),
	integer("open_working", func(r *positionRow) *int64 { return &r.openWorking }),
	text("close_order", func(r *positionRow) *string { return &r.closeOrder }),
	integer("opened_at", func(r *positionRow) *int64 { return &r.openedAt }),
	integer("closed_at", func(r *positionRow) *int64 { return &r.closedAt }),
	integer("created_at", func(r *positionRow) *int64 { return &r.createdAt }),
	integer("updated_at", func(r *positionRow) *int64 { return &r.updatedAt }),
	integer("seq", func(r *positionRow) *int64 { return &r.seq }),
	integer("position", func(r *positionRow) *int64 { return &r.pos }),
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
	moves     [][]any
	notices   [][]any
}

func applyTrading(ctx context.Context, w *wtx, evs []decoded) error {
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
		os = append(os, r.args())
	}
	for _, r := range pg.positions {
		ps = append(ps, positionFields.args(r))
	}
	for _, up := range []struct {
		t    *table
		rows [][]any
	}{{tradeOrdersTable, os}, {tradePositionsTable, ps}, {tradeMovesTable, pg.moves}, {tradeNoticesTable, pg.notices}} {
		if err := w.upsert(ctx, up.t, up.rows); err != nil {
			return err
		}
	}
	return nil
}

// load reads the orders and positions this page's events change but did not create.
func (pg *tradingPage) load(ctx context.Context, w *wtx, evs []decoded) error {
	needOrders, needPositions := map[string]struct{}{}, map[string]struct{}{}
	created := map[string]bool{}
	for _, d := range evs {
		switch e := d.p.(type) {
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
		}
	}
	if err := w.selectIn(ctx, tradeOrdersTable, "order_no", keysOf(needOrders), func(rows *sql.Rows) error {
		r := &orderRow{}
		if err := r.scan(rows); err != nil {
			return err
		}
		pg.orders[r.orderNo] = r
		return nil
	}); err != nil {
		return err
	}
	return w.selectIn(ctx, tradePositionsTable, "id", keysOf(needPositions), func(rows *sql.Rows) error {
		r := &positionRow{}
		if err := positionFields.scan(rows, r); err != nil {
			return err
		}
		pg.positions[r.id] = r
		return nil
	})
}

func (pg *tradingPage) need(created map[string]bool, orders, positions map[string]struct{}, orderNo, positionID string) {
	if !created[orderNo] {
		orders[orderNo] = struct{}{}
	}
	if !created[positionID] {
		positions[positionID] = struct{}{}
	}
}

func (pg *tradingPage) apply(d decoded) error {
	member, err := memberOf(d.ev.Stream)
	if err != nil {
		return d.fail(err)
	}
	at, pos := micros(d.ev.Metadata.ServerTime), d.ev.Position
	switch e := d.p.(type) {
	case events.OrderPlaced:
		if pg.orders[e.OrderNo] != nil {
			return d.fail(fmt.Errorf("order %s placed twice", e.OrderNo))
		}
		pg.orders[e.OrderNo] = &orderRow{orderNo: e.OrderNo, memberID: member, positionID: e.PositionID, intent: e.Intent,
			symbol: e.Symbol, name: e.Name, kind: e.Kind, side: e.Side, direction: e.Direction, typ: e.Type, shares: e.Shares,
			oddLot: boolInt(e.OddLot), price: e.Price.String(), leverage: e.Leverage.String(), dayTrade: boolInt(e.DayTrade),
			placedBy: e.By, tradingDay: e.TradingDay, status: OrderPending, amount: "0", commission: "0", tax: "0",
			createdAt: at, updatedAt: at, seq: pos, position: pos}
		if e.Intent == events.IntentOpen {
			pg.positions[e.OrderNo] = &positionRow{id: e.OrderNo, memberID: member, symbol: e.Symbol, name: e.Name, kind: e.Kind,
				direction: e.Direction, leverage: e.Leverage.String(), dayTrade: boolInt(e.DayTrade), openDay: e.TradingDay,
				status: PositionPending, entryAmount: "0", exitAmount: "0", fees: "0", tax: "0", loan: "0", margin: "0", basis: "0",
				profit: "0", openWorking: 1, createdAt: at, updatedAt: at, seq: pos, pos: pos}
			return nil
		}
		p := pg.positions[e.PositionID]
		if p == nil {
			return d.fail(fmt.Errorf("order %s closes unknown position %s", e.OrderNo, e.PositionID))
		}
		p.closing += e.Shares
		p.closeOrder, p.updatedAt, p.pos = e.OrderNo, at, pos
		p.refresh()
	case events.OrderFilled:
		return pg.fill(d, member, e)
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
	}
	return nil
}

func (pg *tradingPage) notice(member, typ string, r events.MarginRatio, deadline, reason string, positions []string, at, pos int64) {
	list := ""
	for i, p := range positions {
		if i > 0 {
			list += ","
		}
		list += p
	}
	pg.notices = append(pg.notices, []any{"n" + strconv.FormatInt(pos, 10), member, typ, r.Ratio.String(), deadline, reason, list, at, pos})
}

// houseSum is what an event's postings put on a house account.
func houseSum(ps []events.Posting, account string) decimal.Decimal {
	var s decimal.Decimal
	for _, p := range ps {
		if p.Account == account {
			s = s.Add(p.Amount)
		}
	}
	return s
}

func (pg *tradingPage) fill(d decoded, member string, e events.OrderFilled) error {
	o, p := pg.orders[e.OrderNo], pg.positions[e.PositionID]
	if o == nil || p == nil {
		return d.fail(fmt.Errorf("fill of unknown order %s or position %s", e.OrderNo, e.PositionID))
	}
	at, pos := micros(d.ev.Metadata.ServerTime), d.ev.Position
	var err error
	o.filled += e.Shares
	if o.amount, err = dsum(o.amount, e.Amount); err != nil {
		return d.fail(err)
	}
	if o.commission, err = dsum(o.commission, e.Commission); err != nil {
		return d.fail(err)
	}
	if o.tax, err = dsum(o.tax, e.Tax); err != nil {
		return d.fail(err)
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
			return d.fail(err)
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
			return d.fail(err)
		}
		if p.profit, err = dsum(p.profit, e.Profit); err != nil {
			return d.fail(err)
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
			return d.fail(err)
		}
	}
	p.updatedAt, p.pos = at, pos
	p.refresh()
	// The member's side of each house leg: the lines add up to what the fill did to their cash.
	lines := []struct {
		typ     string
		account string
	}{{RecordTrade, events.HouseTradeClearing}, {RecordFee, events.HouseFeesRevenue}, {RecordTax, events.HouseTaxPayable},
		{RecordFinancing, events.HouseMarginLoans}, {RecordCollateral, events.HouseShortCollateral}}
	for leg, l := range lines {
		amt := houseSum(e.Postings, l.account).Neg()
		if amt.IsZero() {
			continue
		}
		settle := ""
		if l.typ == RecordTrade {
			settle = e.SettleDate
		}
		id := e.OrderNo + "/" + strconv.Itoa(e.Seq) + "/" + l.typ
		pg.moves = append(pg.moves, []any{id, member, l.typ, e.OrderNo, "TWD", amt.String(), o.symbol, o.name, settle, at, int64(leg), pos, pos})
	}
	return nil
}

func (pg *tradingPage) stop(d decoded, orderNo, positionID, status, reason string, shares int64) error {
	o, p := pg.orders[orderNo], pg.positions[positionID]
	if o == nil || p == nil {
		return d.fail(fmt.Errorf("%s of unknown order %s or position %s", status, orderNo, positionID))
	}
	at, pos := micros(d.ev.Metadata.ServerTime), d.ev.Position
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
