package sim

import (
	"time"

	"github.com/lotbook/lotbook/market/candles"
	"github.com/lotbook/lotbook/market/price"
)

// event is one generated trade.
type event struct {
	at    int64 // unix second
	price price.Price
	lots  int64
}

// dayEvents calls fn with instrument i's trades of day pos in time order, stopping before `before`.
// It uses only immutable state, so it runs without locks.
func (s *Sim) dayEvents(tab *table, i, pos int, before int64, fn func(event)) {
	dt := s.timesOf(tab, pos)
	if before <= dt.open {
		return
	}
	p := &s.params[i]
	k := tab.k(pos)
	d := p.dayBar(s.seed, k, tab.ref(i, pos), tab.close(i, pos))
	it := p.plan(s.seed, k, &d, dt.minutes)
	fn(event{at: dt.open, price: d.open, lots: it.openLots})
	var buf []print
	for j := range it.lots {
		base := dt.open + int64(j)*60
		if base >= before {
			return
		}
		buf = p.prints(s.seed, k, j, &d, &it, buf)
		for _, pr := range buf {
			at := base + int64(pr.sec)
			if at >= before {
				return
			}
			fn(event{at: at, price: pr.price, lots: int64(pr.lots)})
		}
	}
	if dt.close < before {
		fn(event{at: dt.close, price: d.close, lots: it.closeLots})
	}
}

// minuteBars folds events into 1-minute bars.
type minuteBars struct{ bars []candles.Bar }

func (m *minuteBars) add(at int64, px price.Price, shares int64, value price.Price) {
	start := at - at%60
	if n := len(m.bars); n > 0 && m.bars[n-1].Time.Unix() == start {
		b := &m.bars[n-1]
		b.High, b.Low, b.Close = max(b.High, px), min(b.Low, px), px
		b.Volume += shares
		b.Turnover += value
		return
	}
	m.bars = append(m.bars, candles.Bar{Time: time.Unix(start, 0).In(taipei), Open: px, High: px, Low: px, Close: px,
		Volume: shares, Turnover: value})
}

// taipei is the zone of every time the simulator hands out.
var taipei = candles.Location

// instMinutes are instrument i's minute bars of day pos before `before`.
func (s *Sim) instMinutes(tab *table, i, pos int, before int64) []candles.Bar {
	var m minuteBars
	s.dayEvents(tab, i, pos, before, func(e event) {
		sh := e.lots * 1000
		m.add(e.at, e.price, sh, e.price*price.Price(sh))
	})
	return m.bars
}

// daily folds minute bars into the day's bar.
func daily(day time.Time, mins []candles.Bar) (candles.Bar, bool) {
	if len(mins) == 0 {
		return candles.Bar{}, false
	}
	b := mins[0]
	b.Time = day
	for _, m := range mins[1:] {
		b.High, b.Low, b.Close = max(b.High, m.High), min(b.Low, m.Low), m.Close
		b.Volume += m.Volume
		b.Turnover += m.Turnover
	}
	return b, true
}

// Bars implements candles.History: up to n bars of symbol before `before` (clamped to the
// simulator's clock), oldest first. Minute bars exist for the last MinuteDays trading days; daily
// bars for the whole history window. Daily bars older than the minute window carry an estimated
// turnover (volume at the bar's mean price), as their trades are not generated.
func (s *Sim) Bars(symbol string, base candles.Base, before time.Time, n int) []candles.Bar {
	e, ok := s.bySym[symbol]
	if !ok || n <= 0 {
		return nil
	}
	tab := s.tab.Load()
	clock := s.clock.Load()
	b := before.Unix()
	if before.IsZero() || b > clock+1 {
		b = clock + 1
	}
	// The minute window is the last MinuteDays days that have started trading.
	cur := tab.pos(s.sched.DayStart(time.Unix(clock, 0)))
	if clock < s.timesOf(tab, cur).open {
		cur--
	}
	first := cur - s.minuteDays + 1
	var chunks [][]candles.Bar
	got := 0
	for pos := tab.pos(s.sched.DayStart(time.Unix(b-1, 0))); pos >= 0 && got < n; pos-- {
		var part []candles.Bar
		if base == candles.Minutes {
			if pos < first {
				break
			}
			part = s.minutesOf(e, tab, pos, b)
		} else if bar, ok := s.dayOf(e, tab, pos, b, pos >= first); ok {
			part = []candles.Bar{bar}
		}
		if len(part) > n-got {
			part = part[len(part)-(n-got):]
		}
		chunks = append(chunks, part)
		got += len(part)
	}
	out := make([]candles.Bar, 0, got)
	for i := len(chunks) - 1; i >= 0; i-- {
		out = append(out, chunks[i]...)
	}
	return out
}

func (s *Sim) minutesOf(e entry, tab *table, pos int, before int64) []candles.Bar {
	if e.inst >= 0 {
		return s.instMinutes(tab, e.inst, pos, before)
	}
	return s.indexDayMinutes(s.indices[e.idx], tab, pos, before)
}

// dayOf is the daily bar of day pos from trades before `before`: built from its minutes when
// exact, else from the daily model.
func (s *Sim) dayOf(e entry, tab *table, pos int, before int64, exact bool) (candles.Bar, bool) {
	day := tab.days[pos].In(taipei)
	if exact {
		return daily(day, s.minutesOf(e, tab, pos, before))
	}
	if e.inst >= 0 {
		i := e.inst
		p := &s.params[i]
		d := p.dayBar(s.seed, tab.k(pos), tab.ref(i, pos), tab.close(i, pos))
		return candles.Bar{Time: day, Open: d.open, High: d.high, Low: d.low, Close: d.close,
			Volume: d.lots * 1000, Turnover: d.estTurnover()}, true
	}
	return s.indexDayEstimate(s.indices[e.idx], tab, pos), true
}

// indexDayMinutes replays every constituent's trades of day pos second by second, exactly as the
// live index publishes them, and folds the values into minute bars. Complete days are cached.
func (s *Sim) indexDayMinutes(x *indexState, tab *table, pos int, before int64) []candles.Bar {
	dt := s.timesOf(tab, pos)
	complete := before > dt.close
	if complete {
		x.cacheMu.Lock()
		bars, ok := x.minutes[dt.start]
		x.cacheMu.Unlock()
		if ok {
			return bars
		}
	}
	type memberEvent struct {
		event
		member int32
	}
	var raw []memberEvent
	for j, i := range x.members {
		s.dayEvents(tab, i, pos, before, func(e event) { raw = append(raw, memberEvent{e, int32(j)}) })
	}
	// Counting sort by second (stable: each member's events are already in order).
	count := make([]int32, dt.close-dt.open+2)
	for _, e := range raw {
		count[e.at-dt.open+1]++
	}
	for i := 1; i < len(count); i++ {
		count[i] += count[i-1]
	}
	evs := make([]memberEvent, len(raw))
	for _, e := range raw {
		evs[count[e.at-dt.open]] = e
		count[e.at-dt.open]++
	}
	last := make([]price.Price, len(x.members))
	var capSum int64
	for j, i := range x.members {
		last[j] = tab.ref(i, pos)
		capSum += x.x.Delta(j, 0, last[j])
	}
	var m minuteBars
	for a := 0; a < len(evs); {
		at := evs[a].at
		var vol int64
		var val price.Price
		for ; a < len(evs) && evs[a].at == at; a++ {
			ev := evs[a]
			capSum += x.x.Delta(int(ev.member), last[ev.member], ev.price)
			last[ev.member] = ev.price
			sh := ev.lots * 1000
			vol += sh
			val += ev.price * price.Price(sh)
		}
		m.add(at, x.x.Value(capSum), vol, val)
	}
	if complete {
		x.cacheMu.Lock()
		// Keep the cache to the minute window (plus a day of slack).
		if len(x.minutes) > s.minuteDays+1 {
			oldest := tab.days[max(0, pos-s.minuteDays-1)].Unix()
			for k := range x.minutes {
				if k < oldest {
					delete(x.minutes, k)
				}
			}
		}
		x.minutes[dt.start] = m.bars
		x.cacheMu.Unlock()
	}
	return m.bars
}

// indexDayEstimate is an index's daily bar for a day without minute history: open and close are
// exact (the constituents' opens and closes), volume exact, turnover estimated like the
// constituents', and high and low estimated as 30 % of the constituents' combined excursions beyond
// open and close (constituents do not all peak at the same moment).
func (s *Sim) indexDayEstimate(x *indexState, tab *table, pos int) candles.Bar {
	key := tab.days[pos].Unix()
	x.cacheMu.Lock()
	b, ok := x.days[key]
	x.cacheMu.Unlock()
	if ok {
		return b
	}
	k := tab.k(pos)
	var capO, capC, upEx, downEx int64
	var vol int64
	var turn price.Price
	for j, i := range x.members {
		p := &s.params[i]
		d := p.dayBar(s.seed, k, tab.ref(i, pos), tab.close(i, pos))
		capO += x.x.Delta(j, 0, d.open)
		capC += x.x.Delta(j, 0, d.close)
		upEx += x.x.Delta(j, max(d.open, d.close), d.high)
		downEx += x.x.Delta(j, d.low, min(d.open, d.close))
		vol += d.lots * 1000
		turn += d.estTurnover()
	}
	b = candles.Bar{Time: tab.days[pos].In(taipei), Open: x.x.Value(capO), Close: x.x.Value(capC),
		High: x.x.Value(max(capO, capC) + upEx*3/10), Low: x.x.Value(min(capO, capC) - downEx*3/10),
		Volume: vol, Turnover: turn}
	x.cacheMu.Lock()
	x.days[key] = b
	x.cacheMu.Unlock()
	return b
}
