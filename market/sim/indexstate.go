package sim

import (
	"runtime"
	"sync"
	"time"

	"github.com/lotbook/lotbook/market/candles"
	"github.com/lotbook/lotbook/market/feed"
	"github.com/lotbook/lotbook/market/index"
	"github.com/lotbook/lotbook/market/price"
)

// indexState is one index's live state: its value moves with every constituent trade and is
// published once per second, at the end of each second in which a constituent traded.
type indexState struct {
	x       *index.Index
	num     int   // position in Sim.indices
	members []int // instrument positions

	capSum  int64
	touched bool
	secVol  int64
	secVal  price.Price
	q       feed.Quote

	// today are the live day's minute bars, as published; undo is the newest bar before the latest
	// second was added, for a reader that asks for the bars before that second.
	today  minuteBars
	lastAt int64 // no value in today is later
	undo   struct {
		at    int64
		fresh bool // the latest second started its bar
		bar   candles.Bar
	}

	cacheMu sync.Mutex
	minutes map[int64][]candles.Bar // complete days' minute bars, by day start
	days    map[int64]candles.Bar   // estimated daily bars of days without minute history
}

func (s *Sim) newIndex(def index.Definition, num int) *indexState {
	x := &indexState{num: num, minutes: map[int64][]candles.Bar{}, days: map[int64]candles.Bar{}}
	var lots []int64
	var base []price.Price
	for i, l := range s.insts {
		if def.Member(l.in) {
			l.ix, l.ixPos = x, len(x.members)
			x.members = append(x.members, i)
			lots = append(lots, s.params[i].lots)
			base = append(base, s.params[i].ref0)
		}
	}
	x.x = index.New(def, lots, base)
	return x
}

func (x *indexState) onTrade(pos int, old, px price.Price, size int64, value price.Price) {
	x.capSum += x.x.Delta(pos, old, px)
	x.touched = true
	x.secVol += size
	x.secVal += value
}

// roll starts day pos, after the constituents started it: the reference is the value at their
// references. The bars of the day that ended (starting at done; 0 for none) join the cache.
// Callers hold mu.
func (x *indexState) roll(s *Sim, tab *table, pos int, done int64) {
	if done != 0 && len(x.today.bars) > 0 {
		x.cache(s, tab, pos, done, x.today.bars)
	}
	x.today = minuteBars{}
	x.lastAt, x.undo.at = 0, 0
	x.capSum = 0
	for j, i := range x.members {
		x.capSum += x.x.Delta(j, 0, s.insts[i].q.Ref)
	}
	ref := x.x.Value(x.capSum)
	x.touched, x.secVol, x.secVal = false, 0, 0
	x.q = feed.Quote{Symbol: x.x.Def.Symbol, Day: tab.days[pos].In(taipei), Time: time.Unix(s.today.preOpen, 0).In(taipei), Last: ref, Ref: ref}
}

// cache keeps a complete day's minute bars, and only the minute window's days (plus a day of
// slack); pos is a position in the window.
func (x *indexState) cache(s *Sim, tab *table, pos int, day int64, bars []candles.Bar) {
	x.cacheMu.Lock()
	defer x.cacheMu.Unlock()
	if len(x.minutes) > s.minuteDays+1 {
		oldest := tab.days[max(0, pos-s.minuteDays-1)].Unix()
		for k := range x.minutes {
			if k < oldest {
				delete(x.minutes, k)
			}
		}
	}
	x.minutes[day] = bars
}

// settle publishes the value at the end of second sec if a constituent traded in it.
func (x *indexState) settle(s *Sim, sec int64) (feed.Update, bool) {
	if !x.touched {
		return feed.Update{}, false
	}
	v := x.x.Value(x.capSum)
	q := &x.q
	if q.Volume == 0 {
		q.Open, q.High, q.Low = v, v, v
	}
	q.High, q.Low = max(q.High, v), min(q.Low, v)
	q.Last, q.LastSize, q.Time = v, x.secVol, time.Unix(sec, 0).In(taipei)
	q.Volume += x.secVol
	q.Turnover += x.secVal
	u := feed.Update{Quote: *q, Trade: true, Value: x.secVal}
	n := len(x.today.bars)
	x.lastAt, x.undo.at = sec, sec
	x.undo.fresh = n == 0 || x.today.bars[n-1].Time.Unix() != sec-sec%60
	if !x.undo.fresh {
		x.undo.bar = x.today.bars[n-1]
	}
	x.today.add(sec, v, x.secVol, x.secVal)
	x.touched, x.secVol, x.secVal = false, 0, 0
	return u, true
}

// todayBefore are the live day's bars from the values published before `before`, when the
// published bars tell them. Callers hold mu.
func (x *indexState) todayBefore(before int64) ([]candles.Bar, bool) {
	bars := x.today.bars
	n := len(bars)
	switch {
	case x.lastAt < before:
	case before%60 == 0:
		for n > 0 && bars[n-1].Time.Unix() >= before {
			n--
		}
	case before == x.undo.at && n > 0:
		out := append([]candles.Bar(nil), bars[:n-1]...)
		if !x.undo.fresh {
			out = append(out, x.undo.bar)
		}
		return out, true
	default:
		return nil, false
	}
	return append([]candles.Bar(nil), bars[:n]...), true
}

// catchUp sets the day's figures after a silent fast-forward to sec from the day's minute bars,
// which sample the value second by second exactly as settle does live.
func (x *indexState) catchUp(s *Sim, sec int64) {
	x.touched, x.secVol, x.secVal = false, 0, 0
	q := &x.q
	for i, b := range x.today.bars {
		if i == 0 {
			q.Open, q.High, q.Low = b.Open, b.High, b.Low
		}
		q.High, q.Low = max(q.High, b.High), min(q.Low, b.Low)
		q.Last = b.Close
		q.Volume += b.Volume
		q.Turnover += b.Turnover
	}
	// The last published second is the latest constituent trade; its volume is the trades then.
	var last int64
	for _, i := range x.members {
		if l := s.insts[i]; l.q.Volume > 0 && l.q.Time.Unix() > last {
			last = l.q.Time.Unix()
		}
	}
	if last > 0 {
		q.Time, q.LastSize = time.Unix(last, 0).In(taipei), 0
		for _, i := range x.members {
			if l := s.insts[i]; l.q.Volume > 0 && l.q.Time.Unix() == last {
				q.LastSize += l.q.LastSize
			}
		}
	}
}

// secSums are an index's constituent trades of one day summed: the change of the cap sum second by
// second (and which seconds traded), shares and value minute by minute. The sums are exact
// integers, so constituents can be added in any order, by several workers, and the values come
// out exactly as when the trades are applied one after another; memory grows with the day's
// seconds, not with its trades (some ten million in a demo day). The day opens on a whole minute.
type secSums struct {
	open   int64    // unix second of element 0
	capSec []int64  // change of the cap sum in each second
	traded []uint64 // a bit per second in which a constituent traded
	mins   []minSum
}

type minSum struct{ shares, value int64 }

func newSecSums(open, last int64) *secSums {
	n := last - open + 1
	return &secSums{open: open, capSec: make([]int64, n), traded: make([]uint64, (n+63)/64), mins: make([]minSum, (n+59)/60)}
}

func (a *secSums) add(at, capDelta, shares int64, value price.Price) {
	i := at - a.open
	a.capSec[i] += capDelta
	a.traded[i/64] |= 1 << (i % 64)
	m := &a.mins[i/60]
	m.shares += shares
	m.value += int64(value)
}

func (a *secSums) merge(b *secSums) {
	for i := range a.capSec {
		a.capSec[i] += b.capSec[i]
	}
	for i := range a.traded {
		a.traded[i] |= b.traded[i]
	}
	for i := range a.mins {
		a.mins[i].shares += b.mins[i].shares
		a.mins[i].value += b.mins[i].value
	}
}

// bars samples the value at the end of every second with trades, from cap sum capSum at the
// open, into minute bars; and returns the cap sum at the end.
func (a *secSums) bars(x *index.Index, capSum int64) ([]candles.Bar, int64) {
	var bars []candles.Bar
	for i, d := range a.capSec {
		if a.traded[i/64]&(1<<(i%64)) == 0 {
			continue
		}
		capSum += d
		v := x.Value(capSum)
		start := a.open + int64(i-i%60)
		if n := len(bars); n > 0 && bars[n-1].Time.Unix() == start {
			b := &bars[n-1]
			b.High, b.Low, b.Close = max(b.High, v), min(b.Low, v), v
			continue
		}
		m := a.mins[i/60]
		bars = append(bars, candles.Bar{Time: time.Unix(start, 0).In(taipei), Open: v, High: v, Low: v, Close: v,
			Volume: m.shares, Turnover: price.Price(m.value)})
	}
	return bars, capSum
}

// catchAcc is one catch-up worker's sums, per index.
type catchAcc struct {
	open, last int64
	sums       []*secSums
}

func (c *catchAcc) add(l *instrument, at int64, old, px price.Price, size int64, value price.Price) {
	x := l.ix
	if c.sums[x.num] == nil {
		c.sums[x.num] = newSecSums(c.open, c.last)
	}
	c.sums[x.num].add(at, x.x.Delta(l.ixPos, old, px), size, value)
}

// workers is how many goroutines a catch-up or a day's replay uses. Each holds per-second sums of
// a day (24 bytes a second per index), hence the bound.
func workers() int { return max(1, min(runtime.GOMAXPROCS(0), 4)) }

// merged adds up the workers' sums of index num (nil without trades).
func merged(accs []*catchAcc, num int) *secSums {
	var out *secSums
	for _, a := range accs {
		switch sm := a.sums[num]; {
		case sm == nil:
		case out == nil:
			out = sm
		default:
			out.merge(sm)
		}
	}
	return out
}

// catchUp starts day pos and brings every symbol to second sec without publishing: each instrument
// replays its trades up to sec (the instruments split over the cores), and each index sums its
// constituents' trades second by second into the day's minute bars. Callers hold mu.
func (s *Sim) catchUp(pos int, sec int64) {
	tab, pos := s.setDay(pos)
	s.pos = pos
	s.today = s.timesOf(tab, pos)
	n := workers()
	accs := make([]*catchAcc, n)
	var wg sync.WaitGroup
	for w := range n {
		accs[w] = &catchAcc{open: s.today.open, last: min(sec, s.today.close), sums: make([]*secSums, len(s.indices))}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var b planBuf
			for i := w; i < len(s.insts); i += n {
				l := s.insts[i]
				it := s.startDay(l, i, tab, pos, &b)
				l.win.whole(it, &l.d)
				s.advanceInst(l, sec, nil, accs[w])
				// Keep the window from the next minute the cursor needs.
				from := s.today.minutes
				switch l.phase {
				case 0:
					from = 0
				case 1:
					from = min(from, l.minute+1)
				}
				l.win = window{}
				l.win.fill(it, &l.d, from, l.win.end(l.p.ch, from, s.today.minutes))
			}
		}()
	}
	wg.Wait()
	for _, x := range s.indices {
		x.roll(s, tab, pos, 0)
		if sm := merged(accs, x.num); sm != nil {
			x.today.bars, x.capSum = sm.bars(x.x, x.capSum)
		}
		x.lastAt = min(sec, s.today.close)
		x.catchUp(s, sec)
	}
}

// indexMinutes are index x's minute bars of day pos from the values before `before`: the live
// day's from the published ones, a complete day's from the cache, else replayed from every
// constituent's trades.
func (s *Sim) indexMinutes(x *indexState, tab *table, pos int, before int64) []candles.Bar {
	dt := s.timesOf(tab, pos)
	s.mu.RLock()
	if x.q.Day.Unix() == dt.start {
		bars, ok := x.todayBefore(before)
		s.mu.RUnlock()
		if ok {
			return bars
		}
	} else {
		s.mu.RUnlock()
	}
	complete := before > dt.close
	if complete {
		x.cacheMu.Lock()
		bars, ok := x.minutes[dt.start]
		x.cacheMu.Unlock()
		if ok {
			return bars
		}
	}
	bars := s.replayIndex(x, tab, pos, before)
	if complete {
		x.cache(s, tab, pos, dt.start, bars)
	}
	return bars
}

// replayIndex generates every constituent's trades of day pos before `before` and samples the
// index second by second, exactly as the live index publishes it.
func (s *Sim) replayIndex(x *indexState, tab *table, pos int, before int64) []candles.Bar {
	dt := s.timesOf(tab, pos)
	if before <= dt.open {
		return nil
	}
	last := min(before-1, dt.close)
	n := workers()
	parts := make([]*secSums, n)
	caps := make([]int64, n)
	var wg sync.WaitGroup
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sm := newSecSums(dt.open, last)
			var b planBuf
			for j := w; j < len(x.members); j += n {
				i := x.members[j]
				d, it := s.dayPlan(tab, i, pos, &b)
				prev := d.ref
				caps[w] += x.x.Delta(j, 0, prev)
				s.events(tab, i, pos, &d, it, 0, len(it.lots), before, func(e event) {
					sh := e.lots * 1000
					sm.add(e.at, x.x.Delta(j, prev, e.price), sh, e.price*price.Price(sh))
					prev = e.price
				})
			}
			parts[w] = sm
		}()
	}
	wg.Wait()
	var capSum int64
	for w := range n {
		capSum += caps[w]
		if w > 0 {
			parts[0].merge(parts[w])
		}
	}
	bars, _ := parts[0].bars(x.x, capSum)
	return bars
}

// indexDayEstimate is an index's daily bar for a day without minute history: open and close are
// exact (the constituents' opens and closes), volume exact, turnover estimated like the
// constituents', and high and low estimated as 30 % of the constituents' combined excursions beyond
// open and close (constituents do not all peak at the same moment). The days are computed span
// at a time, each constituent's chain walked once, and cached.
func (s *Sim) indexDayEstimate(x *indexState, tab *table, pos int) candles.Bar {
	key := tab.days[pos].Unix()
	x.cacheMu.Lock()
	b, ok := x.days[key]
	x.cacheMu.Unlock()
	if ok {
		return b
	}
	lo := pos - pos%span
	hi := min(lo+span, len(tab.days)) - 1
	type sums struct{ capO, capC, upEx, downEx, vol, turn int64 }
	acc := make([]sums, hi-lo+1)
	chain := make([]int32, hi-lo+2)
	for j, i := range x.members {
		p := &s.params[i]
		tab.chain(i, lo, hi+1, chain)
		for q := lo; q <= hi; q++ {
			d := p.dayBar(s.seed, tab.k(q), price.Price(chain[q-lo]), price.Price(chain[q-lo+1]))
			a := &acc[q-lo]
			a.capO += x.x.Delta(j, 0, d.open)
			a.capC += x.x.Delta(j, 0, d.close)
			a.upEx += x.x.Delta(j, max(d.open, d.close), d.high)
			a.downEx += x.x.Delta(j, d.low, min(d.open, d.close))
			a.vol += d.lots * 1000
			a.turn += int64(d.estTurnover())
		}
	}
	x.cacheMu.Lock()
	defer x.cacheMu.Unlock()
	for q := lo; q <= hi; q++ {
		a := acc[q-lo]
		x.days[tab.days[q].Unix()] = candles.Bar{Time: tab.days[q].In(taipei), Open: x.x.Value(a.capO), Close: x.x.Value(a.capC),
			High: x.x.Value(max(a.capO, a.capC) + a.upEx*3/10), Low: x.x.Value(min(a.capO, a.capC) - a.downEx*3/10),
			Volume: a.vol, Turnover: price.Price(a.turn)}
	}
	return x.days[key]
}
