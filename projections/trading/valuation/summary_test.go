package valuation

import (
	"errors"
	"testing"

	"github.com/lotbook/lotbook/market"
	"github.com/lotbook/lotbook/projections/trading"
)

// quotes is a market that knows the last price and the previous close of the symbols it lists.
type quotes map[string][2]string

func (q quotes) Quote(symbol string) (market.Quote, error) {
	v, ok := q[symbol]
	if !ok {
		return market.Quote{}, errNoQuote
	}
	return market.Quote{Symbol: symbol, Price: d(v[0]), PrevClose: d(v[1])}, nil
}

var errNoQuote = errors.New("unknown symbol")

func TestSummarise(t *testing.T) {
	// cashLong: 2,000 shares of 2330 bought at 90 on 2026-11-20 for 180,256; short: 1,000 of 2603
	// sold at 100. boughtToday: 1,000 of 2317 at 50 today for 50,071.
	boughtToday := trading.Position{ID: "p3", Symbol: "2317", Kind: "stock", Direction: "long", Status: trading.PositionHolding, OpenDay: today,
		Shares: 1000, Bought: 1000, EntryAmount: d("50000"), Basis: d("50071")}
	cashLongEntry := with(cashLong, func(p *trading.Position) { p.EntryAmount = d("180000") })
	shortEntry := with(short, func(p *trading.Position) { p.EntryAmount = d("100000") })
	tests := []struct {
		name                                       string
		held                                       []trading.Position
		q                                          quotes
		mv, cost, today, todayPct, total, totalPct string
		positions                                  int
	}{
		{"nothing held", nil, quotes{}, "0", "0", "0", "0", "0", "0", 0},
		// 2,000 × 95 = 190,000; today (95 − 93) × 2,000 = 4,000 on 186,000 = 2.15 %; total
		// 190,000 − 270 commission − 570 tax − 180,256 = 8,904 on 180,256 = 4.94 %.
		{"one long held since before today", []trading.Position{cashLongEntry}, quotes{"2330": {"95", "93"}},
			"190000", "180256", "4000", "2.15", "8904", "4.94", 1},
		// Opened today: its day counts from the entry price, 50 → 49: −1,000 on 50,000 = −2 %; total
		// 49,000 − 69 commission − 73 day-trade tax − 50,071 = −1,213.
		{"a long opened today", []trading.Position{boughtToday}, quotes{"2317": {"49", "52"}},
			"49000", "50071", "-1000", "-2.00", "-1213", "-2.42", 1},
		// A short gains as the price falls: (98 − 99) × −1,000 = +1,000 on 99,000 = 1.01 %.
		{"a short", []trading.Position{shortEntry}, quotes{"2603": {"98", "99"}},
			"98000", "99558", "1000", "1.01", "1419", "1.43", 1},
		{"no quote: valued at nothing, its day from the entry", []trading.Position{cashLongEntry}, quotes{},
			"0", "180256", "-180000", "-100.00", "-180256", "-100.00", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := Summarise(tc.held, tc.q, today)
			for _, c := range []struct{ name, got, want string }{
				{"market value", s.MarketValue.String(), tc.mv}, {"cost", s.Cost.String(), tc.cost},
				{"today", s.TodayProfit.String(), tc.today}, {"today %", s.TodayPercent.StringFixed(2), d(tc.todayPct).StringFixed(2)},
				{"total", s.TotalProfit.String(), tc.total}, {"total %", s.TotalPercent.StringFixed(2), d(tc.totalPct).StringFixed(2)},
			} {
				if !d(c.got).Equal(d(c.want)) {
					t.Errorf("%s = %s, want %s", c.name, c.got, c.want)
				}
			}
			if s.Positions != tc.positions {
				t.Errorf("positions %d, want %d", s.Positions, tc.positions)
			}
		})
	}
}
