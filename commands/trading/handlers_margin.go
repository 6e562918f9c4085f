package trading

import (
	"context"
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/margin"
	"github.com/lotbook/lotbook/events"
)

// Rule-driven closes: day trades still open at the end of the continuous session, and margin
// positions when the maintenance rule says so. The matching engine calls these with
// deterministic command ids; commands decide on the account's own state and the market views
// passed in.

// CloseByRule is a close the rules make: By names the rule (events.OrderByDayTradeClose or
// events.OrderByForcedClose).
type CloseByRule struct {
	MemberID, PositionID, By string
	Market                   Market
}

// CloseByRule closes all of a position at market because a rule says so: by is
// events.OrderByDayTradeClose (only day trades) or events.OrderByForcedClose. A working closing
// order of the member's is cancelled first. Nothing happens to a position that holds nothing.
func (s *Commands) CloseByRule(ctx context.Context, meta commands.Meta, in CloseByRule) (TradeResult, error) {
	memberID, positionID, by, mkt := in.MemberID, in.PositionID, in.By, in.Market
	c, err := s.k.Begin(meta, "position.close-by-rule")
	if err != nil {
		return TradeResult{}, err
	}
	if !commands.ValidMemberID(memberID) {
		return TradeResult{}, commands.NotFound(commands.KeyPositionNotFound)
	}
	if by != events.OrderByDayTradeClose && by != events.OrderByForcedClose {
		return TradeResult{}, commands.Invalid(commands.KeyInvalidRequest)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		pos := tradingPart.Of(a).positions[positionID]
		switch {
		case pos == nil:
			return nil, commands.NotFound(commands.KeyPositionNotFound)
		case pos.shares == 0, by == events.OrderByDayTradeClose && !pos.dayTrade:
			return nil, nil
		case pos.symbol != mkt.Symbol || !mkt.Quote.Last.IsPositive():
			return nil, commands.Rule(commands.KeyPriceNotObtained)
		}
		return decideClose(a, pos, ruleClose(pos), mkt, c.Now, s.k.Calendar(), by,
			c.OrderNumbers(tradeOrderPrefix, memberID))
	})
	if err != nil {
		return TradeResult{}, err
	}
	if len(rec.Payloads) == 0 {
		return TradeResult{PositionID: positionID, Position: rec.Position}, nil
	}
	return tradeAnswer(rec, events.IntentClose)
}

// ruleClose is a rule's order: all the shares, at market.
func ruleClose(pos *tradePosition) orderSpec {
	return orderSpec{typ: events.OrderMarket, shares: pos.shares, oddLot: pos.shares%BoardLot != 0}
}

// MarginResult says what a margin check decided.
type MarginResult struct {
	Ratio    decimal.Decimal
	Owed     bool   // the account has margin positions (Ratio means something)
	Decision string // "" nothing, or margin_call, margin_call_met, forced_close
	Position int64
}

// marginAccount sums the margin positions at the markets' last prices; false when a price is
// missing.
func marginAccount(a *commands.Account, markets map[string]Market) (margin.Account, []*tradePosition, bool) {
	var acc margin.Account
	var held []*tradePosition
	for _, p := range tradingPart.Of(a).positions {
		if !p.margined() {
			continue
		}
		m, ok := markets[p.symbol]
		if !ok || !m.Quote.Last.IsPositive() {
			return acc, nil, false
		}
		value := m.Quote.Last.Mul(decimal.NewFromInt(p.shares))
		if p.short() {
			acc.ShortCollateral = acc.ShortCollateral.Add(p.basis).Add(p.margin)
			acc.ShortValue = acc.ShortValue.Add(value)
		} else {
			acc.LongValue = acc.LongValue.Add(value)
			acc.Loans = acc.Loans.Add(p.loan)
		}
		held = append(held, p)
	}
	sort.Slice(held, func(i, j int) bool { return held[i].id < held[j].id })
	return acc, held, true
}

// MarginCheck applies the maintenance rule to a member's account at the given market views
// (one per symbol held).
type MarginCheck struct {
	MemberID string
	Markets  map[string]Market
}

// MarginCheck applies the maintenance rule to the member's margin positions at the markets'
// prices (one view per symbol held): below 130 % a margin call with two trading days to restore
// it; back at 130 % the call is met; below 120 %, or still below 130 % after the deadline, every
// margin position is closed at market (ForcedCloseStarted and one closing order each).
func (s *Commands) MarginCheck(ctx context.Context, meta commands.Meta, in MarginCheck) (MarginResult, error) {
	memberID, markets := in.MemberID, in.Markets
	c, err := s.k.Begin(meta, "margin.check")
	if err != nil {
		return MarginResult{}, err
	}
	if !commands.ValidMemberID(memberID) {
		return MarginResult{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	var out MarginResult
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		acc, held, ok := marginAccount(a, markets)
		if !ok {
			return nil, commands.Rule(commands.KeyPriceNotObtained)
		}
		ratio, owed := margin.Ratio(acc)
		out.Ratio, out.Owed = ratio, owed
		mr := events.MarginRatio{Ratio: ratio, LongValue: acc.LongValue, Loans: acc.Loans, ShortCollateral: acc.ShortCollateral, ShortValue: acc.ShortValue}
		today, call := tradingDayOf(c.Now), tradingPart.Of(a).call
		switch {
		case !owed || !margin.Call(ratio):
			if call != nil {
				out.Decision = "margin_call_met"
				return []events.Payload{events.MarginCallMet{MarginRatio: mr}}, nil
			}
			return nil, nil
		case margin.ForceNow(ratio), call != nil && today > call.Deadline:
			reason := "ratio_below_forced"
			if !margin.ForceNow(ratio) {
				reason = "deadline_passed"
			}
			out.Decision = "forced_close"
			return decideForcedClose(a, mr, reason, held, markets, c, memberID, s.k.Calendar())
		case call == nil:
			out.Decision = "margin_call"
			return []events.Payload{events.MarginCallIssued{MarginRatio: mr, Deadline: tradingDaysAfter(c.Now, margin.CallDeadlineDays, s.k.Calendar())}}, nil
		}
		return nil, nil
	})
	if err != nil {
		return MarginResult{}, err
	}
	out.Position = rec.Position
	return out, nil
}

func decideForcedClose(a *commands.Account, mr events.MarginRatio, reason string, held []*tradePosition, markets map[string]Market, c commands.Cmd,
	memberID string, cal commands.Calendar) ([]events.Payload, error) {
	started := events.ForcedCloseStarted{MarginRatio: mr, Reason: reason}
	for _, p := range held {
		started.Positions = append(started.Positions, p.id)
	}
	out := []events.Payload{started}
	for _, p := range held {
		// Each position's order numbers derive from its own id: the closes of one decision never
		// take the same number.
		evs, err := decideClose(a, p, ruleClose(p), markets[p.symbol], c.Now, cal, events.OrderByForcedClose,
			func(n int) string {
				return commands.OrderNumber(tradeOrderPrefix, memberID, c.CommandID+"/"+p.id, c.Now, n)
			})
		if err != nil {
			return nil, err
		}
		out = append(out, evs...)
	}
	return out, nil
}

// tradingDayOf is the Asia/Taipei date of t.
func tradingDayOf(t time.Time) string { return t.In(commands.Taipei).Format(time.DateOnly) }

// tradingDaysAfter is the n-th trading day after t's day (YYYY-MM-DD, Asia/Taipei).
func tradingDaysAfter(t time.Time, n int, cal commands.Calendar) string {
	l := t.In(commands.Taipei)
	day := time.Date(l.Year(), l.Month(), l.Day(), 12, 0, 0, 0, commands.Taipei)
	for k := 0; k < n; {
		day = day.AddDate(0, 0, 1)
		if cal == nil || !cal.IsHoliday(day) {
			k++
		}
	}
	return day.Format(time.DateOnly)
}
