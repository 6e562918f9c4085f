package coupons

import (
	"context"
	"testing"
	"time"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections/projtest"
)

var t0 = time.Date(2026, 11, 24, 2, 0, 0, 0, time.UTC)

// couponLog writes a check-in with its coupon, an ops grant of two uses, one use redeemed and one
// reserved then released.
func couponLog(e *projtest.Env) string {
	m := e.Register("0912345678")
	acct := events.AccountStream(m)
	e.Add(acct, "member:0912345678", events.CheckedIn{Day: "2026-11-24", Streak: 1, CycleDay: 1, CouponID: "c1"},
		events.CouponGranted{CouponID: "c1", Kind: events.CouponCommissionDiscount, Value: projtest.Dec("5"), Uses: 1, ExpiryDay: "2026-11-30",
			ExpiresAt: t0.Add(7 * 24 * time.Hour), Source: events.CouponFromCheckIn})
	e.Add(acct, "ops:ops", events.CouponGranted{CouponID: "c2", Kind: events.CouponCommissionDiscount, Value: projtest.Dec("50"), Uses: 2,
		ExpiryDay: "2026-12-23", ExpiresAt: t0.Add(30 * 24 * time.Hour), Source: events.CouponFromOps, Reason: "welcome"})
	e.Add(acct, "member:0912345678", events.CouponReserved{CouponID: "c2", OrderNo: "T1"})
	e.Add(acct, "system", events.CouponRedeemed{CouponID: "c2", OrderNo: "T1", Commission: projtest.Dec("20"), Discount: projtest.Dec("20"),
		Postings: events.Transfer(events.HousePromotionExpense, events.MemberAvailable(m), "TWD", projtest.Dec("20"))})
	e.Add(acct, "member:0912345678", events.CouponReserved{CouponID: "c2", OrderNo: "T2"})
	e.Add(acct, "system", events.CouponReleased{CouponID: "c2", OrderNo: "T2", Reason: "unfilled"})
	return m
}

func TestCouponsReadModel(t *testing.T) {
	projtest.Backends(t, func(t *testing.T, e *projtest.Env) {
		ctx := context.Background()
		m := couponLog(e)
		db, r := e.Start()
		r.WaitFor(t, e.Head())
		ci, err := MemberCheckIn(ctx, db.Reader, m)
		if err != nil || ci.LastDay != "2026-11-24" || ci.Streak != 1 || ci.Total != 1 {
			t.Fatalf("check-in %+v %v", ci, err)
		}
		cs, err := MemberCoupons(ctx, db.Reader, m)
		if err != nil || len(cs) != 2 || cs[0].CouponID != "c2" || cs[0].Used != 1 || cs[0].Reserved != 0 || cs[0].Left() != 1 ||
			!cs[0].Discount.Equal(projtest.Dec("20")) || cs[0].Actor != "ops:ops" || cs[0].Status(t0) != "usable" {
			t.Fatalf("coupons %+v %v", cs, err)
		}
		if cs[1].Status(t0) != "usable" || cs[1].Status(t0.Add(8*24*time.Hour)) != "expired" {
			t.Fatalf("c1 status %+v", cs[1])
		}
		g, more, err := Granted(ctx, db.Reader, 1, 20)
		if err != nil || more || len(g) != 1 || g[0].Reason != "welcome" {
			t.Fatalf("granted %+v %v", g, err)
		}
		projtest.NoDiffs(t, r.Runner)
	})
}

func TestCouponsOneByOne(t *testing.T) {
	e := projtest.SQLite(t)
	couponLog(e)
	e.OneByOne(projector)
}
