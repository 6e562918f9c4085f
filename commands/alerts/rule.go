package alerts

import (
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
)

var hundred = decimal.NewFromInt(100)

// Crossed reports whether a quote (its last price and the previous close) meets an alert of kind
// with value: a price at or above / at or below the level, or a move from the previous close of at
// least value percent up / down. A quote without a price (no trade, no reference) meets none.
func Crossed(kind string, value, price, prevClose decimal.Decimal) bool {
	if !price.IsPositive() {
		return false
	}
	switch kind {
	case events.AlertPriceAbove:
		return price.GreaterThanOrEqual(value)
	case events.AlertPriceBelow:
		return price.LessThanOrEqual(value)
	case events.AlertRisePct, events.AlertFallPct:
		if !prevClose.IsPositive() {
			return false
		}
		move := price.Sub(prevClose).Mul(hundred).Div(prevClose)
		if kind == events.AlertFallPct {
			move = move.Neg()
		}
		return move.GreaterThanOrEqual(value)
	}
	return false
}

// Kinds are the alert kinds in the order the app offers them.
var Kinds = []string{events.AlertPriceAbove, events.AlertPriceBelow, events.AlertRisePct, events.AlertFallPct}

// maxPrice bounds a price level: far above any Taiwan share price.
var maxPrice = decimal.NewFromInt(100_000)

// ValidValue reports whether value fits kind: a price above 0 up to NT$100,000 with at most two
// decimals, or a percentage above 0 up to 100 with at most two decimals.
func ValidValue(kind string, value decimal.Decimal) bool {
	if !value.IsPositive() || !value.Equal(value.Truncate(2)) {
		return false
	}
	switch kind {
	case events.AlertPriceAbove, events.AlertPriceBelow:
		return value.LessThanOrEqual(maxPrice)
	case events.AlertRisePct, events.AlertFallPct:
		return value.LessThanOrEqual(hundred)
	}
	return false
}
