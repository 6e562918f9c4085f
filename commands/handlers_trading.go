package commands

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

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
	Balances                    map[string]Balance
}

// TradingRules returns the rules ClosePosition applies.
func (s *Service) TradingRules() TradingRules { return s.trade }

func (s *Service) tradeFacts(ctx context.Context, memberID string) (tradeFacts, error) {
	return View(ctx, s, events.MemberStream(memberID), func(m *Member, _ *Entry) tradeFacts {
		return tradeFacts{registered: m.registered && m.role == events.RoleMember, disabled: m.flags[events.FlagDisabled],
			frozen: m.flags[events.FlagFrozen], banned: m.flags[events.FlagTradeBanned]}
	})
}

// PlaceOrder opens a position: a buy (long) or a short sale, at a limit or at market, reserving
// its cash. While the market matches, the order crosses the book at once; a limit order's rest
// works until it fills, is cancelled or its trading day ends; a market order's rest is cancelled.
func (s *Service) PlaceOrder(ctx context.Context, meta Meta, memberID string, in OrderInput, mkt Market) (TradeResult, error) {
	c, err := s.Begin(meta, "order.place")
	if err != nil {
		return TradeResult{}, err
	}
	sp, e := validateOrder(in)
	if e != nil {
		return TradeResult{}, e
	}
	if !ValidMemberID(memberID) {
		return TradeResult{}, NotFound(KeyAccountNotExist)
	}
	rec, err := Execute(ctx, s, c, events.AccountStream(memberID), func(a *Account) ([]events.Payload, error) {
		facts, err := s.tradeFacts(ctx, memberID)
		if err != nil {
			return nil, err
		}
		if e := facts.refuse(); e != nil {
			return nil, e
		}
		if e := checkMarket(mkt, sp); e != nil {
			return nil, e
		}
		return a.decidePlace(sp, mkt, c.Now, s.cal, c.OrderNumbers(tradeOrderPrefix, memberID))
	})
	if err != nil {
		return TradeResult{}, err
	}
	return tradeAnswer(rec, events.IntentOpen)
}

func (a *Account) decidePlace(sp orderSpec, mkt Market, now time.Time, cal Calendar, orderNo func(int) string) ([]events.Payload, error) {
	buy := sp.direction == events.DirectionLong
	side := events.SideSell
	if buy {
		side = events.SideBuy
	}
	no := a.FreeOrderNo(orderNo)
	r := a.run(now, nil, nil)
	r.emit(events.OrderPlaced{OrderNo: no, PositionID: no, Intent: events.IntentOpen, Symbol: mkt.Symbol, Name: mkt.Name,
		Kind: mkt.Kind.String(), Side: side, Direction: sp.direction, Type: sp.typ, Shares: sp.shares, OddLot: sp.oddLot,
		Price: bound(buy, sp, mkt.Quote), Leverage: sp.leverage, DayTrade: sp.dayTrade, TradingDay: mkt.TradingDay,
		By: events.OrderByMember, Quote: quoteUsed(mkt.Quote)})
	o := r.t.orders[no]
	res := reservation(o, r.t.positions[no], mkt.Quote)
	if res.GreaterThan(r.cash) {
		return nil, Rule(KeyInsufficientBalance)
	}
	if res.IsPositive() {
		r.emit(events.TradeCashFrozen{OrderNo: no, Amount: res, Postings: events.Transfer(a.Available, a.Frozen, TWD, res)})
	}
	if mkt.Matches(sp.oddLot) {
		if err := r.match(no, mkt.Quote, cal, mkt.TradingDay); err != nil {
			return nil, Unavailable(err)
		}
	}
	return r.out, nil
}

// CancelOrder is a member's cancellation of a working order.
type CancelOrder struct{ MemberID, OrderNo string }

// CancelOrder stops a member's working order and releases what it holds frozen. Orders the
// rules placed (forced and day-trade closes) are not the member's to cancel.
func (s *Service) CancelOrder(ctx context.Context, meta Meta, in CancelOrder) (TradeResult, error) {
	memberID, orderNo := in.MemberID, in.OrderNo
	c, err := s.Begin(meta, "order.cancel")
	if err != nil {
		return TradeResult{}, err
	}
	if !ValidMemberID(memberID) || orderNo == "" || len(orderNo) > 64 {
		return TradeResult{}, NotFound(KeyOrderNotFound)
	}
	rec, err := Execute(ctx, s, c, events.AccountStream(memberID), func(a *Account) ([]events.Payload, error) {
		o := tradingPart.Of(a).orders[orderNo]
		switch {
		case o == nil:
			return nil, NotFound(KeyOrderNotFound)
		case !o.working || o.By != events.OrderByMember:
			return nil, Rule(KeyOrderNotPending)
		}
		r := a.run(c.Now, []string{orderNo}, []string{o.PositionID})
		r.cancel(orderNo, events.CancelByMember)
		return r.out, nil
	})
	if err != nil {
		return TradeResult{}, err
	}
	return tradeAnswer(rec, orderNo)
}

// FillOrder matches one working order against the market's view of its symbol.
type FillOrder struct {
	MemberID, OrderNo string
	Market            Market
}

// FillOrder crosses a working order with the market's quote (the matching engine calls it on
// quote updates with command id "<orderNo>/fill/<next seq>", so a retry never fills twice). It
// writes nothing when the order does not cross, its trading day is over or the market does not
// match now.
func (s *Service) FillOrder(ctx context.Context, meta Meta, in FillOrder) (TradeResult, error) {
	memberID, orderNo, mkt := in.MemberID, in.OrderNo, in.Market
	c, err := s.Begin(meta, "order.fill")
	if err != nil {
		return TradeResult{}, err
	}
	if !ValidMemberID(memberID) {
		return TradeResult{}, NotFound(KeyOrderNotFound)
	}
	rec, err := Execute(ctx, s, c, events.AccountStream(memberID), func(a *Account) ([]events.Payload, error) {
		o := tradingPart.Of(a).orders[orderNo]
		switch {
		case o == nil:
			return nil, NotFound(KeyOrderNotFound)
		case !o.working, o.TradingDay != mkt.TradingDay, o.By == events.OrderByMember && !mkt.Matches(o.OddLot):
			return nil, nil
		}
		r := a.run(c.Now, []string{orderNo}, []string{o.PositionID})
		if err := r.match(orderNo, mkt.Quote, s.cal, mkt.TradingDay); err != nil {
			return nil, Unavailable(err)
		}
		return r.out, nil
	})
	if err != nil {
		return TradeResult{}, err
	}
	return tradeAnswer(rec, orderNo)
}

// ExpireOrder ends one order at the close of its trading day.
type ExpireOrder struct{ MemberID, OrderNo string }

// ExpireOrder ends a day order whose trading day's session is over (the engine decides when) and
// releases what it holds frozen. Nothing happens to an order that no longer works.
func (s *Service) ExpireOrder(ctx context.Context, meta Meta, in ExpireOrder) (TradeResult, error) {
	memberID, orderNo := in.MemberID, in.OrderNo
	c, err := s.Begin(meta, "order.expire")
	if err != nil {
		return TradeResult{}, err
	}
	if !ValidMemberID(memberID) {
		return TradeResult{}, NotFound(KeyOrderNotFound)
	}
	rec, err := Execute(ctx, s, c, events.AccountStream(memberID), func(a *Account) ([]events.Payload, error) {
		o := tradingPart.Of(a).orders[orderNo]
		if o == nil {
			return nil, NotFound(KeyOrderNotFound)
		}
		if !o.working {
			return nil, nil
		}
		r := a.run(c.Now, []string{orderNo}, []string{o.PositionID})
		r.emit(events.OrderExpired{OrderNo: orderNo, PositionID: o.PositionID, Shares: o.remaining(), TradingDay: o.TradingDay})
		for _, p := range release(r.t.orders[orderNo], a.Available, a.Frozen) {
			r.emit(p)
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
func (s *Service) ClosePosition(ctx context.Context, meta Meta, cp ClosePosition) (TradeResult, error) {
	memberID, positionID, in, mkt := cp.MemberID, cp.PositionID, cp.Close, cp.Market
	c, err := s.Begin(meta, "position.close")
	if err != nil {
		return TradeResult{}, err
	}
	if !validOrderType(in.Type) {
		return TradeResult{}, Invalid(KeyInvalidRequest)
	}
	price, e := limitPrice(in.Type, in.Price)
	if e != nil {
		return TradeResult{}, e
	}
	if !ValidMemberID(memberID) || positionID == "" || len(positionID) > 64 {
		return TradeResult{}, NotFound(KeyPositionNotFound)
	}
	rec, err := Execute(ctx, s, c, events.AccountStream(memberID), func(a *Account) ([]events.Payload, error) {
		facts, err := s.tradeFacts(ctx, memberID)
		if err != nil {
			return nil, err
		}
		pos := tradingPart.Of(a).positions[positionID]
		if pos == nil {
			return nil, NotFound(KeyPositionNotFound)
		}
		if e := facts.refuse(); e != nil {
			return nil, e
		}
		if pos.shares == 0 || pos.closing > 0 {
			return nil, Rule(KeyPositionNotHolding)
		}
		sp := orderSpec{typ: in.Type, price: price, shares: pos.shares, oddLot: pos.shares%BoardLot != 0}
		if in.Lots != 0 || in.Shares != 0 {
			q, odd, e := quantity(in.Lots, in.Shares)
			if e != nil {
				return nil, e
			}
			if q > pos.shares || odd != sp.oddLot {
				return nil, Rule(KeyCloseQuantityInvalid)
			}
			sp.shares = q
		}
		if e := s.closeAllowed(pos, c.Now, mkt.TradingDay); e != nil {
			return nil, e
		}
		if pos.symbol != mkt.Symbol {
			return nil, Unavailable(fmt.Errorf("position %s is %s, market view of %s", pos.id, pos.symbol, mkt.Symbol))
		}
		if e := checkMarket(mkt, sp); e != nil {
			return nil, e
		}
		return a.decideClose(pos, sp, mkt, c.Now, s.cal, events.OrderByMember,
			c.OrderNumbers(tradeOrderPrefix, memberID))
	})
	if err != nil {
		return TradeResult{}, err
	}
	return tradeAnswer(rec, events.IntentClose)
}

// closeAllowed applies the broker's lock and holding rules to a member's close.
func (s *Service) closeAllowed(pos *tradePosition, now time.Time, day string) *Error {
	r := s.trade
	if r.LockMinutes > 0 && now.Before(pos.openedAt.Add(time.Duration(r.LockMinutes)*time.Minute)) {
		return Rule(KeyPositionLocked)
	}
	if r.HoldDays > 0 && !pos.dayTrade && tradingDaysBetween(pos.openDay, day, s.cal) < r.HoldDays {
		return Rule(KeySaleNotAllowedYet)
	}
	return nil
}

// tradingDaysBetween counts the trading days after from up to and including to (YYYY-MM-DD).
func tradingDaysBetween(from, to string, cal Calendar) int {
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
func (a *Account) decideClose(pos *tradePosition, sp orderSpec, mkt Market, now time.Time, cal Calendar, by string, orderNo func(int) string) ([]events.Payload, error) {
	r := a.run(now, []string{pos.id, pos.closeOrder}, []string{pos.id})
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
		By: by, Quote: quoteUsed(mkt.Quote)})
	res := reservation(r.t.orders[no], r.t.positions[pos.id], mkt.Quote)
	if res.GreaterThan(r.cash) {
		if by == events.OrderByMember {
			return nil, Rule(KeyInsufficientBalance)
		}
		res = decimal.Max(decimal.Zero, r.cash) // a rule's close goes ahead; a shortfall is the broker's
	}
	if res.IsPositive() {
		r.emit(events.TradeCashFrozen{OrderNo: no, Amount: res, Postings: events.Transfer(a.Available, a.Frozen, TWD, res)})
	}
	if by != events.OrderByMember || mkt.Matches(sp.oddLot) {
		if err := r.match(no, mkt.Quote, cal, mkt.TradingDay); err != nil {
			return nil, Unavailable(err)
		}
	}
	return r.out, nil
}

// tradeAnswer reads a command's record: the order it placed (intent open or close) or the one it
// acted on (an order number), with its status after the command.
func tradeAnswer(rec *Record, which string) (TradeResult, error) {
	out := TradeResult{Position: rec.Position}
	if b, ok := rec.Snapshot.(map[string]Balance); ok {
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
		return TradeResult{}, KeyReused()
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
