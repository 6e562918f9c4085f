// Package mentor holds the published rules of copy trading: the bounds of a mentor's profile,
// the statistics computed from a mentor's own fills, the level thresholds, and how a mentor's
// fill is scaled into a follower's order. Pure functions, table-tested.
package mentor

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/fees"
	"github.com/lotbook/lotbook/commands/rules/margin"
)

// Profile bounds.
var (
	// MaxProfitShare is the published cap of a mentor's disclosed profit share, in percent.
	MaxProfitShare = decimal.NewFromInt(20)
	// MinFollowFloor is the least minimum follow amount a mentor may set (NT$).
	MinFollowFloor = decimal.NewFromInt(1000)
	// MaxAmount bounds an amount typed in (NT$).
	MaxAmount = decimal.NewFromInt(100_000_000)
)

// Window bounds of a follow, in days.
const (
	MinWindowDays = 1
	MaxWindowDays = 365
	MaxNameRunes  = 24
)

// Levels.
const (
	Junior       = "junior"
	Intermediate = "intermediate"
	Senior       = "senior"
)

// Threshold is what a level asks of a mentor's statistics; a mentor has the highest level whose
// every threshold it meets.
type Threshold struct {
	Level      string
	RoundTrips int             // closed round trips at least
	WinRate    decimal.Decimal // fraction 0..1 at least
	Equity     decimal.Decimal // fund scale NT$ at least
}

// Thresholds are the published level rules, highest first (the rules page shows them).
var Thresholds = []Threshold{
	{Level: Senior, RoundTrips: 20, WinRate: decimal.RequireFromString("0.6"), Equity: decimal.NewFromInt(1_000_000)},
	{Level: Intermediate, RoundTrips: 5, WinRate: decimal.RequireFromString("0.5"), Equity: decimal.NewFromInt(200_000)},
	{Level: Junior},
}

// Fill is one of a mentor's fills as the statistics read it.
type Fill struct {
	PositionID string
	Open       bool            // an opening fill, a buy or a short sale (else a closing one)
	Cash       decimal.Decimal // the mentor's cash: negative paid (a short sale's margin), positive received
	Profit     decimal.Decimal // a closing fill's realised profit
	Shares     int64
	At         time.Time
}

// Stats are a mentor's published figures.
type Stats struct {
	Equity      decimal.Decimal // fund scale: cash and the mentor's money held in the positions still open
	Profit      decimal.Decimal // realised profit of closing fills
	RoundTrips  int             // positions opened and closed again
	Wins        int             // round trips that closed with a profit
	WinRate     decimal.Decimal // Wins / RoundTrips, 0 without round trips
	AvgHold     time.Duration   // mean time from a round trip's first fill to its last
	DailyReturn decimal.Decimal // realised profit of the last 24 hours over the equity before it
	CopyAmount  decimal.Decimal // followers' commitments, summed
	Level       string
}

// Compute is the statistics of fills (any order), cash the mentor's cash now (available and
// frozen), copyAmount the followers' commitments, at now. A position holds the cash its opening
// fills took: a long's cost (less any financing), a short's margin (its sale's proceeds are the
// broker's collateral, not the mentor's money), so a short's round trip counts like a long's.
func Compute(fills []Fill, cash, copyAmount decimal.Decimal, now time.Time) Stats {
	fs := append([]Fill(nil), fills...)
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].At.Before(fs[j].At) })
	type pos struct {
		opened         time.Time
		shares         int64
		held, profit   decimal.Decimal
		hadOpen, close bool
	}
	ps := map[string]*pos{}
	s := Stats{Profit: decimal.Zero, CopyAmount: copyAmount}
	var hold time.Duration
	dayAgo := now.Add(-24 * time.Hour)
	recent := decimal.Zero
	for _, f := range fs {
		p := ps[f.PositionID]
		if p == nil {
			p = &pos{opened: f.At}
			ps[f.PositionID] = p
		}
		if f.Open {
			p.shares += f.Shares
			p.held = p.held.Sub(f.Cash)
			p.hadOpen = true
			continue
		}
		p.held = p.held.Sub(HeldShare(p.held, f.Shares, p.shares))
		p.shares -= f.Shares
		p.profit = p.profit.Add(f.Profit)
		s.Profit = s.Profit.Add(f.Profit)
		if !f.At.Before(dayAgo) {
			recent = recent.Add(f.Profit)
		}
		if p.shares <= 0 && p.hadOpen && !p.close {
			p.close = true
			s.RoundTrips++
			if p.profit.IsPositive() {
				s.Wins++
			}
			hold += f.At.Sub(p.opened)
		}
	}
	open := decimal.Zero
	for _, p := range ps {
		if p.shares > 0 {
			open = open.Add(p.held)
		}
	}
	s.Equity = cash.Add(open)
	if s.RoundTrips > 0 {
		s.WinRate = decimal.NewFromInt(int64(s.Wins)).Div(decimal.NewFromInt(int64(s.RoundTrips))).Round(4)
		s.AvgHold = hold / time.Duration(s.RoundTrips)
	}
	if before := s.Equity.Sub(recent); before.IsPositive() {
		s.DailyReturn = recent.Div(before).Round(4)
	}
	s.Level = LevelOf(s)
	return s
}

// HeldShare is the part of a position's held cash that closing sold of its shares releases,
// rounded to whole NT$ (all of it once the position is closed).
func HeldShare(held decimal.Decimal, sold, shares int64) decimal.Decimal {
	if shares <= 0 || sold >= shares {
		return held
	}
	return held.Mul(decimal.NewFromInt(sold)).Div(decimal.NewFromInt(shares)).Round(0)
}

// LevelOf is the highest level whose thresholds s meets.
func LevelOf(s Stats) string {
	for _, t := range Thresholds {
		if s.RoundTrips >= t.RoundTrips && !s.WinRate.LessThan(t.WinRate) && !s.Equity.LessThan(t.Equity) {
			return t.Level
		}
	}
	return Junior
}

// Order is a scaled mirror order: Shares at Price, costing Cost (value and commission).
type Order struct {
	Shares int64
	OddLot bool
	Cost   decimal.Decimal
}

// Cost is what an opening cash buy of shares at price reserves: value and commission.
func Cost(shares int64, price decimal.Decimal, oddLot bool) decimal.Decimal {
	v := price.Mul(decimal.NewFromInt(shares))
	return v.Add(fees.Commission(v, oddLot))
}

// Scale turns a mentor's opening fill of value into a follower's buy at price: the follow's
// commitment in the same proportion to the mentor's equity as the fill, in whole lots, or in odd
// lots when that is less than a lot and oddLots allows, never costing more than remaining. Zero
// shares when nothing fits.
func Scale(commitment, remaining, mentorEquity, value, price decimal.Decimal, oddLots bool) Order {
	if !mentorEquity.IsPositive() || !price.IsPositive() || !value.IsPositive() || !remaining.IsPositive() {
		return Order{}
	}
	target := commitment.Mul(value).Div(mentorEquity)
	target = decimal.Min(target, remaining)
	shares := target.Div(price).IntPart()
	lots := shares / fees.BoardLot
	for lots > 0 && Cost(lots*fees.BoardLot, price, false).GreaterThan(remaining) {
		lots--
	}
	if lots > 0 {
		n := lots * fees.BoardLot
		return Order{Shares: n, Cost: Cost(n, price, false)}
	}
	if !oddLots {
		return Order{}
	}
	n := min(shares, fees.BoardLot-1)
	for n > 0 && Cost(n, price, true).GreaterThan(remaining) {
		n--
	}
	if n <= 0 {
		return Order{}
	}
	return Order{Shares: n, OddLot: true, Cost: Cost(n, price, true)}
}

// ScaleShort turns a mentor's opening short sale of value into a follower's short sale at price,
// in whole lots only (odd lots trade long and for cash only): the same exposure in proportion to
// the follow's commitment as the sale has to the mentor's equity, its margin at leverage on the
// value at reservePrice (trading reserves a short's margin at the day's limit-up, the most the
// shares can sell for) never more than remaining. Cost is that margin; zero shares when no lot fits.
func ScaleShort(commitment, remaining, mentorEquity, value, price, reservePrice, leverage decimal.Decimal) Order {
	if !mentorEquity.IsPositive() || !price.IsPositive() || !value.IsPositive() || !remaining.IsPositive() {
		return Order{}
	}
	reservePrice = decimal.Max(reservePrice, price)
	cost := func(lots int64) decimal.Decimal {
		return margin.ShortMargin(reservePrice.Mul(decimal.NewFromInt(lots*fees.BoardLot)), leverage)
	}
	lots := commitment.Mul(value).Div(mentorEquity).Div(price).IntPart() / fees.BoardLot
	for lots > 0 && cost(lots).GreaterThan(remaining) {
		lots--
	}
	if lots <= 0 {
		return Order{}
	}
	return Order{Shares: lots * fees.BoardLot, Cost: cost(lots)}
}

// CloseShares is how many of held shares a follower sells when the mentor sells sold of the
// mentor's had: all when the mentor sold all, else the same fraction in whole lots (or odd lots
// below a lot when oddLots allows, or when the follower's holding is itself odd).
func CloseShares(held, had, sold int64, oddLots bool) int64 {
	switch {
	case held <= 0 || had <= 0 || sold <= 0:
		return 0
	case sold >= had:
		return held
	}
	n := held * sold / had
	if held%fees.BoardLot != 0 {
		// an odd holding closes in odd shares only (trading's rule): all of it when the share is
		// more than a lot's worth
		if held >= fees.BoardLot || !oddLots {
			return 0
		}
		return n
	}
	if lots := n / fees.BoardLot; lots > 0 {
		return lots * fees.BoardLot
	}
	return 0
}

// ProfitShare is the mentor's share of a positive copy profit at percent, rounded down to whole NT$.
func ProfitShare(profit, percent decimal.Decimal) decimal.Decimal {
	if !profit.IsPositive() || !percent.IsPositive() {
		return decimal.Zero
	}
	return profit.Mul(percent).Div(decimal.NewFromInt(100)).Floor()
}
