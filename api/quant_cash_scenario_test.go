package api

import (
	"context"
	"strconv"
	"testing"
	"time"

	quantapi "github.com/lotbook/lotbook/api/quant"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/quant"
	"github.com/lotbook/lotbook/commands/trading"
	"github.com/lotbook/lotbook/events"
)

// A subscription's money stays the subscription's, over HTTP on SQLite and PostgreSQL. The member
// deposits 300,000 and subscribes 150,000: 150,000 available, 150,000 held. On 2 March 2026 at
// 09:30 the momentum rule buys 0050 in whole lots; the order reserves at its limit and fills
// lower, and what the strategy did not spend (the sizing's leftover never left the hold; the
// reservation's unused part comes back when the order is done) is held again: available cash
// stays 150,000 to the dollar, and held is 150,000 less what the buy paid. The strategy's sale
// (the order the process sends when the rule exits, under the strategy's command id) puts its
// proceeds net of commission and tax back into the hold, not into available cash. Every move is
// a quant_hold fund record. Leaving returns all that is held to available cash: available is then
// 300,000 plus the round trip's result, frozen zero; postings, read models and verify agree.
func TestQuantSubscriptionKeepsItsMoney(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m, _ := h.ready("0955000201", "A123456789", "4111111111111111", "")
		m.fund("300000")
		memberID := events.MemberID(m.account)
		a := m.post("/api/vue/quant/subscriptions", map[string]string{"product": "momentum-0050", "amount": "150000"})
		want(t, a, 200, "quant_subscribed")
		var res wire.QuantResult
		a.data(t, &res)
		m.wantCash(res.Position, "150000.00", "150000.00")

		proc := h.quantProcess()
		h.catchUp()
		h.until("the process folded the subscription", func() bool { return proc.Position() >= h.head() })
		ctx := context.Background()
		if err := proc.Evaluate(ctx, time.Date(2026, 3, 2, 9, 30, 0, 0, commands.Taipei)); err != nil {
			t.Fatal(err)
		}
		settle := func() wire.QuantSubscription {
			t.Helper()
			h.quantSettled()
			subs := m.quantSubs()
			if len(subs) != 1 {
				t.Fatalf("subscriptions %+v", subs)
			}
			return subs[0]
		}
		s := settle()
		if len(s.Positions) != 1 || s.Orders != 1 || !dec(s.Spent).IsPositive() {
			t.Fatalf("after the buy %+v", s)
		}
		if want := dec("150000").Sub(dec(s.Spent)); !dec(s.Held).Equal(want) {
			t.Fatalf("held %s after spending %s, want %s", s.Held, s.Spent, want)
		}
		m.wantCash(h.head(), "150000.00", s.Held)
		holds := func() []wire.FundRecord {
			var out []wire.FundRecord
			for _, r := range m.records("all", h.head()).Items {
				if r.Type == wire.QuantHold {
					out = append(out, r)
				}
			}
			return out
		}
		if rs := holds(); len(rs) != 2 || !dec(rs[0].Amount).IsPositive() || rs[0].OrderNo != s.SubId {
			t.Fatalf("quant_hold records after the buy %+v", rs)
		}

		// The rule's exit: the strategy sells the position at market under its command id.
		pos := s.Positions[0]
		orders := quantapi.Orders{Trading: trading.New(h.st.Commands, trading.TradingRules{}), Market: h.st.Market}
		sellID := quant.StrategyName + "/" + s.SubId + "/0050/" + strconv.FormatInt(h.clock.Now().Unix(), 10) + "/sell"
		if err := orders.Sell(ctx, commands.Meta{CommandID: sellID, Actor: "system"}, memberID, "0050", pos.PositionId, h.clock.Now()); err != nil {
			t.Fatal(err)
		}
		sold := settle()
		if len(sold.Positions) != 0 || sold.Orders != 2 || !dec(sold.Proceeds).IsPositive() {
			t.Fatalf("after the sale %+v", sold)
		}
		if want := dec(s.Held).Add(dec(sold.Proceeds)); !dec(sold.Held).Equal(want) {
			t.Fatalf("held %s after proceeds %s, want %s", sold.Held, sold.Proceeds, want)
		}
		if want := dec("150000").Add(dec(sold.Realized)); !dec(sold.Held).Equal(want) {
			t.Fatalf("held %s, want the subscription plus its result %s", sold.Held, want)
		}
		m.wantCash(h.head(), "150000.00", sold.Held)
		if rs := holds(); len(rs) != 3 || dec(rs[0].Amount).String() != dec(sold.Proceeds).String() {
			t.Fatalf("quant_hold records after the sale %+v", rs)
		}

		// Leaving returns all that is held to available cash.
		want(t, m.post("/api/vue/quant/subscriptions/"+s.SubId+"/leave", map[string]bool{"close": false}), 200, "quant_left")
		h.catchUp()
		left := m.quantSubs()[0]
		if left.State != "ended" || left.Held != "0.00" {
			t.Fatalf("after leaving %+v", left)
		}
		m.wantCash(h.head(), dec("300000").Add(dec(sold.Realized)).StringFixed(2), "0.00")
		h.verify()
	})
}
