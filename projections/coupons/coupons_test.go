package coupons

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections/projtest"
)

var t0 = time.Date(2026, 11, 24, 2, 0, 0, 0, time.UTC)

// couponLog writes a member's check-in with its coupon (c1-<account>), an ops grant of two uses
// (c2-<account>), one use redeemed and one reserved then released.
func couponLog(e *projtest.Env, account string) string {
	m := e.Register(account)
	acct, c1, c2 := events.AccountStream(m), "c1-"+account, "c2-"+account
	e.Add(acct, "member:"+account, events.CheckedIn{Day: "2026-11-24", Streak: 1, CycleDay: 1, CouponID: c1},
		events.CouponGranted{CouponID: c1, Kind: events.CouponCommissionDiscount, Value: projtest.Dec("5"), Uses: 1, ExpiryDay: "2026-11-30",
			ExpiresAt: t0.Add(7 * 24 * time.Hour), Source: events.CouponFromCheckIn})
	e.Add(acct, "ops:ops", events.CouponGranted{CouponID: c2, Kind: events.CouponCommissionDiscount, Value: projtest.Dec("50"), Uses: 2,
		ExpiryDay: "2026-12-23", ExpiresAt: t0.Add(30 * 24 * time.Hour), Source: events.CouponFromOps, Reason: "welcome"})
	e.Add(acct, "member:"+account, events.CouponReserved{CouponID: c2, OrderNo: "T1"})
	e.Add(acct, "system", events.CouponRedeemed{CouponID: c2, OrderNo: "T1", Commission: projtest.Dec("20"), Discount: projtest.Dec("20"),
		Postings: events.Transfer(events.HousePromotionExpense, events.MemberAvailable(m), "TWD", projtest.Dec("20"))})
	e.Add(acct, "member:"+account, events.CouponReserved{CouponID: c2, OrderNo: "T2"})
	e.Add(acct, "system", events.CouponReleased{CouponID: c2, OrderNo: "T2", Reason: "unfilled"})
	return m
}

func TestCouponsReadModel(t *testing.T) {
	projtest.Backends(t, func(t *testing.T, e *projtest.Env) {
		ctx := context.Background()
		m := couponLog(e, "0912345678")
		db, r := e.Start()
		r.WaitFor(t, e.Head())
		ci, err := MemberCheckIn(ctx, db.Reader, m)
		if err != nil || ci.LastDay != "2026-11-24" || ci.Streak != 1 || ci.Total != 1 {
			t.Fatalf("check-in %+v %v", ci, err)
		}
		cs, err := MemberCoupons(ctx, db.Reader, m)
		if err != nil || len(cs) != 2 || cs[0].CouponID != "c2-0912345678" || cs[0].Used != 1 || cs[0].Reserved != 0 || cs[0].Left() != 1 ||
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
	couponLog(e, "0912345678")
	e.OneByOne(projector)
}

// TestCouponsSplitLikeOne: the check-ins and coupons of six members, over both partitions of
// two, give two partitions the same rows as one runner: the first three members' journeys, then
// (applied by partitions that already hold their coupons) a second day's check-in and the last
// use of their ops coupon redeemed, with the other three members' journeys.
func TestCouponsSplitLikeOne(t *testing.T) {
	projtest.Backends(t, func(t *testing.T, e *projtest.Env) {
		account := func(i int) string { return fmt.Sprintf("09333333%02d", i) }
		var first []string
		e.SplitLikeOne(t, projector, func() {
			for i := range 3 {
				first = append(first, couponLog(e, account(i)))
			}
		}, func() {
			for i, m := range first {
				acct, c3, c2 := events.AccountStream(m), "c3-"+account(i), "c2-"+account(i)
				e.Add(acct, "member:m", events.CheckedIn{Day: "2026-11-25", Streak: 2, CycleDay: 2, CouponID: c3},
					events.CouponGranted{CouponID: c3, Kind: events.CouponCommissionDiscount, Value: projtest.Dec("8"), Uses: 1,
						ExpiryDay: "2026-12-01", ExpiresAt: t0.Add(8 * 24 * time.Hour), Source: events.CouponFromCheckIn})
				e.Add(acct, "member:m", events.CouponReserved{CouponID: c2, OrderNo: "T3"})
				e.Add(acct, "system", events.CouponRedeemed{CouponID: c2, OrderNo: "T3", Commission: projtest.Dec("30"), Discount: projtest.Dec("30"),
					Postings: events.Transfer(events.HousePromotionExpense, events.MemberAvailable(m), "TWD", projtest.Dec("30"))})
			}
			for i := 3; i < 6; i++ {
				couponLog(e, account(i))
			}
		})
	})
}
