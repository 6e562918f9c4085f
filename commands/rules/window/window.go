// Package window decides whether a time window (a deposit or withdrawal channel's opening hours)
// is open at a moment.
package window

import (
	"errors"
	"fmt"
	"time"

	"github.com/lotbook/lotbook/events"
)

// Calendar tells exchange holidays (market/calendar implements it for Taiwan).
type Calendar interface {
	IsHoliday(day time.Time) bool
}

// Open reports whether w is open at t: AlwaysOpen, or t (taken in w.TZ) falls on one of
// w.Weekdays, at or after Open and before Close, and, when ClosedOnHolidays is set, cal does not
// call that day a holiday. A window that fails Validate is never open. A nil cal knows no
// holidays.
func Open(w events.TimeWindow, t time.Time, cal Calendar) bool {
	if w.AlwaysOpen {
		return true
	}
	p, err := parse(w)
	if err != nil {
		return false
	}
	local := t.In(p.loc)
	if !p.weekdays[local.Weekday()] {
		return false
	}
	minute := local.Hour()*60 + local.Minute()
	if minute < p.open || minute >= p.close {
		return false
	}
	if w.ClosedOnHolidays && cal != nil && cal.IsHoliday(local) {
		return false
	}
	return true
}

// Validate reports what is wrong with a window definition: weekdays 0 (Sunday) to 6, listed once,
// at least one; Open and Close as HH:MM with Open before Close (no overnight windows); a TZ the
// zone database knows. An AlwaysOpen window needs nothing else.
func Validate(w events.TimeWindow) error {
	if w.AlwaysOpen {
		return nil
	}
	_, err := parse(w)
	return err
}

type parsed struct {
	loc         *time.Location
	weekdays    [7]bool
	open, close int // minutes after midnight
}

func parse(w events.TimeWindow) (parsed, error) {
	var p parsed
	if len(w.Weekdays) == 0 {
		return p, errors.New("window: no weekdays")
	}
	for _, d := range w.Weekdays {
		if d < 0 || d > 6 {
			return p, fmt.Errorf("window: weekday %d outside 0..6", d)
		}
		if p.weekdays[d] {
			return p, fmt.Errorf("window: weekday %d listed twice", d)
		}
		p.weekdays[d] = true
	}
	var err error
	if p.open, err = clock(w.Open); err != nil {
		return p, err
	}
	if p.close, err = clock(w.Close); err != nil {
		return p, err
	}
	if p.open >= p.close {
		return p, fmt.Errorf("window: open %s is not before close %s", w.Open, w.Close)
	}
	if w.TZ == "" {
		return p, errors.New("window: no time zone")
	}
	if p.loc, err = time.LoadLocation(w.TZ); err != nil {
		return p, fmt.Errorf("window: time zone %q: %w", w.TZ, err)
	}
	return p, nil
}

// clock parses "HH:MM" (00:00 to 23:59, two digits each) into minutes after midnight.
func clock(s string) (int, error) {
	if len(s) != 5 || s[2] != ':' {
		return 0, fmt.Errorf("window: %q is not HH:MM", s)
	}
	for _, i := range []int{0, 1, 3, 4} {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("window: %q is not HH:MM", s)
		}
	}
	h := int(s[0]-'0')*10 + int(s[1]-'0')
	m := int(s[3]-'0')*10 + int(s[4]-'0')
	if h > 23 || m > 59 {
		return 0, fmt.Errorf("window: %q is not a time of day", s)
	}
	return h*60 + m, nil
}
