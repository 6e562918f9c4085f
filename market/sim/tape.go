package sim

import (
	"time"

	"github.com/lotbook/lotbook/market/price"
)

// Print is one trade of a trading day, as time and sales lists it.
type Print struct {
	Time   time.Time
	Price  price.Price
	Shares int64
}

// DayTrades is the day's reference price and every trade of symbol's current trading day up to
// the simulator's clock, in time order; false for an unknown symbol or an index (an index has no
// trades). The trades are generated again from the model, so they are
// exactly the ones the live quote folded: their shares sum to the quote's volume at that clock.
func (s *Sim) DayTrades(symbol string) (ref price.Price, prints []Print, ok bool) {
	e, found := s.bySym[symbol]
	if !found || e.inst < 0 {
		return 0, nil, false
	}
	s.mu.RLock()
	tab, pos, clock := s.tab.Load(), s.pos, s.clock.Load()
	ref = s.insts[e.inst].q.Ref
	s.mu.RUnlock()
	s.dayEvents(tab, e.inst, pos, clock+1, func(ev event) {
		prints = append(prints, Print{Time: time.Unix(ev.at, 0).In(taipei), Price: ev.price, Shares: ev.lots * 1000})
	})
	return ref, prints, true
}
