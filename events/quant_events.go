package events

import (
	"github.com/shopspring/decimal"
)

// AI quant (AI量化), on the member's account stream.
//
// A member subscribes to a strategy product (commands/rules/quant) with an amount: the amount is
// held from available cash (available -> frozen) for the subscription. When the product's rule
// enters a symbol, the strategy process releases the order's cost from the hold (frozen ->
// available) and, in the next command, places an ordinary order in the member's account with it
// (commands/trading); the order's command id names the subscription. What the strategy's orders
// give back to available cash (a buy's unused reservation once the order is done, a sale's net
// proceeds, the release of a buy the market refused) goes back into the hold (QuantFundsReturned,
// available -> frozen) while the subscription runs, so its money stays the strategy's to use
// again. A member leaves at any time: what is still held is released (frozen -> available).

// QuantSubscribed opens a subscription and holds Amount from available cash.
type QuantSubscribed struct {
	SubID     string          `json:"subId"`
	Product   string          `json:"product"`
	Currency  string          `json:"currency"`
	Amount    decimal.Decimal `json:"amount"`
	MinAmount decimal.Decimal `json:"minAmount"` // the product's published minimum when subscribed
	Postings  []Posting       `json:"postings"`
}

// QuantFundsReleased gives Amount of the subscription's hold back to available cash for the
// order the strategy places next (OrderCommandID) on Symbol.
type QuantFundsReleased struct {
	SubID          string          `json:"subId"`
	Currency       string          `json:"currency"`
	Amount         decimal.Decimal `json:"amount"`
	Symbol         string          `json:"symbol"`
	Shares         int64           `json:"shares"`
	OrderCommandID string          `json:"orderCommandId"`
	Day            string          `json:"day"`        // the trading day the rule entered (Asia/Taipei)
	EntryClose     decimal.Decimal `json:"entryClose"` // the last close the rule saw
	Postings       []Posting       `json:"postings"`
}

// QuantFundsReturned puts Amount that the strategy's order (or refused order) Ref gave back to
// available cash into the subscription's hold again. Reason: order_done (a buy's unused
// reservation), sold (a sale's proceeds net of commission and tax) or refused (the release of a
// buy the market refused).
type QuantFundsReturned struct {
	SubID    string          `json:"subId"`
	Currency string          `json:"currency"`
	Ref      string          `json:"ref"` // the order number, or the refused order's command id
	Amount   decimal.Decimal `json:"amount"`
	Reason   string          `json:"reason"`
	Postings []Posting       `json:"postings"`
}

// Why cash went back into a subscription's hold.
const (
	QuantReturnOrderDone = "order_done"
	QuantReturnSold      = "sold"
	QuantReturnRefused   = "refused"
)

// QuantLeft ends a subscription: Released is what was still held, back to available cash.
// Close says whether the member asked for the positions to be sold at market.
type QuantLeft struct {
	SubID    string          `json:"subId"`
	Currency string          `json:"currency"`
	Released decimal.Decimal `json:"released"`
	Close    bool            `json:"close"`
	Postings []Posting       `json:"postings"`
}

func (QuantSubscribed) EventName() string    { return "QuantSubscribed" }
func (QuantFundsReleased) EventName() string { return "QuantFundsReleased" }
func (QuantFundsReturned) EventName() string { return "QuantFundsReturned" }
func (QuantLeft) EventName() string          { return "QuantLeft" }

func (e QuantSubscribed) MoneyPostings() []Posting    { return e.Postings }
func (e QuantFundsReleased) MoneyPostings() []Posting { return e.Postings }
func (e QuantFundsReturned) MoneyPostings() []Posting { return e.Postings }
func (e QuantLeft) MoneyPostings() []Posting          { return e.Postings }

// Journal line types of AI quant: the hold on subscribing and each return into it, each release
// for an order, the release on leaving.
const (
	LineQuantHold    = "quant_hold"
	LineQuantRelease = "quant_release"
)

// JournalLines of a subscription: the amount held.
func (e QuantSubscribed) JournalLines() []JournalLine {
	return []JournalLine{{Type: LineQuantHold, OrderNo: e.SubID, Asset: e.Currency, Amount: e.Amount, Account: KindFrozen.Name,
		Status: LineCompleted, Details: map[string]string{"product": e.Product}}}
}

// JournalLines of a release for an order: back to available cash.
func (e QuantFundsReleased) JournalLines() []JournalLine {
	return []JournalLine{{Type: LineQuantRelease, OrderNo: e.SubID, Asset: e.Currency, Amount: e.Amount, Account: KindAvailable.Name,
		Status: LineCompleted, Instrument: e.Symbol}}
}

// JournalLines of a return into the hold: held again, like the hold on subscribing.
func (e QuantFundsReturned) JournalLines() []JournalLine {
	return []JournalLine{{Type: LineQuantHold, OrderNo: e.SubID, Asset: e.Currency, Amount: e.Amount, Account: KindFrozen.Name,
		Status: LineCompleted, Details: map[string]string{"reason": e.Reason}}}
}

// JournalLines of leaving: what was held, back to available cash (none when nothing was).
func (e QuantLeft) JournalLines() []JournalLine {
	if !e.Released.IsPositive() {
		return nil
	}
	return []JournalLine{{Type: LineQuantRelease, OrderNo: e.SubID, Asset: e.Currency, Amount: e.Released, Account: KindAvailable.Name,
		Status: LineCompleted}}
}

func init() {
	DeclareLineTypes(LineQuantHold, LineQuantRelease)
	register(QuantSubscribed{}, 1, nil)
	register(QuantFundsReleased{}, 1, nil)
	register(QuantFundsReturned{}, 1, nil)
	register(QuantLeft{}, 1, nil)
}
