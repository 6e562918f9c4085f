// Package money parses the decimals people type (amounts for a currency with its minor unit,
// prices, leverage) with one strict grammar.
package money

import (
	"strings"

	"github.com/shopspring/decimal"
)

// Error is a message key naming why an amount was refused.
type Error string

func (e Error) Error() string { return string(e) }

// The refusals of ParseAmount.
const (
	ErrRequired Error = "amount_required" // nothing was typed
	ErrInvalid  Error = "amount_invalid"  // not a plain positive decimal within the currency's precision
)

// Limits on what anyone could mean as an amount; longer input is refused before any arithmetic.
const (
	MaxLength       = 32 // characters in the whole string
	MaxIntegerDigit = 15 // digits before the point: up to 999 trillion
)

// MinorUnits is the number of decimals a currency allows (ISO 4217 exponents): TWD, USD, CNY, HKD,
// THB, MYR, INR and any other currency 2; JPY, KRW and VND 0. TWD's ISO exponent is 2 even though
// cash has no cents in practice; fees are rounded to whole NT$ by the fee rules, not here.
func MinorUnits(currency string) int32 {
	switch currency {
	case "JPY", "KRW", "VND":
		return 0
	default:
		return 2
	}
}

// ParseAmount accepts only a plain positive decimal with at most MinorUnits(currency) decimals
// (ParseDecimal's grammar).
func ParseAmount(s, currency string) (decimal.Decimal, error) {
	return ParseDecimal(s, MinorUnits(currency))
}

// ParseDecimal is the one grammar of every decimal a person types (amount, price, leverage): ASCII
// digits, optionally one '.' followed by at least one and at most places digits. It refuses signs
// (also '+'), spaces, exponents, NaN, Inf, thousands separators, a leading or trailing point, zero,
// and absurd lengths. Decimals are counted as typed: "100.000" is refused with places 2 even though
// its value has two. Callers map ErrRequired and ErrInvalid to their field's own message keys.
func ParseDecimal(s string, places int32) (decimal.Decimal, error) {
	if s == "" {
		return decimal.Decimal{}, ErrRequired
	}
	if len(s) > MaxLength {
		return decimal.Decimal{}, ErrInvalid
	}
	intPart, frac, hasPoint := strings.Cut(s, ".")
	if intPart == "" || len(intPart) > MaxIntegerDigit || !digits(intPart) {
		return decimal.Decimal{}, ErrInvalid
	}
	if hasPoint && (frac == "" || !digits(frac) || len(frac) > int(places)) {
		return decimal.Decimal{}, ErrInvalid
	}
	d, err := decimal.NewFromString(s)
	if err != nil || !d.IsPositive() {
		return decimal.Decimal{}, ErrInvalid
	}
	return d, nil
}

// Format writes an amount with exactly the currency's decimals ("1000.00" for TWD).
func Format(d decimal.Decimal, currency string) string {
	return d.StringFixed(MinorUnits(currency))
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Convert is amount times rate, rounded down (towards zero) to the minor unit of currency to:
// the member never receives a fraction the currency does not have, and the house never pays one.
func Convert(amount, rate decimal.Decimal, to string) decimal.Decimal {
	return amount.Mul(rate).RoundDown(MinorUnits(to))
}
