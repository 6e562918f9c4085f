package api

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	quantapi "github.com/lotbook/lotbook/api/quant"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/quant/runner"
	rules "github.com/lotbook/lotbook/commands/rules/quant"
)

func (c *client) quantSubs() []wire.QuantSubscription {
	c.h.t.Helper()
	var out []wire.QuantSubscription
	c.at("/api/vue/quant/subscriptions", c.h.head(), &out)
	return out
}

// quantProcess is the stack's strategy process.
func (h *harness) quantProcess() *runner.Process {
	h.t.Helper()
	for _, p := range h.st.processes {
		if r, ok := p.run.(*runner.Process); ok {
			return r
		}
	}
	h.t.Fatal("the quant strategy process is not registered")
	return nil
}

// quantSettled waits until the strategy process has handled the whole log and written nothing
// more: it returns the cash of the strategy's orders to their subscriptions as it reads them.
func (h *harness) quantSettled() {
	h.t.Helper()
	proc := h.quantProcess()
	h.until("the strategy process settled", func() bool {
		head := h.head()
		h.catchUp()
		return proc.Position() >= head && h.head() == head
	})
}

// AI quant over HTTP on SQLite and PostgreSQL: the products come with their rules and a backtest
// the server computed by replaying the rule (the same figures as replaying it here); a
// subscription below the minimum, to an unknown product or above the cash is refused without an
// event; one of 150,000 is held from available cash (fund record quant_hold). On 2 March 2026 at
// 09:30 the deterministic market's 0050 has its 5-day average above the 20-day one, so the
// momentum rule enters: the process releases the order's cost from the hold and places an ordinary
// limit order in the member's account, whole lots within the subscription's money; running the
// same occurrence again places nothing more. Another member cannot leave it (not found); leaving
// with close sells the position at market and releases what is still held; leaving twice is
// refused. The harness then checks the ledger, the read models against replay and that no
// available cash is negative.
func TestQuantScenario(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m, _ := h.ready("0955000101", "A123456789", "4111111111111111", "")
		m.fund("300000")
		other := h.register("0955000102")

		var products []wire.QuantProduct
		m.at("/api/vue/quant/products", h.head(), &products)
		if len(products) != len(rules.Products) || len(products) < 2 {
			t.Fatalf("products %+v", products)
		}
		var page wire.QuantProduct
		m.at("/api/vue/quant/products/momentum-0050", h.head(), &page)
		p, _ := rules.ByID("momentum-0050")
		replay, err := quantapi.Backtest(h.st.Market, p, h.clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		if page.RuleEn != p.RuleEN || page.MinAmount != "100000.00" || page.Backtest.Trades != replay.Trades ||
			page.Backtest.Return != replay.Return.StringFixed(4) || len(page.Backtest.Curve) != len(replay.Curve) || len(page.Backtest.Curve) < 100 ||
			page.Backtest.Trades == 0 || page.Schedule != "09:30" {
			t.Fatalf("product page %+v, replay %+v", page.Backtest, replay)
		}
		want(t, m.get("/api/vue/quant/products/nope"), 404, "quant_product_not_found")

		subscribe := func(c *client, product, amount string) answer {
			return c.post("/api/vue/quant/subscriptions", map[string]string{"product": product, "amount": amount})
		}
		h.unchanged(func() {
			want(t, subscribe(m, "momentum-0050", "99999"), 422, "amount_below_minimum")
			want(t, subscribe(m, "nope", "100000"), 404, "quant_product_not_found")
			want(t, subscribe(m, "momentum-0050", "300001"), 422, "insufficient_balance")
			want(t, subscribe(m, "momentum-0050", "1000.5"), 400, "amount_invalid")
			want(t, subscribe(m, "momentum-0050", ""), 400, "amount_required")
			want(t, m.post("/api/vue/quant/subscriptions", map[string]any{"product": "momentum-0050", "amount": 100000}), 400, "invalid_request")
			want(t, h.ops.post("/api/vue/quant/subscriptions", map[string]string{"product": "momentum-0050", "amount": "100000"}), 403, "forbidden")
		})
		a := subscribe(m, "momentum-0050", "150000")
		want(t, a, 200, "quant_subscribed")
		var res wire.QuantResult
		a.data(t, &res)
		m.wantCash(res.Position, "150000.00", "150000.00")
		if recs := m.records("all", h.head()); len(recs.Items) == 0 || recs.Items[0].Type != wire.QuantHold {
			t.Fatalf("fund records %+v", recs.Items)
		}

		// The rule fires on 2 March 2026 at 09:30 Taipei.
		at := time.Date(2026, 3, 2, 9, 30, 0, 0, commands.Taipei)
		bars, err := quantapi.Bars(h.st.Market, "0050", at, 60)
		if err != nil {
			t.Fatal(err)
		}
		closes := make([]decimal.Decimal, len(bars))
		for i, b := range bars {
			closes[i] = b.Close
		}
		if p.Rule(closes, rules.Holding{}) != rules.Enter {
			t.Fatalf("the momentum rule does not enter on %s", at)
		}
		proc := h.quantProcess()
		h.catchUp()
		h.until("the process folded the subscription", func() bool { return proc.Position() >= h.head() })
		ctx := context.Background()
		if err := proc.Evaluate(ctx, at); err != nil {
			t.Fatal(err)
		}
		h.quantSettled()
		subs := m.quantSubs()
		if len(subs) != 1 || subs[0].Orders != 1 || len(subs[0].Positions) != 1 || subs[0].State != "running" {
			t.Fatalf("after the rule fired %+v", subs)
		}
		s := subs[0]
		pos := s.Positions[0]
		spent, held := dec(s.Spent), dec(s.Held)
		if pos.Symbol != "0050" || pos.Shares%1000 != 0 || pos.Shares == 0 || !spent.IsPositive() ||
			spent.GreaterThan(dec("150000")) || held.IsNegative() || dec(s.Amount).Sub(held).LessThan(spent) {
			t.Fatalf("subscription %+v", s)
		}
		// The order is an ordinary order of the member's, visible in the order list.
		o := m.orderNamed(pos.PositionId)
		if o.Symbol != "0050" {
			t.Fatalf("order %+v", o)
		}
		// The same occurrence again (a restart, a second instance) places nothing more.
		if err := proc.Evaluate(ctx, at); err != nil {
			t.Fatal(err)
		}
		h.quantSettled()
		if again := m.quantSubs(); again[0].Orders != 1 || again[0].Held != s.Held {
			t.Fatalf("after the same occurrence again %+v", again)
		}

		leave := func(c *client, sub string, closeAll bool) answer {
			return c.post("/api/vue/quant/subscriptions/"+sub+"/leave", map[string]bool{"close": closeAll})
		}
		h.unchanged(func() {
			want(t, leave(other, s.SubId, true), 404, "order_not_found")
			want(t, leave(m, "AQ0", true), 404, "order_not_found")
			want(t, m.post("/api/vue/quant/subscriptions/"+s.SubId+"/leave", map[string]any{"close": "yes"}), 400, "invalid_request")
		})
		want(t, leave(m, s.SubId, true), 200, "quant_left")
		h.quantSettled()
		subs = m.quantSubs()
		if subs[0].State != "ended" || subs[0].Held != "0.00" || len(subs[0].Positions) != 0 || subs[0].Orders != 2 ||
			!dec(subs[0].Proceeds).IsPositive() || !subs[0].CloseAll {
			t.Fatalf("after leaving %+v", subs)
		}
		want(t, leave(m, s.SubId, false), 422, "quant_ended")
		// Whatever the strategy did not spend is back: available + frozen is the deposit less the
		// round trip's loss (commission, tax and the spread).
		u := m.cash(h.head())
		total := dec(u.Assets.Available).Add(dec(u.Assets.Frozen))
		if want := dec("300000").Add(dec(subs[0].Realized)); !total.Equal(want) || dec(u.Assets.Available).IsNegative() {
			t.Fatalf("cash %+v, want total %s", u.Assets, want)
		}
	})
}
