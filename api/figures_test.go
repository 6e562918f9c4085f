package api

import (
	"slices"
	"strconv"
	"testing"

	"github.com/lotbook/lotbook/api/wire"
)

// Issue 9, the figures members see: what the withdraw screen, the totals, the positions tabs and
// the stock type constant tell a member must be what the server does.

func (c *client) balancesAt(pos int64) map[string]wire.CurrencyBalance {
	c.h.t.Helper()
	var bals []wire.CurrencyBalance
	c.at("/api/vue/funds/balances", pos, &bals)
	out := map[string]wire.CurrencyBalance{}
	for _, b := range bals {
		out[b.Currency] = b
	}
	return out
}

// TestWithdrawableIsWhatAWithdrawalAccepts: with unsettled sale proceeds, the withdrawable figure
// the server serves is exactly the largest amount a withdrawal accepts (one cent more is
// refused), and frozen funds leave it.
func TestWithdrawableIsWhatAWithdrawalAccepts(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m, card, cl := soldSameDay(t, h)
		b := m.balancesAt(cl.Position)["TWD"]
		if b.Available != "199191.00" || b.Withdrawable != "13735.00" {
			t.Fatalf("TWD balance %+v, want withdrawable 13735.00 of 199191.00", b)
		}
		if usd := m.balancesAt(cl.Position)["USD"]; usd.Withdrawable != "0.00" {
			t.Fatalf("USD balance %+v", usd)
		}
		h.unchanged(func() { want(t, m.withdraw("13735.01", card, "123456"), 422, "insufficient_withdrawable") })
		a := m.withdraw(b.Withdrawable, card, "123456")
		want(t, a, 200, "ok")
		var w wire.OrderResult
		a.data(t, &w)
		// The withdrawn amount is frozen now: nothing more to take out until the sale settles.
		if after := m.balancesAt(w.Position)["TWD"]; after.Frozen != "13735.00" || after.Withdrawable != "0.00" {
			t.Fatalf("after the withdrawal %+v", after)
		}
	})
}

// TestTotalAssetsCountEveryCurrencyInTWD: total assets value every currency in TWD at the current
// rate, so exchanging at a quote (no fee) does not move them beyond rounding.
func TestTotalAssetsCountEveryCurrencyInTWD(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0912345678")
		pos := m.fund("10000")
		if u := m.info(pos); u.Assets.Total != "10000.00" {
			t.Fatalf("before %+v", u.Assets)
		}
		exchange := func(from, to, amount string) (wire.ExchangeQuote, int64) {
			t.Helper()
			a := m.post("/api/vue/funds/exchange/quote", map[string]string{"from": from, "to": to, "amount": amount})
			want(t, a, 200, "ok")
			var q wire.ExchangeQuote
			a.data(t, &q)
			a = m.post("/api/vue/funds/exchange", map[string]string{"quoteId": q.QuoteId})
			want(t, a, 200, "ok")
			var x wire.ExchangeResult
			a.data(t, &x)
			return q, x.Position
		}
		q, pos := exchange("TWD", "USD", "3200")
		u := m.info(pos)
		// toAmount is rounded down to the cent: the total may lose less than one US cent in TWD.
		lost := dec("10000").Sub(dec(u.Assets.Total))
		if u.Assets.Available != "6800.00" || u.Assets.Usd != q.ToAmount || lost.IsNegative() || lost.GreaterThan(dec("0.01").Div(dec(q.Rate))) {
			t.Fatalf("after TWD->USD %+v (quote %+v): total moved by %s", u.Assets, q, lost)
		}
		_, pos = exchange("TWD", "JPY", "800")
		if u2 := m.info(pos); dec(u.Assets.Total).Sub(dec(u2.Assets.Total)).Abs().GreaterThan(dec("1")) {
			t.Fatalf("after TWD->JPY total %s, before %s", u2.Assets.Total, u.Assets.Total)
		}
	})
}

// TestPendingOrderIsNoHolding: an order that has not filled is listed under working orders,
// never under holdings.
func TestPendingOrderIsNoHolding(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		th.mkt.book("2603", "186.5", "186.5", lvls("186", 5000), lvls("187", 5000))
		o := m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 2, "price": "185"})
		if o.Status != "pending" {
			t.Fatalf("order %+v rests", o)
		}
		for _, q := range []string{"", "?status=holding"} {
			var p wire.TradePositionPage
			m.at("/api/vue/trade/positions"+q, o.Position, &p)
			if len(p.Items) != 0 {
				t.Fatalf("holdings%s list the unfilled order: %+v", q, p.Items)
			}
		}
		var p wire.TradePositionPage
		m.at("/api/vue/trade/positions?status=pending", o.Position, &p)
		if len(p.Items) != 1 || p.Items[0].Id != o.PositionId || p.Items[0].Status != wire.PositionPending {
			t.Fatalf("pending positions %+v", p.Items)
		}
		var os wire.TradeOrderPage
		m.at("/api/vue/trade/orders?status=working", o.Position, &os)
		if len(os.Items) != 1 || os.Items[0].OrderNo != o.OrderNo || os.Items[0].Status != wire.TradeOrderStatusPending {
			t.Fatalf("working orders %+v", os.Items)
		}
	})
}

// TestStockTypeTWDMeansAllTaiwanStocks: the spec's stock type constant twd is accepted wherever a
// client names a stock type or market, and means all Taiwan stocks.
func TestStockTypeTWDMeansAllTaiwanStocks(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0912345678")
		var last int64
		for _, sym := range []string{"2330", "6488", "0050"} {
			a := m.post("/api/vue/user/favorites", map[string]string{"symbol": sym})
			want(t, a, 200, "ok")
			var r wire.FavoriteResult
			a.data(t, &r)
			last = r.Position
		}
		list := func(typ string) []string {
			t.Helper()
			a := m.raw("POST", "/api/vue/user/Optionallist", "application/json", []byte(`{"type":"`+typ+`"}`), "Lotbook-Position", strconv.FormatInt(last, 10))
			want(t, a, 200, "ok")
			var qs []wire.Quote
			a.data(t, &qs)
			out := []string{}
			for _, q := range qs {
				out = append(out, q.Symbol)
			}
			return out
		}
		if got := list("twd"); !slices.Equal(got, []string{"2330", "6488", "0050"}) || !slices.Equal(got, list("all")) {
			t.Fatalf("Optionallist twd %v, all %v", got, list("all"))
		}

		symbols := func(path string) (int, []string) {
			t.Helper()
			var p wire.QuotePage
			m.getOK(path, &p)
			out := []string{}
			for _, q := range p.Items {
				out = append(out, q.Symbol)
			}
			return p.Total, out
		}
		all, allSyms := symbols("/api/vue/market/stocks?size=100")
		for _, q := range []string{"market=twd", "type=twd", "market=twd&type=twd"} {
			if n, syms := symbols("/api/vue/market/stocks?size=100&" + q); n != all || !slices.Equal(syms, allSyms) {
				t.Fatalf("stocks?%s: %d items, all %d", q, n, all)
			}
		}
		var hot, hotTWD []wire.Quote
		m.getOK("/api/vue/market/hot", &hot)
		m.getOK("/api/vue/market/hot?market=twd", &hotTWD)
		if len(hotTWD) != 20 || hotTWD[0].Symbol != hot[0].Symbol {
			t.Fatalf("hot twd %d items", len(hotTWD))
		}
		want(t, m.raw("POST", "/api/vue/user/Optionallist", "application/json", []byte(`{"type":"TWD"}`)), 400, "invalid_request")
	})
}
