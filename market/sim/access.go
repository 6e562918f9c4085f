package sim

import (
	"context"
	"time"

	"github.com/lotbook/lotbook/market/feed"
	"github.com/lotbook/lotbook/market/rules"
)

// Snapshot is a symbol's quote with the best five levels (none for an index).
func (s *Sim) Snapshot(symbol string) (feed.Snapshot, bool) {
	e, ok := s.bySym[symbol]
	if !ok {
		return feed.Snapshot{}, false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if e.inst < 0 {
		return feed.Snapshot{Quote: s.indices[e.idx].q}, true
	}
	l := s.insts[e.inst]
	snap := feed.Snapshot{Quote: l.q}
	snap.Bids, snap.Asks = s.book(l)
	return snap, true
}

// Quotes appends every instrument's quote (in catalogue order) to dst.
func (s *Sim) Quotes(dst []feed.Quote) []feed.Quote {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, l := range s.insts {
		dst = append(dst, l.q)
	}
	return dst
}

// IndexQuotes are the indices' quotes, listed first.
func (s *Sim) IndexQuotes() []feed.Quote {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]feed.Quote, len(s.indices))
	for i, x := range s.indices {
		out[i] = x.q
	}
	return out
}

// book is a plausible best five around the last price, changing every few seconds while the
// market trades and frozen outside: the spread is one tick, sizes scale with the symbol's
// liquidity, and levels stop at the limits. At a limit the far side is empty and a large queue waits
// at the limit price, as on a locked limit day. Callers hold mu.
func (s *Sim) book(l *instrument) (bids, asks []feed.Level) {
	q := &l.q
	p := l.p
	stamp := q.Time.Unix()
	if c := s.clock.Load(); c >= s.today.open && c < s.today.close {
		stamp = c / 3
	}
	r := newRNG(key(s.seed, p.ch, pBook, uint64(stamp)))
	unit := max(1, p.dayLots/float64(max(1, s.today.minutes))/2)
	size := func(scale float64) int64 {
		return max(1, int64(unit*scale*(0.3+2.2*r.float()))) * 1000
	}
	last, lu, ld := q.Last, q.LimitUp, q.LimitDown
	bid := last
	if r.float() < 0.5 {
		bid = rules.Down(last, p.kind)
	}
	switch {
	case last == lu && lu != ld:
		bid = lu
	case last == ld && lu != ld:
		bid = 0
	}
	ask := rules.Up(bid, p.kind)
	if bid == 0 {
		ask = ld
	}
	for i, px := 0, bid; i < 5 && px >= ld && px > 0; i, px = i+1, rules.Down(px, p.kind) {
		scale := 1 + float64(i)*0.4
		if px == lu {
			scale = 40
		}
		bids = append(bids, feed.Level{Price: px, Size: size(scale)})
		if px == rules.Down(px, p.kind) {
			break
		}
	}
	for i, px := 0, ask; i < 5 && px <= lu && last != lu; i, px = i+1, rules.Up(px, p.kind) {
		scale := 1 + float64(i)*0.4
		if px == ld {
			scale = 40
		}
		asks = append(asks, feed.Level{Price: px, Size: size(scale)})
	}
	return bids, asks
}

// Run advances the simulator every interval until ctx ends, in phaseSlots steps: at each, the
// seconds before now's are applied whole (every offset in them has passed) and, of now's second,
// the instruments whose offset has come (see step). Steps are timed to the slots' boundaries on
// now's clock, so an update goes out when it falls due rather than up to a step later.
func (s *Sim) Run(ctx context.Context, now func() time.Time, every time.Duration) error {
	slot := max(every/phaseSlots, time.Microsecond)
	t := time.NewTimer(untilNext(now(), slot))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			at := now()
			s.step(at)
			t.Reset(untilNext(at, slot))
		}
	}
}

// untilNext is the wait from t to the next boundary of slot; a clock that does not run with
// real time (tests) may give a wait outside (0, slot], which is then one slot.
func untilNext(t time.Time, slot time.Duration) time.Duration {
	d := t.Truncate(slot).Add(slot).Sub(t)
	if d <= 0 || d > slot {
		return slot
	}
	return d
}

// phaseSlots are the steps of a second at which instruments' trades fall due: more spread a
// second's updates thinner, but cost every consumer that wants many symbols a write per step.
const phaseSlots = 10

// offsetOf is the offset within each second of an instrument whose code hashes to ch.
func offsetOf(ch uint64) time.Duration {
	return time.Duration(ch%phaseSlots) * (time.Second / phaseSlots)
}

// step publishes what is due at now: every second before now's whole (its indices settled at
// its end), then the trades of now's second of the instruments whose offset has passed. A day's
// roll is left to the whole second after it.
func (s *Sim) step(now time.Time) {
	sec := now.Unix()
	s.Advance(time.Unix(sec-1, 0))
	s.adv.Lock()
	defer s.adv.Unlock()
	s.mu.Lock()
	if s.clock.Load() != sec-1 || sec >= s.today.nextRoll {
		s.mu.Unlock()
		return // Advance went further (an explicit Advance), or the day rolls at sec
	}
	into := now.Sub(time.Unix(sec, 0))
	out := s.out[:0]
	for _, l := range s.insts {
		if l.nextAt <= sec && l.offset <= into {
			s.advanceInst(l, sec, &out, nil)
		}
	}
	s.out = out
	s.mu.Unlock()
	if len(out) > 0 {
		s.subs.Publish(out...)
	}
}

// Due is when symbol's state of time at fell due: at plus its instrument's offset, or for an
// index the end of at's second (an index settles once all its constituents' trades of the
// second are in).
func (s *Sim) Due(symbol string, at time.Time) time.Time {
	if e, ok := s.bySym[symbol]; ok && e.inst >= 0 {
		return at.Add(s.insts[e.inst].offset)
	}
	return at.Add(time.Second)
}

// Kind is the tick table of an instrument symbol (stocks for unknown ones and indices).
func (s *Sim) Kind(symbol string) rules.Kind {
	if e, ok := s.bySym[symbol]; ok && e.inst >= 0 {
		return s.params[e.inst].kind
	}
	return rules.Stock
}

var _ feed.Feed = (*Sim)(nil)
