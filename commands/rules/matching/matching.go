// Package matching crosses an order with the simulated market's book: a buy takes the asks from the
// best up to its limit, a sell the bids from the best down to its limit, level by level, until the
// order's shares are done or the levels run out. A market order's limit is its protective price:
// 3.5 % beyond the last price (the exchange's volatility-interruption step), inside the day's band.
//
// The simulator's book is not changed by lotbook's orders (members trade against the market's
// displayed liquidity), so one quote's levels are shared among the orders crossed with it: Take
// reduces them as they fill.
package matching

import "github.com/shopspring/decimal"

// Level is one price level: price and shares.
type Level struct {
	Price decimal.Decimal
	Size  int64
}

// Fill is the part of an order matched at one level.
type Fill struct {
	Price  decimal.Decimal
	Shares int64
}

// Crosses reports whether a buy (sell) limit reaches a level's price: at or above (at or below) it.
func Crosses(buy bool, limit, price decimal.Decimal) bool {
	if buy {
		return price.LessThanOrEqual(limit)
	}
	return price.GreaterThanOrEqual(limit)
}

// Cross matches up to shares against the opposite side's levels (best first) within limit, in
// multiples of unit (1,000 for board lots, 1 for odd lots). It does not change levels; see Take.
func Cross(buy bool, limit decimal.Decimal, shares, unit int64, levels []Level) []Fill {
	var out []Fill
	if unit < 1 {
		unit = 1
	}
	for _, l := range levels {
		if shares < unit || !Crosses(buy, limit, l.Price) {
			break
		}
		n := min(shares, l.Size) / unit * unit
		if n <= 0 {
			continue
		}
		out = append(out, Fill{Price: l.Price, Shares: n})
		shares -= n
	}
	return out
}

// Take removes fills from levels (the same side they were crossed with), so that the next order
// matched with the same quote finds only what is left.
func Take(levels []Level, fills []Fill) []Level {
	out := make([]Level, 0, len(levels))
	for _, l := range levels {
		for _, f := range fills {
			if f.Price.Equal(l.Price) {
				l.Size -= f.Shares
			}
		}
		if l.Size > 0 {
			out = append(out, l)
		}
	}
	return out
}

// Total is the number of shares and the amount (Σ price × shares) of fills.
func Total(fills []Fill) (shares int64, amount decimal.Decimal) {
	for _, f := range fills {
		shares += f.Shares
		amount = amount.Add(f.Price.Mul(decimal.NewFromInt(f.Shares)))
	}
	return shares, amount
}

// ProtectiveStep is how far beyond the last price a market order may fill.
var ProtectiveStep = decimal.RequireFromString("0.035")

// Protective is a market order's protective price: last × (1 ± 3.5 %), kept inside the day's band
// [limitDown, limitUp] (a zero bound is no bound).
func Protective(buy bool, last, limitDown, limitUp decimal.Decimal) decimal.Decimal {
	one := decimal.NewFromInt(1)
	if buy {
		p := last.Mul(one.Add(ProtectiveStep)).RoundFloor(2)
		if limitUp.IsPositive() && p.GreaterThan(limitUp) {
			p = limitUp
		}
		return p
	}
	p := last.Mul(one.Sub(ProtectiveStep)).RoundCeil(2)
	if limitDown.IsPositive() && p.LessThan(limitDown) {
		p = limitDown
	}
	return p
}
