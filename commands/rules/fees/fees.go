// Package fees holds the broker commission and the securities transaction tax of market-rules.md
// 1c with the product defaults: commission 0.1425 % of the traded amount on each side, at least
// NT$20 for a board-lot order and NT$1 for an odd-lot order; transaction tax on the sell side only,
// 0.3 % for stocks, 0.1 % for ETFs, 0.15 % for stock day trades, none for bond ETFs; each rounded
// down to whole NT$.
//
// Both apply to an order's whole filled amount. An order filled in parts pays, with each part, the
// fee of its cumulative amount less what earlier parts paid (Delta), so the parts add up to
// exactly the fee of the whole order and the minimum is charged once.
package fees

import "github.com/shopspring/decimal"

// Kind is what the tax rate depends on.
type Kind int

// Instrument kinds.
const (
	Stock   Kind = iota
	ETF          // equity ETFs, beneficiary certificates
	BondETF      // bond ETFs: currently exempt from the transaction tax
)

func (k Kind) String() string {
	switch k {
	case ETF:
		return "etf"
	case BondETF:
		return "bond_etf"
	default:
		return "stock"
	}
}

// BoardLot is the shares of a board lot; an order or holding of fewer (or a remainder) is an odd
// lot, whose commission minimum is lower.
const BoardLot = 1000

// Rates and minimums (market-rules.md "Product defaults").
var (
	CommissionRate  = decimal.RequireFromString("0.001425")
	MinBoardLot     = decimal.NewFromInt(20)
	MinOddLot       = decimal.NewFromInt(1)
	StockTaxRate    = decimal.RequireFromString("0.003")
	ETFTaxRate      = decimal.RequireFromString("0.001")
	DayTradeTaxRate = decimal.RequireFromString("0.0015")
	BondETFTaxRate  = decimal.Zero
)

// Commission is the broker's fee on an order's traded amount: 0.1425 % rounded down to whole NT$,
// at least the minimum of the order's kind (NT$1 odd lot, NT$20 board lot). Nothing traded, no fee.
func Commission(amount decimal.Decimal, oddLot bool) decimal.Decimal {
	if !amount.IsPositive() {
		return decimal.Zero
	}
	fee := amount.Mul(CommissionRate).RoundFloor(0)
	minimum := MinBoardLot
	if oddLot {
		minimum = MinOddLot
	}
	return decimal.Max(fee, minimum)
}

// TaxRate is the transaction tax rate of a sale. The day-trade rate applies to stocks only: ETFs
// already pay less.
func TaxRate(k Kind, dayTrade bool) decimal.Decimal {
	switch {
	case k == BondETF:
		return BondETFTaxRate
	case k == ETF:
		return ETFTaxRate
	case dayTrade:
		return DayTradeTaxRate
	default:
		return StockTaxRate
	}
}

// Tax is the transaction tax on a sale's amount, rounded down to whole NT$. Buys pay none.
func Tax(amount decimal.Decimal, k Kind, dayTrade bool) decimal.Decimal {
	if !amount.IsPositive() {
		return decimal.Zero
	}
	return amount.Mul(TaxRate(k, dayTrade)).RoundFloor(0)
}

// Delta is what a part of an order pays when fee is the fee of a cumulative amount: the fee of
// the amount filled so far, this part included, less the fee of what was filled before.
func Delta(fee func(decimal.Decimal) decimal.Decimal, before, part decimal.Decimal) decimal.Decimal {
	return fee(before.Add(part)).Sub(fee(before))
}
