// Package checkin holds the published rules of the daily check-in and its coupons: the Taipei
// calendar day of an instant, the streak, the reward table and a coupon's expiry.
//
// The rule as members read it: one check-in per Asia/Taipei calendar day (midnight to midnight,
// UTC+8). The streak counts consecutive days; a missed day starts it again at 1. The reward of a
// check-in is the table's entry for its place in a cycle of seven days (streak 8 is day 1 of the
// next cycle): days 1 to 6 a NT$5 commission coupon valid 7 days, day 7 a NT$50 commission coupon
// valid 30 days. A coupon is valid through the end (Taipei midnight) of its expiry day: the day
// it is granted counts as its first.
package checkin

import (
	"time"

	"github.com/shopspring/decimal"
)

// Taipei is the check-in's calendar (UTC+8, no daylight saving).
var Taipei = time.FixedZone("Asia/Taipei", 8*60*60)

// CycleDays is the length of the reward cycle.
const CycleDays = 7

// Reward is one entry of the published table: a commission coupon of Value NT$, Uses orders,
// valid ValidDays days counting the day of the check-in.
type Reward struct {
	CycleDay  int
	Value     decimal.Decimal
	Uses      int
	ValidDays int
}

// Table is the published reward table, one entry per day of the cycle.
func Table() []Reward {
	out := make([]Reward, 0, CycleDays)
	for d := 1; d <= CycleDays; d++ {
		out = append(out, RewardOf(d))
	}
	return out
}

// RewardOf is the table's entry for a day of the cycle (1..7).
func RewardOf(cycleDay int) Reward {
	if cycleDay == CycleDays {
		return Reward{CycleDay: cycleDay, Value: decimal.NewFromInt(50), Uses: 1, ValidDays: 30}
	}
	return Reward{CycleDay: cycleDay, Value: decimal.NewFromInt(5), Uses: 1, ValidDays: 7}
}

// Day is the Taipei calendar day of t, as YYYY-MM-DD.
func Day(t time.Time) string { return t.In(Taipei).Format(time.DateOnly) }

// parseDay reads a YYYY-MM-DD day as Taipei midnight.
func parseDay(day string) (time.Time, bool) {
	t, err := time.ParseInLocation(time.DateOnly, day, Taipei)
	return t, err == nil
}

// AddDays is the day n calendar days after day ("" when day is not a date).
func AddDays(day string, n int) string {
	t, ok := parseDay(day)
	if !ok {
		return ""
	}
	return t.AddDate(0, 0, n).Format(time.DateOnly)
}

// Streak is the streak after checking in on today, given the last check-in's day and its streak:
// one more when last was the day before, else 1 (a first check-in, or a missed day).
func Streak(last string, streak int, today string) int {
	if last != "" && AddDays(last, 1) == today && streak > 0 {
		return streak + 1
	}
	return 1
}

// CycleDay is the place of a streak in the reward cycle (1..7).
func CycleDay(streak int) int {
	if streak < 1 {
		return 1
	}
	return (streak-1)%CycleDays + 1
}

// Expiry is the last day a coupon granted on day and valid validDays days may be used, and the
// instant it stops: the Taipei midnight that ends that day.
func Expiry(day string, validDays int) (string, time.Time) {
	last := AddDays(day, validDays-1)
	t, _ := parseDay(AddDays(last, 1))
	return last, t.UTC()
}

// Expired tells whether a coupon that stops at expiresAt is expired at now.
func Expired(expiresAt, now time.Time) bool { return !now.Before(expiresAt) }

// Discount is what a commission coupon of value takes off a commission: value, capped at the
// commission actually charged (never negative).
func Discount(value, commission decimal.Decimal) decimal.Decimal {
	if commission.IsNegative() {
		return decimal.Zero
	}
	return decimal.Min(value, commission)
}
