package api

import (
	"testing"

	"github.com/lotbook/lotbook/api/wire"
)

// 現股當沖 selling first (先賣後買, market-rules 1e) over HTTP: the sale pays the day-trade tax
// 0.15 %, the buy-back only its commission; one left open at the close is bought back at market
// by the day-trade close, as a buy-first one is sold. Figures by hand; the harness verifies the
// ledger (balanced postings, projections equal to their replay, share accounts) after each.

func sellFirst(typ string, qty map[string]any) map[string]any {
	body := ticketOrder("day_trade", "regular", "ROD", typ, qty)
	body["direction"] = "short"
	return body
}

// sellFirstMarket is a member with NT$1,000,000 and 2603 quoted 187 bid, 187.5 asked, in the
// continuous session.
func sellFirstMarket(t *testing.T, h *harness) (*tradeHarness, *client) {
	th := newTradeHarness(t, h, "1000000")
	th.mkt.setSession("continuous", "intraday")
	th.mkt.book("2603", "186.5", "187", lvls("187", 5000), lvls("187.5", 5000))
	return th, th.m
}

func TestDayTradeSellFirstBuyBack(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th, m := sellFirstMarket(t, h)

		// Sold 1 lot at 187: 187,000, commission 266 (0.1425 %), tax 280 (0.15 %, not 0.3 %). The
		// buy-back is reserved like a short sale at leverage 1: 100 % of the value, 187,000.
		o := m.placed(sellFirst("market", lots(1, "")))
		od := m.orderNamed(o.OrderNo)
		if o.Status != wire.TradeOrderStatusFilled || od.Side != wire.Sell || !od.DayTrade || od.Condition != wire.ConditionDayTrade || od.Leverage != "1.00" {
			t.Fatalf("sell first %+v %+v", o, od)
		}
		m.wantCash(o.Position, "813000.00", "0.00")
		if p := m.positionNamed(o.OrderNo).Position; p.Direction != wire.TradePositionDirectionShort || !p.DayTrade || p.Tax != "280.00" ||
			p.Fee != "266.00" || p.Margin != "187000.00" {
			t.Fatalf("sell-first position %+v", p)
		}
		var s wire.DayTradingSummary
		m.at("/api/vue/trade/dayTrading", o.Position, &s)
		if s.HoldingShares != 1000 || len(s.Positions) != 1 {
			t.Fatalf("day trading %+v", s)
		}

		// Bought back at 186: 186,000 and commission 265, no tax. Collateral 186,454 + 187,000
		// less 186,265: 187,189 back, profit 189.
		th.mkt.book("2603", "186.5", "186", lvls("185.5", 5000), lvls("186", 5000))
		cl := m.closedAt(o.OrderNo, "186")
		if u := m.cash(cl.Position); u.Assets.Available != "1000189.00" || u.Assets.Frozen != "0.00" || u.Assets.Profit != "189.00" {
			t.Fatalf("after the buy-back %+v", u.Assets)
		}
		if p := m.positionNamed(o.OrderNo).Position; p.Status != wire.PositionClosed || p.Tax != "280.00" || p.Fee != "531.00" {
			t.Fatalf("closed sell-first %+v", p)
		}
		m.at("/api/vue/trade/dayTrading", cl.Position, &s)
		if s.HoldingShares != 0 || s.Profit != "189.00" || len(s.Orders) != 2 || s.Orders[1].Side != wire.Buy {
			t.Fatalf("day trading after the buy-back %+v", s)
		}

		// What the rules refuse, with no change: sell-first outside the regular session, in odd
		// lots, and by a member who may not trade (the same standing a short sale needs).
		h.unchanged(func() {
			want(t, m.order(map[string]any{"symbol": "2603", "direction": "short", "type": "limit", "lots": 1, "price": "186", "condition": "day_trade",
				"session": "fixed_price"}), 422, "day_trade_regular_only")
			want(t, m.order(map[string]any{"symbol": "2603", "direction": "short", "type": "limit", "shares": 300, "price": "186", "condition": "day_trade",
				"session": "odd_intraday"}), 400, "odd_lot_cash_only")
			want(t, m.order(map[string]any{"symbol": "2603", "direction": "short", "type": "limit", "lots": 1, "price": "186", "condition": "day_trade",
				"leverage": "1.11"}), 400, "condition_mismatch")
		})
		want(t, h.ops.post("/api/vue/ops/members/"+m.account+"/flags", map[string]any{"flag": "trade_banned", "on": true, "reason": "review"}), 200, "ok")
		h.unchanged(func() { want(t, m.order(sellFirst("market", lots(1, ""))), 403, "trade_banned") })
	})
}

func TestDayTradeSellFirstLeftOpenIsBoughtBackAtTheClose(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th, m := sellFirstMarket(t, h)
		o := m.placed(sellFirst("limit", lots(1, "187")))
		th.mkt.book("2603", "186.5", "188", lvls("187.5", 5000), lvls("188", 5000))
		th.closesAtSessionEnd(o.OrderNo)
		// Sold 187,000 - 266 - 280; bought back at market at 188: 188,000 + 267. Loss 1,813.
		var s wire.DayTradingSummary
		m.at("/api/vue/trade/dayTrading", h.head(), &s)
		if s.HoldingShares != 0 || s.Profit != "-1813.00" || len(s.Orders) != 2 || s.Orders[1].PlacedBy != wire.PlacedByDayTradeClose ||
			s.Orders[1].Side != wire.Buy {
			t.Fatalf("after the close %+v", s)
		}
		m.wantCash(h.head(), "998187.00", "0.00")
	})
}
