package quant

import (
	"context"
	"fmt"
	"testing"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections/projtest"
)

// strategy writes a subscriber's strategy as the quant process does, on the member's account
// stream: money released for a buy (its command id named), the buy placed by that command and
// filled, the unused reservation returned; later the position closed and sold, the proceeds
// returned, and the member leaving.
type strategy struct {
	e                  *projtest.Env
	id, acct, sub, key string
}

// hold and release are the postings of the subscription's money held from available cash and
// given back to it; cash those of an order's fill.
func (s strategy) hold(amount string) []events.Posting {
	return events.Transfer(events.MemberAvailable(s.id), events.MemberFrozen(s.id), "TWD", projtest.Dec(amount))
}

func (s strategy) release(amount string) []events.Posting {
	return events.Transfer(events.MemberFrozen(s.id), events.MemberAvailable(s.id), "TWD", projtest.Dec(amount))
}

func (s strategy) cash(paid bool, amount string) []events.Posting {
	if paid {
		return events.Transfer(events.MemberAvailable(s.id), events.HouseTradeClearing, "TWD", projtest.Dec(amount))
	}
	return events.Transfer(events.HouseTradeClearing, events.MemberAvailable(s.id), "TWD", projtest.Dec(amount))
}

func subscribe(e *projtest.Env, account string) strategy {
	id := e.Register(account)
	s := strategy{e: e, id: id, acct: events.AccountStream(id), sub: "Q" + account, key: account}
	e.Deposit(id, "D"+account, "200000")
	e.Add(s.acct, "member:"+account, events.QuantSubscribed{SubID: s.sub, Product: "momentum-0050", Currency: "TWD",
		Amount: projtest.Dec("150000"), MinAmount: projtest.Dec("10000"), Postings: s.hold("150000")})
	return s
}

func (s strategy) order(no, position, intent, side, cmd string) {
	d := projtest.Dec
	s.e.AddCommand(s.acct, "system", cmd, events.OrderPlaced{OrderNo: no, PositionID: position, Intent: intent, Symbol: "0050",
		Name: "0050", Kind: "etf", Side: side, Direction: events.DirectionLong, Type: events.OrderMarket, Shares: 1000, Price: d("55"),
		Leverage: d("1"), TradingDay: "2026-03-02", By: events.OrderByMember})
}

func (s strategy) buy() {
	d, cmd, no := projtest.Dec, "quant/"+s.sub+"/buy", "B"+s.key
	s.e.Add(s.acct, "system", events.QuantFundsReleased{SubID: s.sub, Currency: "TWD", Amount: d("50100"), Symbol: "0050", Shares: 1000,
		OrderCommandID: cmd, Day: "2026-03-02", EntryClose: d("50"), Postings: s.release("50100")})
	s.order(no, no, events.IntentOpen, events.SideBuy, cmd)
	s.e.Add(s.acct, "system", events.OrderFilled{OrderNo: no, PositionID: no, Seq: 1, Side: events.SideBuy, Shares: 1000,
		Amount: d("50000"), Commission: d("71"), Basis: d("50071"), Cash: d("-50071"), Postings: s.cash(true, "50071")},
		events.QuantFundsReturned{SubID: s.sub, Currency: "TWD", Ref: no, Amount: d("29"), Reason: events.QuantReturnOrderDone, Postings: s.hold("29")})
}

func (s strategy) sellAndLeave() {
	d, no, position := projtest.Dec, "S"+s.key, "B"+s.key
	s.order(no, position, events.IntentClose, events.SideSell, "quant/"+s.sub+"/sell")
	s.e.Add(s.acct, "system", events.OrderFilled{OrderNo: no, PositionID: position, Seq: 1, Side: events.SideSell, Shares: 1000,
		Amount: d("55000"), Commission: d("78"), Tax: d("55"), Basis: d("50071"), Profit: d("4796"), Cash: d("54867"), Postings: s.cash(false, "54867")},
		events.QuantFundsReturned{SubID: s.sub, Currency: "TWD", Ref: no, Amount: d("54867"), Reason: events.QuantReturnSold, Postings: s.hold("54867")})
	s.e.Add(s.acct, "member:"+s.key, events.QuantLeft{SubID: s.sub, Currency: "TWD", Released: d("154796"), Close: true, Postings: s.release("154796")})
}

// TestQuantSplitLikeOne: six subscribers' strategies, over both partitions of two, give two
// partitions the same rows as one runner: each subscribes and buys (the position made by the
// order its released money named); then, applied by partitions that already hold the
// subscriptions and positions, half of them sell and leave and the other half's strategies buy.
func TestQuantSplitLikeOne(t *testing.T) {
	projtest.Backends(t, func(t *testing.T, e *projtest.Env) {
		var ss []strategy
		e.SplitLikeOne(t, projector, func() {
			for i := range 6 {
				ss = append(ss, subscribe(e, fmt.Sprintf("09555555%02d", i)))
				if i%2 == 0 {
					ss[i].buy()
				}
			}
		}, func() {
			for i, s := range ss {
				if i%2 == 0 {
					s.sellAndLeave()
				} else {
					s.buy()
				}
			}
		})
		// What a subscriber sees after the partitions' rows are compared: the round trip's figures.
		db := e.Open()
		subs, err := MemberSubscriptions(context.Background(), db.Reader, events.MemberID("0955555500"))
		if err != nil || len(subs) != 1 || subs[0].State != StateEnded || !subs[0].Realized.Equal(projtest.Dec("4796")) || subs[0].Orders != 2 {
			t.Fatalf("subscription of the first subscriber %+v %v", subs, err)
		}
	})
}
