package runner

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/quant"
	rules "github.com/lotbook/lotbook/commands/rules/quant"
	"github.com/lotbook/lotbook/events"
)

type returned struct{ member, ref, reason string }

// fake records the commands the process sends and refuses every buy when refuse is set.
type fake struct {
	refuse   bool
	released []string
	returns  []returned
	buys     int
}

func (f *fake) Release(_ context.Context, _ commands.Meta, in quant.Release) (quant.Result, error) {
	f.released = append(f.released, in.OrderCommandID)
	return quant.Result{}, nil
}

func (f *fake) Return(_ context.Context, _ commands.Meta, member, ref, reason string) (quant.Result, error) {
	f.returns = append(f.returns, returned{member, ref, reason})
	return quant.Result{}, nil
}

func (f *fake) Bars(_ string, t time.Time, n int) ([]rules.Bar, error) {
	// rising closes: the momentum rule enters
	out := make([]rules.Bar, n)
	for i := range out {
		out[i] = rules.Bar{Day: t.AddDate(0, 0, i-n).Format(time.DateOnly), Close: decimal.NewFromInt(int64(100 + i))}
	}
	return out, nil
}

func (f *fake) Plan(string, time.Time) (Plan, bool) {
	return Plan{Limit: decimal.NewFromInt(160), BoardLots: true}, true
}

func (f *fake) Buy(context.Context, commands.Meta, string, string, rules.Order, decimal.Decimal, time.Time) error {
	f.buys++
	if f.refuse {
		return commands.Rule(commands.KeyNotTradingTime)
	}
	return nil
}

func (f *fake) Sell(context.Context, commands.Meta, string, string, string, time.Time) error {
	return nil
}

func recorded(stream, cmd string, pos int64) events.RecordedEvent {
	return events.RecordedEvent{ID: uuid.New(), Stream: stream, Position: pos, Metadata: events.Metadata{CommandID: cmd}}
}

// The strategy's cash goes back into the subscription: a refused buy's release, a done buy's
// unused reservation, a sale's proceeds; the member's own orders and another subscription's
// leave it alone.
func TestStrategyCashGoesBackIntoTheSubscription(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 3, 2, 9, 30, 0, 0, commands.Taipei)
	stream := events.AccountStream("m1")
	d := decimal.RequireFromString
	cases := []struct {
		name   string
		refuse bool
		after  func(p *Process, buyCmd string) // events after the evaluation
		want   []returned
	}{
		{name: "a refused buy's release", refuse: true, want: []returned{{"m1", "", events.QuantReturnRefused}}},
		{name: "a done buy's unused reservation and a sale's proceeds", after: func(p *Process, buyCmd string) {
			for i, ev := range []struct {
				cmd string
				pl  events.Payload
			}{
				{buyCmd, events.OrderPlaced{OrderNo: "T1", PositionID: "T1", Intent: events.IntentOpen, Side: events.SideBuy}},
				{"m", events.OrderFilled{OrderNo: "T1", PositionID: "T1", Side: events.SideBuy, Shares: 1000, Cash: d("-150000")}},
				{"m", events.TradeCashReleased{OrderNo: "T1", Amount: d("300")}},
				{"member-key", events.OrderPlaced{OrderNo: "T2", PositionID: "T2", Intent: events.IntentOpen, Side: events.SideBuy}},
				{"m", events.TradeCashReleased{OrderNo: "T2", Amount: d("50")}},
				{quant.StrategyName + "/AQ1/0050/1/sell", events.OrderPlaced{OrderNo: "T3", PositionID: "T1", Intent: events.IntentClose,
					Side: events.SideSell}},
				{"m", events.OrderFilled{OrderNo: "T3", PositionID: "T1", Side: events.SideSell, Shares: 1000, Cash: d("151000")}},
			} {
				if err := p.Handle(ctx, recorded(stream, ev.cmd, int64(10+i)), ev.pl); err != nil {
					t.Fatal(err)
				}
			}
		}, want: []returned{{"m1", "T1", events.QuantReturnOrderDone}, {"m1", "T3", events.QuantReturnSold}}},
	}
	for _, c := range cases {
		f := &fake{refuse: c.refuse}
		p := New(Config{Commands: f, Market: f})
		if err := p.Handle(ctx, recorded(stream, "s", 1), events.QuantSubscribed{SubID: "AQ1", Product: "momentum-0050",
			Amount: d("300000")}); err != nil {
			t.Fatal(err)
		}
		err := p.Evaluate(ctx, at)
		if f.buys != 1 || len(f.released) != 1 {
			t.Fatalf("%s: buys %d releases %v (%v)", c.name, f.buys, f.released, err)
		}
		if c.after != nil {
			c.after(p, f.released[0])
		}
		if len(f.returns) != len(c.want) {
			t.Fatalf("%s: returns %+v", c.name, f.returns)
		}
		for i, w := range c.want {
			if w.ref == "" {
				w.ref = f.released[0]
			}
			if f.returns[i] != w {
				t.Errorf("%s: return %d %+v, want %+v", c.name, i, f.returns[i], w)
			}
		}
	}
}
