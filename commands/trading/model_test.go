package trading

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/rules/matching"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/postgres"
	"github.com/lotbook/lotbook/events/postgres/pgtest"
	"github.com/lotbook/lotbook/events/sqlite/sqlitetest"
)

// A state-machine test: random orders, fills, partial fills, cancels, closes and margin checks
// against a simple model of what must hold — order shares filled and working, position shares,
// cash never negative, frozen cash exactly the working orders' reservations — checked after
// every step; at the end everything is closed and the cash equals the deposit plus the profit
// realised.

type modelOrder struct {
	shares, filled int64
	working        bool
	position       string
	open           bool
}

type tradeModel struct {
	orders    map[string]*modelOrder
	positions map[string]int64 // id -> shares held
}

func (md *tradeModel) apply(r TradeResult, open bool, shares int64) {
	o := md.orders[r.OrderNo]
	if o == nil {
		o = &modelOrder{shares: shares, working: true, position: r.PositionID, open: open}
		md.orders[r.OrderNo] = o
	}
	o.filled += r.Filled
	if open {
		md.positions[r.PositionID] += r.Filled
	} else {
		md.positions[r.PositionID] -= r.Filled
	}
	switch r.Status {
	case OrderFilled, OrderCancelled, OrderExpired:
		o.working = false
	}
}

// The same machine runs on both stores the product ships with: SQLite (the demo) and PostgreSQL
// (production), each seed on a fresh store.
func TestTradingStateMachine(t *testing.T) {
	backends := []struct {
		name string
		open func(testing.TB) events.Store
	}{{"sqlite", func(t testing.TB) events.Store { return sqlitetest.Open(t) }}, {"postgres", openPostgres}}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			for seed := uint64(1); seed <= 6; seed++ {
				t.Run(fmt.Sprint(seed), func(t *testing.T) { runTradingModel(t, b.open(t), seed) })
			}
		})
	}
}

// openPostgres opens an event store on a fresh database; PostgreSQL unreachable fails the test.
func openPostgres(t testing.TB) events.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := postgres.Open(ctx, pgtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

func runTradingModel(t *testing.T, st events.Store, seed uint64) {
	f := newFixture(t, TradingRules{}, st)
	m := f.trader("0912345678")
	rng := rand.New(rand.NewPCG(seed, 7))
	md := &tradeModel{orders: map[string]*modelOrder{}, positions: map[string]int64{}}
	tick := d("0.5")
	priceAt := func(steps int) decimal.Decimal { return d("100").Add(tick.Mul(decimal.NewFromInt(int64(steps)))) }
	book := func(last int) Market {
		size := func() int64 { return int64(1+rng.IntN(3)) * 1000 }
		return mkt(priceAt(last).String(),
			[]matching.Level{lv(priceAt(last).String(), size()), lv(priceAt(last-1).String(), size())},
			[]matching.Level{lv(priceAt(last).String(), size()), lv(priceAt(last+1).String(), size())})
	}
	pick := func(want func(*modelOrder) bool) string {
		var keys []string
		for k, o := range md.orders {
			if want(o) {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			return ""
		}
		sortStrings(keys)
		return keys[rng.IntN(len(keys))]
	}
	seq := 0
	for step := 0; step < 60; step++ {
		last := rng.IntN(9) - 4 // 98 to 102
		mk := book(last)
		switch op := rng.IntN(5); op {
		case 0, 1: // place
			dir, lev := events.DirectionLong, []string{"1", "1.5", "2.5"}[rng.IntN(3)]
			if rng.IntN(3) == 0 {
				dir, lev = events.DirectionShort, []string{"1", "1.11"}[rng.IntN(2)]
			}
			in := OrderInput{Symbol: "1101", Direction: dir, Type: events.OrderLimit, Lots: int64(1 + rng.IntN(3)), Leverage: lev,
				Price: priceAt(last + rng.IntN(5) - 2).String()}
			if rng.IntN(3) == 0 {
				in.Type, in.Price = events.OrderMarket, ""
			}
			r, err := f.tr.PlaceOrder(f.Ctx, commandstest.Meta("member"), m, in, mk)
			if e, ok := commands.AsError(err); ok && e.Key == commands.KeyInsufficientBalance {
				continue
			}
			f.Must(err)
			md.apply(r, true, in.Lots*BoardLot)
		case 2: // a quote update crosses a resting order, maybe in part
			no := pick(func(o *modelOrder) bool { return o.working })
			if no == "" {
				continue
			}
			seq++
			r, err := f.tr.FillOrder(f.Ctx, commands.Meta{CommandID: fmt.Sprintf("%s/fill/%d", no, seq), Actor: "system"}, FillOrder{MemberID: m, OrderNo: no, Market: book(last + rng.IntN(7) - 3)})
			f.Must(err)
			if r.Filled > 0 {
				md.apply(r, md.orders[no].open, 0)
			}
		case 3: // cancel
			no := pick(func(o *modelOrder) bool { return o.working })
			if no == "" {
				continue
			}
			r, err := f.tr.CancelOrder(f.Ctx, commandstest.Meta("member"), CancelOrder{MemberID: m, OrderNo: no})
			f.Must(err)
			md.apply(r, md.orders[no].open, 0)
		case 4: // close a holding position at market
			id := ""
			for k, n := range md.positions {
				if n > 0 && (id == "" || k < id) && !closing(md, k) {
					id = k
				}
			}
			if id == "" {
				continue
			}
			r, err := f.tr.ClosePosition(f.Ctx, commandstest.Meta("member"), ClosePosition{MemberID: m, PositionID: id, Close: CloseInput{Type: events.OrderMarket}, Market: mk})
			if e, ok := commands.AsError(err); ok && e.Key == commands.KeyInsufficientBalance {
				continue
			}
			f.Must(err)
			for no, o := range md.orders { // the opening order's rest was cancelled with it
				if no == id && o.working {
					o.working = false
				}
			}
			md.apply(r, false, md.positions[id])
		}
		checkModel(t, f, m, md, step)
		// Now and then the price jumps far (as over several days): the maintenance rule acts.
		check := mk
		if shock := rng.IntN(8); shock < 2 {
			px := []string{"55", "190"}[shock]
			check = mkt(px, []matching.Level{lv(px, 100000)}, []matching.Level{lv(px, 100000)})
			check.Quote.LimitDown, check.Quote.LimitUp = d(px).Mul(d("0.9")), d(px).Mul(d("1.1"))
		}
		if _, err := f.tr.MarginCheck(f.Ctx, commandstest.Meta("system"), MarginCheck{MemberID: m, Markets: map[string]Market{"1101": check}}); err != nil {
			t.Fatalf("step %d margin check: %v", step, err)
		}
		syncModel(t, f, m, md) // a forced close may have closed positions
	}
	// Close what is left at 100 and compare the cash with the profit realised.
	for no, o := range md.orders {
		if o.working {
			_, err := f.tr.CancelOrder(f.Ctx, commandstest.Meta("member"), CancelOrder{MemberID: m, OrderNo: no})
			f.Must(err)
		}
	}
	syncModel(t, f, m, md)
	for id, n := range md.positions {
		if n > 0 {
			_, err := f.tr.ClosePosition(f.Ctx, commandstest.Meta("member"), ClosePosition{MemberID: m, PositionID: id, Close: CloseInput{Type: events.OrderMarket}, Market: mkt("100", []matching.Level{lv("100", 100000)}, []matching.Level{lv("100", 100000)})})
			f.Must(err)
		}
	}
	realised, err := commands.View(f.Ctx, f.Svc, events.AccountStream(m), func(a *commands.Account, _ *commands.Entry) decimal.Decimal {
		sum := decimal.Zero
		for _, p := range tradingPart.Of(a).positions {
			if p.shares != 0 {
				t.Errorf("position %s still holds %d", p.id, p.shares)
			}
			sum = sum.Add(p.realised)
		}
		return sum
	})
	f.Must(err)
	if b := f.balance(m); !b.Frozen.IsZero() || !b.Available.Equal(d("1000000").Add(realised)) {
		t.Fatalf("all closed: cash %+v, want 1,000,000 %+v realised and nothing frozen", b, realised)
	}
	all := f.CheckLog()
	t.Logf("seed %d: %d orders, %d fills, %d cancels, %d margin calls, %d forced closes, realised %s", seed, commandstest.Count(all, "OrderPlaced"),
		commandstest.Count(all, "OrderFilled"), commandstest.Count(all, "OrderCancelled"), commandstest.Count(all, "MarginCallIssued"), commandstest.Count(all, "ForcedCloseStarted"), realised)
}

func closing(md *tradeModel, id string) bool {
	for _, o := range md.orders {
		if !o.open && o.position == id && o.working {
			return true
		}
	}
	return false
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// checkModel compares the aggregate with the model and checks the cash invariants.
func checkModel(t *testing.T, f *fixture, m string, md *tradeModel, step int) {
	t.Helper()
	_, err := commands.View(f.Ctx, f.Svc, events.AccountStream(m), func(a *commands.Account, _ *commands.Entry) bool {
		b := a.Balances[TWD]
		if b.Available.IsNegative() || b.Frozen.IsNegative() {
			t.Fatalf("step %d: negative cash %+v", step, b)
		}
		reserved := decimal.Zero
		for no, o := range tradingPart.Of(a).orders {
			mo := md.orders[no]
			if mo == nil {
				continue // placed by a rule (forced close): synced below
			}
			if o.filled != mo.filled || o.working != mo.working {
				t.Fatalf("step %d: order %s filled %d working %v, model %d %v", step, no, o.filled, o.working, mo.filled, mo.working)
			}
			if o.working {
				reserved = reserved.Add(o.reserved)
			} else if !o.reserved.IsZero() {
				t.Fatalf("step %d: done order %s still holds %s", step, no, o.reserved)
			}
		}
		if !reserved.Equal(b.Frozen) {
			t.Fatalf("step %d: frozen %s, working orders reserve %s", step, b.Frozen, reserved)
		}
		for id, n := range md.positions {
			if p := tradingPart.Of(a).positions[id]; p == nil || p.shares != n || p.shares < 0 || p.closing < 0 || p.closing > p.shares {
				t.Fatalf("step %d: position %s %+v, model holds %d", step, id, p, n)
			}
		}
		return true
	})
	f.Must(err)
}

// syncModel takes over what rules did (forced closes, their orders) from the aggregate.
func syncModel(t *testing.T, f *fixture, m string, md *tradeModel) {
	t.Helper()
	_, err := commands.View(f.Ctx, f.Svc, events.AccountStream(m), func(a *commands.Account, _ *commands.Entry) bool {
		for no, o := range tradingPart.Of(a).orders {
			mo := md.orders[no]
			if mo == nil {
				mo = &modelOrder{shares: o.Shares, position: o.PositionID, open: o.Intent == events.IntentOpen}
				md.orders[no] = mo
			}
			mo.filled, mo.working = o.filled, o.working
		}
		for id, p := range tradingPart.Of(a).positions {
			md.positions[id] = p.shares
		}
		return true
	})
	f.Must(err)
}
