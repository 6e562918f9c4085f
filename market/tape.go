package market

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/market/price"
)

// Tick directions of a trade against the one before it (the first against the reference price).
const (
	TickUp   = "up"
	TickDown = "down"
	TickFlat = "flat"
)

// Sides of a trade in 內外盤: outer (外盤) is bought at the ask, inner (內盤) sold at the bid,
// none when it cannot be told (an unchanged price before any move).
const (
	SideOuter = "outer"
	SideInner = "inner"
	SideNone  = "none"
)

// Classify is the tick rule: a trade above the previous price hit the ask (outer), below it the
// bid (inner); at the same price it keeps the side of the previous trade.
func Classify(prev price.Price, prevSide string, px price.Price) (tick, side string) {
	switch {
	case px > prev:
		return TickUp, SideOuter
	case px < prev:
		return TickDown, SideInner
	}
	if prevSide == "" {
		prevSide = SideNone
	}
	return TickFlat, prevSide
}

// TapeTrade is one row of time and sales.
type TapeTrade struct {
	Time   time.Time
	Price  decimal.Decimal
	Shares int64
	Tick   string // TickUp, TickDown, TickFlat
	Side   string // SideOuter, SideInner, SideNone
}

// Tape is a symbol's time and sales for its trading day with the day's 內外盤 totals in shares:
// Outer + Inner + Neutral = Volume, the quote's volume at Time.
type Tape struct {
	Symbol                        string
	Trades                        []TapeTrade // newest first, at most the limit asked
	Outer, Inner, Neutral, Volume int64
	Time                          time.Time // the simulator's clock the tape is as of
}

// MaxTape bounds the rows of one tape answer.
const MaxTape = 200

// Tape is the day's time and sales of a stock or ETF: its newest limit trades (1..MaxTape) and
// the totals over every trade of the day. An index has none (ErrUnknownSymbol).
func (s *Service) Tape(symbol string, limit int) (Tape, error) {
	if limit < 1 || limit > MaxTape {
		return Tape{}, fmt.Errorf("%w: %d (1..%d)", ErrBadLimit, limit, MaxTape)
	}
	sym := normalize(symbol)
	out := Tape{Symbol: sym, Time: s.sim.Now()}
	ref, prints, ok := s.sim.DayTrades(sym)
	if !ok {
		return Tape{}, fmt.Errorf("%w: %q has no trades", ErrUnknownSymbol, symbol)
	}
	prev, side := ref, ""
	rows := make([]TapeTrade, len(prints))
	for i, p := range prints {
		tick, sd := Classify(prev, side, p.Price)
		prev, side = p.Price, sd
		switch sd {
		case SideOuter:
			out.Outer += p.Shares
		case SideInner:
			out.Inner += p.Shares
		default:
			out.Neutral += p.Shares
		}
		out.Volume += p.Shares
		rows[i] = TapeTrade{Time: p.Time, Price: p.Price.Decimal(), Shares: p.Shares, Tick: tick, Side: sd}
	}
	// Newest first.
	out.Trades = make([]TapeTrade, 0, min(limit, len(rows)))
	for i := len(rows) - 1; i >= 0 && len(out.Trades) < limit; i-- {
		out.Trades = append(out.Trades, rows[i])
	}
	return out, nil
}
