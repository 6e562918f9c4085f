package events

import (
	"fmt"
	"sort"
	"strings"

	"github.com/shopspring/decimal"
)

// Posting is one leg of a double-entry transaction: a signed amount of one asset on a named
// ledger account. The asset is a currency (Currency, an ISO code: the amount is money) or a
// security (Security, "<market>:<symbol>" such as "TW:2330": the amount is a whole number of
// shares); exactly one is set. The legs of one event sum to zero per asset. For member accounts
// a positive amount increases what the member holds; house accounts carry the opposite side (bank
// clearing goes negative when a member deposits, because the bank now owes lotbook what lotbook
// owes the member).
//
// Postings stored before securities existed carry only a currency; their JSON is unchanged
// (security is omitted when empty), so old events decode as currency postings.
type Posting struct {
	Account  string          `json:"account"`
	Currency string          `json:"currency,omitempty"`
	Amount   decimal.Decimal `json:"amount"`
	Security string          `json:"security,omitempty"`
}

// Asset is what the posting moves: its currency code or its security code. The two cannot
// collide: security codes carry a market prefix ("TW:2330"), currency codes never hold a colon.
func (p Posting) Asset() string {
	if p.Security != "" {
		return p.Security
	}
	return p.Currency
}

// IsShares reports whether the posting moves shares of a security rather than money.
func (p Posting) IsShares() bool { return p.Security != "" }

// Security is the asset code of a listed security: "TW:2330" for symbol 2330 on market TW.
func Security(market, symbol string) string { return market + ":" + symbol }

// MovesMoney is implemented by every event that changes a balance (of money or of shares).
type MovesMoney interface {
	Payload
	MoneyPostings() []Posting
}

// Transfer is the two legs moving amount of currency from one account to another.
func Transfer(from, to, currency string, amount decimal.Decimal) []Posting {
	return []Posting{
		{Account: from, Currency: currency, Amount: amount.Neg()},
		{Account: to, Currency: currency, Amount: amount},
	}
}

// TransferShares is the two legs moving shares of a security from one account to another.
func TransferShares(from, to, security string, shares int64) []Posting {
	n := decimal.NewFromInt(shares)
	return []Posting{
		{Account: from, Security: security, Amount: n.Neg()},
		{Account: to, Security: security, Amount: n},
	}
}

// CheckBalanced returns an error naming every asset whose legs do not sum to zero, and any leg
// that is zero, unnamed, on an undeclared account, of no asset or both, of an asset its account
// does not hold, or of a fraction of a share.
func CheckBalanced(ps []Posting) error {
	if len(ps) == 0 {
		return fmt.Errorf("events: no postings")
	}
	sums := map[string]decimal.Decimal{}
	for i, p := range ps {
		if err := p.check(); err != nil {
			return fmt.Errorf("events: posting %d: %w", i, err)
		}
		sums[p.Asset()] = sums[p.Asset()].Add(p.Amount)
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

// check is the rule for one leg on its own.
func (p Posting) check() error {
	if p.Account == "" || (p.Currency == "") == (p.Security == "") {
		return fmt.Errorf("%q needs an account and exactly one of currency or security", p.Account)
	}
	if p.Amount.IsZero() {
		return fmt.Errorf("to %s is zero", p.Account)
	}
	if strings.Contains(p.Currency, ":") {
		return fmt.Errorf("currency %q is not a currency code", p.Currency)
	}
	if p.IsShares() {
		if m, s, ok := strings.Cut(p.Security, ":"); !ok || m == "" || s == "" {
			return fmt.Errorf("security %q is not <market>:<symbol>", p.Security)
		}
		if !p.Amount.IsInteger() {
			return fmt.Errorf("%s of %s is not a whole number of shares", p.Amount, p.Security)
		}
	}
	a, err := ParseAccount(p.Account)
	if err != nil {
		return err
	}
	if a.Kind.Holds == HoldsMoney && p.IsShares() || a.Kind.Holds == HoldsShares && !p.IsShares() {
		return fmt.Errorf("account %s does not hold %s", p.Account, p.Asset())
	}
	return nil
}

// CheckPostings is every rule an event's postings keep before it is appended or applied: they
// balance (CheckBalanced) and move only the stream's own member's money (CheckOwnPostings).
func CheckPostings(stream string, ps []Posting) error {
	if err := CheckBalanced(ps); err != nil {
		return err
	}
	return CheckOwnPostings(stream, ps)
}

// CheckOwnPostings is the rule that keeps each member's money on that member's own streams: an
// event of member M's streams (member-M, account-M) posts to no other member's account, and an
// event of any other stream to no member's account at all (a move between members goes through
// a house account, each member's leg on that member's stream). The read models of members'
// money (balances, wallet) are split over projector instances by the member of the stream, so
// they hold only where this holds; the command side refuses to append an event that breaks it,
// and those read models stall on one.
func CheckOwnPostings(stream string, ps []Posting) error {
	owner, ok := StreamMember(stream)
	for _, p := range ps {
		a, err := ParseAccount(p.Account)
		if err != nil {
			return err
		}
		if a.Kind.Member && (!ok || a.MemberID != owner) {
			return fmt.Errorf("events: posting to %s in stream %s: a member's accounts move only on the member's own streams", p.Account, stream)
		}
	}
	return nil
}
