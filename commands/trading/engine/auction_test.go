package engine

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/matching"
	"github.com/lotbook/lotbook/commands/rules/ticket"
	"github.com/lotbook/lotbook/commands/trading"
)

// Each auctioned session's share-out: the intraday odd lot at the single price of most volume
// with time priority, the after-hours odd lot with ties drawn by hash (the same on every retry),
// 盤後定價 at the close in board lots up to the displayed size.
func TestAuctionAllocationPerSession(t *testing.T) {
	d := decimal.RequireFromString
	q := trading.MarketQuote{Last: d("100"), Bids: []matching.Level{{Price: d("99.5"), Size: 3000}},
		Asks: []matching.Level{{Price: d("100"), Size: 250}, {Price: d("100.5"), Size: 5000}}}
	buy := func(no string, price string, n int64, seq int64) order {
		return order{OrderNo: no, Day: "2026-11-24", Buy: true, Price: d(price), Remaining: n, Seq: seq}
	}

	// 盤中零股: 400 wanted at 100.5 or better; 100 gives 250, 100.5 gives 400 → 100.5 for all.
	p, got := allocation(ticket.OddIntraday, []order{buy("A", "100.5", 300, 1), buy("B", "101", 100, 2)}, q)
	if !p.Equal(d("100.5")) || got[0] != 300 || got[1] != 100 {
		t.Fatalf("intraday: %s %v", p, got)
	}
	// Short of supply at 100 (250 for 300 at the same limit): time priority at 100.
	p, got = allocation(ticket.OddIntraday, []order{buy("A", "100", 200, 1), buy("B", "100", 100, 2)}, q)
	if !p.Equal(d("100")) || got[0] != 200 || got[1] != 50 {
		t.Fatalf("intraday by time: %s %v", p, got)
	}
	// 盤後零股: the same orders, ties drawn at random but the same draw on every run.
	p1, a1 := allocation(ticket.OddAfterHours, []order{buy("A", "100", 200, 1), buy("B", "100", 100, 2)}, q)
	p2, a2 := allocation(ticket.OddAfterHours, []order{buy("A", "100", 200, 1), buy("B", "100", 100, 2)}, q)
	if !p1.Equal(d("100")) || a1[0]+a1[1] != 250 || a1[0] != a2[0] || !p1.Equal(p2) {
		t.Fatalf("after hours: %s %v / %v", p1, a1, a2)
	}
	// No cross: nothing.
	if _, none := allocation(ticket.OddIntraday, []order{buy("A", "99", 100, 1)}, q); none[0] != 0 {
		t.Fatalf("below the asks filled %v", none)
	}
	// 盤後定價: at the close 100, board lots up to the 5,250 shown (5 lots); sells against the bids.
	sell := order{OrderNo: "S", Day: "2026-11-24", Price: d("100"), Remaining: 4000, Seq: 3}
	p, got = allocation(ticket.FixedPrice, []order{buy("A", "100", 3000, 1), buy("B", "100", 3000, 2), sell}, q)
	if !p.Equal(d("100")) || got[0]+got[1] != 5000 || got[0]%1000 != 0 || got[2] != 3000 {
		t.Fatalf("fixed price: %s %v", p, got)
	}
}
