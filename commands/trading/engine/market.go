package engine

import (
	"errors"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/fees"
	"github.com/lotbook/lotbook/commands/rules/matching"
	"github.com/lotbook/lotbook/commands/trading"
	"github.com/lotbook/lotbook/market"
	"github.com/lotbook/lotbook/market/calendar"
	"github.com/lotbook/lotbook/market/rules"
	"github.com/lotbook/lotbook/market/status"
)

// Market is what trading reads from the market; *market.Service is the one implementation that
// serves (prices come only from it). Scenario tests wrap it to script one symbol's book.
type Market interface {
	Quote(symbol string) (market.Quote, error)
	Instrument(symbol string) (market.Instrument, error)
	CheckPrice(symbol string, p decimal.Decimal) error
	Session() market.SessionInfo
}

var taipei = calendar.Taiwan().Location()

// TradingDay is the Asia/Taipei date of t: within every session (exchange or demo hours) the
// trading day is the calendar day.
func TradingDay(t time.Time) string { return t.In(taipei).Format(time.DateOnly) }

// kindOf is the tax kind of an instrument: bond ETFs (codes ending in B) pay no transaction tax.
func kindOf(in market.Instrument) fees.Kind {
	switch {
	case in.Type == "etf" && strings.HasSuffix(in.Symbol, "B"):
		return fees.BondETF
	case in.Type == "etf":
		return fees.ETF
	}
	return fees.Stock
}

// priceKey names why the market refuses a limit price.
func priceKey(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, rules.ErrAboveLimit), errors.Is(err, rules.ErrBelowLimit):
		return commands.KeyPriceOutOfBand
	case errors.Is(err, rules.ErrOffTick):
		return commands.KeyPriceNotOnTick
	}
	return commands.KeyPriceInvalid
}

func levelsIn(ls []market.Level) []matching.Level {
	out := make([]matching.Level, len(ls))
	for i, l := range ls {
		out[i] = matching.Level{Price: l.Price, Size: l.Size}
	}
	return out
}

// View is what commands decide an order on: the symbol's quote with best five, its tax kind, the
// session and the trading day at now. An unknown symbol (or an index) gives a view without
// symbol, which commands refuse with symbol_not_found.
func View(m Market, symbol string, now time.Time) trading.Market {
	in, err := m.Instrument(symbol)
	if err != nil {
		return trading.Market{}
	}
	q, err := m.Quote(in.Symbol)
	if err != nil {
		return trading.Market{}
	}
	return viewOf(m, in, q, now)
}

// ListingQuote is what the market says of symbol at now as ops list something of it (a block trade,
// a chip grab offering): its reference price and band. An unknown symbol (or an index) gives an
// empty quote, which commands refuse with symbol_not_found.
func ListingQuote(m Market, symbol string, now time.Time) commands.ListingQuote {
	view := View(m, symbol, now)
	if view.Symbol == "" {
		return commands.ListingQuote{}
	}
	q, err := m.Quote(view.Symbol)
	if err != nil {
		return commands.ListingQuote{}
	}
	return commands.ListingQuote{Symbol: view.Symbol, Name: view.Name, Kind: view.Kind, Reference: q.PrevClose, LimitUp: q.LimitUp,
		LimitDown: q.LimitDown}
}

func viewOf(m Market, in market.Instrument, q market.Quote, now time.Time) trading.Market {
	v := sessionOf(m.Session())
	v.Symbol, v.Name, v.Kind = in.Symbol, in.Name, kindOf(in)
	v.Quote = trading.MarketQuote{Last: q.Price, LimitUp: q.LimitUp, LimitDown: q.LimitDown, Ref: q.PrevClose,
		Bids: levelsIn(q.Bids), Asks: levelsIn(q.Asks), Time: q.Time}
	v.TradingDay, v.Listed, v.Disposed = TradingDay(now), in.Listed, q.Status == status.Disposition
	v.CheckPrice = func(p decimal.Decimal) string { return priceKey(m.CheckPrice(in.Symbol, p)) }
	return v
}

// sessionOf is what the market's session tells commands: which sessions take orders and match.
func sessionOf(ss market.SessionInfo) trading.Market {
	return trading.Market{Phase: ss.Phase, OddLot: ss.OddLot, FixedPrice: ss.FixedPrice, OddAfterHours: ss.OddAfterHours,
		AfterHoursEvery: ss.AfterHoursEvery}
}
