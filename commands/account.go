package commands

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
)

// accountState is the account aggregate (stream account-<id>): the member's cash per currency,
// computed from the postings of every event of the stream that moves money, and the parts that
// capabilities register (registerAccountPart), each evolved from the same events.
type accountState struct {
	accountLedger
	balances map[string]Balance
	parts    []accountPart
}

func init() {
	registerStreams(events.AccountStream(""), func(memberID string) state { return newAccountState(memberID) })
}

func newAccountState(memberID string) *accountState {
	l := accountLedger{memberID: memberID, available: events.MemberAvailable(memberID), frozen: events.MemberFrozen(memberID)}
	a := &accountState{accountLedger: l, balances: map[string]Balance{}, parts: make([]accountPart, len(accountParts))}
	for i, s := range accountParts {
		a.parts[i] = s.newPart(l)
	}
	return a
}

func (a *accountState) apply(r events.RecordedEvent, p events.Payload) {
	for _, part := range a.parts {
		part.apply(r, p)
	}
	if m, ok := p.(events.MovesMoney); ok {
		for _, leg := range m.MoneyPostings() {
			b := a.balances[leg.Currency]
			switch leg.Account {
			case a.available:
				b.Available = b.Available.Add(leg.Amount)
			case a.frozen:
				b.Frozen = b.Frozen.Add(leg.Amount)
			default:
				continue
			}
			a.balances[leg.Currency] = b
		}
	}
}

func (a *accountState) snapshot() any {
	out := make(map[string]Balance, len(a.balances))
	for c, b := range a.balances {
		out[c] = b
	}
	return out
}

// freeOrderNo is the first candidate order number no part of this account holds yet.
func (a *accountState) freeOrderNo(candidate func(n int) string) string {
	for n := 0; ; n++ {
		if no := candidate(n); !a.holdsOrder(no) {
			return no
		}
	}
}

func (a *accountState) holdsOrder(no string) bool {
	for _, p := range a.parts {
		if h, ok := p.(orderHolder); ok && h.holdsOrder(no) {
			return true
		}
	}
	return false
}

// heldFromWithdrawal is the available cash in currency that some part keeps from being withdrawn
// at now.
func (a *accountState) heldFromWithdrawal(currency string, now time.Time) decimal.Decimal {
	var sum decimal.Decimal
	for _, p := range a.parts {
		if h, ok := p.(withdrawalHold); ok {
			sum = sum.Add(h.heldFromWithdrawal(currency, now))
		}
	}
	return sum
}

// remarkLimit bounds an ops remark (characters).
const remarkLimit = 500

func cleanRemark(s string) (string, *Error) {
	s = strings.TrimSpace(s)
	if len([]rune(s)) > remarkLimit {
		return "", invalid(KeyInvalidRequest)
	}
	return s, nil
}
