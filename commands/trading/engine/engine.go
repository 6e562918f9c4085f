// Package engine is the matching engine, a process manager on the write side's runtime
// (commands/process): a resting-order book per symbol, folded from the event log, matched on every
// quote update of a symbol it holds orders for. Every decision is a command with a deterministic
// id (order number and fill sequence, order number and "expire", ...), so that a retry, a restart
// or a second instance never applies one twice; commands decide on the account's own state, the
// engine only says when. Once a second (a timer of the runtime) it sweeps: day orders whose
// session ended expire, day trades still open after the continuous session close, margin
// accounts are checked against the maintenance rule.
//
// The fold (resting orders, open positions, open margin calls) is saved with the runtime's
// checkpoint, so a start reads only the events after it. It needs no HTTP: api only starts it.
package engine

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/process"
	"github.com/lotbook/lotbook/commands/rules/margin"
	"github.com/lotbook/lotbook/commands/rules/matching"
	"github.com/lotbook/lotbook/commands/rules/ticket"
	"github.com/lotbook/lotbook/commands/trading"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market"
)

// Name names the engine's checkpoint and metrics.
const Name = "trading-engine"

// QuoteFeed tells which watched symbols' quotes changed.
type QuoteFeed interface {
	Watch(symbols ...string)
	Unwatch(symbols ...string)
	Ready() <-chan struct{}
	Changed() []string
}

// marketFeed is the market's subscription, opened with the first symbol (a subscription to no
// symbol would watch them all).
type marketFeed struct {
	mkt *market.Service
	sub *market.Subscription
}

func (f *marketFeed) Watch(symbols ...string) {
	if f.sub == nil {
		f.sub = f.mkt.Subscribe(symbols...)
		return
	}
	f.sub.Watch(symbols...)
}

func (f *marketFeed) Unwatch(symbols ...string) {
	if f.sub != nil {
		f.sub.Unwatch(symbols...)
	}
}

func (f *marketFeed) Ready() <-chan struct{} {
	if f.sub == nil {
		return nil
	}
	return f.sub.Ready()
}

func (f *marketFeed) Changed() []string {
	qs := f.sub.Take()
	out := make([]string, len(qs))
	for i, q := range qs {
		out[i] = q.Symbol
	}
	return out
}

// order and position are the fold's records; their fields are exported for the checkpoint.
type order struct {
	MemberID   string          `json:"member"`
	OrderNo    string          `json:"orderNo"`
	PositionID string          `json:"positionId"`
	Symbol     string          `json:"symbol"`
	Day        string          `json:"day"`
	By         string          `json:"by"`
	Buy        bool            `json:"buy,omitempty"`
	OddLot     bool            `json:"oddLot,omitempty"`
	Session    string          `json:"session,omitempty"` // the ticket's session; "" for orders placed without one
	Price      decimal.Decimal `json:"price"`
	Remaining  int64           `json:"remaining"`
	Fills      int             `json:"fills"`
	Seq        int64           `json:"seq"` // global position of the order: time priority
}

type position struct {
	MemberID    string `json:"member"`
	ID          string `json:"id"`
	Symbol      string `json:"symbol"`
	OpenDay     string `json:"openDay"`
	Short       bool   `json:"short,omitempty"`
	DayTrade    bool   `json:"dayTrade,omitempty"`
	OpenWorking bool   `json:"openWorking,omitempty"`
	Shares      int64  `json:"shares"`
	Closing     int64  `json:"closing"`
	// As the account aggregate keeps them (OrderFilled's figures).
	Loan   decimal.Decimal `json:"loan"`
	Basis  decimal.Decimal `json:"basis"`
	Margin decimal.Decimal `json:"margin"`
}

// snapshot is the fold as the checkpoint keeps it.
type snapshot struct {
	Orders    []*order          `json:"orders"`
	Positions []*position       `json:"positions"`
	Calls     map[string]string `json:"calls,omitempty"`
}

// Config wires an Engine.
type Config struct {
	Commands   *trading.Commands
	Store      events.Store
	Feed       *process.Feed // the log reader shared by the stack's processes (nil: its own)
	Market     *market.Service
	Clock      func() time.Time // time.Now when nil
	Logger     *slog.Logger
	Registerer prometheus.Registerer // the runtime's metrics, when not nil
}

// Engine is the matching engine; see the package documentation.
type Engine struct {
	cmd *trading.Commands
	log *slog.Logger
	now func() time.Time
	rt  *process.Runtime

	mu        sync.Mutex
	mkt       Market
	feed      QuoteFeed
	orders    map[string]*order
	positions map[string]*position
	resting   map[string]int    // symbol -> working orders
	calls     map[string]string // member -> deadline of the open margin call
	watch     []string          // symbols to start watching
	unwatch   []string
	kick      chan struct{}
}

// New prepares the engine; Run runs it.
func New(cfg Config) *Engine {
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	e := &Engine{cmd: cfg.Commands, log: cfg.Logger.With("component", "matching engine"), now: cfg.Clock,
		mkt: cfg.Market, feed: &marketFeed{mkt: cfg.Market}, kick: make(chan struct{}, 1)}
	e.reset()
	timers := []process.Timer{{Name: "sweep", Next: process.Every(time.Second),
		Fire: func(ctx context.Context, _ time.Time, _ string) error { e.Sweep(ctx); return nil }},
		{Name: "odd-lot auction", Next: process.Every(ticket.AuctionEvery), Fire: e.auctionTimer}}
	// A schedule that holds the after-hours auctions on a cadence (the demo's) gets their timer;
	// the exchange's one auction when their entry ends runs from the sweep.
	if cfg.Market != nil {
		if every := cfg.Market.Session().AfterHoursEvery; every > 0 {
			timers = append(timers, process.Timer{Name: "after-hours auctions", Next: process.Every(every),
				Fire: func(ctx context.Context, _ time.Time, _ string) error { e.afterHoursAuctions(ctx, true); return nil }})
		}
	}
	e.rt = process.New(process.Config{Name: Name, Store: cfg.Store, Feed: cfg.Feed, Manager: e, Clock: process.SystemClock(cfg.Clock),
		Logger: cfg.Logger, Registerer: cfg.Registerer, Timers: timers})
	return e
}

func (e *Engine) reset() {
	e.orders, e.positions, e.resting, e.calls = map[string]*order{}, map[string]*position{}, map[string]int{}, map[string]string{}
}

// Market is the market the engine and the trading handlers read.
func (e *Engine) Market() Market {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.mkt
}

// SetMarket makes the engine read m and match on feed's updates (scenario tests script both).
func (e *Engine) SetMarket(m Market, feed QuoteFeed) {
	e.mu.Lock()
	e.mkt, e.feed = m, feed
	e.watch = slices.Sorted(maps.Keys(e.resting))
	e.mu.Unlock()
	e.wake()
}

// Holds reports whether the engine holds the order as working.
func (e *Engine) Holds(orderNo string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.orders[orderNo] != nil
}

// WaitReady waits until the log at start is folded (tests and the first requests).
func (e *Engine) WaitReady(ctx context.Context) error { return e.rt.WaitReady(ctx) }

// Position is the log position the engine has folded up to.
func (e *Engine) Position() int64 { return e.rt.Position() }

func (e *Engine) wake() {
	select {
	case e.kick <- struct{}{}:
	default:
	}
}

// Run folds the log (on the runtime, which also fires the sweep) and matches on quote updates
// until ctx ends.
func (e *Engine) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() { e.quotes(ctx) })
	err := e.rt.Run(ctx)
	cancel()
	if err != nil {
		return fmt.Errorf("matching engine: %w", err)
	}
	return nil
}

// quotes matches the symbols whose quotes changed until ctx ends.
func (e *Engine) quotes(ctx context.Context) {
	for {
		e.mu.Lock()
		feed, watch, unwatch := e.feed, e.watch, e.unwatch
		e.watch, e.unwatch = nil, nil
		e.mu.Unlock()
		if len(watch) > 0 {
			feed.Watch(watch...)
		}
		if len(unwatch) > 0 {
			feed.Unwatch(unwatch...)
		}
		select {
		case <-ctx.Done():
			return
		case <-feed.Ready():
			if e.rt.Ready() {
				for _, sym := range feed.Changed() {
					e.MatchSymbol(ctx, sym)
				}
			}
		case <-e.kick:
		}
	}
}

// tradeEvent is whether a stored type is one the engine folds (decoding only those).
func tradeEvent(typ string) bool {
	for _, p := range []string{"OrderPlaced.", "OrderFilled.", "OrderCancelled.", "OrderExpired.", "MarginCallIssued.",
		"MarginCallMet.", "ForcedCloseStarted.", "MarginToppedUp."} {
		if strings.HasPrefix(typ, p) {
			return true
		}
	}
	return false
}

// Wants implements process.Manager.
func (e *Engine) Wants(typ string) bool { return tradeEvent(typ) }

// Handle implements process.Manager: it applies one event to the resting orders and open
// positions.
func (e *Engine) Handle(_ context.Context, r events.RecordedEvent, p events.Payload) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	member := strings.TrimPrefix(r.Stream, "account-")
	switch ev := p.(type) {
	case events.OrderPlaced:
		e.placed(member, r.Position, ev)
	case events.OrderFilled:
		if o := e.orders[ev.OrderNo]; o != nil {
			o.Fills, o.Remaining = max(o.Fills, ev.Seq), min(o.Remaining, ev.Remaining)
			if o.Remaining == 0 {
				e.done(ev.OrderNo)
			}
		}
		if pos := e.positions[ev.PositionID]; pos != nil {
			sign := decimal.NewFromInt(1)
			if opening := (ev.Side == events.SideBuy) != pos.Short; opening {
				pos.Shares += ev.Shares
				pos.OpenWorking = pos.OpenWorking && ev.Remaining > 0
			} else {
				sign = sign.Neg()
				pos.Shares -= ev.Shares
				pos.Closing -= ev.Shares
			}
			pos.Loan = pos.Loan.Add(ev.Loan.Mul(sign))
			pos.Basis = pos.Basis.Add(ev.Basis.Mul(sign))
			pos.Margin = pos.Margin.Add(ev.Margin.Mul(sign))
			e.tidy(pos)
		}
	case events.OrderCancelled:
		e.stopped(ev.OrderNo, ev.PositionID, ev.Shares)
	case events.OrderExpired:
		e.stopped(ev.OrderNo, ev.PositionID, ev.Shares)
	case events.MarginCallIssued:
		e.calls[member] = ev.Deadline
	case events.MarginCallMet, events.ForcedCloseStarted:
		delete(e.calls, member)
	case events.MarginToppedUp:
		if pos := e.positions[ev.PositionID]; pos != nil {
			pos.Loan = pos.Loan.Sub(ev.Loan)
			pos.Margin = pos.Margin.Add(ev.Margin)
		}
	default:
		return fmt.Errorf("event %s at %d is not one the engine folds", r.Type, r.Position)
	}
	return nil
}

// Snapshot implements process.Manager.
func (e *Engine) Snapshot() ([]byte, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := snapshot{Orders: slices.Collect(maps.Values(e.orders)), Positions: slices.Collect(maps.Values(e.positions)), Calls: e.calls}
	slices.SortFunc(s.Orders, func(a, b *order) int { return cmp.Compare(a.Seq, b.Seq) })
	slices.SortFunc(s.Positions, func(a, b *position) int { return cmp.Compare(a.ID, b.ID) })
	return json.Marshal(s)
}

// Restore implements process.Manager: the fold as saved, its symbols watched again.
func (e *Engine) Restore(state []byte) error {
	var s snapshot
	if len(state) > 0 {
		if err := json.Unmarshal(state, &s); err != nil {
			return fmt.Errorf("matching engine state: %w", err)
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.reset()
	for _, o := range s.Orders {
		e.orders[o.OrderNo] = o
		e.resting[o.Symbol]++
	}
	for _, p := range s.Positions {
		e.positions[p.ID] = p
	}
	maps.Copy(e.calls, s.Calls)
	e.watch = slices.Sorted(maps.Keys(e.resting))
	e.wake()
	return nil
}

func (e *Engine) placed(member string, at int64, ev events.OrderPlaced) {
	o := &order{MemberID: member, OrderNo: ev.OrderNo, PositionID: ev.PositionID, Symbol: ev.Symbol, Day: ev.TradingDay,
		By: ev.By, Buy: ev.Side == events.SideBuy, OddLot: ev.OddLot, Session: ev.Session, Price: ev.Price, Remaining: ev.Shares, Seq: at}
	e.orders[ev.OrderNo] = o
	if e.resting[ev.Symbol] == 0 {
		e.watch = append(e.watch, ev.Symbol)
		e.wake()
	}
	e.resting[ev.Symbol]++
	if ev.Intent == events.IntentOpen {
		e.positions[ev.OrderNo] = &position{MemberID: member, ID: ev.OrderNo, Symbol: ev.Symbol, OpenDay: ev.TradingDay,
			Short: ev.Direction == events.DirectionShort, DayTrade: ev.DayTrade, OpenWorking: true}
	} else if pos := e.positions[ev.PositionID]; pos != nil {
		pos.Closing += ev.Shares
	}
}

// done forgets an order that no longer works.
func (e *Engine) done(orderNo string) {
	o := e.orders[orderNo]
	if o == nil {
		return
	}
	delete(e.orders, orderNo)
	if e.resting[o.Symbol]--; e.resting[o.Symbol] <= 0 {
		delete(e.resting, o.Symbol)
		e.unwatch = append(e.unwatch, o.Symbol)
	}
}

func (e *Engine) stopped(orderNo, positionID string, shares int64) {
	e.done(orderNo)
	pos := e.positions[positionID]
	if pos == nil {
		return
	}
	if orderNo == positionID {
		pos.OpenWorking = false
	} else {
		pos.Closing -= shares
	}
	e.tidy(pos)
}

// tidy forgets a position that holds nothing and waits for nothing.
func (e *Engine) tidy(pos *position) {
	if pos.Shares <= 0 && !pos.OpenWorking && pos.Closing <= 0 {
		delete(e.positions, pos.ID)
	}
}

// priority sorts one side's orders: best price first (highest buy, lowest sell), then time.
func priority(buy bool) func(a, b order) int {
	return func(a, b order) int {
		c := a.Price.Cmp(b.Price)
		if buy {
			c = -c
		}
		return cmp.Or(c, cmp.Compare(a.Seq, b.Seq))
	}
}

// MatchSymbol crosses the symbol's resting orders with its current quote, best first; the
// quote's levels are shared among them.
func (e *Engine) MatchSymbol(ctx context.Context, symbol string) {
	e.mu.Lock()
	m := e.mkt
	var buys, sells []order
	for _, o := range e.orders {
		if o.Symbol != symbol || trading.Auctioned(o.Session) {
			continue
		}
		if o.Buy {
			buys = append(buys, *o)
		} else {
			sells = append(sells, *o)
		}
	}
	e.mu.Unlock()
	if len(buys)+len(sells) == 0 {
		return
	}
	in, err := m.Instrument(symbol)
	if err != nil {
		return
	}
	q, err := m.Quote(in.Symbol)
	if err != nil {
		return
	}
	view := viewOf(m, in, q, e.now())
	slices.SortFunc(buys, priority(true))
	slices.SortFunc(sells, priority(false))
	asks, bids := view.Quote.Asks, view.Quote.Bids
	for _, o := range buys {
		asks = e.tryFill(ctx, o, view, asks)
	}
	for _, o := range sells {
		bids = e.tryFill(ctx, o, view, bids)
	}
}

// tryFill fills one order against levels (what higher-priority orders left of the quote) and
// returns what it leaves.
func (e *Engine) tryFill(ctx context.Context, o order, view trading.Market, levels []matching.Level) []matching.Level {
	if o.Day != view.TradingDay || o.By == events.OrderByMember && !view.Matches(o.OddLot) {
		return levels
	}
	unit := int64(trading.BoardLot)
	if o.OddLot {
		unit = 1
	}
	fills := matching.Cross(o.Buy, o.Price, o.Remaining, unit, levels)
	if len(fills) == 0 {
		return levels
	}
	if o.Buy {
		view.Quote.Asks = levels
	} else {
		view.Quote.Bids = levels
	}
	seq := o.Fills + 1
	res, err := e.cmd.FillOrder(ctx, commands.Meta{CommandID: o.OrderNo + "/fill/" + strconv.Itoa(seq), Actor: "system"}, trading.FillOrder{MemberID: o.MemberID, OrderNo: o.OrderNo, Market: view})
	if err != nil {
		e.refused(ctx, o.OrderNo, "fill", err)
		return levels
	}
	if res.Filled == 0 {
		return levels
	}
	e.filled(o.OrderNo, seq, res)
	return matching.Take(levels, fills)
}

// refused handles a command's refusal: an order that is gone or done is forgotten (the log
// will say so too); anything else is logged and tried again on the next occasion.
func (e *Engine) refused(ctx context.Context, orderNo, what string, err error) {
	if ce, ok := commands.AsError(err); ok && (ce.Key == commands.KeyOrderNotPending || ce.Key == commands.KeyOrderNotFound) {
		e.mu.Lock()
		e.done(orderNo)
		e.mu.Unlock()
		return
	}
	e.log.WarnContext(ctx, "matching engine: command failed", "what", what, "order", orderNo, "err", err)
}

// Sweep expires day orders whose session ended, closes day trades after the continuous session
// and checks margin accounts.
func (e *Engine) Sweep(ctx context.Context) {
	// The after-hours sessions' auction when their entry ends (the exchange's one at 14:30) runs
	// before their orders expire.
	e.afterHoursAuctions(ctx, false)
	now := e.now()
	today := TradingDay(now)
	e.mu.Lock()
	m := e.mkt
	var expire []order
	var dayTrades []position
	margined := map[string][]position{}
	calls := map[string]string{}
	ss := m.Session()
	session := sessionOf(ss)
	for _, o := range e.orders {
		if o.By == events.OrderByMember && (o.Day != today || !session.AcceptsIn(o.Session, o.OddLot)) {
			expire = append(expire, *o)
		}
	}
	for _, p := range e.positions {
		if p.Shares <= 0 {
			continue
		}
		if p.DayTrade && (p.OpenDay < today || ss.Phase != "pre_open" && ss.Phase != "continuous") {
			dayTrades = append(dayTrades, *p)
		}
		if p.Short || p.Loan.IsPositive() {
			margined[p.MemberID] = append(margined[p.MemberID], *p)
		}
	}
	for member, deadline := range e.calls {
		calls[member] = deadline
	}
	e.mu.Unlock()
	for _, o := range expire {
		if _, err := e.cmd.ExpireOrder(ctx, commands.Meta{CommandID: o.OrderNo + "/expire", Actor: "system"}, trading.ExpireOrder{MemberID: o.MemberID, OrderNo: o.OrderNo}); err != nil {
			e.refused(ctx, o.OrderNo, "expire", err)
		}
	}
	minute := strconv.FormatInt(now.Unix()/60, 10) // a rule's close that could not fill is tried again a minute later
	for _, p := range dayTrades {
		view := View(m, p.Symbol, now)
		meta := commands.Meta{CommandID: p.ID + "/daytrade/" + minute, Actor: "system"}
		if _, err := e.cmd.CloseByRule(ctx, meta, trading.CloseByRule{MemberID: p.MemberID, PositionID: p.ID, By: events.OrderByDayTradeClose, Market: view}); err != nil {
			e.log.WarnContext(ctx, "matching engine: day-trade close failed", "position", p.ID, "err", err)
		}
	}
	second := strconv.FormatInt(now.Unix(), 10)
	for member, held := range margined {
		views := map[string]trading.Market{}
		var acc margin.Account
		for _, p := range held {
			if _, seen := views[p.Symbol]; !seen {
				views[p.Symbol] = View(m, p.Symbol, now)
			}
			value := views[p.Symbol].Quote.Last.Mul(decimal.NewFromInt(p.Shares))
			if p.Short {
				acc.ShortCollateral, acc.ShortValue = acc.ShortCollateral.Add(p.Basis).Add(p.Margin), acc.ShortValue.Add(value)
			} else {
				acc.LongValue, acc.Loans = acc.LongValue.Add(value), acc.Loans.Add(p.Loan)
			}
		}
		// Only a change of the rule's state needs the command, which decides on the account's own
		// figures: a call to make or to lift, a forced close.
		ratio, owed := margin.Ratio(acc)
		deadline, called := calls[member]
		below := owed && margin.Call(ratio)
		force := owed && (margin.ForceNow(ratio) || below && called && today > deadline)
		if below == called && !force {
			continue
		}
		// The check's id names the second and the prices it saw: instances sweeping the same
		// second with the same prices decide once, new prices decide again.
		symbols := slices.Sorted(maps.Keys(views))
		prices := sha256.New()
		for _, sym := range symbols {
			fmt.Fprintf(prices, "%s=%s;", sym, views[sym].Quote.Last)
		}
		meta := commands.Meta{CommandID: member + "/margin/" + second + "/" + hex.EncodeToString(prices.Sum(nil)[:8]), Actor: "system"}
		if _, err := e.cmd.MarginCheck(ctx, meta, trading.MarginCheck{MemberID: member, Markets: views}); err != nil {
			e.log.WarnContext(ctx, "matching engine: margin check failed", "member", member, "err", err)
		}
	}
}
