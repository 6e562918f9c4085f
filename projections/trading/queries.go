package trading

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// Order is one order as members see it.
type Order struct {
	OrderNo, MemberID, PositionID, Intent string
	Symbol, Name, Kind                    string
	Side, Direction, Type                 string
	Shares                                int64
	OddLot, DayTrade                      bool
	Price, Leverage                       decimal.Decimal // Price: the limit, or a market order's protective price
	PlacedBy, TradingDay                  string
	Status, Reason                        string
	Filled                                int64
	Amount, Commission, Tax               decimal.Decimal
	CreatedAt, UpdatedAt                  time.Time
	// The ticket in Taiwan terms; empty for orders placed without them (see Ticket).
	Condition, Session, TimeInForce string
	// Origin is what placed the order for the member ("" its own ticket): a copy-trade follow,
	// OriginName the mentor it copies.
	Origin, OriginName string
}

// Ticket is the order's condition, session and time in force, those of its ticket or, for an
// order placed without them, the ones it traded under: short sale, margin (leverage above 1), day
// trade or cash; odd lots in the intraday odd-lot session, board lots in the regular one; ROD.
func (o Order) Ticket() (condition, session, tif string) {
	condition, session, tif = o.Condition, o.Session, o.TimeInForce
	if condition == "" {
		switch {
		case o.Direction == "short":
			condition = "short"
		case o.Leverage.GreaterThan(decimal.NewFromInt(1)):
			condition = "margin"
		case o.DayTrade:
			condition = "day_trade"
		default:
			condition = "cash"
		}
	}
	if session == "" {
		session = "regular"
		if o.OddLot {
			session = "odd_intraday"
		}
	}
	if tif == "" {
		tif = "ROD"
	}
	return condition, session, tif
}

// AvgPrice is the average fill price, zero before the first fill.
func (o Order) AvgPrice() decimal.Decimal {
	if o.Filled == 0 {
		return decimal.Zero
	}
	return o.Amount.DivRound(decimal.NewFromInt(o.Filled), 4)
}

// Position is one position: the shares one opening order bought (long) or sold short.
type Position struct {
	ID, MemberID, Symbol, Name, Kind, Direction string
	Leverage                                    decimal.Decimal
	DayTrade                                    bool
	OpenDay, Status                             string
	Shares, Closing                             int64 // held now; of them in a working closing order
	Bought, ExitShares                          int64 // opened in all; closed in all
	EntryAmount, ExitAmount                     decimal.Decimal
	Fees, Tax                                   decimal.Decimal // paid on both sides
	Loan, Margin                                decimal.Decimal // financing outstanding (long), margin held (short)
	Basis                                       decimal.Decimal // long: cost of the held shares with commission; short: their net sale proceeds
	Profit                                      decimal.Decimal // realised
	OpenWorking                                 bool
	CloseOrder                                  string
	OpenedAt, ClosedAt, CreatedAt, UpdatedAt    time.Time // OpenedAt, ClosedAt zero until they happen
}

// EntryPrice is the average opening price, zero before the first fill.
func (p Position) EntryPrice() decimal.Decimal {
	if p.Bought == 0 {
		return decimal.Zero
	}
	return p.EntryAmount.DivRound(decimal.NewFromInt(p.Bought), 4)
}

// ExitPrice is the average closing price, zero before the first close.
func (p Position) ExitPrice() decimal.Decimal {
	if p.ExitShares == 0 {
		return decimal.Zero
	}
	return p.ExitAmount.DivRound(decimal.NewFromInt(p.ExitShares), 4)
}

// Notice is a margin notice the member sees: a margin call, the call met, a forced close.
type Notice struct {
	ID, Type         string
	Ratio            decimal.Decimal
	Deadline, Reason string
	Positions        []string
	CreatedAt        time.Time
}

func decs(ss ...string) ([]decimal.Decimal, error) {
	out := make([]decimal.Decimal, len(ss))
	for i, s := range ss {
		v, err := decimal.NewFromString(s)
		if err != nil {
			return nil, fmt.Errorf("stored decimal %q: %w", s, err)
		}
		out[i] = v
	}
	return out, nil
}

func (r *orderRow) order() (Order, error) {
	v, err := decs(r.price, r.leverage, r.amount, r.commission, r.tax)
	if err != nil {
		return Order{}, fmt.Errorf("order %s: %w", r.orderNo, err)
	}
	return Order{OrderNo: r.orderNo, MemberID: r.memberID, PositionID: r.positionID, Intent: r.intent, Symbol: r.symbol, Name: r.name,
		Kind: r.kind, Side: r.side, Direction: r.direction, Type: r.typ, Shares: r.shares, OddLot: r.oddLot != 0, DayTrade: r.dayTrade != 0,
		Price: v[0], Leverage: v[1], PlacedBy: r.placedBy, TradingDay: r.tradingDay, Status: r.status, Reason: r.reason,
		Filled: r.filled, Amount: v[2], Commission: v[3], Tax: v[4], CreatedAt: projections.FromMicros(r.createdAt), UpdatedAt: projections.FromMicros(r.updatedAt),
		Condition: r.condition, Session: r.session, TimeInForce: r.tif, Origin: r.origin, OriginName: r.originName}, nil
}

func optMicros(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return projections.FromMicros(v)
}

func (r *positionRow) position() (Position, error) {
	v, err := decs(r.leverage, r.entryAmount, r.exitAmount, r.fees, r.tax, r.loan, r.margin, r.basis, r.profit)
	if err != nil {
		return Position{}, fmt.Errorf("position %s: %w", r.id, err)
	}
	return Position{ID: r.id, MemberID: r.memberID, Symbol: r.symbol, Name: r.name, Kind: r.kind, Direction: r.direction,
		Leverage: v[0], DayTrade: r.dayTrade != 0, OpenDay: r.openDay, Status: r.status, Shares: r.shares, Closing: r.closing,
		Bought: r.bought, ExitShares: r.exitShares, EntryAmount: v[1], ExitAmount: v[2], Fees: v[3], Tax: v[4], Loan: v[5],
		Margin: v[6], Basis: v[7], Profit: v[8], OpenWorking: r.openWorking != 0, CloseOrder: r.closeOrder,
		OpenedAt: optMicros(r.openedAt), ClosedAt: optMicros(r.closedAt), CreatedAt: projections.FromMicros(r.createdAt), UpdatedAt: projections.FromMicros(r.updatedAt)}, nil
}

// inList is "col IN (?, ...)" with its arguments.
func inList(col string, vals []string) (string, []any) {
	args := make([]any, len(vals))
	for i, v := range vals {
		args[i] = v
	}
	return col + " IN (" + projections.Placeholders(len(vals)) + ")", args
}

// Orders lists a member's orders with one of statuses (all when none), newest first.
func Orders(ctx context.Context, db *projections.Reader, memberID string, statuses []string, page, size int) ([]Order, bool, error) {
	limit, offset := projections.PageArgs(page, size)
	where, args := "member_id = ?", []any{memberID}
	if len(statuses) > 0 {
		in, more := inList("status", statuses)
		where, args = where+" AND "+in, append(args, more...)
	}
	var out []Order
	err := db.Query(ctx, "orders", "SELECT "+orderFields.List()+" FROM trade_orders WHERE "+where+" ORDER BY seq DESC LIMIT ? OFFSET ?",
		append(args, limit, offset), projections.Collect(&out, orderFields, (*orderRow).order))
	if err != nil {
		return nil, false, err
	}
	return projections.TrimPage(out, limit)
}

// OrdersOfPosition lists the orders that opened and closed a position, oldest first.
func OrdersOfPosition(ctx context.Context, db *projections.Reader, positionID string) ([]Order, error) {
	out := []Order{}
	err := db.Query(ctx, "orders of position", "SELECT "+orderFields.List()+" FROM trade_orders WHERE position_id = ? ORDER BY seq",
		[]any{positionID}, projections.Collect(&out, orderFields, (*orderRow).order))
	return out, err
}

// Positions lists a member's positions with one of statuses (all when none), newest first; page
// 0 lists them all.
func Positions(ctx context.Context, db *projections.Reader, memberID string, statuses []string, page, size int) ([]Position, bool, error) {
	where, args := "member_id = ?", []any{memberID}
	if len(statuses) > 0 {
		in, more := inList("status", statuses)
		where, args = where+" AND "+in, append(args, more...)
	}
	q := "SELECT " + positionFields.List() + " FROM trade_positions WHERE " + where + " ORDER BY seq DESC"
	limit := 0
	if page > 0 {
		var offset int
		limit, offset = projections.PageArgs(page, size)
		q += " LIMIT ? OFFSET ?"
		args = append(args, limit, offset)
	}
	var out []Position
	err := db.Query(ctx, "positions", q, args, projections.Collect(&out, positionFields, (*positionRow).position))
	if err != nil {
		return nil, false, err
	}
	if limit == 0 {
		if out == nil {
			out = []Position{}
		}
		return out, false, nil
	}
	return projections.TrimPage(out, limit)
}

// Holdings is what the auditor compares with the share accounts (audit.WithShares): the
// positions of this read model.
type Holdings struct{ db *projections.Reader }

// HoldingsIn reads the holdings from db.
func HoldingsIn(db *projections.Reader) Holdings { return Holdings{db: db} }

// HeldShares calls each for every position of the member with the shares it holds now.
func (h Holdings) HeldShares(ctx context.Context, memberID string, each func(positionID, symbol, direction string, shares int64)) error {
	ps, _, err := Positions(ctx, h.db, memberID, nil, 0, 0)
	if err != nil {
		return fmt.Errorf("held shares of %s: %w", memberID, err)
	}
	for _, p := range ps {
		each(p.ID, p.Symbol, p.Direction, p.Shares)
	}
	return nil
}

// PositionByID returns one position, or ErrNotFound.
func PositionByID(ctx context.Context, db *projections.Reader, id string) (Position, error) {
	var r positionRow
	row := db.QueryRow(ctx, "SELECT "+positionFields.List()+" FROM trade_positions WHERE id = ?", id)
	if err := projections.RowErr(positionFields.Scan(row, &r), "position "+id); err != nil {
		return Position{}, err
	}
	return r.position()
}

// PositionsOpenedBy is the member's positions (open and closed) whose opening order came from
// one of origins (the follows or strategy subscriptions that placed it), by origin.
func PositionsOpenedBy(ctx context.Context, db *projections.Reader, memberID string, origins []string) (map[string][]Position, error) {
	out := map[string][]Position{}
	if len(origins) == 0 {
		return out, nil
	}
	in, args := inList("origin", origins)
	originOf := map[string]string{} // position id -> origin
	err := db.Query(ctx, "positions opened by origin", "SELECT position_id, origin FROM trade_orders WHERE member_id = ? AND intent = ? AND "+in,
		append([]any{memberID, events.IntentOpen}, args...), func(rows projections.Rows) error {
			var id, origin string
			if err := rows.Scan(&id, &origin); err != nil {
				return err
			}
			originOf[id] = origin
			return nil
		})
	if err != nil || len(originOf) == 0 {
		return out, err
	}
	in, args = inList("id", slices.Sorted(maps.Keys(originOf)))
	var ps []Position
	if err := db.Query(ctx, "positions by id", "SELECT "+positionFields.List()+" FROM trade_positions WHERE "+in+" ORDER BY seq", args,
		projections.Collect(&ps, positionFields, (*positionRow).position)); err != nil {
		return nil, err
	}
	for _, p := range ps {
		out[originOf[p.ID]] = append(out[originOf[p.ID]], p)
	}
	return out, nil
}

// RealisedProfit is the profit all of a member's closes realised, net of fees and taxes.
func RealisedProfit(ctx context.Context, db *projections.Reader, memberID string) (decimal.Decimal, error) {
	sum := decimal.Zero
	err := db.Query(ctx, "realised profit", "SELECT profit FROM trade_positions WHERE member_id = ? AND exit_shares > 0",
		[]any{memberID}, func(rows projections.Rows) error {
			var s string
			if err := rows.Scan(&s); err != nil {
				return err
			}
			v, err := decimal.NewFromString(s)
			if err != nil {
				return err
			}
			sum = sum.Add(v)
			return nil
		})
	return sum, err
}

// Notices lists a member's margin notices, newest first.
func Notices(ctx context.Context, db *projections.Reader, memberID string, page, size int) ([]Notice, bool, error) {
	limit, offset := projections.PageArgs(page, size)
	var out []Notice
	err := db.Query(ctx, "notices", "SELECT "+noticeFields.List()+" FROM trade_notices WHERE member_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?",
		[]any{memberID, limit, offset}, projections.Collect(&out, noticeFields, func(r *noticeRow) (Notice, error) {
			n := Notice{ID: r.id, Type: r.typ, Deadline: r.deadline, Reason: r.reason, CreatedAt: projections.FromMicros(r.createdAt)}
			var err error
			if n.Ratio, err = decimal.NewFromString(r.ratio); err != nil {
				return Notice{}, err
			}
			n.Positions = []string{}
			if r.positions != "" {
				n.Positions = strings.Split(r.positions, ",")
			}
			return n, nil
		}))
	if err != nil {
		return nil, false, err
	}
	return projections.TrimPage(out, limit)
}
