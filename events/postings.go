package events

import (
	"fmt"
	"sort"

	"github.com/shopspring/decimal"
)

// Posting is one leg of a double-entry transaction: a signed amount on a named ledger account.
// The legs of one event sum to zero per currency. For member accounts a positive amount increases
// what the member holds; house accounts carry the opposite side (bank clearing goes negative when
// a member deposits, because the bank now owes lotbook what lotbook owes the member).
type Posting struct {
	Account  string          `json:"account"`
	Currency string          `json:"currency"`
	Amount   decimal.Decimal `json:"amount"`
}

// MovesMoney is implemented by every event that changes a balance.
type MovesMoney interface {
	Payload
	MoneyPostings() []Posting
}

// Ledger account names.
const (
	HouseBankClearing     = "house:bank_clearing"
	HouseFeesRevenue      = "house:fees_revenue"
	HouseTaxPayable       = "house:tax_payable"
	HouseExchangeClearing = "house:exchange_clearing"
)

// MemberAvailable is a member's spendable cash account.
func MemberAvailable(memberID string) string { return "member:" + memberID + ":available" }

// MemberFrozen is a member's reserved cash account (pending withdrawals, open buy orders).
func MemberFrozen(memberID string) string { return "member:" + memberID + ":frozen" }

// Transfer is the two legs moving amount of currency from one account to another.
func Transfer(from, to, currency string, amount decimal.Decimal) []Posting {
	return []Posting{
		{Account: from, Currency: currency, Amount: amount.Neg()},
		{Account: to, Currency: currency, Amount: amount},
	}
}

// CheckBalanced returns an error naming every currency whose legs do not sum to zero, and any
// leg that is zero, empty or unnamed.
func CheckBalanced(ps []Posting) error {
	if len(ps) == 0 {
		return fmt.Errorf("events: no postings")
	}
	sums := map[string]decimal.Decimal{}
	for i, p := range ps {
		if p.Account == "" || p.Currency == "" {
			return fmt.Errorf("events: posting %d has no account or currency", i)
		}
		if p.Amount.IsZero() {
			return fmt.Errorf("events: posting %d to %s is zero", i, p.Account)
		}
		sums[p.Currency] = sums[p.Currency].Add(p.Amount)
	}
	var bad []string
	for c, s := range sums {
		if !s.IsZero() {
			bad = append(bad, c+" off by "+s.String())
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return fmt.Errorf("events: postings unbalanced: %v", bad)
	}
	return nil
}
