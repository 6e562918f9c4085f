// Package calendar is the Taiwan exchange's trading-day calendar: weekends and the market
// holidays that TWSE publishes each year, kept here as data.
package calendar

import (
	"fmt"
	"time"
)

// Calendar answers whether a day is a non-trading day of one exchange, in the exchange's zone.
type Calendar struct {
	loc      *time.Location
	holidays map[civilDate]string
	first    int // first year covered by the table
	last     int // last year covered by the table
}

type civilDate struct {
	y int
	m time.Month
	d int
}

// Taiwan is the calendar of TWSE (TPEx follows the same schedule), in Asia/Taipei.
func Taiwan() *Calendar {
	c := &Calendar{loc: taipei(), holidays: map[civilDate]string{}, first: 0, last: 0}
	for _, h := range twseHolidays {
		t, err := time.Parse(time.DateOnly, h.date)
		if err != nil {
			panic(fmt.Sprintf("calendar: bad holiday date %q: %v", h.date, err))
		}
		c.holidays[civilDate{t.Year(), t.Month(), t.Day()}] = h.name
		if c.first == 0 || t.Year() < c.first {
			c.first = t.Year()
		}
		if t.Year() > c.last {
			c.last = t.Year()
		}
	}
	return c
}

// taipei loads Asia/Taipei; without a zone database it falls back to UTC+8, which Taiwan has
// kept without daylight saving since 1979.
func taipei() *time.Location {
	if loc, err := time.LoadLocation("Asia/Taipei"); err == nil {
		return loc
	}
	return time.FixedZone("Asia/Taipei", 8*60*60)
}

// Location is the exchange's time zone.
func (c *Calendar) Location() *time.Location { return c.loc }

// IsHoliday reports whether the calendar day of t in Asia/Taipei is not a trading day: a Saturday,
// a Sunday, or a published market holiday (including the days before the Lunar New Year on which
// the market does not trade and only settles).
func (c *Calendar) IsHoliday(t time.Time) bool {
	local := t.In(c.loc)
	if wd := local.Weekday(); wd == time.Saturday || wd == time.Sunday {
		return true
	}
	_, ok := c.holidays[civilDate{local.Year(), local.Month(), local.Day()}]
	return ok
}

// IsTradingDay is the opposite of IsHoliday.
func (c *Calendar) IsTradingDay(t time.Time) bool { return !c.IsHoliday(t) }

// HolidayName names the market holiday on t's day in Asia/Taipei, or "" when it is none (weekends
// have no name).
func (c *Calendar) HolidayName(t time.Time) string {
	local := t.In(c.loc)
	return c.holidays[civilDate{local.Year(), local.Month(), local.Day()}]
}

// Covers reports whether the table holds the published holidays of t's year; outside it only
// weekends are known.
func (c *Calendar) Covers(t time.Time) bool {
	y := t.In(c.loc).Year()
	return y >= c.first && y <= c.last
}

// NextTradingDay returns the start (00:00 Asia/Taipei) of the first trading day after t's day.
func (c *Calendar) NextTradingDay(t time.Time) time.Time {
	local := t.In(c.loc)
	day := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, c.loc)
	for {
		day = day.AddDate(0, 0, 1)
		if !c.IsHoliday(day) {
			return day
		}
	}
}
