package projections

import "github.com/shopspring/decimal"

// TextDecimal is a decimal a row keeps as text (zero when it is not one).
func TextDecimal(s string) decimal.Decimal {
	v, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero
	}
	return v
}

// AddText is a + b as rows keep decimals (text).
func AddText(a string, b decimal.Decimal) string { return TextDecimal(a).Add(b).String() }
