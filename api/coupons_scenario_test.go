package api

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/api/wire"
)

// Check-in and coupons over HTTP on SQLite and PostgreSQL: one check-in per Taipei day (parallel
// check-ins write one), the streak across a Taipei midnight; refused grants and applications
// write nothing; a coupon applied to an order that fills pays its discount (capped at the
// commission) from promotion expense to the member's cash, seen in fund records and the
// auditor's timeline; a cancelled order gives the use back; attempts_insufficient when none is
// left. The harness then checks that postings balance, projections equal replay and no cash is negative.
func TestCouponsScenario(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		th.mkt.book("2603", "186.5", "186.5", lvls("186", 5000), lvls("187", 5000))

		// Check in once today; again: checkin_done, nothing written.
		a := m.post("/api/vue/checkin", map[string]any{})
		want(t, a, 200, "checkin_success")
		var in wire.CheckInResult
		a.data(t, &in)
		if in.Day != "2026-03-02" || in.Streak != 1 || in.CycleDay != 1 || in.Value != "5.00" || in.ExpiryDay != "2026-03-08" {
			t.Fatalf("check-in %+v", in)
		}
		h.refused(422, "checkin_done", func() answer { return m.post("/api/vue/checkin", map[string]any{}) })
		var st wire.CheckInState
		m.at("/api/vue/checkin", h.head(), &st)
		if !st.CheckedInToday || st.Streak != 1 || st.Today != "2026-03-02" || st.NextCycleDay != 2 || len(st.Table) != 7 || st.Table[6].Value != "50.00" {
			t.Fatalf("state %+v", st)
		}

		// Sixteen check-ins of one member at once: exactly one is written.
		racer := h.register(fmt.Sprintf("09%08d", 71000000+int(imageSizes.Add(1))))
		answers := concurrently(16, func(int) answer { return racer.post("/api/vue/checkin", map[string]any{}) })
		won := successes(t, "check-in", answers, func(a answer) bool { return a.code == 422 && a.Msg == "checkin_done" })
		if len(won) != 1 {
			t.Fatalf("%d parallel check-ins succeeded", len(won))
		}
		var rc []wire.Coupon
		racer.at("/api/vue/coupons", h.head(), &rc)
		if len(rc) != 1 {
			t.Fatalf("racer's coupons %+v", rc)
		}

		// Ops grants: refusals first, then NT$50 for two orders.
		grant := func(over map[string]any) map[string]any {
			b := map[string]any{"account": m.account, "value": "50", "uses": 2, "validDays": 30, "reason": "service recovery"}
			for k, v := range over {
				b[k] = v
			}
			return b
		}
		h.unchanged(func() {
			want(t, h.ops.post("/api/vue/ops/coupons", grant(map[string]any{"value": "0"})), 400, "coupon_value_invalid")
			want(t, h.ops.post("/api/vue/ops/coupons", grant(map[string]any{"value": "12.5"})), 400, "coupon_value_invalid")
			want(t, h.ops.post("/api/vue/ops/coupons", grant(map[string]any{"uses": 0})), 400, "coupon_uses_invalid")
			want(t, h.ops.post("/api/vue/ops/coupons", grant(map[string]any{"validDays": 91})), 400, "coupon_days_invalid")
			want(t, h.ops.post("/api/vue/ops/coupons", grant(map[string]any{"reason": " "})), 400, "remark_required")
			want(t, h.ops.post("/api/vue/ops/coupons", grant(map[string]any{"account": "0900000999"})), 404, "account_not_exist")
			want(t, h.ops.post("/api/vue/ops/coupons", grant(map[string]any{"account": "ops"})), 404, "account_not_exist")
			want(t, h.ops.post("/api/vue/ops/coupons", grant(map[string]any{"extra": 1})), 400, "invalid_request")
			want(t, m.post("/api/vue/ops/coupons", grant(nil)), 403, "forbidden")
		})
		a = h.ops.post("/api/vue/ops/coupons", grant(nil))
		want(t, a, 200, "coupon_granted")
		var g wire.CouponGrantResult
		a.data(t, &g)
		var granted wire.OpsCouponPage
		h.ops.at("/api/vue/ops/coupons", g.Position, &granted)
		if len(granted.Items) != 1 || granted.Items[0].Account != m.account || granted.Items[0].Actor != "ops:ops" ||
			granted.Items[0].Reason != "service recovery" || granted.Items[0].Left != 2 {
			t.Fatalf("granted %+v", granted)
		}

		// Refusals of an application write nothing.
		o := m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 1, "price": "187"})
		apply := func(c *client, couponID, orderNo string) answer {
			return c.post("/api/vue/coupons/"+couponID+"/apply", map[string]any{"orderNo": orderNo})
		}
		other := h.register(fmt.Sprintf("09%08d", 71000000+int(imageSizes.Add(1))))
		other.fund("300000")
		theirs := other.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 1, "price": "180"})
		h.unchanged(func() {
			want(t, apply(other, g.CouponId, theirs.OrderNo), 404, "coupon_not_found") // a foreign coupon
			want(t, apply(m, g.CouponId, theirs.OrderNo), 422, "coupon_order_invalid") // a foreign order
			want(t, apply(m, uuid.NewString(), o.OrderNo), 404, "coupon_not_found")
			want(t, apply(m, "not-a-uuid", o.OrderNo), 404, "coupon_not_found")
			want(t, apply(m, g.CouponId, "T0; drop"), 400, "coupon_order_invalid")
			want(t, m.post("/api/vue/coupons/"+g.CouponId+"/apply", map[string]any{}), 400, "invalid_request")
		})
		// The order filled when placed (it crossed the ask): applied now, the discount is paid at once,
		// capped at nothing here (NT$50 of a NT$266 commission).
		a = apply(m, g.CouponId, o.OrderNo)
		want(t, a, 200, "coupon_applied")
		var ap wire.CouponApplyResult
		a.data(t, &ap)
		if ap.Status != "redeemed" || ap.Discount != "50.00" || m.orderNamed(o.OrderNo).Commission != "266.00" {
			t.Fatalf("applied %+v", ap)
		}
		h.refused(422, "coupon_order_taken", func() answer { return apply(m, in.CouponId, o.OrderNo) })

		// A resting order carries the second use; a third order finds none left (attempts_insufficient).
		o2 := m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 1, "price": "186"})
		a = apply(m, g.CouponId, o2.OrderNo)
		want(t, a, 200, "coupon_applied")
		a.data(t, &ap)
		if ap.Status != "reserved" {
			t.Fatalf("applied %+v", ap)
		}
		r := m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 1, "price": "180"})
		h.refused(422, "attempts_insufficient", func() answer { return apply(m, g.CouponId, r.OrderNo) })

		// The market comes down to it and the order fills: the settle process pays the discount.
		th.mkt.book("2603", "186.5", "186", lvls("185.5", 5000), lvls("186", 5000))
		th.match("2603")
		coupon := waitCoupon(t, m, g.CouponId, func(c wire.Coupon) bool { return c.Discount == "100.00" })
		if coupon.Left != 0 || coupon.Status != wire.CouponStatusUsed {
			t.Fatalf("coupon after its fills %+v", coupon)
		}
		if c := m.orderNamed(o2.OrderNo).Commission; c != "265.00" {
			t.Fatalf("second order's commission %s", c)
		}
		h.refused(422, "attempts_insufficient", func() answer { return apply(m, g.CouponId, r.OrderNo) })

		// The check-in's coupon on the resting order, which is cancelled: the use comes back.
		want(t, apply(m, in.CouponId, r.OrderNo), 200, "coupon_applied")
		want(t, m.raw("DELETE", "/api/vue/trade/orders/"+r.OrderNo, "", nil, "Idempotency-Key", uuid.NewString()), 200, "order_cancelled")
		waitCoupon(t, m, in.CouponId, func(c wire.Coupon) bool { return c.Left == 1 && c.Status == wire.CouponStatusUsable })

		// Fees stay what trading charged; the discounts are lines of their own, from promotion expense.
		m.wantCash(h.head(), fmt.Sprintf("%.2f", 1000000-187000-266-186000-265+100.0), "0.00")
		recs := m.records("all", h.head())
		lines := map[string]string{}
		for _, x := range recs.Items {
			if x.Type == "coupon_discount" {
				lines[x.OrderNo] = x.Amount
			}
		}
		if len(lines) != 2 || lines[o.OrderNo] != "50.00" || lines[o2.OrderNo] != "50.00" {
			t.Fatalf("discount lines %v", lines)
		}
		var tl wire.Timeline
		h.aud.get("/api/vue/audit/accounts/"+m.account+"/timeline?size=200").data(t, &tl)
		redeemed := 0
		for _, e := range tl.Items {
			if strings.HasPrefix(e.Type, "CouponRedeemed.") {
				redeemed++
			}
		}
		if redeemed != 2 {
			t.Fatalf("%d redemptions in the auditor's timeline", redeemed)
		}

		// The next Taipei day (after midnight) continues the streak; the day's coupon expired the day after its last.
		h.clock.Advance(14*time.Hour + time.Second) // 00:00:01 on Tuesday in Taipei
		a = m.post("/api/vue/checkin", map[string]any{})
		want(t, a, 200, "checkin_success")
		a.data(t, &in)
		if in.Day != "2026-03-03" || in.Streak != 2 || in.CycleDay != 2 {
			t.Fatalf("second day %+v", in)
		}
		h.clock.Advance(8 * 24 * time.Hour)
		m = h.login(m.account, "secret123") // the session of eight days ago ended
		var mine []wire.Coupon
		m.at("/api/vue/coupons", h.head(), &mine)
		if len(mine) != 3 || mine[2].Status != wire.CouponStatusExpired || mine[0].Status != wire.CouponStatusExpired {
			t.Fatalf("coupons after eight days %+v", mine)
		}
		m.at("/api/vue/checkin", h.head(), &st)
		if st.CheckedInToday || st.Streak != 0 || st.NextCycleDay != 1 {
			t.Fatalf("a broken streak %+v", st)
		}
	})
}

// waitCoupon reads the member's coupon until ok holds (the settle process runs after the event
// that ended the order).
func waitCoupon(t *testing.T, c *client, id string, ok func(wire.Coupon) bool) wire.Coupon {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var cs []wire.Coupon
		c.at("/api/vue/coupons", c.h.head(), &cs)
		for _, x := range cs {
			if x.CouponId == id && ok(x) {
				return x
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("coupon %s never reached the state: %+v", id, cs)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
