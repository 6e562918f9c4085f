package fx

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func TestPairs(t *testing.T) {
	for _, c := range []struct {
		from, to string
		ok       bool
	}{
		{"TWD", "USD", true}, {"USD", "TWD", true}, {"JPY", "KRW", true},
		{"USD", "INR", true}, {"INR", "USD", true},
		{"TWD", "INR", false}, {"INR", "JPY", false},
		{"TWD", "TWD", false}, {"TWD", "EUR", false}, {"", "USD", false},
	} {
		if got := PairAllowed(c.from, c.to); got != c.ok {
			t.Errorf("PairAllowed(%s, %s) = %v", c.from, c.to, got)
		}
	}
}

func TestSimulatedRates(t *testing.T) {
	at := time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC)
	var s Simulated
	r, err := s.Rate("USD", "TWD", at)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := decimal.RequireFromString("31.93"), decimal.RequireFromString("32.07")
	if r.LessThan(lo) || r.GreaterThan(hi) {
		t.Fatalf("USD/TWD %s outside ±0.2%% of 32", r)
	}
	again, _ := s.Rate("USD", "TWD", at.Add(30*time.Second).Truncate(time.Minute))
	if !again.Equal(r) {
		t.Fatal("a moment's rate must repeat")
	}
	moved := false
	for m := 1; m <= 30; m++ {
		if x, _ := s.Rate("USD", "TWD", at.Add(time.Duration(m)*time.Minute)); !x.Equal(r) {
			moved = true
		}
	}
	if !moved {
		t.Fatal("the rate never drifts")
	}
	// Cross rates are consistent through USD within rounding.
	twdUSD, _ := s.Rate("TWD", "USD", at)
	if p := twdUSD.Mul(r); p.Sub(decimal.NewFromInt(1)).Abs().GreaterThan(decimal.RequireFromString("0.000001")) {
		t.Fatalf("TWD/USD x USD/TWD = %s", p)
	}
	vnd, _ := s.Rate("VND", "USD", at)
	if !vnd.IsPositive() {
		t.Fatalf("VND/USD %s", vnd)
	}
	if _, err := s.Rate("TWD", "EUR", at); err == nil {
		t.Fatal("EUR has a rate")
	}
}

// fixed is a feed of constant rates per USD.
type fixed map[string]string

func (f fixed) Rate(from, to string, _ time.Time) (decimal.Decimal, error) {
	a, b := f[from], f[to]
	if a == "" || b == "" {
		return decimal.Decimal{}, ErrNoRate
	}
	return decimal.RequireFromString(b).DivRound(decimal.RequireFromString(a), RateScale), nil
}

func TestValue(t *testing.T) {
	rates := fixed{"USD": "1", "TWD": "32", "JPY": "160"}
	d := decimal.RequireFromString
	for _, c := range []struct {
		name    string
		amounts map[string]decimal.Decimal
		want    string
		err     bool
	}{
		{"nothing", nil, "0", false},
		{"the target currency as it is", map[string]decimal.Decimal{"TWD": d("100.50")}, "100.5", false},
		{"every currency counts", map[string]decimal.Decimal{"TWD": d("1000"), "USD": d("10"), "JPY": d("500")}, "1420", false},
		{"a currency with no rate but none held", map[string]decimal.Decimal{"TWD": d("5"), "EUR": d("0")}, "5", false},
		{"a currency with no rate held", map[string]decimal.Decimal{"EUR": d("1")}, "", true},
	} {
		got, err := Value(rates, c.amounts, "TWD", time.Time{})
		if (err != nil) != c.err || (!c.err && !got.Equal(d(c.want))) {
			t.Errorf("%s: Value = %s, %v; want %s", c.name, got, err, c.want)
		}
	}
}
