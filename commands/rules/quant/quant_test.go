package quant

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/fees"
)

func ds(vs ...float64) []decimal.Decimal {
	out := make([]decimal.Decimal, len(vs))
	for i, v := range vs {
		out[i] = decimal.NewFromFloat(v)
	}
	return out
}

func rep(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func TestMomentum(t *testing.T) {
	rule := Momentum(2, 4)
	cases := []struct {
		name   string
		closes []decimal.Decimal
		h      Holding
		want   Action
	}{
		{"too few closes", ds(1, 2, 3), Holding{}, Hold},
		{"short above long enters", ds(10, 10, 11, 12), Holding{}, Enter},
		{"short above long while holding holds", ds(10, 10, 11, 12), Holding{In: true}, Hold},
		{"short below long exits", ds(12, 12, 11, 10), Holding{In: true}, Exit},
		{"short equal to long exits", ds(10, 10, 10, 10), Holding{In: true}, Exit},
		{"short below long without holding holds", ds(12, 12, 11, 10), Holding{}, Hold},
	}
	for _, c := range cases {
		if got := rule(c.closes, c.h); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestMeanReversion(t *testing.T) {
	rule := MeanReversion(3, decimal.NewFromInt(3), decimal.NewFromInt(2), 10)
	entry := decimal.NewFromInt(100)
	cases := []struct {
		name   string
		closes []decimal.Decimal
		h      Holding
		want   Action
	}{
		{"too few closes", ds(100, 99, 90), Holding{}, Hold},
		{"drop beyond 3 % enters", ds(100, 99, 98, 96.9), Holding{}, Enter},
		{"drop of exactly 3 % holds", ds(100, 99, 98, 97), Holding{}, Hold},
		{"rise holds", ds(100, 101, 102, 103), Holding{}, Hold},
		{"recovered 2 % exits", ds(96, 97, 102), Holding{In: true, EntryClose: entry, DaysHeld: 2}, Exit},
		{"not recovered holds", ds(96, 97, 101.9), Holding{In: true, EntryClose: entry, DaysHeld: 2}, Hold},
		{"ten days held exits", ds(96, 97, 98), Holding{In: true, EntryClose: entry, DaysHeld: 10}, Exit},
	}
	for _, c := range cases {
		if got := rule(c.closes, c.h); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestSize(t *testing.T) {
	d := decimal.RequireFromString
	cases := []struct {
		name          string
		budget, price string
		odd           bool
		lots, shares  int64
		cost          string
	}{
		{"two lots and change", "150000", "70", true, 2, 0, "140199"},
		{"one lot exactly with fee", "70099", "70", true, 1, 0, "70099"},
		{"one lot short of the fee buys odd lots", "70098", "70", true, 0, 999, "70029"},
		{"odd lots not allowed", "50000", "70", false, 0, 0, "0"},
		{"odd lots", "50000", "70", true, 0, 713, "49981"},
		{"nothing fits", "50", "70", true, 0, 0, "0"},
		{"no budget", "0", "70", true, 0, 0, "0"},
	}
	for _, c := range cases {
		o := Size(d(c.budget), d(c.price), c.odd)
		if o.Lots != c.lots || o.Shares != c.shares || !o.Cost.Equal(d(c.cost)) {
			t.Errorf("%s: %+v, want %d lots %d shares cost %s", c.name, o, c.lots, c.shares, c.cost)
		}
	}
}

// Size never spends more than the budget, at any budget and price.
func TestSizeNeverOverspends(t *testing.T) {
	for b := int64(0); b < 400000; b += 997 {
		for _, p := range []string{"9.99", "26.5", "38.71", "71.35", "225.5", "1825"} {
			budget, price := decimal.NewFromInt(b), decimal.RequireFromString(p)
			o := Size(budget, price, true)
			if o.Cost.GreaterThan(budget) {
				t.Fatalf("budget %s price %s: cost %s", budget, price, o.Cost)
			}
			v := price.Mul(decimal.NewFromInt(o.TotalShares()))
			if !o.Cost.Equal(v.Add(fees.Commission(v, o.Shares > 0))) && o.TotalShares() > 0 {
				t.Fatalf("budget %s price %s: cost %s of %+v", budget, price, o.Cost, o)
			}
		}
	}
}

func bars(closes ...float64) []Bar {
	out := make([]Bar, len(closes))
	for i, c := range closes {
		v := decimal.NewFromFloat(c)
		out[i] = Bar{Day: "d" + string(rune('a'+i)), Open: v, Close: v}
	}
	return out
}

func TestBacktest(t *testing.T) {
	p := Product{ID: "t", Symbols: []string{"X"}, Rule: Momentum(2, 4)}
	// Rises from day 4 on: the rule enters on day 4 (closes of days 0..3 have the short average
	// above the long), then the fall makes it exit.
	closes := append(rep(10, 3), 11, 12, 13, 14, 12, 10, 9, 9)
	r := Backtest(p, map[string][]Bar{"X": bars(closes...)}, fees.ETF, decimal.NewFromInt(100000))
	if r.Trades != 1 || len(r.Curve) != len(closes) || !r.Start.Equal(decimal.NewFromInt(100000)) {
		t.Fatalf("result %+v", r)
	}
	// Entry at 12 on day 4: 8 lots (96,000 + 136 commission); exit decided on day 8 (closes ..14, 12:
	// short 13 < long 12.75? no: 13 > 12.75 holds), day 9 (12, 10: 11 < 12.25) sells at 9.
	if r.Wins != 0 || !r.WinRate.IsZero() || !r.Return.IsNegative() || !r.MaxDrawdown.IsPositive() {
		t.Fatalf("result %+v", r)
	}
	last := r.Curve[len(r.Curve)-1]
	if !last.Equity.Equal(r.End) {
		t.Fatalf("curve end %+v, end %s", last, r.End)
	}
	// 8 lots bought at 12 (96,000 + 136), sold at 9 (72,000 − 102 commission − 72 tax).
	if want := decimal.NewFromInt(100000 - 96136 + 72000 - 102 - 72); !r.End.Equal(want) {
		t.Fatalf("end %s, want %s", r.End, want)
	}

	flat := Backtest(p, map[string][]Bar{"X": bars(rep(10, 30)...)}, fees.ETF, decimal.NewFromInt(100000))
	if flat.Trades != 0 || !flat.Return.IsZero() || !flat.MaxDrawdown.IsZero() {
		t.Fatalf("flat %+v", flat)
	}
}

func TestProductsArePublished(t *testing.T) {
	if len(Products) < 2 {
		t.Fatal("fewer than two products")
	}
	for _, p := range Products {
		if p.NameTW == "" || p.NameEN == "" || p.RuleTW == "" || p.RuleEN == "" || p.DescTW == "" || p.DescEN == "" ||
			len(p.Symbols) == 0 || !p.MinAmount.IsPositive() || p.Rule == nil {
			t.Errorf("product %+v", p)
		}
		if q, ok := ByID(p.ID); !ok || q.ID != p.ID {
			t.Errorf("ByID(%s)", p.ID)
		}
	}
}
