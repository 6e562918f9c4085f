// Package status is the simulated market's published trading status of a stock on a trading day:
// normal, 注意股 (attention) or 處置股 (disposition), computed from the daily bars before that day
// alone, so every instance of the app agrees on it.
//
// The rule is a simplification of the TWSE's 公布或通知注意交易資訊暨處置作業要點 (market-rules 1e:
// disposed stocks are excluded from 現股當沖). The exchange has a dozen attention criteria, price
// filters and a market-relative test, and disposes after 3 consecutive, 5 consecutive, 6 of 10 or
// 12 of 30 attention days; lotbook keeps the two criteria a member sees most often and the first
// disposition trigger:
//
//   - attention (注意) on day D when, at the close of day D−1, the 6-trading-day cumulative close
//     change exceeds ±MoveLimit, or the day's volume is more than VolumeMultiple times its mean
//     over the 60 trading days before;
//   - disposition (處置) on day D when some 3 consecutive trading days, the last of them within the
//     DispositionDays days before D, were attention days: a run of 3 puts the stock in disposition
//     for the 10 trading days after it, and a longer run extends it.
package status

import (
	"github.com/lotbook/lotbook/market/candles"
)

// Status is a stock's trading status on a day.
type Status string

// Statuses, as the API shows them.
const (
	Normal      Status = "normal"
	Attention   Status = "attention"   // 注意股: flagged after the previous day's close
	Disposition Status = "disposition" // 處置股: no 現股當沖 (market-rules 1e)
)

// The thresholds, simplified from the TWSE rules (the exchange: 6-day cumulative change over
// 32 % and 20 points beyond the market's; 6-day mean volume over 5 times the 60-day mean; lotbook
// drops the market-relative and price filters and tests one day's volume). Measured on the
// simulator (seed 42, 2,274 instruments, the 250 trading days to 2026-11-20; the market package's
// TestStatusFrequency): 10.5 attention and 9.4 disposition stocks a day on average, at most 28
// in disposition. A 25 % move would put 40 a day in disposition, 35 % about 5.
const (
	MoveDays        = 6  // trading days of the cumulative close change
	MoveLimit       = 32 // percent, either way
	VolumeDays      = 60 // trading days of the mean volume
	VolumeMultiple  = 5  // a day's volume above this many times the mean is abnormal
	Consecutive     = 3  // attention days in a row that put a stock in disposition
	DispositionDays = 10 // trading days a disposition lasts
)

// Lookback is how many daily bars before a day decide its status: the attention of the
// Consecutive+DispositionDays−1 days before it, each needing VolumeDays bars before it.
const Lookback = VolumeDays + Consecutive + DispositionDays - 1

// attention tells whether bars[i] is an attention day; it needs the bars before it and is false
// without enough of them (a newly listed stock).
func attention(bars []candles.Bar, i int) bool {
	if i >= MoveDays && bars[i-MoveDays].Close > 0 {
		// |c/c0 − 1| > MoveLimit % exactly, in integers.
		c, c0 := int64(bars[i].Close), int64(bars[i-MoveDays].Close)
		if d := (c - c0) * 100; d > MoveLimit*c0 || -d > MoveLimit*c0 {
			return true
		}
	}
	if i >= VolumeDays {
		var sum int64
		for _, b := range bars[i-VolumeDays : i] {
			sum += b.Volume
		}
		// volume > multiple × sum/VolumeDays, without division.
		if sum > 0 && bars[i].Volume*VolumeDays > VolumeMultiple*sum {
			return true
		}
	}
	return false
}

// Series is the status on the trading day after each bar: out[i] is the status of the day that
// follows bars[i], from bars[:i+1] alone. Bars are consecutive trading days, oldest first.
func Series(bars []candles.Bar) []Status {
	out := make([]Status, len(bars))
	run, left := 0, 0 // attention days in a row; disposition days left
	for i := range bars {
		if attention(bars, i) {
			run++
		} else {
			run = 0
		}
		if run >= Consecutive {
			left = DispositionDays
		}
		switch {
		case left > 0:
			out[i] = Disposition
			left--
		case run > 0:
			out[i] = Attention
		default:
			out[i] = Normal
		}
	}
	return out
}

// Of is the status on the trading day after the last of bars (consecutive trading days, oldest
// first; the last Lookback of them decide it).
func Of(bars []candles.Bar) Status {
	if len(bars) == 0 {
		return Normal
	}
	s := Series(bars[max(0, len(bars)-Lookback):])
	return s[len(s)-1]
}
