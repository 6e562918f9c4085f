package mentor

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestCompute(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC)
	open := func(pos string, at time.Duration, shares int64, basis string) Fill {
		return Fill{PositionID: pos, Open: true, Shares: shares, Cash: d(basis).Neg(), At: t0.Add(at)}
	}
	closeF := func(pos string, at time.Duration, shares int64, profit string) Fill {
		return Fill{PositionID: pos, Shares: shares, Profit: d(profit), At: t0.Add(at)}
	}
	cases := []struct {
		name           string
		fills          []Fill
		cash, copy     string
		now            time.Duration
		equity, profit string
		trips, wins    int
		winRate, daily string
		hold           time.Duration
		level          string
	}{
		{name: "no fills", cash: "500000", copy: "0", equity: "500000", profit: "0", winRate: "0", daily: "0", level: Junior},
		{name: "one open position counts at cost", fills: []Fill{open("A", 0, 1000, "100142")}, cash: "399858", copy: "30000",
			equity: "500000", profit: "0", winRate: "0", daily: "0", level: Junior},
		{name: "a win and a loss", fills: []Fill{
			open("A", 0, 1000, "100000"), closeF("A", 2*time.Hour, 1000, "5000"),
			open("B", time.Hour, 1000, "50000"), closeF("B", 5*time.Hour, 1000, "-1000"),
		}, cash: "204000", copy: "0", now: 6 * time.Hour, equity: "204000", profit: "4000", trips: 2, wins: 1, winRate: "0.5",
			daily: "0.0200", hold: 3 * time.Hour, level: Junior},
		{name: "partial close is no round trip yet", fills: []Fill{
			open("A", 0, 2000, "200000"), closeF("A", time.Hour, 1000, "3000"),
		}, cash: "103000", copy: "0", now: 48 * time.Hour, equity: "203000", profit: "3000", winRate: "0", daily: "0", level: Junior},
		// a short sale of a lot at 100: the mentor puts up 90,091 of margin (its cash), the
		// proceeds are the broker's collateral; the cover at 95 gives back margin and profit
		{name: "an open short counts at its margin", fills: []Fill{{PositionID: "S", Open: true, Shares: 1000, Cash: d("-90091"), At: t0}},
			cash: "409909", copy: "0", equity: "500000", profit: "0", winRate: "0", daily: "0", level: Junior},
		{name: "a short round trip counts as one", fills: []Fill{
			{PositionID: "S", Open: true, Shares: 1000, Cash: d("-90091"), At: t0},
			{PositionID: "S", Shares: 1000, Profit: d("4424"), Cash: d("94515"), At: t0.Add(time.Hour)},
		}, cash: "504424", copy: "0", now: 2 * time.Hour, equity: "504424", profit: "4424", trips: 1, wins: 1, winRate: "1",
			daily: "0.0088", hold: time.Hour, level: Junior},
		{name: "a short covered in two parts", fills: []Fill{
			{PositionID: "S", Open: true, Shares: 2000, Cash: d("-180000"), At: t0},
			{PositionID: "S", Shares: 1000, Profit: d("-500"), At: t0.Add(time.Hour)},
		}, cash: "409500", copy: "0", now: 48 * time.Hour, equity: "499500", profit: "-500", winRate: "0", daily: "0", level: Junior},
		{name: "a financed long holds the mentor's part of its cost", fills: []Fill{{PositionID: "M", Open: true, Shares: 1000, Cash: d("-40142"), At: t0}},
			cash: "459858", copy: "0", equity: "500000", profit: "0", winRate: "0", daily: "0", level: Junior},
		{name: "close without its open (before opt in) is no round trip", fills: []Fill{closeF("Z", 0, 1000, "900")},
			cash: "1000", copy: "0", equity: "1000", profit: "900", winRate: "0", daily: "9", level: Junior},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := Compute(c.fills, d(c.cash), d(c.copy), t0.Add(c.now))
			if !s.Equity.Equal(d(c.equity)) || !s.Profit.Equal(d(c.profit)) || s.RoundTrips != c.trips || s.Wins != c.wins ||
				!s.WinRate.Equal(d(c.winRate)) || !s.DailyReturn.Equal(d(c.daily)) || s.AvgHold != c.hold || s.Level != c.level ||
				!s.CopyAmount.Equal(d(c.copy)) {
				t.Errorf("got %+v", s)
			}
		})
	}
}

func TestLevelOf(t *testing.T) {
	cases := []struct {
		trips  int
		rate   string
		equity string
		want   string
	}{
		{0, "0", "0", Junior},
		{5, "0.5", "200000", Intermediate},
		{5, "0.49", "200000", Junior},
		{5, "0.5", "199999", Junior},
		{20, "0.6", "1000000", Senior},
		{19, "0.9", "5000000", Intermediate},
		{30, "0.59", "5000000", Intermediate},
	}
	for _, c := range cases {
		if got := LevelOf(Stats{RoundTrips: c.trips, WinRate: d(c.rate), Equity: d(c.equity)}); got != c.want {
			t.Errorf("%+v: got %s", c, got)
		}
	}
}

func TestScale(t *testing.T) {
	cases := []struct {
		name                                        string
		commitment, remaining, equity, value, price string
		odd                                         bool
		shares                                      int64
		oddLot                                      bool
		cost                                        string
	}{
		// 10 % of the mentor's equity into a 500,000 commitment: 50,000 at 20 -> 2 lots (40,057)
		{"whole lots", "500000", "500000", "1000000", "100000", "20", false, 2000, false, "40057"},
		{"capped by remaining", "500000", "30000", "1000000", "100000", "20", false, 1000, false, "20028"},
		{"below a lot, no odd lots", "100000", "100000", "1000000", "100000", "50", false, 0, false, "0"},
		{"below a lot, odd lots", "100000", "100000", "1000000", "100000", "50", true, 200, true, "10014"},
		{"odd lot capped by remaining", "100000", "5000", "1000000", "100000", "50", true, 99, true, "4957"},
		{"nothing left", "100000", "0", "1000000", "100000", "50", true, 0, false, "0"},
		{"no equity", "100000", "100000", "0", "100000", "50", true, 0, false, "0"},
		{"lot cost with fee over remaining drops a lot", "100000", "100000", "100000", "100000", "50", false, 1000, false, "50071"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := Scale(d(c.commitment), d(c.remaining), d(c.equity), d(c.value), d(c.price), c.odd)
			if o.Shares != c.shares || o.OddLot != c.oddLot || !o.Cost.Equal(d(c.cost)) {
				t.Errorf("got %+v", o)
			}
			if o.Cost.GreaterThan(d(c.remaining)) {
				t.Errorf("cost %s over remaining %s", o.Cost, c.remaining)
			}
		})
	}
}

func TestScaleShort(t *testing.T) {
	lev := d("1.11")
	cases := []struct {
		name                                                 string
		commitment, remaining, equity, value, price, limitUp string
		shares                                               int64
		cost                                                 string
	}{
		// 10 % of the mentor's equity into a 500,000 commitment: 50,000 at 20 -> 2 lots; the margin is
		// reserved at the limit-up 22: 44,000 / 1.11 = 39,639.64 -> 39,640
		{"whole lots at the limit-up's margin", "500000", "500000", "1000000", "100000", "20", "22", 2000, "39640"},
		{"capped by remaining", "500000", "30000", "1000000", "100000", "20", "22", 1000, "19820"},
		{"a lot's margin over remaining", "500000", "19819", "1000000", "100000", "20", "22", 0, "0"},
		{"limit-up below the price: the price", "500000", "500000", "1000000", "100000", "20", "0", 2000, "36037"},
		{"below a lot: shorts take no odd lots", "100000", "100000", "1000000", "100000", "50", "55", 0, "0"},
		{"nothing left", "100000", "0", "1000000", "100000", "50", "55", 0, "0"},
		{"no equity", "100000", "100000", "0", "100000", "50", "55", 0, "0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := ScaleShort(d(c.commitment), d(c.remaining), d(c.equity), d(c.value), d(c.price), d(c.limitUp), lev)
			if o.Shares != c.shares || o.OddLot || !o.Cost.Equal(d(c.cost)) {
				t.Errorf("got %+v", o)
			}
			if o.Cost.GreaterThan(d(c.remaining)) {
				t.Errorf("cost %s over remaining %s", o.Cost, c.remaining)
			}
		})
	}
}

func TestHeldShare(t *testing.T) {
	cases := []struct {
		held         string
		sold, shares int64
		want         string
	}{
		{"90091", 1000, 1000, "90091"}, {"90091", 1000, 2000, "45046"}, {"100", 3000, 2000, "100"}, {"0", 1000, 0, "0"},
	}
	for _, c := range cases {
		if got := HeldShare(d(c.held), c.sold, c.shares); !got.Equal(d(c.want)) {
			t.Errorf("%+v: got %s", c, got)
		}
	}
}

func TestCloseShares(t *testing.T) {
	cases := []struct {
		held, had, sold int64
		odd             bool
		want            int64
	}{
		{3000, 10000, 10000, false, 3000},
		{3000, 10000, 5000, false, 1000},
		{3000, 10000, 1000, false, 0},
		{500, 10000, 5000, true, 250},
		{500, 10000, 5000, false, 0},
		{500, 10000, 10000, false, 500},
		{0, 1000, 1000, true, 0},
	}
	for _, c := range cases {
		if got := CloseShares(c.held, c.had, c.sold, c.odd); got != c.want {
			t.Errorf("%+v: got %d", c, got)
		}
	}
}

func TestProfitShare(t *testing.T) {
	cases := []struct{ profit, pct, want string }{
		{"10000", "10", "1000"}, {"999", "10", "99"}, {"-5000", "10", "0"}, {"5000", "0", "0"}, {"12345", "20", "2469"},
	}
	for _, c := range cases {
		if got := ProfitShare(d(c.profit), d(c.pct)); !got.Equal(d(c.want)) {
			t.Errorf("%+v: got %s", c, got)
		}
	}
}
