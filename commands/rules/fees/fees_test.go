package fees

import (
	"testing"

	"github.com/shopspring/decimal"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// Hand-computed: amount × 0.1425 %, rounded down to whole NT$, at least NT$20 (board lot) or NT$1
// (odd lot).
func TestCommission(t *testing.T) {
	cases := []struct {
		name   string
		amount string
		odd    bool
		want   string
	}{
		{"1 lot of 2330 at 1000", "1000000", false, "1425"},
		{"1 lot at 10.00 pays the minimum", "10000", false, "20"},
		{"just below the minimum (19.999875)", "14035", false, "20"},
		{"just above the minimum (20.0013)", "14036", false, "20"},
		{"21.000225 rounds down", "14737", false, "21"},
		{"ETF 0050 1 lot at 150.35 (214.24875)", "150350", false, "214"},
		{"cents in the amount (2 lots at 12.35 = 24700, 35.1975)", "24700", false, "35"},
		{"odd lot 5 shares at 100 pays NT$1", "500", true, "1"},
		{"odd lot 100 shares at 588 (83.79)", "58800", true, "83"},
		{"odd lot 1 share at 5.01 (0.00713925)", "5.01", true, "1"},
		{"nothing traded", "0", false, "0"},
	}
	for _, c := range cases {
		if got := Commission(d(c.amount), c.odd); !got.Equal(d(c.want)) {
			t.Errorf("%s: Commission(%s, odd=%v) = %s, want %s", c.name, c.amount, c.odd, got, c.want)
		}
	}
}

// Hand-computed: 0.3 % stocks, 0.1 % ETFs, 0.15 % stock day trades, 0 bond ETFs, rounded down.
func TestTax(t *testing.T) {
	cases := []struct {
		name     string
		amount   string
		kind     Kind
		dayTrade bool
		want     string
	}{
		{"1 lot of 2330 at 1000", "1000000", Stock, false, "3000"},
		{"same as a day trade", "1000000", Stock, true, "1500"},
		{"ETF 0050 1 lot at 150.35 (150.35)", "150350", ETF, false, "150"},
		{"ETF day trade keeps the ETF rate", "150350", ETF, true, "150"},
		{"bond ETF exempt", "35000", BondETF, false, "0"},
		{"99.999 rounds down", "33333", Stock, false, "99"},
		{"day trade 46.665 rounds down", "31110", Stock, true, "46"},
		{"odd lot 5 shares at 100 (1.5)", "500", Stock, false, "1"},
		{"tiny sale pays nothing (0.3)", "100", Stock, false, "0"},
		{"nothing sold", "0", Stock, false, "0"},
	}
	for _, c := range cases {
		if got := Tax(d(c.amount), c.kind, c.dayTrade); !got.Equal(d(c.want)) {
			t.Errorf("%s: Tax(%s, %s, dayTrade=%v) = %s, want %s", c.name, c.amount, c.kind, c.dayTrade, got, c.want)
		}
	}
}

// An order filled in parts pays, in all, exactly the fee of its whole amount: the minimum once.
func TestDeltaAddsUpToTheWholeOrder(t *testing.T) {
	commission := func(a decimal.Decimal) decimal.Decimal { return Commission(a, false) }
	parts := []string{"10000", "10000", "3333.33", "48211.50"}
	before, paid := decimal.Zero, decimal.Zero
	for _, p := range parts {
		paid = paid.Add(Delta(commission, before, d(p)))
		before = before.Add(d(p))
	}
	if want := Commission(before, false); !paid.Equal(want) {
		t.Fatalf("parts paid %s, the whole order %s", paid, want)
	}
	// By hand, cumulative: 10000 -> 20 (minimum); 20000 -> 28.5 -> 28; 23333.33 -> 33.25 -> 33;
	// 71544.83 -> 101.95 -> 101.
	steps := []struct{ before, part, want string }{
		{"0", "10000", "20"},
		{"10000", "10000", "8"},
		{"20000", "3333.33", "5"},
		{"23333.33", "48211.50", "68"},
	}
	for _, s := range steps {
		if got := Delta(commission, d(s.before), d(s.part)); !got.Equal(d(s.want)) {
			t.Errorf("Delta(before %s, part %s) = %s, want %s", s.before, s.part, got, s.want)
		}
	}
	tax := func(a decimal.Decimal) decimal.Decimal { return Tax(a, Stock, false) }
	if got := Delta(tax, d("333"), d("333")); !got.Equal(d("1")) { // 0.999 -> 0, 1.998 -> 1
		t.Errorf("tax delta = %s, want 1", got)
	}
}
