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
