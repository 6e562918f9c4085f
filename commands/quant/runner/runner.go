// Package runner is the AI quant strategy process: it folds every running subscription from the
// log (its hold, and the positions its orders opened) and, once per day at 09:30 Asia/Taipei,
// while the board-lot session matches, evaluates each subscription's product rule on the daily
// closes up to the previous trading day (commands/rules/quant, the same function the backtest
// replays). An entry releases the order's cost from the hold (commands/quant Release) and places
// an ordinary limit order at the protective price (on the tick grid) in the member's account, in
// board lots or, when the budget buys less than a lot, odd-lot shares; an exit sells the position
// at market. What the strategy's orders give back to available cash (a buy's unused reservation
// once the order is done, a sale's net proceeds, a refused buy's release) goes back into the
// subscription's hold (commands/quant Return), so the subscription's money keeps its size and
// the rule can enter again with it. Command ids derive from the subscription, the symbol and the
// day's occurrence (process.TimerCommandID), so a restart, a retry or a second instance acts
// once; the order's own command id starts with the process name and the subscription id: that
// is its origin (quant.OriginOf).
package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/process"
	"github.com/lotbook/lotbook/commands/quant"
	rules "github.com/lotbook/lotbook/commands/rules/quant"
	"github.com/lotbook/lotbook/events"
)

// ProcessName names the checkpoint, metrics and command ids.
const ProcessName = quant.StrategyName

// EvalHour and EvalMinute are when the rules run each day (Asia/Taipei): after the open, on the
// closes known by then (the day before's).
const (
	EvalHour   = 9
	EvalMinute = 30
)

// Releaser is the quant command the process sends (*quant.Commands).
type Releaser interface {
	Release(ctx context.Context, meta commands.Meta, in quant.Release) (quant.Result, error)
	Return(ctx context.Context, meta commands.Meta, memberID, ref, reason string) (quant.Result, error)
}

// Plan is what the market allows for a buy of a symbol now: the limit price a buy reserves at
// (the protective price on the tick grid), whether board lots and odd lots match now.
type Plan struct {
	Limit              decimal.Decimal
	BoardLots, OddLots bool
}

// Market is the market and the member's orders as the process sees them (the api wires trading
// and the market behind it: a capability never calls another's commands itself).
type Market interface {
	// Bars are up to n daily bars of symbol before the Taipei day of t, oldest first.
	Bars(symbol string, t time.Time, n int) ([]rules.Bar, error)
	// Plan is what a buy of symbol may do at t; ok false when the symbol has no price.
	Plan(symbol string, t time.Time) (Plan, bool)
	// Buy places a limit buy of o at limit in the member's account under meta's command id.
	Buy(ctx context.Context, meta commands.Meta, memberID, symbol string, o rules.Order, limit decimal.Decimal, t time.Time) error
	// Sell sells the whole position at market under meta's command id.
	Sell(ctx context.Context, meta commands.Meta, memberID, symbol, positionID string, t time.Time) error
}

// Config wires a Process.
type Config struct {
	Commands   Releaser
	Market     Market
	Store      events.Store
	Feed       *process.Feed // the log reader shared by the stack's processes (nil: its own)
	Clock      func() time.Time
	Logger     *slog.Logger
	Registerer prometheus.Registerer
}

// position is what a subscription holds of a symbol.
type position struct {
	PositionID string          `json:"positionId"`
	Shares     int64           `json:"shares"`
	EntryDay   string          `json:"entryDay"`
	EntryClose decimal.Decimal `json:"entryClose"`
}

// subscription is a running subscription as the process knows it.
type subscription struct {
	Member    string               `json:"member"`
	Product   string               `json:"product"`
	Amount    decimal.Decimal      `json:"amount"`
	Held      decimal.Decimal      `json:"held"`
	Positions map[string]*position `json:"positions"` // symbol -> position
}

// intent is a released buy waiting for its order.
type intent struct {
	Sub, Symbol, Day string
	EntryClose       decimal.Decimal
}

type link struct{ Sub, Symbol string }

// fold is the process's state; its JSON is the checkpoint.
type fold struct {
	Subs      map[string]*subscription `json:"subs"`
	Intents   map[string]intent        `json:"intents"`   // order command id -> the release
	Positions map[string]link          `json:"positions"` // position id -> subscription and symbol
	Orders    map[string]string        `json:"orders"`    // the strategy's order numbers -> subscription
}

func newFold() fold {
	return fold{Subs: map[string]*subscription{}, Intents: map[string]intent{}, Positions: map[string]link{}, Orders: map[string]string{}}
}

// giveBack is cash one of the strategy's orders gave back, to return into its subscription.
type giveBack struct{ member, orderNo, reason string }

// Process is the strategy process manager.
type Process struct {
	*process.Runtime
	process.EventSet
	process.Fold[fold]

	cmd Releaser
	mkt Market
}

// New prepares the process; Run runs it.
func New(cfg Config) *Process {
	p := &Process{cmd: cfg.Commands, mkt: cfg.Market, Fold: process.NewFold(newFold, restored),
		EventSet: process.Events("QuantSubscribed", "QuantFundsReleased", "QuantFundsReturned", "QuantLeft", "OrderPlaced", "OrderFilled",
			"TradeCashReleased")}
	p.Runtime = process.New(process.Config{Name: ProcessName, Store: cfg.Store, Feed: cfg.Feed, Manager: p, Clock: process.SystemClock(cfg.Clock),
		Logger: cfg.Logger, Registerer: cfg.Registerer,
		Timers: []process.Timer{{Name: "daily", Next: process.Daily(EvalHour, EvalMinute, commands.Taipei), Fire: p.fire}}})
	return p
}

// restored checks a fold read from a checkpoint.
func restored(st *fold) error {
	if st.Orders == nil {
		return process.ErrRefold // a checkpoint from before the strategy's orders were folded
	}
	process.EnsureMap(&st.Subs)
	process.EnsureMap(&st.Intents)
	process.EnsureMap(&st.Positions)
	for _, s := range st.Subs {
		process.EnsureMap(&s.Positions)
	}
	return nil
}

// Handle implements process.Manager: it folds, and returns what the strategy's orders gave back
// into their subscriptions (a command id derived from the event, so once).
func (p *Process) Handle(ctx context.Context, r events.RecordedEvent, pl events.Payload) error {
	member, ok := strings.CutPrefix(r.Stream, events.AccountStream(""))
	if !ok {
		return fmt.Errorf("event %s at %d is not on an account stream", r.Type, r.Position)
	}
	back, err := p.fold(r, member, pl)
	if err != nil || back == nil {
		return err
	}
	meta := commands.Meta{CommandID: process.EventCommandID(ProcessName, r, 0), Actor: "system"}
	if _, err := p.cmd.Return(ctx, meta, back.member, back.orderNo, back.reason); err != nil && !refused(err) {
		return fmt.Errorf("return of order %s's cash: %w", back.orderNo, err)
	}
	return nil
}

// fold applies one event to the state; it names the cash to return when the event is one of the
// strategy's orders giving cash back while its subscription runs.
func (p *Process) fold(r events.RecordedEvent, member string, pl events.Payload) (*giveBack, error) {
	st := p.Lock()
	defer p.Unlock()
	switch e := pl.(type) {
	case events.QuantSubscribed:
		st.Subs[e.SubID] = &subscription{Member: member, Product: e.Product, Amount: e.Amount, Held: e.Amount,
			Positions: map[string]*position{}}
	case events.QuantFundsReleased:
		if s := st.Subs[e.SubID]; s != nil {
			s.Held = s.Held.Sub(e.Amount)
			st.Intents[e.OrderCommandID] = intent{Sub: e.SubID, Symbol: e.Symbol, Day: e.Day, EntryClose: e.EntryClose}
		}
	case events.QuantFundsReturned:
		if s := st.Subs[e.SubID]; s != nil {
			s.Held = s.Held.Add(e.Amount)
		}
	case events.QuantLeft:
		if s := st.Subs[e.SubID]; s != nil {
			for _, pos := range s.Positions {
				delete(st.Positions, pos.PositionID)
			}
			delete(st.Subs, e.SubID)
		}
		for id, in := range st.Intents {
			if in.Sub == e.SubID {
				delete(st.Intents, id)
			}
		}
		for no, sub := range st.Orders {
			if sub == e.SubID {
				delete(st.Orders, no)
			}
		}
	case events.TradeCashReleased:
		if _, ok := st.Orders[e.OrderNo]; ok {
			delete(st.Orders, e.OrderNo) // the order is done
			return &giveBack{member: member, orderNo: e.OrderNo, reason: events.QuantReturnOrderDone}, nil
		}
	case events.OrderPlaced:
		if s := st.Subs[quant.OriginOf(r.Metadata.CommandID)]; s != nil && s.Member == member {
			st.Orders[e.OrderNo] = quant.OriginOf(r.Metadata.CommandID)
		}
		in, ok := st.Intents[r.Metadata.CommandID]
		if !ok || e.Intent != events.IntentOpen {
			return nil, nil
		}
		delete(st.Intents, r.Metadata.CommandID)
		if s := st.Subs[in.Sub]; s != nil && s.Member == member {
			s.Positions[in.Symbol] = &position{PositionID: e.PositionID, EntryDay: in.Day, EntryClose: in.EntryClose}
			st.Positions[e.PositionID] = link{Sub: in.Sub, Symbol: in.Symbol}
		}
	case events.OrderFilled:
		var back *giveBack
		if _, ok := st.Orders[e.OrderNo]; ok && e.Side == events.SideSell {
			if e.Remaining == 0 {
				delete(st.Orders, e.OrderNo)
			}
			if e.Cash.IsPositive() {
				back = &giveBack{member: member, orderNo: e.OrderNo, reason: events.QuantReturnSold}
			}
		}
		l, ok := st.Positions[e.PositionID]
		if !ok {
			return back, nil
		}
		s := st.Subs[l.Sub]
		if s == nil || s.Positions[l.Symbol] == nil || s.Positions[l.Symbol].PositionID != e.PositionID {
			delete(st.Positions, e.PositionID)
			return back, nil
		}
		pos := s.Positions[l.Symbol]
		if e.Side == events.SideBuy {
			pos.Shares += e.Shares
		} else {
			pos.Shares -= e.Shares
		}
		if pos.Shares <= 0 && e.Side == events.SideSell {
			delete(s.Positions, l.Symbol)
			delete(st.Positions, e.PositionID)
		}
		return back, nil
	default:
		return nil, fmt.Errorf("event %s at %d is not one the quant process folds", r.Type, r.Position)
	}
	return nil, nil
}

func (p *Process) fire(ctx context.Context, at time.Time, _ string) error { return p.Evaluate(ctx, at) }

// step is one thing the rules decided for one subscription and symbol.
type step struct {
	subID, member, symbol string
	product               rules.Product
	budget                decimal.Decimal
	pos                   position
	held                  bool
}

// Evaluate runs every running subscription's rule for the Taipei day of at, with command ids
// derived from at. Nothing happens while the board-lot session does not match (weekends,
// holidays, outside the session).
func (p *Process) Evaluate(ctx context.Context, at time.Time) error {
	subs := p.Lock().Subs
	var steps []step
	for _, id := range slices.Sorted(maps.Keys(subs)) {
		s := subs[id]
		prod, ok := rules.ByID(s.Product)
		if !ok {
			continue
		}
		for _, sym := range prod.Symbols {
			st := step{subID: id, member: s.Member, symbol: sym, product: prod, budget: decimal.Min(prod.Budget(s.Amount), s.Held)}
			if pos := s.Positions[sym]; pos != nil && pos.Shares > 0 {
				st.pos, st.held = *pos, true
			}
			steps = append(steps, st)
		}
	}
	p.Unlock()
	var errs []error
	for _, st := range steps {
		err := p.act(ctx, at, st)
		switch {
		case err == nil:
		case ctx.Err() != nil:
			return ctx.Err()
		case refused(err):
			// A refusal (the member's account is frozen, the price left the band, the hold ran
			// short) is the answer for this day: retrying the occurrence would get it again.
			p.Logger().InfoContext(ctx, "quant strategy step refused", "sub", st.subID, "symbol", st.symbol, "err", err)
		default:
			p.Logger().WarnContext(ctx, "quant strategy step failed; it runs again", "sub", st.subID, "symbol", st.symbol, "err", err)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// refused tells a command's refusal from a failure worth retrying.
func refused(err error) bool {
	e, ok := commands.AsError(err)
	return ok && e.Kind != commands.KindUnavailable
}

// lookback is how many daily bars the rules read: enough for the longest average and for
// counting the days a position has been held.
const lookback = 60

// act decides and acts for one subscription and symbol.
func (p *Process) act(ctx context.Context, at time.Time, st step) error {
	plan, ok := p.mkt.Plan(st.symbol, at)
	if !ok || !plan.BoardLots {
		return nil
	}
	bars, err := p.mkt.Bars(st.symbol, at, lookback)
	if err != nil {
		return fmt.Errorf("bars of %s: %w", st.symbol, err)
	}
	closes := make([]decimal.Decimal, len(bars))
	h := rules.Holding{In: st.held, EntryClose: st.pos.EntryClose}
	for i, b := range bars {
		closes[i] = b.Close
		if st.held && b.Day >= st.pos.EntryDay {
			h.DaysHeld++
		}
	}
	base := process.TimerCommandID(ProcessName, st.subID+"/"+st.symbol, at)
	actor := "system"
	switch st.product.Rule(closes, h) {
	case rules.Enter:
		if len(closes) == 0 {
			return nil
		}
		o := rules.Size(st.budget, plan.Limit, plan.OddLots)
		if o.TotalShares() == 0 {
			return nil
		}
		day := at.In(commands.Taipei).Format(time.DateOnly)
		orderID := base + "/buy"
		if _, err := p.cmd.Release(ctx, commands.Meta{CommandID: base + "/release", Actor: actor}, quant.Release{MemberID: st.member,
			SubID: st.subID, Symbol: st.symbol, OrderCommandID: orderID, Day: day, Amount: o.Cost, EntryClose: closes[len(closes)-1],
			Shares: o.TotalShares()}); err != nil {
			return fmt.Errorf("release for %s: %w", st.symbol, err)
		}
		err := p.mkt.Buy(ctx, commands.Meta{CommandID: orderID, Actor: actor}, st.member, st.symbol, o, plan.Limit, at)
		if err != nil && refused(err) {
			// the market refused the order: its release goes back into the hold
			if _, rerr := p.cmd.Return(ctx, commands.Meta{CommandID: base + "/return", Actor: actor}, st.member, orderID,
				events.QuantReturnRefused); rerr != nil && !refused(rerr) {
				return errors.Join(err, fmt.Errorf("return of %s's release: %w", orderID, rerr))
			}
		}
		return err
	case rules.Exit:
		if !st.held {
			return nil
		}
		return p.mkt.Sell(ctx, commands.Meta{CommandID: base + "/sell", Actor: actor}, st.member, st.symbol, st.pos.PositionID, at)
	}
	return nil
}
