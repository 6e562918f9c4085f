package api

import (
	"testing"

	"github.com/lotbook/lotbook/api/wire"
)

// A mentor's short sales (融券) mirrored over HTTP on SQLite and PostgreSQL. A member with
// about 1,000,000 opts in as a mentor; a follower commits 200,000. The mentor sells 10 lots of
// 2603 short at market at 19.9, below the reference 20: the follower's mirrored short (a limit
// sale at 19.9, 2 lots) is refused as a member's own would be (short_below_reference), its part
// goes back to the commitment and the follow shows the refusal; nothing else changes. The
// mentor covers (a losing round trip), then sells 10 lots short at 20: the follower sells 2 lots
// short, its margin (reserved at the limit-up 22, 39,640; 36,037 once filled at 20, the rest
// back) taken from the commitment. The price falls to 18: the mentor covers half and the
// follower covers 1 lot, then the mentor covers the rest and so does the follower, a profit; the
// covers' released margin and profit go back into the commitment, which the stop releases.
// A second follow's mirrored short is covered at market when the follower stops it closing its
// positions. The mentor's statistics count its two closed short round trips. The harness checks
// the ledger and the read models against replay after it.
func TestCopyTradeShortScenario(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "")
		th.mkt.book("2603", "20", "19.9", lvls("19.9", 100000), lvls("20", 100000))
		mentor, follower, mentorID, fid := copyFollow(t, h, "Bea", "0955200001", "1000000", "0955200002", "300000", "200000")

		// A short at market below the reference: the follower's limit sale at 19.9 is refused.
		short := map[string]any{"symbol": "2603", "direction": "short", "type": "market", "lots": 10, "condition": "short"}
		first := mentor.placed(short)
		if first.Filled != 10000 {
			t.Fatalf("mentor's short %+v", first)
		}
		var f wire.FollowDetail
		h.until("the refused mirrored short", func() bool {
			f = follower.follow(fid)
			return f.Follow.LastRefusal != nil
		})
		if r := f.Follow.LastRefusal; r.Reason != wire.MessageKeyShortBelowReference || r.Symbol != "2603" || r.Direction != wire.CopyRefusalShort ||
			r.Shares != 2000 || len(f.Orders) != 0 || len(f.Positions) != 0 || f.Follow.Spent != "0.00" || f.Follow.Remaining != "200000.00" {
			t.Fatalf("follow after the refused short %+v %+v", f, f.Follow.LastRefusal)
		}
		follower.wantCash(h.head(), "100000.00", "200000.00")
		var pos wire.TradePositionPage
		follower.at("/api/vue/trade/positions", h.head(), &pos)
		if len(pos.Items) != 0 {
			t.Fatalf("follower's positions after the refusal %+v", pos)
		}
		// The mentor covers at 20: a losing round trip, nothing to mirror.
		want(t, mentor.post("/api/vue/trade/positions/"+first.PositionId+"/close", map[string]any{"type": "market"}), 200, "close_submitted")

		// A short at 20: the follower sells 2 lots short.
		th.mkt.book("2603", "20", "20", lvls("20", 100000), lvls("20.05", 100000))
		second := mentor.placed(map[string]any{"symbol": "2603", "direction": "short", "type": "limit", "price": "20", "lots": 10,
			"condition": "short"})
		if second.Filled != 10000 {
			t.Fatalf("mentor's second short %+v", second)
		}
		h.until("the mirrored short", func() bool {
			f = follower.follow(fid)
			return len(f.Positions) == 1 && f.Positions[0].Shares == 2000 && len(f.Orders) == 1 && f.Orders[0].Status == "filled" &&
				f.Follow.Remaining == "163963.00"
		})
		if o, p := f.Orders[0], f.Positions[0]; o.Side != wire.CopyOrderSell || o.Direction != wire.CopyOrderShort || o.Intent != wire.CopyOrderIntentOpen ||
			p.Direction != wire.CopyPositionShort || f.Follow.Spent != "36037.00" {
			t.Fatalf("follow after the mirrored short %+v", f)
		}
		// 40,000 / 1.11 = 36,036.04 of margin, rounded up; the proceeds are the broker's collateral
		follower.wantCash(h.head(), "100000.00", "163963.00")
		var orders wire.TradeOrderPage
		follower.at("/api/vue/trade/orders?status=all", h.head(), &orders)
		if len(orders.Items) != 1 || orders.Items[0].Direction != "short" || orders.Items[0].Origin == nil || *orders.Items[0].Origin != fid ||
			orders.Items[0].OriginName == nil || *orders.Items[0].OriginName != "Bea" {
			t.Fatalf("follower's orders %+v", orders)
		}

		// Down to 18: the mentor covers half, the follower 1 lot; then the rest, and so does the follower.
		th.mkt.book("2603", "20", "18", lvls("17.95", 100000), lvls("18", 100000))
		want(t, mentor.post("/api/vue/trade/positions/"+second.PositionId+"/close", map[string]any{"type": "market", "lots": 5}), 200, "close_submitted")
		h.until("the mirrored partial cover", func() bool {
			f = follower.follow(fid)
			return len(f.Positions) == 1 && f.Positions[0].Shares == 1000 && len(f.Orders) == 2 && f.Orders[0].Status == "filled"
		})
		want(t, mentor.post("/api/vue/trade/positions/"+second.PositionId+"/close", map[string]any{"type": "market"}), 200, "close_submitted")
		h.until("the mirrored cover", func() bool {
			f = follower.follow(fid)
			return len(f.Positions) == 0 && len(f.Orders) == 3 && f.Orders[0].Status == "filled" && f.Follow.Remaining == "203773.00"
		})
		for _, o := range f.Orders[:2] {
			if o.Side != wire.CopyOrderBuy || o.Intent != wire.CopyOrderIntentClose || o.Direction != wire.CopyOrderShort || o.Filled != 1000 {
				t.Fatalf("mirrored covers %+v", f.Orders)
			}
		}
		// sold 2,000 at 20 for 40,000 less commission 57 and tax 120: 39,823 of collateral from
		// proceeds; each lot bought back at 18 for 18,000 and commission 25: 19,911.50 − 18,025
		if f.Orders[0].Profit != "1886.50" || f.Orders[1].Profit != "1886.50" {
			t.Fatalf("mirrored covers' profit %+v", f.Orders)
		}
		follower.at("/api/vue/trade/positions", h.head(), &pos)
		if len(pos.Items) != 0 {
			t.Fatalf("follower's positions after the covers %+v", pos)
		}
		// each cover's released margin and profit went back into the commitment: 163,963 + 36,037
		// + 3,773; available cash is unchanged
		follower.wantCash(h.head(), "100000.00", "203773.00")
		a := follower.post("/api/vue/copytrade/follows/"+fid+"/stop", map[string]any{"closePositions": false})
		want(t, a, 200, "follow_stopped")
		f = follower.follow(fid)
		// the copy profit 3,773 and its 10 % share (377.30, rounded down) for the mentor
		if f.Follow.State != wire.FollowCancelled || f.Follow.Released != "203773.00" || f.Follow.Profit != "3773.00" || f.Follow.Share != "377.00" {
			t.Fatalf("stopped follow %+v", f.Follow)
		}

		// A second follow, stopped with its short covered at market.
		th.mkt.book("2603", "20", "20", lvls("20", 100000), lvls("20.05", 100000))
		a = follower.post("/api/vue/copytrade/follows", map[string]any{"mentorId": mentorID, "amount": "200000", "days": 7})
		want(t, a, 200, "follow_started")
		var started wire.CopyTradeResult
		a.data(t, &started)
		fid2 := *started.FollowId
		mentor.placed(map[string]any{"symbol": "2603", "direction": "short", "type": "limit", "price": "20", "lots": 10, "condition": "short"})
		h.until("the second mirrored short", func() bool {
			f = follower.follow(fid2)
			return len(f.Positions) == 1 && f.Positions[0].Direction == wire.CopyPositionShort && len(f.Orders) == 1 && f.Orders[0].Status == "filled"
		})
		a = follower.post("/api/vue/copytrade/follows/"+fid2+"/stop", map[string]any{"closePositions": true})
		want(t, a, 200, "follow_stopped")
		f = follower.follow(fid2)
		if f.Follow.State != wire.FollowCancelled || len(f.Positions) != 0 || len(f.Orders) != 2 || f.Orders[0].Side != wire.CopyOrderBuy ||
			f.Orders[0].Direction != wire.CopyOrderShort || f.Orders[0].Status != "filled" || !f.Follow.ClosePositions {
			t.Fatalf("second follow %+v", f)
		}
		follower.at("/api/vue/trade/positions", h.head(), &pos)
		if len(pos.Items) != 0 {
			t.Fatalf("follower's positions after the stop %+v", pos)
		}

		// The mentor's figures: two closed short round trips, one lost and one won; the third short is open.
		var m wire.Mentor
		follower.at("/api/vue/copytrade/mentors/"+mentorID, h.head(), &m)
		if m.RoundTrips != 2 || m.WinRate != "0.5" {
			t.Fatalf("mentor %+v", m)
		}
	})
}
