package api

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/api/wire"
)

// Block trade over HTTP on SQLite and PostgreSQL: ops list a block at a premium on the market
// feed's reference price; a member's bad and refused applications change nothing; an application
// freezes its bid; two ops approving it at once fill it once; the holding is sold like any other;
// a rejection gives the cash back; a closed block refuses. The harness checks the ledger and the
// read models against replay after it.
func TestBlockTradeScenario(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		th.mkt.book("2603", "186.5", "186.5", lvls("186", 5000), lvls("187", 5000))
		now := h.clock.Now()

		// Refused listings change nothing.
		listing := func(over map[string]any) map[string]any {
			b := map[string]any{"symbol": "2603", "premiumPercent": "-2", "minLots": 2, "dailyCapLots": 4, "totalLots": 100, "password": "vip2026",
				"opensAt": now.Add(-time.Minute), "closesAt": now.Add(48 * time.Hour)}
			for k, v := range over {
				if v == nil {
					delete(b, k)
				} else {
					b[k] = v
				}
			}
			return b
		}
		h.unchanged(func() {
			want(t, h.ops.post("/api/vue/ops/block", listing(map[string]any{"premiumPercent": "12"})), 400, "premium_invalid")
			want(t, h.ops.post("/api/vue/ops/block", listing(map[string]any{"price": "183"})), 400, "price_required")
			want(t, h.ops.post("/api/vue/ops/block", listing(map[string]any{"premiumPercent": nil, "price": "206"})), 422, "price_out_of_band")
			want(t, h.ops.post("/api/vue/ops/block", listing(map[string]any{"symbol": "9999X"})), 404, "symbol_not_found")
			want(t, h.ops.post("/api/vue/ops/block", listing(map[string]any{"dailyCapLots": 1})), 400, "lots_invalid")
			want(t, h.ops.post("/api/vue/ops/block", listing(map[string]any{"totalLots": 3})), 400, "lots_invalid")
			want(t, h.ops.post("/api/vue/ops/block", listing(map[string]any{"totalLots": nil})), 400, "invalid_request")
			// 82 lots at 182.77 are worth 14,987,140: under 500 lots and NT$15 m, not a block.
			want(t, h.ops.post("/api/vue/ops/block", listing(map[string]any{"totalLots": 82})), 422, "block_size_too_small")
			want(t, m.post("/api/vue/ops/block", listing(nil)), 403, "forbidden")
		})
		a := h.ops.post("/api/vue/ops/block", listing(nil))
		want(t, a, 200, "ok")
		var listed wire.BlockListResult
		a.data(t, &listed)
		var blocks []wire.BlockListing
		m.at("/api/vue/block", listed.Position, &blocks)
		// 186.5 × 0.98 = 182.77 exactly.
		if len(blocks) != 1 || blocks[0].Price != "182.77" || blocks[0].ReferencePrice != "186.50" || blocks[0].PremiumRate != "-2.00" ||
			!blocks[0].HasPassword || blocks[0].Status != wire.BlockListingStatusOpen || blocks[0].TotalLots != 100 || blocks[0].RemainingLots != 100 {
			t.Fatalf("blocks %+v", blocks)
		}
		apply := "/api/vue/block/" + listed.BlockId + "/apply"
		body := func(lots int, bid, password string) map[string]any {
			b := map[string]any{"lots": lots, "bid": bid}
			if password != "" {
				b["password"] = password
			}
			return b
		}

		// Bad input and every refusal: a translated key, no event.
		h.unchanged(func() {
			want(t, m.post(apply, body(0, "183", "vip2026")), 400, "lots_invalid")
			want(t, m.post(apply, body(100001, "183", "vip2026")), 400, "lots_invalid")
			want(t, m.post(apply, body(2, "183.001", "vip2026")), 400, "price_invalid")
			want(t, m.post(apply, body(2, "-183", "vip2026")), 400, "price_invalid")
			want(t, m.post(apply, map[string]any{"lots": "2", "bid": "183"}), 400, "invalid_request")
			want(t, m.post(apply, map[string]any{"lots": 2, "bid": "183", "extra": 1}), 400, "invalid_request")
			want(t, m.post("/api/vue/block/"+uuid.NewString()+"/apply", body(2, "183", "vip2026")), 404, "block_not_found")
			want(t, m.post(apply, body(1, "183", "vip2026")), 422, "block_below_minimum")
			want(t, m.post(apply, body(5, "183", "vip2026")), 422, "block_over_daily_cap")
			want(t, m.post(apply, body(2, "182.76", "vip2026")), 422, "block_bid_below_minimum")
			want(t, m.post(apply, body(4, "250", "vip2026")), 422, "insufficient_balance")
			want(t, h.ops.post(apply, body(2, "183", "vip2026")), 403, "forbidden")
		})

		// A wrong password is refused and recorded (BlockPasswordRejected, no money moves).
		want(t, m.post(apply, body(2, "183", "")), 422, "block_password_wrong")
		want(t, m.post(apply, body(2, "183", "vip2027")), 422, "block_password_wrong")
		m.wantCash(h.head(), "1000000.00", "0.00")

		// 2 lots at 183: 366,000 and commission 521 (521.55) frozen.
		a = m.post(apply, body(2, "183", "vip2026"))
		want(t, a, 200, "block_applied")
		var app wire.BlockApplicationResult
		a.data(t, &app)
		m.wantCash(app.Position, "633479.00", "366521.00")
		h.unchanged(func() { want(t, m.post(apply, body(3, "183", "vip2026")), 422, "block_over_daily_cap") })

		// Two ops approve it at once: one fills it, the other is refused.
		var wg sync.WaitGroup
		answers := make([]answer, 2)
		for i := range answers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				answers[i] = h.ops.post("/api/vue/ops/block/applications/"+app.OrderNo+"/approve", map[string]any{"remark": "ok"})
			}()
		}
		wg.Wait()
		ok, refused := 0, 0
		for _, a := range answers {
			switch {
			case a.code == 200 && a.Msg == "ok":
				ok++
			case a.code == 422 && a.Msg == "order_not_pending":
				refused++
			default:
				t.Fatalf("approval answered %s", a)
			}
		}
		if ok != 1 || refused != 1 {
			t.Fatalf("approvals: %d applied, %d refused", ok, refused)
		}
		// Filled at 182.77: 365,540 and commission 520 (520.89); the rest of the freeze is back.
		m.wantCash(h.head(), "633940.00", "0.00")
		var mine wire.BlockApplicationPage
		m.at("/api/vue/block/applications", h.head(), &mine)
		if len(mine.Items) != 1 || mine.Items[0].Status != wire.ReviewStatusApproved || mine.Items[0].Lots != 2 || mine.Items[0].FilledLots != 2 ||
			mine.Items[0].Amount != "366521.00" || mine.Items[0].Account != nil {
			t.Fatalf("my applications %+v", mine)
		}
		m.at("/api/vue/block", h.head(), &blocks)
		if blocks[0].AppliedLots != 2 || blocks[0].FilledLots != 2 || blocks[0].RemainingLots != 98 {
			t.Fatalf("block lots %+v", blocks[0])
		}
		p := m.positionNamed(app.OrderNo)
		if p.Position.Status != wire.PositionHolding || p.Position.Shares != 2000 || p.Position.Fee != "520.00" || p.Position.EntryPrice != "182.77" {
			t.Fatalf("block holding %+v", p.Position)
		}
		if o := m.orderNamed(app.OrderNo); o.PlacedBy != wire.PlacedByBlock || o.Status != wire.TradeOrderStatusFilled || o.Amount != "365540.00" {
			t.Fatalf("block order %+v", o)
		}
		var recs wire.FundRecordPage
		m.at("/api/vue/funds/records?type=all&size=100", h.head(), &recs)
		lines := map[string]string{}
		for _, r := range recs.Items {
			if r.OrderNo == app.OrderNo {
				lines[string(r.Type)] = r.Amount + " " + string(r.Status)
			}
		}
		if lines["block"] != "366521.00 approved" || lines["unfreeze"] != "366521.00 completed" || lines["trade"] != "-365540.00 completed" ||
			lines["fee"] != "-520.00 completed" {
			t.Fatalf("fund records of the application %v", lines)
		}

		// The holding sells like any other.
		th.mkt.book("2603", "186.5", "188", lvls("188", 5000), lvls("188.5", 5000))
		want(t, m.post("/api/vue/trade/positions/"+app.OrderNo+"/close", map[string]any{"type": "market"}), 200, "close_submitted")
		if p := m.positionNamed(app.OrderNo); p.Position.Status != wire.PositionClosed || p.Position.ExitPrice != "188.00" {
			t.Fatalf("after selling %+v", p.Position)
		}

		// A rejection gives the freeze back; the cap still counts the approved lots.
		h.unchanged(func() { want(t, m.post(apply, body(3, "183", "vip2026")), 422, "block_over_daily_cap") })
		a = m.post(apply, body(2, "190", "vip2026"))
		want(t, a, 200, "block_applied")
		var second wire.BlockApplicationResult
		a.data(t, &second)
		before := m.cash(second.Position).Assets
		h.unchanged(func() {
			want(t, h.ops.post("/api/vue/ops/block/applications/"+second.OrderNo+"/reject", map[string]any{"remark": " "}), 400, "remark_required")
			want(t, h.ops.post("/api/vue/ops/block/applications/B000/approve", map[string]any{}), 404, "order_not_found")
		})
		var queue wire.BlockApplicationPage
		h.ops.at("/api/vue/ops/block/applications", h.head(), &queue)
		if len(queue.Items) != 1 || queue.Items[0].OrderNo != second.OrderNo || queue.Items[0].Account == nil || *queue.Items[0].Account != m.account ||
			queue.Items[0].MemberName == nil || *queue.Items[0].MemberName != "" {
			t.Fatalf("ops queue %+v", queue)
		}
		a = h.ops.post("/api/vue/ops/block/applications/"+second.OrderNo+"/reject", map[string]any{"remark": "allocation full"})
		want(t, a, 200, "ok")
		after := m.cash(h.head()).Assets
		if after.Frozen != "0.00" || d(t, after.Available).Sub(d(t, before.Available)).String() != "380541" {
			t.Fatalf("rejection gave back %s -> %s", before.Available, after.Available)
		}
		want(t, h.ops.post("/api/vue/ops/block/applications/"+second.OrderNo+"/approve", map[string]any{}), 422, "order_not_pending")

		// Closed by ops: applications are refused.
		want(t, h.ops.post("/api/vue/ops/block/"+listed.BlockId+"/close", map[string]any{"remark": "done"}), 200, "ok")
		h.unchanged(func() { want(t, m.post(apply, body(2, "183", "vip2026")), 422, "block_closed") })
		m.at("/api/vue/block", h.head(), &blocks)
		if blocks[0].Status != wire.BlockListingStatusClosed {
			t.Fatalf("closed block %+v", blocks[0])
		}
	})
}

// The exchange's rules on blocks over HTTP on SQLite and PostgreSQL: applications only in the
// block hours of Taipei trading days; five wrong block passwords, even sent at once, lock the
// member out of that block until the next Taipei day, recorded as events; approvals of several
// members fill at most the block's total; ops' queue names each applicant.
func TestBlockTradeRulesScenario(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "")
		th.mkt.book("2603", "186.5", "186.5", lvls("186", 5000), lvls("187", 5000))
		a, b := h.auctionMember(true, ""), h.auctionMember(false, "")
		for range 9 { // deposits are at most 1,000,000 each
			a.fund("1000000")
			b.fund("1000000")
		}
		now := h.clock.Now()
		// 83 lots at 182.77 are worth 15,169,910: a block by value.
		res := h.ops.post("/api/vue/ops/block", map[string]any{"symbol": "2603", "premiumPercent": "-2", "minLots": 1, "dailyCapLots": 60,
			"totalLots": 83, "password": "vip2026", "opensAt": now.Add(-time.Hour), "closesAt": now.Add(14 * 24 * time.Hour)})
		want(t, res, 200, "ok")
		var listed wire.BlockListResult
		res.data(t, &listed)
		apply := "/api/vue/block/" + listed.BlockId + "/apply"
		body := func(lots int, password string) map[string]any {
			return map[string]any{"lots": lots, "bid": "183", "password": password}
		}

		// Eight wrong passwords at once: five are recorded (the fifth answers locked), none more.
		before := h.head()
		answers := make([]answer, 8)
		var wg sync.WaitGroup
		for i := range answers {
			wg.Go(func() { answers[i] = b.post(apply, body(1, "guess"+strconv.Itoa(i))) })
		}
		wg.Wait()
		wrong, locked := 0, 0
		for _, r := range answers {
			switch {
			case r.code == 422 && r.Msg == "block_password_wrong":
				wrong++
			case r.code == 422 && r.Msg == "block_password_locked":
				locked++
			default:
				t.Fatalf("wrong password answered %s", r)
			}
		}
		if wrong != 4 || locked != 4 {
			t.Fatalf("answers: %d wrong, %d locked", wrong, locked)
		}
		if n := h.countEvents(t, before, "BlockPasswordRejected.v1"); n != 5 {
			t.Fatalf("%d wrong passwords recorded, want 5", n)
		}
		// Locked even with the right password, without writing; another member is not.
		h.unchanged(func() { want(t, b.post(apply, body(1, "vip2026")), 422, "block_password_locked") })
		res = a.post(apply, body(45, "vip2026"))
		want(t, res, 200, "block_applied")
		var first wire.BlockApplicationResult
		res.data(t, &first)

		// The next Taipei day the lock is gone.
		h.clock.Advance(24 * time.Hour)
		res = b.post(apply, body(40, "vip2026"))
		want(t, res, 200, "block_applied")
		var second wire.BlockApplicationResult
		res.data(t, &second)
		// 45 + 40 are more than the block's 83, but applications reserve nothing (more lots than
		// the block has left at all are refused, below): the approvals decide.

		// Ops' queue names each applicant: account and verified name (none for b).
		var queue wire.BlockApplicationPage
		h.ops.at("/api/vue/ops/block/applications", h.head(), &queue)
		names := map[string]string{}
		for _, it := range queue.Items {
			names[*it.Account] = *it.MemberName
		}
		if names[a.account] != "王小明" || names[b.account] != "" || len(queue.Items) != 2 {
			t.Fatalf("queue names %v", names)
		}

		// Approvals fill within the total: 45 fit, 40 more do not (38 left).
		approve := func(no string) answer {
			return h.ops.post("/api/vue/ops/block/applications/"+no+"/approve", map[string]any{"remark": "ok"})
		}
		want(t, approve(first.OrderNo), 200, "ok")
		h.unchanged(func() { want(t, approve(second.OrderNo), 422, "block_over_total") })
		var blocks []wire.BlockListing
		b.at("/api/vue/block", h.head(), &blocks)
		if len(blocks) != 1 || blocks[0].FilledLots != 45 || blocks[0].RemainingLots != 38 {
			t.Fatalf("block after the fill %+v", blocks)
		}
		// Rejected, b's application took nothing; a smaller one fills the rest of the block.
		want(t, h.ops.post("/api/vue/ops/block/applications/"+second.OrderNo+"/reject", map[string]any{"remark": "over the block"}), 200, "ok")
		res = b.post(apply, body(38, "vip2026"))
		want(t, res, 200, "block_applied")
		var third wire.BlockApplicationResult
		res.data(t, &third)
		h.catchUp() // ops approve what their queue shows: the application is in the read model
		want(t, approve(third.OrderNo), 200, "ok")
		b.at("/api/vue/block", h.head(), &blocks)
		if blocks[0].FilledLots != 83 || blocks[0].RemainingLots != 0 {
			t.Fatalf("block filled %+v", blocks[0])
		}
		h.unchanged(func() { want(t, a.post(apply, body(1, "vip2026")), 422, "block_over_total") })

		// Outside the block hours: block_closed and no event (17:00 on Tuesday, 10:00 on Saturday,
		// 08:59 on Monday); at 09:00 the block takes applications again (this one is refused for
		// the block being full, which is checked after the hours).
		taipei := time.FixedZone("Asia/Taipei", 8*3600)
		set := func(day, clock string) {
			at, err := time.ParseInLocation("2006-01-02 15:04", day+" "+clock, taipei)
			if err != nil {
				t.Fatal(err)
			}
			if at.Before(h.clock.Now()) {
				t.Fatalf("the clock is past %s already", at)
			}
			h.clock.Advance(at.Sub(h.clock.Now()))
		}
		for _, at := range [][2]string{{"2026-03-03", "17:00"}, {"2026-03-07", "10:00"}, {"2026-03-09", "08:59"}} {
			set(at[0], at[1])
			h.unchanged(func() { want(t, a.post(apply, body(1, "vip2026")), 422, "block_closed") })
		}
		set("2026-03-09", "09:00")
		h.unchanged(func() { want(t, a.post(apply, body(1, "vip2026")), 422, "block_over_total") })
	})
}

// countEvents counts the events of type typ (name.vN) after position from.
func (h *harness) countEvents(t *testing.T, from int64, typ string) int {
	t.Helper()
	evs, err := h.st.Store.ReadAll(t.Context(), from, 10000)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range evs {
		if e.Type == typ {
			n++
		}
	}
	return n
}
