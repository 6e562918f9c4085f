// Package feed is the quote-feed contract of lotbook: what the simulator, a file replay and a live
// vendor adapter all provide (a snapshot per symbol and a stream of updates), the in-memory quote
// state that push-style adapters keep, and a fan-out in which a slow consumer only ever gets the
// latest state of each symbol.
package feed

import (
	"sync"
	"time"

	"github.com/lotbook/lotbook/market/price"
)

// Quote is the state of one symbol for its current trading day.
type Quote struct {
	Symbol string
	Day    time.Time // 00:00 Asia/Taipei of the trading day the quote belongs to
	Time   time.Time // time of the last trade, or of the day's start when nothing traded yet
	// Last is the last trade price; before the day's first trade it is the reference price.
	Last     price.Price
	LastSize int64       // shares of the last trade, 0 before the first
	Ref      price.Price // the day's reference price (previous close)
	// Open, High and Low are zero before the day's first trade.
	Open, High, Low    price.Price
	Volume             int64       // shares traded today
	Turnover           price.Price // NT$ traded today, in hundredths
	LimitUp, LimitDown price.Price
}

// Traded reports whether the symbol traded today.
func (q Quote) Traded() bool { return q.Volume > 0 }

// Level is one price level of the order book.
type Level struct {
	Price price.Price
	Size  int64 // shares
}

// Snapshot is a quote with the best five bid and ask levels (fewer near the limits).
type Snapshot struct {
	Quote
	Bids []Level // best (highest) first
	Asks []Level // best (lowest) first
}

// Update is one change of a symbol's quote. Trade is true when it reports a trade (Last,
// LastSize and Time describe it; Value is its NT$ amount in hundredths); false for a change without
// a trade, such as the start of a new trading day.
type Update struct {
	Quote
	Trade bool
	Value price.Price
}

// Handler receives updates synchronously, in the feed's order; it must return quickly.
type Handler func(Update)

// Feed is a source of quotes: the simulator, a file replay, a live vendor adapter.
type Feed interface {
	// Snapshot is the current state of symbol; false for an unknown symbol.
	Snapshot(symbol string) (Snapshot, bool)
	// Subscribe registers h for every update from now on; cancel stops it.
	Subscribe(h Handler) (cancel func())
}

// Subscribers are a feed's handlers: Subscribe implements Feed.Subscribe for it. The zero value
// is ready.
type Subscribers struct {
	mu sync.Mutex
	hs map[int]Handler
	n  int
}

// Subscribe registers h for every update published from now on.
func (s *Subscribers) Subscribe(h Handler) (cancel func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hs == nil {
		s.hs = map[int]Handler{}
	}
	id := s.n
	s.n++
	s.hs[id] = h
	return func() {
		s.mu.Lock()
		delete(s.hs, id)
		s.mu.Unlock()
	}
}

// Publish hands each update, in order, to every handler subscribed when it began. It calls them
// outside the lock, so a handler may subscribe or cancel.
func (s *Subscribers) Publish(us ...Update) {
	s.mu.Lock()
	hs := make([]Handler, 0, len(s.hs))
	for _, h := range s.hs {
		hs = append(hs, h)
	}
	s.mu.Unlock()
	for _, u := range us {
		for _, h := range hs {
			h(u)
		}
	}
}
