package process

import (
	"sync"
	"time"
)

// Clock is the runtime's time: what it is now, and a channel that receives once it is t (at
// once when t has passed). Tests inject a ManualClock to fire timers at the times they choose.
type Clock interface {
	Now() time.Time
	Until(t time.Time) <-chan time.Time
}

// SystemClock tells time with now (time.Now when nil) and waits in real time.
func SystemClock(now func() time.Time) Clock {
	if now == nil {
		now = time.Now
	}
	return systemClock{now: now}
}

type systemClock struct{ now func() time.Time }

func (c systemClock) Now() time.Time                     { return c.now() }
func (c systemClock) Until(t time.Time) <-chan time.Time { return time.After(t.Sub(c.now())) }

// ManualClock is a Clock that moves only when told to (Set, Advance): a wait ends when the clock
// is moved to or past its end.
type ManualClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []waiter
}

type waiter struct {
	at time.Time
	ch chan time.Time
}

// NewManualClock returns a clock standing at now.
func NewManualClock(now time.Time) *ManualClock { return &ManualClock{now: now} }

// Now implements Clock.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Until implements Clock.
func (c *ManualClock) Until(t time.Time) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if !t.After(c.now) {
		ch <- c.now
		return ch
	}
	c.waiters = append(c.waiters, waiter{at: t, ch: ch})
	return ch
}

// Advance moves the clock forward by d.
func (c *ManualClock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// Set moves the clock to t and ends the waits that end by then.
func (c *ManualClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.at.After(t) {
			kept = append(kept, w)
			continue
		}
		w.ch <- t
	}
	c.waiters = kept
}
