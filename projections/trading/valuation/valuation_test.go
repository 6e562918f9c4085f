package valuation

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/trading"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// prices is a market that knows the last price of the symbols it lists.
type prices map[string]string

func (p prices) Quote(symbol string) (market.Quote, error) {
	last, ok := p[symbol]
	if !ok {
		return market.Quote{}, errors.New("unknown symbol")
	}
	return market.Quote{Symbol: symbol, Price: d(last)}, nil
}

// rates converts at fixed rates into TWD.
type rates map[string]string

func (r rates) ValueIn(to string, amounts map[string]decimal.Decimal) (decimal.Decimal, error) {
	sum := decimal.Zero
	for cur, a := range amounts {
		rate, ok := r[cur]
		if !ok {
			return decimal.Zero, errors.New("no rate for " + cur)
		}
		sum = sum.Add(a.Mul(d(rate)))
	}
	return sum, nil
}

const today = "2026-11-24"

// The rows: 2,000 shares bought at 90 cost 180,000 plus NT$256 commission.
var (
	cashLong   = trading.Position{ID: "p1", Symbol: "2330", Kind: "stock", Direction: events.DirectionLong, Status: trading.PositionHolding, OpenDay: "2026-11-20", Shares: 2000, Bought: 2000, Basis: d("180256")}
	marginLong = func() trading.Position { p := cashLong; p.Loan = d("108000"); return p }()
	// 1,000 shares sold short at 100: proceeds 100,000 less NT$142 commission and NT$300 tax.
	short = trading.Position{ID: "p2", Symbol: "2603", Kind: "stock", Direction: events.DirectionShort, Status: trading.PositionHolding, OpenDay: "2026-11-20", Shares: 1000, Bought: 1000, Basis: d("99558"), Margin: d("90000")}
)

func with(p trading.Position, f func(*trading.Position)) trading.Position {
	f(&p)
	return p
}

func TestValue(t *testing.T) {
	tests := []struct {
		name                                 string
		p                                    trading.Position
		last                                 string
		shares                               int64
		lots, own, value, unrealised, equity string
	}{
		// 200,000 less commission 285, stock tax 600 and cost 180,256.
		{"cash long", cashLong, "100", 2000, "2", "180256", "200000", "18859", "200000"},
		// Opened today: a sale now pays the day-trade tax, 300.
		{"long opened today", with(cashLong, func(p *trading.Position) { p.OpenDay = today }), "100", 2000, "2", "180256", "200000", "19159", "200000"},
		{"etf", with(cashLong, func(p *trading.Position) { p.Kind = "etf" }), "100", 2000, "2", "180256", "200000", "19259", "200000"},
		{"bond etf pays no tax", with(cashLong, func(p *trading.Position) { p.Kind = "bond_etf" }), "100", 2000, "2", "180256", "200000", "19459", "200000"},
		// The loan is the broker's: equity and own money both leave it out.
		{"financed long", marginLong, "100", 2000, "2", "72256", "200000", "18859", "92000"},
		// Odd lot: commission 71 (minimum NT$1), tax 150, cost 45,064.
		{"odd lot", with(cashLong, func(p *trading.Position) { p.Shares, p.Bought, p.Basis = 500, 500, d("45064") }), "100", 500, "0.5", "45064", "50000", "4715", "50000"},
		// Board lot worth 10,000: commission 14.25 rounds to the NT$20 minimum; tax 30.
		{"board-lot minimum commission", with(cashLong, func(p *trading.Position) { p.Shares, p.Bought, p.Basis = 1000, 1000, d("9020") }), "10", 1000, "1", "9020", "10000", "930", "10000"},
		// Covering costs 90,000 and commission 128; collateral 99,558 + 90,000 less the cover.
		{"short", short, "90", 1000, "1", "90000", "90000", "9430", "99558"},
		{"short losing", short, "110", 1000, "1", "90000", "110000", "-10598", "79558"},
		{"closed shows what was opened", with(cashLong, func(p *trading.Position) {
			p.Status, p.Shares, p.Basis = trading.PositionClosed, 0, decimal.Zero
		}), "100", 2000, "2", "0", "0", "0", "0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := Value(tc.p, d(tc.last), today)
			if v.Shares != tc.shares || !v.Lots.Equal(d(tc.lots)) || !v.Own.Equal(d(tc.own)) || !v.Price.Equal(d(tc.last)) ||
				!v.MarketValue.Equal(d(tc.value)) || !v.Unrealised.Equal(d(tc.unrealised)) || !v.Equity.Equal(d(tc.equity)) {
				t.Errorf("got shares %d lots %s own %s price %s value %s unrealised %s equity %s; want %d %s %s %s %s %s %s",
					v.Shares, v.Lots, v.Own, v.Price, v.MarketValue, v.Unrealised, v.Equity,
					tc.shares, tc.lots, tc.own, tc.last, tc.value, tc.unrealised, tc.equity)
			}
		})
	}
}

func TestAtUnknownSymbolIsZeroPrice(t *testing.T) {
	v := At(cashLong, prices{}, today)
	if !v.Price.IsZero() || !v.MarketValue.IsZero() || !v.Unrealised.Equal(d("-180256")) {
		t.Errorf("unknown symbol: price %s value %s unrealised %s; want 0, 0, -180256", v.Price, v.MarketValue, v.Unrealised)
	}
}

func TestMarginRatio(t *testing.T) {
	tests := []struct {
		name  string
		held  []trading.Position
		m     prices
		ratio string
		owed  bool
	}{
		{"cash only owes nothing", []trading.Position{cashLong}, prices{"2330": "100"}, "0", false},
		{"nothing held", nil, prices{}, "0", false},
		// 200,000 / 108,000, truncated to four decimals.
		{"financed long", []trading.Position{marginLong}, prices{"2330": "100"}, "1.8518", true},
		// 140,000 / 108,000: under the 130 % maintenance ratio.
		{"financed long fallen", []trading.Position{marginLong}, prices{"2330": "70"}, "1.2962", true},
		// (200,000 + 99,558 + 90,000) / (108,000 + 90,000); the cash long adds nothing.
		{"financed long, short and cash long", []trading.Position{marginLong, short, with(cashLong, func(p *trading.Position) { p.Symbol = "0050" })},
			prices{"2330": "100", "2603": "90", "0050": "150"}, "1.9674", true},
		{"short alone", []trading.Position{short}, prices{"2603": "90"}, "2.1062", true},
		{"sold out position ignored", []trading.Position{with(marginLong, func(p *trading.Position) { p.Shares = 0 })}, prices{"2330": "100"}, "0", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, owed := MarginRatio(tc.held, tc.m)
			if owed != tc.owed || !r.Equal(d(tc.ratio)) {
				t.Errorf("ratio %s owed %v; want %s %v", r, owed, tc.ratio, tc.owed)
			}
		})
	}
}

func TestDayTrading(t *testing.T) {
	// Held: 1,000 shares bought today at 95 for cash (cost 95,135); at 100 worth 100,000 less
	// commission 142 and day-trade tax 150: unrealised 4,573.
	open := trading.Position{ID: "d1", Symbol: "2330", Kind: "stock", Direction: events.DirectionLong, Status: trading.PositionHolding,
		DayTrade: true, OpenDay: today, Shares: 1000, Bought: 1000, EntryAmount: d("95000"), Leverage: d("1"), Basis: d("95135")}
	// Closed today at a profit of 1,200, opened for 50,000 at leverage 2: 25,000 committed.
	closed := trading.Position{ID: "d2", Symbol: "2603", Kind: "stock", Direction: events.DirectionLong, Status: trading.PositionClosed,
		DayTrade: true, OpenDay: today, Bought: 1000, ExitShares: 1000, EntryAmount: d("50000"), Leverage: d("2"), Profit: d("1200")}
	yesterday := with(open, func(p *trading.Position) { p.ID, p.OpenDay = "d3", "2026-11-23" })
	notDayTrade := with(open, func(p *trading.Position) { p.ID, p.DayTrade = "d4", false })
	m := prices{"2330": "100", "2603": "55"}

	tests := []struct {
		name                                     string
		ps                                       []trading.Position
		ids                                      []string
		holding                                  int64
		valuation, committed, profit, returnRate string
	}{
		// 5,773 over 120,000 = 4.8108 %.
		{"held and closed", []trading.Position{yesterday, open, notDayTrade, closed}, []string{"d1", "d2"}, 1000, "100000", "120000", "5773", "4.81"},
		{"closed only", []trading.Position{closed}, []string{"d2"}, 0, "0", "25000", "1200", "4.8"},
		{"none today", []trading.Position{yesterday, notDayTrade}, nil, 0, "0", "0", "0", "0"},
		{"losing", []trading.Position{with(closed, func(p *trading.Position) { p.Profit = d("-333") })}, []string{"d2"}, 0, "0", "25000", "-333", "-1.33"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := DayTrading(tc.ps, m, today)
			var ids []string
			for _, it := range got.Items {
				ids = append(ids, it.Row.ID)
			}
			if len(ids) != len(tc.ids) || (len(ids) > 0 && ids[0] != tc.ids[0]) || (len(ids) > 1 && ids[1] != tc.ids[1]) {
				t.Errorf("positions %v, want %v", ids, tc.ids)
			}
			if got.HoldingShares != tc.holding || !got.Valuation.Equal(d(tc.valuation)) || !got.Committed.Equal(d(tc.committed)) ||
				!got.Profit.Equal(d(tc.profit)) || !got.ReturnRate.Equal(d(tc.returnRate)) {
				t.Errorf("holding %d valuation %s committed %s profit %s return %s; want %d %s %s %s %s", got.HoldingShares,
					got.Valuation, got.Committed, got.Profit, got.ReturnRate, tc.holding, tc.valuation, tc.committed, tc.profit, tc.returnRate)
			}
		})
	}
}

func TestTotal(t *testing.T) {
	bals := map[string]projections.Balance{"TWD": {Available: d("10000"), Frozen: d("500")}, "USD": {Available: d("100"), Frozen: d("2.5")}}
	tests := []struct {
		name                                  string
		bals                                  map[string]projections.Balance
		realised                              string
		held                                  []trading.Position
		available, frozen, total, profit, usd string
	}{
		{"nothing", nil, "0", nil, "0", "0", "0", "0", "0"},
		// 10,500 + 102.5 × 32 = 13,780.
		{"cash of every currency in TWD", bals, "0", nil, "10000", "500", "13780", "0", "102.5"},
		// Plus the cash long's equity 200,000; profit 300 realised and 18,859 unrealised.
		{"cash and a long", bals, "300", []trading.Position{cashLong}, "10000", "500", "213780", "19159", "102.5"},
		// The financed long adds its value less the loan; the short its collateral less the cover.
		{"financed long and short", bals, "0", []trading.Position{marginLong, short}, "10000", "500", "205338", "28289", "102.5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Total(tc.bals, d(tc.realised), tc.held, prices{"2330": "100", "2603": "90"}, rates{"TWD": "1", "USD": "32"}, today)
			if err != nil {
				t.Fatal(err)
			}
			if !a.Available.Equal(d(tc.available)) || !a.Frozen.Equal(d(tc.frozen)) || !a.Total.Equal(d(tc.total)) ||
				!a.Profit.Equal(d(tc.profit)) || !a.USD.Equal(d(tc.usd)) {
				t.Errorf("got %+v; want available %s frozen %s total %s profit %s usd %s", a, tc.available, tc.frozen, tc.total, tc.profit, tc.usd)
			}
		})
	}
}

func TestTotalWithoutRateFails(t *testing.T) {
	bals := map[string]projections.Balance{"TWD": {Available: d("1")}, "JPY": {Available: d("1000")}}
	if _, err := Total(bals, decimal.Zero, nil, prices{}, rates{"TWD": "1"}, today); err == nil {
		t.Error("cash in a currency without a rate valued anyway")
	}
}
