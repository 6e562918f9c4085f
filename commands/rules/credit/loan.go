package credit

import (
	"github.com/shopspring/decimal"
)

// The published loan rule: how much a member may borrow, and what a loan costs.
//
// Limit = Σ over the member's holdings of shares × last price × the haircut of the instrument's
// class (below), rounded down to whole NT$, plus the amount of the member's credit score band.
// What the member may still borrow is the limit less the principal outstanding and the amounts of
// applications pending review. Interest accrues for each Asia/Taipei day a loan is outstanding at
// the day's end: principal × AnnualRate / 365, rounded half up to whole NT$.

// Instrument classes a holding is valued by.
const (
	ClassStock   = "stock"
	ClassETF     = "etf"
	ClassBondETF = "bond_etf"
)

// Haircut is the share of a holding's market value that counts towards the limit.
type Haircut struct {
	Class string
	Rate  decimal.Decimal
}

// Haircuts lists the published haircuts, in the order the app shows them; a class not listed
// counts for nothing.
var Haircuts = []Haircut{
	{Class: ClassStock, Rate: decimal.RequireFromString("0.5")},
	{Class: ClassETF, Rate: decimal.RequireFromString("0.6")},
	{Class: ClassBondETF, Rate: decimal.RequireFromString("0.7")},
}

// Band is one credit score band: members with at least MinScore get Amount of unsecured limit.
type Band struct {
	MinScore int
	Amount   decimal.Decimal
}

// Bands are the published score bands, highest first.
var Bands = []Band{
	{MinScore: 90, Amount: decimal.NewFromInt(100_000)},
	{MinScore: 80, Amount: decimal.NewFromInt(50_000)},
	{MinScore: WithdrawThreshold, Amount: decimal.NewFromInt(20_000)},
	{MinScore: Min, Amount: decimal.Zero},
}

// AnnualRate is the published interest rate of a loan: 7.3 % a year (0.02 % a day).
var AnnualRate = decimal.RequireFromString("0.073")

// DaysPerYear is the day count of the interest rule.
const DaysPerYear = 365

// MinLoan is the smallest amount a member may borrow; loans are whole NT$.
var MinLoan = decimal.NewFromInt(1000)

// Holding is a position the limit counts: shares at the market's last price.
type Holding struct {
	Class  string
	Shares int64
	Price  decimal.Decimal
}

// HaircutOf is the haircut of a class (zero for classes not published).
func HaircutOf(class string) decimal.Decimal {
	for _, h := range Haircuts {
		if h.Class == class {
			return h.Rate
		}
	}
	return decimal.Zero
}

// BandAmount is the unsecured amount the score gives.
func BandAmount(score int) decimal.Decimal {
	for _, b := range Bands {
		if score >= b.MinScore {
			return b.Amount
		}
	}
	return decimal.Zero
}

// Collateral is the holdings' value after haircuts, rounded down to whole NT$.
func Collateral(hs []Holding) decimal.Decimal {
	sum := decimal.Zero
	for _, h := range hs {
		if h.Shares <= 0 || !h.Price.IsPositive() {
			continue
		}
		sum = sum.Add(h.Price.Mul(decimal.NewFromInt(h.Shares)).Mul(HaircutOf(h.Class)))
	}
	return sum.Floor()
}

// Limit is the credit limit of a member holding hs with score.
func Limit(hs []Holding, score int) decimal.Decimal {
	return Collateral(hs).Add(BandAmount(score))
}

// Available is what a member may still borrow: the limit less what is used (outstanding principal
// and pending applications), never below zero.
func Available(limit, used decimal.Decimal) decimal.Decimal {
	return decimal.Max(decimal.Zero, limit.Sub(used))
}

// DailyInterest is one day's interest on principal at rate a year, rounded half up to whole NT$.
func DailyInterest(principal, rate decimal.Decimal) decimal.Decimal {
	if !principal.IsPositive() {
		return decimal.Zero
	}
	return principal.Mul(rate).Div(decimal.NewFromInt(DaysPerYear)).Round(0)
}

// Split divides a repayment between the unpaid interest (paid first) and the principal.
func Split(amount, interest decimal.Decimal) (toInterest, toPrincipal decimal.Decimal) {
	toInterest = decimal.Min(amount, decimal.Max(decimal.Zero, interest))
	return toInterest, amount.Sub(toInterest)
}
