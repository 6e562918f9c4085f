package api

import (
	"testing"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands/copytrade/mirror"
)

// A copy keeps trading with the follower's money, over HTTP on SQLite and PostgreSQL. A follower
// with 150,000 commits 100,000 to a mentor with about 1,000,000. The mentor buys 10 lots of 2603
// at 20: the follow buys 1 lot for 20,028 (commission 28). While the follow is in progress its
// current profit is valued at the market's last price: at 20 the lot would sell for 20,000 less
// commission 28 and day-trade tax 30, 86 below its cost; at 22 for 22,000 less 31 and 33, 1,908
// above it, of which a stop would charge 10 % (190). Up to 22, the mentor sells all and so
// does the follow: the sale's net proceeds, 22,000 less commission 31 and the day-trade tax 33,
// go back into the commitment (a copy_return fund record), not to available cash, which stays
// 50,000. The mentor buys 41 lots at 22: the follow buys 4 lots for 88,125 from the commitment,
// which only has room for them thanks to the proceeds: the 1,908 realised, the 4 lots at 22 would
// sell for 88,000 less 125 and 132 (382 below cost). The follower stops, closing the position at
// market: the stop is requested first, so the closing sale's proceeds stay available whenever the
// mirror hears of them; the commitment is released, 10 % of the copy profit charged; nothing is
// left frozen. The harness checks the ledger
// and the read models against replay, and verify, after it.
func TestCopyTradeProceedsScenario(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "")
		th.mkt.book("2603", "20", "20", lvls("19.9", 50000), lvls("20", 100000))
		mentor, follower, _, fid := copyFollow(t, h, "Cat", "0955300001", "1000000", "0955300002", "150000", "100000")
		follower.wantCash(h.head(), "50000.00", "100000.00")

		buy := mentor.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "market", "lots": 10})
		var f wire.FollowDetail
		h.until("the mirrored buy", func() bool {
			f = follower.follow(fid)
			return len(f.Positions) == 1 && len(f.Orders) == 1 && f.Orders[0].Filled == 1000
		})
		if f.Follow.Spent != "20028.00" || f.Follow.Remaining != "79972.00" {
			t.Fatalf("follow after the mirrored buy %+v", f.Follow)
		}
		follower.wantCash(h.head(), "50000.00", "79972.00")
		wantCurrent(t, h, follower, fid, "0.00", "-86.00", "-86.00", "0.00")
		// the price moves without a trade: the figure follows it
		th.mkt.book("2603", "20", "22", lvls("22", 50000), lvls("22.1", 100000))
		wantCurrent(t, h, follower, fid, "0.00", "1908.00", "1908.00", "190.00")
		var list wire.FollowPage // the records list values it the same way
		follower.at("/api/vue/copytrade/follows", h.head(), &list)
		if len(list.Items) != 1 || list.Items[0].Current == nil || list.Items[0].Current.Profit != "1908.00" {
			t.Fatalf("follows listed %+v", list.Items)
		}

		want(t, mentor.post("/api/vue/trade/positions/"+buy.PositionId+"/close", map[string]any{"type": "market"}), 200, "close_submitted")
		h.until("the mirrored sale's proceeds back in the commitment", func() bool {
			f = follower.follow(fid)
			return len(f.Positions) == 0 && len(f.Orders) == 2 && f.Orders[0].Status == "filled" && f.Follow.Remaining == "101908.00"
		})
		if f.Orders[0].Side != wire.CopyOrderSell || f.Orders[0].Profit != "1908.00" || f.Follow.Spent != "20028.00" {
			t.Fatalf("follow after the mirrored sale %+v %+v", f.Follow, f.Orders)
		}
		follower.wantCash(h.head(), "50000.00", "101908.00")
		wantCurrent(t, h, follower, fid, "1908.00", "0.00", "1908.00", "190.00")
		if recs := follower.records("copy_return", h.head()); len(recs.Items) != 1 || recs.Items[0].Amount != "-21936.00" ||
			recs.Items[0].OrderNo != fid {
			t.Fatalf("follower's copy_return records %+v", recs)
		}

		// 41 lots at 22 (902,000 of the mentor's about 1,019,000): 88,400 of the follow's 100,000,
		// 4 lots for 88,125 (commission 125), more than the 79,972 left after the first buy: the
		// proceeds pay for it, and the follow has spent more than it committed.
		th.mkt.book("2603", "20", "22", lvls("21.95", 50000), lvls("22", 100000))
		mentor.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "market", "lots": 41})
		h.until("the second mirrored buy", func() bool {
			f = follower.follow(fid)
			return len(f.Positions) == 1 && len(f.Orders) == 3 && f.Orders[0].Status == "filled" && f.Orders[0].Filled == 4000
		})
		if f.Follow.Spent != "108153.00" || f.Follow.Remaining != "13783.00" {
			t.Fatalf("follow after the second mirrored buy %+v", f.Follow)
		}
		follower.wantCash(h.head(), "50000.00", "13783.00")
		wantCurrent(t, h, follower, fid, "1908.00", "-382.00", "1526.00", "152.00")

		// Stopped closing at market (21.95: 87,800 less commission 125 and tax 131, a loss of 581):
		// the copy profit 1,908 − 581 = 1,327 and its 10 % share 132; the 13,783 left released, the
		// closing sale's 87,544 available: 50,000 + 13,783 − 132 + 87,544.
		a := follower.post("/api/vue/copytrade/follows/"+fid+"/stop", map[string]any{"closePositions": true})
		want(t, a, 200, "follow_stopped")
		h.until("the position closed", func() bool {
			f = follower.follow(fid)
			return len(f.Positions) == 0 && len(f.Orders) == 4 && f.Orders[0].Status == "filled"
		})
		// The stop is requested before the closing sale is placed: whenever the mirror hears of the
		// sale, its proceeds stay available, and the stop releases the 13,783 the commitment held.
		if f.Follow.State != wire.FollowCancelled || f.Follow.Released != "13783.00" || f.Follow.Profit != "1327.00" || f.Follow.Share != "132.00" ||
			f.Follow.Remaining != "0.00" || f.Follow.Spent != "108153.00" {
			t.Fatalf("stopped follow %+v", f.Follow)
		}
		if f.Follow.Current != nil { // settled: profit and share are the stop's
			t.Fatalf("stopped follow still valued now %+v", *f.Follow.Current)
		}
		follower.wantCash(h.head(), "151195.00", "0.00")
		// once the mirror has read past the closing sale, it has put nothing back
		mp, head := h.registered(mirror.ProcessName).(*mirror.Process), h.head()
		h.until("the mirror read past the stop", func() bool { return mp.Position() >= head })
		h.catchUp()
		if recs := follower.records("copy_return", h.head()); len(recs.Items) != 1 {
			t.Fatalf("proceeds returned after the stop was requested %+v", recs)
		}
		if recs := follower.records("copy_release", h.head()); len(recs.Items) != 1 || recs.Items[0].Amount != "13783.00" {
			t.Fatalf("follower's copy_release records %+v", recs)
		}
	})
}

// wantCurrent waits until follow id in progress is valued now as given: the positions it values
// are trading's read model, which may still be catching up with the copy-trade one the caller
// waited on.
func wantCurrent(t *testing.T, h *harness, c *client, id, realised, unrealised, profit, share string) {
	t.Helper()
	h.until("follow "+id+" valued at realised "+realised+" unrealised "+unrealised+" profit "+profit+" share "+share, func() bool {
		v := c.follow(id).Follow.Current
		return v != nil && v.Realised == realised && v.Unrealised == unrealised && v.Profit == profit && v.Share == share
	})
}
