package commands

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/money"
)

// WholeAmount is a whole NT$ amount as a member typed it: required, positive, no decimals, at
// most max.
func WholeAmount(s string, max int64) (decimal.Decimal, *Error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return decimal.Zero, Invalid(KeyAmountRequired)
	}
	a, err := money.ParseDecimal(s, 0)
	if err != nil || !a.IsPositive() || a.GreaterThan(decimal.NewFromInt(max)) {
		return decimal.Zero, Invalid(KeyAmountInvalid)
	}
	return a, nil
}
