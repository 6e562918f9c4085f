// Package copytrade is copy trading's HTTP side: the published rules, the mentors with their
// computed statistics, a member's mentor profile (opt in), following a mentor, the member's
// follows with their mirrored orders, and stopping a follow (positions kept or closed at
// market). It also registers the mirror process (commands/copytrade/mirror) with its adapter to
// trading's commands: the write side's capability packages may not import each other, this
// module may.
package copytrade

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	copycmd "github.com/lotbook/lotbook/commands/copytrade"
	"github.com/lotbook/lotbook/commands/copytrade/mirror"
	"github.com/lotbook/lotbook/commands/process"
	"github.com/lotbook/lotbook/commands/rules/mentor"
	"github.com/lotbook/lotbook/commands/rules/ticket"
	tradingcmd "github.com/lotbook/lotbook/commands/trading"
	"github.com/lotbook/lotbook/commands/trading/engine"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	readcopy "github.com/lotbook/lotbook/projections/copytrade"
	readtrading "github.com/lotbook/lotbook/projections/trading"
	"github.com/lotbook/lotbook/projections/trading/valuation"
)

// Commands are the write side's copy-trade operations this module sends (*copytrade.Commands).
type Commands interface {
	SetProfile(ctx context.Context, meta commands.Meta, memberID string, in copycmd.ProfileInput) (copycmd.Result, error)
	Follow(ctx context.Context, meta commands.Meta, followerID string, in copycmd.FollowInput) (copycmd.Result, error)
	RequestStop(ctx context.Context, meta commands.Meta, in copycmd.Stop) (copycmd.Result, error)
	Stop(ctx context.Context, meta commands.Meta, in copycmd.Stop) (copycmd.Result, error)
	Holdings(ctx context.Context, followerID, followID string) ([]copycmd.Position, string, error)
	Working(ctx context.Context, followerID, followID string) ([]string, error)
}

// Closer closes a member's position and cancels its orders (*trading.Commands of commands/trading).
type Closer interface {
	ClosePosition(ctx context.Context, meta commands.Meta, cp tradingcmd.ClosePosition) (tradingcmd.TradeResult, error)
	CancelOrder(ctx context.Context, meta commands.Meta, in tradingcmd.CancelOrder) (tradingcmd.TradeResult, error)
}

// cancelWith is trading's cancel as the mirror's CancelFunc.
func cancelWith(t Closer) mirror.CancelFunc {
	return func(ctx context.Context, meta commands.Meta, memberID, orderNo string) error {
		_, err := t.CancelOrder(ctx, meta, tradingcmd.CancelOrder{MemberID: memberID, OrderNo: orderNo})
		return err
	}
}

// Module serves the copy-trade routes.
type Module struct {
	cmd    Commands
	trade  Closer
	read   *projections.ReadDB
	market func() engine.Market
	now    func() time.Time
}

// New is the copy-trade module over the kernel k (its commands), trading's commands (to close
// at market), the read models, the market and the clock. The mirror process built over the same
// kernel places its orders on this market too: the one members' orders are decided on.
func New(k *commands.Service, trade Closer, read *projections.ReadDB, market func() engine.Market, now func() time.Time) *Module {
	if t, ok := traders.Load(k); ok {
		t.(*trader).setMarket(market)
	}
	return &Module{cmd: copycmd.New(k), trade: trade, read: read, market: market, now: now}
}

// Routes are the copy-trade operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Member, "GET", "/api/vue/copytrade/rules", httpx.IdemNone, m.rules),
		httpx.Op(httpx.Member, "GET", "/api/vue/copytrade/mentors", httpx.IdemNone, m.mentors),
		httpx.Op(httpx.Member, "GET", "/api/vue/copytrade/mentors/{mentorId}", httpx.IdemNone, m.mentor),
		httpx.Op(httpx.Member, "GET", "/api/vue/copytrade/profile", httpx.IdemNone, m.myProfile),
		httpx.Op(httpx.Member, "POST", "/api/vue/copytrade/profile", httpx.IdemRequired, m.setProfile),
		httpx.Op(httpx.Member, "GET", "/api/vue/copytrade/follows", httpx.IdemNone, m.myFollows),
		httpx.Op(httpx.Member, "POST", "/api/vue/copytrade/follows", httpx.IdemRequired, m.follow),
		httpx.Op(httpx.Member, "GET", "/api/vue/copytrade/follows/{followId}", httpx.IdemNone, m.followDetail),
		httpx.Op(httpx.Member, "POST", "/api/vue/copytrade/follows/{followId}/stop", httpx.IdemRequired, m.stop),
	}
}

func (m *Module) rules(*httpx.Call) (httpx.Reply, error) {
	out := wire.CopyTradeRules{MaxProfitShare: mentor.MaxProfitShare.String(), MinFollowFloor: httpx.Money(mentor.MinFollowFloor),
		MinWindowDays: mentor.MinWindowDays, MaxWindowDays: mentor.MaxWindowDays}
	for _, t := range mentor.Thresholds {
		out.Thresholds = append(out.Thresholds, wire.LevelThreshold{Level: wire.MentorLevel(t.Level), RoundTrips: t.RoundTrips,
			WinRate: t.WinRate.String(), Equity: httpx.Money(t.Equity)})
	}
	return httpx.OK(out)
}

// mentorOut computes a mentor's statistics by the published rules over its fills and cash.
func mentorOut(mt readcopy.Mentor, cash decimal.Decimal, now time.Time) wire.Mentor {
	s := mentor.Compute(mt.Fills, cash, mt.CopyAmount, now)
	return wire.Mentor{MentorId: mt.MemberID, DisplayName: mt.DisplayName, Level: wire.MentorLevel(s.Level), MinAmount: httpx.Money(mt.MinAmount),
		WindowDays: mt.WindowDays, ProfitShare: mt.ProfitShare.String(), Equity: httpx.Money(s.Equity), Profit: httpx.Money(s.Profit),
		WinRate: s.WinRate.String(), RoundTrips: s.RoundTrips, AvgHoldMinutes: int64(s.AvgHold / time.Minute),
		DailyReturn: s.DailyReturn.String(), CopyAmount: httpx.Money(s.CopyAmount), Followers: mt.Followers, Since: mt.Since}
}

// cashOf is a member's TWD cash, available and frozen.
func cashOf(ctx context.Context, rd *projections.Reader, memberID string) (decimal.Decimal, error) {
	bs, err := rd.Balances(ctx, memberID)
	if err != nil {
		return decimal.Zero, fmt.Errorf("balances of %s: %w", memberID, err)
	}
	b := bs[commands.TWD]
	return b.Available.Add(b.Frozen), nil
}

func (m *Module) mentors(c *httpx.Call) (httpx.Reply, error) {
	level := c.R.URL.Query().Get("level")
	if level != "" && !wire.MentorLevel(level).Valid() {
		return httpx.Reply{}, httpx.Refuse(http.StatusBadRequest, wire.MessageKeyInvalidRequest, nil)
	}
	out := wire.MentorList{Items: []wire.Mentor{}}
	err := c.Snapshot(func(rd *projections.Reader) error {
		ms, err := readcopy.Mentors(c.Ctx(), rd)
		if err != nil {
			return fmt.Errorf("mentors: %w", err)
		}
		for _, mt := range ms {
			cash, err := cashOf(c.Ctx(), rd, mt.MemberID)
			if err != nil {
				return err
			}
			if w := mentorOut(mt, cash, m.now()); level == "" || string(w.Level) == level {
				out.Items = append(out.Items, w)
			}
		}
		return nil
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	slices.SortStableFunc(out.Items, func(a, b wire.Mentor) int {
		if c := decimal.RequireFromString(b.CopyAmount).Cmp(decimal.RequireFromString(a.CopyAmount)); c != 0 {
			return c
		}
		return cmp.Compare(a.DisplayName, b.DisplayName)
	})
	return httpx.OK(out)
}

var errNoMentor = httpx.Refuse(http.StatusNotFound, wire.MessageKey(copycmd.KeyMentorNotExist), nil)

// oneMentor reads a mentor with statistics; ok false when the member is no mentor.
func (m *Module) oneMentor(c *httpx.Call, memberID string) (wire.Mentor, decimal.Decimal, bool, error) {
	var out wire.Mentor
	var income decimal.Decimal
	found := false
	err := c.Snapshot(func(rd *projections.Reader) error {
		mt, err := readcopy.MentorByID(c.Ctx(), rd, memberID)
		if errors.Is(err, projections.ErrNotFound) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("mentor %s: %w", memberID, err)
		}
		cash, err := cashOf(c.Ctx(), rd, memberID)
		if err != nil {
			return err
		}
		out, income, found = mentorOut(mt, cash, m.now()), mt.Income, true
		return nil
	})
	return out, income, found, err
}

func (m *Module) mentor(c *httpx.Call) (httpx.Reply, error) {
	out, _, ok, err := m.oneMentor(c, c.Var("mentorId"))
	switch {
	case err != nil:
		return httpx.Reply{}, err
	case !ok:
		return httpx.Reply{}, errNoMentor
	}
	return httpx.OK(out)
}

func (m *Module) myProfile(c *httpx.Call) (httpx.Reply, error) {
	out, income, ok, err := m.oneMentor(c, c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, err
	}
	res := wire.MyMentor{ShareIncome: httpx.Money(income)}
	if ok {
		res.Mentor = &out
	}
	return httpx.OK(res)
}

func resultOut(r copycmd.Result) wire.CopyTradeResult {
	out := wire.CopyTradeResult{Position: r.Position}
	if r.FollowID != "" {
		out.FollowId = &r.FollowID
	}
	if r.State != "" {
		st := wire.FollowState(r.State)
		out.State = &st
	}
	return out
}

func (m *Module) setProfile(c *httpx.Call) (httpx.Reply, error) {
	var req wire.MentorProfileRequest
	if err := c.Decode("MentorProfileRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.SetProfile(c.Ctx(), c.Meta(), c.Sess.MemberID, copycmd.ProfileInput{DisplayName: req.DisplayName,
		MinAmount: req.MinAmount, WindowDays: req.WindowDays, ProfitShare: req.ProfitShare})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.Reply{Key: wire.MessageKeyMentorSaved, Data: resultOut(res)}, nil
}

func (m *Module) follow(c *httpx.Call) (httpx.Reply, error) {
	var req wire.FollowRequest
	if err := c.Decode("FollowRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.Follow(c.Ctx(), c.Meta(), c.Sess.MemberID, copycmd.FollowInput{MentorID: req.MentorId, Amount: req.Amount,
		Days: httpx.Deref(req.Days)})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.Reply{Key: wire.MessageKeyFollowStarted, Data: resultOut(res)}, nil
}

// current values the follows of memberID among fs not yet stopped (in progress or stopping), by follow id: the
// profit of their mirrored positions realised so far and, at the market's last price, of those
// still open (valuation.Holdings, as the mine screen reckons a member's profit), and the share a
// stop now would charge. Computed on every read: only quantities and costs are stored.
func (m *Module) current(ctx context.Context, rd *projections.Reader, memberID string, fs []readcopy.Follow) (map[string]*wire.FollowCurrent, error) {
	var live []string
	for _, f := range fs {
		if events.FollowLive(f.State) {
			live = append(live, f.FollowID)
		}
	}
	out := map[string]*wire.FollowCurrent{}
	if len(live) == 0 {
		return out, nil
	}
	opened, err := readtrading.PositionsOpenedBy(ctx, rd, memberID, live)
	if err != nil {
		return nil, fmt.Errorf("mirrored positions of %s: %w", memberID, err)
	}
	prices, today := m.market(), engine.TradingDay(m.now())
	for _, f := range fs {
		if !events.FollowLive(f.State) {
			continue
		}
		realised := decimal.Zero
		for _, p := range opened[f.FollowID] {
			realised = realised.Add(p.Profit)
		}
		_, profit := valuation.Holdings(realised, opened[f.FollowID], prices, today)
		out[f.FollowID] = &wire.FollowCurrent{Realised: httpx.Money(realised), Unrealised: httpx.Money(profit.Sub(realised)),
			Profit: httpx.Money(profit), Share: httpx.Money(mentor.ProfitShare(profit, f.ProfitShare))}
	}
	return out, nil
}

func followOut(f readcopy.Follow, current *wire.FollowCurrent) wire.Follow {
	var refused *wire.CopyRefusal
	if r := f.Refused; r != nil {
		refused = &wire.CopyRefusal{Reason: wire.MessageKey(r.Reason), Symbol: r.Symbol, Direction: wire.CopyRefusalDirection(r.Direction),
			Shares: r.Shares, At: r.At}
	}
	return wire.Follow{LastRefusal: refused, FollowId: f.FollowID, MentorId: f.MentorID, MentorName: f.MentorName, State: wire.FollowState(f.State),
		Amount: httpx.Money(f.Amount), Spent: httpx.Money(f.Spent.Sub(f.Returned)), Remaining: httpx.Money(f.Remaining()),
		Released: httpx.Money(f.Released), Profit: httpx.Money(f.Profit), Share: httpx.Money(f.Share), ProfitShare: f.ProfitShare.String(),
		Days: f.Days, Ends: f.Ends, ClosePositions: f.ClosePositions, CreatedAt: f.CreatedAt, UpdatedAt: f.UpdatedAt, Current: current}
}

func (m *Module) myFollows(c *httpx.Call) (httpx.Reply, error) {
	page, size, err := httpx.Paging(c.R.URL.Query())
	if err != nil {
		return httpx.Reply{}, err
	}
	state := c.R.URL.Query().Get("state")
	if state != "" && !wire.FollowState(state).Valid() {
		return httpx.Reply{}, httpx.Refuse(http.StatusBadRequest, wire.MessageKeyInvalidRequest, nil)
	}
	var fs []readcopy.Follow
	var more bool
	var current map[string]*wire.FollowCurrent
	err = c.Snapshot(func(rd *projections.Reader) error {
		var err error
		if fs, more, err = readcopy.MemberFollows(c.Ctx(), rd, c.Sess.MemberID, state, page, size); err != nil {
			return err
		}
		current, err = m.current(c.Ctx(), rd, c.Sess.MemberID, fs)
		return err
	})
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("follows of %s: %w", c.Sess.MemberID, err)
	}
	items := make([]wire.Follow, 0, len(fs))
	for _, f := range fs {
		items = append(items, followOut(f, current[f.FollowID]))
	}
	return httpx.OK(wire.FollowPage{Items: items, Page: page, HasMore: more})
}

var errNoFollow = httpx.Refuse(http.StatusNotFound, wire.MessageKey(copycmd.KeyFollowNotFound), nil)

func (m *Module) followDetail(c *httpx.Call) (httpx.Reply, error) {
	id := c.Var("followId")
	var f readcopy.Follow
	var orders []readcopy.Order
	var current map[string]*wire.FollowCurrent
	err := c.Snapshot(func(rd *projections.Reader) error {
		var err error
		if f, err = readcopy.FollowOf(c.Ctx(), rd, c.Sess.MemberID, id); err != nil {
			return err
		}
		if orders, err = readcopy.FollowOrders(c.Ctx(), rd, id); err != nil {
			return err
		}
		current, err = m.current(c.Ctx(), rd, c.Sess.MemberID, []readcopy.Follow{f})
		return err
	})
	if errors.Is(err, projections.ErrNotFound) {
		return httpx.Reply{}, errNoFollow
	}
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("follow %s: %w", id, err)
	}
	held, _, err := m.cmd.Holdings(c.Ctx(), c.Sess.MemberID, id)
	if err != nil {
		return httpx.Reply{}, err
	}
	out := wire.FollowDetail{Follow: followOut(f, current[f.FollowID]), Orders: []wire.CopyOrder{}, Positions: []wire.CopyPosition{}}
	for _, o := range orders {
		out.Orders = append(out.Orders, wire.CopyOrder{OrderNo: o.OrderNo, Intent: wire.CopyOrderIntent(o.Intent), Symbol: o.Symbol,
			Name: o.Name, Side: wire.CopyOrderSide(o.Side), Direction: wire.CopyOrderDirection(o.Direction), Shares: o.Shares, Filled: o.Filled, Price: httpx.Money(o.Price),
			Status: wire.CopyOrderStatus(o.Status), Profit: httpx.Money(o.Profit), CreatedAt: o.CreatedAt})
	}
	for _, p := range held {
		dir := wire.CopyPositionLong
		if p.Short {
			dir = wire.CopyPositionShort
		}
		out.Positions = append(out.Positions, wire.CopyPosition{PositionId: p.ID, Symbol: p.Symbol, Direction: dir, Shares: p.Shares})
	}
	return httpx.OK(out)
}

// stop stops the follow (mirror.StopFollow), closing its positions at market when asked.
func (m *Module) stop(c *httpx.Call) (httpx.Reply, error) {
	var req wire.StopFollowRequest
	if err := c.Decode("StopFollowRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	id := c.Var("followId")
	meta := c.Meta()
	var closeAll func([]copycmd.Position) error
	if req.ClosePositions {
		closeAll = func(held []copycmd.Position) error {
			var name string // the mentor the closes are shown as copied from
			err := c.Snapshot(func(rd *projections.Reader) error {
				f, err := readcopy.FollowOf(c.Ctx(), rd, c.Sess.MemberID, id)
				name = f.MentorName
				return err
			})
			if err != nil && !errors.Is(err, projections.ErrNotFound) {
				return fmt.Errorf("follow %s: %w", id, err)
			}
			for _, p := range held {
				cm := meta
				cm.CommandID = meta.CommandID + "/close/" + p.ID
				if _, err := m.trade.ClosePosition(c.Ctx(), cm, tradingcmd.ClosePosition{MemberID: c.Sess.MemberID, PositionID: p.ID,
					Close: tradingcmd.CloseInput{Type: events.OrderMarket, Origin: id, OriginName: name}, Market: engine.View(m.market(), p.Symbol, m.now())}); err != nil {
					return err
				}
			}
			return nil
		}
	}
	res, err := mirror.StopFollow(c.Ctx(), m.cmd, cancelWith(m.trade), meta,
		copycmd.Stop{FollowerID: c.Sess.MemberID, FollowID: id, ClosePositions: req.ClosePositions}, closeAll)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.Reply{Key: wire.MessageKeyFollowStopped, Data: resultOut(res)}, nil
}

// trader places the mirror's orders through trading's commands, on the market's view now.
type trader struct {
	cmd *tradingcmd.Commands
	now func() time.Time

	mu     sync.Mutex
	market func() engine.Market
}

// traders are the mirror processes' traders by the kernel they were built over, so that the
// module built over the same kernel gives them the market its handlers read.
var traders sync.Map // *commands.Service -> *trader

func (t *trader) setMarket(m func() engine.Market) {
	t.mu.Lock()
	t.market = m
	t.mu.Unlock()
}

func (t *trader) mkt() engine.Market {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.market()
}

func (t *trader) Open(ctx context.Context, meta commands.Meta, memberID string, tk mirror.Ticket) (string, error) {
	in := tradingcmd.OrderInput{Symbol: tk.Symbol, Direction: events.DirectionLong, Type: events.OrderLimit, Price: tk.Price.String(),
		Origin: tk.Origin, OriginName: tk.OriginName}
	if tk.Short {
		// a 融券 ticket, so the follower's short goes through every check its own would
		in.Direction, in.Condition = events.DirectionShort, ticket.Short
	}
	if tk.OddLot {
		in.Shares = tk.Shares
	} else {
		in.Lots = tk.Shares / tradingcmd.BoardLot
	}
	view := engine.View(t.mkt(), tk.Symbol, t.now())
	if tk.Short && !view.Quote.LimitUp.Equal(tk.LimitUp) {
		return "", commands.Rule(commands.KeyPriceNotObtained)
	}
	res, err := t.cmd.PlaceOrder(ctx, meta, memberID, in, view)
	return res.OrderNo, err
}

func (t *trader) Close(ctx context.Context, meta commands.Meta, memberID, positionID, symbol string, shares int64, origin, originName string) error {
	in := tradingcmd.CloseInput{Type: events.OrderMarket, Origin: origin, OriginName: originName}
	if shares%tradingcmd.BoardLot == 0 {
		in.Lots = shares / tradingcmd.BoardLot
	} else {
		in.Shares = shares
	}
	_, err := t.cmd.ClosePosition(ctx, meta, tradingcmd.ClosePosition{MemberID: memberID, PositionID: positionID, Close: in,
		Market: engine.View(t.mkt(), symbol, t.now())})
	return err
}

func (t *trader) Cancel(ctx context.Context, meta commands.Meta, memberID, orderNo string) error {
	return cancelWith(t.cmd)(ctx, meta, memberID, orderNo)
}

func (t *trader) OddLots() bool { return t.mkt().Session().OddLot == "intraday" }

func (t *trader) LimitUp(symbol string) decimal.Decimal {
	return engine.View(t.mkt(), symbol, t.now()).Quote.LimitUp
}

func init() {
	process.Register(mirror.ProcessName, func(d process.Deps) process.Runner {
		now := d.Clock
		if now == nil {
			now = time.Now
		}
		mkt := d.Market
		t := &trader{cmd: tradingcmd.New(d.Commands, tradingcmd.TradingRules{}), now: now, market: func() engine.Market { return mkt }}
		traders.Store(d.Commands, t)
		return mirror.New(mirror.Config{Commands: copycmd.New(d.Commands), Trader: t, Store: d.Store, Feed: d.Feed, Clock: now, Logger: d.Logger,
			Registerer: d.Registerer})
	})
}
