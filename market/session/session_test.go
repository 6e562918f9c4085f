package session

import (
	"testing"
	"time"
)

func at(t *testing.T, s *Schedule, v string) time.Time {
	t.Helper()
	x, err := time.ParseInLocation("2006-01-02 15:04:05", v, s.Location())
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestSessionAt(t *testing.T) {
	s := Taiwan()
	tests := []struct {
		at    string
		phase Phase
		odd   OddLot
	}{
		{"2026-11-23 08:29:59", Closed, OddClosed},
		{"2026-11-23 08:30:00", PreOpen, OddClosed},
		{"2026-11-23 08:59:59", PreOpen, OddClosed},
		{"2026-11-23 09:00:00", Continuous, OddIntraday},
		{"2026-11-23 13:24:59", Continuous, OddIntraday},
		{"2026-11-23 13:25:00", ClosingAuction, OddIntraday},
		{"2026-11-23 13:29:59", ClosingAuction, OddIntraday},
		{"2026-11-23 13:30:00", Closed, OddClosed},
		{"2026-11-23 13:39:59", Closed, OddClosed},
		{"2026-11-23 13:40:00", Closed, OddAfterHours},
		{"2026-11-23 14:00:00", AfterHoursFixed, OddAfterHours},
		{"2026-11-23 14:29:59", AfterHoursFixed, OddAfterHours},
		{"2026-11-23 14:30:00", Closed, OddClosed},
		{"2026-11-23 23:59:59", Closed, OddClosed},
		{"2026-11-22 10:00:00", Closed, OddClosed}, // Sunday
		{"2026-12-25 10:00:00", Closed, OddClosed}, // Constitution Day
		{"2026-02-12 10:00:00", Closed, OddClosed}, // settlement-only day
	}
	for _, tc := range tests {
		got := s.SessionAt(at(t, s, tc.at))
		if got.Phase != tc.phase || got.OddLot != tc.odd {
			t.Errorf("SessionAt(%s) = %s/%s, want %s/%s", tc.at, got.Phase, got.OddLot, tc.phase, tc.odd)
		}
		if (got.Phase != Closed || got.OddLot != OddClosed) && got.Day.IsZero() {
			t.Errorf("SessionAt(%s) has no day", tc.at)
		}
	}
	// The instant is read in Asia/Taipei whatever zone it carries: 01:00 UTC is 09:00 in Taipei.
	if got := s.SessionAt(time.Date(2026, 11, 23, 1, 0, 0, 0, time.UTC)); got.Phase != Continuous {
		t.Errorf("01:00 UTC = %s, want continuous", got.Phase)
	}
}

func TestNextOpenCloseAndTradingDay(t *testing.T) {
	s := Taiwan()
	tests := []struct {
		at, open, close, last, day string
		started                    bool
	}{
		{"2026-11-23 08:00:00", "2026-11-23 09:00:00", "2026-11-23 13:30:00", "2026-11-20 13:30:00", "2026-11-20", false},
		{"2026-11-23 09:00:00", "2026-11-23 09:00:00", "2026-11-23 13:30:00", "2026-11-20 13:30:00", "2026-11-23", true},
		{"2026-11-23 13:30:00", "2026-11-24 09:00:00", "2026-11-23 13:30:00", "2026-11-20 13:30:00", "2026-11-23", true},
		{"2026-11-23 13:30:01", "2026-11-24 09:00:00", "2026-11-24 13:30:00", "2026-11-23 13:30:00", "2026-11-23", true},
		{"2026-11-20 15:00:00", "2026-11-23 09:00:00", "2026-11-23 13:30:00", "2026-11-20 13:30:00", "2026-11-20", true},
		{"2026-11-22 12:00:00", "2026-11-23 09:00:00", "2026-11-23 13:30:00", "2026-11-20 13:30:00", "2026-11-20", false},
		{"2026-02-11 14:00:00", "2026-02-23 09:00:00", "2026-02-23 13:30:00", "2026-02-11 13:30:00", "2026-02-11", true},
		{"2026-12-31 20:00:00", "2027-01-04 09:00:00", "2027-01-04 13:30:00", "2026-12-31 13:30:00", "2026-12-31", true},
	}
	for _, tc := range tests {
		x := at(t, s, tc.at)
		f := func(v time.Time) string { return v.In(s.Location()).Format("2006-01-02 15:04:05") }
		if got := f(s.NextOpen(x)); got != tc.open {
			t.Errorf("NextOpen(%s) = %s, want %s", tc.at, got, tc.open)
		}
		if got := f(s.NextClose(x)); got != tc.close {
			t.Errorf("NextClose(%s) = %s, want %s", tc.at, got, tc.close)
		}
		if got := f(s.LastClose(x)); got != tc.last {
			t.Errorf("LastClose(%s) = %s, want %s", tc.at, got, tc.last)
		}
		day, started := s.TradingDay(x)
		if day.Format(time.DateOnly) != tc.day || started != tc.started {
			t.Errorf("TradingDay(%s) = %s %v, want %s %v", tc.at, day.Format(time.DateOnly), started, tc.day, tc.started)
		}
	}
	if got := s.PrevTradingDay(at(t, s, "2026-02-23 10:00:00")).Format(time.DateOnly); got != "2026-02-11" {
		t.Errorf("PrevTradingDay after lunar new year = %s", got)
	}
}

func TestDemoTradesAroundTheClock(t *testing.T) {
	s := Demo()
	tests := []struct {
		at    string
		phase Phase
	}{
		{"2026-11-22 00:00:00", Continuous}, // a Sunday
		{"2026-11-22 03:17:00", Continuous},
		{"2026-12-25 12:00:00", Continuous}, // a holiday
		{"2026-11-22 23:49:59", Continuous},
		{"2026-11-22 23:50:00", ClosingAuction},
		{"2026-11-22 23:55:00", Closed},
	}
	for _, tc := range tests {
		if got := s.SessionAt(at(t, s, tc.at)).Phase; got != tc.phase {
			t.Errorf("demo SessionAt(%s) = %s, want %s", tc.at, got, tc.phase)
		}
	}
	if got := s.NextTradingDay(at(t, s, "2026-11-22 23:56:00")).Format(time.DateOnly); got != "2026-11-23" {
		t.Errorf("demo NextTradingDay = %s", got)
	}
}

// The after-hours sessions take orders in the exchange's hours only (盤後零股 13:40–14:30, 盤後定價
// 14:00–14:30, one auction when entry ends), and in the demo beside the day's sessions until 23:55,
// with an auction every minute; a demo holiday trades too.
func TestAfterHoursSessionsTakeOrders(t *testing.T) {
	tests := []struct {
		demo          bool
		at            string
		fixed, oddAfh bool
	}{
		{false, "2026-11-23 10:00:00", false, false},
		{false, "2026-11-23 13:39:59", false, false},
		{false, "2026-11-23 13:40:00", false, true},
		{false, "2026-11-23 13:59:59", false, true},
		{false, "2026-11-23 14:00:00", true, true},
		{false, "2026-11-23 14:29:59", true, true},
		{false, "2026-11-23 14:30:00", false, false},
		{false, "2026-11-23 20:00:00", false, false},
		{false, "2026-11-22 14:10:00", false, false}, // Sunday
		{true, "2026-11-23 00:00:00", true, true},
		{true, "2026-11-23 10:00:00", true, true},
		{true, "2026-11-23 20:00:00", true, true},
		{true, "2026-12-25 03:00:00", true, true}, // a holiday
		{true, "2026-11-23 23:54:59", true, true},
		{true, "2026-11-23 23:55:00", false, false},
	}
	for _, tc := range tests {
		s := Taiwan()
		if tc.demo {
			s = Demo()
		}
		got := s.SessionAt(at(t, s, tc.at))
		if got.FixedPrice != tc.fixed || got.OddAfterHours != tc.oddAfh {
			t.Errorf("demo %v SessionAt(%s): fixed price %v, after-hours odd lot %v; want %v, %v", tc.demo, tc.at, got.FixedPrice, got.OddAfterHours, tc.fixed, tc.oddAfh)
		}
	}
	// The demo's board-lot and intraday odd-lot sessions are unchanged beside them.
	d := Demo()
	if got := d.SessionAt(at(t, d, "2026-11-23 14:10:00")); got.Phase != Continuous || got.OddLot != OddIntraday {
		t.Errorf("demo at 14:10 = %s/%s, want continuous/intraday", got.Phase, got.OddLot)
	}
	if Taiwan().Hours().AfterHoursEvery != 0 || d.Hours().AfterHoursEvery != time.Minute {
		t.Errorf("after-hours auction cadence: exchange %s (want one at 14:30), demo %s (want 1m)", Taiwan().Hours().AfterHoursEvery, d.Hours().AfterHoursEvery)
	}
}
