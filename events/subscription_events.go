package events

import (
	"strconv"
	"time"

	"github.com/shopspring/decimal"
)

// The new-share subscription lottery (公開申購抽籤). An issue lives on its own stream
// (ipo-<issue id>): ops list it with its calendar, the server commits to the SHA-256 of a secret
// seed in the same command, and after the window the seed is revealed with the draw over the
// sorted list of applications. Everything that moves a member's money or shares lives on the
// member's account stream: the application freezes the price and the processing fee; on the
// deduction day a winner pays (the price, the fee, the postage); on the refund day a loser gets
// all but the fee back and an unpaid winner is waived the same way; on the listing date a paid
// winner's shares arrive in the member's shares account.

// SubscriptionStream holds one issue: its listing, seed commitment and draw.
func SubscriptionStream(issueID string) string { return "ipo-" + issueID }

// House accounts of the subscription: the issuer's side of the price paid, and the issuer's
// shares that allotments deliver (negative once delivered, like house:exchange_shares).
var (
	HouseSubscriptionClearing = HouseAccount("subscription_clearing")
	HouseSubscriptionShares   = Account{Kind: DeclareAccountKind(AccountKind{Name: "subscription_shares", Holds: HoldsShares})}.String()
)

// SubscriptionIssueListed publishes an issue and its calendar. Dates are YYYY-MM-DD in
// Asia/Taipei; the window is OpensAt to ClosesAt. A member applies for UnitLots lots of LotShares
// shares at Price; Lots are offered in all, one per winning application.
type SubscriptionIssueListed struct {
	IssueID        string          `json:"issueId"`
	Symbol         string          `json:"symbol"`
	Name           string          `json:"name"`
	Market         string          `json:"market"` // TW
	Currency       string          `json:"currency"`
	Price          decimal.Decimal `json:"price"`          // subscription price per share
	ReferencePrice decimal.Decimal `json:"referencePrice"` // market reference price per share
	Lots           int64           `json:"lots"`           // lots offered
	UnitLots       int64           `json:"unitLots"`       // lots per application
	LotShares      int64           `json:"lotShares"`      // shares per lot
	Fee            decimal.Decimal `json:"fee"`            // processing fee per application, kept in every case
	Postage        decimal.Decimal `json:"postage"`        // winner's postage, paid on the deduction day
	OpensAt        time.Time       `json:"opensAt"`
	ClosesAt       time.Time       `json:"closesAt"`
	DrawDate       string          `json:"drawDate"`
	DeductionDate  string          `json:"deductionDate"`
	RefundDate     string          `json:"refundDate"`
	ListingDate    string          `json:"listingDate"`
	PE             decimal.Decimal `json:"pe"`
	IndustryPE     decimal.Decimal `json:"industryPe"`
}

// Shares is what one application buys: UnitLots × LotShares.
func (e SubscriptionIssueListed) Shares() int64 { return e.UnitLots * e.LotShares }

// SubscriptionSeedCommitted publishes the SHA-256 (hex) of the draw's secret seed before any
// application, so that the seed revealed at the draw can be checked against it.
type SubscriptionSeedCommitted struct {
	IssueID    string `json:"issueId"`
	Commitment string `json:"commitment"`
	Algorithm  string `json:"algorithm"` // the published draw algorithm (commands/rules/draw)
}

// SubscriptionDrawn reveals the seed and records the draw: Applications is the sorted list of
// application numbers the draw ran over, Winners the ones it drew (in draw order).
type SubscriptionDrawn struct {
	IssueID      string   `json:"issueId"`
	Seed         string   `json:"seed"` // hex; its SHA-256 is the commitment
	Commitment   string   `json:"commitment"`
	Algorithm    string   `json:"algorithm"`
	Lots         int64    `json:"lots"` // winners to draw: the lots offered over the lots per application
	Applications []string `json:"applications"`
	Winners      []string `json:"winners"`
	// Entrants are the members whose account streams hold the entries (sorted; absent before it
	// was recorded): an auditor re-running the result reads those streams, not the whole log.
	Entrants []string `json:"entrants,omitempty"`
}

// SubscriptionApplied is a member's application: the price of the shares and the processing fee
// move from available to frozen cash.
type SubscriptionApplied struct {
	IssueID       string          `json:"issueId"`
	ApplicationNo string          `json:"applicationNo"`
	Symbol        string          `json:"symbol"`
	Name          string          `json:"name"`
	Lots          int64           `json:"lots"`
	Shares        int64           `json:"shares"`
	Price         decimal.Decimal `json:"price"`
	Amount        decimal.Decimal `json:"amount"` // price × shares
	Fee           decimal.Decimal `json:"fee"`
	Postings      []Posting       `json:"postings"`
}

// SubscriptionPaid is a winner's deduction: the frozen price to the issuer's clearing, the frozen
// fee and the postage (from available cash) to fees revenue.
type SubscriptionPaid struct {
	IssueID       string          `json:"issueId"`
	ApplicationNo string          `json:"applicationNo"`
	Amount        decimal.Decimal `json:"amount"`
	Fee           decimal.Decimal `json:"fee"`
	Postage       decimal.Decimal `json:"postage"`
	Postings      []Posting       `json:"postings"`
}

// SubscriptionUnpaid records a winner whose available cash could not pay the postage on the
// deduction day; it moves no money. The refund day waives it (SubscriptionWaived).
type SubscriptionUnpaid struct {
	IssueID       string          `json:"issueId"`
	ApplicationNo string          `json:"applicationNo"`
	Due           decimal.Decimal `json:"due"`       // what the deduction needed from available cash
	Available     decimal.Decimal `json:"available"` // what there was
}

// SubscriptionRefunded returns a losing application's frozen price (frozen -> available) and
// keeps its fee (frozen -> fees revenue). Waived marks the refund of an unpaid winner, whose
// allotment the published rule gives up on the refund day.
type SubscriptionRefunded struct {
	IssueID       string          `json:"issueId"`
	ApplicationNo string          `json:"applicationNo"`
	Amount        decimal.Decimal `json:"amount"`
	Fee           decimal.Decimal `json:"fee"`
	Waived        bool            `json:"waived,omitempty"`
	Postings      []Posting       `json:"postings"`
}

// SubscriptionAllotted delivers a paid winner's shares on the listing date: from the issuer's
// shares to the member's shares account. Trading opens a long position of them (PositionID, the
// application number) at the subscription price.
type SubscriptionAllotted struct {
	IssueID       string          `json:"issueId"`
	ApplicationNo string          `json:"applicationNo"`
	Symbol        string          `json:"symbol"`
	Name          string          `json:"name"`
	Security      string          `json:"security"`
	Shares        int64           `json:"shares"`
	Price         decimal.Decimal `json:"price"`
	Basis         decimal.Decimal `json:"basis"`    // what the shares cost: price × shares
	PaidDate      string          `json:"paidDate"` // the deduction day: the shares were bought then, not on the listing date
	ListingDate   string          `json:"listingDate"`
	Postings      []Posting       `json:"postings"`
}

// DeliversShares is implemented by events that put shares in a member's holding outside trading
// (an allotment of new shares, later a placement or an auction award): the trading part and the
// positions read model open a long position of them that the member can sell like a bought one.
type DeliversShares interface {
	Payload
	Delivered() SharesDelivered
}

// SharesDelivered is a holding that arrived outside trading.
type SharesDelivered struct {
	PositionID string
	Symbol     string
	Name       string
	Shares     int64
	Basis      decimal.Decimal
	Day        string // YYYY-MM-DD (Asia/Taipei): the day the shares were acquired (a sale that day is no day trade unless so)
}

// Delivered implements DeliversShares.
func (e SubscriptionAllotted) Delivered() SharesDelivered {
	return SharesDelivered{PositionID: e.ApplicationNo, Symbol: e.Symbol, Name: e.Name, Shares: e.Shares, Basis: e.Basis, Day: e.PaidDate}
}

func (SubscriptionIssueListed) EventName() string   { return "SubscriptionIssueListed" }
func (SubscriptionSeedCommitted) EventName() string { return "SubscriptionSeedCommitted" }
func (SubscriptionDrawn) EventName() string         { return "SubscriptionDrawn" }
func (SubscriptionApplied) EventName() string       { return "SubscriptionApplied" }
func (SubscriptionPaid) EventName() string          { return "SubscriptionPaid" }
func (SubscriptionUnpaid) EventName() string        { return "SubscriptionUnpaid" }
func (SubscriptionRefunded) EventName() string      { return "SubscriptionRefunded" }
func (SubscriptionAllotted) EventName() string      { return "SubscriptionAllotted" }

func (e SubscriptionApplied) MoneyPostings() []Posting  { return e.Postings }
func (e SubscriptionPaid) MoneyPostings() []Posting     { return e.Postings }
func (e SubscriptionRefunded) MoneyPostings() []Posting { return e.Postings }
func (e SubscriptionAllotted) MoneyPostings() []Posting { return e.Postings }

// Journal line types of the subscription: together the lines of one application are what it did
// to the member's cash and shares.
const (
	LineSubscriptionFreeze    = "subscription_freeze"    // price and fee moved from available to frozen at application
	LineSubscriptionPayment   = "subscription_payment"   // a winner's price, paid from frozen cash
	LineSubscriptionFee       = "subscription_fee"       // the processing fee, kept from frozen cash
	LineSubscriptionPostage   = "subscription_postage"   // a winner's postage, from available cash
	LineSubscriptionRefund    = "subscription_refund"    // a loser's (or waived winner's) price back to available cash
	LineSubscriptionAllotment = "subscription_allotment" // the allotted shares arriving on the listing date
)

// Statuses of subscription lines besides LineCompleted.
const (
	LineWaived = "waived" // the refund of an unpaid winner
)

func init() {
	register(SubscriptionIssueListed{}, 1, nil)
	register(SubscriptionSeedCommitted{}, 1, nil)
	register(SubscriptionDrawn{}, 1, nil)
	register(SubscriptionApplied{}, 1, nil)
	register(SubscriptionPaid{}, 1, nil)
	register(SubscriptionUnpaid{}, 1, nil)
	register(SubscriptionRefunded{}, 1, nil)
	register(SubscriptionAllotted{}, 1, nil)
	DeclareLineTypes(LineSubscriptionFreeze, LineSubscriptionPayment, LineSubscriptionFee, LineSubscriptionPostage,
		LineSubscriptionRefund, LineSubscriptionAllotment)
}

// OrderLabel names the issue's security: the application's later lines show its code and name.
func (e SubscriptionApplied) OrderLabel() (orderNo, instrument, label string) {
	return e.ApplicationNo, e.Symbol, e.Name
}

func (e SubscriptionApplied) JournalLines() []JournalLine {
	return []JournalLine{{Type: LineSubscriptionFreeze, OrderNo: e.ApplicationNo, Asset: currencyOf(e.Postings),
		Amount: e.Amount.Add(e.Fee).Neg(), Account: KindAvailable.Name, Status: LineCompleted,
		Details: map[string]string{"issueId": e.IssueID, "lots": strconv.FormatInt(e.Lots, 10)}}}
}

func (e SubscriptionPaid) JournalLines() []JournalLine {
	c := currencyOf(e.Postings)
	return nonZeroLines(
		JournalLine{Type: LineSubscriptionPayment, OrderNo: e.ApplicationNo, Asset: c, Amount: e.Amount.Neg(), Account: KindFrozen.Name, Status: LineCompleted},
		JournalLine{Type: LineSubscriptionFee, OrderNo: e.ApplicationNo, Asset: c, Amount: e.Fee.Neg(), Account: KindFrozen.Name, Status: LineCompleted},
		JournalLine{Type: LineSubscriptionPostage, OrderNo: e.ApplicationNo, Asset: c, Amount: e.Postage.Neg(), Account: KindAvailable.Name, Status: LineCompleted},
	)
}

// JournalLines of an unpaid winner are none: it moves no money (the refund day's lines say what
// happened to the frozen cash).
func (SubscriptionUnpaid) JournalLines() []JournalLine { return nil }

func (e SubscriptionRefunded) JournalLines() []JournalLine {
	c, status := currencyOf(e.Postings), LineCompleted
	if e.Waived {
		status = LineWaived
	}
	return nonZeroLines(
		JournalLine{Type: LineSubscriptionRefund, OrderNo: e.ApplicationNo, Asset: c, Amount: e.Amount, Account: KindAvailable.Name, Status: status},
		JournalLine{Type: LineSubscriptionFee, OrderNo: e.ApplicationNo, Asset: c, Amount: e.Fee.Neg(), Account: KindFrozen.Name, Status: status},
	)
}

func (e SubscriptionAllotted) JournalLines() []JournalLine {
	return []JournalLine{{Type: LineSubscriptionAllotment, OrderNo: e.ApplicationNo, Asset: e.Security, Amount: decimal.NewFromInt(e.Shares),
		Account: KindShares.Name, Status: LineCompleted, Details: map[string]string{"price": e.Price.String()}}}
}

// currencyOf is the currency of an event's money legs.
func currencyOf(ps []Posting) string {
	for _, p := range ps {
		if p.Currency != "" {
			return p.Currency
		}
	}
	return ""
}

// nonZeroLines drops lines of no amount (a fee of zero).
func nonZeroLines(ls ...JournalLine) []JournalLine {
	out := ls[:0]
	for _, l := range ls {
		if !l.Amount.IsZero() {
			out = append(out, l)
		}
	}
	return out
}
