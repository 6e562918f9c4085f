// Package quant is AI quant's read model: every subscription with its amount, what is still
// held (what it subscribed, less what its orders took, plus what they gave back), its state, the orders its strategy placed, what they cost and brought back, and the
// positions they opened (shares and the basis left), for the member's "my subscriptions".
// An order is the subscription's when the strategy released money for its command id (the
// opening order) or when it closes a position the subscription opened.
package quant

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// States of a subscription.
const (
	StateRunning = "running"
	StateEnded   = "ended"
)

type subRow struct {
	subID, memberID, product, amount, held, state        string
	spent, proceeds, realized                            string
	orders, closeAll, createdAt, updatedAt, endedAt, seq int64
}

var subFields = projections.RowMap[subRow]{
	projections.Text("sub_id", func(r *subRow) *string { return &r.subID }),
	projections.Text("member_id", func(r *subRow) *string { return &r.memberID }),
	projections.Text("product", func(r *subRow) *string { return &r.product }),
	projections.Text("amount", func(r *subRow) *string { return &r.amount }),
	projections.Text("held", func(r *subRow) *string { return &r.held }),
	projections.Text("state", func(r *subRow) *string { return &r.state }),
	projections.Text("spent", func(r *subRow) *string { return &r.spent }),
	projections.Text("proceeds", func(r *subRow) *string { return &r.proceeds }),
	projections.Text("realized", func(r *subRow) *string { return &r.realized }),
	projections.Integer("orders", func(r *subRow) *int64 { return &r.orders }),
	projections.Integer("close_all", func(r *subRow) *int64 { return &r.closeAll }),
	projections.Integer("created_at", func(r *subRow) *int64 { return &r.createdAt }),
	projections.Integer("updated_at", func(r *subRow) *int64 { return &r.updatedAt }),
	projections.Integer("ended_at", func(r *subRow) *int64 { return &r.endedAt }),
	projections.Integer("seq", func(r *subRow) *int64 { return &r.seq }),
}

var subsTable = &projections.Table{
	Name:    "quant_subscriptions",
	Cols:    subFields.Columns(),
	Key:     []string{"sub_id"},
	Indexes: []string{"member_id, seq"},
	Fixed:   []string{"member_id", "product", "amount", "created_at", "seq"},
}

type posRow struct {
	positionID, subID, memberID, symbol, basis string
	shares, seq                                int64
}

var posFields = projections.RowMap[posRow]{
	projections.Text("position_id", func(r *posRow) *string { return &r.positionID }),
	projections.Text("sub_id", func(r *posRow) *string { return &r.subID }),
	projections.Text("member_id", func(r *posRow) *string { return &r.memberID }),
	projections.Text("symbol", func(r *posRow) *string { return &r.symbol }),
	projections.Text("basis", func(r *posRow) *string { return &r.basis }),
	projections.Integer("shares", func(r *posRow) *int64 { return &r.shares }),
	projections.Integer("seq", func(r *posRow) *int64 { return &r.seq }),
}

var positionsTable = &projections.Table{
	Name:    "quant_positions",
	Cols:    posFields.Columns(),
	Key:     []string{"position_id"},
	Indexes: []string{"sub_id, seq"},
	Fixed:   []string{"sub_id", "member_id", "symbol", "seq"},
}

type intentRow struct{ commandID, subID, memberID, symbol string }

var intentFields = projections.RowMap[intentRow]{
	projections.Text("command_id", func(r *intentRow) *string { return &r.commandID }),
	projections.Text("sub_id", func(r *intentRow) *string { return &r.subID }),
	projections.Text("member_id", func(r *intentRow) *string { return &r.memberID }),
	projections.Text("symbol", func(r *intentRow) *string { return &r.symbol }),
}

var intentsTable = &projections.Table{
	Name:  "quant_intents",
	Cols:  intentFields.Columns(),
	Key:   []string{"command_id"},
	Fixed: []string{"sub_id", "member_id", "symbol"},
}

var (
	subs = &projections.Keyed[subRow]{Table: subsTable, Fields: subFields, Key: func(r *subRow) string { return r.subID },
		What: "quant subscription", Changes: projections.KeyBy(
			projections.On(func(e events.QuantFundsReleased) string { return e.SubID }),
			projections.On(func(e events.QuantFundsReturned) string { return e.SubID }),
			projections.On(func(e events.QuantLeft) string { return e.SubID }),
		)}
	positions = &projections.Keyed[posRow]{Table: positionsTable, Fields: posFields, Key: func(r *posRow) string { return r.positionID },
		What: "quant position", Changes: projections.KeyBy(
			projections.On(func(e events.OrderPlaced) string { return e.PositionID }),
			projections.On(func(e events.OrderFilled) string { return e.PositionID }),
		)}
	intents = &projections.Keyed[intentRow]{Table: intentsTable, Fields: intentFields, Key: func(r *intentRow) string { return r.commandID },
		What: "quant order intent", Changes: func(d projections.Decoded) string {
			if _, ok := d.P.(events.OrderPlaced); ok {
				return d.Ev.Metadata.CommandID
			}
			return ""
		}}
)

// Partitioned: a subscription, its order intents and its positions are made on the subscriber's
// account stream, with its member, and changed only by events of the same member (sub and the
// intent and position look-ups check it); the strategy's orders and fills are on that stream too.
// Subscription ids derive from the member, an order's command id from the subscription.
var projector = &projections.Projector{
	Name:        "quant",
	Version:     1,
	Partitioned: true,
	Tables:      []*projections.Table{subsTable, positionsTable, intentsTable},
	Wants: projections.Wanting(events.QuantSubscribed{}, events.QuantFundsReleased{}, events.QuantFundsReturned{}, events.QuantLeft{},
		events.OrderPlaced{}, events.OrderFilled{}),
	Apply: apply,
}

func init() { projections.Register(projector) }

type page struct {
	subs      *projections.PageRows[subRow]
	positions *projections.PageRows[posRow]
	intents   *projections.PageRows[intentRow]
}

// apply reads the rows earlier pages created that this page may change: the subscriptions its
// events name, and those of the intents and positions its orders name, which are read first.
func apply(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	pg := page{subs: subs.Page(evs), positions: positions.Page(evs), intents: intents.Page(evs)}
	if err := pg.intents.Load(ctx, w); err != nil {
		return err
	}
	pg.intents.Each(func(r *intentRow) { pg.subs.Need(r.subID) })
	if err := pg.positions.Load(ctx, w); err != nil {
		return err
	}
	pg.positions.Each(func(r *posRow) { pg.subs.Need(r.subID) })
	return projections.FoldPage(ctx, w, evs, pg.apply, pg.subs, pg.positions, pg.intents)
}

func (pg *page) apply(d projections.Decoded) error {
	at := projections.Micros(d.Ev.Metadata.ServerTime)
	member, err := projections.MemberOf(d.Ev.Stream)
	if err != nil {
		return d.Fail(err)
	}
	sub := func(id string) *subRow {
		r := pg.subs.Row(id)
		if r == nil || r.memberID != member {
			return nil
		}
		r.updatedAt = at
		return r
	}
	switch e := d.P.(type) {
	case events.QuantSubscribed:
		pg.subs.Put(&subRow{subID: e.SubID, memberID: member, product: e.Product, amount: e.Amount.String(), held: e.Amount.String(),
			state: StateRunning, spent: "0", proceeds: "0", realized: "0", createdAt: at, updatedAt: at, seq: d.Ev.Position})
	case events.QuantFundsReleased:
		r := sub(e.SubID)
		if r == nil {
			return d.Fail(fmt.Errorf("quant subscription %s released but never made", e.SubID))
		}
		r.held = projections.AddText(r.held, e.Amount.Neg())
		pg.intents.Put(&intentRow{commandID: e.OrderCommandID, subID: e.SubID, memberID: member, symbol: e.Symbol})
	case events.QuantFundsReturned:
		r := sub(e.SubID)
		if r == nil {
			return d.Fail(fmt.Errorf("quant subscription %s returned to but never made", e.SubID))
		}
		r.held = projections.AddText(r.held, e.Amount)
	case events.QuantLeft:
		r := sub(e.SubID)
		if r == nil {
			return d.Fail(fmt.Errorf("quant subscription %s left but never made", e.SubID))
		}
		r.held, r.state, r.endedAt = projections.AddText(r.held, e.Released.Neg()), StateEnded, at
		if e.Close {
			r.closeAll = 1
		}
	case events.OrderPlaced:
		var r *subRow
		if in := pg.intents.Row(d.Ev.Metadata.CommandID); in != nil && in.memberID == member && e.Intent == events.IntentOpen {
			if r = sub(in.subID); r != nil {
				pg.positions.Put(&posRow{positionID: e.PositionID, subID: in.subID, memberID: member, symbol: in.symbol,
					basis: "0", seq: d.Ev.Position})
			}
		} else if p := pg.positions.Row(e.PositionID); p != nil && p.memberID == member && e.Intent == events.IntentClose {
			r = sub(p.subID)
		}
		if r != nil {
			r.orders++
		}
	case events.OrderFilled:
		p := pg.positions.Row(e.PositionID)
		if p == nil || p.memberID != member {
			return nil
		}
		r := sub(p.subID)
		if r == nil {
			return nil
		}
		if e.Side == events.SideBuy {
			p.shares += e.Shares
			p.basis = projections.AddText(p.basis, e.Basis)
			r.spent = projections.AddText(r.spent, e.Cash.Neg())
		} else {
			p.shares -= e.Shares
			p.basis = projections.AddText(p.basis, e.Basis.Neg())
			r.proceeds, r.realized = projections.AddText(r.proceeds, e.Cash), projections.AddText(r.realized, e.Profit)
		}
	}
	return nil
}

// Subscription is one subscription as its member sees it.
type Subscription struct {
	SubID, MemberID, Product, State         string
	Amount, Held, Spent, Proceeds, Realized decimal.Decimal
	Orders                                  int64
	CloseAll                                bool
	CreatedAt, UpdatedAt                    time.Time
	EndedAt                                 *time.Time
	Positions                               []Position
}

// Position is what a subscription's strategy holds of a symbol: shares and the basis left.
type Position struct {
	PositionID, Symbol string
	Shares             int64
	Basis              decimal.Decimal
}

// MemberSubscriptions lists a member's subscriptions, newest first, with their open positions.
func MemberSubscriptions(ctx context.Context, db *projections.Reader, memberID string) ([]Subscription, error) {
	return query(ctx, db, "SELECT "+subFields.List()+" FROM quant_subscriptions WHERE member_id = ? ORDER BY seq DESC LIMIT 100",
		memberID)
}

// MemberSubscription is one of the member's subscriptions (projections.ErrNotFound when the
// member has none of that id).
func MemberSubscription(ctx context.Context, db *projections.Reader, memberID, subID string) (Subscription, error) {
	out, err := query(ctx, db, "SELECT "+subFields.List()+" FROM quant_subscriptions WHERE member_id = ? AND sub_id = ?", memberID, subID)
	if err != nil {
		return Subscription{}, err
	}
	if len(out) == 0 {
		return Subscription{}, projections.ErrNotFound
	}
	return out[0], nil
}

func query(ctx context.Context, db *projections.Reader, q string, args ...any) ([]Subscription, error) {
	var out []Subscription
	err := db.Query(ctx, "quant subscriptions", q, args, func(rows projections.Rows) error {
		var r subRow
		if err := subFields.Scan(rows, &r); err != nil {
			return err
		}
		s := Subscription{SubID: r.subID, MemberID: r.memberID, Product: r.product, State: r.state, Amount: projections.TextDecimal(r.amount),
			Held: projections.TextDecimal(r.held), Spent: projections.TextDecimal(r.spent), Proceeds: projections.TextDecimal(r.proceeds), Realized: projections.TextDecimal(r.realized), Orders: r.orders,
			CloseAll: r.closeAll == 1, CreatedAt: projections.FromMicros(r.createdAt), UpdatedAt: projections.FromMicros(r.updatedAt)}
		if r.endedAt != 0 {
			t := projections.FromMicros(r.endedAt)
			s.EndedAt = &t
		}
		out = append(out, s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return out, nil
	}
	bySub := map[string]int{}
	ids := make([]any, 0, len(out))
	for i, s := range out {
		bySub[s.SubID] = i
		ids = append(ids, s.SubID)
	}
	q2 := "SELECT " + posFields.List() + " FROM quant_positions WHERE member_id = ? AND shares > 0 AND sub_id IN (" + projections.Placeholders(len(ids)) + ") ORDER BY seq"
	err = db.Query(ctx, "quant positions", q2, append([]any{out[0].MemberID}, ids...), func(rows projections.Rows) error {
		var r posRow
		if err := posFields.Scan(rows, &r); err != nil {
			return err
		}
		i := bySub[r.subID]
		out[i].Positions = append(out[i].Positions, Position{PositionID: r.positionID, Symbol: r.symbol, Shares: r.shares, Basis: projections.TextDecimal(r.basis)})
		return nil
	})
	return out, err
}
