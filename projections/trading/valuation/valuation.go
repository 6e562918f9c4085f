// Package valuation computes the figures a member sees from read-model rows at live prices: a
// position's market value and unrealised profit, the account's maintenance ratio, the day-trading
// summary and total assets. The functions are pure: the caller reads the rows (in one snapshot,
// so that an order being filled counts once) and passes the market's prices and the exchange
// rates in, so the same rows and prices always give the same figures.
package valuation

import (
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/fees"
	"github.com/lotbook/lotbook/commands/rules/margin"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/trading"
)

// Prices are the market's live quotes; *market.Service is the one that serves.
type Prices interface {
	Quote(symbol string) (market.Quote, error)
}

// Rates converts cash in several currencies into one at the rates an exchange would be quoted now
// (the write side's fx rule, so that total assets agree with what an exchange pays).
type Rates interface {
	ValueIn(to string, amounts map[string]decimal.Decimal) (decimal.Decimal, error)
}

// Home is the currency total assets are shown in.
const Home = "TWD"

var hundred = decimal.NewFromInt(100)

// Last is the symbol's last price, zero when the market does not know it.
func Last(m Prices, symbol string) decimal.Decimal {
	q, err := m.Quote(symbol)
	if err != nil {
		return decimal.Zero
	}
	return q.Price
}

// Position is a position at a live price.
type Position struct {
	Shares int64           // held now; all that were opened once the position is closed
	Lots   decimal.Decimal // Shares in board lots
	Own    decimal.Decimal // the member's own money in it: a long's cost less its loan, a short's margin
	Price  decimal.Decimal // the last price it is valued at
	// MarketValue is the held shares at Price; Unrealised the profit of closing them now after
	// the estimated commission and tax; Equity what they add to total assets (a long's value
	// less its loan; a short's collateral less what covering costs).
	MarketValue, Unrealised, Equity decimal.Decimal
}

// Value prices the held shares of p at last on trading day today (a long opened today and sold
// today pays the day-trade tax).
func Value(p trading.Position, last decimal.Decimal, today string) Position {
	v := Position{Shares: p.Shares, Price: last, Own: p.Basis.Sub(p.Loan)}
	if p.Status == trading.PositionClosed {
		v.Shares = p.Bought
	}
	v.Lots = decimal.NewFromInt(v.Shares).Div(decimal.NewFromInt(fees.BoardLot))
	if p.Direction == events.DirectionShort {
		v.Own = p.Margin
	}
	if p.Shares == 0 {
		return v
	}
	v.MarketValue = last.Mul(decimal.NewFromInt(p.Shares))
	commission := fees.Commission(v.MarketValue, p.Shares%fees.BoardLot != 0)
	if p.Direction == events.DirectionShort {
		v.Unrealised = p.Basis.Sub(v.MarketValue).Sub(commission)
		v.Equity = p.Basis.Add(p.Margin).Sub(v.MarketValue)
		return v
	}
	tax := fees.Tax(v.MarketValue, feeKind(p.Kind), p.OpenDay == today)
	v.Unrealised = v.MarketValue.Sub(commission).Sub(tax).Sub(p.Basis)
	v.Equity = v.MarketValue.Sub(p.Loan)
	return v
}

// At values p at the market's last price of its symbol.
func At(p trading.Position, m Prices, today string) Position {
	return Value(p, Last(m, p.Symbol), today)
}

// feeKind is the tax kind the read model stores as text.
func feeKind(kind string) fees.Kind {
	switch kind {
	case fees.ETF.String():
		return fees.ETF
	case fees.BondETF.String():
		return fees.BondETF
	}
	return fees.Stock
}

// MarginRatio is the account's maintenance ratio over its held positions at live prices; owed is
// false when no position is financed or short (the ratio is then meaningless).
func MarginRatio(held []trading.Position, m Prices) (ratio decimal.Decimal, owed bool) {
	var acc margin.Account
	for _, p := range held {
		if p.Shares == 0 {
			continue
		}
		v := Last(m, p.Symbol).Mul(decimal.NewFromInt(p.Shares))
		switch {
		case p.Direction == events.DirectionShort:
			acc.ShortCollateral = acc.ShortCollateral.Add(p.Basis).Add(p.Margin)
			acc.ShortValue = acc.ShortValue.Add(v)
		case p.Loan.IsPositive():
			acc.LongValue = acc.LongValue.Add(v)
			acc.Loans = acc.Loans.Add(p.Loan)
		}
	}
	return margin.Ratio(acc)
}

// DayTraded reports whether p is one of today's day trades.
func DayTraded(p trading.Position, today string) bool { return p.DayTrade && p.OpenDay == today }

// Item is a position with its valuation.
type Item struct {
	Row   trading.Position
	Value Position
}

// DayTrade is the day-trading summary of a trading day.
type DayTrade struct {
	Items         []Item // the day's day-trade positions, in the order given
	HoldingShares int64
	// Valuation is the held shares at live prices; Committed what the member put in for every
	// share opened (closed ones included); Profit realised plus unrealised; ReturnRate Profit
	// over Committed in percent, two decimals (zero when nothing was committed).
	Valuation, Committed, Profit, ReturnRate decimal.Decimal
}

// DayTrading sums today's day trades among ps at live prices.
func DayTrading(ps []trading.Position, m Prices, today string) DayTrade {
	var out DayTrade
	for _, p := range ps {
		if !DayTraded(p, today) {
			continue
		}
		v := At(p, m, today)
		out.Items = append(out.Items, Item{Row: p, Value: v})
		out.HoldingShares += p.Shares
		out.Valuation = out.Valuation.Add(v.MarketValue)
		out.Profit = out.Profit.Add(p.Profit).Add(v.Unrealised)
		// The amount over the leverage: a long's cost less its financing (before the loan's
		// rounding to thousands), a short's margin.
		out.Committed = out.Committed.Add(p.EntryAmount.DivRound(p.Leverage, 2))
	}
	if out.Committed.IsPositive() {
		out.ReturnRate = out.Profit.Mul(hundred).DivRound(out.Committed, 2)
	}
	return out
}

// Holdings are what held positions add to the member's assets at live prices: their equity, and
// the profit shown (realised so far plus unrealised).
func Holdings(realised decimal.Decimal, held []trading.Position, m Prices, today string) (equity, profit decimal.Decimal) {
	profit = realised
	for _, p := range held {
		v := At(p, m, today)
		equity, profit = equity.Add(v.Equity), profit.Add(v.Unrealised)
	}
	return equity, profit
}

// Assets are the mine screen's figures.
type Assets struct {
	Available, Frozen decimal.Decimal // home-currency cash
	Total             decimal.Decimal // cash of every currency in the home currency, and positions at live prices
	Profit            decimal.Decimal // realised and unrealised
	USD               decimal.Decimal // US-dollar cash
}

// Total values a member's cash of every currency (converted by fx) and held positions.
func Total(bals map[string]projections.Balance, realised decimal.Decimal, held []trading.Position,
	m Prices, fx Rates, today string) (Assets, error) {
	cash := make(map[string]decimal.Decimal, len(bals))
	for cur, b := range bals {
		cash[cur] = b.Cash()
	}
	cashHome, err := fx.ValueIn(Home, cash)
	if err != nil {
		return Assets{}, fmt.Errorf("cash in %s: %w", Home, err)
	}
	equity, profit := Holdings(realised, held, m, today)
	home := bals[Home]
	return Assets{Available: home.Available, Frozen: home.Frozen, Total: cashHome.Add(equity), Profit: profit,
		USD: bals["USD"].Cash()}, nil
}
