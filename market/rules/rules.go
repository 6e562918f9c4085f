// Package rules holds the exchange's price rules for TWSE and TPEx board-lot trading (market-rules.md
// 1b): the tick table, which differs for stocks and ETFs, and the daily price band of ±10 % of the
// reference price with the limit prices rounded onto the tick grid (limit-up down, limit-down up).
package rules

import (
	"errors"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/market/price"
)

// Kind selects the tick table: stocks and ETFs tick differently above NT$10.
type Kind int

const (
	Stock Kind = iota
	ETF
)

func (k Kind) String() string {
	if k == ETF {
		return "etf"
	}
	return "stock"
}

// BandPercent is the daily limit either side of the reference price.
const BandPercent = 10

// Tick is the tick size at price level p: the step between valid prices in the range [lo, hi)
// that contains p.
func Tick(p price.Price, k Kind) price.Price {
	if k == ETF {
		if p < 5000 {
			return 1
		}
		return 5
	}
	switch {
	case p < 1000:
		return 1
	case p < 5000:
		return 5
	case p < 10000:
		return 10
	case p < 50000:
		return 50
	case p < 100000:
		return 100
	default:
		return 500
	}
}

// Valid reports whether p is a positive price on the tick grid.
func Valid(p price.Price, k Kind) bool {
	return p > 0 && p%Tick(p, k) == 0
}

// RoundDown is the highest valid price at or below p (at least one tick). The lower edge of each
// tick range is a multiple of its own tick, so flooring inside the range never leaves it.
func RoundDown(p price.Price, k Kind) price.Price {
	if p < 1 {
		return 1
	}
	t := Tick(p, k)
	return p / t * t
}

// RoundUp is the lowest valid price at or above p. Ceiling inside a range can reach the next
// range's lower edge, which is valid there too.
func RoundUp(p price.Price, k Kind) price.Price {
	if p < 1 {
		return 1
	}
	t := Tick(p, k)
	return (p + t - 1) / t * t
}

// RoundNearest is the valid price closest to p; a tie goes up.
func RoundNearest(p price.Price, k Kind) price.Price {
	d, u := RoundDown(p, k), RoundUp(p, k)
	if p-d < u-p {
		return d
	}
	return u
}

// Up is the next valid price above p.
func Up(p price.Price, k Kind) price.Price { return RoundUp(p+1, k) }

// Down is the next valid price below p, never below one hundredth.
func Down(p price.Price, k Kind) price.Price {
	if p <= 1 {
		return 1
	}
	return RoundDown(p-1, k)
}

// LimitUp is ref + 10 % rounded down onto the tick grid.
func LimitUp(ref price.Price, k Kind) price.Price {
	// Flooring to whole hundredths first does not change the floor to the tick.
	return RoundDown(ref*(100+BandPercent)/100, k)
}

// LimitDown is ref − 10 % rounded up onto the tick grid.
func LimitDown(ref price.Price, k Kind) price.Price {
	x := ref * (100 - BandPercent)
	return RoundUp((x+99)/100, k)
}

// InBand reports whether p lies within the day's limits for reference ref.
func InBand(p, ref price.Price, k Kind) bool {
	return p >= LimitDown(ref, k) && p <= LimitUp(ref, k)
}

// Clamp moves p into the band of ref.
func Clamp(p, ref price.Price, k Kind) price.Price {
	if lo := LimitDown(ref, k); p < lo {
		return lo
	}
	if hi := LimitUp(ref, k); p > hi {
		return hi
	}
	return p
}

// Reasons a limit price is refused.
var (
	ErrPrecision   = errors.New("price has more than two decimals")
	ErrNotPositive = errors.New("price must be positive")
	ErrOffTick     = errors.New("price is not on the tick grid")
	ErrAboveLimit  = errors.New("price is above the limit-up price")
	ErrBelowLimit  = errors.New("price is below the limit-down price")
)

// CheckPrice validates an order's limit price against the tick grid and the day's band of ref;
// the error wraps one of the Err values above.
func CheckPrice(d, ref decimal.Decimal, k Kind) error {
	p, err := price.FromDecimal(d)
	if err != nil {
		return fmt.Errorf("%w: %s", ErrPrecision, d)
	}
	r, err := price.FromDecimal(ref)
	if err != nil {
		return fmt.Errorf("reference %s: %w", ref, err)
	}
	switch {
	case p <= 0:
		return fmt.Errorf("%w: %s", ErrNotPositive, d)
	case !Valid(p, k):
		return fmt.Errorf("%w: %s (tick %s)", ErrOffTick, d, Tick(p, k))
	case p > LimitUp(r, k):
		return fmt.Errorf("%w: %s > %s", ErrAboveLimit, d, LimitUp(r, k))
	case p < LimitDown(r, k):
		return fmt.Errorf("%w: %s < %s", ErrBelowLimit, d, LimitDown(r, k))
	}
	return nil
}

// TickSize is Tick for decimals: the tick at price level d.
func TickSize(d decimal.Decimal, k Kind) decimal.Decimal {
	p := price.Price(d.Shift(2).Floor().IntPart())
	return Tick(p, k).Decimal()
}

// Limits returns the day's limit-down and limit-up prices for reference ref.
func Limits(ref decimal.Decimal, k Kind) (down, up decimal.Decimal, err error) {
	r, err := price.FromDecimal(ref)
	if err != nil {
		return decimal.Zero, decimal.Zero, fmt.Errorf("reference: %w", err)
	}
	return LimitDown(r, k).Decimal(), LimitUp(r, k).Decimal(), nil
}
