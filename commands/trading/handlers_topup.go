package trading

import (
	"context"
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// Additional credit margin (追繳保證金): a member puts available cash into one of its margin
// positions, typically to answer a margin call. A margin long's financing is paid down (never
// below zero: the rest of a larger amount would be nobody's debt); a short's margin grows. The
// matching engine's margin check lifts the call once the account's ratio is back at 130 %.

// Message keys of margin top-ups.
const (
	KeyAmountNotInteger      = "amount_not_integer"
	KeyAmountNotPositive     = "amount_not_positive"
	KeyPositionNotMargined   = "position_not_margined"
	KeyTopUpExceedsFinancing = "top_up_exceeds_financing"
)

// topUpPrefix begins the numbers of margin top-ups.
const topUpPrefix = "M"

// maxTopUp bounds an amount typed in (NT$), far above any position's financing.
const maxTopUp = 1_000_000_000

// TopUpMargin is a member's top-up of one margin position: Amount is a whole NT$ amount as typed.
type TopUpMargin struct {
	MemberID, PositionID, Amount string
}

// TopUpResult names the top-up and what it did.
type TopUpResult struct {
	TopUpNo      string
	Loan, Margin decimal.Decimal
	Position     int64
}

var amountShape = regexp.MustCompile(`^[+-]?[0-9]{1,15}(\.[0-9]{1,15})?$`)

// parseTopUp is a top-up amount as typed: a positive whole number of NT$.
func parseTopUp(s string) (decimal.Decimal, *commands.Error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return decimal.Zero, commands.Invalid(commands.KeyAmountRequired)
	}
	if !amountShape.MatchString(s) {
		return decimal.Zero, commands.Invalid(commands.KeyAmountInvalid)
	}
	a, err := decimal.NewFromString(s)
	switch {
	case err != nil:
		return decimal.Zero, commands.Invalid(commands.KeyAmountInvalid)
	case !a.IsInteger():
		return decimal.Zero, commands.Invalid(KeyAmountNotInteger)
	case !a.IsPositive():
		return decimal.Zero, commands.Invalid(KeyAmountNotPositive)
	case a.GreaterThan(decimal.NewFromInt(maxTopUp)):
		return decimal.Zero, commands.Invalid(commands.KeyAmountAboveMaximum)
	}
	return a, nil
}

// TopUpMargin puts available cash into a margin position. Top-ups of one member are decided one
// after the other on its account stream, so racing ones never spend more than the available
// cash nor repay more financing than the position owes.
func (s *Commands) TopUpMargin(ctx context.Context, meta commands.Meta, in TopUpMargin) (TopUpResult, error) {
	c, err := s.k.Begin(meta, "margin.top-up")
	if err != nil {
		return TopUpResult{}, err
	}
	amount, perr := parseTopUp(in.Amount)
	if perr != nil {
		return TopUpResult{}, perr
	}
	if !commands.ValidMemberID(in.MemberID) || in.PositionID == "" || len(in.PositionID) > 64 {
		return TopUpResult{}, commands.NotFound(commands.KeyPositionNotFound)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(in.MemberID), func(a *commands.Account) ([]events.Payload, error) {
		e, err := decideTopUp(a, in.PositionID, amount, c.OrderNumbers(topUpPrefix, in.MemberID))
		if err != nil {
			return nil, err
		}
		return []events.Payload{e}, nil
	})
	if err != nil {
		return TopUpResult{}, err
	}
	// The answer is what the command recorded (a replay answers the same); a key reused for
	// another command recorded no top-up.
	for _, p := range rec.Payloads {
		if e, ok := p.(events.MarginToppedUp); ok && e.PositionID == in.PositionID {
			return TopUpResult{TopUpNo: e.TopUpNo, Loan: e.Loan, Margin: e.Margin, Position: rec.Position}, nil
		}
	}
	return TopUpResult{}, commands.KeyReused()
}

// decideTopUp is the top-up of position id by amount from available cash.
func decideTopUp(a *commands.Account, id string, amount decimal.Decimal, topUpNo func(int) string) (events.MarginToppedUp, error) {
	pos := tradingPart.Of(a).positions[id]
	switch {
	case pos == nil:
		return events.MarginToppedUp{}, commands.NotFound(commands.KeyPositionNotFound)
	case pos.shares == 0:
		return events.MarginToppedUp{}, commands.Rule(commands.KeyPositionNotHolding)
	case !pos.margined():
		return events.MarginToppedUp{}, commands.Rule(KeyPositionNotMargined)
	case amount.GreaterThan(a.Balances[TWD].Available):
		return events.MarginToppedUp{}, commands.Rule(commands.KeyInsufficientBalance)
	case !pos.short() && amount.GreaterThan(pos.loan):
		return events.MarginToppedUp{}, commands.Rule(KeyTopUpExceedsFinancing)
	}
	loan, margin := amount, decimal.Zero
	if pos.short() {
		loan, margin = decimal.Zero, amount
	}
	return events.MarginToppedUp{TopUpNo: a.FreeOrderNo(topUpNo), PositionID: id, Symbol: pos.symbol, Amount: amount, Loan: loan, Margin: margin,
		Postings: events.MarginTopUpPostings(a.MemberID, TWD, loan, margin)}, nil
}
