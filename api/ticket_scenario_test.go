package api

import (
	"context"
	"testing"

	"github.com/lotbook/lotbook/api/wire"
)

// The order ticket in Taiwan terms over HTTP: each condition (現股, 融資, 融券, 現股當沖), each
// session (整股, 盤中零股, 盤後零股 and 盤後定價 under a scripted session clock) and time in force
// (ROD, IOC, FOK), the refusals the exchange makes, and the engine's call auctions. Figures by hand
// from market-rules.md; the harness verifies the ledger after each scenario.

func ticketOrder(condition, session, tif, typ string, qty map[string]any) map[string]any {
	direction := "long"
	if condition == "short" {
		direction = "short"
	}
	body := map[string]any{"symbol": "2603", "direction": direction, "type": typ, "condition": condition, "session": session, "timeInForce": tif}
	for k, v := range qty {
		body[k] = v
	}
	return body
}

func lots(n int, price string) map[string]any {
	if price == "" {
		return map[string]any{"lots": n}
	}
	return map[string]any{"lots": n, "price": price}
}

func shares(n int, price string) map[string]any { return map[string]any{"shares": n, "price": price} }

func TestTicketConditionsAndTimeInForceInTheRegularSession(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		m.fund("1000000")
		th.mkt.setSession("continuous", "intraday")
		th.mkt.book("2603", "186.5", "186.5", lvls("186", 5000), lvls("186.5", 2000, "187", 5000))

		// 現股 ROD: crosses 2 lots at 186.5 at once.
		cash := m.placed(ticketOrder("cash", "regular", "ROD", "limit", lots(2, "186.5")))
		if cash.Status != wire.TradeOrderStatusFilled || cash.Filled != 2000 {
			t.Fatalf("cash order %+v", cash)
		}
		if o := m.orderNamed(cash.OrderNo); o.Condition != wire.ConditionCash || o.Session != wire.SessionRegular || o.TimeInForce != wire.TimeInForceROD ||
			o.Leverage != "1.00" {
			t.Fatalf("cash order listed %+v", o)
		}
		// IOC: 3 lots at 186.5 against 2 left at 186.5 (the scripted book is the same for each
		// order): 2 fill, the third is cancelled.
		ioc := m.placed(ticketOrder("cash", "regular", "IOC", "limit", lots(3, "186.5")))
		if ioc.Status != wire.TradeOrderStatusCancelled || ioc.Filled != 2000 {
			t.Fatalf("IOC %+v", ioc)
		}
		if o := m.orderNamed(ioc.OrderNo); o.Reason != "ioc_unfilled" || o.TimeInForce != wire.TimeInForceIOC || o.Filled != 2000 {
			t.Fatalf("IOC listed %+v", o)
		}
		// FOK: 3 lots cannot fill whole at 186.5: nothing fills, nothing stays frozen.
		before := m.cash(h.head())
		fok := m.placed(ticketOrder("cash", "regular", "FOK", "limit", lots(3, "186.5")))
		if fok.Status != wire.TradeOrderStatusCancelled || fok.Filled != 0 {
			t.Fatalf("FOK %+v", fok)
		}
		m.wantCash(fok.Position, before.Assets.Available, before.Assets.Frozen)
		// FOK that can fill whole does.
		if all := m.placed(ticketOrder("cash", "regular", "FOK", "market", lots(3, ""))); all.Status != wire.TradeOrderStatusFilled || all.Filled != 3000 {
			t.Fatalf("FOK market %+v", all)
		}

		// 融資: the leverage 2.5 (60 % financed) is the condition's, not chosen.
		mg := m.placed(ticketOrder("margin", "regular", "ROD", "limit", lots(1, "186.5")))
		if p := m.positionNamed(mg.OrderNo).Position; p.Leverage != "2.50" || p.Loan != "111000.00" {
			t.Fatalf("margin position %+v (loan 60 %% of 186,500 in whole thousands)", p)
		}
		// 融券: not below the reference price 186.5; at it, leverage 1.11 (90 % margin).
		want(t, m.order(ticketOrder("short", "regular", "ROD", "limit", lots(1, "186"))), 422, "short_below_reference")
		th.mkt.book("2603", "186.5", "187", lvls("187", 5000), lvls("187.5", 5000))
		sh := m.placed(ticketOrder("short", "regular", "ROD", "limit", lots(1, "187")))
		if o := m.orderNamed(sh.OrderNo); sh.Status != wire.TradeOrderStatusFilled || o.Side != wire.Sell || o.Leverage != "1.11" ||
			o.Condition != wire.ConditionShort {
			t.Fatalf("short sale %+v %+v", sh, o)
		}
		// 現股當沖: a day trade, buy first.
		dt := m.placed(ticketOrder("day_trade", "regular", "ROD", "limit", lots(1, "187.5")))
		if o := m.orderNamed(dt.OrderNo); !o.DayTrade || o.Condition != wire.ConditionDayTrade || dt.Status != wire.TradeOrderStatusFilled {
			t.Fatalf("day trade %+v %+v", dt, o)
		}

		// What the exchange refuses, with no change.
		h.unchanged(func() {
			for _, c := range []struct {
				body map[string]any
				code int
				msg  string
			}{
				{ticketOrder("cash", "regular", "ROD", "limit", shares(300, "187.5")), 422, "session_unit_mismatch"},
				{ticketOrder("cash", "odd_intraday", "ROD", "limit", lots(1, "187.5")), 422, "session_unit_mismatch"},
				{ticketOrder("cash", "odd_intraday", "ROD", "market", map[string]any{"shares": 300}), 422, "session_limit_only"},
				{ticketOrder("cash", "odd_intraday", "IOC", "limit", shares(300, "187.5")), 422, "time_in_force_not_allowed"},
				{ticketOrder("margin", "odd_intraday", "ROD", "limit", shares(300, "187.5")), 422, "odd_lot_cash_only"},
				{ticketOrder("day_trade", "fixed_price", "ROD", "limit", lots(1, "")), 422, "day_trade_regular_only"},
				{ticketOrder("cash", "odd_after_hours", "ROD", "limit", shares(300, "187.5")), 422, "not_trading_time"},
				{ticketOrder("cash", "fixed_price", "ROD", "limit", lots(1, "")), 422, "not_trading_time"},
				{map[string]any{"symbol": "2603", "direction": "short", "type": "limit", "lots": 1, "price": "187.5", "condition": "cash"}, 400, "condition_mismatch"},
				{map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 1, "price": "187.5", "condition": "margin", "leverage": "2"}, 400, "condition_mismatch"},
				{map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 1, "price": "187.5", "condition": "loan"}, 400, "invalid_request"},
			} {
				want(t, m.order(c.body), c.code, c.msg)
			}
			// Outside continuous trading IOC is refused; ROD is accepted in the pre-open.
			th.mkt.setSession("pre_open", "closed")
			want(t, m.order(ticketOrder("cash", "regular", "IOC", "limit", lots(1, "187.5"))), 422, "not_trading_time")
			th.mkt.setSession("continuous", "intraday")
		})
	})
}

func TestTicketOddLotAndAfterHoursSessionsMatchInTheirAuctions(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		ctx := context.Background()
		th.mkt.setSession("continuous", "intraday")
		th.mkt.book("2603", "186.5", "186.5", lvls("186", 5000), lvls("186.5", 200, "187", 5000))

		// 盤中零股: no match at entry; the 5-second call auction crosses 300 shares with the asks at
		// the single price of most volume: 186.5 gives 200, 187 gives 300 → 187.
		odd := m.placed(ticketOrder("cash", "odd_intraday", "ROD", "limit", shares(300, "187")))
		if odd.Status != wire.TradeOrderStatusPending || odd.Filled != 0 {
			t.Fatalf("odd lot at entry %+v", odd)
		}
		th.match("2603") // a quote update does not match it
		if o := m.orderNamed(odd.OrderNo); o.Filled != 0 {
			t.Fatalf("odd lot matched on a quote %+v", o)
		}
		th.engineCaughtUp()
		th.st.trade.Auction(ctx, "odd_intraday")
		// 300 × 187 = 56,100; odd-lot commission 79 (79.9425).
		if o := m.orderNamed(odd.OrderNo); o.Status != wire.TradeOrderStatusFilled || o.AvgPrice != "187.00" || o.Commission != "79.00" ||
			o.Session != wire.SessionOddIntraday {
			t.Fatalf("odd lot after the auction %+v", o)
		}
		th.engineCaughtUp()
		th.st.trade.Auction(ctx, "odd_intraday") // again: nothing more
		if o := m.orderNamed(odd.OrderNo); o.Filled != 300 {
			t.Fatalf("odd lot filled twice %+v", o)
		}

		// 盤後零股 (13:40–14:30): entered, not matched until the one auction at 14:30.
		th.mkt.setSession("closed", "after_hours")
		th.mkt.book("2603", "186.5", "186", lvls("185.5", 5000), lvls("186", 500, "186.5", 5000))
		after := m.placed(ticketOrder("cash", "odd_after_hours", "ROD", "limit", shares(400, "186")))
		low := m.placed(ticketOrder("cash", "odd_after_hours", "ROD", "limit", shares(100, "185")))
		th.sweep()
		if o := m.orderNamed(after.OrderNo); o.Filled != 0 || o.Status != wire.TradeOrderStatusPending {
			t.Fatalf("after-hours odd lot before 14:30 %+v", o)
		}
		// 盤後定價 (14:00–14:30): board lots at the day's close 186; a price other than it is refused.
		th.mkt.setSession("after_hours_fixed", "after_hours")
		want(t, m.order(ticketOrder("cash", "fixed_price", "ROD", "limit", lots(1, "186.5"))), 422, "fixed_price_close_only")
		fixed := m.placed(ticketOrder("cash", "fixed_price", "ROD", "limit", lots(2, "")))
		if o := m.orderNamed(fixed.OrderNo); o.Price != "186.00" || o.Filled != 0 {
			t.Fatalf("fixed-price order %+v", o)
		}
		// 14:30: the auctions run, then what is left expires.
		th.mkt.setSession("closed", "closed")
		th.sweep()
		if o := m.orderNamed(after.OrderNo); o.Status != wire.TradeOrderStatusFilled || o.AvgPrice != "186.00" {
			t.Fatalf("after-hours odd lot at 14:30 %+v", o)
		}
		if o := m.orderNamed(fixed.OrderNo); o.Status != wire.TradeOrderStatusFilled || o.AvgPrice != "186.00" || o.Filled != 2000 {
			t.Fatalf("fixed price at 14:30 %+v", o)
		}
		th.sweep()
		if o := m.orderNamed(low.OrderNo); o.Status != wire.TradeOrderStatusExpired || o.Filled != 0 {
			t.Fatalf("after-hours odd lot below the auction %+v", o)
		}
		m.wantCash(h.head(), m.cash(h.head()).Assets.Available, "0.00")
	})
}

// The demo market (the harness's: 10:00 on a Monday of the around-the-clock schedule) takes the
// after-hours sessions' orders beside the day's sessions and auctions them on its one-minute
// cadence, not on every sweep; what an auction leaves works on to the next one.
func TestTicketAfterHoursSessionsInTheDemoAuctionEveryMinute(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		ctx := context.Background()
		th.mkt.book("2603", "186.5", "186.5", lvls("186", 5000), lvls("186.5", 200, "187", 5000))
		var q quoteDetailWire
		m.getOK("/api/vue/market/stocks/2603", &q)
		if !q.Session.Demo || q.Session.Phase != wire.MarketSessionPhaseContinuous || q.Session.AfterHoursAuctionEvery != 60 {
			t.Fatalf("demo session %+v", q.Session)
		}

		// 盤後零股 and 盤後定價 at 10:00: accepted, not matched at entry, nor by the sweep.
		odd := m.placed(ticketOrder("cash", "odd_after_hours", "ROD", "limit", shares(300, "187")))
		low := m.placed(ticketOrder("cash", "odd_after_hours", "ROD", "limit", shares(100, "186")))
		fixed := m.placed(ticketOrder("cash", "fixed_price", "ROD", "limit", lots(1, "")))
		th.sweep()
		for _, no := range []string{odd.OrderNo, low.OrderNo, fixed.OrderNo} {
			m.wantOrder(no, wire.TradeOrderStatusPending, "0.00", 0)
		}
		if o := m.orderNamed(fixed.OrderNo); o.Price != "186.50" {
			t.Fatalf("demo fixed price at the last price 186.5: %+v", o)
		}

		// The minute's auctions: the odd lots at the single price of most volume (186.5 crosses 200
		// of the 400 bid, 187 crosses 300 → 187: the order at 187 fills, the one at 186 does not
		// reach it); 盤後定價 at the last price against the displayed asks.
		th.engineCaughtUp()
		th.st.trade.Auction(ctx, "odd_after_hours")
		th.st.trade.Auction(ctx, "fixed_price")
		if o := m.wantOrder(odd.OrderNo, wire.TradeOrderStatusFilled, "187.00", 300); o.Commission != "79.00" || o.Session != wire.SessionOddAfterHours {
			t.Fatalf("after-hours odd lot after its auction %+v", o)
		}
		m.wantOrder(fixed.OrderNo, wire.TradeOrderStatusFilled, "186.50", 1000)
		// The order below the auction's price works on (the demo's day closes at 23:55), and the
		// sweep leaves it; the next auction at a lower ask fills it.
		th.sweep()
		m.wantOrder(low.OrderNo, wire.TradeOrderStatusPending, "0.00", 0)
		th.mkt.book("2603", "186.5", "186", lvls("185.5", 5000), lvls("186", 500, "186.5", 5000))
		th.engineCaughtUp()
		th.st.trade.Auction(ctx, "odd_after_hours")
		m.wantOrder(low.OrderNo, wire.TradeOrderStatusFilled, "186.00", 100)
		th.engineCaughtUp()
		th.st.trade.Auction(ctx, "odd_after_hours") // again: nothing more
		m.wantOrder(odd.OrderNo, wire.TradeOrderStatusFilled, "187.00", 300)
		m.wantCash(h.head(), m.cash(h.head()).Assets.Available, "0.00")
	})
}

// wantOrder fails unless the member's order stands at status, average price and filled shares,
// and returns it.
func (c *client) wantOrder(orderNo string, status wire.TradeOrderStatus, avgPrice string, filled int64) wire.TradeOrder {
	c.h.t.Helper()
	o := c.orderNamed(orderNo)
	if o.Status != status || o.AvgPrice != avgPrice || o.Filled != filled {
		c.h.t.Fatalf("order %+v, want %s at %s, %d filled", o, status, avgPrice, filled)
	}
	return o
}
