package candles

import "testing"

// The intervals a Taiwan broker app offers beside the original ones: 5 and 60 minutes, weeks.
func TestMoreIntervals(t *testing.T) {
	tests := []struct {
		iv       Interval
		at, want string
	}{
		{Min5, "2026-11-20 09:04:59", "2026-11-20 09:00:00"},
		{Min5, "2026-11-20 13:25:00", "2026-11-20 13:25:00"},
		{Min60, "2026-11-20 09:59:59", "2026-11-20 09:00:00"},
		{Min60, "2026-11-20 13:30:00", "2026-11-20 13:00:00"},
		{Week, "2026-11-23 09:00:00", "2026-11-23 00:00:00"}, // a Monday
		{Week, "2026-11-22 13:30:00", "2026-11-16 00:00:00"}, // a Sunday belongs to the week before
		{Week, "2026-11-20 13:30:00", "2026-11-16 00:00:00"},
		{Week, "2027-01-01 10:00:00", "2026-12-28 00:00:00"}, // across the year
	}
	for _, tc := range tests {
		if got := tc.iv.Bucket(tp(tc.at)); !got.Equal(tp(tc.want)) {
			t.Errorf("%s bucket of %s = %s, want %s", tc.iv, tc.at, got.In(Location), tc.want)
		}
		if got := tc.iv.next(tc.iv.Bucket(tp(tc.at))); !got.After(tp(tc.at)) {
			t.Errorf("%s: the candle after %s starts at %s", tc.iv, tc.at, got)
		}
	}
	for _, s := range []string{"5m", "60m", "1w"} {
		if _, err := ParseInterval(s); err != nil {
			t.Errorf("ParseInterval(%s): %v", s, err)
		}
	}
	days := []Bar{
		mk("2026-11-16 00:00:00", 100, 110, 95, 105, 10),
		mk("2026-11-20 00:00:00", 105, 120, 100, 118, 20),
		mk("2026-11-23 00:00:00", 118, 119, 90, 91, 5),
	}
	w := Aggregate(days, Week)
	if len(w) != 2 || w[0].High != 120 || w[0].Low != 95 || w[0].Close != 118 || w[0].Volume != 30 || w[1].Open != 118 {
		t.Fatalf("weeks: %+v", w)
	}
}
