// Package block holds the published rules of block trades (鉅額交易, market-rules.md 1h): the
// block's price from a premium rate on the reference price, the range a block's price may take,
// what an application freezes, and the checks on an application's lots and bid.
package block

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/fees"
	"github.com/lotbook/lotbook/commands/rules/window"
	"github.com/lotbook/lotbook/events"
)

// Tick is the price step of block trades (market-rules.md 1b: "Block trades tick 0.01").
var Tick = decimal.New(1, -2)

// MaxPremium bounds a premium rate either way: a block's price stays within the regular
// session's ±10 % band (1h: "price range as regular session").
var MaxPremium = decimal.New(10, -2)

// PriceFromPremium is ref × (1 + rate), rounded down to the block tick: the member never pays
// more than the published rate says.
func PriceFromPremium(ref, rate decimal.Decimal) decimal.Decimal {
	return ref.Mul(decimal.NewFromInt(1).Add(rate)).RoundFloor(2)
}

// Refusals of the price and of applications (message keys).
const (
	PriceInvalid    = "price_invalid"
	PriceOutOfBand  = "price_out_of_band"
	PremiumInvalid  = "premium_invalid"
	BelowMinimum    = "block_below_minimum"
	OverDailyCap    = "block_over_daily_cap"
	BidBelowMinimum = "block_bid_below_minimum"
	SizeTooSmall    = "block_size_too_small"
	OverTotal       = "block_over_total"
	PasswordLocked  = "block_password_locked"
)

// Hours are when the exchange takes non-paired block trades (1a: 09:00–17:00, Asia/Taipei, on
// trading days): members' applications are taken then only, so that the broker can cross an
// approved block the day it is applied for.
var Hours = events.TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:00", Close: "17:00", TZ: "Asia/Taipei", ClosedOnHolidays: true}

// InHours reports whether t is within hours w (Hours, or an always-open window in the demo) on a
// day cal does not call a holiday.
func InHours(w events.TimeWindow, t time.Time, cal window.Calendar) bool {
	return window.Open(w, t, cal)
}

// The exchange's minimum block of a single stock (1h): at least MinLots trading units, or a
// value of at least MinValue.
var (
	MinLots  int64 = 500
	MinValue       = decimal.NewFromInt(15_000_000)
)

// CheckSize refuses a block of totalLots at price that the exchange would not take as a block
// trade of a single stock: under MinLots lots and worth under MinValue.
func CheckSize(totalLots int64, price decimal.Decimal) string {
	if totalLots >= MinLots {
		return ""
	}
	if price.Mul(decimal.NewFromInt(totalLots * fees.BoardLot)).GreaterThanOrEqual(MinValue) {
		return ""
	}
	return SizeTooSmall
}

// Take is what an approval of lots leaves of a block's total: the remaining lots, or OverTotal
// when fewer than lots remain. A block without a total (total 0, listed before it was kept)
// takes any lots.
func Take(total, taken, lots int64) (remaining int64, refusal string) {
	if total == 0 {
		return 0, ""
	}
	if taken+lots > total {
		return total - taken, OverTotal
	}
	return total - taken - lots, ""
}

// Locked reports whether failures wrong passwords lock a member out of a block for the day.
func Locked(failures int) bool { return failures >= events.BlockPasswordTries }

// CheckPremium refuses a rate beyond ±MaxPremium or finer than 0.01 % (four decimals).
func CheckPremium(rate decimal.Decimal) string {
	if rate.Abs().GreaterThan(MaxPremium) || !rate.Equal(rate.Truncate(4)) {
		return PremiumInvalid
	}
	return ""
}

// CheckPrice refuses a block price that is not positive, not on the 0.01 tick, or outside the
// day's band [down, up] from the market feed.
func CheckPrice(p, down, up decimal.Decimal) string {
	switch {
	case !p.IsPositive() || !p.Equal(p.Truncate(2)):
		return PriceInvalid
	case p.LessThan(down) || p.GreaterThan(up):
		return PriceOutOfBand
	}
	return ""
}

// Application is what the checks of one application look at. AppliedToday is the member's lots
// in applications to the same block on the same Taipei day that were not rejected.
type Application struct {
	Lots, MinLots, DailyCapLots, AppliedToday int64
	Bid, Price                                decimal.Decimal
}

// Check names the rule an application breaks, "" when it breaks none: lots at least the block's
// minimum, the day's lots at most the daily cap, the bid not below the block's price.
func Check(a Application) string {
	switch {
	case a.Lots < a.MinLots:
		return BelowMinimum
	case a.AppliedToday+a.Lots > a.DailyCapLots:
		return OverDailyCap
	case a.Bid.LessThan(a.Price):
		return BidBelowMinimum
	}
	return ""
}

// Freeze is what an application of shares at bid freezes: the amount at the bid and the board-lot
// commission on it. The fill at the block's price (never above the bid) costs no more.
func Freeze(bid decimal.Decimal, shares int64) decimal.Decimal {
	amount := bid.Mul(decimal.NewFromInt(shares))
	return amount.Add(fees.Commission(amount, false))
}
