// Package quant is AI quant's HTTP side: the products with their published rules and their
// backtests (the rule replayed on the market's daily history), subscribing with an amount,
// the member's subscriptions with their orders and profit or loss, and leaving (positions kept or
// sold at market). It also wires the strategy process (commands/quant/runner) to the member's
// orders (commands/trading) and the market: a capability's commands never call another's.
package quant

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/process"
	quantcmd "github.com/lotbook/lotbook/commands/quant"
	"github.com/lotbook/lotbook/commands/quant/runner"
	"github.com/lotbook/lotbook/commands/rules/fees"
	"github.com/lotbook/lotbook/commands/rules/matching"
	rules "github.com/lotbook/lotbook/commands/rules/quant"
	"github.com/lotbook/lotbook/commands/trading"
	"github.com/lotbook/lotbook/commands/trading/engine"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market"
	mktrules "github.com/lotbook/lotbook/market/rules"
	"github.com/lotbook/lotbook/projections"
	readquant "github.com/lotbook/lotbook/projections/quant"
)

// The strategy process, registered when this module is linked in. Its sells are the rule's, so
// the broker's lock and holding rules on members' closes do not apply to them.
func init() {
	process.Register(runner.ProcessName, func(d process.Deps) process.Runner {
		return runner.New(runner.Config{Commands: quantcmd.New(d.Commands),
			Market: Orders{Trading: trading.New(d.Commands, trading.TradingRules{}), Market: d.Market},
			Store:  d.Store, Feed: d.Feed, Clock: d.Clock, Logger: d.Logger, Registerer: d.Registerer})
	})
}

// Commands are the quant commands this module sends (*quant.Commands of commands/quant).
type Commands interface {
	Subscribe(ctx context.Context, meta commands.Meta, memberID string, in quantcmd.Subscribe) (quantcmd.Result, error)
	Leave(ctx context.Context, meta commands.Meta, memberID, subID string, closeAll bool) (quantcmd.Result, error)
}

// Closer sells a position at market for a member who leaves with close (*trading.Commands).
type Closer interface {
	ClosePosition(ctx context.Context, meta commands.Meta, cp trading.ClosePosition) (trading.TradeResult, error)
}

// Candles is what the backtest reads of the market (*market.Service).
type Candles interface {
	Candles(symbol, interval string, before time.Time, limit int) ([]market.Candle, error)
}

// Module serves the quant routes.
type Module struct {
	cmd     Commands
	closer  Closer
	read    *projections.ReadDB
	candles Candles
	market  func() engine.Market
	now     func() time.Time
}

// New is the quant module.
func New(cmd Commands, closer Closer, read *projections.ReadDB, candles Candles, market func() engine.Market, now func() time.Time) *Module {
	return &Module{cmd: cmd, closer: closer, read: read, candles: candles, market: market, now: now}
}

// Routes are the quant operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Member, "GET", "/api/vue/quant/products", httpx.IdemNone, m.products),
		httpx.Op(httpx.Member, "GET", "/api/vue/quant/products/{productId}", httpx.IdemNone, m.product),
		httpx.Op(httpx.Member, "GET", "/api/vue/quant/subscriptions", httpx.IdemNone, m.subscriptions),
		httpx.Op(httpx.Member, "POST", "/api/vue/quant/subscriptions", httpx.IdemRequired, m.subscribe),
		httpx.Op(httpx.Member, "POST", "/api/vue/quant/subscriptions/{subId}/leave", httpx.IdemRequired, m.leave),
	}
}

// BacktestDays is how many trading days the backtest replays (about a year).
const BacktestDays = 250

// Bars are up to n daily bars of symbol before the Taipei day of t, oldest first: the closes
// known when the rule runs that day.
func Bars(c Candles, symbol string, t time.Time, n int) ([]rules.Bar, error) {
	l := t.In(commands.Taipei)
	day := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, commands.Taipei)
	cs, err := c.Candles(symbol, "1d", day, n)
	if err != nil {
		return nil, fmt.Errorf("daily bars of %s: %w", symbol, err)
	}
	out := make([]rules.Bar, 0, len(cs))
	for _, k := range cs {
		if !k.Time.Before(day) {
			continue
		}
		out = append(out, rules.Bar{Day: k.Time.In(commands.Taipei).Format(time.DateOnly), Open: k.Open, Close: k.Close})
	}
	return out, nil
}

// Backtest replays p's rule on the market's history up to the day before now, from p's minimum.
func Backtest(c Candles, p rules.Product, now time.Time) (rules.Result, error) {
	bars := map[string][]rules.Bar{}
	for _, s := range p.Symbols {
		bs, err := Bars(c, s, now, BacktestDays)
		if err != nil {
			return rules.Result{}, err
		}
		bars[s] = bs
	}
	return rules.Backtest(p, bars, fees.ETF, p.MinAmount), nil
}

func productOut(p rules.Product, r rules.Result, curve bool) wire.QuantProduct {
	bt := wire.QuantBacktest{From: r.From, To: r.To, Start: httpx.Money(r.Start), End: httpx.Money(r.End), Return: r.Return.StringFixed(4),
		MaxDrawdown: r.MaxDrawdown.StringFixed(4), Trades: r.Trades, Wins: r.Wins, WinRate: r.WinRate.StringFixed(4),
		Curve: []wire.QuantPoint{}}
	if curve {
		for _, pt := range r.Curve {
			bt.Curve = append(bt.Curve, wire.QuantPoint{Day: pt.Day, Equity: httpx.Money(pt.Equity)})
		}
	}
	return wire.QuantProduct{Id: p.ID, Kind: wire.QuantProductKind(p.Kind), NameTw: p.NameTW, NameEn: p.NameEN, DescriptionTw: p.DescTW,
		DescriptionEn: p.DescEN, RuleTw: p.RuleTW, RuleEn: p.RuleEN, Symbols: p.Symbols, MinAmount: httpx.Money(p.MinAmount),
		Schedule: fmt.Sprintf("%02d:%02d", runner.EvalHour, runner.EvalMinute), Backtest: bt}
}

func (m *Module) products(c *httpx.Call) (httpx.Reply, error) {
	out := make([]wire.QuantProduct, 0, len(rules.Products))
	for _, p := range rules.Products {
		r, err := Backtest(m.candles, p, m.now())
		if err != nil {
			return httpx.Reply{}, err
		}
		out = append(out, productOut(p, r, false))
	}
	return httpx.OK(out)
}

func (m *Module) product(c *httpx.Call) (httpx.Reply, error) {
	p, ok := rules.ByID(c.Var("productId"))
	if !ok {
		return httpx.Reply{}, httpx.Refuse(http.StatusNotFound, wire.MessageKeyQuantProductNotFound, nil)
	}
	r, err := Backtest(m.candles, p, m.now())
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(productOut(p, r, true))
}

func resultOut(r quantcmd.Result) wire.QuantResult {
	return wire.QuantResult{SubId: r.SubID, State: r.State, Position: r.Position}
}

func (m *Module) subscribe(c *httpx.Call) (httpx.Reply, error) {
	var req wire.QuantSubscribeRequest
	if err := c.Decode("QuantSubscribeRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.Subscribe(c.Ctx(), c.Meta(), c.Sess.MemberID, quantcmd.Subscribe{Product: req.Product, Amount: req.Amount})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.Reply{Key: wire.MessageKeyQuantSubscribed, Data: resultOut(res)}, nil
}

// leave ends the member's subscription; with close it first checks that the market takes the
// sales, then leaves and sells each position the strategy holds at market, each under a command
// id derived from the request's key.
func (m *Module) leave(c *httpx.Call) (httpx.Reply, error) {
	var req wire.QuantLeaveRequest
	if err := c.Decode("QuantLeaveRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	subID := c.Var("subId")
	sub, err := readquant.MemberSubscription(c.Ctx(), m.read.Reader, c.Sess.MemberID, subID)
	if errors.Is(err, projections.ErrNotFound) {
		return httpx.Reply{}, httpx.Refuse(http.StatusNotFound, wire.MessageKeyOrderNotFound, err)
	}
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("quant subscription %s: %w", subID, err)
	}
	now := m.now()
	views := map[string]trading.Market{}
	if req.Close && sub.State == readquant.StateRunning {
		for _, p := range sub.Positions {
			v := engine.View(m.market(), p.Symbol, now)
			if !v.Matches(p.Shares%fees.BoardLot != 0) {
				return httpx.Reply{}, httpx.Refuse(http.StatusUnprocessableEntity, wire.MessageKeyNotTradingTime, nil)
			}
			views[p.PositionID] = v
		}
	}
	meta := c.Meta()
	res, err := m.cmd.Leave(c.Ctx(), meta, c.Sess.MemberID, subID, req.Close)
	if err != nil {
		return httpx.Reply{}, err
	}
	for _, p := range sub.Positions {
		v, ok := views[p.PositionID]
		if !ok {
			continue
		}
		cm := meta
		cm.CommandID = meta.CommandID + "/close/" + p.PositionID
		_, err := m.closer.ClosePosition(c.Ctx(), cm, trading.ClosePosition{MemberID: c.Sess.MemberID, PositionID: p.PositionID,
			Close: trading.CloseInput{Type: events.OrderMarket}, Market: v})
		if e, ok := commands.AsError(err); ok && e.Kind != commands.KindUnavailable {
			// Sold meanwhile or closing already: the member's position is not the strategy's to sell.
			continue
		}
		if err != nil {
			return httpx.Reply{}, fmt.Errorf("close %s of %s: %w", p.PositionID, subID, err)
		}
	}
	return httpx.Reply{Key: wire.MessageKeyQuantLeft, Data: resultOut(res)}, nil
}

func (m *Module) subscriptions(c *httpx.Call) (httpx.Reply, error) {
	subs, err := readquant.MemberSubscriptions(c.Ctx(), m.read.Reader, c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("quant subscriptions of %s: %w", c.Sess.MemberID, err)
	}
	mk := m.market()
	out := make([]wire.QuantSubscription, 0, len(subs))
	for _, s := range subs {
		p, _ := rules.ByID(s.Product)
		w := wire.QuantSubscription{SubId: s.SubID, Product: s.Product, NameTw: p.NameTW, NameEn: p.NameEN,
			State: s.State, Amount: httpx.Money(s.Amount), Held: httpx.Money(s.Held), Spent: httpx.Money(s.Spent),
			Proceeds: httpx.Money(s.Proceeds), Realized: httpx.Money(s.Realized), Orders: s.Orders, CloseAll: s.CloseAll,
			Positions: []wire.QuantPosition{}, CreatedAt: s.CreatedAt, EndedAt: s.EndedAt}
		unrealized := decimal.Zero
		for _, pos := range s.Positions {
			value := pos.Basis
			if q, err := mk.Quote(pos.Symbol); err == nil && q.Price.IsPositive() {
				value = q.Price.Mul(decimal.NewFromInt(pos.Shares))
			}
			unrealized = unrealized.Add(value.Sub(pos.Basis))
			w.Positions = append(w.Positions, wire.QuantPosition{PositionId: pos.PositionID, Symbol: pos.Symbol, Shares: pos.Shares,
				Basis: httpx.Money(pos.Basis), Value: httpx.Money(value)})
		}
		w.Unrealized, w.Profit = httpx.Money(unrealized), httpx.Money(s.Realized.Add(unrealized))
		out = append(out, w)
	}
	return httpx.OK(out)
}

// Orders is the strategy process's way to the market and to the member's orders: daily bars and
// quotes from the market, orders through trading's PlaceOrder and ClosePosition.
type Orders struct {
	Trading *trading.Commands
	Market  interface {
		engine.Market
		Candles
	}
}

// Bars implements runner.Market.
func (o Orders) Bars(symbol string, t time.Time, n int) ([]rules.Bar, error) {
	return Bars(o.Market, symbol, t, n)
}

// Plan implements runner.Market: a buy's limit is the protective price rounded down to the tick
// grid, so the order reserves exactly what Size counted.
func (o Orders) Plan(symbol string, t time.Time) (runner.Plan, bool) {
	v := engine.View(o.Market, symbol, t)
	if v.Symbol == "" || !v.Quote.Last.IsPositive() {
		return runner.Plan{}, false
	}
	limit := tickDown(v)
	if !limit.IsPositive() {
		return runner.Plan{}, false
	}
	return runner.Plan{Limit: limit, BoardLots: v.Matches(false), OddLots: v.Matches(true)}, true
}

// Buy implements runner.Market.
func (o Orders) Buy(ctx context.Context, meta commands.Meta, memberID, symbol string, ord rules.Order, limit decimal.Decimal, t time.Time) error {
	_, err := o.Trading.PlaceOrder(ctx, meta, memberID, trading.OrderInput{Symbol: symbol, Direction: events.DirectionLong,
		Type: events.OrderLimit, Lots: ord.Lots, Shares: ord.Shares, Price: limit.StringFixed(2)}, engine.View(o.Market, symbol, t))
	if err != nil {
		return fmt.Errorf("quant buy %s for %s: %w", symbol, memberID, err)
	}
	return nil
}

// Sell implements runner.Market.
func (o Orders) Sell(ctx context.Context, meta commands.Meta, memberID, symbol, positionID string, t time.Time) error {
	_, err := o.Trading.ClosePosition(ctx, meta, trading.ClosePosition{MemberID: memberID, PositionID: positionID,
		Close: trading.CloseInput{Type: events.OrderMarket}, Market: engine.View(o.Market, symbol, t)})
	if err != nil {
		return fmt.Errorf("quant sell %s of %s: %w", positionID, memberID, err)
	}
	return nil
}

// tickDown is a buy's protective price at the view's quote, rounded down to the tick grid (and
// so within the band, whose limit-up is on the grid).
func tickDown(v trading.Market) decimal.Decimal {
	p := matching.Protective(true, v.Quote.Last, v.Quote.LimitDown, v.Quote.LimitUp)
	kind := mktrules.ETF
	if v.Kind == fees.Stock {
		kind = mktrules.Stock
	}
	tick := mktrules.TickSize(p, kind)
	if !tick.IsPositive() {
		return decimal.Zero
	}
	return p.Div(tick).Floor().Mul(tick)
}
