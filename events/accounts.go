package events

import (
	"fmt"
	"strings"
	"sync"
)

// Ledger accounts are named "member:<member id>:<kind>" (what one member holds) or
// "house:<name>" (lotbook's own side). Capabilities declare the kinds they post to; ParseAccount
// is the one place names are taken apart, and the balances read model keeps a balance for every
// declared kind without naming any.

// Holds says which assets an account kind may carry.
type Holds int

const (
	HoldsMoney  Holds = iota + 1 // currency postings only
	HoldsShares                  // security postings only
	HoldsAny                     // either (house clearing accounts that settle both legs of a trade)
)

// AccountKind is a declared kind of ledger account.
type AccountKind struct {
	Member bool   // a member's account ("member:<id>:<Name>"); otherwise a house account ("house:<Name>")
	Name   string // "available", "frozen", "bank_clearing", ...
	Holds  Holds
	// Owed marks a kind whose balance is what the member owes, kept at or below zero (borrowed
	// shares sold short); every other member kind is kept at or above zero.
	Owed bool
}

// Account is a parsed ledger account name.
type Account struct {
	Kind     AccountKind
	MemberID string // member accounts only
}

// String is the account's ledger name.
func (a Account) String() string {
	if a.Kind.Member {
		return "member:" + a.MemberID + ":" + a.Kind.Name
	}
	return "house:" + a.Kind.Name
}

var accountKinds sync.Map // "member:<name>" or "house:<name>" -> AccountKind

func kindKey(member bool, name string) string {
	if member {
		return "member:" + name
	}
	return "house:" + name
}

// DeclareAccountKind registers a kind of ledger account; a capability calls it from init for
// every kind it posts to. Declaring a kind twice with different rules panics: two capabilities
// would disagree about one account.
func DeclareAccountKind(k AccountKind) AccountKind {
	if k.Name == "" || strings.Contains(k.Name, ":") || k.Holds < HoldsMoney || k.Holds > HoldsAny {
		panic(fmt.Sprintf("events: bad account kind %+v", k))
	}
	if old, loaded := accountKinds.LoadOrStore(kindKey(k.Member, k.Name), k); loaded && old != k {
		panic(fmt.Sprintf("events: account kind %s declared twice: %+v and %+v", k.Name, old, k))
	}
	return k
}

// HouseAccount declares a house account holding money and returns its ledger name.
func HouseAccount(name string) string {
	return Account{Kind: DeclareAccountKind(AccountKind{Name: name, Holds: HoldsMoney})}.String()
}

// ParseAccount splits a ledger account name into its declared kind and, for member accounts, the
// member id. Undeclared kinds and malformed names are errors: a projection stalls on them rather
// than lose an amount.
func ParseAccount(name string) (Account, error) {
	if rest, ok := strings.CutPrefix(name, "member:"); ok {
		i := strings.LastIndexByte(rest, ':')
		if i <= 0 || i == len(rest)-1 {
			return Account{}, fmt.Errorf("events: malformed member account %q", name)
		}
		k, ok := accountKinds.Load(kindKey(true, rest[i+1:]))
		if !ok {
			return Account{}, fmt.Errorf("events: undeclared member account kind in %q", name)
		}
		return Account{Kind: k.(AccountKind), MemberID: rest[:i]}, nil
	}
	if rest, ok := strings.CutPrefix(name, "house:"); ok && rest != "" {
		k, ok := accountKinds.Load(kindKey(false, rest))
		if !ok {
			return Account{}, fmt.Errorf("events: undeclared house account %q", name)
		}
		return Account{Kind: k.(AccountKind)}, nil
	}
	return Account{}, fmt.Errorf("events: unknown ledger account %q", name)
}

// Member cash: what a member may spend and what is reserved (pending withdrawals, open buy
// orders).
var (
	KindAvailable = DeclareAccountKind(AccountKind{Member: true, Name: "available", Holds: HoldsMoney})
	KindFrozen    = DeclareAccountKind(AccountKind{Member: true, Name: "frozen", Holds: HoldsMoney})
)

// House accounts of deposits, withdrawals, fees, taxes and exchange.
var (
	HouseBankClearing     = HouseAccount("bank_clearing")
	HouseFeesRevenue      = HouseAccount("fees_revenue")
	HouseTaxPayable       = HouseAccount("tax_payable")
	HouseExchangeClearing = HouseAccount("exchange_clearing")
)

// MemberAccount is the ledger name of a member's account of kind k.
func MemberAccount(memberID string, k AccountKind) string {
	return Account{Kind: k, MemberID: memberID}.String()
}

// MemberAvailable is a member's spendable cash account.
func MemberAvailable(memberID string) string { return MemberAccount(memberID, KindAvailable) }

// MemberFrozen is a member's reserved cash account (pending withdrawals, open buy orders).
func MemberFrozen(memberID string) string { return MemberAccount(memberID, KindFrozen) }
