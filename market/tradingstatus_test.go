package market

import (
	"testing"
	"time"

	"github.com/lotbook/lotbook/market/candles"
	"github.com/lotbook/lotbook/market/status"
)

// TestStatusFrequency measures the attention / disposition rule over every instrument and a year
// of trading days: a handful of stocks in disposition on a typical day, about as many attention
// stocks, never a large share of the market. Each quote's status is the one the bars before its
// day give.
func TestStatusFrequency(t *testing.T) {
	s, _ := newService(t, time.Date(2026, 11, 20, 10, 0, 0, 0, tpe))
	const days = 250
	att := make([]int, days)
	disp := make([]int, days)
	all := s.cat.All()
	for _, in := range all {
		bars := s.sim.Bars(in.Code, candles.Days, time.Time{}, days+status.Lookback)
		if len(bars) < days {
			continue
		}
		ser := status.Series(bars)
		// The last bar is today's, so the one before it decides today's status.
		if q, err := s.Quote(in.Code); err != nil || q.Status != ser[len(ser)-2] {
			t.Fatalf("%s: quote status %q (%v), the bars give %q", in.Code, q.Status, err, ser[len(ser)-2])
		}
		for d, st := range ser[len(ser)-days-1 : len(ser)-1] {
			switch st {
			case status.Attention:
				att[d]++
			case status.Disposition:
				disp[d]++
			}
		}
	}
	mean := func(xs []int) float64 {
		sum := 0
		for _, x := range xs {
			sum += x
		}
		return float64(sum) / float64(len(xs))
	}
	quiet, most := 0, 0
	for _, n := range disp {
		if n == 0 {
			quiet++
		}
		most = max(most, n)
	}
	ma, md := mean(att), mean(disp)
	t.Logf("%d instruments, %d days: attention %.1f a day, disposition %.1f a day (max %d, %d days with none)",
		len(all), days, ma, md, most, quiet)
	if md < 2 || md > 20 || ma < md || ma > 0.05*float64(len(all)) || float64(most) > 0.02*float64(len(all)) {
		t.Errorf("the rule triggers out of its tuned range")
	}
}
