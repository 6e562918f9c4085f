package window

import (
	"testing"
	"time"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market/calendar"
)

func TestOpen(t *testing.T) {
	tpe, err := time.LoadLocation("Asia/Taipei")
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time {
		v, err := time.ParseInLocation("2006-01-02 15:04", s, tpe)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	weekdays := events.TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:30", Close: "19:30", TZ: "Asia/Taipei", ClosedOnHolidays: true}
	ignoresHolidays := weekdays
	ignoresHolidays.ClosedOnHolidays = false
	always := events.TimeWindow{AlwaysOpen: true}
	broken := events.TimeWindow{Weekdays: []int{1}, Open: "19:30", Close: "09:30", TZ: "Asia/Taipei"}
	cal := calendar.Taiwan()

	tests := []struct {
		name string
		w    events.TimeWindow
		t    time.Time
		cal  Calendar
		want bool
	}{
		{"monday at opening", weekdays, at("2026-11-23 09:30"), cal, true},
		{"monday one minute before opening", weekdays, at("2026-11-23 09:29"), cal, false},
		{"monday last minute", weekdays, at("2026-11-23 19:29"), cal, true},
		{"monday at close", weekdays, at("2026-11-23 19:30"), cal, false},
		{"friday noon", weekdays, at("2026-11-27 12:00"), cal, true},
		{"saturday noon", weekdays, at("2026-11-28 12:00"), cal, false},
		{"sunday noon", weekdays, at("2026-11-22 12:00"), cal, false},
		{"exchange holiday on a weekday", weekdays, at("2026-12-25 12:00"), cal, false},
		{"holiday ignored when not closed on holidays", ignoresHolidays, at("2026-12-25 12:00"), cal, true},
		{"no calendar knows no holidays", weekdays, at("2026-12-25 12:00"), nil, true},
		{"UTC time converted to Taipei: 01:30Z is 09:30", weekdays, time.Date(2026, 11, 23, 1, 30, 0, 0, time.UTC), cal, true},
		{"UTC time converted to Taipei: 11:30Z is 19:30", weekdays, time.Date(2026, 11, 23, 11, 30, 0, 0, time.UTC), cal, false},
		{"UTC sunday evening is monday in Taipei", weekdays, time.Date(2026, 11, 22, 23, 0, 0, 0, time.UTC).Add(3 * time.Hour), cal, true},
		{"always open on a holiday at night", always, at("2026-12-25 03:00"), cal, true},
		{"broken window is never open", broken, at("2026-11-23 12:00"), cal, false},
		{"unknown zone is never open", events.TimeWindow{Weekdays: []int{1}, Open: "00:00", Close: "23:59", TZ: "Mars/Olympus"}, at("2026-11-23 12:00"), cal, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Open(tc.w, tc.t, tc.cal); got != tc.want {
				t.Errorf("Open = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	ok := events.TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:30", Close: "19:30", TZ: "Asia/Taipei"}
	with := func(f func(w *events.TimeWindow)) events.TimeWindow {
		w := ok
		w.Weekdays = append([]int(nil), ok.Weekdays...)
		f(&w)
		return w
	}
	tests := []struct {
		name  string
		w     events.TimeWindow
		valid bool
	}{
		{"weekdays 09:30-19:30", ok, true},
		{"always open needs nothing", events.TimeWindow{AlwaysOpen: true}, true},
		{"whole day", with(func(w *events.TimeWindow) { w.Open, w.Close = "00:00", "23:59" }), true},
		{"no weekdays", with(func(w *events.TimeWindow) { w.Weekdays = nil }), false},
		{"weekday 7", with(func(w *events.TimeWindow) { w.Weekdays = []int{7} }), false},
		{"weekday -1", with(func(w *events.TimeWindow) { w.Weekdays = []int{-1} }), false},
		{"weekday twice", with(func(w *events.TimeWindow) { w.Weekdays = []int{1, 1} }), false},
		{"open after close", with(func(w *events.TimeWindow) { w.Open, w.Close = "20:00", "09:00" }), false},
		{"open equals close", with(func(w *events.TimeWindow) { w.Close = "09:30" }), false},
		{"24:00", with(func(w *events.TimeWindow) { w.Close = "24:00" }), false},
		{"9:30", with(func(w *events.TimeWindow) { w.Open = "9:30" }), false},
		{"09:60", with(func(w *events.TimeWindow) { w.Open = "09:60" }), false},
		{"0a:30", with(func(w *events.TimeWindow) { w.Open = "0a:30" }), false},
		{"no zone", with(func(w *events.TimeWindow) { w.TZ = "" }), false},
		{"unknown zone", with(func(w *events.TimeWindow) { w.TZ = "Nowhere/City" }), false},
	}
	for _, tc := range tests {
		if err := Validate(tc.w); (err == nil) != tc.valid {
			t.Errorf("%s: Validate = %v, want valid %v", tc.name, err, tc.valid)
		}
	}
}
