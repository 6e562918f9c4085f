// Package ticket holds the exchange's rules on an order ticket in Taiwan terms (market-rules.md 1a,
// 1e, 1f): the trade condition (現股 cash, 融資 margin purchase, 融券 short sale, 現股當沖 day
// trade), the session (整股 regular, 盤中零股 intraday odd lot, 盤後零股 after-hours odd lot,
// 盤後定價 fixed-price after hours) and the time in force (ROD, IOC, FOK). Check refuses the
// combinations the exchange refuses; AuctionPrice is the single price of a call auction.
package ticket

import (
	"errors"
	"time"

	"github.com/shopspring/decimal"
)

// Trade conditions.
const (
	Cash     = "cash"      // 現股
	Margin   = "margin"    // 融資: the broker finances up to 60 % (market-rules 1f)
	Short    = "short"     // 融券: the member puts up at least 90 % of the value
	DayTrade = "day_trade" // 現股當沖: buy first and sell, or sell first and buy back, the same day (market-rules 1e)
)

// Sessions.
const (
	Regular       = "regular"         // 整股: board lots, 08:30–13:30, continuous from 09:00
	OddIntraday   = "odd_intraday"    // 盤中零股: 09:00–13:30, a call auction every 5 s
	OddAfterHours = "odd_after_hours" // 盤後零股: 13:40–14:30, one call auction at 14:30
	FixedPrice    = "fixed_price"     // 盤後定價: 14:00–14:30, board lots at the day's close, matched at 14:30
)

// Time in force.
const (
	ROD = "ROD" // rest of day
	IOC = "IOC" // immediate or cancel: fill what can be filled now, cancel the rest
	FOK = "FOK" // fill or kill: fill all now or cancel all
)

// AuctionEvery is the interval of the intraday odd-lot call auction (since 2024-12-02).
const AuctionEvery = 5 * time.Second

// MarginListedFor is how long a stock must be listed before it may be traded on margin, short or
// as a day trade (market-rules 1f "eligible stock": listed at least 6 months; the exchange's
// day-trade list is drawn from the margin-eligible stocks).
const MarginListedFor = 6

// Refusals of Check, in the order Check tests them.
var (
	ErrUnit          = errors.New("整股 takes board lots (張), the odd-lot sessions shares (股)")
	ErrLimitOnly     = errors.New("odd-lot and after-hours sessions take limit orders only")
	ErrTIF           = errors.New("IOC and FOK are for the regular session only")
	ErrCashOnly      = errors.New("odd lots trade for cash only")
	ErrDayTradeRules = errors.New("day trades are placed in the regular session, in board lots")
	ErrNotEligible   = errors.New("the symbol is not eligible for margin, short sale or day trade")
	ErrDisposed      = errors.New("a stock under disposition (處置股) may not be day traded")
	ErrBelowRef      = errors.New("a short sale may not be placed below the reference price")
)

// Ticket is what Check looks at.
type Ticket struct {
	Condition, Session, TIF string
	Market                  bool            // a market order
	OddLot                  bool            // quantity in shares (1–999), not lots
	Price                   decimal.Decimal // the limit (zero at market)
	Reference               decimal.Decimal // the day's reference price (the previous close)
	Listed                  time.Time       // the symbol's listing date (zero: unknown, long listed)
	Day                     time.Time       // the trading day
	// Disposed: the symbol is a 處置股 on the day (market/status), excluded from 現股當沖 buying
	// or selling first (market-rules 1e).
	Disposed bool
}

// Leverage is the leverage a condition implies, shown to the member as information: cash and day
// trade 1, margin purchase 2.5 (60 % financed), short sale 1.11 (90 % margin).
func Leverage(condition string) decimal.Decimal {
	switch condition {
	case Margin:
		return decimal.RequireFromString("2.5")
	case Short:
		return decimal.RequireFromString("1.11")
	}
	return decimal.NewFromInt(1)
}

// OpensBySelling tells whether an order of the condition may open a position by selling (sell
// true) or by buying: 現股 and 融資 buy, 融券 sells, and 現股當沖 does either (先買後賣 or
// 先賣後買, market-rules 1e). Selling first borrows the shares as a short sale does, so it is open
// to whoever may sell short (融券): the exchange allows it only with a margin account.
func OpensBySelling(condition string, sell bool) bool {
	switch condition {
	case Short:
		return sell
	case DayTrade:
		return true
	}
	return !sell
}

// Eligible tells whether a symbol listed on listed may be traded on margin, short or as a day
// trade on day: listed at least six months before.
func Eligible(listed, day time.Time) bool {
	return listed.IsZero() || !listed.AddDate(0, MarginListedFor, 0).After(day)
}

// Check refuses a ticket the exchange refuses; nil when it is acceptable. Values are those of
// this package (the API's enums hold them).
func Check(t Ticket) error {
	odd := t.Session == OddIntraday || t.Session == OddAfterHours
	switch {
	case odd != t.OddLot:
		return ErrUnit
	case t.Market && t.Session != Regular:
		return ErrLimitOnly
	case t.TIF != ROD && t.Session != Regular:
		return ErrTIF
	case odd && t.Condition != Cash:
		return ErrCashOnly
	case t.Condition == DayTrade && t.Session != Regular:
		return ErrDayTradeRules
	case t.Condition != Cash && !Eligible(t.Listed, t.Day):
		return ErrNotEligible
	case t.Condition == DayTrade && t.Disposed:
		return ErrDisposed
	case t.Condition == Short && !t.Market && t.Reference.IsPositive() && t.Price.LessThan(t.Reference):
		return ErrBelowRef
	}
	return nil
}

// Order is one order in a call auction: a buy or a sell of shares at a limit; Seq is its time
// priority (lower first). The market's displayed levels take part as orders too.
type Order struct {
	Buy    bool
	Limit  decimal.Decimal
	Shares int64
	Seq    int64
}

// AuctionPrice is a call auction's single price: the price at which the most shares trade
// (market-rules 1a: maximum volume; on a tie the price nearest the reference, the higher on an
// exact tie), and that volume. Zero volume when no buy reaches a sell.
func AuctionPrice(orders []Order, reference decimal.Decimal) (decimal.Decimal, int64) {
	var best decimal.Decimal
	var bestVol int64
	for _, c := range orders {
		p := c.Limit
		var demand, supply int64
		for _, o := range orders {
			if o.Buy && o.Limit.GreaterThanOrEqual(p) {
				demand += o.Shares
			}
			if !o.Buy && o.Limit.LessThanOrEqual(p) {
				supply += o.Shares
			}
		}
		vol := min(demand, supply)
		if vol <= 0 {
			continue
		}
		better := vol > bestVol
		if vol == bestVol {
			d, bd := p.Sub(reference).Abs(), best.Sub(reference).Abs()
			better = d.LessThan(bd) || d.Equal(bd) && p.GreaterThan(best)
		}
		if better {
			best, bestVol = p, vol
		}
	}
	return best, bestVol
}

// Allocate shares out the volume of an auction at price among the orders that reach it, by price
// then time priority on each side; the result is each order's filled shares, by index.
func Allocate(orders []Order, price decimal.Decimal, volume int64) []int64 {
	out := make([]int64, len(orders))
	for _, buy := range []bool{true, false} {
		left := volume
		for left > 0 {
			i := -1
			for j, o := range orders {
				if o.Buy != buy || out[j] > 0 || (buy && o.Limit.LessThan(price)) || (!buy && o.Limit.GreaterThan(price)) {
					continue
				}
				if i < 0 || better(o, orders[i]) {
					i = j
				}
			}
			if i < 0 {
				break
			}
			n := min(left, orders[i].Shares)
			out[i] = n
			left -= n
		}
	}
	return out
}

// better is price then time priority: higher buys, lower sells, then the earlier.
func better(a, b Order) bool {
	if c := a.Limit.Cmp(b.Limit); c != 0 {
		return (c > 0) == a.Buy
	}
	return a.Seq < b.Seq
}
