// Package funds is deposits, withdrawals, currency exchange and the credit score on the write
// side: a part of the account aggregate (the orders and quotes), a part of the member aggregate
// (the bound cards withdrawals pay out to, folded from identity's card events) and a part of the
// config aggregate (the deposit and withdrawal channels).
package funds

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/fx"
	"github.com/lotbook/lotbook/commands/rules/credit"
	"github.com/lotbook/lotbook/commands/rules/money"
	"github.com/lotbook/lotbook/commands/rules/window"
	"github.com/lotbook/lotbook/events"
)

// Order number prefixes of the funds part.
const (
	depositOrderPrefix    = "D"
	withdrawalOrderPrefix = "W"
	exchangeOrderPrefix   = "X"
)

// Withdrawal and exchange constants.
const (
	withdrawInterval = 30 * time.Second // one withdrawal request per member per interval
	quoteTTL         = 30 * time.Second // an exchange quote holds its rate this long
	quoteKeep        = time.Hour        // expired quotes are forgotten this long after expiry
)

type quote struct {
	events.ExchangeQuoted
	used bool
}

// reviewOrder is a deposit or withdrawal awaiting (or past) ops review.
type reviewOrder struct {
	currency string
	amount   decimal.Decimal
	status   string
}

// funds is the account's part of deposits, withdrawals, currency exchange and the credit score.
type funds struct {
	deposits         map[string]*reviewOrder
	proofs           map[string]string // proof file id -> the order number of the deposit it backs
	withdrawals      map[string]*reviewOrder
	lastWithdrawalAt time.Time
	quotes           map[string]*quote
	exchanges        map[string]bool // order numbers
	score            int
}

// fundsPart reaches an account's funds.
var fundsPart = commands.RegisterAccountPart("funds", newFunds)

func newFunds(commands.Ledger) *funds {
	return &funds{deposits: map[string]*reviewOrder{}, proofs: map[string]string{}, withdrawals: map[string]*reviewOrder{},
		quotes: map[string]*quote{}, exchanges: map[string]bool{}, score: credit.Start}
}

// payoutCard is a bound card as a withdrawal pays out to it. Identity binds and unbinds cards
// (BankCardBound, BankCardUnbound on the member stream); funds folds the same events for what a
// payout names.
type payoutCard struct {
	id, holder, bankName, branch, bankCode, last4 string
}

// payoutCards is the member's part of funds: the bound cards by id.
type payoutCards struct{ byID map[string]*payoutCard }

var cardsPart = commands.RegisterMemberPart("funds.cards", func(string) *payoutCards {
	return &payoutCards{byID: map[string]*payoutCard{}}
})

// Apply follows the member's card bindings.
func (c *payoutCards) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.BankCardBound:
		c.byID[e.CardID] = &payoutCard{id: e.CardID, holder: e.HolderName, bankName: e.BankName, branch: e.Branch,
			bankCode: e.BankCode, last4: e.CardLast4}
	case events.BankCardUnbound:
		delete(c.byID, e.CardID)
	}
}

// reviewed records ops' decision on a deposit or withdrawal.
func reviewed(orders map[string]*reviewOrder, orderNo, status string) {
	if o := orders[orderNo]; o != nil {
		o.status = status
	}
}

func (f *funds) HoldsOrder(no string) bool {
	return f.deposits[no] != nil || f.withdrawals[no] != nil || f.exchanges[no]
}

func (f *funds) Apply(r events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.DepositRequested:
		f.deposits[e.OrderNo] = &reviewOrder{currency: e.Currency, amount: e.Amount, status: events.ReviewPending}
		if e.ProofFileID != "" {
			f.proofs[e.ProofFileID] = e.OrderNo
		}
	case events.DepositApproved:
		reviewed(f.deposits, e.OrderNo, events.ReviewApproved)
	case events.DepositRejected:
		reviewed(f.deposits, e.OrderNo, events.ReviewRejected)
	case events.WithdrawalRequested:
		f.withdrawals[e.OrderNo] = &reviewOrder{currency: e.Currency, amount: e.Amount, status: events.ReviewPending}
		f.lastWithdrawalAt = r.Metadata.ServerTime
	case events.WithdrawalApproved:
		reviewed(f.withdrawals, e.OrderNo, events.ReviewApproved)
	case events.WithdrawalRejected:
		reviewed(f.withdrawals, e.OrderNo, events.ReviewRejected)
	case events.ExchangeQuoted:
		// Forget long-expired quotes as new ones come, so the state stays small.
		for id, q := range f.quotes {
			if r.Metadata.ServerTime.Sub(q.ExpiresAt) > quoteKeep {
				delete(f.quotes, id)
			}
		}
		f.quotes[e.QuoteID] = &quote{ExchangeQuoted: e}
	case events.ExchangeExecuted:
		if q := f.quotes[e.QuoteID]; q != nil {
			q.used = true
		}
		f.exchanges[e.OrderNo] = true
	case events.CreditScoreChanged:
		f.score = e.Score
	}
}

// channelAmount parses the amount of a deposit or withdrawal in the channel's currency and holds
// it to the channel's limits.
func channelAmount(s, currency string, lo, hi decimal.Decimal) (decimal.Decimal, error) {
	amount, err := money.ParseAmount(s, currency)
	switch {
	case err != nil:
		return decimal.Zero, commands.Invalid(err.Error())
	case amount.LessThan(lo):
		return decimal.Zero, commands.Rule(commands.KeyAmountBelowMinimum)
	case amount.GreaterThan(hi):
		return decimal.Zero, commands.Rule(commands.KeyAmountAboveMaximum)
	}
	return amount, nil
}

// pendingOperation tells whether a deposit or a withdrawal of the member waits for review.
func (f *funds) pendingOperation() bool {
	for _, d := range f.deposits {
		if d.status == events.ReviewPending {
			return true
		}
	}
	for _, w := range f.withdrawals {
		if w.status == events.ReviewPending {
			return true
		}
	}
	return false
}

// withdrawable is the most a withdrawal in currency may take out at now, the one figure both the
// withdrawal decision and the withdraw screen use: the member's own equity in cash, that is the
// available cash (frozen funds are not in it) less what other parts hold from withdrawal (sale
// proceeds that have not settled, T+2, can be traded with at once but not withdrawn) and less what
// the member owes (an outstanding loan with its unpaid interest, commands.Debtor).
func withdrawable(a *commands.Account, currency string, now time.Time) decimal.Decimal {
	return decimal.Max(decimal.Zero, unheld(a, currency, now).Sub(a.Owed(currency)))
}

// unheld is the available cash less what other parts hold from withdrawal, before debts.
func unheld(a *commands.Account, currency string, now time.Time) decimal.Decimal {
	avail := a.Balances[currency].Available
	held := a.HeldFromWithdrawal(currency, now)
	if held.IsZero() {
		return avail
	}
	return decimal.Max(decimal.Zero, avail.Sub(held))
}

// loanBlocks tells whether an unpaid loan is what keeps amount from being withdrawn: the member
// owes, and the amount is within the cash that would be withdrawable without the debt.
func loanBlocks(a *commands.Account, currency string, amount decimal.Decimal, now time.Time) bool {
	return a.Owed(currency).IsPositive() && amount.GreaterThan(withdrawable(a, currency, now)) &&
		!amount.GreaterThan(unheld(a, currency, now))
}

// creditChange is the score event of a rule-driven change, none when the score is at its bound.
func (f *funds) creditChange(reason, ref, by string) []events.Payload {
	after, applied := credit.Apply(f.score, reason)
	if applied == 0 {
		return nil
	}
	return []events.Payload{events.CreditScoreChanged{Delta: applied, Score: after, Reason: reason, Ref: ref, By: by}}
}

// withCredit adds the credit-score change that a deposit decision makes under the published rule.
func withCredit(decide func(a *commands.Account, orderNo, remark string) ([]events.Payload, error), reason, by string) func(a *commands.Account, orderNo, remark string) ([]events.Payload, error) {
	return func(a *commands.Account, orderNo, remark string) ([]events.Payload, error) {
		evs, err := decide(a, orderNo, remark)
		if err != nil {
			return nil, err
		}
		return append(evs, fundsPart.Of(a).creditChange(reason, orderNo, by)...), nil
	}
}

// withdrawFacts are what a withdrawal needs to know from the member stream.
type withdrawFacts struct {
	registered, disabled, frozen, banned, fundSet bool
	card                                          *payoutCard // the chosen card, nil when not the member's
}

// withdrawalRequest is a withdrawal with everything its decision needs from other streams.
type withdrawalRequest struct {
	amount     string
	member     withdrawFacts
	channel    *events.WithdrawalChannelConfigured
	channelErr *commands.Error // why there is no channel
	now        time.Time
	cal        window.Calendar
	verifyFund func() error // checks the fund password, recording a wrong one; nil when right
	orderNo    func(n int) string
}

// decideWithdrawalRequest applies the withdrawal rules in the spec's order: the member's state,
// the fund password set, the card, the channel's limits and window, the fund password itself,
// then the account: not too frequent, nothing else pending, the credit score, enough cash, no
// unpaid loan in the way (own equity: cash less the debt), enough withdrawable cash. The amount
// moves from available to frozen.
func decideWithdrawalRequest(a *commands.Account, r withdrawalRequest) ([]events.Payload, error) {
	m := r.member
	switch {
	case !m.registered:
		return nil, commands.NotFound(commands.KeyAccountNotExist)
	case m.disabled:
		return nil, commands.Forbidden(commands.KeyAccountDisabled)
	case m.frozen:
		return nil, commands.Forbidden(commands.KeyAccountFrozen)
	case m.banned:
		return nil, commands.Forbidden(commands.KeyWithdrawalBanned)
	case !m.fundSet:
		return nil, commands.Rule(commands.KeyFundPasswordNotSet)
	case m.card == nil:
		return nil, commands.NotFound(commands.KeyCardNotFound)
	case r.channel == nil:
		return nil, r.channelErr
	}
	ch := r.channel
	amount, err := channelAmount(r.amount, ch.Currency, ch.Min, ch.Max)
	if err != nil {
		return nil, err
	}
	if !window.Open(ch.Window, r.now, r.cal) {
		return nil, commands.Rule(commands.KeyWithdrawWindowClosed)
	}
	if err := r.verifyFund(); err != nil {
		return nil, err
	}
	f := fundsPart.Of(a)
	switch {
	case !f.lastWithdrawalAt.IsZero() && r.now.Sub(f.lastWithdrawalAt) < withdrawInterval:
		return nil, commands.TooFrequent(commands.KeySubmitTooFrequent)
	case f.pendingOperation():
		return nil, commands.Rule(commands.KeyFundOperationPending)
	case !credit.MayWithdraw(f.score):
		return nil, commands.Rule(commands.KeyCreditScoreTooLow)
	case amount.GreaterThan(a.Balances[ch.Currency].Available):
		return nil, commands.Rule(commands.KeyInsufficientBalance)
	case loanBlocks(a, ch.Currency, amount, r.now):
		return nil, commands.Rule(commands.KeyLoanUnpaid)
	case amount.GreaterThan(withdrawable(a, ch.Currency, r.now)):
		return nil, commands.Rule(commands.KeyInsufficientWithdrawable)
	}
	c := m.card
	return []events.Payload{events.WithdrawalRequested{
		OrderNo: a.FreeOrderNo(r.orderNo), ChannelID: ch.ID, ChannelName: ch.Name, Currency: ch.Currency, Amount: amount,
		CardID: c.id, HolderName: c.holder, BankName: c.bankName, Branch: c.branch, BankCode: c.bankCode, CardLast4: c.last4,
		Postings: events.Transfer(a.Available, a.Frozen, ch.Currency, amount),
	}}, nil
}

// decideApproveWithdrawal pays the frozen amount out to bank clearing.
func decideApproveWithdrawal(a *commands.Account, orderNo, remark string) ([]events.Payload, error) {
	w, err := pendingOrder(fundsPart.Of(a).withdrawals, orderNo)
	if err != nil {
		return nil, err
	}
	return []events.Payload{events.WithdrawalApproved{OrderNo: orderNo, Currency: w.currency, Amount: w.amount, Remark: remark,
		Postings: events.Transfer(a.Frozen, events.HouseBankClearing, w.currency, w.amount)}}, nil
}

// decideRejectWithdrawal releases the frozen amount back to available.
func decideRejectWithdrawal(a *commands.Account, orderNo, remark string) ([]events.Payload, error) {
	w, err := pendingOrder(fundsPart.Of(a).withdrawals, orderNo)
	if err != nil {
		return nil, err
	}
	return []events.Payload{events.WithdrawalRejected{OrderNo: orderNo, Currency: w.currency, Amount: w.amount, Remark: remark,
		Postings: events.Transfer(a.Frozen, a.Available, w.currency, w.amount)}}, nil
}

// validateExchange checks an exchange form: amount, then currencies (supported, different,
// an allowed pair), then the amount within the source currency's minor unit.
func validateExchange(from, to, amount string) (decimal.Decimal, *commands.Error) {
	switch {
	case amount == "":
		return decimal.Decimal{}, commands.Invalid(commands.KeyAmountRequired)
	case !fx.Supported(from) || !fx.Supported(to):
		return decimal.Decimal{}, commands.Invalid(commands.KeyExchangeCurrencyInvalid)
	case from == to:
		return decimal.Decimal{}, commands.Invalid(commands.KeyExchangeSameCurrency)
	case !fx.PairAllowed(from, to):
		return decimal.Decimal{}, commands.Rule(commands.KeyExchangePairUnsupported)
	}
	d, err := money.ParseAmount(amount, from)
	if err != nil {
		return decimal.Decimal{}, commands.Invalid(err.Error())
	}
	return d, nil
}

// exchangeRefusals are the member flags that refuse an exchange, in the order they answer.
var exchangeRefusals = []string{events.FlagDisabled, events.FlagFrozen}

// decideQuote locks rate for quoteTTL: the member must hold the amount, and the converted
// amount, rounded down to the target's minor unit, must not be zero.
func decideQuote(a *commands.Account, f commands.Standing, quoteID, from, to string, amount, rate decimal.Decimal, now time.Time) ([]events.Payload, error) {
	if err := f.Refuse(exchangeRefusals...); err != nil {
		return nil, err
	}
	if amount.GreaterThan(a.Balances[from].Available) {
		return nil, commands.Rule(commands.KeyInsufficientBalance)
	}
	if !rate.IsPositive() {
		return nil, commands.Unavailable(fmt.Errorf("rate %s/%s is %s", from, to, rate))
	}
	toAmount := money.Convert(amount, rate, to)
	if !toAmount.IsPositive() {
		return nil, commands.Rule(commands.KeyAmountBelowMinimum)
	}
	return []events.Payload{events.ExchangeQuoted{QuoteID: quoteID, From: from, To: to, Amount: amount, Rate: rate,
		ToAmount: toAmount, ExpiresAt: now.Add(quoteTTL)}}, nil
}

// decideExchange converts at a live quote: From goes from the member's available cash into
// exchange clearing, To comes out of it. A quote is used once.
func decideExchange(a *commands.Account, f commands.Standing, quoteID string, now time.Time, orderNo func(n int) string) ([]events.Payload, error) {
	q := fundsPart.Of(a).quotes[quoteID]
	switch {
	case q == nil:
		return nil, commands.NotFound(commands.KeyExchangeQuoteNotFound)
	case q.used:
		return nil, commands.Rule(commands.KeyExchangeQuoteUsed)
	case !now.Before(q.ExpiresAt):
		return nil, commands.Rule(commands.KeyExchangeQuoteExpired)
	}
	if err := f.Refuse(exchangeRefusals...); err != nil {
		return nil, err
	}
	if q.Amount.GreaterThan(a.Balances[q.From].Available) {
		return nil, commands.Rule(commands.KeyInsufficientBalance)
	}
	postings := append(events.Transfer(a.Available, events.HouseExchangeClearing, q.From, q.Amount),
		events.Transfer(events.HouseExchangeClearing, a.Available, q.To, q.ToAmount)...)
	return []events.Payload{events.ExchangeExecuted{OrderNo: a.FreeOrderNo(orderNo), QuoteID: q.QuoteID, From: q.From, To: q.To,
		FromAmount: q.Amount, ToAmount: q.ToAmount, Rate: q.Rate, Postings: postings}}, nil
}
