// Package candles builds OHLCV candles (with turnover) from trades at the intervals the app shows
// (1, 3, 5, 15, 30 and 60 minutes, day, week, month, year), aligned to Asia/Taipei, and answers paged queries
// from a per-symbol bounded in-memory store backed by older history (the simulator's generated
// bars, or nothing for a live feed).
package candles

import (
	"fmt"
	"time"

	"github.com/lotbook/lotbook/market/price"
)

// Interval is a candle length as the API names it.
type Interval string

const (
	Min1  Interval = "1m"
	Min3  Interval = "3m"
	Min5  Interval = "5m"
	Min15 Interval = "15m"
	Min30 Interval = "30m"
	Min60 Interval = "60m"
	Day   Interval = "1d"
	Week  Interval = "1w"
	Month Interval = "1M"
	Year  Interval = "1y"
)

// Intervals lists every supported interval, shortest first.
var Intervals = []Interval{Min1, Min3, Min5, Min15, Min30, Min60, Day, Week, Month, Year}

// ParseInterval accepts exactly the API's names.
func ParseInterval(s string) (Interval, error) {
	for _, iv := range Intervals {
		if string(iv) == s {
			return iv, nil
		}
	}
	return "", fmt.Errorf("unknown candle interval %q", s)
}

// Base is the stored resolution an interval is aggregated from.
type Base int

const (
	Minutes Base = iota // 1-minute bars
	Days                // daily bars
)

// Base is the resolution iv is built from.
func (iv Interval) Base() Base {
	switch iv {
	case Day, Week, Month, Year:
		return Days
	}
	return Minutes
}

// PerBucket is about how many base bars one candle of iv holds (trading days for months and years).
func (iv Interval) PerBucket() int {
	switch iv {
	case Min3:
		return 3
	case Min5:
		return 5
	case Min60:
		return 60
	case Week:
		return 5
	case Min15:
		return 15
	case Min30:
		return 30
	case Month:
		return 23
	case Year:
		return 250
	}
	return 1
}

// Location is Asia/Taipei, shared by the market packages so that equal instants also compare
// equal with ==.
var Location = func() *time.Location {
	if loc, err := time.LoadLocation("Asia/Taipei"); err == nil {
		return loc
	}
	return time.FixedZone("Asia/Taipei", 8*60*60)
}()

// Bucket is the start of iv's candle that contains t, aligned in Asia/Taipei: minutes from
// midnight, days at midnight, weeks on Monday, months on the 1st, years on January 1st.
func (iv Interval) Bucket(t time.Time) time.Time {
	l := t.In(Location)
	switch iv {
	case Day:
		return time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, Location)
	case Week:
		back := (int(l.Weekday()) + 6) % 7 // days since Monday
		return time.Date(l.Year(), l.Month(), l.Day()-back, 0, 0, 0, 0, Location)
	case Month:
		return time.Date(l.Year(), l.Month(), 1, 0, 0, 0, 0, Location)
	case Year:
		return time.Date(l.Year(), 1, 1, 0, 0, 0, 0, Location)
	}
	n := iv.PerBucket()
	mid := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, Location)
	m := int(l.Sub(mid) / time.Minute)
	return mid.Add(time.Duration(m/n*n) * time.Minute)
}

// next is the start of the candle after the one starting at b.
func (iv Interval) next(b time.Time) time.Time {
	switch iv {
	case Day:
		return b.AddDate(0, 0, 1)
	case Week:
		return b.AddDate(0, 0, 7)
	case Month:
		return b.AddDate(0, 1, 0)
	case Year:
		return b.AddDate(1, 0, 0)
	}
	return b.Add(time.Duration(iv.PerBucket()) * time.Minute)
}

// Bar is one candle. Prices and turnover are exact (hundredths of NT$); Volume is in shares.
type Bar struct {
	Time                   time.Time // start of the candle
	Open, High, Low, Close price.Price
	Volume                 int64
	Turnover               price.Price
}

// merge folds a later bar b into a.
func (a *Bar) merge(b Bar) {
	if b.High > a.High {
		a.High = b.High
	}
	if b.Low < a.Low {
		a.Low = b.Low
	}
	a.Close = b.Close
	a.Volume += b.Volume
	a.Turnover += b.Turnover
}

// Aggregate folds base bars (oldest first) into candles of iv.
func Aggregate(bars []Bar, iv Interval) []Bar {
	var out []Bar
	for _, b := range bars {
		start := iv.Bucket(b.Time)
		if n := len(out); n > 0 && out[n-1].Time.Equal(start) {
			out[n-1].merge(b)
			continue
		}
		b.Time = start
		out = append(out, b)
	}
	return out
}
