package api

import (
	"testing"

	"github.com/lotbook/lotbook/api/wire"
)

// 處置股 (market-rules 1e): the simulated market's rule (market/status) puts 3115 富榮綱 in
// disposition on the harness's day, 2 March 2026, after three attention days in a row; its quote
// says so and 現股當沖 on it is refused either way, while a cash buy of it and a day trade of a
// normal stock (2603) go through.
func TestDayTradeRefusedOnADisposedStock(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		var q quoteDetailWire
		h.anon().getOK("/api/vue/market/stocks/3115", &q)
		if q.TradingStatus != wire.Disposition {
			t.Fatalf("3115 is %q on the harness's day, want disposition", q.TradingStatus)
		}
		h.anon().getOK("/api/vue/market/stocks/2603", &q)
		if q.TradingStatus != wire.Normal {
			t.Fatalf("2603 is %q, want normal", q.TradingStatus)
		}

		th.mkt.setSession("continuous", "intraday")
		th.mkt.book("3115", "50", "50", lvls("49.95", 5000), lvls("50", 5000))
		th.mkt.book("2603", "186.5", "187", lvls("187", 5000), lvls("187.5", 5000))
		buyFirst := func(symbol string) map[string]any {
			body := ticketOrder("day_trade", "regular", "ROD", "market", lots(1, ""))
			body["symbol"] = symbol
			return body
		}
		sellFirst := func(symbol string) map[string]any {
			body := buyFirst(symbol)
			body["direction"] = "short"
			return body
		}
		h.unchanged(func() {
			want(t, m.order(buyFirst("3115")), 422, "day_trade_disposed")
			want(t, m.order(sellFirst("3115")), 422, "day_trade_disposed")
			limit := ticketOrder("day_trade", "regular", "ROD", "limit", lots(1, "50"))
			limit["symbol"] = "3115"
			want(t, m.order(limit), 422, "day_trade_disposed")
		})

		cash := ticketOrder("cash", "regular", "ROD", "market", lots(1, ""))
		cash["symbol"] = "3115"
		if o := m.placed(cash); o.Status != wire.TradeOrderStatusFilled {
			t.Fatalf("cash buy of a disposed stock %+v", o)
		}
		if o := m.placed(buyFirst("2603")); o.Status != wire.TradeOrderStatusFilled {
			t.Fatalf("day trade of a normal stock %+v", o)
		}
	})
}
