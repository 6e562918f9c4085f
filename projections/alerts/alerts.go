// Package alerts is the price alerts' read model: each member's alerts (active, triggered,
// cancelled), the notifications fired alerts made, and how far the member has read them.
package alerts

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// Alert states as the read model keeps them.
const (
	StatusActive    = "active"
	StatusTriggered = "triggered"
	StatusCancelled = "cancelled"
)

type alertRow struct {
	id, member, symbol, kind, value, status, price, prevClose string
	createdAt, firedAt, quoteAt, seq, firedSeq                int64
}

var alertFields = projections.RowMap[alertRow]{
	projections.Text("alert_id", func(r *alertRow) *string { return &r.id }),
	projections.Text("member_id", func(r *alertRow) *string { return &r.member }),
	projections.Text("symbol", func(r *alertRow) *string { return &r.symbol }),
	projections.Text("kind", func(r *alertRow) *string { return &r.kind }),
	projections.Text("value", func(r *alertRow) *string { return &r.value }),
	projections.Text("status", func(r *alertRow) *string { return &r.status }),
	projections.Text("price", func(r *alertRow) *string { return &r.price }),
	projections.Text("prev_close", func(r *alertRow) *string { return &r.prevClose }),
	projections.Integer("created_at", func(r *alertRow) *int64 { return &r.createdAt }),
	projections.Integer("fired_at", func(r *alertRow) *int64 { return &r.firedAt }),
	projections.Integer("quote_at", func(r *alertRow) *int64 { return &r.quoteAt }),
	projections.Integer("seq", func(r *alertRow) *int64 { return &r.seq }),
	projections.Integer("fired_seq", func(r *alertRow) *int64 { return &r.firedSeq }),
}

var alertsTable = &projections.Table{
	Name:    "price_alerts",
	Cols:    alertFields.Columns(),
	Key:     []string{"alert_id"},
	Indexes: []string{"member_id, seq", "member_id, fired_seq"},
}

type readRow struct {
	member  string
	through int64
}

var readFields = projections.RowMap[readRow]{
	projections.Text("member_id", func(r *readRow) *string { return &r.member }),
	projections.Integer("through", func(r *readRow) *int64 { return &r.through }),
}

var readsTable = &projections.Table{
	Name: "price_alert_reads",
	Cols: readFields.Columns(),
	Key:  []string{"member_id"},
}

var (
	alerts = &projections.Keyed[alertRow]{Table: alertsTable, Fields: alertFields, Key: func(r *alertRow) string { return r.id }, What: "alert",
		Changes: projections.KeyBy(
			projections.On(func(e events.AlertCancelled) string { return e.AlertID }),
			projections.On(func(e events.AlertFired) string { return e.AlertID }))}
	reads = &projections.Keyed[readRow]{Table: readsTable, Fields: readFields, Key: func(r *readRow) string { return r.member },
		What: "alert reads", Changes: projections.KeyBy(projections.OnMember[events.AlertNotificationsRead]())}
)

// Partitioned: an alert is set, cancelled and fired on its member's stream only (the member
// aggregate knows its own alert ids, which derive from the member), and the reads row is keyed by
// the stream's member.
var projector = &projections.Projector{
	Name:        "alerts",
	Version:     1,
	Partitioned: true,
	Tables:      []*projections.Table{alertsTable, readsTable},
	Wants:       projections.Wanting(events.AlertSet{}, events.AlertCancelled{}, events.AlertFired{}, events.AlertNotificationsRead{}),
	Apply:       apply,
}

func init() { projections.Register(projector) }

func apply(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	alertPage, readPage := alerts.Page(evs), reads.Page(evs)
	return projections.FoldPage(ctx, w, evs, func(d projections.Decoded) error {
		member, err := projections.MemberOf(d.Ev.Stream)
		if err != nil {
			return d.Fail(err)
		}
		at := projections.Micros(d.Ev.Metadata.ServerTime)
		switch e := d.P.(type) {
		case events.AlertSet:
			alertPage.Put(&alertRow{id: e.AlertID, member: member, symbol: e.Symbol, kind: e.Kind, value: e.Value.String(),
				status: StatusActive, price: "0", prevClose: "0", createdAt: at, seq: d.Ev.Position})
		case events.AlertCancelled:
			if r := alertPage.Row(e.AlertID); r != nil {
				r.status = StatusCancelled
			}
		case events.AlertFired:
			if r := alertPage.Row(e.AlertID); r != nil {
				r.status, r.price, r.prevClose = StatusTriggered, e.Price.String(), e.PrevClose.String()
				r.firedAt, r.quoteAt, r.firedSeq = at, projections.Micros(e.QuoteTime), d.Ev.Position
			}
		case events.AlertNotificationsRead:
			r := readPage.Row(member)
			if r == nil {
				r = &readRow{member: member}
				readPage.Put(r)
			}
			r.through = max(r.through, e.Through)
		}
		return nil
	}, alertPage, readPage)
}

// Alert is one of a member's alerts.
type Alert struct {
	ID, MemberID, Symbol, Kind, Status string
	Value, Price, PrevClose            decimal.Decimal // Price and PrevClose: the quote that fired it
	CreatedAt, FiredAt, QuoteAt        time.Time       // FiredAt, QuoteAt: zero unless triggered
	Position, FiredPosition            int64           // FiredPosition: the notification's, 0 unless triggered
}

func (r *alertRow) alert() (Alert, error) {
	a := Alert{ID: r.id, MemberID: r.member, Symbol: r.symbol, Kind: r.kind, Status: r.status,
		CreatedAt: projections.FromMicros(r.createdAt), Position: r.seq, FiredPosition: r.firedSeq}
	var err error
	if a.Value, err = decimal.NewFromString(r.value); err != nil {
		return a, fmt.Errorf("alert %s value: %w", r.id, err)
	}
	if a.Price, err = decimal.NewFromString(r.price); err != nil {
		return a, fmt.Errorf("alert %s price: %w", r.id, err)
	}
	if a.PrevClose, err = decimal.NewFromString(r.prevClose); err != nil {
		return a, fmt.Errorf("alert %s previous close: %w", r.id, err)
	}
	if r.firedSeq > 0 {
		a.FiredAt, a.QuoteAt = projections.FromMicros(r.firedAt), projections.FromMicros(r.quoteAt)
	}
	return a, nil
}

// MaxListed bounds the alerts and notifications a list returns (the newest).
const MaxListed = 100

// List lists the member's active and triggered alerts, newest first.
func List(ctx context.Context, db *projections.Reader, memberID string) ([]Alert, error) {
	out := []Alert{}
	q := "SELECT " + alertFields.List() + " FROM price_alerts WHERE member_id = ? AND status <> ? ORDER BY seq DESC LIMIT ?"
	err := db.Query(ctx, "price alerts", q, []any{memberID, StatusCancelled, MaxListed}, projections.Collect(&out, alertFields, (*alertRow).alert))
	return out, err
}

// ByID is one alert; projections' not-found error when there is none.
func ByID(ctx context.Context, db *projections.Reader, id string) (Alert, error) {
	q := "SELECT " + alertFields.List() + " FROM price_alerts WHERE alert_id = ?"
	return projections.QueryOne(ctx, db, "price alert", q, []any{id}, projections.Scanner(alertFields, (*alertRow).alert))
}

// Notifications are the member's notifications (their triggered alerts, newest first), the
// position they have read through and how many are unread.
func Notifications(ctx context.Context, db *projections.Reader, memberID string) (items []Alert, through, unread int64, err error) {
	items = []Alert{}
	q := "SELECT " + alertFields.List() + " FROM price_alerts WHERE member_id = ? AND fired_seq > 0 ORDER BY fired_seq DESC LIMIT ?"
	if err = db.Query(ctx, "alert notifications", q, []any{memberID, MaxListed}, projections.Collect(&items, alertFields, (*alertRow).alert)); err != nil {
		return nil, 0, 0, err
	}
	err = db.Query(ctx, "alert reads", "SELECT through FROM price_alert_reads WHERE member_id = ?", []any{memberID}, func(rows projections.Rows) error {
		return rows.Scan(&through)
	})
	if err != nil {
		return nil, 0, 0, err
	}
	err = db.Query(ctx, "alert unread", "SELECT COUNT(*) FROM price_alerts WHERE member_id = ? AND fired_seq > ?", []any{memberID, through},
		func(rows projections.Rows) error { return rows.Scan(&unread) })
	return items, through, unread, err
}
