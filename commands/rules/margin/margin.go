// Package margin holds the leverage rules of market-rules.md 1f as the product applies them.
// Leverage is the traded value over the member's own money (the margin):
//
//   - long: the broker finances up to 60 % of the value, so leverage runs from 1 to 2.5; the loan is
//     value × (1 − 1/leverage) with amounts under NT$1,000 dropped, and the margin is the rest;
//   - short: the member puts up at least 90 % of the value, so leverage runs from 1 to 1.11; the
//     margin is value / leverage rounded up to whole NT$;
//   - maintenance: (value of long collateral + short proceeds and margin held) ÷ (loans + value of
//     shorts) over the whole account. Below 130 % the member gets a margin call with two trading
//     days to restore it; the positions are closed by force when the deadline passes with the
//     ratio still below 130 %, or at once below 120 % (the product's rule, shown in the app).
package margin

import (
	"errors"

	"github.com/shopspring/decimal"
)

// The rule's figures.
var (
	MaxFinancing     = decimal.RequireFromString("0.6")  // of a long's value
	MinShortMargin   = decimal.RequireFromString("0.9")  // of a short's value
	MaintenanceRatio = decimal.RequireFromString("1.3")  // margin call below it
	ForcedCloseRatio = decimal.RequireFromString("1.2")  // forced close at once below it
	MaxLongLeverage  = decimal.RequireFromString("2.5")  // 1 / (1 − MaxFinancing)
	MaxShortLeverage = decimal.RequireFromString("1.11") // the highest two-decimal leverage with margin ≥ 90 %
	LoanUnit         = decimal.NewFromInt(1000)          // loans are whole thousands of NT$
)

// CallDeadlineDays are the trading days a member has to restore the ratio after a margin call.
const CallDeadlineDays = 2

// Refusals of CheckLeverage.
var (
	ErrLeverage       = errors.New("leverage must be 1 to 2.5 for longs, 1 to 1.11 for shorts, two decimals at most")
	ErrOddLotCashOnly = errors.New("odd lots trade long and for cash only")
)

var one = decimal.NewFromInt(1)

// CheckLeverage validates a leverage for an order: two decimals at most, at least 1, at most 2.5
// for longs and 1.11 for shorts; odd lots trade long, for cash only.
func CheckLeverage(lev decimal.Decimal, short, oddLot bool) error {
	switch {
	case !lev.Equal(lev.Truncate(2)), lev.LessThan(one):
		return ErrLeverage
	case oddLot && (short || !lev.Equal(one)):
		return ErrOddLotCashOnly
	case short && lev.GreaterThan(MaxShortLeverage), !short && lev.GreaterThan(MaxLongLeverage):
		return ErrLeverage
	}
	return nil
}

// Loan is the broker's financing of a long worth value at leverage: value × (1 − 1/leverage),
// at most 60 % of the value, rounded down to whole thousands of NT$.
func Loan(value, leverage decimal.Decimal) decimal.Decimal {
	if !value.IsPositive() || !leverage.GreaterThan(one) {
		return decimal.Zero
	}
	share := one.Sub(one.DivRound(leverage, 16))
	if share.GreaterThan(MaxFinancing) {
		share = MaxFinancing
	}
	return value.Mul(share).Div(LoanUnit).Floor().Mul(LoanUnit)
}

// ShortMargin is the member's margin on a short worth value at leverage: value / leverage, at
// least 90 % of the value, rounded up to whole NT$.
func ShortMargin(value, leverage decimal.Decimal) decimal.Decimal {
	if !value.IsPositive() {
		return decimal.Zero
	}
	if leverage.LessThan(one) {
		leverage = one
	}
	m := value.DivRound(leverage, 16)
	if floor := value.Mul(MinShortMargin); m.LessThan(floor) {
		m = floor
	}
	return m.Ceil()
}

// Account is what the maintenance ratio looks at, summed over the member's margin positions at
// current prices.
type Account struct {
	LongValue       decimal.Decimal // market value of financed longs (the collateral)
	Loans           decimal.Decimal // financing outstanding on them
	ShortCollateral decimal.Decimal // short proceeds and margin the broker holds
	ShortValue      decimal.Decimal // market value of the shares sold short (what covering costs)
}

// Ratio is the maintenance ratio, four decimals (1.3 is 130 %); ok is false when the account
// owes nothing (no loans, no shorts), which no margin call concerns.
func Ratio(a Account) (ratio decimal.Decimal, ok bool) {
	den := a.Loans.Add(a.ShortValue)
	if !den.IsPositive() {
		return decimal.Zero, false
	}
	// Truncated, not rounded: 129.996 % is a margin call.
	return a.LongValue.Add(a.ShortCollateral).Div(den).RoundFloor(4), true
}

// Call reports whether a ratio calls for more margin.
func Call(ratio decimal.Decimal) bool { return ratio.LessThan(MaintenanceRatio) }

// ForceNow reports whether a ratio is so low that the positions are closed at once.
func ForceNow(ratio decimal.Decimal) bool { return ratio.LessThan(ForcedCloseRatio) }
