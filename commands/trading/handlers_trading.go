package trading

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/matching"
	"github.com/lotbook/lotbook/events"
)

// TradingRules are the broker's rules on closing positions, configuration that the app shows:
// a position is locked for LockMinutes after its first fill, and may be sold only HoldDays
// trading days after the day it was opened (0: the same day; 1: no sale on the same day, ...).
// Day trades are exempt from the holding rule: they must close the same day.
type TradingRules struct {
	LockMinutes int
	HoldDays    int
}

// TradeResult answers an order command: the order, its status and filled shares after the
// command, its position, the global position of the command's last event and the member's cash.
type TradeResult struct {
	OrderNo, Status, PositionID string
	Filled                      int64 // shares the command filled
	Remaining                   int64 // shares of the order still working after it (0 once done)
	Position                    int64
	Balances                    map[string]commands.Balance
}

// Commands are trading's commands over the kernel k, with the broker's rules.
type Commands struct {
	k     *commands.Service
	rules TradingRules
}

// New returns trading's commands over the kernel k; rules are the broker's lock and holding
// rules on closing positions (none when zero).
func New(k *commands.Service, rules TradingRules) *Commands { return &Commands{k: k, rules: rules} }

// TradingRules returns the rules ClosePosition applies.
func (s *Commands) TradingRules() TradingRules { return s.rules }

// PlaceOrder opens a position: a buy (long) or a short sale, at a limit or at market, reserving
// its cash. While the market matches, the order crosses the book at once; a limit order's rest
// works until it fills, is cancelled or its trading day ends; a market order's rest is cancelled.
func (s *Commands) PlaceOrder(ctx context.Context, meta commands.Meta, memberID string, in OrderInput, mkt Market) (TradeResult, error) {
	c, err := s.k.Begin(meta, "order.place")
	if err != nil {
		return TradeResult{}, err
	}
	sp, e := validateOrder(in)
	if e != nil {
		return TradeResult{}, e
	}
	if !commands.ValidMemberID(memberID) {
		return TradeResult{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		facts, err := s.k.Standing(ctx, memberID)
		if err != nil {
			return nil, err
		}
		if e := facts.Refuse(tradeRefusals...); e != nil {
			return nil, e
		}
		if e := checkMarket(mkt, &sp); e != nil {
			return nil, e
		}
		return decidePlace(a, sp, mkt, c.Now, s.k.Calendar(), c.OrderNumbers(tradeOrderPrefix, memberID))
	})
	if err != nil {
		return TradeResult{}, err
	}
	return tradeAnswer(rec, events.IntentOpen)
}

func decidePlace(a *commands.Account, sp orderSpec, mkt Market, now time.Time, cal commands.Calendar, orderNo func(int) string) ([]events.Payload, error) {
	buy := sp.direction == events.DirectionLong
	side := events.SideSell
	if buy {
		side = events.SideBuy
	}
	no := a.FreeOrderNo(orderNo)
	r := run(a, now, nil, nil)
	r.emit(events.OrderPlaced{OrderNo: no, PositionID: no, Intent: events.IntentOpen, Symbol: mkt.Symbol, Name: mkt.Name,
		Kind: mkt.Kind.String(), Side: side, Direction: sp.direction, Type: sp.typ, Shares: sp.shares, OddLot: sp.oddLot,
		Price: bound(buy, sp, mkt.Quote), Leverage: sp.leverage, DayTrade: sp.dayTrade, TradingDay: mkt.TradingDay,
		By: events.OrderByMember, Quote: quoteUsed(mkt.Quote), Condition: sp.condition, Session: sp.session, TimeInForce: sp.tif,
		Origin: sp.origin, OriginName: sp.originName})
	o := r.t.orders[no]
	res := reservation(o, r.t.positions[no], mkt.Quote)
	if res.GreaterThan(r.cash) {
		return nil, commands.Rule(commands.KeyInsufficientBalance)
	}
	if res.IsPositive() {
		r.emit(events.TradeCashFrozen{OrderNo: no, Amount: res, Postings: events.Transfer(a.Available, a.Frozen, TWD, res)})
	}
	if mkt.Matches(sp.oddLot) && !Auctioned(sp.session) {
		if err := r.match(no, mkt.Quote, cal, mkt.TradingDay); err != nil {
			return nil, commands.Unavailable(err)
		}
	}
	return r.out, nil
}

// CancelOrder is a member's cancellation of a working order.
type CancelOrder struct{ MemberID, OrderNo string }

// CancelOrder stops a member's working order and releases what it holds frozen. Orders the
// rules placed (forced and day-trade closes) are not the member's to cancel.
func (s *Commands) CancelOrder(ctx context.Context, meta commands.Meta, in CancelOrder) (TradeResult, error) {
	return s.onOrder(ctx, meta, "order.cancel", in.MemberID, in.OrderNo, func(r *tradeRun, o *tradeOrder) error {
		if !o.working || o.By != events.OrderByMember {
			return commands.Rule(commands.KeyOrderNotPending)
		}
		r.cancel(o.OrderNo, events.CancelByMember)
		return nil
	})
}

// FillOrder matches one working order against the market's view of its symbol, or fills it in a
// call auction.
type FillOrder struct {
	MemberID, OrderNo string
	Market            Market
	Auction           *AuctionFill // set: the order's part of a call auction of its session
}

// AuctionFill is an order's part of a call auction: shares at the auction's single price.
type AuctionFill struct {
	Price  decimal.Decimal
	Shares int64
}

// FillOrder crosses a working order with the market's quote (the matching engine calls it on
// quote updates with command id "<orderNo>/fill/<next seq>", so a retry never fills twice). It
// writes nothing when the order does not cross, its trading day is over or the market does not
// match now.
func (s *Commands) FillOrder(ctx context.Context, meta commands.Meta, in FillOrder) (TradeResult, error) {
	mkt := in.Market
	return s.onOrder(ctx, meta, "order.fill", in.MemberID, in.OrderNo, func(r *tradeRun, o *tradeOrder) error {
		if in.Auction != nil || Auctioned(o.Session) {
			return r.auctionFill(o, in.Auction, mkt, s.k.Calendar())
		}
		if !o.working || o.TradingDay != mkt.TradingDay || o.By == events.OrderByMember && !mkt.Matches(o.OddLot) {
			return nil
		}
		if err := r.match(o.OrderNo, mkt.Quote, s.k.Calendar(), mkt.TradingDay); err != nil {
			return commands.Unavailable(err)
		}
		return nil
	})
}

// auctionFill fills a working order of an auctioned session by its part of the session's call
// auction: within its limit, never more than its rest, only when the auction is due. Anything
// else writes nothing.
func (r *tradeRun) auctionFill(o *tradeOrder, a *AuctionFill, mkt Market, cal commands.Calendar) error {
	if a == nil || !Auctioned(o.Session) || !o.working || o.TradingDay != mkt.TradingDay || !mkt.AuctionDue(o.Session) ||
		a.Shares <= 0 || a.Shares > o.remaining() || !a.Price.IsPositive() || !matching.Crosses(o.buy(), o.Price, a.Price) ||
		!o.OddLot && a.Shares%BoardLot != 0 {
		return nil
	}
	if err := r.fill(o, []matching.Fill{{Price: a.Price, Shares: a.Shares}}, mkt.Quote, cal, mkt.TradingDay); err != nil {
		return commands.Unavailable(err)
	}
	if !o.working {
		for _, p := range release(o, r.a.Available, r.a.Frozen) {
			r.emit(p)
		}
	}
	return nil
}

// ExpireOrder ends one order at the close of its trading day.
type ExpireOrder struct{ MemberID, OrderNo string }

// ExpireOrder ends a day order whose trading day's session is over (the engine decides when) and
// releases what it holds frozen. Nothing happens to an order that no longer works.
func (s *Commands) ExpireOrder(ctx context.Context, meta commands.Meta, in ExpireOrder) (TradeResult, error) {
	return s.onOrder(ctx, meta, "order.expire", in.MemberID, in.OrderNo, func(r *tradeRun, o *tradeOrder) error {
		if !o.working {
			return nil
		}
		r.emit(events.OrderExpired{OrderNo: o.OrderNo, PositionID: o.PositionID, Shares: o.remaining(), TradingDay: o.TradingDay})
		for _, p := range release(r.t.orders[o.OrderNo], r.a.Available, r.a.Frozen) {
			r.emit(p)
		}
		return nil
	})
}

// onOrder runs the command name on a member's order: act emits on a run over the order (never
// nil: an order the member does not have is not found) what the command does, nothing when it
// does nothing, or refuses. The answer is the order after the command.
func (s *Commands) onOrder(ctx context.Context, meta commands.Meta, name, memberID, orderNo string, act func(r *tradeRun, o *tradeOrder) error) (TradeResult, error) {
	c, err := s.k.Begin(meta, name)
	if err != nil {
		return TradeResult{}, err
	}
	if !commands.ValidMemberID(memberID) || orderNo == "" || len(orderNo) > 64 {
		return TradeResult{}, commands.NotFound(commands.KeyOrderNotFound)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		o := tradingPart.Of(a).orders[orderNo]
		if o == nil {
			return nil, commands.NotFound(commands.KeyOrderNotFound)
		}
		r := run(a, c.Now, []string{orderNo}, []string{o.PositionID})
		if err := act(r, o); err != nil {
			return nil, err
		}
		return r.out, nil
	})
	if err != nil {
		return TradeResult{}, err
	}
	return tradeAnswer(rec, orderNo)
}

// ClosePosition is a member's close of one position, with the market's view of its symbol.
type ClosePosition struct {
	MemberID, PositionID string
	Close                CloseInput
	Market               Market
}

// ClosePosition sells a long's shares or buys a short's back, all or part, at market or at a
// limit, through the same matching as any order. A still working opening order's rest is
// cancelled first. The broker's lock and holding rules apply (TradingRules).
func (s *Commands) ClosePosition(ctx context.Context, meta commands.Meta, cp ClosePosition) (TradeResult, error) {
	memberID, positionID, in, mkt := cp.MemberID, cp.PositionID, cp.Close, cp.Market
	c, err := s.k.Begin(meta, "position.close")
	if err != nil {
		return TradeResult{}, err
	}
	if !validOrderType(in.Type) {
		return TradeResult{}, commands.Invalid(commands.KeyInvalidRequest)
	}
	price, e := limitPrice(in.Type, in.Price)
	if e != nil {
		return TradeResult{}, e
	}
	if !commands.ValidMemberID(memberID) || positionID == "" || len(positionID) > 64 {
		return TradeResult{}, commands.NotFound(commands.KeyPositionNotFound)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		facts, err := s.k.Standing(ctx, memberID)
		if err != nil {
			return nil, err
		}
		pos := tradingPart.Of(a).positions[positionID]
		if pos == nil {
			if key, due := a.NotYetTradable(positionID, c.Now); due {
				return nil, commands.Rule(key)
			}
			return nil, commands.NotFound(commands.KeyPositionNotFound)
		}
		if e := facts.Refuse(tradeRefusals...); e != nil {
			return nil, e
		}
		if pos.shares == 0 || pos.closing > 0 {
			return nil, commands.Rule(commands.KeyPositionNotHolding)
		}
		sp := orderSpec{typ: in.Type, price: price, shares: pos.shares, oddLot: pos.shares%BoardLot != 0, origin: in.Origin, originName: in.OriginName}
		if in.Lots != 0 || in.Shares != 0 {
			q, odd, e := quantity(in.Lots, in.Shares)
			if e != nil {
				return nil, e
			}
			if q > pos.shares || odd != sp.oddLot {
				return nil, commands.Rule(commands.KeyCloseQuantityInvalid)
			}
			sp.shares = q
		}
		if e := s.closeAllowed(pos, c.Now, mkt.TradingDay); e != nil {
			return nil, e
		}
		if e := sellable(a, pos, sp.shares); e != nil {
			return nil, e
		}
		if pos.symbol != mkt.Symbol {
			return nil, commands.Unavailable(fmt.Errorf("position %s is %s, market view of %s", pos.id, pos.symbol, mkt.Symbol))
		}
		if e := checkMarket(mkt, &sp); e != nil {
			return nil, e
		}
		return decideClose(a, pos, sp, mkt, c.Now, s.k.Calendar(), events.OrderByMember,
			c.OrderNumbers(tradeOrderPrefix, memberID))
	})
	if err != nil {
		return TradeResult{}, err
	}
	return tradeAnswer(rec, events.IntentClose)
}

// closeAllowed applies the broker's lock and holding rules to a member's close.
func (s *Commands) closeAllowed(pos *tradePosition, now time.Time, day string) *commands.Error {
	r := s.rules
	if r.LockMinutes > 0 && now.Before(pos.openedAt.Add(time.Duration(r.LockMinutes)*time.Minute)) {
		return commands.Rule(commands.KeyPositionLocked)
	}
	if r.HoldDays > 0 && !pos.dayTrade && tradingDaysBetween(pos.openDay, day, s.k.Calendar()) < r.HoldDays {
		return commands.Rule(commands.KeySaleNotAllowedYet)
	}
	return nil
}

// tradingDaysBetween counts the trading days after from up to and including to (YYYY-MM-DD).
func tradingDaysBetween(from, to string, cal commands.Calendar) int {
	a, err1 := time.Parse(time.DateOnly, from)
	b, err2 := time.Parse(time.DateOnly, to)
	if err1 != nil || err2 != nil {
		return 0
	}
	n := 0
	for d := a.AddDate(0, 0, 1); !d.After(b); d = d.AddDate(0, 0, 1) {
		if cal == nil || !cal.IsHoliday(d.Add(12*time.Hour)) {
			n++
		}
	}
	return n
}

// decideClose places the closing order of sp.shares of pos (by the member or by a rule) and
// crosses it with the book: members' orders while the market matches, the rules' at once.
func decideClose(a *commands.Account, pos *tradePosition, sp orderSpec, mkt Market, now time.Time, cal commands.Calendar, by string, orderNo func(int) string) ([]events.Payload, error) {
	r := run(a, now, []string{pos.id, pos.closeOrder}, []string{pos.id})
	if pos.openWorking {
		r.cancel(pos.id, events.CancelPositionClosing)
	}
	if pos.closeOrder != "" {
		r.cancel(pos.closeOrder, by) // only a rule's close finds one working: members' are refused
	}
	buy := pos.short()
	side := events.SideSell
	if buy {
		side = events.SideBuy
	}
	no := a.FreeOrderNo(orderNo)
	r.emit(events.OrderPlaced{OrderNo: no, PositionID: pos.id, Intent: events.IntentClose, Symbol: pos.symbol, Name: mkt.Name,
		Kind: pos.kind, Side: side, Direction: pos.direction, Type: sp.typ, Shares: sp.shares, OddLot: sp.oddLot,
		Price: bound(buy, sp, mkt.Quote), Leverage: pos.leverage, DayTrade: pos.dayTrade, TradingDay: mkt.TradingDay,
		By: by, Quote: quoteUsed(mkt.Quote), Origin: sp.origin, OriginName: sp.originName})
	res := reservation(r.t.orders[no], r.t.positions[pos.id], mkt.Quote)
	if res.GreaterThan(r.cash) {
		if by == events.OrderByMember {
			return nil, commands.Rule(commands.KeyInsufficientBalance)
		}
		res = decimal.Max(decimal.Zero, r.cash) // a rule's close goes ahead; a shortfall is the broker's
	}
	if res.IsPositive() {
		r.emit(events.TradeCashFrozen{OrderNo: no, Amount: res, Postings: events.Transfer(a.Available, a.Frozen, TWD, res)})
	}
	if by != events.OrderByMember || mkt.Matches(sp.oddLot) {
		if err := r.match(no, mkt.Quote, cal, mkt.TradingDay); err != nil {
			return nil, commands.Unavailable(err)
		}
	}
	return r.out, nil
}

// tradeAnswer reads a command's record: the order it placed (intent open or close) or the one it
// acted on (an order number), with its status after the command.
func tradeAnswer(rec *commands.Record, which string) (TradeResult, error) {
	out := TradeResult{Position: rec.Position}
	if b, ok := rec.Snapshot.(map[string]commands.Balance); ok {
		out.Balances = b
	}
	for _, p := range rec.Payloads {
		if e, ok := p.(events.OrderPlaced); ok && (e.Intent == which || e.OrderNo == which) {
			out.OrderNo, out.PositionID, out.Status, out.Remaining = e.OrderNo, e.PositionID, OrderPending, e.Shares
		}
	}
	if out.OrderNo == "" && which != events.IntentOpen && which != events.IntentClose {
		out.OrderNo = which
	}
	if out.OrderNo == "" {
		return TradeResult{}, commands.KeyReused()
	}
	for _, p := range rec.Payloads {
		switch e := p.(type) {
		case events.OrderFilled:
			if e.OrderNo == out.OrderNo {
				out.PositionID, out.Filled, out.Remaining = e.PositionID, out.Filled+e.Shares, e.Remaining
				out.Status = OrderPartial
				if e.Remaining == 0 {
					out.Status = OrderFilled
				}
			}
		case events.OrderCancelled:
			if e.OrderNo == out.OrderNo {
				out.PositionID, out.Status, out.Remaining = e.PositionID, OrderCancelled, 0
			}
		case events.OrderExpired:
			if e.OrderNo == out.OrderNo {
				out.PositionID, out.Status, out.Remaining = e.PositionID, OrderExpired, 0
			}
		}
	}
	return out, nil
}
