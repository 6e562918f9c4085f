package trading

import (
	"context"
	"slices"
	"testing"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections/projtest"
)

// TestOrdersPositionsAndNotices: a long bought in two fills and half sold, an opening order
// cancelled, a margin call; another member's order. What the member lists, the position's
// figures, the auditor's held shares, and the read model equal to its replay, page by page and
// one event at a time.
func TestOrdersPositionsAndNotices(t *testing.T) {
	d := projtest.Dec
	projtest.Backends(t, func(t *testing.T, e *projtest.Env) {
		m, other := e.Register("0912345678"), e.Register("0922222222")
		acct := events.AccountStream(m)
		open := func(stream, orderNo, symbol string, shares int64) {
			e.Add(stream, "member:m", events.OrderPlaced{OrderNo: orderNo, PositionID: orderNo, Intent: events.IntentOpen,
				Symbol: symbol, Name: symbol, Kind: "stock", Side: events.SideBuy, Direction: events.DirectionLong,
				Type: events.OrderLimit, Shares: shares, Price: d("100"), Leverage: d("1"), TradingDay: "2026-03-02", By: events.OrderByMember})
		}
		e.Deposit(m, "D1", "300000")
		cash := func(from, to string, amount string) []events.Posting {
			return events.Transfer(from, to, "TWD", d(amount))
		}
		paid, received := events.MemberAvailable(m), events.HouseTradeClearing
		open(acct, "T1", "2330", 2000)
		e.Add(acct, "system", events.OrderFilled{OrderNo: "T1", PositionID: "T1", Seq: 1, Side: events.SideBuy, Shares: 1500,
			Amount: d("150000"), Commission: d("213"), Basis: d("150213"), Cash: d("-150213"), Remaining: 500,
			Postings: cash(paid, received, "150213")})
		e.Add(acct, "system", events.OrderFilled{OrderNo: "T1", PositionID: "T1", Seq: 2, Side: events.SideBuy, Shares: 500,
			Amount: d("50000"), Commission: d("71"), Basis: d("50071"), Cash: d("-50071"),
			Postings: cash(paid, received, "50071")})
		e.Add(acct, "member:m", events.OrderPlaced{OrderNo: "T2", PositionID: "T1", Intent: events.IntentClose, Symbol: "2330",
			Name: "2330", Kind: "stock", Side: events.SideSell, Direction: events.DirectionLong, Type: events.OrderLimit, Shares: 1000,
			Price: d("110"), Leverage: d("1"), TradingDay: "2026-03-02", By: events.OrderByMember})
		e.Add(acct, "system", events.OrderFilled{OrderNo: "T2", PositionID: "T1", Seq: 1, Side: events.SideSell, Shares: 1000,
			Amount: d("110000"), Commission: d("156"), Tax: d("330"), Basis: d("100142"), Profit: d("9372"), Cash: d("109514"),
			Postings: cash(received, paid, "109514")})
		open(acct, "T3", "2603", 1000)
		e.Add(acct, "member:m", events.OrderCancelled{OrderNo: "T3", PositionID: "T3", Shares: 1000, Reason: events.CancelByMember})
		e.Add(acct, "system", events.MarginCallIssued{MarginRatio: events.MarginRatio{Ratio: d("1.25")}, Deadline: "2026-03-04"})
		open(events.AccountStream(other), "U1", "2330", 1000)

		db, r := e.Start()
		r.WaitFor(t, e.Head())
		projtest.NoDiffs(t, r.Runner)
		ctx, rd := context.Background(), db.Reader

		p, err := PositionByID(ctx, rd, "T1")
		if err != nil {
			t.Fatal(err)
		}
		if p.Status != PositionHolding || p.Shares != 1000 || p.Bought != 2000 || p.ExitShares != 1000 || p.Closing != 0 ||
			!p.EntryPrice().Equal(d("100")) || !p.ExitPrice().Equal(d("110")) || !p.Basis.Equal(d("100142")) ||
			!p.Fees.Equal(d("440")) || !p.Tax.Equal(d("330")) || !p.Profit.Equal(d("9372")) || p.CloseOrder != "" {
			t.Fatalf("position T1 %+v", p)
		}
		if profit, err := RealisedProfit(ctx, rd, m); err != nil || !profit.Equal(d("9372")) {
			t.Fatalf("realised profit %s, %v", profit, err)
		}
		ids := func(ps []Position) (out []string) {
			for _, p := range ps {
				out = append(out, p.ID)
			}
			return out
		}
		held, _, err := Positions(ctx, rd, m, Held, 0, 0)
		if err != nil || !slices.Equal(ids(held), []string{"T1"}) {
			t.Fatalf("held %v, %v", ids(held), err)
		}
		gone, _, err := Positions(ctx, rd, m, []string{PositionCancelled}, 1, 20)
		if err != nil || !slices.Equal(ids(gone), []string{"T3"}) {
			t.Fatalf("cancelled %v, %v", ids(gone), err)
		}
		orders, err := OrdersOfPosition(ctx, rd, "T1")
		if err != nil || len(orders) != 2 || orders[0].OrderNo != "T1" || orders[0].Status != OrderFilled ||
			!orders[0].AvgPrice().Equal(d("100")) || orders[1].OrderNo != "T2" || orders[1].Filled != 1000 {
			t.Fatalf("orders of T1 %+v, %v", orders, err)
		}
		cancelled, more, err := Orders(ctx, rd, m, []string{OrderCancelled}, 1, 20)
		if err != nil || more || len(cancelled) != 1 || cancelled[0].OrderNo != "T3" || cancelled[0].Reason != events.CancelByMember {
			t.Fatalf("cancelled orders %+v %v, %v", cancelled, more, err)
		}
		if theirs, _, err := Orders(ctx, rd, other, nil, 1, 20); err != nil || len(theirs) != 1 || theirs[0].OrderNo != "U1" {
			t.Fatalf("the other member's orders %+v, %v", theirs, err)
		}
		notices, _, err := Notices(ctx, rd, m, 1, 20)
		if err != nil || len(notices) != 1 || notices[0].Type != "margin_call" || !notices[0].Ratio.Equal(d("1.25")) ||
			notices[0].Deadline != "2026-03-04" {
			t.Fatalf("notices %+v, %v", notices, err)
		}
		shares := map[string]int64{}
		if err := HoldingsIn(rd).HeldShares(ctx, m, func(id, _, _ string, n int64) { shares[id] = n }); err != nil ||
			len(shares) != 2 || shares["T1"] != 1000 || shares["T3"] != 0 {
			t.Fatalf("held shares %v, %v", shares, err)
		}

		e.OneByOne(tradingProjector)
	})
}
