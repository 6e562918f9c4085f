// Package settlement dates trades: Taiwan settles T+2 (market-rules.md 1d), counted in trading
// days of the exchange calendar, in Asia/Taipei. Sale proceeds are available for trading at once
// and withdrawable from the settlement day on.
package settlement

import "time"

// Days is the settlement lag in trading days.
const Days = 2

// Calendar tells exchange holidays (market/calendar implements it for Taiwan).
type Calendar interface {
	IsHoliday(day time.Time) bool
}

// taipei is UTC+8; Taiwan has kept it without daylight saving since 1979.
var taipei = time.FixedZone("Asia/Taipei", 8*60*60)

// Layout is how settlement dates are written: the civil date in Asia/Taipei.
const Layout = time.DateOnly

// Date is the settlement date of a trade made at t: the Days-th trading day after t's day in
// Asia/Taipei. A trade on a non-trading day (the around-the-clock demo market) counts from that
// day as well. The calendar's settlement-only days (before the Lunar New Year) count as holidays,
// which dates proceeds a little later than the exchange settles them, never earlier.
func Date(t time.Time, cal Calendar) string {
	l := t.In(taipei)
	day := time.Date(l.Year(), l.Month(), l.Day(), 12, 0, 0, 0, taipei) // noon: safe from any zone edge
	for n := 0; n < Days; {
		day = day.AddDate(0, 0, 1)
		if cal == nil || !cal.IsHoliday(day) {
			n++
		}
	}
	return day.Format(Layout)
}

// Settled reports whether a trade with settlement date date (Layout) has settled at t.
func Settled(date string, t time.Time) bool {
	return t.In(taipei).Format(Layout) >= date
}
