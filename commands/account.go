package commands

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
)

// Account is the account aggregate (stream account-<id>): the member's cash per currency,
// computed from the postings of every event of the stream that moves money, and the parts that
// capabilities register (RegisterAccountPart), each evolved from the same events.
type Account struct {
	Ledger
	Balances map[string]Balance // cash per currency
	parts    []State
}

func init() {
	RegisterStreams(events.AccountStream(""), func(memberID string) State { return NewAccount(memberID) })
}

func NewAccount(memberID string) *Account {
	l := Ledger{MemberID: memberID, Available: events.MemberAvailable(memberID), Frozen: events.MemberFrozen(memberID)}
	a := &Account{Ledger: l, Balances: map[string]Balance{}, parts: accountParts.build(l)}
	return a
}

func (a *Account) partList() []State { return a.parts }

// Apply evolves the account: its parts, then the balances from the event's postings.
func (a *Account) Apply(r events.RecordedEvent, p events.Payload) {
	for _, part := range a.parts {
		part.Apply(r, p)
	}
	if m, ok := p.(events.MovesMoney); ok {
		for _, leg := range m.MoneyPostings() {
			b := a.Balances[leg.Currency]
			switch leg.Account {
			case a.Available:
				b.Available = b.Available.Add(leg.Amount)
			case a.Frozen:
				b.Frozen = b.Frozen.Add(leg.Amount)
			default:
				continue
			}
			a.Balances[leg.Currency] = b
		}
	}
}

func (a *Account) snapshot() any {
	out := make(map[string]Balance, len(a.Balances))
	for c, b := range a.Balances {
		out[c] = b
	}
	return out
}

// freeOrderNo is the first candidate order number no part of this account holds yet.
func (a *Account) FreeOrderNo(candidate func(n int) string) string {
	for n := 0; ; n++ {
		if no := candidate(n); !a.HoldsOrder(no) {
			return no
		}
	}
}

func (a *Account) HoldsOrder(no string) bool {
	for _, p := range a.parts {
		if h, ok := p.(OrderHolder); ok && h.HoldsOrder(no) {
			return true
		}
	}
	return false
}

// heldFromWithdrawal is the available cash in currency that some part keeps from being withdrawn
// at now.
func (a *Account) HeldFromWithdrawal(currency string, now time.Time) decimal.Decimal {
	var sum decimal.Decimal
	for _, p := range a.parts {
		if h, ok := p.(WithdrawalHold); ok {
			sum = sum.Add(h.HeldFromWithdrawal(currency, now))
		}
	}
	return sum
}

// Owed is what the member owes in currency, summed over the parts that hold debts (Debtor).
func (a *Account) Owed(currency string) decimal.Decimal {
	var sum decimal.Decimal
	for _, p := range a.parts {
		if d, ok := p.(Debtor); ok {
			sum = sum.Add(d.Owed(currency))
		}
	}
	return sum
}

// HeldShares is how many of the member's shares of symbol the parts keep from being sold
// (ShareHold).
func (a *Account) HeldShares(symbol string) int64 {
	var n int64
	for _, p := range a.parts {
		if h, ok := p.(ShareHold); ok {
			n += h.HeldShares(symbol)
		}
	}
	return n
}

// FreeShares is how many of the member's own shares of symbol are free to sell or to hold
// (FreeShareHolder), before any ShareHold.
func (a *Account) FreeShares(symbol string) int64 {
	var n int64
	for _, p := range a.parts {
		if h, ok := p.(FreeShareHolder); ok {
			n += h.FreeShares(symbol)
		}
	}
	return n
}

// NotYetTradable asks the parts whether positionID names shares due to the member that may not be
// sold at now, and with which message key.
func (a *Account) NotYetTradable(positionID string, now time.Time) (string, bool) {
	for _, p := range a.parts {
		if h, ok := p.(PendingHolding); ok {
			if key, due := h.NotYetTradable(positionID, now); due {
				return key, true
			}
		}
	}
	return "", false
}

// remarkLimit bounds an ops remark (characters).
const remarkLimit = 500

// CleanRemark trims an ops remark and refuses one over remarkLimit characters.
func CleanRemark(s string) (string, *Error) {
	s = strings.TrimSpace(s)
	if len([]rune(s)) > remarkLimit {
		return "", Invalid(KeyInvalidRequest)
	}
	return s, nil
}

// CheckReview checks an ops decision on a member's order (a deposit, a withdrawal, a loan, a
// block application): the remark cleaned (CleanRemark) and, when required (a rejection), given;
// the member and the order number, which name the account stream and the order. It answers the
// cleaned remark.
func CheckReview(memberID, orderNo, remark string, required bool) (string, error) {
	remark, e := CleanRemark(remark)
	if e != nil {
		return "", e
	}
	if required && remark == "" {
		return "", Invalid(KeyRemarkRequired)
	}
	if !ValidMemberID(memberID) || orderNo == "" || len(orderNo) > 64 {
		return "", NotFound(KeyOrderNotFound)
	}
	return remark, nil
}
