package market

import (
	"sync"
	"time"

	"github.com/lotbook/lotbook/market/candles"
	"github.com/lotbook/lotbook/market/feed"
	"github.com/lotbook/lotbook/market/status"
)

// TradingStatus is a stock's published status on a trading day (package status): "normal",
// "attention" (注意股) or "disposition" (處置股, no 現股當沖).
type TradingStatus = status.Status

// statusBook caches each symbol's status on the trading day of its quote: it follows from the
// daily bars before that day alone, so it holds all day.
type statusBook struct {
	mu   sync.Mutex
	day  time.Time
	byID map[string]status.Status
}

// statusOf is the status of q's symbol on q's trading day; indices are always normal.
func (s *Service) statusOf(q feed.Quote) status.Status {
	if _, ok := s.cat.Lookup(q.Symbol); !ok {
		return status.Normal
	}
	b := &s.statuses
	b.mu.Lock()
	if q.Day.After(b.day) {
		// A new trading day: yesterday's statuses are stale.
		b.day, b.byID = q.Day, map[string]status.Status{}
	}
	st, ok := b.byID[q.Symbol]
	b.mu.Unlock()
	if ok {
		return st
	}
	st = status.Of(s.sim.Bars(q.Symbol, candles.Days, q.Day, status.Lookback))
	b.mu.Lock()
	if b.day.Equal(q.Day) {
		b.byID[q.Symbol] = st
	}
	b.mu.Unlock()
	return st
}
