// Package coupons is the read model of the daily check-in and coupons: each member's streak and
// last check-in day, and every coupon with its uses, reservation and discount paid. Whether a
// coupon is expired is the reader's question (its expiry against the time of the read), so the
// model is a pure fold of the log. Discount lines reach fund records through the journal.
package coupons

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

type checkinRow struct {
	memberID, lastDay      string
	streak, total, updated int64
}

var checkinFields = projections.RowMap[checkinRow]{
	projections.Text("member_id", func(r *checkinRow) *string { return &r.memberID }),
	projections.Text("last_day", func(r *checkinRow) *string { return &r.lastDay }),
	projections.Integer("streak", func(r *checkinRow) *int64 { return &r.streak }),
	projections.Integer("total", func(r *checkinRow) *int64 { return &r.total }),
	projections.Integer("updated_at", func(r *checkinRow) *int64 { return &r.updated }),
}

var checkinsTable = &projections.Table{
	Name: "coupon_checkins",
	Cols: checkinFields.Columns(),
	Key:  []string{"member_id"},
}

type couponRow struct {
	id, memberID, kind, value, source, reason, actor, expiryDay, discount, lastOrder string
	uses, used, reserved, expiresAt, createdAt, updatedAt, seq                       int64
}

var couponFields = projections.RowMap[couponRow]{
	projections.Text("coupon_id", func(r *couponRow) *string { return &r.id }),
	projections.Text("member_id", func(r *couponRow) *string { return &r.memberID }),
	projections.Text("kind", func(r *couponRow) *string { return &r.kind }),
	projections.Text("value", func(r *couponRow) *string { return &r.value }),
	projections.Text("source", func(r *couponRow) *string { return &r.source }),
	projections.Text("reason", func(r *couponRow) *string { return &r.reason }),
	projections.Text("actor", func(r *couponRow) *string { return &r.actor }),
	projections.Text("expiry_day", func(r *couponRow) *string { return &r.expiryDay }),
	projections.Text("discount", func(r *couponRow) *string { return &r.discount }),
	projections.Text("last_order", func(r *couponRow) *string { return &r.lastOrder }),
	projections.Integer("uses", func(r *couponRow) *int64 { return &r.uses }),
	projections.Integer("used", func(r *couponRow) *int64 { return &r.used }),
	projections.Integer("reserved", func(r *couponRow) *int64 { return &r.reserved }),
	projections.Integer("expires_at", func(r *couponRow) *int64 { return &r.expiresAt }),
	projections.Integer("created_at", func(r *couponRow) *int64 { return &r.createdAt }),
	projections.Integer("updated_at", func(r *couponRow) *int64 { return &r.updatedAt }),
	projections.Integer("seq", func(r *couponRow) *int64 { return &r.seq }),
}

var couponsTable = &projections.Table{
	Name:    "coupons",
	Cols:    couponFields.Columns(),
	Key:     []string{"coupon_id"},
	Indexes: []string{"member_id, seq", "seq"},
	Fixed:   []string{"member_id", "kind", "value", "source", "reason", "actor", "expiry_day", "uses", "expires_at", "created_at", "seq"},
}

var (
	checkins = &projections.Keyed[checkinRow]{Table: checkinsTable, Fields: checkinFields,
		Key: func(r *checkinRow) string { return r.memberID }, What: "check-in record",
		Changes: projections.KeyBy(projections.OnMember[events.CheckedIn]())}
	coupons = &projections.Keyed[couponRow]{Table: couponsTable, Fields: couponFields,
		Key: func(r *couponRow) string { return r.id }, What: "coupon", Changes: projections.KeyBy(
			projections.On(func(e events.CouponReserved) string { return e.CouponID }),
			projections.On(func(e events.CouponReleased) string { return e.CouponID }),
			projections.On(func(e events.CouponRedeemed) string { return e.CouponID }))}
)

// Partitioned: a check-in row is keyed by the member of its account stream; a coupon is granted
// on its member's account stream (a check-in's or ops' grant, its id derived from the command's
// id) and reserved, released and redeemed only there (the member's book decides on its own
// coupons). There is no count shared between members (no campaign's remaining uses).
var projector = &projections.Projector{
	Name:        "coupons",
	Version:     1,
	Partitioned: true,
	Tables:      []*projections.Table{checkinsTable, couponsTable},
	Wants: projections.Wanting(events.CheckedIn{}, events.CouponGranted{}, events.CouponReserved{}, events.CouponReleased{},
		events.CouponRedeemed{}),
	Apply: apply,
}

func init() { projections.Register(projector) }

func memberOf(stream string) string { return stream[len(events.AccountStream("")):] }

// page is the check-in records and coupons one page of events writes.
type page struct {
	checkins *projections.PageRows[checkinRow]
	coupons  *projections.PageRows[couponRow]
}

func apply(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	pg := page{checkins: checkins.Page(evs), coupons: coupons.Page(evs)}
	return projections.FoldPage(ctx, w, evs, pg.fold, pg.checkins, pg.coupons)
}

func (pg *page) fold(d projections.Decoded) error {
	at := projections.Micros(d.Ev.Metadata.ServerTime)
	member := memberOf(d.Ev.Stream)
	switch e := d.P.(type) {
	case events.CheckedIn:
		r := pg.checkins.Row(member)
		if r == nil {
			r = &checkinRow{memberID: member}
			pg.checkins.Put(r)
		}
		r.lastDay, r.streak, r.updated = e.Day, int64(e.Streak), at
		r.total++
		return nil
	case events.CouponGranted:
		pg.coupons.Put(&couponRow{id: e.CouponID, memberID: member, kind: e.Kind, value: e.Value.String(), source: e.Source,
			reason: e.Reason, actor: d.Ev.Metadata.Actor, expiryDay: e.ExpiryDay, discount: "0", uses: int64(e.Uses),
			expiresAt: projections.Micros(e.ExpiresAt), createdAt: at, updatedAt: at, seq: d.Ev.Position})
		return nil
	}
	id := coupons.Changes(d)
	c, err := pg.coupons.Changed(d, id)
	if err != nil {
		return err
	}
	c.updatedAt = at
	switch e := d.P.(type) {
	case events.CouponReserved:
		c.reserved++
		c.lastOrder = e.OrderNo
	case events.CouponReleased:
		c.reserved--
	case events.CouponRedeemed:
		c.reserved--
		c.used++
		paid, err := decimal.NewFromString(c.discount)
		if err != nil {
			return d.Fail(fmt.Errorf("coupon %s discount: %w", id, err))
		}
		c.discount = paid.Add(e.Discount).String()
	}
	return nil
}

// CheckIn is a member's check-in record: the last day, the streak then and the days in all.
type CheckIn struct {
	LastDay       string
	Streak, Total int64
}

// MemberCheckIn reads a member's check-in record (zero before the first).
func MemberCheckIn(ctx context.Context, db *projections.Reader, memberID string) (CheckIn, error) {
	var out CheckIn
	err := db.Query(ctx, "check-in", "SELECT last_day, streak, total FROM coupon_checkins WHERE member_id = ?", []any{memberID},
		func(rows projections.Rows) error { return rows.Scan(&out.LastDay, &out.Streak, &out.Total) })
	return out, err
}

// Coupon is one coupon as read.
type Coupon struct {
	CouponID, MemberID, Kind, Source, Reason, Actor, ExpiryDay, LastOrder string
	Value, Discount                                                       decimal.Decimal
	Uses, Used, Reserved                                                  int64
	ExpiresAt, CreatedAt, UpdatedAt                                       time.Time
}

// Status is the coupon's state at now: usable, reserved (a use waits for its order), used (no
// use left) or expired (uses left, past its expiry).
func (c Coupon) Status(now time.Time) string {
	switch {
	case c.Used >= c.Uses:
		return "used"
	case c.Reserved > 0 && c.Used+c.Reserved >= c.Uses:
		return "reserved"
	case !now.Before(c.ExpiresAt):
		return "expired"
	}
	return "usable"
}

// Left is the uses not yet taken.
func (c Coupon) Left() int64 { return c.Uses - c.Used - c.Reserved }

// couponOfRow is a row's typed view.
func couponOfRow(r *couponRow) (Coupon, error) {
	value, err := decimal.NewFromString(r.value)
	if err != nil {
		return Coupon{}, fmt.Errorf("coupon %s: %w", r.id, err)
	}
	discount, err := decimal.NewFromString(r.discount)
	if err != nil {
		return Coupon{}, fmt.Errorf("coupon %s: %w", r.id, err)
	}
	return Coupon{CouponID: r.id, MemberID: r.memberID, Kind: r.kind, Source: r.source, Reason: r.reason, Actor: r.actor,
		ExpiryDay: r.expiryDay, LastOrder: r.lastOrder, Value: value, Discount: discount, Uses: r.uses, Used: r.used, Reserved: r.reserved,
		ExpiresAt: projections.FromMicros(r.expiresAt), CreatedAt: projections.FromMicros(r.createdAt), UpdatedAt: projections.FromMicros(r.updatedAt)}, nil
}

var scanCoupon = projections.Scanner(couponFields, couponOfRow)

// MemberCoupons lists a member's coupons, newest first (at most 200).
func MemberCoupons(ctx context.Context, db *projections.Reader, memberID string) ([]Coupon, error) {
	return projections.QueryAll(ctx, db, "coupons", "SELECT "+couponFields.List()+" FROM coupons WHERE member_id = ? ORDER BY seq DESC LIMIT 200",
		[]any{memberID}, scanCoupon)
}

// Granted lists the coupons ops granted, newest first (page from 1).
func Granted(ctx context.Context, db *projections.Reader, page, size int) ([]Coupon, bool, error) {
	q, args, limit := projections.NewestFirst(couponFields.List(), "coupons", "source", events.CouponFromOps, page, size)
	return projections.QueryPage(ctx, db, "granted coupons", q, args, limit, scanCoupon)
}
