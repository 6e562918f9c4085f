package events

import (
	"github.com/shopspring/decimal"
)

// Additional credit margin (追繳保證金): a member under a margin call puts cash from its available
// balance into one margin position, on the member's account stream. For a margin long the cash
// pays down the position's financing (member available -> the broker's margin loans); for a short
// it adds to the margin the broker holds (member available -> short collateral). Either raises
// the account's maintenance ratio (market-rules 1f); the matching engine's margin check lifts the
// call once the ratio is back at 130 %.

// MarginToppedUp is one top-up: Amount from available cash, of which Loan repaid the position's
// financing (a long) and Margin was added to its short margin (a short); one of them is zero.
type MarginToppedUp struct {
	TopUpNo    string          `json:"topUpNo"`
	PositionID string          `json:"positionId"`
	Symbol     string          `json:"symbol"`
	Amount     decimal.Decimal `json:"amount"`
	Loan       decimal.Decimal `json:"loan"`
	Margin     decimal.Decimal `json:"margin"`
	Postings   []Posting       `json:"postings"`
}

// LineMarginTopUp is the journal line of a top-up: paid from available cash.
const LineMarginTopUp = "margin_top_up"

func (MarginToppedUp) EventName() string { return "MarginToppedUp" }

func (e MarginToppedUp) MoneyPostings() []Posting { return e.Postings }

// MarginTopUpPostings are a top-up's legs: available cash to the broker's margin loans (loan) or
// short collateral (margin).
func MarginTopUpPostings(memberID, currency string, loan, margin decimal.Decimal) []Posting {
	var out []Posting
	if loan.IsPositive() {
		out = append(out, Transfer(MemberAvailable(memberID), HouseMarginLoans, currency, loan)...)
	}
	if margin.IsPositive() {
		out = append(out, Transfer(MemberAvailable(memberID), HouseShortCollateral, currency, margin)...)
	}
	return out
}

// JournalLines of a top-up: paid from available cash, naming the position.
func (e MarginToppedUp) JournalLines() []JournalLine {
	return []JournalLine{{Type: LineMarginTopUp, OrderNo: e.TopUpNo, Asset: "TWD", Amount: e.Amount.Neg(), Account: KindAvailable.Name,
		Status: LineCompleted, Instrument: e.Symbol, Details: map[string]string{"positionId": e.PositionID, "loan": e.Loan.String(),
			"margin": e.Margin.String()}}}
}

func init() {
	DeclareLineTypes(LineMarginTopUp)
	register(MarginToppedUp{}, 1, nil)
}
