package api

import (
	"context"
	"testing"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/events"
)

// TestTradeSharesFollowPositions: a buy that fills in two parts and a partial sale move shares on
// the ledger; after each step the member's shares account (balances read model, from postings)
// holds what the position holds, and the auditor agrees.
func TestTradeSharesFollowPositions(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		id := events.MemberID(m.account)
		same := func(step, positionID string) {
			t.Helper()
			held := m.positionNamed(positionID).Position.Shares
			h.catchUp()
			bals, err := h.st.Read.MemberBalances(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			got := bals[events.MemberAccount(id, events.KindShares)][events.Security(events.MarketTW, "2603")]
			if got.IntPart() != held || !got.IsInteger() {
				t.Fatalf("%s: shares account %s, position holds %d", step, got, held)
			}
			h.verify()
		}
		th.mkt.book("2603", "186.5", "186.5", lvls("186", 5000), lvls("187", 5000))
		o := m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 2, "price": "186"})
		same("resting", o.OrderNo)

		th.mkt.book("2603", "186.5", "186", lvls("185.5", 5000), lvls("186", 1000, "186.5", 4000))
		th.match("2603")
		if got := m.orderNamed(o.OrderNo); got.Status != wire.TradeOrderStatusPartial || got.Filled != 1000 {
			t.Fatalf("partial fill %+v", got)
		}
		same("partial fill", o.OrderNo)

		th.mkt.book("2603", "186.5", "185.5", lvls("185", 5000), lvls("185.5", 3000))
		th.match("2603")
		m.waitFilled(o.OrderNo)
		same("filled", o.OrderNo)
		if p := m.positionNamed(o.OrderNo).Position; p.Shares != 2000 {
			t.Fatalf("position %+v", p)
		}

		th.mkt.book("2603", "186.5", "188", lvls("188", 5000), lvls("188.5", 5000))
		a := m.post("/api/vue/trade/positions/"+o.OrderNo+"/close", map[string]any{"type": "market", "lots": 1})
		want(t, a, 200, "close_submitted")
		if p := m.positionNamed(o.OrderNo).Position; p.Shares != 1000 {
			t.Fatalf("after selling one lot %+v", p)
		}
		same("sold one lot", o.OrderNo)
	})
}
