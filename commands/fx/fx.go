// Package fx is where exchange rates come from: a Rates interface that a bank's live feed can
// implement, and the default Simulated feed (rates around realistic mid rates, drifting a little,
// deterministically, so that tests and demos repeat). It also holds which currencies the app
// exchanges and which pairs it allows.
package fx

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"time"

	"github.com/shopspring/decimal"
)

// Currencies are the balances a member may hold and exchange, in the order the app lists them.
var Currencies = []string{"CNY", "TWD", "HKD", "USD", "THB", "JPY", "VND", "MYR", "KRW", "INR"}

// Supported reports whether cur is one of Currencies.
func Supported(cur string) bool {
	for _, c := range Currencies {
		if c == cur {
			return true
		}
	}
	return false
}

// PairAllowed reports whether from can be exchanged into to: both supported and different, and
// INR only to and from USD (as the spec says).
func PairAllowed(from, to string) bool {
	if !Supported(from) || !Supported(to) || from == to {
		return false
	}
	if from == "INR" || to == "INR" {
		return from == "USD" || to == "USD"
	}
	return true
}

// ErrNoRate is returned by a feed that has no rate for a pair at the moment.
var ErrNoRate = errors.New("fx: no rate")

// Rates is a rate feed: units of to per unit of from at a moment. A live adapter asks the bank;
// a returned rate must be positive.
type Rates interface {
	Rate(from, to string, at time.Time) (decimal.Decimal, error)
}

// RateScale is the number of decimals of a rate (VND to USD is about 0.00004).
const RateScale = 10

// midPerUSD are mid-market rates per US dollar of late 2025, the level the simulation moves
// around.
var midPerUSD = map[string]float64{
	"USD": 1, "TWD": 32.0, "CNY": 7.12, "HKD": 7.78, "THB": 35.5, "JPY": 150.0,
	"VND": 25400, "MYR": 4.45, "KRW": 1385, "INR": 84.5,
}

// Simulated is the default feed: each currency's rate per USD drifts within ±0.2 % of its mid on
// a slow sine of its own period and phase, so that the rate changes from minute to minute but a
// given moment always has the same rate. It is a bank rate without spread: the app charges no fee.
type Simulated struct{}

// Rate is the cross rate through USD, rounded to RateScale decimals.
func (Simulated) Rate(from, to string, at time.Time) (decimal.Decimal, error) {
	if !Supported(from) || !Supported(to) {
		return decimal.Decimal{}, fmt.Errorf("%w: %s/%s", ErrNoRate, from, to)
	}
	if from == to {
		return decimal.NewFromInt(1), nil
	}
	return perUSD(to, at).DivRound(perUSD(from, at), RateScale), nil
}

// perUSD is the simulated units of cur per USD at a moment, to 6 significant decimals of drift.
func perUSD(cur string, at time.Time) decimal.Decimal {
	if cur == "USD" {
		return decimal.NewFromInt(1)
	}
	h := fnv.New32a()
	h.Write([]byte(cur))
	seed := h.Sum32()
	period := float64(90 + seed%60)                    // minutes
	phase := float64(seed%360) * math.Pi / 180         // radians
	minutes := float64(at.Unix()/60) + float64(seed%7) // whole minutes: a rate holds for a minute
	drift := 0.002 * math.Sin(2*math.Pi*minutes/period+phase)
	factor := decimal.NewFromFloat(1 + drift).Round(6)
	return decimal.NewFromFloat(midPerUSD[cur]).Mul(factor)
}

// Value is the worth in to of amounts held in several currencies, each converted at the feed's
// rate at a moment (the rate an exchange would be quoted then, so exchanging at a quote keeps the
// worth within rounding). It is not rounded: the caller shows it in to's minor unit.
func Value(r Rates, amounts map[string]decimal.Decimal, to string, at time.Time) (decimal.Decimal, error) {
	sum := decimal.Zero
	for cur, amount := range amounts {
		if amount.IsZero() {
			continue // a currency without a rate at the moment costs nothing when none is held
		}
		rate := decimal.NewFromInt(1)
		if cur != to {
			var err error
			if rate, err = r.Rate(cur, to, at); err != nil {
				return decimal.Decimal{}, fmt.Errorf("fx: value of %s in %s: %w", cur, to, err)
			}
		}
		sum = sum.Add(amount.Mul(rate))
	}
	return sum, nil
}
