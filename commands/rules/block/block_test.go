package block

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
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

// fixedHolidays is a calendar of listed Taipei days.
type fixedHolidays map[string]bool

func (h fixedHolidays) IsHoliday(day time.Time) bool { return h[day.Format(time.DateOnly)] }

func TestInHours(t *testing.T) {
	taipei := time.FixedZone("Asia/Taipei", 8*3600)
	at := func(s string) time.Time {
		v, err := time.ParseInLocation("2006-01-02 15:04", s, taipei)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cal := fixedHolidays{"2026-04-03": true} // a Friday holiday
	for _, c := range []struct {
		at   string
		want bool
	}{
		{"2026-03-02 08:59", false}, // Monday before the session
		{"2026-03-02 09:00", true},
		{"2026-03-02 13:30", true},
		{"2026-03-02 16:59", true},
		{"2026-03-02 17:00", false}, // the session ends at 17:00
		{"2026-03-07 10:00", false}, // Saturday
		{"2026-03-08 10:00", false}, // Sunday
		{"2026-04-03 10:00", false}, // exchange holiday
		{"2026-04-02 10:00", true},
	} {
		if got := InHours(Hours, at(c.at), cal); got != c.want {
			t.Errorf("InHours(%s) = %v, want %v", c.at, got, c.want)
		}
	}
	if !InHours(events.TimeWindow{AlwaysOpen: true}, at("2026-03-07 23:00"), cal) {
		t.Error("an always-open window is open on Saturday night")
	}
}

func TestCheckSize(t *testing.T) {
	for _, c := range []struct {
		lots  int64
		price string
		want  string
	}{
		{500, "1", ""},               // 500 units make a block whatever the price
		{499, "30", SizeTooSmall},    // 499 × 1000 × 30 = 14,970,000
		{499, "30.07", ""},           // 15,004,930: the value makes it
		{499, "30.06", SizeTooSmall}, // 14,999,940
		{15, "1000", ""},             // 15,000,000 exactly
		{15, "999.99", SizeTooSmall},
		{1, "10", SizeTooSmall},
	} {
		if got := CheckSize(c.lots, d(c.price)); got != c.want {
			t.Errorf("CheckSize(%d, %s) = %q, want %q", c.lots, c.price, got, c.want)
		}
	}
}

func TestTake(t *testing.T) {
	for _, c := range []struct {
		total, taken, lots, remaining int64
		refusal                       string
	}{
		{500, 0, 10, 490, ""},
		{500, 490, 10, 0, ""},
		{500, 491, 10, 9, OverTotal},
		{500, 500, 1, 0, OverTotal},
		{0, 900, 10, 0, ""}, // a block without a total
	} {
		rem, r := Take(c.total, c.taken, c.lots)
		if rem != c.remaining || r != c.refusal {
			t.Errorf("Take(%d, %d, %d) = %d, %q; want %d, %q", c.total, c.taken, c.lots, rem, r, c.remaining, c.refusal)
		}
	}
}

func TestLocked(t *testing.T) {
	for n, want := range map[int]bool{0: false, 4: false, 5: true, 6: true} {
		if Locked(n) != want {
			t.Errorf("Locked(%d) = %v", n, !want)
		}
	}
}
