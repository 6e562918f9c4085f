// Package index computes capitalisation-weighted market indices, TAIEX-like for listed stocks and
// TPEx-like for OTC stocks, from simulated prices.
//
// value = Σ price × shares ÷ divisor. The divisor is fixed so that on the base day (the simulator's
// day 0, whose references are the instruments' reference prices) the index equals its base value:
// 23,000.00 for the listed index and 250.00 for the OTC one, near where TAIEX and the TPEx index
// have traded recently. Shares are the instruments' estimates and constant, so no divisor
// adjustment for capital changes is needed. Sums are exact integers (hundredths of NT$ × lots);
// one division per value keeps every computation of the same prices bit-identical.
package index

import (
	"math"

	"github.com/lotbook/lotbook/market/instruments"
	"github.com/lotbook/lotbook/market/price"
)

// Definition names an index and its base value.
type Definition struct {
	Symbol string
	Name   string // Chinese
	NameEN string
	Market instruments.Market
	Base   float64
}

// The two indices lotbook shows.
var (
	Listed = Definition{Symbol: "TAIEX", Name: "加權指數", NameEN: "TAIEX (simulated)", Market: instruments.Listed, Base: 23000}
	OTC    = Definition{Symbol: "TPEX", Name: "櫃買指數", NameEN: "TPEx Index (simulated)", Market: instruments.OTC, Base: 250}
)

// All are the indices, listed first.
var All = []Definition{Listed, OTC}

// Member reports whether an instrument is a constituent: the market's common stocks, without the
// Innovation Board (as TAIEX leaves it out) and without ETFs.
func (d Definition) Member(in *instruments.Instrument) bool {
	return in.Market == d.Market && in.Type == instruments.StockType && !in.Innovation
}

// Index is a definition with its constituents' weights.
type Index struct {
	Def     Definition
	lots    []int64 // per constituent, shares / 1,000
	divisor float64 // cap units (hundredths × lots) per hundredth of index value
}

// New builds an index over constituents with their base-day prices.
func New(def Definition, lots []int64, base []price.Price) *Index {
	var sum int64
	for i := range lots {
		sum += int64(base[i]) * lots[i]
	}
	return &Index{Def: def, lots: lots, divisor: float64(sum) / (def.Base * 100)}
}

// Len is the number of constituents.
func (x *Index) Len() int { return len(x.lots) }

// Cap is the weighted sum of prices (one per constituent, in order).
func (x *Index) Cap(prices []price.Price) int64 {
	var sum int64
	for i, p := range prices {
		sum += int64(p) * x.lots[i]
	}
	return sum
}

// Delta is how much the cap moves when constituent i goes from old to new.
func (x *Index) Delta(i int, old, new price.Price) int64 { return int64(new-old) * x.lots[i] }

// Value converts a cap sum to the index level in hundredths.
func (x *Index) Value(capSum int64) price.Price {
	if x.divisor == 0 {
		return 0
	}
	return price.Price(math.Round(float64(capSum) / x.divisor))
}
