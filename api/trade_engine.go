package api

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/margin"
	"github.com/lotbook/lotbook/commands/rules/matching"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market"
)

// The matching engine: a resting-order book per symbol in memory, folded from the event log
// (from position 0 at start, then live), matched on every quote update of a symbol it holds
// orders for. Every decision is a command with a deterministic id (order number and fill
// sequence, order number and "expire", ...), so that a retry, a restart or a second instance never
// applies one twice; commands decide on the account's own state, the engine only says when.
// Once a second it sweeps: day orders whose session ended expire, day trades still open after
// the continuous session close, margin accounts are checked against the maintenance rule.

// quoteFeed tells which watched symbols' quotes changed.
type quoteFeed interface {
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

type engOrder struct {
	memberID, orderNo, positionID, symbol, day, by string
	buy, oddLot                                    bool
	price                                          decimal.Decimal
	remaining                                      int64
	fills                                          int
	seq                                            int64 // global position of the order: time priority
}

type engPosition struct {
	memberID, id, symbol, openDay string
	short, dayTrade, openWorking  bool
	shares, closing               int64
	loan, basis, margin           decimal.Decimal // as the account aggregate keeps them (OrderFilled's figures)
}

type tradeEngine struct {
	cmd   *commands.Service
	store events.Store
	log   *slog.Logger
	now   func() time.Time

	mu        sync.Mutex
	mkt       tradeMarket
	feed      quoteFeed
	orders    map[string]*engOrder
	positions map[string]*engPosition
	resting   map[string]int    // symbol -> working orders
	calls     map[string]string // member -> deadline of the open margin call
	watch     []string          // symbols to start watching
	unwatch   []string
	kick      chan struct{}
	ready     chan struct{} // closed once the log is folded to the head seen at start
	readyOnce sync.Once
	folded    int64
}

func newTradeEngine(cmd *commands.Service, store events.Store, mkt *market.Service, now func() time.Time, log *slog.Logger) *tradeEngine {
	return &tradeEngine{cmd: cmd, store: store, log: log, now: now, mkt: mkt, feed: &marketFeed{mkt: mkt},
		orders: map[string]*engOrder{}, positions: map[string]*engPosition{}, resting: map[string]int{}, calls: map[string]string{},
		kick: make(chan struct{}, 1), ready: make(chan struct{})}
}

// market is the market the engine and the trading handlers read.
func (e *tradeEngine) market() tradeMarket {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.mkt
}

func (e *tradeEngine) wake() {
	select {
	case e.kick <- struct{}{}:
	default:
	}
}

// run folds the log and matches until ctx ends.
func (e *tradeEngine) run(ctx context.Context) {
	head, err := e.store.Head(ctx)
	if err != nil {
		e.log.ErrorContext(ctx, "matching engine: store head", "err", err)
		return
	}
	if head == 0 {
		e.readyOnce.Do(func() { close(e.ready) })
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() {
		err := e.store.Subscribe(ctx, 0, func(_ context.Context, page []events.RecordedEvent) error {
			e.fold(page)
			if page[len(page)-1].Position >= head {
				e.readyOnce.Do(func() { close(e.ready) })
			}
			return nil
		})
		if err != nil && !errors.Is(err, context.Canceled) {
			e.log.ErrorContext(ctx, "matching engine: event feed stopped", "err", err)
		}
	})
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
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
			if e.isReady() {
				for _, sym := range feed.Changed() {
					e.matchSymbol(ctx, sym)
				}
			}
		case <-e.kick:
		case <-tick.C:
			if e.isReady() {
				e.sweep(ctx)
			}
		}
	}
}

func (e *tradeEngine) isReady() bool {
	select {
	case <-e.ready:
		return true
	default:
		return false
	}
}

// tradeEvent is whether a stored type is one the engine folds (decoding only those).
func tradeEvent(typ string) bool {
	for _, p := range []string{"OrderPlaced.", "OrderFilled.", "OrderCancelled.", "OrderExpired.", "MarginCallIssued.",
		"MarginCallMet.", "ForcedCloseStarted."} {
		if strings.HasPrefix(typ, p) {
			return true
		}
	}
	return false
}

// fold applies a page of the log to the resting orders and open positions.
func (e *tradeEngine) fold(page []events.RecordedEvent) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, r := range page {
		e.folded = r.Position
		if !tradeEvent(r.Type) {
			continue
		}
		p, err := events.DecodeRecorded(r)
		if err != nil {
			e.log.Error("matching engine: undecodable event", "position", r.Position, "err", err)
			continue
		}
		member := strings.TrimPrefix(r.Stream, "account-")
		switch ev := p.(type) {
		case events.OrderPlaced:
			e.placed(member, r.Position, ev)
		case events.OrderFilled:
			if o := e.orders[ev.OrderNo]; o != nil {
				o.fills, o.remaining = max(o.fills, ev.Seq), min(o.remaining, ev.Remaining)
				if o.remaining == 0 {
					e.done(ev.OrderNo)
				}
			}
			if pos := e.positions[ev.PositionID]; pos != nil {
				sign := decimal.NewFromInt(1)
				if opening := (ev.Side == events.SideBuy) != pos.short; opening {
					pos.shares += ev.Shares
					pos.openWorking = pos.openWorking && ev.Remaining > 0
				} else {
					sign = sign.Neg()
					pos.shares -= ev.Shares
					pos.closing -= ev.Shares
				}
				pos.loan = pos.loan.Add(ev.Loan.Mul(sign))
				pos.basis = pos.basis.Add(ev.Basis.Mul(sign))
				pos.margin = pos.margin.Add(ev.Margin.Mul(sign))
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
		}
	}
}

func (e *tradeEngine) placed(member string, at int64, ev events.OrderPlaced) {
	o := &engOrder{memberID: member, orderNo: ev.OrderNo, positionID: ev.PositionID, symbol: ev.Symbol, day: ev.TradingDay,
		by: ev.By, buy: ev.Side == events.SideBuy, oddLot: ev.OddLot, price: ev.Price, remaining: ev.Shares, seq: at}
	e.orders[ev.OrderNo] = o
	if e.resting[ev.Symbol] == 0 {
		e.watch = append(e.watch, ev.Symbol)
		e.wake()
	}
	e.resting[ev.Symbol]++
	if ev.Intent == events.IntentOpen {
		e.positions[ev.OrderNo] = &engPosition{memberID: member, id: ev.OrderNo, symbol: ev.Symbol, openDay: ev.TradingDay,
			short: ev.Direction == events.DirectionShort, dayTrade: ev.DayTrade, openWorking: true}
	} else if pos := e.positions[ev.PositionID]; pos != nil {
		pos.closing += ev.Shares
	}
}

// done forgets an order that no longer works.
func (e *tradeEngine) done(orderNo string) {
	o := e.orders[orderNo]
	if o == nil {
		return
	}
	delete(e.orders, orderNo)
	if e.resting[o.symbol]--; e.resting[o.symbol] <= 0 {
		delete(e.resting, o.symbol)
		e.unwatch = append(e.unwatch, o.symbol)
	}
}

func (e *tradeEngine) stopped(orderNo, positionID string, shares int64) {
	e.done(orderNo)
	pos := e.positions[positionID]
	if pos == nil {
		return
	}
	if orderNo == positionID {
		pos.openWorking = false
	} else {
		pos.closing -= shares
	}
	e.tidy(pos)
}

// tidy forgets a position that holds nothing and waits for nothing.
func (e *tradeEngine) tidy(pos *engPosition) {
	if pos.shares <= 0 && !pos.openWorking && pos.closing <= 0 {
		delete(e.positions, pos.id)
	}
}

// priority sorts one side's orders: best price first (highest buy, lowest sell), then time.
func priority(buy bool) func(a, b engOrder) int {
	return func(a, b engOrder) int {
		c := a.price.Cmp(b.price)
		if buy {
			c = -c
		}
		return cmp.Or(c, cmp.Compare(a.seq, b.seq))
	}
}

// matchSymbol crosses the symbol's resting orders with its current quote, best first; the
// quote's levels are shared among them.
func (e *tradeEngine) matchSymbol(ctx context.Context, symbol string) {
	e.mu.Lock()
	m := e.mkt
	var buys, sells []engOrder
	for _, o := range e.orders {
		if o.symbol != symbol {
			continue
		}
		if o.buy {
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
func (e *tradeEngine) tryFill(ctx context.Context, o engOrder, view commands.Market, levels []matching.Level) []matching.Level {
	if o.day != view.TradingDay || o.by == events.OrderByMember && !view.Matches(o.oddLot) {
		return levels
	}
	unit := int64(commands.BoardLot)
	if o.oddLot {
		unit = 1
	}
	fills := matching.Cross(o.buy, o.price, o.remaining, unit, levels)
	if len(fills) == 0 {
		return levels
	}
	if o.buy {
		view.Quote.Asks = levels
	} else {
		view.Quote.Bids = levels
	}
	seq := o.fills + 1
	res, err := e.cmd.FillOrder(ctx, commands.Meta{CommandID: o.orderNo + "/fill/" + strconv.Itoa(seq), Actor: "system"}, o.memberID, o.orderNo, view)
	if err != nil {
		e.refused(ctx, o.orderNo, "fill", err)
		return levels
	}
	if res.Filled == 0 {
		return levels
	}
	e.mu.Lock()
	if cur := e.orders[o.orderNo]; cur != nil {
		cur.fills, cur.remaining = max(cur.fills, seq), min(cur.remaining, res.Remaining)
		if cur.remaining == 0 {
			e.done(o.orderNo)
		}
	}
	e.mu.Unlock()
	return matching.Take(levels, fills)
}

// refused handles a command's refusal: an order that is gone or done is forgotten (the log
// will say so too); anything else is logged and tried again on the next occasion.
func (e *tradeEngine) refused(ctx context.Context, orderNo, what string, err error) {
	if ce, ok := commands.AsError(err); ok && (ce.Key == commands.KeyOrderNotPending || ce.Key == commands.KeyOrderNotFound) {
		e.mu.Lock()
		e.done(orderNo)
		e.mu.Unlock()
		return
	}
	e.log.WarnContext(ctx, "matching engine: command failed", "what", what, "order", orderNo, "err", err)
}

// sweep expires day orders whose session ended, closes day trades after the continuous session
// and checks margin accounts.
func (e *tradeEngine) sweep(ctx context.Context) {
	now := e.now()
	today := tradingDay(now)
	e.mu.Lock()
	m := e.mkt
	var expire []engOrder
	var dayTrades []engPosition
	margined := map[string][]engPosition{}
	calls := map[string]string{}
	ss := m.Session()
	session := commands.Market{Phase: ss.Phase, OddLot: ss.OddLot}
	for _, o := range e.orders {
		if o.by == events.OrderByMember && (o.day != today || !session.Accepts(o.oddLot)) {
			expire = append(expire, *o)
		}
	}
	for _, p := range e.positions {
		if p.shares <= 0 {
			continue
		}
		if p.dayTrade && (p.openDay < today || ss.Phase != "pre_open" && ss.Phase != "continuous") {
			dayTrades = append(dayTrades, *p)
		}
		if p.short || p.loan.IsPositive() {
			margined[p.memberID] = append(margined[p.memberID], *p)
		}
	}
	for member, deadline := range e.calls {
		calls[member] = deadline
	}
	e.mu.Unlock()
	for _, o := range expire {
		if _, err := e.cmd.ExpireOrder(ctx, commands.Meta{CommandID: o.orderNo + "/expire", Actor: "system"}, o.memberID, o.orderNo); err != nil {
			e.refused(ctx, o.orderNo, "expire", err)
		}
	}
	minute := strconv.FormatInt(now.Unix()/60, 10) // a rule's close that could not fill is tried again a minute later
	for _, p := range dayTrades {
		view := marketView(m, p.symbol, now)
		meta := commands.Meta{CommandID: p.id + "/daytrade/" + minute, Actor: "system"}
		if _, err := e.cmd.CloseByRule(ctx, meta, p.memberID, p.id, events.OrderByDayTradeClose, view); err != nil {
			e.log.WarnContext(ctx, "matching engine: day-trade close failed", "position", p.id, "err", err)
		}
	}
	second := strconv.FormatInt(now.Unix(), 10)
	for member, held := range margined {
		views := map[string]commands.Market{}
		var acc margin.Account
		for _, p := range held {
			if _, seen := views[p.symbol]; !seen {
				views[p.symbol] = marketView(m, p.symbol, now)
			}
			value := views[p.symbol].Quote.Last.Mul(decimal.NewFromInt(p.shares))
			if p.short {
				acc.ShortCollateral, acc.ShortValue = acc.ShortCollateral.Add(p.basis).Add(p.margin), acc.ShortValue.Add(value)
			} else {
				acc.LongValue, acc.Loans = acc.LongValue.Add(value), acc.Loans.Add(p.loan)
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
		if _, err := e.cmd.MarginCheck(ctx, meta, member, views); err != nil {
			e.log.WarnContext(ctx, "matching engine: margin check failed", "member", member, "err", err)
		}
	}
}

// waitReady waits until the log at start is folded (tests and the first requests).
func (e *tradeEngine) waitReady(ctx context.Context) error {
	select {
	case <-e.ready:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("matching engine not ready: %w", ctx.Err())
	}
}
