package process

import (
	"context"
	"time"
)

// Timer is a schedule a process runs on: market open and close, end of day, a sweep every
// second. Next returns its first occurrence strictly after t; Fire handles one occurrence, at
// the time it was due, with a command id derived from the timer and that time (so that two
// instances, or a retry, decide once).
type Timer struct {
	Name string
	Next func(t time.Time) time.Time
	Fire func(ctx context.Context, at time.Time, commandID string) error
}

// Every occurs at every multiple of d (counted from the Unix epoch).
func Every(d time.Duration) func(time.Time) time.Time {
	return func(t time.Time) time.Time { return t.Truncate(d).Add(d) }
}

// Daily occurs once a day at hour:minute in loc (Asia/Taipei for the exchange's open and close).
func Daily(hour, minute int, loc *time.Location) func(time.Time) time.Time {
	return func(t time.Time) time.Time {
		l := t.In(loc)
		at := time.Date(l.Year(), l.Month(), l.Day(), hour, minute, 0, 0, loc)
		if !at.After(t) {
			at = time.Date(l.Year(), l.Month(), l.Day()+1, hour, minute, 0, 0, loc)
		}
		return at
	}
}

// latest is the last occurrence of next after last that is not after now (last itself when the
// next one is still to come); it looks at most a million occurrences ahead.
func latest(next func(time.Time) time.Time, last, now time.Time) time.Time {
	at := last
	for range 1_000_000 {
		n := next(at)
		if n.After(now) {
			return at
		}
		at = n
	}
	return at
}
