package sim

import (
	"time"

	"github.com/lotbook/lotbook/market/feed"
	"github.com/lotbook/lotbook/market/price"
)

// never is a time after every event.
const never = int64(1) << 62

// advanceInst applies l's events up to and including second upto; with out non-nil it appends an
// update per trade. Callers hold mu.
func (s *Sim) advanceInst(l *instrument, upto int64, out *[]feed.Update) {
	for l.nextAt <= upto {
		switch l.phase {
		case 0: // opening call auction
			s.trade(l, l.nextAt, l.d.open, int64(l.it.openLots), out)
			l.phase, l.minute = 1, -1
			s.loadNextMinute(l)
		case 1:
			pr := l.buf[l.next]
			s.trade(l, l.nextAt, pr.price, int64(pr.lots), out)
			l.next++
			if l.next < len(l.buf) {
				l.nextAt = s.today.open + int64(l.minute)*60 + int64(l.buf[l.next].sec)
			} else {
				s.loadNextMinute(l)
			}
		case 2: // closing call auction
			s.trade(l, l.nextAt, l.d.close, int64(l.it.closeLots), out)
			l.phase, l.nextAt = 3, never
		default:
			l.nextAt = never
		}
	}
}

// loadNextMinute moves the cursor to the next minute that trades, or to the closing auction.
func (s *Sim) loadNextMinute(l *instrument) {
	k := s.tab.Load().k(s.pos)
	for l.minute+1 < len(l.it.lots) {
		l.minute++
		if l.it.lots[l.minute] == 0 {
			continue
		}
		l.buf = l.p.prints(s.seed, k, l.minute, &l.d, &l.it, l.buf)
		l.next = 0
		l.nextAt = s.today.open + int64(l.minute)*60 + int64(l.buf[0].sec)
		return
	}
	l.phase, l.nextAt = 2, s.today.close
}

// trade applies one trade to the quote.
func (s *Sim) trade(l *instrument, at int64, px price.Price, lots int64, out *[]feed.Update) {
	q := &l.q
	size := lots * 1000
	old := q.Last
	if q.Volume == 0 {
		q.Open, q.High, q.Low = px, px, px
	}
	q.High, q.Low = max(q.High, px), min(q.Low, px)
	q.Last, q.LastSize = px, size
	q.Volume += size
	value := px * price.Price(size)
	q.Turnover += value
	q.Time = time.Unix(at, 0).In(taipei)
	if l.ix != nil {
		l.ix.onTrade(l.ixPos, old, px, size, value)
	}
	if out != nil {
		*out = append(*out, feed.Update{Quote: *q, Trade: true, Value: value})
	}
}

// Advance applies every trade up to now, second by second, and publishes the updates of each
// second to the subscribers: the instruments' trades, then the indices' values at the second's end.
// A new trading day starts at its pre-open, with an update per symbol carrying the new reference.
func (s *Sim) Advance(now time.Time) {
	s.adv.Lock()
	defer s.adv.Unlock()
	target := now.Unix()
	for {
		s.mu.Lock()
		from := s.clock.Load()
		if from >= target {
			s.mu.Unlock()
			return
		}
		sec := from + 1
		out := s.out[:0]
		if sec >= s.today.nextRoll {
			s.rollTo(s.stateDay(sec))
			for _, l := range s.insts {
				out = append(out, feed.Update{Quote: l.q})
			}
			for _, x := range s.indices {
				out = append(out, feed.Update{Quote: x.q})
			}
		}
		// Jump over seconds without events.
		if next := s.nextEvent(); next > sec {
			sec = min(next-1, target, s.today.nextRoll-1)
			if sec < from+1 {
				sec = from + 1
			}
		}
		for _, l := range s.insts {
			if l.nextAt <= sec {
				s.advanceInst(l, sec, &out)
			}
		}
		for _, x := range s.indices {
			if u, ok := x.settle(s, sec); ok {
				out = append(out, u)
			}
		}
		s.clock.Store(sec)
		s.out = out
		s.mu.Unlock()
		if len(out) > 0 {
			s.publish(out)
		}
	}
}

// nextEvent is the earliest pending event of the day. Callers hold mu.
func (s *Sim) nextEvent() int64 {
	next := s.today.nextRoll
	for _, l := range s.insts {
		next = min(next, l.nextAt)
	}
	return next
}

func (s *Sim) publish(out []feed.Update) {
	s.subMu.Lock()
	hs := make([]feed.Handler, 0, len(s.subs))
	for _, h := range s.subs {
		hs = append(hs, h)
	}
	s.subMu.Unlock()
	for _, u := range out {
		for _, h := range hs {
			h(u)
		}
	}
}

// Subscribe registers h for every update from the next Advance on.
func (s *Sim) Subscribe(h feed.Handler) (cancel func()) {
	s.subMu.Lock()
	defer s.subMu.Unlock()
	id := s.subN
	s.subN++
	s.subs[id] = h
	return func() {
		s.subMu.Lock()
		delete(s.subs, id)
		s.subMu.Unlock()
	}
}

// Now is the instant up to which trades are applied.
func (s *Sim) Now() time.Time { return time.Unix(s.clock.Load(), 0) }
