package sim

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lotbook/lotbook/market/candles"
	"github.com/lotbook/lotbook/market/instruments"
)

// TestMarketLooksReal measures the simulated market the way a chart reader would, over many
// instruments and days, and holds it to what real Taiwan sessions look like:
//   - one-minute closes do not flip between two ticks: the lag-1 autocorrelation of one-minute
//     returns is not strongly negative, and an hour of trading touches several prices;
//   - every interval has enough candles: ten years of daily bars, a hundred monthly ones;
//   - the session is U-shaped: the first and last half hours trade far more than midday;
//   - volatility follows the instrument: large caps and ETFs move much less than small caps.
//
// The simulator before its price process had regimes and a hysteresis grid failed the first two
// (autocorrelation -0.12, 35 % exact reversals, three years of history) and the last.
func TestMarketLooksReal(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	s := newSim(t, 3, at("2026-11-20 14:00:00"))
	all := instruments.MustDefault().All()

	var sample []int // every 8th instrument, indices-free
	for i := 0; i < len(all); i += 8 {
		sample = append(sample, i)
	}

	// Minute level: the last five trading days of each sampled instrument.
	var acs []float64
	var distinct []float64
	var flips, moves int
	var openVol, closeVol, midVol float64
	for _, i := range sample {
		mins := s.Bars(all[i].Code, candles.Minutes, time.Time{}, 5*300)
		for _, dayMins := range splitDays(mins) {
			var rets []float64
			for j := 1; j < len(dayMins); j++ {
				rets = append(rets, math.Log(dayMins[j].Close.Float()/dayMins[j-1].Close.Float()))
			}
			for j := 1; j < len(rets); j++ {
				if rets[j-1] != 0 && rets[j] != 0 {
					moves++
					if math.Abs(rets[j]+rets[j-1]) < 1e-12 {
						flips++
					}
				}
			}
			if ac, ok := lag1(rets); ok {
				acs = append(acs, ac)
			}
			// Distinct closes in each full hour of continuous trading (09:00-13:00).
			for h := 9; h < 13; h++ {
				seen := map[int64]bool{}
				for _, b := range dayMins {
					if b.Time.Hour() == h {
						seen[int64(b.Close)] = true
					}
				}
				if len(seen) > 0 {
					distinct = append(distinct, float64(len(seen)))
				}
			}
			for _, b := range dayMins {
				m := b.Time.Hour()*60 + b.Time.Minute()
				v := float64(b.Volume)
				switch {
				case m < 9*60+30:
					openVol += v
				case m >= 13*60 && m <= 13*60+30: // with the closing auction
					closeVol += v
				case m >= 11*60 && m < 11*60+30:
					midVol += v
				}
			}
		}
	}
	acMean := mean(acs)
	flipShare := float64(flips) / float64(max(1, moves))
	distinctMedian := median(distinct)
	t.Logf("minutes: %d instrument-days; lag-1 autocorrelation of 1m returns mean %.3f; %.0f%% of consecutive moves are exact reversals; median distinct closes per hour %.1f",
		len(acs), acMean, 100*flipShare, distinctMedian)
	t.Logf("volume: first half hour %.2f×, last half hour (with the closing auction) %.2f× the 11:00-11:30 half hour", openVol/midVol, closeVol/midVol)
	if acMean < -0.05 || acMean > 0.25 {
		t.Errorf("lag-1 autocorrelation of one-minute returns %.3f, want within [-0.05, 0.25]", acMean)
	}
	if flipShare > 0.3 {
		t.Errorf("%.0f%% of consecutive one-minute moves reverse exactly (a two-tick flip), want at most 30%%", 100*flipShare)
	}
	if distinctMedian < 4 {
		t.Errorf("median distinct one-minute closes per hour %.1f, want at least 4", distinctMedian)
	}
	if openVol < 2*midVol || closeVol < 2*midVol {
		t.Errorf("volume open %.0f, close %.0f vs midday %.0f: want a U-shaped session", openVol, closeVol, midVol)
	}

	var large, etf, small []float64
	minDays, minMonths, minYears := math.MaxInt, math.MaxInt, math.MaxInt
	// Day level: every 4th instrument and every large cap.
	var daySample []int
	for i, in := range all {
		if i%4 == 0 || in.RefPrice.Float()*float64(in.Shares) > 5e11 {
			daySample = append(daySample, i)
		}
	}
	caps := make([]float64, 0, len(daySample))
	for _, i := range daySample {
		caps = append(caps, all[i].RefPrice.Float()*float64(all[i].Shares))
	}
	slices.Sort(caps)
	smallCap := caps[len(caps)/4]
	for _, i := range daySample {
		in := all[i]
		days := s.Bars(in.Code, candles.Days, time.Time{}, 20000)
		minDays = min(minDays, len(days))
		minMonths = min(minMonths, len(candles.Aggregate(days, candles.Month)))
		minYears = min(minYears, len(candles.Aggregate(days, candles.Year)))
		var rets []float64
		for j := 1; j < len(days); j++ {
			rets = append(rets, math.Log(days[j].Close.Float()/days[j-1].Close.Float()))
		}
		vol := stddev(rets) * math.Sqrt(245)
		capNT := in.RefPrice.Float() * float64(in.Shares)
		switch {
		case in.Type == instruments.ETFType:
			if !strings.ContainsAny(in.Code[len(in.Code)-1:], "LRUB") {
				etf = append(etf, vol)
			}
		case capNT > 5e11:
			large = append(large, vol)
		case capNT <= smallCap:
			small = append(small, vol)
		}
	}
	t.Logf("history: at least %d daily, %d monthly, %d yearly bars per instrument", minDays, minMonths, minYears)
	t.Logf("annualised volatility (median): large caps %.2f (%d), ETFs %.2f (%d), small caps %.2f (%d)",
		median(large), len(large), median(etf), len(etf), median(small), len(small))
	if minDays < 2450 {
		t.Errorf("%d daily bars, want at least ten years (2,450)", minDays)
	}
	if minMonths < 100 {
		t.Errorf("%d monthly bars, want at least 100", minMonths)
	}
	if minYears < 10 {
		t.Errorf("%d yearly bars, want at least 10", minYears)
	}
	if len(large) == 0 || len(etf) == 0 || len(small) == 0 {
		t.Fatalf("classes: %d large caps, %d ETFs, %d small caps in the sample", len(large), len(etf), len(small))
	}
	// Real Taiwan figures: 0050 about 18 % a year, TSMC under 30 %, small caps 40 % to 60 %.
	if median(small) < 1.6*median(large) || median(small) < 1.6*median(etf) || median(etf) > 0.22 || median(small) < 0.35 {
		t.Errorf("volatility: large caps %.2f, ETFs %.2f, small caps %.2f; want ETFs under 0.22 and small caps at least 1.6 times as volatile as large caps and ETFs",
			median(large), median(etf), median(small))
	}
}

// splitDays cuts minute bars into trading days.
func splitDays(bars []candles.Bar) [][]candles.Bar {
	var out [][]candles.Bar
	for i := 0; i < len(bars); {
		j := i
		for j < len(bars) && bars[j].Time.YearDay() == bars[i].Time.YearDay() {
			j++
		}
		out = append(out, bars[i:j])
		i = j
	}
	return out
}

// lag1 is the lag-1 autocorrelation of x, false when x is too short or constant.
func lag1(x []float64) (float64, bool) {
	if len(x) < 30 {
		return 0, false
	}
	m := mean(x)
	var num, den float64
	for i := range x {
		d := x[i] - m
		den += d * d
		if i > 0 {
			num += d * (x[i-1] - m)
		}
	}
	if den == 0 {
		return 0, false
	}
	return num / den, true
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(max(1, len(x)))
}

func stddev(x []float64) float64 {
	m := mean(x)
	s := 0.0
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return math.Sqrt(s / float64(max(1, len(x)-1)))
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	y := slices.Clone(x)
	slices.Sort(y)
	return y[len(y)/2]
}
