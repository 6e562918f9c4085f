package sim

import (
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/lotbook/lotbook/market/candles"
	"github.com/lotbook/lotbook/market/price"
)

// History is computed when asked, symbol by symbol and day by day: every day and every minute of
// the model can be generated alone, so nothing but the chains' kept values, the live day and a few
// small caches stays in memory.

// event is one generated trade.
type event struct {
	at    int64 // unix second
	price price.Price
	lots  int64
}

// planBufs lend plan memory to history queries, which run on the callers' goroutines.
var planBufs = sync.Pool{New: func() any { return new(planBuf) }}

// dayPlan is instrument i's day pos: its bar and its plan, built in b.
func (s *Sim) dayPlan(tab *table, i, pos int, b *planBuf) (day, *intraday) {
	p := &s.params[i]
	ref, cl := tab.refClose(i, pos)
	d := p.dayBar(s.seed, tab.k(pos), ref, cl)
	return d, p.plan(s.seed, tab.k(pos), &d, s.timesOf(tab, pos).minutes, b)
}

// events calls fn with the trades of minutes [lo, hi) of instrument i's day pos (with the opening
// auction when lo is 0, and the closing auction when hi is the day's last minute) in time order,
// stopping before `before`. It uses only immutable state, so it runs without locks.
func (s *Sim) events(tab *table, i, pos int, d *day, it *intraday, lo, hi int, before int64, fn func(event)) {
	dt := s.timesOf(tab, pos)
	if before <= dt.open {
		return
	}
	p := &s.params[i]
	k := tab.k(pos)
	if lo == 0 {
		fn(event{at: dt.open, price: d.open, lots: it.openLots})
	}
	var buf [20]print
	for j := lo; j < hi; j++ {
		base := dt.open + int64(j)*60
		if base >= before {
			return
		}
		for _, pr := range p.prints(s.seed, k, j, d, it.minute(j, d), buf[:0]) {
			at := base + int64(pr.sec)
			if at >= before {
				return
			}
			fn(event{at: at, price: pr.price, lots: int64(pr.lots)})
		}
	}
	if hi == dt.minutes && dt.close < before {
		fn(event{at: dt.close, price: d.close, lots: it.closeLots})
	}
}

// dayEvents calls fn with instrument i's trades of day pos in time order, stopping before `before`.
func (s *Sim) dayEvents(tab *table, i, pos int, before int64, fn func(event)) {
	b := planBufs.Get().(*planBuf)
	defer planBufs.Put(b)
	d, it := s.dayPlan(tab, i, pos, b)
	s.events(tab, i, pos, &d, it, 0, len(it.lots), before, fn)
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

// instMinutes are up to n of instrument i's newest minute bars of day pos before `before`. Only
// the minutes asked are generated: a minute's trades need the day's plan, not the minutes before.
func (s *Sim) instMinutes(tab *table, i, pos int, before int64, n int) []candles.Bar {
	dt := s.timesOf(tab, pos)
	if before <= dt.open || n <= 0 {
		return nil
	}
	b := planBufs.Get().(*planBuf)
	defer planBufs.Put(b)
	d, it := s.dayPlan(tab, i, pos, b)
	hi := min(dt.minutes, int((before-dt.open+59)/60))
	var out []candles.Bar
	for lo := hi; ; {
		from := max(0, lo-max(n-len(out), 8))
		var m minuteBars
		s.events(tab, i, pos, &d, it, from, lo, before, func(e event) {
			sh := e.lots * 1000
			m.add(e.at, e.price, sh, e.price*price.Price(sh))
		})
		out = append(m.bars, out...)
		lo = from
		if len(out) >= n || lo == 0 {
			break
		}
	}
	return out[max(0, len(out)-n):]
}

// instDay is instrument i's exact daily bar of day pos from its trades before `before`, false
// when it has none. Complete days are cached.
func (s *Sim) instDay(tab *table, i, pos int, before int64) (candles.Bar, bool) {
	day := tab.days[pos].In(taipei)
	// The live day up to now: the quote is the fold of every trade so far.
	s.mu.RLock()
	q := s.insts[i].q
	live := q.Day.Equal(day) && s.clock.Load() < before
	s.mu.RUnlock()
	if live {
		if !q.Traded() {
			return candles.Bar{}, false
		}
		return candles.Bar{Time: day, Open: q.Open, High: q.High, Low: q.Low, Close: q.Last, Volume: q.Volume, Turnover: q.Turnover}, true
	}
	dt := s.timesOf(tab, pos)
	complete := before > dt.close
	key := dayKey{i, dt.start}
	if complete {
		if b, ok := s.daily.Get(key); ok {
			return b, true
		}
	}
	var b candles.Bar
	n := 0
	s.dayEvents(tab, i, pos, before, func(e event) {
		sh := e.lots * 1000
		if n == 0 {
			b = candles.Bar{Time: day, Open: e.price, High: e.price, Low: e.price}
		}
		b.High, b.Low, b.Close = max(b.High, e.price), min(b.Low, e.price), e.price
		b.Volume += sh
		b.Turnover += e.price * price.Price(sh)
		n++
	})
	if n == 0 {
		return candles.Bar{}, false
	}
	if complete {
		s.daily.Add(key, b)
	}
	return b, true
}

// dayKey names an instrument's day in the daily cache.
type dayKey struct {
	inst int
	day  int64 // unix start
}

// dailyCache bounds the exact daily bars kept (about 150 bytes each): the four complete days in the
// minute window of every symbol. Each costs a replay of the day's trades (0.1 to 0.5 ms), and a
// daily, monthly or yearly chart needs all four.
const dailyCache = 10000

func dailyBars() *lru.Cache[dayKey, candles.Bar] {
	c, err := lru.New[dayKey, candles.Bar](dailyCache)
	if err != nil {
		panic("sim: daily bars: " + err.Error()) // dailyCache is positive
	}
	return c
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
	top := tab.pos(s.sched.DayStart(time.Unix(b-1, 0)))
	// An instrument's daily bars need its chain over the days asked (and one more: the newest day
	// may have no bar yet), walked once.
	var chain []int32
	lo := max(0, top-n-1)
	if base == candles.Days && e.inst >= 0 && top >= 0 {
		chain = make([]int32, top-lo+2)
		tab.chain(e.inst, lo, top+1, chain)
	}
	var chunks [][]candles.Bar
	got := 0
	for pos := top; pos >= 0 && got < n; pos-- {
		if base == candles.Minutes && pos < first {
			break
		}
		var part []candles.Bar
		switch {
		case base == candles.Minutes && e.inst >= 0:
			part = s.instMinutes(tab, e.inst, pos, b, n-got)
		case base == candles.Minutes:
			part = s.indexMinutes(s.indices[e.idx], tab, pos, b)
		case pos >= first && e.inst >= 0:
			if bar, ok := s.instDay(tab, e.inst, pos, b); ok {
				part = []candles.Bar{bar}
			}
		case pos >= first:
			if bar, ok := daily(tab.days[pos].In(taipei), s.indexMinutes(s.indices[e.idx], tab, pos, b)); ok {
				part = []candles.Bar{bar}
			}
		case e.inst >= 0:
			ref, cl := price.Price(chain[pos-lo]), price.Price(chain[pos-lo+1])
			d := s.params[e.inst].dayBar(s.seed, tab.k(pos), ref, cl)
			part = []candles.Bar{{Time: tab.days[pos].In(taipei), Open: d.open, High: d.high, Low: d.low, Close: d.close,
				Volume: d.lots * 1000, Turnover: d.estTurnover()}}
		default:
			part = []candles.Bar{s.indexDayEstimate(s.indices[e.idx], tab, pos)}
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
