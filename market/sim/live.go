package sim

import (
	"time"

	"github.com/lotbook/lotbook/market/feed"
	"github.com/lotbook/lotbook/market/price"
)

// never is a time after every event.
const never = int64(1) << 62

// window is the part of the current day's plan that a live instrument keeps. Every symbol's
// whole plan would take 12 bytes a minute, 40 MB over the demo's 1,430-minute days; a window of
// half an hour is copied from the plan, which is built again when the cursor leaves the window.
type window struct {
	from                int         // first minute held
	prev                price.Price // close of minute from-1, the open for minute 0
	path                []price.Price
	lots                []int32
	locked              int
	openLots, closeLots int64
}

const windowMinutes = 30

// end is where a window from minute from ends in a day of n minutes. off staggers the windows of
// different instruments, so that their plans are not all built again in the same second.
func (w *window) end(off uint64, from, n int) int {
	return min(n, from+windowMinutes-(from+int(off%windowMinutes))%windowMinutes)
}

func (w *window) has(j int) bool { return j >= w.from && j < w.from+len(w.lots) }

// fill copies minutes [from, end) of plan it of day d into the window's own memory.
func (w *window) fill(it *intraday, d *day, from, end int) {
	w.from, w.locked, w.openLots, w.closeLots = from, it.locked, it.openLots, it.closeLots
	w.prev = d.open
	if from > 0 {
		w.prev = it.path[from-1]
	}
	w.path = append(w.path[:0], it.path[from:end]...)
	w.lots = append(w.lots[:0], it.lots[from:end]...)
}

// whole makes the window the whole plan it, sharing its memory (for a catch-up, which then
// fills a window of its own).
func (w *window) whole(it *intraday, d *day) {
	*w = window{prev: d.open, path: it.path, lots: it.lots, locked: it.locked, openLots: it.openLots, closeLots: it.closeLots}
}

// minute j, which the window holds.
func (w *window) minute(j int) minute {
	m := minute{from: w.prev, to: w.path[j-w.from], lots: w.lots[j-w.from], quiet: j >= w.locked}
	if j > w.from {
		m.from = w.path[j-w.from-1]
	}
	return m
}

// advanceInst applies l's events up to and including second upto; with out non-nil it appends an
// update per trade. Trades move l's index, or, in a catch-up, go to acc instead. Callers hold mu
// (a catch-up owns l).
func (s *Sim) advanceInst(l *instrument, upto int64, out *[]feed.Update, acc *catchAcc) {
	for l.nextAt <= upto {
		switch l.phase {
		case 0: // opening call auction
			s.trade(l, l.nextAt, l.d.open, l.win.openLots, out, acc)
			l.phase, l.minute = 1, -1
			s.loadNextMinute(l)
		case 1:
			pr := l.buf[l.next]
			s.trade(l, l.nextAt, pr.price, int64(pr.lots), out, acc)
			l.next++
			if l.next < len(l.buf) {
				l.nextAt = s.today.open + int64(l.minute)*60 + int64(l.buf[l.next].sec)
			} else {
				s.loadNextMinute(l)
			}
		case 2: // closing call auction
			s.trade(l, l.nextAt, l.d.close, l.win.closeLots, out, acc)
			l.phase, l.nextAt = 3, never
		default:
			l.nextAt = never
		}
	}
}

// loadNextMinute moves the cursor to the next minute that trades, or to the closing auction.
func (s *Sim) loadNextMinute(l *instrument) {
	tab := s.tab.Load()
	k := tab.k(s.pos)
	for l.minute+1 < s.today.minutes {
		l.minute++
		if !l.win.has(l.minute) {
			it := l.p.plan(s.seed, k, &l.d, s.today.minutes, &s.liveBuf)
			l.win.fill(it, &l.d, l.minute, l.win.end(l.p.ch, l.minute, s.today.minutes))
		}
		m := l.win.minute(l.minute)
		if m.lots == 0 {
			continue
		}
		l.buf = l.p.prints(s.seed, k, l.minute, &l.d, m, l.buf)
		l.next = 0
		l.nextAt = s.today.open + int64(l.minute)*60 + int64(l.buf[0].sec)
		return
	}
	l.phase, l.nextAt = 2, s.today.close
}

// trade applies one trade to the quote.
func (s *Sim) trade(l *instrument, at int64, px price.Price, lots int64, out *[]feed.Update, acc *catchAcc) {
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
	switch {
	case l.ix == nil:
	case acc != nil:
		acc.add(l, at, old, px, size, value)
	default:
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
				s.advanceInst(l, sec, &out, nil)
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
			s.subs.Publish(out...)
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

// Subscribe registers h for every update from the next Advance on.
func (s *Sim) Subscribe(h feed.Handler) (cancel func()) { return s.subs.Subscribe(h) }

// Now is the instant up to which trades are applied.
func (s *Sim) Now() time.Time { return time.Unix(s.clock.Load(), 0) }
