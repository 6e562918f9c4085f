package status

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lotbook/lotbook/market/candles"
	"github.com/lotbook/lotbook/market/price"
)

// flat is n quiet days: close 100.00, 1,000 lots each.
func flat(n int) []candles.Bar {
	return slices.Repeat([]candles.Bar{{Close: price.Price(10000), Volume: 1_000_000}}, n)
}

// withCloses sets the closes of the last days of bars (hundredths).
func withCloses(bars []candles.Bar, closes ...int64) []candles.Bar {
	for i, c := range closes {
		bars[len(bars)-len(closes)+i].Close = price.Price(c)
	}
	return bars
}

// withVolumes sets the volumes of the last days of bars.
func withVolumes(bars []candles.Bar, vols ...int64) []candles.Bar {
	for i, v := range vols {
		bars[len(bars)-len(vols)+i].Volume = v
	}
	return bars
}

func TestOf(t *testing.T) {
	const quiet = 1_000_000
	for _, c := range []struct {
		name string
		bars []candles.Bar
		want Status
	}{
		{"no bars", nil, Normal},
		{"quiet", flat(100), Normal},
		{"up exactly 32 % in 6 days is not over it", withCloses(flat(100), 13200), Normal},
		{"up 32.01 % in 6 days", withCloses(flat(100), 13201), Attention},
		{"down 32.01 % in 6 days", withCloses(flat(100), 6799), Attention},
		{"the move is over 6 days, not 7", withCloses(flat(100), 6000, 9000, 9000, 9000, 9000, 9000, 9000, 9000), Normal},
		{"volume exactly 5 times the mean is not over it", withVolumes(flat(100), 5*quiet), Normal},
		{"volume over 5 times the 60-day mean", withVolumes(flat(100), 5*quiet+1), Attention},
		{"attention is the previous day's: a quiet day after clears it", withVolumes(flat(100), 6*quiet, quiet), Normal},
		{"two attention days in a row", withVolumes(flat(100), 6*quiet, 8*quiet), Attention},
		{"three in a row: disposition", withVolumes(flat(100), 6*quiet, 8*quiet, 12*quiet), Disposition},
		{"disposition lasts 10 trading days", withVolumes(flat(100), append([]int64{6 * quiet, 8 * quiet, 12 * quiet}, slices.Repeat([]int64{quiet}, 9)...)...), Disposition},
		{"and ends after them", withVolumes(flat(100), append([]int64{6 * quiet, 8 * quiet, 12 * quiet}, slices.Repeat([]int64{quiet}, 10)...)...), Normal},
		{"two, a break, two: no disposition", withVolumes(flat(100), 6*quiet, 8*quiet, quiet, 6*quiet, 9*quiet), Attention},
		{"a newly listed stock: the move alone", withCloses(flat(7), 10000, 13500), Attention},
		{"a newly listed stock: no volume mean yet", withVolumes(flat(30), 50*quiet), Normal},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Of(c.bars); got != c.want {
				t.Errorf("Of = %s, want %s", got, c.want)
			}
		})
	}
}

// Of over the last Lookback bars says what the whole history's Series says, on every day of a
// history with frequent attention.
func TestOfAgreesWithSeries(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	bars := make([]candles.Bar, 2000)
	c := 10000.0
	for i := range bars {
		c *= 1 + 0.06*(r.Float64()-0.5)
		v := int64(1_000_000)
		if i%50 < r.IntN(5) { // bursts of 0 to 4 busy days
			v *= 20
		}
		bars[i] = candles.Bar{Close: price.Price(c), Volume: v}
	}
	all := Series(bars)
	seen := map[Status]int{}
	for i := range bars {
		seen[all[i]]++
		if got := Of(bars[:i+1]); got != all[i] {
			t.Fatalf("day %d: Of = %s, Series = %s", i, got, all[i])
		}
	}
	if seen[Disposition] == 0 || seen[Attention] == 0 || seen[Normal] == 0 {
		t.Fatalf("the history does not exercise every status: %v", seen)
	}
}
