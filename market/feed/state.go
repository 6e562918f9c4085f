package feed

import (
	"sync"
	"time"

	"github.com/lotbook/lotbook/market/price"
	"github.com/lotbook/lotbook/market/rules"
)

// State is the quote state that a push-style feed (a file replay, a live vendor adapter) keeps:
// it applies trades and day starts, answers snapshots and publishes updates. A vendor adapter
// decodes its wire format and calls StartDay, Trade and SetBook; the rest is here.
type State struct {
	kind func(symbol string) rules.Kind

	mu   sync.RWMutex
	syms map[string]*symState
	subs Subscribers
}

type symState struct {
	q          Quote
	bids, asks []Level
}

// NewState makes an empty state; kind tells the tick table of a symbol (for limit prices).
func NewState(kind func(symbol string) rules.Kind) *State {
	return &State{kind: kind, syms: map[string]*symState{}}
}

// StartDay begins a trading day for symbol with its reference price (the previous close).
func (s *State) StartDay(symbol string, day time.Time, ref price.Price) {
	k := s.kind(symbol)
	q := Quote{Symbol: symbol, Day: day, Time: day, Last: ref, Ref: ref,
		LimitUp: rules.LimitUp(ref, k), LimitDown: rules.LimitDown(ref, k)}
	s.mu.Lock()
	s.syms[symbol] = &symState{q: q}
	s.mu.Unlock()
	s.subs.Publish(Update{Quote: q})
}

// Trade applies one trade of size shares worth value (hundredths of NT$; price × size for a
// plain trade, or the exchange's reported amount) and publishes it. A symbol without a day yet
// starts one with the trade's price as reference.
func (s *State) Trade(symbol string, at time.Time, px price.Price, size int64, value price.Price) {
	s.mu.Lock()
	st := s.syms[symbol]
	if st == nil {
		k := s.kind(symbol)
		st = &symState{q: Quote{Symbol: symbol, Day: at, Ref: px, LimitUp: rules.LimitUp(px, k), LimitDown: rules.LimitDown(px, k)}}
		s.syms[symbol] = st
	}
	q := &st.q
	if q.Volume == 0 {
		q.Open, q.High, q.Low = px, px, px
	}
	q.High, q.Low = max(q.High, px), min(q.Low, px)
	q.Last, q.LastSize, q.Time = px, size, at
	q.Volume += size
	q.Turnover += value
	u := Update{Quote: *q, Trade: true, Value: value}
	s.mu.Unlock()
	s.subs.Publish(u)
}

// SetBook replaces symbol's best bid and ask levels.
func (s *State) SetBook(symbol string, bids, asks []Level) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.syms[symbol]; st != nil {
		st.bids, st.asks = append([]Level(nil), bids...), append([]Level(nil), asks...)
	}
}

// Snapshot implements Feed.
func (s *State) Snapshot(symbol string) (Snapshot, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	st := s.syms[symbol]
	if st == nil {
		return Snapshot{}, false
	}
	return Snapshot{Quote: st.q, Bids: append([]Level(nil), st.bids...), Asks: append([]Level(nil), st.asks...)}, true
}

// Subscribe implements Feed.
func (s *State) Subscribe(h Handler) (cancel func()) { return s.subs.Subscribe(h) }

var _ Feed = (*State)(nil)
