package api

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	lendingcmd "github.com/lotbook/lotbook/commands/lending"
	rule "github.com/lotbook/lotbook/commands/rules/lending"
)

func (c *client) lendingSummary() wire.LendingSummary {
	c.h.t.Helper()
	var s wire.LendingSummary
	c.at("/api/vue/lending", c.h.head(), &s)
	return s
}

func (c *client) lendings(status string) []wire.LendingRecord {
	c.h.t.Helper()
	var p wire.LendingPage
	c.at("/api/vue/lending/records?status="+status, c.h.head(), &p)
	return p.Items
}

func (c *client) lend(symbol string, shares int64) answer {
	c.h.t.Helper()
	return c.post("/api/vue/lending/records", map[string]any{"symbol": symbol, "shares": shares})
}

// lendingHolder is a member holding three lots of 2603 bought at 186, and ops' lending desk open
// at 2 % with 2603 at 3.5 % and a quota of quota shares.
func lendingHolder(t *testing.T, h *harness, quota int64) (*tradeHarness, wire.TradeResult) {
	t.Helper()
	th := newTradeHarness(t, h, "1000000")
	th.mkt.book("2603", "186.5", "186", lvls("186", 10000), lvls("186", 10000))
	o := th.m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 3, "price": "186"})
	if o.Status != wire.TradeOrderStatusFilled {
		t.Fatalf("buy %+v", o)
	}
	want(t, h.ops.post("/api/vue/ops/lending/channel", map[string]any{"open": true, "defaultRate": "0.02"}), 200, "ok")
	want(t, h.ops.post("/api/vue/ops/lending/symbols/2603", map[string]any{"rate": "0.035", "quota": quota}), 200, "ok")
	return th, o
}

// Stock lending over HTTP on SQLite and PostgreSQL: the channel is closed until ops open it;
// a member lends part of a holding at the symbol's rate, within the symbol's quota and its free
// shares; the lent shares cannot be sold (a close of the whole position is refused, shares_lent);
// each Taipei trading day's fee is paid into available cash at that day's close as the clock
// moves (the fee process), shown in fund records; another member cannot recall it; a recall pays
// nothing twice, completes the lending with its fee total and frees the shares for sale at once.
// The harness checks postings, read models against replay and balances after it.
func TestLendingScenario(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		other := h.register("0955000002")
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		th.mkt.book("2603", "186.5", "186", lvls("186", 10000), lvls("186", 10000))
		o := m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 3, "price": "186"})
		if o.Status != wire.TradeOrderStatusFilled {
			t.Fatalf("buy %+v", o)
		}

		// Closed until ops open it; malformed rules are refused; members may not set them.
		h.unchanged(func() {
			want(t, m.lend("2603", 1000), 422, "lending_channel_closed")
			want(t, h.ops.post("/api/vue/ops/lending/channel", map[string]any{"open": true, "defaultRate": "0.17"}), 400, "lending_rate_invalid")
			want(t, h.ops.post("/api/vue/ops/lending/channel", map[string]any{"open": true, "defaultRate": "0.00001"}), 400, "lending_rate_invalid")
			want(t, h.ops.post("/api/vue/ops/lending/symbols/2603", map[string]any{"rate": "0.2", "quota": 1000}), 400, "lending_rate_invalid")
			want(t, h.ops.post("/api/vue/ops/lending/symbols/2603", map[string]any{"rate": "0.03", "quota": -1}), 400, "lending_quota_invalid")
			want(t, h.ops.post("/api/vue/ops/lending/symbols/NOPE", map[string]any{"rate": "0.03", "quota": 1}), 404, "symbol_not_found")
			want(t, m.post("/api/vue/ops/lending/channel", map[string]any{"open": true, "defaultRate": "0.02"}), 403, "forbidden")
		})
		want(t, h.ops.post("/api/vue/ops/lending/channel", map[string]any{"open": true, "defaultRate": "0.02"}), 200, "ok")
		want(t, h.ops.post("/api/vue/ops/lending/symbols/2603", map[string]any{"rate": "0.035", "quota": 2000}), 200, "ok")
		var desk wire.LendingDesk
		h.ops.at("/api/vue/ops/lending", h.head(), &desk)
		if !desk.Open || desk.DefaultRate != "0.02" || desk.MaxRate != "0.16" || len(desk.Symbols) != 1 || desk.Symbols[0].EffectiveRate != "0.035" {
			t.Fatalf("desk %+v", desk)
		}

		s := m.lendingSummary()
		if len(s.Holdings) != 1 || s.Holdings[0].Free != 3000 || s.Holdings[0].Lendable != 3000 || httpx.Deref(s.Holdings[0].Rate) != "0.035" {
			t.Fatalf("summary %+v", s)
		}
		a := m.lend("2603", 1000)
		want(t, a, 200, "stock_lent")
		var lent wire.LendingResult
		a.data(t, &lent)
		if lent.Status != wire.LendingStatusLending {
			t.Fatalf("lent %+v", lent)
		}
		h.unchanged(func() {
			want(t, m.lend("2603", 1001), 422, "lending_quota_full")
			want(t, m.lend("2330", 1000), 422, "lending_quota_full") // no rule for it
			want(t, m.lend("2603", 0), 400, "quantity_invalid")
			want(t, m.lend("x y", 10), 400, "symbol_required")
			want(t, m.post("/api/vue/lending/records", map[string]any{"symbol": "2603", "shares": "10"}), 400, "invalid_request")
			want(t, other.lend("2603", 1000), 422, "insufficient_shares")
		})
		want(t, h.ops.post("/api/vue/ops/lending/symbols/2603", map[string]any{"rate": "0.035", "quota": 100000}), 200, "ok")
		h.unchanged(func() {
			want(t, m.lend("2603", 2001), 422, "insufficient_shares")
			// Lent shares are not for sale: the whole position's close is refused.
			want(t, m.post("/api/vue/trade/positions/"+o.PositionId+"/close", map[string]any{"type": "market"}), 422, "shares_lent")
			want(t, other.post("/api/vue/lending/records/"+lent.LendNo+"/recall", map[string]any{}), 404, "order_not_found")
		})
		if s := m.lendingSummary(); s.Holdings[0].Lent != 1000 || s.Holdings[0].Lendable != 2000 {
			t.Fatalf("summary after lending %+v", s)
		}
		var all wire.LendingPage
		h.ops.at("/api/vue/ops/lending/records", h.head(), &all)
		if len(all.Items) != 1 || httpx.Deref(all.Items[0].Account) != m.account || all.Items[0].Shares != 1000 {
			t.Fatalf("ops lendings %+v", all)
		}

		// Fees: each Taipei trading day at midnight, for the day before, at that day's close.
		closes := lendingcmd.MarketCloses{M: h.st.Market}
		fee := func(day string) decimal.Decimal {
			c, err := closes.Close("2603", day)
			if err != nil {
				t.Fatal(err)
			}
			return rule.DailyFee(c, 1000, decimal.RequireFromString("0.035"))
		}
		mon, tue := fee("2026-03-02"), fee("2026-03-03")
		h.clock.Advance(24 * time.Hour)
		h.until("Monday's fee", func() bool { return m.lendings("lending")[0].Fees == mon.StringFixed(2) })
		h.clock.Advance(24 * time.Hour)
		total := mon.Add(tue)
		h.until("Tuesday's fee", func() bool { return m.lendings("lending")[0].Fees == total.StringFixed(2) })
		lines := 0
		for _, rec := range m.records("all", h.head()).Items {
			if rec.Type == wire.LendingFee {
				lines++
			}
		}
		if lines != 2 {
			t.Fatalf("fund record lines of fees: %d", lines)
		}

		// Recall: completed with its fees; the shares are for sale at once.
		a = m.post("/api/vue/lending/records/"+lent.LendNo+"/recall", map[string]any{})
		want(t, a, 200, "stock_recalled")
		h.unchanged(func() {
			want(t, m.post("/api/vue/lending/records/"+lent.LendNo+"/recall", map[string]any{}), 422, "lending_not_active")
		})
		done := m.lendings("completed")
		if len(done) != 1 || done[0].Fees != total.StringFixed(2) || httpx.Deref(done[0].RecalledDay) != "2026-03-04" || len(m.lendings("lending")) != 0 {
			t.Fatalf("completed %+v", done)
		}
		if s := m.lendingSummary(); s.Holdings[0].Lent != 0 || s.Holdings[0].Lendable != 3000 {
			t.Fatalf("summary after recall %+v", s)
		}
		h.ops.at("/api/vue/ops/lending", h.head(), &desk)
		if desk.Symbols[0].Used != 0 {
			t.Fatalf("quota after recall %+v", desk)
		}
		want(t, m.post("/api/vue/trade/positions/"+o.PositionId+"/close", map[string]any{"type": "market"}), 200, "close_submitted")

		// A closed channel lends nothing more.
		want(t, h.ops.post("/api/vue/ops/lending/channel", map[string]any{"open": false, "defaultRate": "0.02"}), 200, "ok")
		h.unchanged(func() { want(t, m.lend("2603", 1), 422, "lending_channel_closed") })
	})
}

// Lending and selling the same shares at once: a member holding three lots sends twelve requests
// together, six lending a lot and six selling a lot. Decided one after the other on the account
// stream, the lots lent and sold never add up to more than the three held.
func TestLendingRacesSelling(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th, o := lendingHolder(t, h, 100000)
		m := th.m
		answers := concurrently(12, func(i int) answer {
			if i%2 == 0 {
				return m.lend("2603", 1000)
			}
			return m.post("/api/vue/trade/positions/"+o.PositionId+"/close", map[string]any{"type": "market", "lots": 1})
		})
		lent, sold := 0, 0
		for i, a := range answers {
			switch {
			case a.code == 200 && i%2 == 0:
				lent++
			case a.code == 200:
				var r wire.TradeResult
				a.data(t, &r)
				if r.Filled != 1000 {
					t.Fatalf("sale %+v", r)
				}
				sold++
			case a.Msg != "insufficient_shares" && a.Msg != "shares_lent" && a.Msg != "close_quantity_invalid" && a.Msg != "position_not_holding":
				t.Fatalf("unexpected answer %d: %v", i, a)
			}
		}
		if lent+sold > 3 {
			t.Fatalf("lent %d and sold %d lots of 3", lent, sold)
		}
		if lent+sold != 3 {
			t.Logf("lent %d and sold %d lots of 3 (some refused on a state that changed since)", lent, sold)
		}
		s := m.lendingSummary()
		if len(s.Holdings) > 0 && s.Holdings[0].Lent > s.Holdings[0].Free {
			t.Fatalf("lent more than held %+v", s)
		}
		if got := int64(lent * 1000); len(s.Holdings) > 0 && s.Holdings[0].Lent != got || len(s.Holdings) == 0 && got != 0 {
			t.Fatalf("summary %+v, lent %d lots", s, lent)
		}
	})
}
