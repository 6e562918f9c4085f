package ticket

import (
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestCheck(t *testing.T) {
	day := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	old, young := day.AddDate(-2, 0, 0), day.AddDate(0, -3, 0)
	ok := Ticket{Condition: Cash, Session: Regular, TIF: ROD, Price: d("100"), Reference: d("100"), Listed: old, Day: day}
	with := func(f func(*Ticket)) Ticket { t := ok; f(&t); return t }
	for _, c := range []struct {
		name string
		t    Ticket
		want error
	}{
		{"cash regular ROD", ok, nil},
		{"cash regular IOC market", with(func(t *Ticket) { t.TIF, t.Market, t.Price = IOC, true, decimal.Zero }), nil},
		{"FOK regular", with(func(t *Ticket) { t.TIF = FOK }), nil},
		{"margin regular", with(func(t *Ticket) { t.Condition = Margin }), nil},
		{"short at the reference", with(func(t *Ticket) { t.Condition = Short }), nil},
		{"short above the reference", with(func(t *Ticket) { t.Condition, t.Price = Short, d("101") }), nil},
		{"short below the reference", with(func(t *Ticket) { t.Condition, t.Price = Short, d("99.5") }), ErrBelowRef},
		{"short at market", with(func(t *Ticket) { t.Condition, t.Market, t.Price = Short, true, decimal.Zero }), nil},
		{"day trade regular", with(func(t *Ticket) { t.Condition = DayTrade }), nil},
		{"odd lots in 整股", with(func(t *Ticket) { t.OddLot = true }), ErrUnit},
		{"lots in 盤中零股", with(func(t *Ticket) { t.Session = OddIntraday }), ErrUnit},
		{"intraday odd lot", with(func(t *Ticket) { t.Session, t.OddLot = OddIntraday, true }), nil},
		{"after-hours odd lot", with(func(t *Ticket) { t.Session, t.OddLot = OddAfterHours, true }), nil},
		{"fixed price", with(func(t *Ticket) { t.Session = FixedPrice }), nil},
		{"market in 盤中零股", with(func(t *Ticket) { t.Session, t.OddLot, t.Market = OddIntraday, true, true }), ErrLimitOnly},
		{"market in 盤後零股", with(func(t *Ticket) { t.Session, t.OddLot, t.Market = OddAfterHours, true, true }), ErrLimitOnly},
		{"market in 盤後定價", with(func(t *Ticket) { t.Session, t.Market = FixedPrice, true }), ErrLimitOnly},
		{"IOC in 盤中零股", with(func(t *Ticket) { t.Session, t.OddLot, t.TIF = OddIntraday, true, IOC }), ErrTIF},
		{"FOK in 盤後零股", with(func(t *Ticket) { t.Session, t.OddLot, t.TIF = OddAfterHours, true, FOK }), ErrTIF},
		{"IOC in 盤後定價", with(func(t *Ticket) { t.Session, t.TIF = FixedPrice, IOC }), ErrTIF},
		{"margin odd lot", with(func(t *Ticket) { t.Session, t.OddLot, t.Condition = OddIntraday, true, Margin }), ErrCashOnly},
		{"day trade odd lot", with(func(t *Ticket) { t.Session, t.OddLot, t.Condition = OddIntraday, true, DayTrade }), ErrCashOnly},
		{"day trade fixed price", with(func(t *Ticket) { t.Session, t.Condition = FixedPrice, DayTrade }), ErrDayTradeRules},
		{"day trade young listing", with(func(t *Ticket) { t.Condition, t.Listed = DayTrade, young }), ErrNotEligible},
		{"margin young listing", with(func(t *Ticket) { t.Condition, t.Listed = Margin, young }), ErrNotEligible},
		{"short young listing", with(func(t *Ticket) { t.Condition, t.Listed = Short, young }), ErrNotEligible},
		{"cash young listing", with(func(t *Ticket) { t.Listed = young }), nil},
		{"day trade disposed", with(func(t *Ticket) { t.Condition, t.Disposed = DayTrade, true }), ErrDisposed},
		{"day trade disposed at market", with(func(t *Ticket) { t.Condition, t.Disposed, t.Market = DayTrade, true, true }), ErrDisposed},
		{"cash on a disposed stock", with(func(t *Ticket) { t.Disposed = true }), nil},
		{"margin on a disposed stock", with(func(t *Ticket) { t.Condition, t.Disposed = Margin, true }), nil},
		{"listed exactly six months", with(func(t *Ticket) { t.Condition, t.Listed = Margin, day.AddDate(0, -6, 0) }), nil},
	} {
		if got := Check(c.t); !errors.Is(got, c.want) || (got == nil) != (c.want == nil) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

// A day trade opens either way (先買後賣, 先賣後買); the other conditions one way only.
func TestOpensBySelling(t *testing.T) {
	for _, c := range []struct {
		condition string
		sell      bool
		want      bool
	}{
		{Cash, false, true}, {Cash, true, false},
		{Margin, false, true}, {Margin, true, false},
		{Short, true, true}, {Short, false, false},
		{DayTrade, false, true}, {DayTrade, true, true},
	} {
		if got := OpensBySelling(c.condition, c.sell); got != c.want {
			t.Errorf("%s sell=%v: got %v, want %v", c.condition, c.sell, got, c.want)
		}
	}
}

func TestLeverage(t *testing.T) {
	for cond, want := range map[string]string{Cash: "1", DayTrade: "1", Margin: "2.5", Short: "1.11"} {
		if got := Leverage(cond); !got.Equal(d(want)) {
			t.Errorf("%s: %s, want %s", cond, got, want)
		}
	}
}

func TestAuctionPrice(t *testing.T) {
	buy := func(p string, n int64, seq int64) Order { return Order{Buy: true, Limit: d(p), Shares: n, Seq: seq} }
	sell := func(p string, n int64, seq int64) Order { return Order{Limit: d(p), Shares: n, Seq: seq} }
	for _, c := range []struct {
		name   string
		orders []Order
		ref    string
		price  string
		volume int64
	}{
		{"no orders", nil, "100", "0", 0},
		{"no cross", []Order{buy("99", 10, 1), sell("100", 10, 2)}, "100", "0", 0},
		{"one buy against the asks", []Order{buy("101", 300, 5), sell("100", 200, 1), sell("100.5", 500, 2)}, "100", "100.5", 300},
		{"max volume wins", []Order{buy("102", 100, 1), buy("101", 200, 2), sell("100", 150, 3), sell("101", 200, 4)}, "100", "101", 300},
		// Every price from 100 to 101 trades 100: the one nearest the reference 100.4.
		{"tie to the reference", []Order{buy("101", 100, 1), sell("100", 100, 2)}, "100.4", "100", 100},
		{"tie to the reference above", []Order{buy("101", 100, 1), sell("100", 100, 2)}, "100.6", "101", 100},
		{"exact tie takes the higher", []Order{buy("101", 100, 1), sell("100", 100, 2)}, "100.5", "101", 100},
	} {
		p, v := AuctionPrice(c.orders, d(c.ref))
		if !p.Equal(d(c.price)) || v != c.volume {
			t.Errorf("%s: %s × %d, want %s × %d", c.name, p, v, c.price, c.volume)
		}
	}
}

func TestAllocate(t *testing.T) {
	orders := []Order{
		{Buy: true, Limit: d("101"), Shares: 100, Seq: 3},
		{Buy: true, Limit: d("102"), Shares: 150, Seq: 4}, // better price first
		{Buy: true, Limit: d("101"), Shares: 100, Seq: 1}, // earlier at the same price
		{Buy: true, Limit: d("100"), Shares: 500, Seq: 0}, // below the price: nothing
		{Limit: d("100"), Shares: 300, Seq: 2},
		{Limit: d("101"), Shares: 100, Seq: 5},
	}
	got := Allocate(orders, d("101"), 300)
	want := []int64{50, 150, 100, 0, 300, 0}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("allocation %v, want %v", got, want)
		}
	}
}
