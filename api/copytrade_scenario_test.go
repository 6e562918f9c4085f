package api

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/events"
)

func (c *client) follow(id string) wire.FollowDetail {
	c.h.t.Helper()
	var f wire.FollowDetail
	c.at("/api/vue/copytrade/follows/"+id, c.h.head(), &f)
	return f
}

func (c *client) myMentor() wire.MyMentor {
	c.h.t.Helper()
	var m wire.MyMentor
	c.at("/api/vue/copytrade/profile", c.h.head(), &m)
	return m
}

// copyFollow opts a new member (phone mentorPhone, funded with mentorCash) in as mentor name
// (minimum 10,000, 30 days, 10 % profit share) and has another (followerPhone, followerCash)
// follow it with amount.
func copyFollow(t *testing.T, h *harness, name, mentorPhone, mentorCash, followerPhone, followerCash, amount string) (mentor, follower *client,
	mentorID, followID string) {
	t.Helper()
	mentor = h.register(mentorPhone)
	mentor.fund(mentorCash)
	mentorID = events.MemberID(mentor.account)
	follower = h.register(followerPhone)
	follower.fund(followerCash)
	want(t, mentor.post("/api/vue/copytrade/profile", map[string]any{"displayName": name, "minAmount": "10000", "windowDays": 30,
		"profitShare": "10"}), 200, "mentor_saved")
	a := follower.post("/api/vue/copytrade/follows", map[string]any{"mentorId": mentorID, "amount": amount})
	want(t, a, 200, "follow_started")
	var started wire.CopyTradeResult
	a.data(t, &started)
	return mentor, follower, mentorID, *started.FollowId
}

// Copy trading over HTTP on SQLite and PostgreSQL. A member opts in as a mentor (10 % profit
// share, minimum 10,000, 30 days); a follower's refusals (below the minimum, an unknown mentor, a
// longer window, itself) change nothing; it follows with 200,000, held as frozen cash. The mentor
// buys 10 lots of 2603 at 20 with about 1,000,000 of fund scale: the mirror buys 2 lots
// (200,000 × 200,000 / 1,000,000 = 40,000) in the follower's account, an ordinary order whose
// origin is the follow, costing 40,057 of the commitment. The price rises to 22 and the mentor
// sells all: the mirror sells the follower's 2 lots at market, their net proceeds back into the
// commitment. The follower stops: the commitment (with the proceeds) is released and 10 % of the copy profit is paid to the mentor, shown to both. A
// second follow is stopped with its position closed at market. Another member sees neither
// follow. The mentor's statistics come from its fills: one round trip, won. The harness checks
// the ledger and the read models against replay after it.
func TestCopyTradeScenario(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "")
		th.mkt.book("2603", "20", "20", lvls("19.9", 50000), lvls("20", 100000))
		mentor := h.register("0955100001")
		mentor.fund("1000000")
		mentorID := events.MemberID(mentor.account)
		follower := h.register("0955100002")
		follower.fund("300000")
		other := h.register("0955100003")
		other.fund("50000")

		h.unchanged(func() {
			want(t, follower.post("/api/vue/copytrade/follows", map[string]any{"mentorId": mentorID, "amount": "20000"}), 404, "mentor_not_exist")
			want(t, mentor.post("/api/vue/copytrade/profile", map[string]any{"displayName": "Ann", "minAmount": "10000", "windowDays": 30,
				"profitShare": "20.5"}), 400, "profit_share_invalid")
			want(t, mentor.post("/api/vue/copytrade/profile", map[string]any{"displayName": "Ann", "minAmount": "10", "windowDays": 30,
				"profitShare": "10"}), 400, "minimum_amount_invalid")
		})
		want(t, mentor.post("/api/vue/copytrade/profile", map[string]any{"displayName": "Ann", "minAmount": "10000", "windowDays": 30,
			"profitShare": "10"}), 200, "mentor_saved")
		h.unchanged(func() {
			want(t, follower.post("/api/vue/copytrade/follows", map[string]any{"mentorId": mentorID, "amount": "9999"}), 422, "buy_amount_below_minimum")
			want(t, follower.post("/api/vue/copytrade/follows", map[string]any{"mentorId": "nobody", "amount": "20000"}), 404, "mentor_not_exist")
			want(t, follower.post("/api/vue/copytrade/follows", map[string]any{"mentorId": mentorID, "amount": "20000", "days": 31}), 422, "time_limit_exceeded")
			want(t, follower.post("/api/vue/copytrade/follows", map[string]any{"mentorId": mentorID, "amount": "300001"}), 422, "insufficient_balance")
			want(t, mentor.post("/api/vue/copytrade/follows", map[string]any{"mentorId": mentorID, "amount": "20000"}), 422, "follow_self")
			want(t, follower.post("/api/vue/copytrade/follows", map[string]any{"mentorId": mentorID, "amount": 20000}), 400, "invalid_request")
		})
		a := follower.post("/api/vue/copytrade/follows", map[string]any{"mentorId": mentorID, "amount": "200000"})
		want(t, a, 200, "follow_started")
		var started wire.CopyTradeResult
		a.data(t, &started)
		fid := *started.FollowId
		follower.wantCash(started.Position, "100000.00", "200000.00")

		// The mentor buys 10 lots: the follower's 2 lots follow.
		buy := mentor.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "market", "lots": 10})
		if buy.Filled != 10000 {
			t.Fatalf("mentor's buy %+v", buy)
		}
		var f wire.FollowDetail
		h.until("the mirrored buy", func() bool {
			f = follower.follow(fid)
			return len(f.Positions) == 1 && f.Positions[0].Shares == 2000 && len(f.Orders) == 1 && f.Orders[0].Filled == 2000
		})
		if len(f.Orders) != 1 || f.Orders[0].Side != wire.CopyOrderBuy || f.Orders[0].Filled != 2000 || f.Follow.Spent != "40057.00" ||
			f.Follow.Remaining != "159943.00" || f.Follow.State != wire.FollowInProgress {
			t.Fatalf("follow after the mirrored buy %+v", f)
		}
		follower.wantCash(h.head(), "100000.00", "159943.00")
		// The follower's order is an ordinary one, visible in its orders.
		var orders wire.TradeOrderPage
		follower.at("/api/vue/trade/orders?status=all", h.head(), &orders)
		if len(orders.Items) != 1 || orders.Items[0].OrderNo != f.Orders[0].OrderNo {
			t.Fatalf("follower's orders %+v", orders)
		}
		// ... shown as copied from the mentor; the mentor's own order is its own.
		if o := orders.Items[0]; o.Origin == nil || *o.Origin != fid || o.OriginName == nil || *o.OriginName != "Ann" {
			t.Fatalf("follower's order origin %+v", o)
		}
		var own wire.TradeOrderPage
		mentor.at("/api/vue/trade/orders?status=all", h.head(), &own)
		if len(own.Items) != 1 || own.Items[0].Origin != nil || own.Items[0].OriginName != nil {
			t.Fatalf("mentor's orders %+v", own)
		}

		// Up to 22: the mentor sells all, and so does the follow.
		th.mkt.book("2603", "20", "22", lvls("22", 50000), lvls("22.1", 100000))
		a = mentor.post("/api/vue/trade/positions/"+buy.PositionId+"/close", map[string]any{"type": "market"})
		want(t, a, 200, "close_submitted")
		h.until("the mirrored sale", func() bool {
			f = follower.follow(fid)
			return len(f.Positions) == 0 && len(f.Orders) == 2 && f.Orders[0].Status == "filled" && f.Follow.Remaining == "203815.00"
		})
		// 2,000 × 22 = 44,000 less commission 62 and the day-trade tax 66 (bought and sold the same
		// day), against the 40,057 paid; the net proceeds 43,872 are back in the commitment
		profit := decimal.RequireFromString("3815")
		follower.wantCash(h.head(), "100000.00", "203815.00")

		// Another member sees nothing of the follow, and cannot stop it.
		want(t, other.get("/api/vue/copytrade/follows/"+fid), 404, "follow_not_found")
		h.unchanged(func() {
			want(t, other.post("/api/vue/copytrade/follows/"+fid+"/stop", map[string]any{"closePositions": true}), 404, "follow_not_found")
		})
		a = follower.post("/api/vue/copytrade/follows/"+fid+"/stop", map[string]any{"closePositions": false})
		want(t, a, 200, "follow_stopped")
		f = follower.follow(fid)
		share := profit.Mul(decimal.NewFromInt(10)).Div(decimal.NewFromInt(100)).Floor()
		if f.Follow.State != wire.FollowCancelled || f.Follow.Released != "203815.00" || f.Follow.Profit != "3815.00" ||
			f.Follow.Share != share.StringFixed(2) {
			t.Fatalf("stopped follow %+v", f.Follow)
		}
		h.until("the mentor's profit share", func() bool { return mentor.myMentor().ShareIncome == share.StringFixed(2) })
		h.unchanged(func() {
			want(t, follower.post("/api/vue/copytrade/follows/"+fid+"/stop", map[string]any{"closePositions": true}), 422, "follow_not_in_progress")
		})
		recs := follower.records("copy_profit_share", h.head())
		if len(recs.Items) != 1 || recs.Items[0].Amount != share.Neg().StringFixed(2) {
			t.Fatalf("follower's profit share records %+v", recs)
		}
		if recs := mentor.records("copy_share_income", h.head()); len(recs.Items) != 1 || recs.Items[0].Amount != share.StringFixed(2) {
			t.Fatalf("mentor's profit share records %+v", recs)
		}

		// A second follow, stopped with its position closed at market: the mentor buys 5 lots at
		// 21.5 (107,500 of about 1,019,000), the follow 1 lot of its 250,000.
		th.mkt.book("2603", "20", "21.5", lvls("21.45", 50000), lvls("21.5", 100000))
		a = follower.post("/api/vue/copytrade/follows", map[string]any{"mentorId": mentorID, "amount": "250000", "days": 7})
		want(t, a, 200, "follow_started")
		a.data(t, &started)
		fid2 := *started.FollowId
		mentor.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "market", "lots": 5})
		h.until("the second mirrored buy", func() bool {
			f := follower.follow(fid2)
			return len(f.Positions) == 1 && len(f.Orders) == 1
		})
		// The market is closed: the stop is recorded, the close refused; the follow shows as
		// stopping (its commitment not yet released, still valued) until it is stopped again.
		th.mkt.setSession("closed", "closed")
		want(t, follower.post("/api/vue/copytrade/follows/"+fid2+"/stop", map[string]any{"closePositions": true}), 422, "not_trading_time")
		th.mkt.setSession("", "")
		f = follower.follow(fid2)
		if f.Follow.State != wire.FollowStopping || f.Follow.Remaining == "0.00" || f.Follow.Current == nil || len(f.Positions) != 1 {
			t.Fatalf("follow left stopping %+v %+v", f.Follow, f.Positions)
		}
		var live wire.FollowPage
		follower.at("/api/vue/copytrade/follows?state=stopping", h.head(), &live)
		if len(live.Items) != 1 || live.Items[0].FollowId != fid2 {
			t.Fatalf("stopping follows %+v", live.Items)
		}
		a = follower.post("/api/vue/copytrade/follows/"+fid2+"/stop", map[string]any{"closePositions": true})
		want(t, a, 200, "follow_stopped")
		f = follower.follow(fid2)
		if f.Follow.State != wire.FollowCancelled || len(f.Positions) != 0 || len(f.Orders) != 2 || !f.Follow.ClosePositions {
			t.Fatalf("second follow %+v", f)
		}

		// The mentor's figures come from its fills.
		var ms wire.MentorList
		other.at("/api/vue/copytrade/mentors", h.head(), &ms)
		if len(ms.Items) != 1 || ms.Items[0].RoundTrips != 1 || ms.Items[0].WinRate != "1" || ms.Items[0].CopyAmount != "450000.00" ||
			ms.Items[0].Level != wire.Junior || ms.Items[0].DisplayName != "Ann" {
			t.Fatalf("mentors %+v", ms)
		}
		var follows wire.FollowPage
		follower.at("/api/vue/copytrade/follows", h.head(), &follows)
		if len(follows.Items) != 2 {
			t.Fatalf("follows %+v", follows)
		}
		want(t, other.get("/api/vue/copytrade/mentors/nobody"), 404, "mentor_not_exist")
	})
}
