// Package dividend is what a holder of shares receives from a distribution: the cash dividend
// rounded down to whole NT$, the stock dividend in whole shares with the fraction paid in cash at
// par, the second-generation NHI supplementary premium and the remittance fee. Pure functions;
// the rules are published on the dividend screens.
package dividend

import (
	"github.com/shopspring/decimal"
)

var (
	// Par is the par value of a Taiwan share (NT$10): a fraction of a share is paid at par.
	Par = decimal.NewFromInt(10)
	// NHIRate is the supplementary premium withheld on a single cash dividend of NHIThreshold or
	// more (二代健保補充保費, 2.11 %).
	NHIRate      = decimal.RequireFromString("0.0211")
	NHIThreshold = decimal.NewFromInt(20000)
	// RemittanceFee is deducted from every cash dividend larger than it (匯費).
	RemittanceFee = decimal.NewFromInt(10)
)

// Payout is what one holding receives from one distribution.
type Payout struct {
	Gross        decimal.Decimal // cash dividend: shares × cash per share, rounded down to NT$
	NewShares    int64           // whole new shares: shares × stock ÷ par, rounded down
	FractionCash decimal.Decimal // the fraction of a share left over, paid at par, rounded down to NT$
	NHI          decimal.Decimal // premium withheld on Gross + FractionCash when that reaches the threshold
	Fee          decimal.Decimal // remittance fee
	Net          decimal.Decimal // Gross + FractionCash − NHI − Fee: credited to available cash
}

// Cash is the cash a holder is owed before deductions.
func (p Payout) Cash() decimal.Decimal { return p.Gross.Add(p.FractionCash) }

// Of computes the payout of shares held at the close before the ex-date, for a cash dividend
// of cash NT$ per share and a stock dividend of stock NT$ of par per share.
func Of(shares int64, cash, stock decimal.Decimal) Payout {
	var p Payout
	if shares <= 0 {
		return Payout{Gross: decimal.Zero, FractionCash: decimal.Zero, NHI: decimal.Zero, Fee: decimal.Zero, Net: decimal.Zero}
	}
	n := decimal.NewFromInt(shares)
	p.Gross = n.Mul(cash).Floor()
	exact := n.Mul(stock).Div(Par) // new shares, possibly with a fraction
	whole := exact.Floor()
	p.NewShares = whole.IntPart()
	p.FractionCash = exact.Sub(whole).Mul(Par).Floor()
	total := p.Cash()
	p.NHI = decimal.Zero
	if total.GreaterThanOrEqual(NHIThreshold) {
		p.NHI = total.Mul(NHIRate).Round(0)
	}
	p.Fee = decimal.Zero
	if total.Sub(p.NHI).GreaterThan(RemittanceFee) {
		p.Fee = RemittanceFee
	}
	p.Net = total.Sub(p.NHI).Sub(p.Fee)
	return p
}
