// Package price is the exact price type of the market packages: a whole number of hundredths of
// a New Taiwan dollar. Every TWSE and TPEx tick (0.01, 0.05, 0.10, 0.50, 1, 5) is a whole number of
// hundredths, so prices stay integers on the hot path and become decimals only at the edges.
package price

import (
	"fmt"

	"github.com/shopspring/decimal"
)

// Price is an amount in hundredths of NT$ (1450.00 is 145000).
type Price int64

// FromDecimal converts d exactly; more than two decimals is an error, never a silent rounding.
func FromDecimal(d decimal.Decimal) (Price, error) {
	c := d.Shift(2)
	if !c.Equal(c.Truncate(0)) {
		return 0, fmt.Errorf("price %s has more than two decimals", d)
	}
	if !c.IsInteger() || c.GreaterThan(decimal.NewFromInt(1<<53)) || c.LessThan(decimal.NewFromInt(-(1 << 53))) {
		return 0, fmt.Errorf("price %s out of range", d)
	}
	return Price(c.IntPart()), nil
}

// Parse reads a decimal string such as "1450" or "12.35".
func Parse(s string) (Price, error) {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return 0, fmt.Errorf("parse price %q: %w", s, err)
	}
	return FromDecimal(d)
}

// MustParse is Parse for constants in code and tests.
func MustParse(s string) Price {
	p, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return p
}

// Decimal is the exact decimal value, with two decimals.
func (p Price) Decimal() decimal.Decimal { return decimal.New(int64(p), -2) }

// String renders the price with two decimals, as the exchange quotes it.
func (p Price) String() string { return p.Decimal().StringFixed(2) }

// Float is for statistics and index arithmetic only, never for money.
func (p Price) Float() float64 { return float64(p) / 100 }
