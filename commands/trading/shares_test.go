package trading

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/rules/matching"
	"github.com/lotbook/lotbook/events"
)

func TestShareLegs(t *testing.T) {
	const sec, member = "TW:2330", "m1"
	shares := events.MemberAccount(member, events.KindShares)
	borrowed := events.MemberAccount(member, events.KindSharesBorrowed)
	leg := func(account string, n int64) events.Posting {
		return events.Posting{Account: account, Security: sec, Amount: decimal.NewFromInt(n)}
	}
	for _, c := range []struct {
		name           string
		buy, short, on bool
		want           []events.Posting
	}{
		{name: "buy long: exchange to the member's shares", buy: true, on: true,
			want: []events.Posting{leg(events.HouseExchangeShares, -1000), leg(shares, 1000)}},
		{name: "sell long: the member's shares to the exchange", on: true,
			want: []events.Posting{leg(shares, -1000), leg(events.HouseExchangeShares, 1000)}},
		{name: "sell short: borrowed shares owed, never a negative holding", short: true, on: true,
			want: []events.Posting{leg(borrowed, -1000), leg(events.HouseExchangeShares, 1000)}},
		{name: "buy to cover: the debt in shares repaid", buy: true, short: true, on: true,
			want: []events.Posting{leg(events.HouseExchangeShares, -1000), leg(borrowed, 1000)}},
		{name: "position off the share ledger (first filled by v1)", buy: false, on: false, want: nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := shareLegs(sec, member, c.buy, c.short, c.on, 1000)
			if len(got) != len(c.want) {
				t.Fatalf("legs %+v, want %+v", got, c.want)
			}
			for i := range got {
				if got[i].Account != c.want[i].Account || got[i].Security != sec || got[i].Currency != "" || !got[i].Amount.Equal(c.want[i].Amount) {
					t.Fatalf("leg %d %+v, want %+v", i, got[i], c.want[i])
				}
			}
			if got != nil {
				if err := events.CheckBalanced(got); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// shareBalances sums the member's share postings in the log: shares and shares_borrowed of 1101.
func (f *fixture) shareBalances(memberID string) [2]int64 {
	f.T.Helper()
	accounts := [2]string{events.MemberAccount(memberID, events.KindShares), events.MemberAccount(memberID, events.KindSharesBorrowed)}
	var out [2]int64
	for _, r := range f.CheckLog() {
		p, err := events.DecodeRecorded(r)
		f.Must(err)
		m, ok := p.(events.MovesMoney)
		if !ok {
			continue
		}
		for _, l := range m.MoneyPostings() {
			for i, a := range accounts {
				if l.Account == a && l.Security == events.Security(events.MarketTW, "1101") {
					out[i] += l.Amount.IntPart()
				}
			}
		}
	}
	return out
}

// TestFillsMoveSharesAsPositionsDo: after every fill (a partial buy, its rest, a partial sale, a
// short sale and its cover) the member's share accounts on the ledger hold what the positions hold.
func TestFillsMoveSharesAsPositionsDo(t *testing.T) {
	f, m := tradingFixture(t)
	want := func(step string, held, owed int64) {
		t.Helper()
		if got := f.shareBalances(m); got != [2]int64{held, -owed} {
			t.Fatalf("%s: shares %d, shares_borrowed %d; want %d, %d", step, got[0], got[1], held, -owed)
		}
	}
	o, err := f.tr.PlaceOrder(f.Ctx, commandstest.Meta("member"), m, OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 3, Price: "99"},
		mkt("100", nil, []matching.Level{lv("100", 9000)}))
	f.Must(err)
	want("resting order", 0, 0)
	fill := func(seq string, asks ...matching.Level) {
		_, err := f.tr.FillOrder(f.Ctx, commands.Meta{CommandID: o.OrderNo + "/fill/" + seq, Actor: "system"}, FillOrder{MemberID: m, OrderNo: o.OrderNo, Market: mkt("99", nil, asks)})
		f.Must(err)
	}
	fill("1", lv("99", 1000))
	want("partial fill", 1000, 0)
	fill("2", lv("99", 5000))
	want("filled", 3000, 0)
	if p := f.position(m, o.OrderNo); p.shares != 3000 || !p.onLedger {
		t.Fatalf("position %+v", p)
	}
	_, err = f.tr.ClosePosition(f.Ctx, commandstest.Meta("member"), ClosePosition{MemberID: m, PositionID: o.OrderNo, Close: CloseInput{Type: "market", Lots: 2},
		Market: mkt("100", []matching.Level{lv("100", 5000)}, nil)})
	f.Must(err)
	want("sold 2 lots", 1000, 0)
	for _, fl := range f.fills(o.OrderNo) {
		if fl.Security != "TW:1101" {
			t.Fatalf("fill names security %q", fl.Security)
		}
	}

	short, err := f.tr.PlaceOrder(f.Ctx, commandstest.Meta("member"), m, OrderInput{Symbol: "1101", Direction: "short", Type: "market", Lots: 1, Leverage: "1.11"},
		mkt("100", []matching.Level{lv("100", 2000)}, nil))
	f.Must(err)
	want("short sale", 1000, 1000)
	_, err = f.tr.ClosePosition(f.Ctx, commandstest.Meta("member"), ClosePosition{MemberID: m, PositionID: short.PositionID, Close: CloseInput{Type: "market"},
		Market: mkt("98", nil, []matching.Level{lv("98", 5000)})})
	f.Must(err)
	want("covered", 1000, 0)
}

// TestV1PositionStaysOffTheShareLedger: a position whose first fill was stored as v1 (no
// security, no share legs) is closed with a fill that names its security but takes no shares
// from an account that never received them.
func TestV1PositionStaysOffTheShareLedger(t *testing.T) {
	tr := newTrading()
	const frozen = "member:m1:frozen"
	open := events.OrderPlaced{OrderNo: "T1", PositionID: "T1", Intent: events.IntentOpen, Symbol: "1101", Kind: "stock", Side: events.SideBuy,
		Direction: events.DirectionLong, Type: events.OrderLimit, Shares: 1000, Price: d("100"), Leverage: d("1"), TradingDay: "2026-11-20"}
	tr.evolve(open, frozen, commandstest.T0)
	tr.evolve(events.OrderFilled{OrderNo: "T1", PositionID: "T1", Seq: 1, Side: events.SideBuy, Shares: 1000, Amount: d("100000"),
		Basis: d("100142"), Loan: decimal.Zero, Margin: decimal.Zero}, frozen, commandstest.T0)
	closing := events.OrderPlaced{OrderNo: "T2", PositionID: "T1", Intent: events.IntentClose, Symbol: "1101", Kind: "stock", Side: events.SideSell,
		Direction: events.DirectionLong, Type: events.OrderMarket, Shares: 1000, Price: d("90"), Leverage: d("1"), TradingDay: "2026-11-23"}
	tr.evolve(closing, frozen, commandstest.T0)
	if tr.positions["T1"].onLedger {
		t.Fatal("a v1 position is on the share ledger")
	}
	e, err := fillEvent(tr.orders["T2"], tr.positions["T1"], []matching.Fill{{Price: d("100"), Shares: 1000}},
		fillContext{memberID: "m1", available: "member:m1:available", frozen: frozen, now: commandstest.T0.Add(time.Hour), tradingDay: "2026-11-23"})
	if err != nil {
		t.Fatal(err)
	}
	if e.Security != "TW:1101" {
		t.Fatalf("security %q", e.Security)
	}
	for _, p := range e.Postings {
		if p.IsShares() {
			t.Fatalf("share leg on a v1 position: %+v", e.Postings)
		}
	}
	if len(e.Postings) == 0 {
		t.Fatal("no money legs")
	}
}
