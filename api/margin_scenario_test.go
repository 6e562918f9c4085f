package api

import (
	"testing"
	"time"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
)

// Additional credit margin over HTTP on SQLite and PostgreSQL: a margin long falls into a margin
// call; malformed, foreign and oversized top-ups are refused without an event; a top-up of 70,000
// pays the financing down from 223,000 to 153,000 (ratio 288,000 / 153,000 = 1.8823, rounded down), the next
// margin check lifts the call, and the fund records show one margin_top_up line. Four racing
// top-ups of 100,000 leave one through (the rest exceed the 153,000 financing, then 53,000). The
// harness checks the ledger and the read models against replay after it.
func TestMarginTopUpScenario(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		th.mkt.book("2603", "186.5", "186", lvls("185.5", 5000), lvls("186", 5000))
		o := m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 2, "price": "186", "leverage": "2.5"})
		m.wantCash(o.Position, "850470.00", "0.00")
		cash := th.m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 1, "price": "186"})
		m.wantCash(cash.Position, "664205.00", "0.00")
		notices := func() wire.TradeNoticePage {
			var n wire.TradeNoticePage
			m.at("/api/vue/trade/notices", h.head(), &n)
			return n
		}
		th.mkt.book("2603", "140", "144", lvls("144", 5000), lvls("144.5", 5000))
		th.sweep()
		if n := notices(); len(n.Items) != 1 || n.Items[0].Type != wire.NoticeMarginCall {
			t.Fatalf("notices after the fall %+v", n)
		}

		topUp := func(c *client, id, amount string) answer {
			return c.post("/api/vue/trade/positions/"+id+"/topUp", map[string]string{"amount": amount})
		}
		other := h.register("0955000777")
		other.fund("500000")
		h.unchanged(func() {
			want(t, topUp(m, o.OrderNo, ""), 400, "amount_required")
			want(t, topUp(m, o.OrderNo, "1000.5"), 400, "amount_not_integer")
			want(t, topUp(m, o.OrderNo, "0"), 400, "amount_not_positive")
			want(t, topUp(m, o.OrderNo, "-5"), 400, "amount_not_positive")
			want(t, topUp(m, o.OrderNo, "1e5"), 400, "amount_invalid")
			want(t, topUp(m, o.OrderNo, "10000000000"), 400, "amount_above_maximum")
			want(t, m.post("/api/vue/trade/positions/"+o.OrderNo+"/topUp", map[string]any{"amount": 1000}), 400, "invalid_request")
			want(t, topUp(m, "T000", "1000"), 404, "position_not_found")
			want(t, topUp(other, o.OrderNo, "1000"), 404, "position_not_found")
			want(t, topUp(m, cash.OrderNo, "1000"), 422, "position_not_margined")
			want(t, topUp(m, o.OrderNo, "664206"), 422, "insufficient_balance")
			want(t, topUp(m, o.OrderNo, "223001"), 422, "top_up_exceeds_financing")
			want(t, h.ops.post("/api/vue/trade/positions/"+o.OrderNo+"/topUp", map[string]string{"amount": "1000"}), 403, "forbidden")
		})

		a := topUp(m, o.OrderNo, "70000")
		want(t, a, 200, "margin_topped_up")
		var r wire.MarginTopUpResult
		a.data(t, &r)
		if r.Loan != "70000.00" || r.Margin != "0.00" || r.PositionId != o.OrderNo || r.TopUpNo == "" {
			t.Fatalf("top-up %+v", r)
		}
		m.wantCash(r.Position, "594205.00", "0.00")
		if p := m.positionNamed(o.OrderNo).Position; p.Loan != "153000.00" {
			t.Fatalf("position after the top-up %+v", p)
		}
		h.clock.Advance(time.Second) // a new check: the last one, at these prices, was this second's
		th.sweep()
		n := notices()
		if len(n.Items) != 2 || n.Items[0].Type != wire.NoticeMarginCallMet || httpx.Deref(n.Ratio) != "1.8823" {
			t.Fatalf("notices after the top-up %+v", n)
		}
		lines := 0
		for _, rec := range m.records("all", h.head()).Items {
			if rec.Type == wire.MarginTopUp {
				lines++
				if rec.Amount != "-70000.00" {
					t.Fatalf("fund record line %+v", rec)
				}
			}
		}
		if lines != 1 {
			t.Fatalf("margin_top_up lines: %d", lines)
		}

		// Racing top-ups: the financing (153,000) takes one of 100,000; the others exceed what is left.
		answers := concurrently(4, func(int) answer { return topUp(m, o.OrderNo, "100000") })
		exceeds := func(a answer) bool { return a.code == 422 && a.Msg == "top_up_exceeds_financing" }
		if ok := successes(t, "top-ups", answers, exceeds); len(ok) != 1 {
			t.Fatalf("top-ups %v", answers)
		}
		m.wantCash(h.head(), "494205.00", "0.00")
		if p := m.positionNamed(o.OrderNo).Position; p.Loan != "53000.00" {
			t.Fatalf("position after the race %+v", p)
		}
	})
}
