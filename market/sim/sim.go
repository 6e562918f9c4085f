// Package sim is lotbook's deterministic market simulator. Given a seed, every price of every
// instrument at every second is fixed (see model.go): the same seed gives the same market on any
// machine, after any restart, on any number of server instances. It implements feed.Feed and
// candles.History, trades only in the exchange's sessions (or around the clock with the demo
// schedule) and generates years of consistent history at once.
package sim

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/lotbook/lotbook/market/candles"
	"github.com/lotbook/lotbook/market/feed"
	"github.com/lotbook/lotbook/market/index"
	"github.com/lotbook/lotbook/market/instruments"
	"github.com/lotbook/lotbook/market/rules"
	"github.com/lotbook/lotbook/market/session"
)

// DefaultEpoch is day 0: its reference prices are the instruments' reference prices.
var DefaultEpoch = time.Date(2026, 1, 2, 0, 0, 0, 0, time.FixedZone("Asia/Taipei", 8*60*60))

// Config tunes the simulator; zero values take the defaults.
type Config struct {
	Seed       uint64
	Epoch      time.Time         // day 0 (default DefaultEpoch)
	Schedule   *session.Schedule // trading days and hours (default session.Taiwan())
	Years      int               // years of daily history before now (default 11)
	MinuteDays int               // trading days of minute history (default 5, today included)
}

// Sim is the running simulator.
type Sim struct {
	seed       uint64
	sched      *session.Schedule
	hours      session.Hours
	years      int
	minuteDays int
	epoch      time.Time

	insts   []*instrument
	params  []params
	indices []*indexState
	bySym   map[string]entry

	tab   atomic.Pointer[table]
	clock atomic.Int64 // last second whose trades are applied (unix)

	adv     sync.Mutex   // one Advance at a time
	mu      sync.RWMutex // guards the live state below and in insts/indices
	today   dayTimes
	pos     int // table position of the day whose quotes stand
	out     []feed.Update
	liveBuf planBuf // where the live instruments' plans are built

	daily *lru.Cache[dayKey, candles.Bar] // exact daily bars of complete days in the minute window

	subs feed.Subscribers
}

// entry finds a symbol: an instrument (index < 0) or an index (inst < 0).
type entry struct{ inst, idx int }

// dayTimes are one trading day's instants in unix seconds.
type dayTimes struct {
	start, preOpen, open, contEnd, close int64
	minutes                              int
	nextRoll                             int64 // pre-open of the next trading day
}

// instrument is one symbol's live state for the current day.
type instrument struct {
	in  *instruments.Instrument
	p   *params
	d   day
	win window
	buf []print

	// Cursor over the day's events: 0 opening auction, 1 continuous minutes, 2 closing auction, 3 done.
	phase  int
	minute int
	next   int   // index into buf
	nextAt int64 // unix second of the next event

	q feed.Quote

	// offset is where in each second the instrument's trades of that second are due (Run
	// publishes them then): one of phaseSlots steps, by the symbol's hash, so that a second's
	// updates are spread over it instead of arriving as one burst.
	offset time.Duration

	ix    *indexState // the index it belongs to, or nil
	ixPos int         // its position among that index's constituents
}

// New builds the simulator and brings it to now without publishing anything: the chains of daily
// closes over the history window, then the current day's trades up to now.
func New(cat *instruments.Catalog, cfg Config, now time.Time) (*Sim, error) {
	s := &Sim{seed: cfg.Seed, sched: cfg.Schedule, years: cfg.Years, minuteDays: cfg.MinuteDays,
		epoch: cfg.Epoch, bySym: map[string]entry{}, daily: dailyBars()}
	if s.sched == nil {
		s.sched = session.Taiwan()
	}
	if s.epoch.IsZero() {
		s.epoch = DefaultEpoch
	}
	if s.years <= 0 {
		s.years = 11
	}
	if s.minuteDays <= 0 {
		s.minuteDays = 5
	}
	s.hours = s.sched.Hours()
	all := cat.All()
	if len(all) == 0 {
		return nil, fmt.Errorf("sim: no instruments")
	}
	s.params = make([]params, len(all))
	s.insts = make([]*instrument, len(all))
	for i, in := range all {
		s.params[i] = newParams(s.seed, in)
		s.insts[i] = &instrument{in: in, p: &s.params[i], offset: offsetOf(s.params[i].ch)}
		s.bySym[in.Code] = entry{inst: i, idx: -1}
	}
	s.tab.Store(s.build(now))
	for j, def := range index.All {
		s.indices = append(s.indices, s.newIndex(def, j))
		s.bySym[def.Symbol] = entry{inst: -1, idx: j}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sec := now.Unix()
	s.clock.Store(sec)
	s.catchUp(s.stateDay(sec), sec)
	return s, nil
}

// build computes the table from the history window before now (and the epoch) to two months
// ahead: days ahead are never shown, and each costs a step of every chain at start-up, so the
// table is rather built again (at a day's roll, some 0.5 s of CPU) when they run out.
func (s *Sim) build(now time.Time) *table {
	from := now
	if s.epoch.Before(from) {
		from = s.epoch
	}
	from = from.AddDate(-s.years, 0, -7)
	to := now
	if s.epoch.After(to) {
		to = s.epoch
	}
	return buildTable(s.seed, s.sched, s.params, s.epoch, from, to.AddDate(0, 2, 0))
}

// stateDay is the table position of the day whose quotes stand at sec: from a trading day's
// pre-open on that day, before it the previous trading day.
func (s *Sim) stateDay(sec int64) int {
	t := time.Unix(sec, 0)
	d := s.sched.DayStart(t)
	if !s.sched.IsTradingDay(d) || t.Before(s.sched.At(d, s.hours.PreOpen)) {
		d = s.sched.PrevTradingDay(d)
	}
	return s.tab.Load().pos(d)
}

func (s *Sim) timesOf(tab *table, pos int) dayTimes {
	d := tab.days[pos]
	h := s.hours
	dt := dayTimes{start: d.Unix(), preOpen: s.sched.At(d, h.PreOpen).Unix(), open: s.sched.At(d, h.Open).Unix(),
		contEnd: s.sched.At(d, h.ContinuousEnd).Unix(), close: s.sched.At(d, h.Close).Unix(),
		minutes: int((h.ContinuousEnd - h.Open) / time.Minute)}
	next := s.sched.NextTradingDay(d)
	dt.nextRoll = s.sched.At(next, h.PreOpen).Unix()
	return dt
}

// rollTo makes day pos the current day of every symbol. Callers hold mu.
func (s *Sim) rollTo(pos int) {
	tab, pos := s.setDay(pos)
	done := s.today.start
	s.pos = pos
	s.today = s.timesOf(tab, pos)
	for i, l := range s.insts {
		it := s.startDay(l, i, tab, pos, &s.liveBuf)
		l.win.fill(it, &l.d, 0, l.win.end(l.p.ch, 0, s.today.minutes))
	}
	for _, x := range s.indices {
		x.roll(s, tab, pos, done)
	}
}

// setDay extends the table when day pos nears its end (two months after it was built; same
// seed, same past) and returns the table with pos in it.
func (s *Sim) setDay(pos int) (*table, int) {
	tab := s.tab.Load()
	if pos+2 >= len(tab.days) {
		day := tab.days[pos]
		tab = s.build(day)
		s.tab.Store(tab)
		pos = tab.pos(day)
	}
	return tab, pos
}

// startDay makes day pos instrument l's current day, before its first trade, and returns the
// day's plan, built in b.
func (s *Sim) startDay(l *instrument, i int, tab *table, pos int, b *planBuf) *intraday {
	ref, cl := tab.refClose(i, pos)
	l.d = l.p.dayBar(s.seed, tab.k(pos), ref, cl)
	l.phase, l.minute, l.next, l.buf = 0, 0, 0, l.buf[:0]
	l.nextAt = s.today.open
	l.q = feed.Quote{Symbol: l.in.Code, Day: tab.days[pos].In(taipei), Time: time.Unix(s.today.preOpen, 0).In(taipei),
		Last: ref, Ref: ref, LimitUp: rules.LimitUp(ref, l.p.kind), LimitDown: rules.LimitDown(ref, l.p.kind)}
	return l.p.plan(s.seed, tab.k(pos), &l.d, s.today.minutes, b)
}
