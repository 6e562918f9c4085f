package block

import (
	"testing"

	"github.com/shopspring/decimal"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestPriceFromPremium(t *testing.T) {
	for _, c := range []struct{ ref, rate, want string }{
		{"1000", "0", "1000"},
		{"1000", "-0.02", "980"},
		{"186.5", "0.015", "189.29"},  // 189.2975 rounds down
		{"12.34", "-0.0333", "11.92"}, // 11.929078 rounds down
		{"50", "0.1", "55"},
	} {
		if got := PriceFromPremium(d(c.ref), d(c.rate)); !got.Equal(d(c.want)) {
			t.Errorf("PriceFromPremium(%s, %s) = %s, want %s", c.ref, c.rate, got, c.want)
		}
	}
}

func TestCheckPremium(t *testing.T) {
	for _, c := range []struct {
		rate, want string
	}{
		{"0", ""}, {"0.1", ""}, {"-0.1", ""}, {"0.0125", ""},
		{"0.1001", PremiumInvalid}, {"-0.11", PremiumInvalid}, {"0.00125", PremiumInvalid},
	} {
		if got := CheckPremium(d(c.rate)); got != c.want {
			t.Errorf("CheckPremium(%s) = %q, want %q", c.rate, got, c.want)
		}
	}
}

func TestCheckPrice(t *testing.T) {
	for _, c := range []struct {
		p, want string
	}{
		{"100", ""}, {"90", ""}, {"110", ""}, {"99.99", ""},
		{"89.99", PriceOutOfBand}, {"110.01", PriceOutOfBand},
		{"0", PriceInvalid}, {"-1", PriceInvalid}, {"100.005", PriceInvalid},
	} {
		if got := CheckPrice(d(c.p), d("90"), d("110")); got != c.want {
			t.Errorf("CheckPrice(%s) = %q, want %q", c.p, got, c.want)
		}
	}
}

func TestCheck(t *testing.T) {
	base := Application{Lots: 10, MinLots: 10, DailyCapLots: 50, Bid: d("980"), Price: d("980")}
	for _, c := range []struct {
		name string
		edit func(a *Application)
		want string
	}{
		{"at the minimum, bid at the price", func(*Application) {}, ""},
		{"one lot short of the minimum", func(a *Application) { a.Lots = 9 }, BelowMinimum},
		{"exactly the daily cap with earlier lots", func(a *Application) { a.AppliedToday = 40 }, ""},
		{"one lot over the daily cap", func(a *Application) { a.AppliedToday = 41 }, OverDailyCap},
		{"one application over the cap", func(a *Application) { a.Lots = 51 }, OverDailyCap},
		{"bid a tick below the price", func(a *Application) { a.Bid = d("979.99") }, BidBelowMinimum},
		{"bid above the price", func(a *Application) { a.Bid = d("990") }, ""},
	} {
		a := base
		c.edit(&a)
		if got := Check(a); got != c.want {
			t.Errorf("%s: Check = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestFreeze(t *testing.T) {
	for _, c := range []struct {
		bid    string
		shares int64
		want   string
	}{
		{"980", 10000, "9813965"}, // 9,800,000 + 13,965 (0.1425 %)
		{"10", 1000, "10020"},     // the NT$20 minimum commission
	} {
		if got := Freeze(d(c.bid), c.shares); !got.Equal(d(c.want)) {
			t.Errorf("Freeze(%s, %d) = %s, want %s", c.bid, c.shares, got, c.want)
		}
	}
}
