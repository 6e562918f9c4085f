// Package market is lotbook's market data: every TWSE and TPEx stock and ETF, a deterministic
// simulator that trades them by the exchange's rules, candles, indices, and quote streaming.
// Callers use one façade, Service; prices in its answers are shopspring decimals, times are
// instants (render them in Asia/Taipei, send them as RFC 3339 UTC).
//
// Wiring (cmd/lotbook or api):
//
//	mkt, err := market.New(market.Config{Seed: 1, Demo: demoFlag})
//	go mkt.Run(ctx) // ticks the simulator until ctx ends, each symbol at its offset within the second
//
// The HTTP paths of issue 4 map one to one:
//
//	GET /api/vue/market/stocks?tab=&market=&page=    mkt.Stocks(ListQuery{Tab, Market, Page, Size})
//	GET /api/vue/market/stocks/{symbol}              mkt.Quote(symbol)   (quote, best five, reference, limits)
//	GET /api/vue/market/stocks/{symbol}/candles      mkt.Candles(symbol, interval, before, limit)
//	GET /api/vue/market/search?q=                    mkt.Search(q, limit)
//	GET /api/vue/market/indices                      mkt.Indices()
//	WebSocket quote.X / book.X topics               sub := mkt.Subscribe(symbols...); <-sub.Ready(); sub.Take()
//
// Bad input comes back as one of the Err values (wrap-aware; map them to 400/404 with a message
// key). A Subscription never queues: a slow reader gets each symbol's latest quote once.
// For order entry, CheckPrice validates a limit price against the symbol's tick table and the
// day's band, and Session tells which session runs.
package market

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/market/candles"
	"github.com/lotbook/lotbook/market/feed"
	"github.com/lotbook/lotbook/market/index"
	"github.com/lotbook/lotbook/market/instruments"
	"github.com/lotbook/lotbook/market/rules"
	"github.com/lotbook/lotbook/market/session"
	"github.com/lotbook/lotbook/market/sim"
)

// Config sets up the service; zero values take the defaults.
type Config struct {
	Seed  uint64
	Demo  bool             // trade around the clock every day (the app labels it)
	Epoch time.Time        // the simulator's day 0 (default sim.DefaultEpoch)
	Now   func() time.Time // the clock (default time.Now); tests inject one
	Tick  time.Duration    // how often Run advances the simulator (default 1 s)
	// Candles bounds the candles kept in memory, per symbol and in symbols (default
	// candles.DefaultLimits); the simulator computes any others when asked.
	Candles candles.Limits
}

// Errors for bad input. Suggested HTTP mapping: ErrUnknownSymbol 404 not_found, the rest 400
// invalid_request.
var (
	ErrUnknownSymbol = errors.New("unknown symbol")
	ErrBadInterval   = errors.New("unknown candle interval")
	ErrBadTab        = errors.New("unknown list tab")
	ErrBadMarket     = errors.New("unknown market")
	ErrBadType       = errors.New("unknown instrument type")
	ErrBadPage       = errors.New("page out of range")
	ErrBadLimit      = errors.New("limit out of range")
)

// Service is the market façade.
type Service struct {
	cat   *instruments.Catalog
	sim   *sim.Sim
	store *candles.Store
	hub   *feed.Hub
	sched *session.Schedule
	now   func() time.Time
	tick  time.Duration
	demo  bool
	divs  *dividendBook

	statuses statusBook

	listMu   sync.Mutex
	listAt   time.Time
	listData []feed.Quote
	lists    map[string][]int
}

// New builds the instrument list and the simulator, brought to the current time with its history.
func New(cfg Config) (*Service, error) {
	cat, err := instruments.Default()
	if err != nil {
		return nil, fmt.Errorf("market: %w", err)
	}
	s := &Service{cat: cat, hub: feed.NewHub(), now: cfg.Now, tick: cfg.Tick, demo: cfg.Demo, lists: map[string][]int{}}
	if s.now == nil {
		s.now = time.Now
	}
	if s.tick <= 0 {
		s.tick = time.Second
	}
	s.divs = newDividendBook(cat, cfg.Seed)
	s.sched = session.Taiwan()
	if cfg.Demo {
		s.sched = session.Demo()
	}
	s.sim, err = sim.New(cat, sim.Config{Seed: cfg.Seed, Epoch: cfg.Epoch, Schedule: s.sched}, s.now())
	if err != nil {
		return nil, fmt.Errorf("market: %w", err)
	}
	s.store = candles.NewStore(s.sim, cfg.Candles)
	s.sim.Subscribe(func(u feed.Update) {
		if u.Trade {
			s.store.Add(candles.Trade{Symbol: u.Symbol, Time: u.Time, Price: u.Last, Size: u.LastSize, Value: u.Value})
		}
		s.hub.Publish(u)
	})
	return s, nil
}

// Run advances the market until ctx ends: each second (tick) in steps, each instrument's trades
// of a second published at its offset within it (Quote.Due).
func (s *Service) Run(ctx context.Context) error { return s.sim.Run(ctx, s.now, s.tick) }

// Advance brings the market to now at once (tests and tools; Run does it on a timer).
func (s *Service) Advance() { s.sim.Advance(s.now()) }

// Level is one best-five level.
type Level struct {
	Price decimal.Decimal
	Size  int64 // shares
}

// Quote is a symbol's state for its trading day.
type Quote struct {
	Symbol string
	Name   string // Chinese
	NameEN string // English (the Chinese name when there is no English one)
	Market string // "listed" or "otc"
	Type   string // "stock", "etf" or "index"
	// Price is the last trade, or the reference before the day's first trade.
	Price         decimal.Decimal
	Change        decimal.Decimal // Price − PrevClose
	ChangePercent decimal.Decimal // percent, two decimals
	PrevClose     decimal.Decimal // the day's reference price
	// Open, High and Low are zero while Traded is false.
	Open, High, Low decimal.Decimal
	Traded          bool
	Volume          int64           // shares (a board lot, 張, is 1,000)
	Turnover        decimal.Decimal // NT$
	// LimitUp and LimitDown are zero for indices.
	LimitUp, LimitDown decimal.Decimal
	Bids, Asks         []Level // best first; only in Quote and Subscription answers
	Time               time.Time
	// Status is the day's 注意 / 處置 status (normal for indices).
	Status TradingStatus
}

// Due is when q's state fell due, when Run publishes it: its Time plus the symbol's offset
// within the second (the simulator spreads each second's updates over it), for an index the
// end of Time's second. Delivery delay counts from here.
func (s *Service) Due(q Quote) time.Time { return s.sim.Due(q.Symbol, q.Time) }

func (s *Service) quote(q feed.Quote, bids, asks []feed.Level) Quote {
	out := Quote{Symbol: q.Symbol, Price: q.Last.Decimal(), PrevClose: q.Ref.Decimal(), Traded: q.Traded(),
		Volume: q.Volume, Turnover: q.Turnover.Decimal(), Time: q.Time,
		LimitUp: q.LimitUp.Decimal(), LimitDown: q.LimitDown.Decimal(), Status: s.statusOf(q)}
	if in, ok := s.cat.Lookup(q.Symbol); ok {
		out.Name, out.NameEN, out.Market, out.Type = in.Name, in.NameEN, string(in.Market), string(in.Type)
	} else {
		for _, d := range index.All {
			if d.Symbol == q.Symbol {
				out.Name, out.NameEN, out.Market, out.Type = d.Name, d.NameEN, string(d.Market), "index"
			}
		}
	}
	change := q.Last - q.Ref
	out.Change = change.Decimal()
	if q.Ref > 0 {
		out.ChangePercent = decimal.NewFromInt(int64(change)).Mul(decimal.NewFromInt(100)).
			DivRound(decimal.NewFromInt(int64(q.Ref)), 2)
	}
	if out.Traded {
		out.Open, out.High, out.Low = q.Open.Decimal(), q.High.Decimal(), q.Low.Decimal()
	}
	for _, l := range bids {
		out.Bids = append(out.Bids, Level{Price: l.Price.Decimal(), Size: l.Size})
	}
	for _, l := range asks {
		out.Asks = append(out.Asks, Level{Price: l.Price.Decimal(), Size: l.Size})
	}
	return out
}

// Quote is a symbol's quote with best five (indices have no book). Symbols are codes such as
// "2330", "00679B" (case-insensitive) or the index symbols "TAIEX" and "TPEX".
func (s *Service) Quote(symbol string) (Quote, error) {
	snap, ok := s.sim.Snapshot(normalize(symbol))
	if !ok {
		return Quote{}, fmt.Errorf("%w: %q", ErrUnknownSymbol, symbol)
	}
	return s.quote(snap.Quote, snap.Bids, snap.Asks), nil
}

func normalize(symbol string) string { return strings.ToUpper(strings.TrimSpace(symbol)) }

// Indices are the listed (TAIEX-like) and OTC index quotes.
func (s *Service) Indices() []Quote {
	qs := s.sim.IndexQuotes()
	out := make([]Quote, len(qs))
	for i, q := range qs {
		out[i] = s.quote(q, nil, nil)
	}
	return out
}

// AllTaiwan is the spec's stock type constant: every Taiwan stock, of both markets, stocks and
// ETFs. Wherever a client names a market or an instrument type to list, it means no filter.
const AllTaiwan = "twd"

// Filter is a client's market or instrument-type filter with AllTaiwan read as no filter ("").
func Filter(v string) string {
	if v == AllTaiwan {
		return ""
	}
	return v
}

// ListQuery selects a page of the market list.
type ListQuery struct {
	Tab    string // "all" (by code, the default), "gainers", "losers", "volume"
	Market string // "listed", "otc", or "" (or AllTaiwan) for both
	Type   string // "stock", "etf", or "" (or AllTaiwan) for both
	Page   int    // from 1 (0 means 1)
	Size   int    // 1..100 (0 means 20)
}

// Page is one page of a list.
type Page struct {
	Items   []Quote
	Page    int
	Size    int
	Total   int
	HasMore bool
}

// Stocks is a page of the market list: gainers by change percent descending, losers ascending,
// volume by shares traded descending, ties by code. Page 1 always exists; a later page past the
// end is ErrBadPage.
func (s *Service) Stocks(q ListQuery) (Page, error) {
	if q.Tab == "" {
		q.Tab = "all"
	}
	q.Market, q.Type = Filter(q.Market), Filter(q.Type)
	if !slices.Contains([]string{"all", "gainers", "losers", "volume"}, q.Tab) {
		return Page{}, fmt.Errorf("%w: %q", ErrBadTab, q.Tab)
	}
	if q.Market != "" && q.Market != string(instruments.Listed) && q.Market != string(instruments.OTC) {
		return Page{}, fmt.Errorf("%w: %q", ErrBadMarket, q.Market)
	}
	if q.Type != "" && q.Type != string(instruments.StockType) && q.Type != string(instruments.ETFType) {
		return Page{}, fmt.Errorf("%w: %q", ErrBadType, q.Type)
	}
	if q.Page == 0 {
		q.Page = 1
	}
	if q.Size == 0 {
		q.Size = 20
	}
	if q.Size < 1 || q.Size > 100 {
		return Page{}, fmt.Errorf("%w: size %d", ErrBadLimit, q.Size)
	}
	data, order := s.list(q)
	total := len(order)
	// Compared in pages, not rows: (Page-1)*Size overflows for a huge page.
	if q.Page < 1 || (q.Page > 1 && q.Page-1 >= (total+q.Size-1)/q.Size) {
		return Page{}, fmt.Errorf("%w: page %d of %d items", ErrBadPage, q.Page, total)
	}
	from := (q.Page - 1) * q.Size
	to := min(total, from+q.Size)
	p := Page{Page: q.Page, Size: q.Size, Total: total, HasMore: to < total}
	for _, i := range order[from:to] {
		p.Items = append(p.Items, s.quote(data[i], nil, nil))
	}
	return p, nil
}

// list is the sorted order of one list, cached until the simulator's clock moves.
func (s *Service) list(q ListQuery) ([]feed.Quote, []int) {
	s.listMu.Lock()
	defer s.listMu.Unlock()
	if at := s.sim.Now(); !at.Equal(s.listAt) || s.listData == nil {
		s.listData = s.sim.Quotes(s.listData[:0])
		s.listAt = at
		clear(s.lists)
	}
	k := q.Tab + "/" + q.Market + "/" + q.Type
	if order, ok := s.lists[k]; ok {
		return s.listData, order
	}
	data := s.listData
	all := s.cat.All() // same order as the simulator's quotes
	var order []int
	for i, in := range all {
		if (q.Market == "" || string(in.Market) == q.Market) && (q.Type == "" || string(in.Type) == q.Type) {
			order = append(order, i)
		}
	}
	// Change ratios compared exactly: a/b > c/d as a·d > c·b (references are positive).
	cmpPct := func(a, b int) int {
		x, y := data[a], data[b]
		l := int64(x.Last-x.Ref) * int64(y.Ref)
		r := int64(y.Last-y.Ref) * int64(x.Ref)
		switch {
		case l < r:
			return -1
		case l > r:
			return 1
		}
		return 0
	}
	byCode := func(a, b int) int { return strings.Compare(data[a].Symbol, data[b].Symbol) }
	switch q.Tab {
	case "gainers":
		slices.SortStableFunc(order, func(a, b int) int { return cmpOr(-cmpPct(a, b), byCode(a, b)) })
	case "losers":
		slices.SortStableFunc(order, func(a, b int) int { return cmpOr(cmpPct(a, b), byCode(a, b)) })
	case "volume":
		slices.SortStableFunc(order, func(a, b int) int {
			return cmpOr(compareInt(data[b].Volume, data[a].Volume), byCode(a, b))
		})
	}
	s.lists[k] = order
	return data, order
}

func cmpOr(c ...int) int {
	for _, x := range c {
		if x != 0 {
			return x
		}
	}
	return 0
}

func compareInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Candle is one OHLCV candle.
type Candle struct {
	Time                   time.Time // start of the candle
	Open, High, Low, Close decimal.Decimal
	Volume                 int64 // shares
	Turnover               decimal.Decimal
}

// Candles are up to limit candles of interval ("1m", "3m", "5m", "15m", "30m", "60m", "1d", "1w", "1M", "1y") that
// start before `before` (zero: up to now), oldest first. Page backwards with the oldest Time.
// Minute candles reach back five trading days, daily ones eleven years.
func (s *Service) Candles(symbol, interval string, before time.Time, limit int) ([]Candle, error) {
	iv, err := candles.ParseInterval(interval)
	if err != nil {
		return nil, fmt.Errorf("%w: %q", ErrBadInterval, interval)
	}
	sym := normalize(symbol)
	if _, ok := s.sim.Snapshot(sym); !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownSymbol, symbol)
	}
	if limit < 1 || limit > candles.DefaultLimits.MaxPage {
		return nil, fmt.Errorf("%w: %d (1..%d)", ErrBadLimit, limit, candles.DefaultLimits.MaxPage)
	}
	bars, err := s.store.Query(sym, iv, before, limit)
	if err != nil {
		return nil, fmt.Errorf("market: candles: %w", err)
	}
	out := make([]Candle, len(bars))
	for i, b := range bars {
		out[i] = Candle{Time: b.Time, Open: b.Open.Decimal(), High: b.High.Decimal(), Low: b.Low.Decimal(),
			Close: b.Close.Decimal(), Volume: b.Volume, Turnover: b.Turnover.Decimal()}
	}
	return out, nil
}

// Search finds instruments by code or by name in Chinese or English (TSMC, 台積電, 2330), best
// matches first, with their current quotes (no book).
func (s *Service) Search(q string, limit int) []Quote {
	if limit <= 0 || limit > 50 {
		limit = 20
	}
	hits := s.cat.Search(q, limit)
	out := make([]Quote, 0, len(hits))
	for _, in := range hits {
		if snap, ok := s.sim.Snapshot(in.Code); ok {
			out = append(out, s.quote(snap.Quote, nil, nil))
		}
	}
	return out
}

// Instrument describes a symbol.
type Instrument struct {
	Symbol, Name, NameEN string
	Market, Type         string
	Industry, IndustryEN string
	Listed               time.Time
	BoardLot             int64 // shares per board lot
}

// Instrument looks a symbol up.
func (s *Service) Instrument(symbol string) (Instrument, error) {
	in, ok := s.cat.Lookup(symbol)
	if !ok {
		return Instrument{}, fmt.Errorf("%w: %q", ErrUnknownSymbol, symbol)
	}
	return Instrument{Symbol: in.Code, Name: in.Name, NameEN: in.NameEN, Market: string(in.Market), Type: string(in.Type),
		Industry: in.Industry, IndustryEN: in.IndustryEN, Listed: in.Listed, BoardLot: 1000}, nil
}

// CheckPrice validates an order's limit price for symbol: two decimals at most, on the tick grid
// of its type, within today's band. Errors wrap ErrUnknownSymbol or one of rules.Err*.
func (s *Service) CheckPrice(symbol string, p decimal.Decimal) error {
	in, ok := s.cat.Lookup(symbol)
	if !ok {
		return fmt.Errorf("%w: %q", ErrUnknownSymbol, symbol)
	}
	snap, _ := s.sim.Snapshot(in.Code)
	return rules.CheckPrice(p, snap.Ref.Decimal(), in.Kind())
}

// SessionInfo says what trades now.
type SessionInfo struct {
	Phase  string // closed, pre_open, continuous, closing_auction, after_hours_fixed
	OddLot string // closed, intraday, after_hours
	// FixedPrice and OddAfterHours: the after-hours sessions take orders (the demo: beside the
	// day's sessions); AfterHoursEvery is the cadence of their call auctions while they do, zero
	// for the exchange's one auction when their entry ends.
	FixedPrice, OddAfterHours bool
	AfterHoursEvery           time.Duration
	Demo                      bool // the market trades around the clock (demo mode)
	NextOpen                  time.Time
	NextClose                 time.Time
}

// Session is the session at the service's current time.
func (s *Service) Session() SessionInfo {
	now := s.now()
	ss := s.sched.SessionAt(now)
	return SessionInfo{Phase: ss.Phase.String(), OddLot: ss.OddLot.String(), FixedPrice: ss.FixedPrice, OddAfterHours: ss.OddAfterHours,
		AfterHoursEvery: s.sched.Hours().AfterHoursEvery, Demo: s.demo, NextOpen: s.sched.NextOpen(now), NextClose: s.sched.NextClose(now)}
}

// Subscription streams quotes of chosen symbols, latest state wins.
type Subscription struct {
	s   *Service
	sub *feed.Subscription
}

// Subscribe watches symbols (all symbols when none; unknown ones never update).
func (s *Service) Subscribe(symbols ...string) *Subscription {
	return &Subscription{s: s, sub: s.hub.Subscribe(norm(symbols)...)}
}

// Ready is signalled when quotes changed since the last Take.
func (u *Subscription) Ready() <-chan struct{} { return u.sub.Ready() }

// Take returns the current quote, with best five, of every symbol that changed since the last
// Take, in the order they first changed.
func (u *Subscription) Take() []Quote {
	ups := u.sub.Take()
	out := make([]Quote, 0, len(ups))
	for _, up := range ups {
		if snap, ok := u.s.sim.Snapshot(up.Symbol); ok {
			out = append(out, u.s.quote(snap.Quote, snap.Bids, snap.Asks))
		}
	}
	return out
}

// Watch adds symbols.
func (u *Subscription) Watch(symbols ...string) { u.sub.Watch(norm(symbols)...) }

// Unwatch removes symbols.
func (u *Subscription) Unwatch(symbols ...string) { u.sub.Unwatch(norm(symbols)...) }

// Close ends the subscription.
func (u *Subscription) Close() { u.sub.Close() }

func norm(symbols []string) []string {
	out := make([]string, len(symbols))
	for i, s := range symbols {
		out[i] = normalize(s)
	}
	return out
}
