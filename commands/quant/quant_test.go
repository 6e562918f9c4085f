package quant

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	rules "github.com/lotbook/lotbook/commands/rules/quant"
	"github.com/lotbook/lotbook/events"
)

var d = decimal.RequireFromString

// account is member m1's account after ps.
func account(ps ...events.Payload) *commands.Account {
	return commandstest.Build(commands.NewAccount("m1"), nil, ps...)
}

func deposit(amount string) events.Payload {
	return events.DepositApproved{OrderNo: "D1", Currency: "TWD", Amount: d(amount),
		Postings: events.Transfer(events.HouseBankClearing, events.MemberAvailable("m1"), "TWD", d(amount))}
}

func subNo(int) string { return "AQ1" }

func TestDecideSubscribe(t *testing.T) {
	p, _ := rules.ByID("momentum-0050")
	cases := []struct {
		name, cash, amount, key string
	}{
		{"below the minimum", "500000", "99999", commands.KeyAmountBelowMinimum},
		{"above the cash", "120000", "120001", commands.KeyInsufficientBalance},
		{"the minimum", "100000", "100000", ""},
	}
	for _, c := range cases {
		out, err := decideSubscribe(account(deposit(c.cash)), p, d(c.amount), subNo)
		if c.key != "" {
			if e, ok := commands.AsError(err); !ok || e.Key != c.key {
				t.Errorf("%s: %v, want %s", c.name, err, c.key)
			}
			continue
		}
		if err != nil || len(out) != 1 {
			t.Fatalf("%s: %v %v", c.name, out, err)
		}
		if e := out[0].(events.QuantSubscribed); !e.Amount.Equal(d(c.amount)) || e.SubID != "AQ1" {
			t.Errorf("%s: %+v", c.name, e)
		}
	}
}

// Whatever the strategy asks to release, in any order and repeated, the releases never add up to
// more than the subscription holds, a repeated order is released once, and nothing is released
// once the member left.
func TestReleasesNeverOverspend(t *testing.T) {
	p, _ := rules.ByID("momentum-0050")
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 7))
		amount := decimal.NewFromInt(100000 + rng.Int64N(400000))
		sub, err := decideSubscribe(account(deposit("500000")), p, amount, subNo)
		if err != nil {
			t.Fatal(err)
		}
		history := []events.Payload{deposit("500000"), sub[0]}
		released := decimal.Zero
		for i := range 30 {
			in := Release{MemberID: "m1", SubID: "AQ1", Symbol: "0050", Shares: 1000,
				OrderCommandID: fmt.Sprintf("o%d", rng.IntN(20)), Amount: decimal.NewFromInt(1 + rng.Int64N(150000))}
			if i == 25 && rng.IntN(2) == 0 {
				left, err := decideLeave(account(history...), "AQ1", false)
				if err != nil {
					t.Fatal(err)
				}
				history = append(history, left...)
			}
			out, err := decideRelease(account(history...), in)
			if err != nil {
				continue
			}
			for _, e := range out {
				released = released.Add(e.(events.QuantFundsReleased).Amount)
			}
			history = append(history, out...)
		}
		a := account(history...)
		if released.GreaterThan(amount) {
			t.Fatalf("seed %d: released %s of %s", seed, released, amount)
		}
		if a.Balances["TWD"].Frozen.IsNegative() || a.Balances["TWD"].Available.IsNegative() {
			t.Fatalf("seed %d: balances %+v", seed, a.Balances["TWD"])
		}
		s := quantPart.Of(a).subs["AQ1"]
		if s.held.IsNegative() || !s.held.Add(released).LessThanOrEqual(amount) {
			t.Fatalf("seed %d: held %s released %s of %s", seed, s.held, released, amount)
		}
	}
}

func TestLeave(t *testing.T) {
	p, _ := rules.ByID("momentum-0050")
	sub, _ := decideSubscribe(account(deposit("200000")), p, d("150000"), subNo)
	a := account(deposit("200000"), sub[0])
	if _, err := decideLeave(a, "AQ2", true); err == nil {
		t.Fatal("left an unknown subscription")
	}
	out, err := decideLeave(a, "AQ1", true)
	if err != nil || !out[0].(events.QuantLeft).Released.Equal(d("150000")) {
		t.Fatalf("leave %v %v", out, err)
	}
	after := account(deposit("200000"), sub[0], out[0])
	if _, err := decideLeave(after, "AQ1", false); err == nil {
		t.Fatal("left twice")
	}
	if b := after.Balances["TWD"]; !b.Available.Equal(d("200000")) || !b.Frozen.IsZero() {
		t.Fatalf("balances after leaving %+v", b)
	}
}

// rec is a payload recorded under a command id (the strategy's orders are known by theirs).
type rec struct {
	cmd string
	p   events.Payload
}

// accountOf is member m1's account after recs.
func accountOf(recs ...rec) *commands.Account {
	a := commands.NewAccount("m1")
	for i, r := range recs {
		a.Apply(events.RecordedEvent{Version: int64(i + 1), Metadata: events.Metadata{CommandID: r.cmd}}, r.p)
	}
	return a
}

// What the strategy's orders give back to available cash goes back into the subscription, once,
// never more than is available, and not once the member left or for the member's own orders.
func TestDecideReturn(t *testing.T) {
	m1 := "m1"
	move := func(from, to string, amount string) []events.Posting {
		return events.Transfer(from, to, "TWD", d(amount))
	}
	av, fr := events.MemberAvailable(m1), events.MemberFrozen(m1)
	p, _ := rules.ByID("momentum-0050")
	sub, _ := decideSubscribe(account(deposit("200000")), p, d("150000"), subNo)
	const buyCmd, sellCmd = "quant-strategy/AQ1/0050/1772415000/buy", "quant-strategy/AQ1/0050/1772501400/sell"
	opened := []rec{{"d", deposit("200000")}, {"s", sub[0]},
		{"r", events.QuantFundsReleased{SubID: "AQ1", Currency: "TWD", Amount: d("142000"), OrderCommandID: buyCmd, Shares: 2000,
			Postings: move(fr, av, "142000")}}}
	bought := append(append([]rec{}, opened...),
		rec{buyCmd, events.OrderPlaced{OrderNo: "T1", PositionID: "T1", Intent: events.IntentOpen, Side: events.SideBuy}},
		rec{buyCmd, events.TradeCashFrozen{OrderNo: "T1", Amount: d("142000"), Postings: move(av, fr, "142000")}},
		rec{"m", events.OrderFilled{OrderNo: "T1", PositionID: "T1", Side: events.SideBuy, Shares: 2000, Cash: d("-141000"),
			Postings: move(fr, events.HouseTradeClearing, "141000")}},
		rec{"m", events.TradeCashReleased{OrderNo: "T1", Amount: d("1000"), Postings: move(fr, av, "1000")}})
	sold := append(append([]rec{}, bought...),
		rec{sellCmd, events.OrderPlaced{OrderNo: "T2", PositionID: "T1", Intent: events.IntentClose, Side: events.SideSell}},
		rec{"m", events.OrderFilled{OrderNo: "T2", PositionID: "T1", Side: events.SideSell, Shares: 2000, Cash: d("143500"),
			Postings: move(events.HouseTradeClearing, av, "143500")}})
	left, _ := decideLeave(accountOf(opened...), "AQ1", false)
	withdrawn := rec{"w", events.WithdrawalRequested{OrderNo: "W1", Currency: "TWD", Amount: d("91500"), Postings: move(av, fr, "91500")}}
	cases := []struct {
		name    string
		history []rec
		ref     string
		want    string // "" nothing
	}{
		{"a refused buy's release", opened, buyCmd, "142000"},
		{"a placed buy's release is the order's", bought, buyCmd, ""},
		{"a done buy's unused reservation", bought, "T1", "1000"},
		{"a sale's net proceeds", sold, "T2", "143500"},
		{"an unknown order", sold, "T9", ""},
		{"after leaving it stays available", append(append([]rec{}, opened...), rec{"l", left[0]}), buyCmd, ""},
		{"the member's own order", append(append([]rec{}, opened...),
			rec{"member-key", events.OrderPlaced{OrderNo: "T3", PositionID: "T3", Intent: events.IntentOpen, Side: events.SideBuy}},
			rec{"m", events.TradeCashReleased{OrderNo: "T3", Amount: d("10"), Postings: move(fr, av, "10")}}), "T3", ""},
		{"never more than is available", append(append([]rec{}, opened...), withdrawn), buyCmd, "100500"},
	}
	for _, c := range cases {
		out, err := decideReturn(accountOf(c.history...), c.ref, events.QuantReturnSold)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if c.want == "" {
			if len(out) != 0 {
				t.Errorf("%s: returned %+v", c.name, out)
			}
			continue
		}
		if len(out) != 1 || !out[0].(events.QuantFundsReturned).Amount.Equal(d(c.want)) {
			t.Fatalf("%s: %+v, want %s", c.name, out, c.want)
		}
		// Returned once: asking again returns nothing, and the hold grew by it.
		after := append(append([]rec{}, c.history...), rec{"ret", out[0]})
		if again, _ := decideReturn(accountOf(after...), c.ref, events.QuantReturnSold); len(again) != 0 {
			t.Errorf("%s: returned twice %+v", c.name, again)
		}
		before, now := quantPart.Of(accountOf(c.history...)).subs["AQ1"].held, quantPart.Of(accountOf(after...)).subs["AQ1"].held
		if !now.Sub(before).Equal(d(c.want)) {
			t.Errorf("%s: held %s -> %s", c.name, before, now)
		}
	}
}
