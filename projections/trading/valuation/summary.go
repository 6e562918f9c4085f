package valuation

import (
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections/trading"
)

// Summary is the 庫存 (holdings) summary of the positions screen: what the held positions are
// worth at live prices, what they cost, and their unrealised profit today (against the previous
// close, or the entry price for shares opened today) and in total (after the fees and tax a close
// would pay, as Value reckons it), each with its percentage.
type Summary struct {
	MarketValue, Cost         decimal.Decimal
	TodayProfit, TodayPercent decimal.Decimal // percent of the value at the previous close (two decimals)
	TotalProfit, TotalPercent decimal.Decimal // percent of Cost (two decimals)
	Positions                 int
}

// Summarise values the held positions at m's quotes on the trading day today.
func Summarise(held []trading.Position, m Prices, today string) Summary {
	var s Summary
	var base decimal.Decimal // the held shares' value at the previous close (entry for today's)
	for _, p := range held {
		if p.Shares == 0 {
			continue
		}
		last, ref := decimal.Zero, decimal.Zero
		if q, err := m.Quote(p.Symbol); err == nil {
			last, ref = q.Price, q.PrevClose
		}
		if p.OpenDay == today || !ref.IsPositive() {
			ref = p.EntryPrice()
		}
		v := Value(p, last, today)
		n := decimal.NewFromInt(p.Shares)
		day := last.Sub(ref).Mul(n)
		if p.Direction == events.DirectionShort {
			day = day.Neg()
		}
		s.Positions++
		s.MarketValue = s.MarketValue.Add(v.MarketValue)
		s.Cost = s.Cost.Add(p.Basis)
		s.TotalProfit = s.TotalProfit.Add(v.Unrealised)
		s.TodayProfit = s.TodayProfit.Add(day)
		base = base.Add(ref.Mul(n))
	}
	if base.IsPositive() {
		s.TodayPercent = s.TodayProfit.Mul(hundred).DivRound(base, 2)
	}
	if s.Cost.IsPositive() {
		s.TotalPercent = s.TotalProfit.Mul(hundred).DivRound(s.Cost, 2)
	}
	return s
}
