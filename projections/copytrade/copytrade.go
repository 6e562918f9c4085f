// Package copytrade is copy trading's read model: mentors and their profiles, the fills of their
// own orders since they opted in (the statistics are computed from them by the published rules,
// commands/rules/mentor), every follow with its commitment, spending, state and copy profit,
// and the orders mirrored into each follow (and the last one refused, with the reason).
package copytrade

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/mentor"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

type mentorRow struct {
	memberID, name, minAmount, profitShare, income string
	windowDays, since, updatedAt, seq              int64
}

var mentorFields = projections.RowMap[mentorRow]{
	projections.Text("member_id", func(r *mentorRow) *string { return &r.memberID }),
	projections.Text("display_name", func(r *mentorRow) *string { return &r.name }),
	projections.Text("min_amount", func(r *mentorRow) *string { return &r.minAmount }),
	projections.Text("profit_share", func(r *mentorRow) *string { return &r.profitShare }),
	projections.Text("share_income", func(r *mentorRow) *string { return &r.income }),
	projections.Integer("window_days", func(r *mentorRow) *int64 { return &r.windowDays }),
	projections.Integer("since", func(r *mentorRow) *int64 { return &r.since }),
	projections.Integer("updated_at", func(r *mentorRow) *int64 { return &r.updatedAt }),
	projections.Integer("seq", func(r *mentorRow) *int64 { return &r.seq }),
}

var mentorsTable = &projections.Table{Name: "copytrade_mentors", Cols: mentorFields.Columns(), Key: []string{"member_id"},
	Indexes: []string{"seq"}, Fixed: []string{"since", "seq"}}

type fillRow struct {
	memberID, positionID, cash, profit string
	seq, open, shares, at              int64
}

var fillFields = projections.RowMap[fillRow]{
	projections.Integer("seq", func(r *fillRow) *int64 { return &r.seq }),
	projections.Text("member_id", func(r *fillRow) *string { return &r.memberID }),
	projections.Text("position_id", func(r *fillRow) *string { return &r.positionID }),
	projections.Integer("open", func(r *fillRow) *int64 { return &r.open }),
	projections.Integer("shares", func(r *fillRow) *int64 { return &r.shares }),
	projections.Text("cash", func(r *fillRow) *string { return &r.cash }),
	projections.Text("profit", func(r *fillRow) *string { return &r.profit }),
	projections.Integer("at", func(r *fillRow) *int64 { return &r.at }),
}

var fillsTable = &projections.Table{Name: "copytrade_fills", Cols: fillFields.Columns(), Key: []string{"seq"},
	Indexes: []string{"member_id, seq"}, Fixed: []string{"member_id", "position_id", "open", "shares", "cash", "profit", "at"}}

type orderRow struct {
	orderNo, memberID, followID, intent, symbol, name, side, direction, price, status, profit string
	shares, filled, createdAt, updatedAt, seq                                                 int64
}

var orderFields = projections.RowMap[orderRow]{
	projections.Text("order_no", func(r *orderRow) *string { return &r.orderNo }),
	projections.Text("member_id", func(r *orderRow) *string { return &r.memberID }),
	projections.Text("follow_id", func(r *orderRow) *string { return &r.followID }),
	projections.Text("intent", func(r *orderRow) *string { return &r.intent }),
	projections.Text("symbol", func(r *orderRow) *string { return &r.symbol }),
	projections.Text("name", func(r *orderRow) *string { return &r.name }),
	projections.Text("side", func(r *orderRow) *string { return &r.side }),
	projections.Text("direction", func(r *orderRow) *string { return &r.direction }),
	projections.Text("price", func(r *orderRow) *string { return &r.price }),
	projections.Text("status", func(r *orderRow) *string { return &r.status }),
	projections.Text("profit", func(r *orderRow) *string { return &r.profit }),
	projections.Integer("shares", func(r *orderRow) *int64 { return &r.shares }),
	projections.Integer("filled", func(r *orderRow) *int64 { return &r.filled }),
	projections.Integer("created_at", func(r *orderRow) *int64 { return &r.createdAt }),
	projections.Integer("updated_at", func(r *orderRow) *int64 { return &r.updatedAt }),
	projections.Integer("seq", func(r *orderRow) *int64 { return &r.seq }),
}

var ordersTable = &projections.Table{Name: "copytrade_orders", Cols: orderFields.Columns(), Key: []string{"order_no"},
	Indexes: []string{"follow_id, seq"}, Fixed: []string{"member_id", "follow_id", "intent", "symbol", "side", "direction", "created_at", "seq"}}

type followRow struct {
	followID, followerID, mentorID, mentorName, amount, spent, returned, released string
	proceeds, profit, share, profitShare, state, ends                             string
	refusedReason, refusedSymbol, refusedDirection                                string // the last mirrored order refused
	days, closed, createdAt, updatedAt, seq, refusedShares, refusedAt             int64
}

var followFields = projections.RowMap[followRow]{
	projections.Text("follow_id", func(r *followRow) *string { return &r.followID }),
	projections.Text("follower_id", func(r *followRow) *string { return &r.followerID }),
	projections.Text("mentor_id", func(r *followRow) *string { return &r.mentorID }),
	projections.Text("mentor_name", func(r *followRow) *string { return &r.mentorName }),
	projections.Text("amount", func(r *followRow) *string { return &r.amount }),
	projections.Text("spent", func(r *followRow) *string { return &r.spent }),
	projections.Text("returned", func(r *followRow) *string { return &r.returned }),
	projections.Text("proceeds", func(r *followRow) *string { return &r.proceeds }),
	projections.Text("released", func(r *followRow) *string { return &r.released }),
	projections.Text("profit", func(r *followRow) *string { return &r.profit }),
	projections.Text("share", func(r *followRow) *string { return &r.share }),
	projections.Text("profit_share", func(r *followRow) *string { return &r.profitShare }),
	projections.Text("state", func(r *followRow) *string { return &r.state }),
	projections.Text("ends", func(r *followRow) *string { return &r.ends }),
	projections.Text("refused_reason", func(r *followRow) *string { return &r.refusedReason }),
	projections.Text("refused_symbol", func(r *followRow) *string { return &r.refusedSymbol }),
	projections.Text("refused_direction", func(r *followRow) *string { return &r.refusedDirection }),
	projections.Integer("refused_shares", func(r *followRow) *int64 { return &r.refusedShares }),
	projections.Integer("refused_at", func(r *followRow) *int64 { return &r.refusedAt }),
	projections.Integer("days", func(r *followRow) *int64 { return &r.days }),
	projections.Integer("closed", func(r *followRow) *int64 { return &r.closed }),
	projections.Integer("created_at", func(r *followRow) *int64 { return &r.createdAt }),
	projections.Integer("updated_at", func(r *followRow) *int64 { return &r.updatedAt }),
	projections.Integer("seq", func(r *followRow) *int64 { return &r.seq }),
}

var followsTable = &projections.Table{Name: "copytrade_follows", Cols: followFields.Columns(), Key: []string{"follow_id"},
	Indexes: []string{"follower_id, seq", "mentor_id, seq"},
	Fixed:   []string{"follower_id", "mentor_id", "mentor_name", "amount", "profit_share", "days", "ends", "created_at", "seq"}}

// Partitioned: every event it applies is on an account stream, and every row is made with the
// member of that stream and changed only by later events of it: a mentor's profile, income and
// fills by the mentor's (ProfitShareReceived too), a follow and the orders mirrored into it by
// the follower's (the process places mirrored orders on the follower's stream with the follow as
// their origin), a mentor's own orders by the mentor's. Follow ids and order numbers derive from
// the member. What combines members (a mentor's followers and the amount they copy) is summed
// when read (Mentors), not stored.
var projector = &projections.Projector{
	Name:        "copytrade",
	Version:     3, // 2: order direction, follows' last refused mirrored order; fills without basis (Compute reads cash); 3: follows' proceeds
	Partitioned: true,
	Tables:      []*projections.Table{mentorsTable, fillsTable, ordersTable, followsTable},
	Wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.MentorProfileSet, events.FollowStarted, events.CopyFundsSpent, events.CopyFundsReturned, events.FollowStopRequested,
			events.FollowStopped, events.ProfitShareReceived, events.OrderPlaced, events.OrderFilled, events.OrderCancelled, events.OrderExpired:
			return true
		}
		return false
	},
	Apply: apply,
}

func init() { projections.Register(projector) }

type page struct {
	mentors map[string]*mentorRow
	orders  map[string]*orderRow
	follows map[string]*followRow
	fills   []*fillRow
}

func apply(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	pg := page{mentors: map[string]*mentorRow{}, orders: map[string]*orderRow{}, follows: map[string]*followRow{}}
	if err := pg.load(ctx, w, evs); err != nil {
		return err
	}
	for _, d := range evs {
		if err := pg.apply(d); err != nil {
			return err
		}
	}
	rows := func(n int, each func(add func([]any))) [][]any {
		out := make([][]any, 0, n)
		each(func(r []any) { out = append(out, r) })
		return out
	}
	if err := w.Upsert(ctx, mentorsTable, rows(len(pg.mentors), func(add func([]any)) {
		for _, r := range pg.mentors {
			add(mentorFields.Args(r))
		}
	})); err != nil {
		return err
	}
	if err := w.Upsert(ctx, fillsTable, rows(len(pg.fills), func(add func([]any)) {
		for _, r := range pg.fills {
			add(fillFields.Args(r))
		}
	})); err != nil {
		return err
	}
	if err := w.Upsert(ctx, ordersTable, rows(len(pg.orders), func(add func([]any)) {
		for _, r := range pg.orders {
			if r.memberID != "" {
				add(orderFields.Args(r))
			}
		}
	})); err != nil {
		return err
	}
	return w.Upsert(ctx, followsTable, rows(len(pg.follows), func(add func([]any)) {
		for _, r := range pg.follows {
			add(followFields.Args(r))
		}
	}))
}

// load reads the rows the page needs that earlier pages wrote: the mentors among the page's
// members, the orders its fills and ends name, the follows it changes.
func (pg *page) load(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	members, orders, follows := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, d := range evs {
		if m, err := projections.MemberOf(d.Ev.Stream); err == nil {
			members[m] = true
		}
		switch e := d.P.(type) {
		case events.OrderFilled:
			orders[e.OrderNo] = true
		case events.OrderCancelled:
			orders[e.OrderNo] = true
		case events.OrderExpired:
			orders[e.OrderNo] = true
		case events.CopyFundsSpent:
			follows[e.FollowID] = true
		case events.CopyFundsReturned:
			follows[e.FollowID] = true
		case events.FollowStopRequested:
			follows[e.FollowID] = true
		case events.FollowStopped:
			follows[e.FollowID] = true
		case events.OrderPlaced:
			if e.Origin != "" {
				follows[e.Origin] = true
			}
		}
	}
	if err := mentorFields.SelectIn(ctx, w, mentorsTable, "member_id", projections.KeysOf(members), func(r *mentorRow) {
		pg.mentors[r.memberID] = r
	}); err != nil {
		return err
	}
	if err := orderFields.SelectIn(ctx, w, ordersTable, "order_no", projections.KeysOf(orders), func(r *orderRow) {
		pg.orders[r.orderNo] = r
		if r.followID != "" {
			follows[r.followID] = true
		}
	}); err != nil {
		return err
	}
	return followFields.SelectIn(ctx, w, followsTable, "follow_id", projections.KeysOf(follows), func(r *followRow) {
		pg.follows[r.followID] = r
	})
}

// add is a + b as the rows keep them (decimal strings).
func add(a string, b decimal.Decimal) string {
	v, err := decimal.NewFromString(a)
	if err != nil {
		v = decimal.Zero
	}
	return v.Add(b).String()
}

func (pg *page) apply(d projections.Decoded) error {
	at := projections.Micros(d.Ev.Metadata.ServerTime)
	member, err := projections.MemberOf(d.Ev.Stream)
	if err != nil {
		return nil // no account stream
	}
	follow := func(id string) (*followRow, error) {
		r := pg.follows[id]
		if r == nil {
			return nil, d.Fail(fmt.Errorf("follow %s changed but never started", id))
		}
		r.updatedAt = at
		return r, nil
	}
	switch e := d.P.(type) {
	case events.MentorProfileSet:
		r := pg.mentors[member]
		if r == nil {
			r = &mentorRow{memberID: member, income: "0", since: at, seq: d.Ev.Position}
			pg.mentors[member] = r
		}
		r.name, r.minAmount, r.profitShare, r.windowDays, r.updatedAt = e.DisplayName, e.MinAmount.String(), e.ProfitShare.String(),
			int64(e.WindowDays), at
	case events.ProfitShareReceived:
		if r := pg.mentors[member]; r != nil {
			r.income, r.updatedAt = add(r.income, e.Amount), at
		}
	case events.FollowStarted:
		pg.follows[e.FollowID] = &followRow{followID: e.FollowID, followerID: member, mentorID: e.MentorID, mentorName: e.MentorName,
			amount: e.Amount.String(), spent: "0", returned: "0", proceeds: "0", released: "0", profit: "0", share: "0", profitShare: e.ProfitShare.String(),
			state: events.FollowInProgress, ends: e.Ends, days: int64(e.Days), createdAt: at, updatedAt: at, seq: d.Ev.Position}
	case events.CopyFundsSpent:
		r, err := follow(e.FollowID)
		if err != nil {
			return err
		}
		r.spent = add(r.spent, e.Amount)
	case events.CopyFundsReturned:
		r, err := follow(e.FollowID)
		if err != nil {
			return err
		}
		if e.Reason == events.CopyReturnSold { // a sale's proceeds: not spending undone
			r.proceeds = add(r.proceeds, e.Amount)
		} else {
			r.returned = add(r.returned, e.Amount)
		}
		if e.Symbol != "" { // a refused order's part (not a done order's cash)
			r.refusedReason, r.refusedSymbol, r.refusedDirection, r.refusedShares, r.refusedAt = e.Reason, e.Symbol, e.Direction, e.Shares, at
		}
	case events.FollowStopRequested:
		r, err := follow(e.FollowID)
		if err != nil {
			return err
		}
		r.state = events.FollowStopping
	case events.FollowStopped:
		r, err := follow(e.FollowID)
		if err != nil {
			return err
		}
		r.state, r.released, r.profit, r.share = e.State, e.Released.String(), e.Profit.String(), e.Share.String()
		if e.ClosePositions {
			r.closed = 1
		}
	case events.OrderPlaced:
		if e.Origin == "" && pg.mentors[member] == nil {
			return nil // neither a mentor's own order nor a mirrored one
		}
		pg.orders[e.OrderNo] = &orderRow{orderNo: e.OrderNo, memberID: member, followID: e.Origin, intent: e.Intent, symbol: e.Symbol,
			name: e.Name, side: e.Side, direction: e.Direction, price: e.Price.String(), status: "working", profit: "0", shares: e.Shares, createdAt: at,
			updatedAt: at, seq: d.Ev.Position}
	case events.OrderFilled:
		o := pg.orders[e.OrderNo]
		if o == nil {
			return nil
		}
		o.filled += e.Shares
		o.profit = add(o.profit, e.Profit)
		o.updatedAt = at
		if e.Remaining == 0 {
			o.status = "filled"
		}
		if o.followID != "" {
			if f := pg.follows[o.followID]; f != nil {
				f.updatedAt = at
			}
			return nil
		}
		if pg.mentors[member] == nil {
			return nil
		}
		open := int64(0)
		if o.intent == events.IntentOpen {
			open = 1
		}
		pg.fills = append(pg.fills, &fillRow{seq: d.Ev.Position, memberID: member, positionID: e.PositionID, open: open, shares: e.Shares,
			cash: e.Cash.String(), profit: e.Profit.String(), at: at})
	case events.OrderCancelled:
		if o := pg.orders[e.OrderNo]; o != nil {
			o.status, o.updatedAt = "cancelled", at
		}
	case events.OrderExpired:
		if o := pg.orders[e.OrderNo]; o != nil {
			o.status, o.updatedAt = "expired", at
		}
	}
	return nil
}

func dec(s string) decimal.Decimal {
	v, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero
	}
	return v
}

// Mentor is a mentor's profile and what the statistics need: its fills and followers' commitments.
type Mentor struct {
	MemberID, DisplayName          string
	MinAmount, ProfitShare, Income decimal.Decimal
	WindowDays                     int
	Since                          time.Time
	Fills                          []mentor.Fill
	CopyAmount                     decimal.Decimal
	Followers                      int
}

// Mentors lists every mentor with its fills and the sum of its followers' commitments, earliest
// opt-in first.
func Mentors(ctx context.Context, db *projections.Reader) ([]Mentor, error) {
	return mentorsWhere(ctx, db, "", nil)
}

// MentorByID is one mentor (projections.ErrNotFound when the member has not opted in).
func MentorByID(ctx context.Context, db *projections.Reader, memberID string) (Mentor, error) {
	ms, err := mentorsWhere(ctx, db, " WHERE member_id = ?", []any{memberID})
	if err != nil {
		return Mentor{}, err
	}
	if len(ms) == 0 {
		return Mentor{}, projections.ErrNotFound
	}
	return ms[0], nil
}

func mentorsWhere(ctx context.Context, db *projections.Reader, where string, args []any) ([]Mentor, error) {
	var out []Mentor
	idx := map[string]int{}
	err := db.Query(ctx, "copytrade mentors", "SELECT "+mentorFields.List()+" FROM copytrade_mentors"+where+" ORDER BY seq LIMIT 500", args,
		func(rows projections.Rows) error {
			var r mentorRow
			if err := mentorFields.Scan(rows, &r); err != nil {
				return err
			}
			idx[r.memberID] = len(out)
			out = append(out, Mentor{MemberID: r.memberID, DisplayName: r.name, MinAmount: dec(r.minAmount), ProfitShare: dec(r.profitShare),
				Income: dec(r.income), WindowDays: int(r.windowDays), Since: projections.FromMicros(r.since), CopyAmount: decimal.Zero})
			return nil
		})
	if err != nil || len(out) == 0 {
		return out, err
	}
	fillWhere, followWhere := "", ""
	if where != "" {
		fillWhere, followWhere = where, " WHERE mentor_id = ?"
	}
	err = db.Query(ctx, "copytrade fills", "SELECT "+fillFields.List()+" FROM copytrade_fills"+fillWhere+" ORDER BY seq", args,
		func(rows projections.Rows) error {
			var r fillRow
			if err := fillFields.Scan(rows, &r); err != nil {
				return err
			}
			if i, ok := idx[r.memberID]; ok {
				out[i].Fills = append(out[i].Fills, mentor.Fill{PositionID: r.positionID, Open: r.open == 1, Shares: r.shares,
					Cash: dec(r.cash), Profit: dec(r.profit), At: projections.FromMicros(r.at)})
			}
			return nil
		})
	if err != nil {
		return nil, err
	}
	err = db.Query(ctx, "copytrade copy amounts", "SELECT "+followFields.List()+" FROM copytrade_follows"+followWhere, args,
		func(rows projections.Rows) error {
			var r followRow
			if err := followFields.Scan(rows, &r); err != nil {
				return err
			}
			if i, ok := idx[r.mentorID]; ok {
				out[i].CopyAmount = out[i].CopyAmount.Add(dec(r.amount))
				if r.state == events.FollowInProgress {
					out[i].Followers++
				}
			}
			return nil
		})
	return out, err
}

// Follow is one follow as its follower sees it.
type Follow struct {
	FollowID, FollowerID, MentorID, MentorName, State             string
	Amount, Spent, Returned, Released, Profit, Share, ProfitShare decimal.Decimal
	// Returned is spending undone (unused reservations, refused orders); Proceeds the mirrored
	// sales' net proceeds put back into the commitment.
	Proceeds                   decimal.Decimal
	Days                       int
	ClosePositions             bool
	Ends, CreatedAt, UpdatedAt time.Time
	Refused                    *Refusal // the last mirrored order refused, if any
}

// Refusal is a mirrored order the follower's account refused: what it was and the message key why.
type Refusal struct {
	Reason, Symbol, Direction string
	Shares                    int64
	At                        time.Time
}

// Remaining is what is left of the commitment (until the stop releases it).
func (f Follow) Remaining() decimal.Decimal {
	if !events.FollowLive(f.State) {
		return decimal.Zero
	}
	return f.Amount.Sub(f.Spent).Add(f.Returned).Add(f.Proceeds)
}

func (r *followRow) follow() Follow {
	ends, _ := time.Parse(time.RFC3339, r.ends)
	var refused *Refusal
	if r.refusedSymbol != "" {
		refused = &Refusal{Reason: r.refusedReason, Symbol: r.refusedSymbol, Direction: r.refusedDirection, Shares: r.refusedShares,
			At: projections.FromMicros(r.refusedAt)}
	}
	return Follow{Refused: refused, FollowID: r.followID, FollowerID: r.followerID, MentorID: r.mentorID, MentorName: r.mentorName, State: r.state,
		Amount: dec(r.amount), Spent: dec(r.spent), Returned: dec(r.returned), Proceeds: dec(r.proceeds), Released: dec(r.released), Profit: dec(r.profit),
		Share: dec(r.share), ProfitShare: dec(r.profitShare), Days: int(r.days), ClosePositions: r.closed == 1, Ends: ends,
		CreatedAt: projections.FromMicros(r.createdAt), UpdatedAt: projections.FromMicros(r.updatedAt)}
}

func queryFollows(ctx context.Context, db *projections.Reader, q string, args []any, limit int) ([]Follow, bool, error) {
	var out []Follow
	err := db.Query(ctx, "copytrade follows", q, args, func(rows projections.Rows) error {
		var r followRow
		if err := followFields.Scan(rows, &r); err != nil {
			return err
		}
		out = append(out, r.follow())
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return projections.TrimPage(out, limit)
}

// MemberFollows lists a follower's follows, newest first (page from 1); state filters when set.
func MemberFollows(ctx context.Context, db *projections.Reader, memberID, state string, page, size int) ([]Follow, bool, error) {
	limit, offset := projections.PageArgs(page, size)
	where, args := "follower_id = ?", []any{memberID}
	if state != "" {
		where, args = where+" AND state = ?", append(args, state)
	}
	q := "SELECT " + followFields.List() + " FROM copytrade_follows WHERE " + where + " ORDER BY seq DESC LIMIT ? OFFSET ?"
	return queryFollows(ctx, db, q, append(args, limit, offset), limit)
}

// FollowOf is the follower's follow id (projections.ErrNotFound when the follower has none of that id).
func FollowOf(ctx context.Context, db *projections.Reader, memberID, followID string) (Follow, error) {
	fs, _, err := queryFollows(ctx, db, "SELECT "+followFields.List()+" FROM copytrade_follows WHERE follow_id = ? AND follower_id = ?",
		[]any{followID, memberID}, 2)
	if err != nil {
		return Follow{}, err
	}
	if len(fs) == 0 {
		return Follow{}, projections.ErrNotFound
	}
	return fs[0], nil
}

// MentorFollows lists the follows of a mentor (the mentor's followers), newest first.
func MentorFollows(ctx context.Context, db *projections.Reader, mentorID string, page, size int) ([]Follow, bool, error) {
	limit, offset := projections.PageArgs(page, size)
	q := "SELECT " + followFields.List() + " FROM copytrade_follows WHERE mentor_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?"
	return queryFollows(ctx, db, q, []any{mentorID, limit, offset}, limit)
}

// Order is an order mirrored into a follow.
type Order struct {
	OrderNo, FollowID, Intent, Symbol, Name, Side, Direction, Status string
	Price, Profit                                                    decimal.Decimal
	Shares, Filled                                                   int64
	CreatedAt                                                        time.Time
}

// FollowOrders lists the orders mirrored into a follow, newest first.
func FollowOrders(ctx context.Context, db *projections.Reader, followID string) ([]Order, error) {
	var out []Order
	err := db.Query(ctx, "copytrade orders", "SELECT "+orderFields.List()+" FROM copytrade_orders WHERE follow_id = ? ORDER BY seq DESC LIMIT 200",
		[]any{followID}, func(rows projections.Rows) error {
			var r orderRow
			if err := orderFields.Scan(rows, &r); err != nil {
				return err
			}
			out = append(out, Order{OrderNo: r.orderNo, FollowID: r.followID, Intent: r.intent, Symbol: r.symbol, Name: r.name, Side: r.side, Direction: r.direction,
				Status: r.status, Price: dec(r.price), Profit: dec(r.profit), Shares: r.shares, Filled: r.filled,
				CreatedAt: projections.FromMicros(r.createdAt)})
			return nil
		})
	return out, err
}
