package events

import (
	"time"

	"github.com/shopspring/decimal"
)

// Withdrawals, currency exchange and the credit score live on the account stream, next to the
// deposits: every rule that decides on money reads one stream.

// WithdrawalRequested freezes the amount (available -> frozen) until ops decide.
type WithdrawalRequested struct {
	OrderNo     string          `json:"orderNo"`
	ChannelID   string          `json:"channelId"`
	ChannelName string          `json:"channelName"`
	Currency    string          `json:"currency"`
	Amount      decimal.Decimal `json:"amount"`
	CardID      string          `json:"cardId"`
	HolderName  string          `json:"holderName"` // the card as it was at the request: ops pay out to it
	BankName    string          `json:"bankName"`
	Branch      string          `json:"branch"`
	BankCode    string          `json:"bankCode"`
	CardLast4   string          `json:"cardLast4"`
	Postings    []Posting       `json:"postings"`
}

// WithdrawalApproved pays the frozen amount out to the bank (frozen -> bank clearing).
type WithdrawalApproved struct {
	OrderNo  string          `json:"orderNo"`
	Currency string          `json:"currency"`
	Amount   decimal.Decimal `json:"amount"`
	Remark   string          `json:"remark,omitempty"`
	Postings []Posting       `json:"postings"`
}

// WithdrawalRejected releases the frozen amount (frozen -> available); the remark says why.
type WithdrawalRejected struct {
	OrderNo  string          `json:"orderNo"`
	Currency string          `json:"currency"`
	Amount   decimal.Decimal `json:"amount"`
	Remark   string          `json:"remark"`
	Postings []Posting       `json:"postings"`
}

// ExchangeQuoted locks a rate for the member until ExpiresAt; it moves no money.
type ExchangeQuoted struct {
	QuoteID   string          `json:"quoteId"`
	From      string          `json:"from"`
	To        string          `json:"to"`
	Amount    decimal.Decimal `json:"amount"`   // in From
	Rate      decimal.Decimal `json:"rate"`     // units of To per unit of From
	ToAmount  decimal.Decimal `json:"toAmount"` // Amount * Rate, rounded down to To's minor unit
	ExpiresAt time.Time       `json:"expiresAt"`
}

// ExchangeExecuted converts at a quote: From leaves the member's available cash into exchange
// clearing, To comes out of exchange clearing. No fee.
type ExchangeExecuted struct {
	OrderNo    string          `json:"orderNo"`
	QuoteID    string          `json:"quoteId"`
	From       string          `json:"from"`
	To         string          `json:"to"`
	FromAmount decimal.Decimal `json:"fromAmount"`
	ToAmount   decimal.Decimal `json:"toAmount"`
	Rate       decimal.Decimal `json:"rate"`
	Postings   []Posting       `json:"postings"`
}

// CreditScoreChanged moves the member's credit score by Delta under the published rule
// (commands/rules/credit); Reason names the rule, Ref the order that triggered it, By the actor
// whose decision it followed.
type CreditScoreChanged struct {
	Delta  int    `json:"delta"`
	Score  int    `json:"score"` // after the change
	Reason string `json:"reason"`
	Ref    string `json:"ref"`
	By     string `json:"by"`
}

// WithdrawalChannelConfigured defines or redefines a withdrawal channel (config stream).
type WithdrawalChannelConfigured struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Currency string          `json:"currency"`
	Min      decimal.Decimal `json:"min"`
	Max      decimal.Decimal `json:"max"`
	Window   TimeWindow      `json:"window"`
	Enabled  bool            `json:"enabled"`
}

func (WithdrawalRequested) EventName() string         { return "WithdrawalRequested" }
func (WithdrawalApproved) EventName() string          { return "WithdrawalApproved" }
func (WithdrawalRejected) EventName() string          { return "WithdrawalRejected" }
func (ExchangeQuoted) EventName() string              { return "ExchangeQuoted" }
func (ExchangeExecuted) EventName() string            { return "ExchangeExecuted" }
func (CreditScoreChanged) EventName() string          { return "CreditScoreChanged" }
func (WithdrawalChannelConfigured) EventName() string { return "WithdrawalChannelConfigured" }

func (e WithdrawalRequested) MoneyPostings() []Posting { return e.Postings }
func (e WithdrawalApproved) MoneyPostings() []Posting  { return e.Postings }
func (e WithdrawalRejected) MoneyPostings() []Posting  { return e.Postings }
func (e ExchangeExecuted) MoneyPostings() []Posting    { return e.Postings }

func init() {
	register(WithdrawalRequested{}, 1, nil)
	register(WithdrawalApproved{}, 1, nil)
	register(WithdrawalRejected{}, 1, nil)
	register(ExchangeQuoted{}, 1, nil)
	register(ExchangeExecuted{}, 1, nil)
	register(CreditScoreChanged{}, 1, nil)
	register(WithdrawalChannelConfigured{}, 1, nil)
}
