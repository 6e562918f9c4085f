package lending

import (
	"testing"

	"github.com/shopspring/decimal"
)

func TestDailyFee(t *testing.T) {
	d := decimal.RequireFromString
	for _, c := range []struct {
		name   string
		close  string
		shares int64
		rate   string
		want   string
	}{
		{"one lot of a NT$1000 stock at 3.5 %", "1000", 1000, "0.035", "95"}, // 95.89 down
		{"exact day", "365", 1000, "0.01", "10"},
		{"rounded down below a dollar", "10", 100, "0.01", "0"},
		{"odd lot", "585", 250, "0.16", "64"}, // 64.109...
		{"ceiling rate", "100", 10000, "0.16", "438"},
		{"fractional close", "45.55", 3000, "0.025", "9"}, // 9.359...
		{"zero shares", "100", 0, "0.02", "0"},
		{"negative shares", "100", -5, "0.02", "0"},
		{"zero close", "0", 1000, "0.02", "0"},
		{"zero rate", "100", 1000, "0", "0"},
	} {
		if got := DailyFee(d(c.close), c.shares, d(c.rate)); !got.Equal(d(c.want)) {
			t.Errorf("%s: DailyFee(%s, %d, %s) = %s, want %s", c.name, c.close, c.shares, c.rate, got, c.want)
		}
	}
}

func TestValidRate(t *testing.T) {
	for _, c := range []struct {
		rate string
		ok   bool
	}{
		{"0.16", true}, {"0.1601", false}, {"0.0001", true}, {"0.00005", false}, {"0", false}, {"-0.01", false},
		{"0.035", true}, {"1", false},
	} {
		if got := ValidRate(decimal.RequireFromString(c.rate)); got != c.ok {
			t.Errorf("ValidRate(%s) = %v, want %v", c.rate, got, c.ok)
		}
	}
}

func TestRateFor(t *testing.T) {
	d := decimal.RequireFromString
	if got := RateFor(decimal.Zero, d("0.02")); !got.Equal(d("0.02")) {
		t.Errorf("default: %s", got)
	}
	if got := RateFor(d("0.05"), d("0.02")); !got.Equal(d("0.05")) {
		t.Errorf("symbol: %s", got)
	}
}
