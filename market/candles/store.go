package candles

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lotbook/lotbook/market/price"
)

// History supplies bars older than what the store holds.
type History interface {
	// Bars returns up to n bars of base built from symbol's trades strictly before `before`, the
	// newest ones, oldest first (the last may be partial when `before` falls inside it).
	Bars(symbol string, base Base, before time.Time, n int) []Bar
}

// Trade is what the store aggregates.
type Trade struct {
	Symbol string
	Time   time.Time
	Price  price.Price
	Size   int64       // shares
	Value  price.Price // NT$ in hundredths (price × size for a stock; the index's turnover change)
}

// Limits bound the store.
type Limits struct {
	Minutes int // 1-minute bars kept per symbol
	Days    int // daily bars kept per symbol
	MaxPage int // most candles one query returns
	// Symbols bounds the symbols with bars kept when there is History to fall back to: a symbol is
	// kept from its first trade while there is room, or from its next trade once queried, and the
	// least recently queried one makes room. Without History every symbol is kept.
	Symbols int
}

// DefaultLimits keep two hours of minutes and about a year of days (they start with the day in
// progress) for 256 symbols; everything else comes from History.
var DefaultLimits = Limits{Minutes: 120, Days: 260, MaxPage: 1000, Symbols: 256}

// unbounded asks History for its newest bars: History clamps `before` to its own clock, which
// need not be the wall clock.
var unbounded = time.Unix(1<<40, 0)

// ErrLimit is returned for a non-positive page size.
var ErrLimit = errors.New("limit must be positive")

// Store keeps recent bars of a bounded set of symbols and answers paged queries.
type Store struct {
	hist   History
	limits Limits
	uses   atomic.Int64 // counts queries, to tell the least recently queried symbol

	mu     sync.RWMutex
	syms   map[string]*series
	wanted map[string]bool // queried symbols to keep from their next trade
}

type series struct {
	min, day ring
	used     atomic.Int64 // the uses count at its latest query; 0 never queried
}

// NewStore makes a store; hist may be nil when there is no older data.
func NewStore(hist History, limits Limits) *Store {
	if limits.Minutes <= 0 {
		limits.Minutes = DefaultLimits.Minutes
	}
	if limits.Days <= 0 {
		limits.Days = DefaultLimits.Days
	}
	if limits.MaxPage <= 0 {
		limits.MaxPage = DefaultLimits.MaxPage
	}
	if limits.Symbols <= 0 {
		limits.Symbols = DefaultLimits.Symbols
	}
	return &Store{hist: hist, limits: limits, syms: map[string]*series{}, wanted: map[string]bool{}}
}

// Add folds one trade into the symbol's minute and day bars. A symbol starts being kept on a
// trade (see Limits.Symbols) by loading from History its newest minutes and the day in progress
// up to that trade; older bars stay in History and Query reads them there.
func (s *Store) Add(t Trade) {
	s.mu.RLock()
	sr := s.syms[t.Symbol]
	admit := sr == nil && (s.hist == nil || s.wanted[t.Symbol] || len(s.syms) < s.limits.Symbols)
	s.mu.RUnlock()
	if sr == nil {
		if !admit {
			return
		}
		// Load outside the lock: History may be slow; a racing first trade loads twice, one wins.
		fresh := &series{min: newRing(s.limits.Minutes), day: newRing(s.limits.Days)}
		if s.hist != nil {
			for _, b := range s.hist.Bars(t.Symbol, Minutes, t.Time, s.limits.Minutes) {
				fresh.min.push(b)
			}
			for _, b := range s.hist.Bars(t.Symbol, Days, t.Time, 1) {
				fresh.day.push(b)
			}
		}
		s.mu.Lock()
		if sr = s.syms[t.Symbol]; sr == nil {
			if s.hist != nil && len(s.syms) >= s.limits.Symbols {
				s.evict()
			}
			sr = fresh
			s.syms[t.Symbol] = sr
			delete(s.wanted, t.Symbol)
		}
		s.mu.Unlock()
	}
	b := Bar{Open: t.Price, High: t.Price, Low: t.Price, Close: t.Price, Volume: t.Size, Turnover: t.Value}
	s.mu.Lock()
	b.Time = Min1.Bucket(t.Time)
	sr.min.add(b)
	b.Time = Day.Bucket(t.Time)
	sr.day.add(b)
	s.mu.Unlock()
}

// Query returns up to limit candles of iv that start before `before` (zero: no bound), newest
// last. Paging backwards: pass the Time of the oldest candle received.
func (s *Store) Query(symbol string, iv Interval, before time.Time, limit int) ([]Bar, error) {
	if limit <= 0 {
		return nil, ErrLimit
	}
	if limit > s.limits.MaxPage {
		limit = s.limits.MaxPage
	}
	cut := before
	if !cut.IsZero() {
		// A `before` inside a candle keeps that whole candle.
		if b := iv.Bucket(before); !b.Equal(before) {
			cut = iv.next(b)
		}
	}
	want := (limit + 1) * iv.PerBucket()
	base := iv.Base()

	s.mu.RLock()
	var recent []Bar
	sr := s.syms[symbol]
	if sr != nil {
		sr.used.Store(s.uses.Add(1))
		r := &sr.min
		if base == Days {
			r = &sr.day
		}
		recent = r.before(cut, want)
	}
	s.mu.RUnlock()
	if sr == nil && s.hist != nil {
		s.want(symbol)
	}

	bars := recent
	exhausted := true
	if len(recent) < want && s.hist != nil {
		older := cut
		if len(recent) > 0 {
			older = recent[0].Time
		}
		if older.IsZero() {
			older = unbounded
		}
		need := want - len(recent)
		h := s.hist.Bars(symbol, base, older, need)
		exhausted = len(h) < need
		bars = append(append(make([]Bar, 0, len(h)+len(recent)), h...), recent...)
	} else if len(recent) == want {
		exhausted = false
	}
	out := Aggregate(bars, iv)
	if !exhausted && len(out) > 0 {
		// The oldest candle may be missing base bars beyond what was fetched.
		out = out[1:]
	}
	if len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out, nil
}

// want keeps symbol from its next trade.
func (s *Store) want(symbol string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.wanted) >= s.limits.Symbols {
		// Symbols that never trade would pile up.
		clear(s.wanted)
	}
	s.wanted[symbol] = true
}

// evict drops the least recently queried symbol. Callers hold mu.
func (s *Store) evict() {
	var victim string
	oldest := int64(-1)
	for sym, sr := range s.syms {
		if u := sr.used.Load(); oldest < 0 || u < oldest {
			victim, oldest = sym, u
		}
	}
	delete(s.syms, victim)
}

// Symbols is the number of symbols with bars in memory.
func (s *Store) Symbols() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.syms)
}

// ring is a bounded, time-ordered list of bars: the oldest fall off.
type ring struct {
	bars  []bar
	start int // index of the oldest
	n     int
}

// bar is Bar without the time zone pointer and with 32-bit prices: 40 bytes instead of 72,
// which matters at thousands of symbols.
type bar struct {
	t                      int64 // unix seconds
	open, high, low, close int32
	volume                 int64
	turnover               int64
}

func pack(b Bar) bar {
	return bar{t: b.Time.Unix(), open: int32(b.Open), high: int32(b.High), low: int32(b.Low),
		close: int32(b.Close), volume: b.Volume, turnover: int64(b.Turnover)}
}

func (b bar) unpack() Bar {
	return Bar{Time: time.Unix(b.t, 0).In(Location), Open: price.Price(b.open), High: price.Price(b.high),
		Low: price.Price(b.low), Close: price.Price(b.close), Volume: b.volume, Turnover: price.Price(b.turnover)}
}

func newRing(capacity int) ring { return ring{bars: make([]bar, 0, min(capacity, 8)), n: capacity} }

func (r *ring) at(i int) *bar { return &r.bars[(r.start+i)%len(r.bars)] }

func (r *ring) push(b Bar) {
	if len(r.bars) < r.n {
		// Still growing: the ring is in order from index 0. Grow by doubling, never past n.
		if len(r.bars) == cap(r.bars) {
			grown := make([]bar, len(r.bars), min(r.n, 2*cap(r.bars)))
			copy(grown, r.bars)
			r.bars = grown
		}
		r.bars = append(r.bars, pack(b))
		return
	}
	r.bars[r.start] = pack(b)
	r.start = (r.start + 1) % len(r.bars)
}

// add merges b into the newest bar when it has the same start, else appends it. Trades arrive in
// time order per symbol, so an older bucket cannot come back.
func (r *ring) add(b Bar) {
	if l := len(r.bars); l > 0 {
		last := r.at(l - 1)
		if last.t == b.Time.Unix() {
			nb := last.unpack()
			nb.merge(b)
			*last = pack(nb)
			return
		}
		if last.t > b.Time.Unix() {
			return
		}
	}
	r.push(b)
}

// before returns up to n of the newest bars starting before cut (all when cut is zero), oldest first.
func (r *ring) before(cut time.Time, n int) []Bar {
	end := len(r.bars)
	if !cut.IsZero() {
		c := cut.Unix()
		for end > 0 && r.at(end-1).t >= c {
			end--
		}
	}
	from := max(0, end-n)
	out := make([]Bar, 0, end-from)
	for i := from; i < end; i++ {
		out = append(out, r.at(i).unpack())
	}
	return out
}
