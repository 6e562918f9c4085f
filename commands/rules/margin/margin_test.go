package margin

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestCheckLeverage(t *testing.T) {
	cases := []struct {
		lev        string
		short, odd bool
		want       error
	}{
		{"1", false, false, nil},
		{"2.5", false, false, nil},
		{"1.75", false, false, nil},
		{"2.51", false, false, ErrLeverage},
		{"3", false, false, ErrLeverage},
		{"0.5", false, false, ErrLeverage},
		{"1.255", false, false, ErrLeverage},
		{"1", true, false, nil},
		{"1.11", true, false, nil},
		{"1.12", true, false, ErrLeverage},
		{"2", true, false, ErrLeverage},
		{"1", false, true, nil},
		{"2", false, true, ErrOddLotCashOnly},
		{"1", true, true, ErrOddLotCashOnly},
	}
	for _, c := range cases {
		if got := CheckLeverage(d(c.lev), c.short, c.odd); !errors.Is(got, c.want) {
			t.Errorf("CheckLeverage(%s, short=%v, odd=%v) = %v, want %v", c.lev, c.short, c.odd, got, c.want)
		}
	}
}

// Hand-computed: value × (1 − 1/leverage), at most 60 %, whole thousands down.
func TestLoan(t *testing.T) {
	cases := []struct{ value, lev, want string }{
		{"1000000", "2.5", "600000"},
		{"1000000", "2", "500000"},
		{"588000", "2.5", "352000"},  // 352,800 -> 352,000
		{"1450500", "1.5", "483000"}, // 483,499.99... -> 483,000
		{"999", "2", "0"},            // 499.5: under NT$1,000, dropped
		{"1000000", "1", "0"},        // cash
		{"1000000", "4", "600000"},   // capped at 60 %
		{"0", "2", "0"},
	}
	for _, c := range cases {
		if got := Loan(d(c.value), d(c.lev)); !got.Equal(d(c.want)) {
			t.Errorf("Loan(%s, %s) = %s, want %s", c.value, c.lev, got, c.want)
		}
	}
}

// Hand-computed: value / leverage, at least 90 %, whole NT$ up.
func TestShortMargin(t *testing.T) {
	cases := []struct{ value, lev, want string }{
		{"1000000", "1", "1000000"},
		{"1000000", "1.11", "900901"}, // 900,900.90... up
		{"150350", "1.11", "135451"},  // 135,450.45... up
		{"1000000", "1.5", "900000"},  // 666,667 is below the 90 % floor
		{"0", "1", "0"},
	}
	for _, c := range cases {
		if got := ShortMargin(d(c.value), d(c.lev)); !got.Equal(d(c.want)) {
			t.Errorf("ShortMargin(%s, %s) = %s, want %s", c.value, c.lev, got, c.want)
		}
	}
}

// market-rules.md 1f: (long collateral + short collateral and margin) ÷ (loans + value of shorts).
func TestRatio(t *testing.T) {
	cases := []struct {
		name              string
		a                 Account
		want              string
		ok, call, forceIt bool
	}{
		{"financed long at cost", Account{LongValue: d("1000000"), Loans: d("600000")}, "1.6666", true, false, false},
		{"exactly 130 %", Account{LongValue: d("780000"), Loans: d("600000")}, "1.3", true, false, false},
		{"a dollar below 130 % is a call (1.2999983 truncated)", Account{LongValue: d("779999"), Loans: d("600000")}, "1.2999", true, true, false},
		{"below 120 % closes at once", Account{LongValue: d("719000"), Loans: d("600000")}, "1.1983", true, true, true},
		{"short at sale", Account{ShortCollateral: d("1895575"), ShortValue: d("1000000")}, "1.8955", true, false, false},
		{"short after a 46 % rise", Account{ShortCollateral: d("1895575"), ShortValue: d("1460000")}, "1.2983", true, true, false},
		{"long and short together", Account{LongValue: d("1000000"), Loans: d("600000"), ShortCollateral: d("1895575"), ShortValue: d("1000000")},
			"1.8097", true, false, false},
		{"nothing owed", Account{LongValue: d("5000")}, "0", false, false, false},
	}
	for _, c := range cases {
		got, ok := Ratio(c.a)
		if ok != c.ok || !got.Equal(d(c.want)) {
			t.Errorf("%s: Ratio = %s, %v; want %s, %v", c.name, got, ok, c.want, c.ok)
			continue
		}
		if ok && (Call(got) != c.call || ForceNow(got) != c.forceIt) {
			t.Errorf("%s: ratio %s call=%v force=%v, want %v %v", c.name, got, Call(got), ForceNow(got), c.call, c.forceIt)
		}
	}
}
