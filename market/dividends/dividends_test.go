package dividends

import (
	"reflect"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/market/calendar"
)

func TestScheduleIsDeterministicAndPlausible(t *testing.T) {
	cal := calendar.Taiwan()
	s := Schedule{Seed: 1, Calendar: cal}
	var ins []Instrument
	for i := range 400 {
		ins = append(ins, Instrument{Symbol: decimal.NewFromInt(int64(1100 + i)).String(), RefPrice: decimal.NewFromInt(int64(20 + i%300)), Large: i%37 == 0})
	}
	ins = append(ins, Instrument{Symbol: "0050", ETF: true, RefPrice: decimal.NewFromInt(180)},
		Instrument{Symbol: "00631L", ETF: true, RefPrice: decimal.NewFromInt(200)})
	from := time.Date(2021, 1, 1, 0, 0, 0, 0, cal.Location())
	to := time.Date(2028, 1, 1, 0, 0, 0, 0, cal.Location())
	payers, stock, total := 0, 0, 0
	freqs := map[string]int{}
	for _, in := range ins {
		a, b := s.Between(in, from, to), Schedule{Seed: 1, Calendar: cal}.Between(in, from, to)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: two schedules of one seed differ", in.Symbol)
		}
		if in.Symbol == "00631L" && len(a) > 0 {
			t.Fatalf("a leveraged ETF pays %v", a)
		}
		if len(a) > 0 {
			payers++
			freqs[a[0].Frequency]++
		}
		yearCash := map[int]decimal.Decimal{}
		ids := map[string]bool{}
		for i, d := range a {
			total++
			if ids[d.ID] {
				t.Fatalf("%s: id %s twice", in.Symbol, d.ID)
			}
			ids[d.ID] = true
			if i > 0 && !a[i-1].ExDate.Before(d.ExDate) {
				t.Fatalf("%s: ex-dates out of order: %v then %v", in.Symbol, a[i-1].ExDate, d.ExDate)
			}
			if !cal.IsTradingDay(d.ExDate) || !cal.IsTradingDay(d.RecordDate) || !cal.IsTradingDay(d.PayDate) {
				t.Fatalf("%s: a date is not a trading day: %+v", d.ID, d)
			}
			if !d.Announced.Before(d.ExDate) || !d.ExDate.Before(d.RecordDate) || !d.RecordDate.Before(d.PayDate) {
				t.Fatalf("%s: dates out of order: %+v", d.ID, d)
			}
			if n := tradingDaysBetween(cal, d.ExDate, d.RecordDate); n != 5 {
				t.Fatalf("%s: record date %d trading days after the ex-date, want 5", d.ID, n)
			}
			if gap := d.PayDate.Sub(d.RecordDate); gap < 20*24*time.Hour || gap > 45*24*time.Hour {
				t.Fatalf("%s: paid %v after the record date", d.ID, gap)
			}
			if d.Cash.IsNegative() || d.Stock.IsNegative() || d.Cash.IsZero() && d.Stock.IsZero() {
				t.Fatalf("%s: cash %s stock %s", d.ID, d.Cash, d.Stock)
			}
			if d.HasStock() {
				stock++
			}
			yearCash[d.ExDate.Year()] = yearCash[d.ExDate.Year()].Add(d.Cash)
		}
		for y, c := range yearCash {
			if yield := c.Div(in.RefPrice).InexactFloat64(); yield > 0.105 {
				t.Fatalf("%s: yield %.3f in %d", in.Symbol, yield, y)
			}
		}
	}
	if payers < 300 || stock == 0 || freqs[Quarterly] == 0 || freqs[SemiAnnual] == 0 || freqs[Annual] == 0 {
		t.Fatalf("payers %d of %d, stock dividends %d, frequencies %v", payers, len(ins), stock, freqs)
	}
	other := Schedule{Seed: 2, Calendar: cal}.Between(ins[0], from, to)
	if reflect.DeepEqual(other, s.Between(ins[0], from, to)) && len(other) > 0 {
		t.Fatalf("seeds 1 and 2 give one schedule")
	}
	t.Logf("%d distributions, %d with stock, frequencies %v", total, stock, freqs)
}

func tradingDaysBetween(cal *calendar.Calendar, a, b time.Time) int {
	n := 0
	for d := a; d.Before(b); d = cal.NextTradingDay(d) {
		n++
	}
	return n
}

func TestReference(t *testing.T) {
	for _, tc := range []struct{ close, cash, stock, want string }{
		{"100", "3", "0", "97"},
		{"100", "0", "1", "90.91"},      // 100 / 1.1
		{"55.5", "1.5", "0.5", "51.43"}, // 54 / 1.05
	} {
		d := Dividend{Cash: decimal.RequireFromString(tc.cash), Stock: decimal.RequireFromString(tc.stock)}
		if got := d.Reference(decimal.RequireFromString(tc.close)); got.String() != tc.want {
			t.Errorf("Reference(%s, cash %s, stock %s) = %s, want %s", tc.close, tc.cash, tc.stock, got, tc.want)
		}
	}
	if got := (Dividend{Stock: decimal.RequireFromString("0.5")}).SharesPerLot(); got.String() != "50" {
		t.Errorf("SharesPerLot = %s", got)
	}
}
