// Package quant holds the AI quant products and their published rules as pure functions over
// daily bars of the market: a rule looks at the closes up to the day before it acts (the bars it
// is given) and at the holding it has, and says to enter, exit or do nothing. The live process
// (commands/quant/runner) and the backtest (Backtest) call the same Decide, so the past results a
// product page shows are the rule replayed on the market's history, never typed in.
//
// Sizing (Size) turns a budget into an order the budget can pay for: board lots when the budget
// buys at least one, else odd-lot shares, at the price the order reserves with the commission
// (commands/rules/fees). There is no management or performance fee: the only costs are the
// broker commission and the transaction tax of every ordinary order.
package quant

import (
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/fees"
)

// Action is what a rule says for one symbol on one day.
type Action int

// Actions.
const (
	Hold  Action = iota // do nothing
	Enter               // buy with the symbol's share of the budget
	Exit                // sell everything the product holds of the symbol
)

func (a Action) String() string {
	switch a {
	case Enter:
		return "enter"
	case Exit:
		return "exit"
	}
	return "hold"
}

// Holding is what the product holds of a symbol when a rule decides: nothing (In false), or a
// position entered when the last close before the entry was EntryClose, DaysHeld trading days ago
// (1 on the day after the entry).
type Holding struct {
	In         bool
	EntryClose decimal.Decimal
	DaysHeld   int
}

// Rule decides for one symbol on a trading day from the closes of the days before it (oldest
// first) and the holding.
type Rule func(closes []decimal.Decimal, h Holding) Action

// Product is a strategy a member subscribes to.
type Product struct {
	ID             string
	NameTW, NameEN string
	DescTW, DescEN string
	RuleTW, RuleEN string // the exact rule, published
	Symbols        []string
	MinAmount      decimal.Decimal // NT$
	Rule           Rule
	Kind           string // "momentum" or "mean_reversion"
	Lookback       int    // closes the rule needs before it can enter
}

// Momentum is the moving-average crossover: holding nothing, enter when the short average of
// the closes is above the long one; holding, exit when it is at or below it.
func Momentum(short, long int) Rule {
	return func(closes []decimal.Decimal, h Holding) Action {
		if len(closes) < long {
			return Hold
		}
		above := SMA(closes, short).GreaterThan(SMA(closes, long))
		switch {
		case !h.In && above:
			return Enter
		case h.In && !above:
			return Exit
		}
		return Hold
	}
}

// MeanReversion buys after a drop: holding nothing, enter when the last close is more than
// dropPct % below the close days closes earlier; holding, exit when the last close has recovered
// to gainPct % above the close before the entry, or after maxDays trading days.
func MeanReversion(days int, dropPct, gainPct decimal.Decimal, maxDays int) Rule {
	hundred := decimal.NewFromInt(100)
	return func(closes []decimal.Decimal, h Holding) Action {
		n := len(closes)
		if h.In {
			target := h.EntryClose.Mul(hundred.Add(gainPct)).Div(hundred)
			if n > 0 && closes[n-1].GreaterThanOrEqual(target) || h.DaysHeld >= maxDays {
				return Exit
			}
			return Hold
		}
		if n <= days {
			return Hold
		}
		base := closes[n-1-days]
		if !base.IsPositive() {
			return Hold
		}
		floor := base.Mul(hundred.Sub(dropPct)).Div(hundred)
		if closes[n-1].LessThan(floor) {
			return Enter
		}
		return Hold
	}
}

// SMA is the simple average of the last n closes (zero when there are fewer).
func SMA(closes []decimal.Decimal, n int) decimal.Decimal {
	if n <= 0 || len(closes) < n {
		return decimal.Zero
	}
	sum := decimal.Zero
	for _, c := range closes[len(closes)-n:] {
		sum = sum.Add(c)
	}
	return sum.Div(decimal.NewFromInt(int64(n)))
}

// Products are the published products, in the order the list shows them.
var Products = []Product{
	{
		ID: "momentum-0050", Kind: "momentum", Lookback: 20,
		NameTW: "0050 均線動能", NameEN: "0050 moving-average momentum",
		DescTW:  "追隨台灣50的趨勢：短期均線站上長期均線時持有，跌破時出場。",
		DescEN:  "Follows the trend of Yuanta Taiwan 50: holds while the short average is above the long one, sells when it falls back.",
		RuleTW:  "每個交易日 09:30（台北）以前一交易日為止的日收盤價計算：未持有且 5 日均價高於 20 日均價時，以保護價（最新成交價上方 3.5%，取到升降單位）限價買進整張（不足一張時買零股）；持有且 5 日均價不高於 20 日均價時，以市價賣出全部。",
		RuleEN:  "Every trading day at 09:30 Taipei, on the daily closes up to the previous trading day: holding nothing and the 5-day average close above the 20-day average, buy with a limit order at the protective price (3.5 % above the last trade, down to the tick) in board lots (odd-lot shares when the money buys less than a lot); holding and the 5-day average at or below the 20-day average, sell everything at market.",
		Symbols: []string{"0050"}, MinAmount: decimal.NewFromInt(100000), Rule: Momentum(5, 20),
	},
	{
		ID: "dip-dividend-etf", Kind: "mean_reversion", Lookback: 4,
		NameTW: "高股息 ETF 逢低買進", NameEN: "Dividend ETF buy-the-dip",
		DescTW:  "在 0056 與 00878 短期急跌後分批買進，反彈或持有期滿即出場。",
		DescEN:  "Buys 0056 and 00878 after a short sharp fall, each with half the money, and sells on the rebound or when the holding time is up.",
		RuleTW:  "每個交易日 09:30（台北）以前一交易日為止的日收盤價，對每檔各以一半金額計算：未持有且最近收盤價比 3 個交易日前的收盤價低超過 3% 時，以保護價（最新成交價上方 3.5%，取到升降單位）限價買進；持有且最近收盤價回到買進前收盤價的 2% 以上，或已持有 10 個交易日時，以市價賣出全部。",
		RuleEN:  "Every trading day at 09:30 Taipei, on the daily closes up to the previous trading day, for each symbol with half the money: holding nothing and the last close more than 3 % below the close 3 trading days before, buy with a limit order at the protective price (3.5 % above the last trade, down to the tick); holding and the last close at least 2 % above the close before the entry, or after 10 trading days held, sell everything at market.",
		Symbols: []string{"0056", "00878"}, MinAmount: decimal.NewFromInt(100000),
		Rule: MeanReversion(3, decimal.NewFromInt(3), decimal.NewFromInt(2), 10),
	},
}

// ByID is the product with id.
func ByID(id string) (Product, bool) {
	for _, p := range Products {
		if p.ID == id {
			return p, true
		}
	}
	return Product{}, false
}

// Budget is a symbol's share of a subscription's amount: equal parts, rounded down to whole NT$.
func (p Product) Budget(amount decimal.Decimal) decimal.Decimal {
	if len(p.Symbols) == 0 {
		return decimal.Zero
	}
	return amount.Div(decimal.NewFromInt(int64(len(p.Symbols)))).RoundFloor(0)
}

// Order is what a budget buys at a price: board lots, or else odd-lot shares, and the cash it
// reserves (price × shares with the commission).
type Order struct {
	Lots, Shares int64 // one of them is set
	Cost         decimal.Decimal
}

// TotalShares are the shares of the order.
func (o Order) TotalShares() int64 { return o.Lots*fees.BoardLot + o.Shares }

// Size is the largest order budget pays for at price per share (the price the order reserves
// at): whole lots when at least one fits, else odd-lot shares (at most 999) when oddLots; the
// zero Order when nothing fits. Cost never exceeds budget.
func Size(budget, price decimal.Decimal, oddLots bool) Order {
	if !budget.IsPositive() || !price.IsPositive() {
		return Order{}
	}
	cost := func(shares int64, odd bool) decimal.Decimal {
		v := price.Mul(decimal.NewFromInt(shares))
		return v.Add(fees.Commission(v, odd))
	}
	lot := price.Mul(decimal.NewFromInt(fees.BoardLot))
	lots := budget.Div(lot).IntPart()
	for lots > 0 && cost(lots*fees.BoardLot, false).GreaterThan(budget) {
		lots--
	}
	if lots > 0 {
		if lots > 499 {
			lots = 499
		}
		return Order{Lots: lots, Cost: cost(lots*fees.BoardLot, false)}
	}
	if !oddLots {
		return Order{}
	}
	shares := min(budget.Div(price).IntPart(), fees.BoardLot-1)
	for shares > 0 && cost(shares, true).GreaterThan(budget) {
		shares--
	}
	if shares <= 0 {
		return Order{}
	}
	return Order{Shares: shares, Cost: cost(shares, true)}
}
