package checkin

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func TestDayAtTaipeiMidnight(t *testing.T) {
	for _, c := range []struct {
		utc  string
		want string
	}{
		{"2026-11-23T15:59:59Z", "2026-11-23"}, // 23:59:59 Taipei
		{"2026-11-23T16:00:00Z", "2026-11-24"}, // 00:00 Taipei: a new day
		{"2026-11-24T00:00:00Z", "2026-11-24"}, // UTC midnight is 08:00 Taipei
		{"2026-12-31T16:00:00Z", "2027-01-01"},
		{"2028-02-28T16:30:00Z", "2028-02-29"}, // leap day
	} {
		at, _ := time.Parse(time.RFC3339, c.utc)
		if got := Day(at); got != c.want {
			t.Errorf("Day(%s) = %s, want %s", c.utc, got, c.want)
		}
	}
}

func TestStreak(t *testing.T) {
	for _, c := range []struct {
		name        string
		last        string
		streak      int
		today       string
		want, cycle int
	}{
		{"first check-in", "", 0, "2026-11-24", 1, 1},
		{"next day", "2026-11-23", 1, "2026-11-24", 2, 2},
		{"across a month", "2026-11-30", 4, "2026-12-01", 5, 5},
		{"across a year", "2026-12-31", 6, "2027-01-01", 7, 7},
		{"day 8 starts the next cycle", "2026-11-23", 7, "2026-11-24", 8, 1},
		{"day 14", "2026-11-23", 13, "2026-11-24", 14, 7},
		{"a missed day starts again", "2026-11-22", 5, "2026-11-24", 1, 1},
		{"a long gap", "2025-11-24", 30, "2026-11-24", 1, 1},
		{"leap day", "2028-02-28", 2, "2028-02-29", 3, 3},
	} {
		got := Streak(c.last, c.streak, c.today)
		if got != c.want || CycleDay(got) != c.cycle {
			t.Errorf("%s: streak %d cycle %d, want %d %d", c.name, got, CycleDay(got), c.want, c.cycle)
		}
	}
}

// Two instants one second apart across Taipei midnight are two days in a row; two instants on
// either side of UTC midnight (08:00 Taipei) are the same day.
func TestStreakAtTaipeiMidnightEdges(t *testing.T) {
	before, _ := time.Parse(time.RFC3339, "2026-11-23T15:59:59Z")
	after := before.Add(time.Second)
	if s := Streak(Day(before), 1, Day(after)); s != 2 {
		t.Fatalf("23:59:59 then 00:00:00 Taipei: streak %d, want 2", s)
	}
	a, _ := time.Parse(time.RFC3339, "2026-11-23T23:59:59Z")
	if Day(a) != Day(a.Add(time.Second)) {
		t.Fatal("UTC midnight split a Taipei day")
	}
}

func TestRewardTable(t *testing.T) {
	tab := Table()
	if len(tab) != CycleDays {
		t.Fatalf("table of %d days", len(tab))
	}
	for _, r := range tab {
		wantValue, wantDays := decimal.NewFromInt(5), 7
		if r.CycleDay == 7 {
			wantValue, wantDays = decimal.NewFromInt(50), 30
		}
		if !r.Value.Equal(wantValue) || r.ValidDays != wantDays || r.Uses != 1 {
			t.Errorf("day %d: %+v", r.CycleDay, r)
		}
	}
}

func TestExpiry(t *testing.T) {
	for _, c := range []struct {
		day      string
		days     int
		last     string
		stopsUTC string
	}{
		{"2026-11-24", 1, "2026-11-24", "2026-11-24T16:00:00Z"},
		{"2026-11-24", 7, "2026-11-30", "2026-11-30T16:00:00Z"},
		{"2026-12-25", 30, "2027-01-23", "2027-01-23T16:00:00Z"},
	} {
		last, stops := Expiry(c.day, c.days)
		want, _ := time.Parse(time.RFC3339, c.stopsUTC)
		if last != c.last || !stops.Equal(want) {
			t.Errorf("Expiry(%s, %d) = %s %s, want %s %s", c.day, c.days, last, stops, c.last, want)
		}
		if Expired(stops, stops.Add(-time.Nanosecond)) || !Expired(stops, stops) {
			t.Errorf("%s: expired at the wrong instant", c.day)
		}
	}
}

func TestDiscountCappedAtCommission(t *testing.T) {
	d := decimal.RequireFromString
	for _, c := range []struct{ value, commission, want string }{
		{"50", "71", "50"},
		{"50", "20", "20"},
		{"5", "5", "5"},
		{"50", "0", "0"},
		{"50", "-1", "0"},
	} {
		if got := Discount(d(c.value), d(c.commission)); !got.Equal(d(c.want)) {
			t.Errorf("Discount(%s, %s) = %s, want %s", c.value, c.commission, got, c.want)
		}
	}
}
