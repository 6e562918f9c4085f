package calendar

import (
	"testing"
	"time"
)

func TestIsHoliday(t *testing.T) {
	cal := Taiwan()
	tpe := cal.Location()
	day := func(s string) time.Time {
		d, err := time.ParseInLocation(time.DateOnly, s, tpe)
		if err != nil {
			t.Fatal(err)
		}
		return d.Add(12 * time.Hour)
	}
	tests := []struct {
		name string
		t    time.Time
		want bool
	}{
		{"new year 2026", day("2026-01-01"), true},
		{"first trading day 2026", day("2026-01-02"), false},
		{"last trading day before lunar new year", day("2026-02-11"), false},
		{"settlement-only day", day("2026-02-12"), true},
		{"settlement-only day 2", day("2026-02-13"), true},
		{"lunar new year's eve", day("2026-02-16"), true},
		{"lunar new year observed", day("2026-02-20"), true},
		{"first trading day after lunar new year", day("2026-02-23"), false},
		{"peace memorial observed", day("2026-02-27"), true},
		{"children's day observed", day("2026-04-03"), true},
		{"tomb sweeping observed", day("2026-04-06"), true},
		{"ordinary tuesday", day("2026-04-07"), false},
		{"labour day", day("2026-05-01"), true},
		{"dragon boat", day("2026-06-19"), true},
		{"mid-autumn", day("2026-09-25"), true},
		{"teachers' day", day("2026-09-28"), true},
		{"national day observed", day("2026-10-09"), true},
		{"retrocession observed", day("2026-10-26"), true},
		{"constitution day", day("2026-12-25"), true},
		{"saturday", day("2026-11-21"), true},
		{"sunday", day("2026-11-22"), true},
		{"monday", day("2026-11-23"), false},
		{"new year 2027", day("2027-01-01"), true},
		{"lunar new year 2027", day("2027-02-08"), true},
		{"after lunar new year 2027", day("2027-02-11"), false},
		{"national day observed 2027", day("2027-10-11"), true},
		{"constitution day observed 2027", day("2027-12-24"), true},
		{"ordinary 2027 wednesday", day("2027-12-29"), false},
		// The day is taken in Asia/Taipei, whatever zone the time carries.
		{"UTC evening that is already the holiday in Taipei", time.Date(2026, 2, 11, 16, 30, 0, 0, time.UTC), true},
		{"UTC evening still the trading day in Taipei", time.Date(2026, 2, 11, 15, 59, 0, 0, time.UTC), false},
		{"UTC morning of a Monday holiday", time.Date(2026, 10, 26, 1, 0, 0, 0, time.UTC), true},
		{"Friday 23:30 UTC is Saturday in Taipei", time.Date(2026, 11, 20, 23, 30, 0, 0, time.UTC), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := cal.IsHoliday(tc.t); got != tc.want {
				t.Errorf("IsHoliday(%s) = %v, want %v", tc.t.In(tpe).Format(time.RFC3339), got, tc.want)
			}
			if cal.IsTradingDay(tc.t) == tc.want {
				t.Errorf("IsTradingDay disagrees with IsHoliday")
			}
		})
	}
}

func TestTableIsWeekdaysOnly(t *testing.T) {
	seen := map[string]bool{}
	perYear := map[int]int{}
	for _, h := range twseHolidays {
		d, err := time.Parse(time.DateOnly, h.date)
		if err != nil {
			t.Fatalf("bad date %q: %v", h.date, err)
		}
		if wd := d.Weekday(); wd == time.Saturday || wd == time.Sunday {
			t.Errorf("%s (%s) falls on a %s: the table lists weekdays only", h.date, h.name, wd)
		}
		if seen[h.date] {
			t.Errorf("%s listed twice", h.date)
		}
		if h.name == "" {
			t.Errorf("%s has no name", h.date)
		}
		seen[h.date] = true
		perYear[d.Year()]++
	}
	// TWSE's 2026 schedule closes 18 weekdays.
	if perYear[2026] != 18 {
		t.Errorf("2026 has %d holidays, want 18", perYear[2026])
	}
	if perYear[2027] == 0 {
		t.Errorf("2027 has no holidays")
	}
}

func TestNextTradingDayAndCoverage(t *testing.T) {
	cal := Taiwan()
	tpe := cal.Location()
	tests := []struct{ from, want string }{
		{"2026-02-11", "2026-02-23"},
		{"2026-02-26", "2026-03-02"},
		{"2026-04-02", "2026-04-07"},
		{"2026-12-31", "2027-01-04"},
		{"2027-01-29", "2027-02-01"},
		{"2027-02-01", "2027-02-11"},
	}
	for _, tc := range tests {
		from, _ := time.ParseInLocation(time.DateOnly, tc.from, tpe)
		if got := cal.NextTradingDay(from).Format(time.DateOnly); got != tc.want {
			t.Errorf("NextTradingDay(%s) = %s, want %s", tc.from, got, tc.want)
		}
	}
	if !cal.Covers(time.Date(2026, 6, 1, 0, 0, 0, 0, tpe)) || !cal.Covers(time.Date(2027, 6, 1, 0, 0, 0, 0, tpe)) {
		t.Error("2026 and 2027 must be covered")
	}
	if cal.Covers(time.Date(2028, 6, 1, 0, 0, 0, 0, tpe)) {
		t.Error("2028 is not in the table")
	}
	if got := cal.HolidayName(time.Date(2026, 9, 28, 10, 0, 0, 0, tpe)); got == "" {
		t.Error("Teachers' Day has no name")
	}
	if got := cal.Location().String(); got != "Asia/Taipei" {
		t.Errorf("location %q", got)
	}
}
