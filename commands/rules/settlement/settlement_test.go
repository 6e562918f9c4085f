package settlement

import (
	"testing"
	"time"

	"github.com/lotbook/lotbook/market/calendar"
)

func TestDate(t *testing.T) {
	cal := calendar.Taiwan()
	tw := func(s string) time.Time {
		v, err := time.ParseInLocation("2006-01-02 15:04", s, taipei)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct {
		name, trade, want string
	}{
		{"Monday settles Wednesday", "2026-03-02 10:00", "2026-03-04"},
		{"Thursday settles Monday", "2026-03-05 13:20", "2026-03-09"},
		{"Friday settles Tuesday", "2026-03-06 09:01", "2026-03-10"},
		{"before the 4-6 April holidays (Children's Day, Tomb Sweeping)", "2026-04-02 10:00", "2026-04-08"},
		{"late evening in Taipei", "2026-03-02 23:30", "2026-03-04"},
		// The calendar does not tell the two settlement-only days before the break from holidays,
		// so the proceeds become withdrawable later than the exchange settles: the safe side.
		{"Lunar New Year: 2026-02-11 settles after the break", "2026-02-11 10:00", "2026-02-24"},
		{"a demo trade on a Saturday counts from Saturday", "2026-03-07 10:00", "2026-03-10"},
	}
	for _, c := range cases {
		if got := Date(tw(c.trade), cal); got != c.want {
			t.Errorf("%s: Date(%s) = %s, want %s", c.name, c.trade, got, c.want)
		}
	}
	// 16:30 UTC on Monday is 00:30 on Tuesday in Taipei.
	if got := Date(time.Date(2026, 3, 2, 16, 30, 0, 0, time.UTC), cal); got != "2026-03-05" {
		t.Errorf("Date(Monday 16:30 UTC) = %s, want 2026-03-05", got)
	}
}

func TestSettled(t *testing.T) {
	at := func(s string) time.Time {
		v, _ := time.ParseInLocation("2006-01-02 15:04", s, taipei)
		return v
	}
	cases := []struct {
		date, now string
		want      bool
	}{
		{"2026-03-04", "2026-03-03 23:59", false},
		{"2026-03-04", "2026-03-04 00:00", true},
		{"2026-03-04", "2026-03-05 10:00", true},
	}
	for _, c := range cases {
		if got := Settled(c.date, at(c.now)); got != c.want {
			t.Errorf("Settled(%s, %s) = %v, want %v", c.date, c.now, got, c.want)
		}
	}
}
