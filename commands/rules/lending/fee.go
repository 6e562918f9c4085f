// Package lending holds the published rules of stock lending (借券出借): the fee a lending earns
// each trading day and the bounds of the rates ops may publish (market-rules 1g: at most 16 % a
// year, quoted to 0.01 %).
package lending

import "github.com/shopspring/decimal"

// DaysPerYear is the day count of the annual rate.
const DaysPerYear = 365

// MaxRate is the highest annual fee rate (16 %/yr, TWSE SBL).
var MaxRate = decimal.RequireFromString("0.16")

// RatePlaces are the decimal places of a rate as a fraction (0.01 % = 0.0001).
const RatePlaces = 4

// MaxShares bounds the shares of one lending and of a symbol's quota.
const MaxShares = 1_000_000_000

// ValidRate tells whether r may be published: above zero, at most MaxRate, on the 0.01 % tick.
func ValidRate(r decimal.Decimal) bool {
	return r.IsPositive() && !r.GreaterThan(MaxRate) && r.Equal(r.Truncate(RatePlaces))
}

// DailyFee is one trading day's fee of a lending: close × shares × rate / 365, rounded down to
// whole NT$ (Taiwan brokers round fees down). Zero for a non-positive input.
func DailyFee(close decimal.Decimal, shares int64, rate decimal.Decimal) decimal.Decimal {
	if !close.IsPositive() || shares <= 0 || !rate.IsPositive() {
		return decimal.Zero
	}
	return close.Mul(decimal.NewFromInt(shares)).Mul(rate).Div(decimal.NewFromInt(DaysPerYear)).Floor()
}

// RateFor is the rate a symbol lends at: its own when set (positive), else the default.
func RateFor(symbolRate, defaultRate decimal.Decimal) decimal.Decimal {
	if symbolRate.IsPositive() {
		return symbolRate
	}
	return defaultRate
}
