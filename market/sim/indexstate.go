package sim

import (
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
	members []int // instrument positions

	capSum  int64
	touched bool
	secVol  int64
	secVal  price.Price
	q       feed.Quote

	cacheMu sync.Mutex
	minutes map[int64][]candles.Bar // complete days' minute bars, by day start
	days    map[int64]candles.Bar   // estimated daily bars of days without minute history
}

func (s *Sim) newIndex(def index.Definition) *indexState {
	x := &indexState{minutes: map[int64][]candles.Bar{}, days: map[int64]candles.Bar{}}
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

// roll starts day pos: the reference is the value at the previous closes.
func (x *indexState) roll(s *Sim, tab *table, pos int) {
	x.capSum = 0
	for j, i := range x.members {
		x.capSum += x.x.Delta(j, 0, tab.ref(i, pos))
	}
	ref := x.x.Value(x.capSum)
	x.touched, x.secVol, x.secVal = false, 0, 0
	x.q = feed.Quote{Symbol: x.x.Def.Symbol, Day: tab.days[pos].In(taipei), Time: time.Unix(s.today.preOpen, 0).In(taipei), Last: ref, Ref: ref}
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
	x.touched, x.secVol, x.secVal = false, 0, 0
	return u, true
}

// catchUp sets the day's figures after a silent fast-forward to sec from the generated minute
// history, which samples the value second by second exactly as settle does live.
func (x *indexState) catchUp(s *Sim, sec int64) {
	x.touched, x.secVol, x.secVal = false, 0, 0
	tab := s.tab.Load()
	bars := s.indexDayMinutes(x, tab, s.pos, sec+1)
	q := &x.q
	for i, b := range bars {
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
