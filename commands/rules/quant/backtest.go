package quant

import (
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/fees"
)

// Bar is one trading day of a symbol: its date (YYYY-MM-DD, Asia/Taipei), open and close.
type Bar struct {
	Day         string
	Open, Close decimal.Decimal
}

// Point is the backtest's equity at a day's close.
type Point struct {
	Day    string
	Equity decimal.Decimal
}

// Result is a product's rule replayed on the market's history.
type Result struct {
	From, To    string
	Start, End  decimal.Decimal // equity
	Return      decimal.Decimal // End / Start − 1, four decimals
	MaxDrawdown decimal.Decimal // the largest fall from a peak of equity, as a fraction, four decimals
	Trades      int             // round trips closed (a position still held at the end is not counted)
	Wins        int             // closed round trips that brought back more than they cost
	WinRate     decimal.Decimal // Wins / Trades, four decimals (zero with no trades)
	Curve       []Point
}

// sym is one symbol's replay state.
type sym struct {
	cash      decimal.Decimal
	shares    int64
	cost      decimal.Decimal
	entryIdx  int
	entryClos decimal.Decimal
}

// Backtest replays p's rule over bars (per symbol, oldest first, the same days for every symbol)
// from amount: each symbol starts with its Budget; on day i the rule decides on the closes of
// days before i and the holding; an entry buys Size(cash, open of day i) at that open with the
// commission; an exit sells everything at the open with the commission and the transaction tax
// of kind. The curve is the equity at each day's close.
func Backtest(p Product, bars map[string][]Bar, kind fees.Kind, amount decimal.Decimal) Result {
	n := -1
	for _, s := range p.Symbols {
		if n < 0 || len(bars[s]) < n {
			n = len(bars[s])
		}
	}
	budget := p.Budget(amount)
	states := make([]sym, len(p.Symbols))
	for i := range states {
		states[i].cash = budget
	}
	start := budget.Mul(decimal.NewFromInt(int64(len(p.Symbols))))
	res := Result{Start: start, End: start}
	peak := start
	for day := 0; day < n; day++ {
		equity := decimal.Zero
		for k, s := range p.Symbols {
			bs := bars[s][len(bars[s])-n:]
			st := &states[k]
			closes := make([]decimal.Decimal, day)
			for j := 0; j < day; j++ {
				closes[j] = bs[j].Close
			}
			h := Holding{In: st.shares > 0}
			if h.In {
				h.EntryClose, h.DaysHeld = st.entryClos, day-st.entryIdx
			}
			switch p.Rule(closes, h) {
			case Enter:
				if o := Size(st.cash, bs[day].Open, true); o.TotalShares() > 0 && day > 0 {
					st.cash = st.cash.Sub(o.Cost)
					st.shares, st.cost, st.entryIdx, st.entryClos = o.TotalShares(), o.Cost, day, closes[day-1]
				}
			case Exit:
				if st.shares > 0 {
					v := bs[day].Open.Mul(decimal.NewFromInt(st.shares))
					proceeds := v.Sub(fees.Commission(v, st.shares%fees.BoardLot != 0)).Sub(fees.Tax(v, kind, false))
					st.cash = st.cash.Add(proceeds)
					res.Trades++
					if proceeds.GreaterThan(st.cost) {
						res.Wins++
					}
					st.shares, st.cost = 0, decimal.Zero
				}
			}
			equity = equity.Add(st.cash).Add(bs[day].Close.Mul(decimal.NewFromInt(st.shares)))
			if k == 0 {
				res.Curve = append(res.Curve, Point{Day: bs[day].Day})
			}
		}
		res.Curve[len(res.Curve)-1].Equity = equity.Round(2)
		if equity.GreaterThan(peak) {
			peak = equity
		}
		if peak.IsPositive() {
			if dd := peak.Sub(equity).Div(peak); dd.GreaterThan(res.MaxDrawdown) {
				res.MaxDrawdown = dd
			}
		}
		res.End = equity.Round(2)
	}
	if len(res.Curve) > 0 {
		res.From, res.To = res.Curve[0].Day, res.Curve[len(res.Curve)-1].Day
	}
	if start.IsPositive() {
		res.Return = res.End.Div(start).Sub(decimal.NewFromInt(1)).Round(4)
	}
	res.MaxDrawdown = res.MaxDrawdown.Round(4)
	if res.Trades > 0 {
		res.WinRate = decimal.NewFromInt(int64(res.Wins)).Div(decimal.NewFromInt(int64(res.Trades))).Round(4)
	}
	return res
}
