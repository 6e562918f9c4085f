package rules

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/market/price"
)

var p = price.MustParse

func TestTick(t *testing.T) {
	tests := []struct {
		at         string
		stock, etf string
	}{
		{"0.01", "0.01", "0.01"},
		{"9.99", "0.01", "0.01"},
		{"10", "0.05", "0.01"},
		{"49.99", "0.05", "0.01"},
		{"49.95", "0.05", "0.01"},
		{"50", "0.10", "0.05"},
		{"99.9", "0.10", "0.05"},
		{"99.99", "0.10", "0.05"},
		{"100", "0.50", "0.05"},
		{"499.5", "0.50", "0.05"},
		{"500", "1.00", "0.05"},
		{"999", "1.00", "0.05"},
		{"1000", "5.00", "0.05"},
		{"4500", "5.00", "0.05"},
	}
	for _, tc := range tests {
		if got := Tick(p(tc.at), Stock).String(); got != tc.stock {
			t.Errorf("stock tick at %s = %s, want %s", tc.at, got, tc.stock)
		}
		if got := Tick(p(tc.at), ETF).String(); got != tc.etf {
			t.Errorf("etf tick at %s = %s, want %s", tc.at, got, tc.etf)
		}
		if got := TickSize(decimal.RequireFromString(tc.at), Stock).StringFixed(2); got != tc.stock {
			t.Errorf("TickSize(%s) = %s, want %s", tc.at, got, tc.stock)
		}
	}
}

func TestValidAndRounding(t *testing.T) {
	tests := []struct {
		kind           Kind
		at             string
		valid          bool
		down, up, near string
		next, prev     string
	}{
		{Stock, "9.99", true, "9.99", "9.99", "9.99", "10.00", "9.98"},
		{Stock, "10.00", true, "10.00", "10.00", "10.00", "10.05", "9.99"},
		{Stock, "10.01", false, "10.00", "10.05", "10.00", "10.05", "10.00"},
		{Stock, "10.03", false, "10.00", "10.05", "10.05", "10.05", "10.00"},
		{Stock, "49.97", false, "49.95", "50.00", "49.95", "50.00", "49.95"},
		{Stock, "49.98", false, "49.95", "50.00", "50.00", "50.00", "49.95"},
		{Stock, "50.00", true, "50.00", "50.00", "50.00", "50.10", "49.95"},
		{Stock, "99.95", false, "99.90", "100.00", "100.00", "100.00", "99.90"},
		{Stock, "100.00", true, "100.00", "100.00", "100.00", "100.50", "99.90"},
		{Stock, "100.20", false, "100.00", "100.50", "100.00", "100.50", "100.00"},
		{Stock, "499.50", true, "499.50", "499.50", "499.50", "500.00", "499.00"},
		{Stock, "499.70", false, "499.50", "500.00", "499.50", "500.00", "499.50"},
		{Stock, "500.00", true, "500.00", "500.00", "500.00", "501.00", "499.50"},
		{Stock, "999.00", true, "999.00", "999.00", "999.00", "1000.00", "998.00"},
		{Stock, "999.50", false, "999.00", "1000.00", "1000.00", "1000.00", "999.00"},
		{Stock, "1000.00", true, "1000.00", "1000.00", "1000.00", "1005.00", "999.00"},
		{Stock, "1452.00", false, "1450.00", "1455.00", "1450.00", "1455.00", "1450.00"},
		{Stock, "0.01", true, "0.01", "0.01", "0.01", "0.02", "0.01"},
		{ETF, "10.01", true, "10.01", "10.01", "10.01", "10.02", "10.00"},
		{ETF, "49.99", true, "49.99", "49.99", "49.99", "50.00", "49.98"},
		{ETF, "50.00", true, "50.00", "50.00", "50.00", "50.05", "49.99"},
		{ETF, "50.02", false, "50.00", "50.05", "50.00", "50.05", "50.00"},
		{ETF, "150.10", true, "150.10", "150.10", "150.10", "150.15", "150.05"},
		{ETF, "150.12", false, "150.10", "150.15", "150.10", "150.15", "150.10"},
	}
	for _, tc := range tests {
		x := p(tc.at)
		if got := Valid(x, tc.kind); got != tc.valid {
			t.Errorf("%s Valid(%s) = %v", tc.kind, tc.at, got)
		}
		check := func(name string, got price.Price, want string) {
			if got.String() != want {
				t.Errorf("%s %s(%s) = %s, want %s", tc.kind, name, tc.at, got, want)
			}
			if !Valid(got, tc.kind) {
				t.Errorf("%s %s(%s) = %s is off the grid", tc.kind, name, tc.at, got)
			}
		}
		check("RoundDown", RoundDown(x, tc.kind), tc.down)
		check("RoundUp", RoundUp(x, tc.kind), tc.up)
		check("RoundNearest", RoundNearest(x, tc.kind), tc.near)
		check("Up", Up(x, tc.kind), tc.next)
		check("Down", Down(x, tc.kind), tc.prev)
	}
}

func TestLimits(t *testing.T) {
	tests := []struct {
		kind     Kind
		ref      string
		down, up string
	}{
		// Exact 10 % on the grid.
		{Stock, "100.00", "90.00", "110.00"},
		{Stock, "1000.00", "900.00", "1100.00"},
		{Stock, "1450.00", "1305.00", "1595.00"},
		// ±10 % falls between ticks: limit-up rounds down, limit-down rounds up.
		{Stock, "1455.00", "1310.00", "1600.00"}, // 1309.5 -> 1310, 1600.5 -> 1600
		{Stock, "147.50", "133.00", "162.00"},    // 132.75 -> 133.0, 162.25 -> 162.0
		{Stock, "9.99", "9.00", "10.95"},         // 8.991 -> 9.00, 10.989 -> 10.95 (tick 0.05 above 10)
		{Stock, "9.10", "8.19", "10.00"},         // 10.01 -> 10.00 across the 10 boundary
		{Stock, "46.00", "41.40", "50.60"},       // 50.6 in the 0.10 range
		{Stock, "46.05", "41.45", "50.60"},       // 41.445 -> 41.45, 50.655 -> 50.60
		{Stock, "92.00", "82.80", "101.00"},      // 101.2 -> 101.0 in the 0.50 range
		{Stock, "110.50", "99.50", "121.50"},     // 99.45 -> 99.50, 121.55 -> 121.50
		{Stock, "555.00", "499.50", "610.00"},    // 499.5 exactly, 610.5 -> 610
		{Stock, "555.50", "500.00", "611.00"},    // 499.95 -> 500 (crosses to tick 1), 611.05 -> 611
		{Stock, "910.00", "819.00", "1000.00"},   // 1001 -> 1000
		{Stock, "0.05", "0.05", "0.05"},          // 0.045 -> 0.05, 0.055 -> 0.05: cannot move
		{ETF, "45.67", "41.11", "50.20"},         // 41.103 -> 41.11, 50.237 -> 50.20
		{ETF, "55.55", "50.00", "61.10"},         // 49.995 -> 50.00, 61.105 -> 61.10
		{ETF, "150.05", "135.05", "165.05"},      // 135.045 -> 135.05, 165.055 -> 165.05
	}
	for _, tc := range tests {
		ref := p(tc.ref)
		lo, hi := LimitDown(ref, tc.kind), LimitUp(ref, tc.kind)
		if lo.String() != tc.down || hi.String() != tc.up {
			t.Errorf("%s limits of %s = %s..%s, want %s..%s", tc.kind, tc.ref, lo, hi, tc.down, tc.up)
		}
		if !Valid(lo, tc.kind) || !Valid(hi, tc.kind) {
			t.Errorf("%s limits of %s off grid: %s..%s", tc.kind, tc.ref, lo, hi)
		}
		// Inside the band: never beyond ±10 %.
		if hi.Float() > ref.Float()*1.1+1e-9 || lo.Float() < ref.Float()*0.9-1e-9 {
			t.Errorf("%s limits of %s leave the band: %s..%s", tc.kind, tc.ref, lo, hi)
		}
		if !InBand(lo, ref, tc.kind) || !InBand(hi, ref, tc.kind) || InBand(Up(hi, tc.kind), ref, tc.kind) && hi != Up(hi, tc.kind) {
			t.Errorf("%s InBand disagrees with limits of %s", tc.kind, tc.ref)
		}
		if Clamp(p("99999"), ref, tc.kind) != hi || Clamp(1, ref, tc.kind) != lo {
			t.Errorf("%s Clamp of %s", tc.kind, tc.ref)
		}
		d, u, err := Limits(decimal.RequireFromString(tc.ref), tc.kind)
		if err != nil || d.StringFixed(2) != tc.down || u.StringFixed(2) != tc.up {
			t.Errorf("Limits(%s) = %s %s %v", tc.ref, d, u, err)
		}
	}
}

// Every reference from 0.01 to 2,000.00 on the grid: the limits are valid, inside ±10 %, and the
// next tick beyond each limit is outside it.
func TestLimitsExhaustive(t *testing.T) {
	for _, k := range []Kind{Stock, ETF} {
		for ref := price.Price(1); ref <= 200000; ref = Up(ref, k) {
			lo, hi := LimitDown(ref, k), LimitUp(ref, k)
			if !Valid(lo, k) || !Valid(hi, k) {
				t.Fatalf("%s ref %s: limits %s..%s off grid", k, ref, lo, hi)
			}
			if hi*100 > ref*110 || lo*100 < ref*90 && lo != 1 {
				t.Fatalf("%s ref %s: limits %s..%s outside ±10%%", k, ref, lo, hi)
			}
			if n := Up(hi, k); n*100 <= ref*110 {
				t.Fatalf("%s ref %s: %s is inside the band above limit-up %s", k, ref, n, hi)
			}
			if n := Down(lo, k); n != lo && n*100 >= ref*90 {
				t.Fatalf("%s ref %s: %s is inside the band below limit-down %s", k, ref, n, lo)
			}
		}
	}
}

func TestCheckPrice(t *testing.T) {
	ref := decimal.RequireFromString("1450")
	tests := []struct {
		price string
		kind  Kind
		want  error
	}{
		{"1450", Stock, nil},
		{"1595", Stock, nil},
		{"1305", Stock, nil},
		{"1600", Stock, ErrAboveLimit},
		{"1300", Stock, ErrBelowLimit},
		{"1452", Stock, ErrOffTick},
		{"1450.001", Stock, ErrPrecision},
		{"0", Stock, ErrNotPositive},
		{"1450.05", ETF, nil},
		{"1450.02", ETF, ErrOffTick},
	}
	for _, tc := range tests {
		err := CheckPrice(decimal.RequireFromString(tc.price), ref, tc.kind)
		if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("CheckPrice(%s, %s) = %v, want %v", tc.price, tc.kind, err, tc.want)
		}
	}
}
