package events

import (
	"time"

	"github.com/shopspring/decimal"
)

// What the primary market's offerings besides the lottery (the auction, the placement) share: an
// offering lives on its own stream with its terms and the SHA-256 of a secret seed published at
// listing; members' entries (bids, applications) freeze cash on their account streams; after the
// window a published rule decides what each entry gets (ties and remainders drawn with the
// revealed seed, commands/rules/draw); each entry is then settled (its cost paid, the rest of
// its frozen cash released) and on the listing date the shares it got are delivered.

// OfferingTerms are what an auction and a placement both publish: the security, its lot, the
// window (OpensAt to ClosesAt) and the listing date (YYYY-MM-DD, Asia/Taipei).
type OfferingTerms struct {
	OfferingID  string    `json:"offeringId"`
	Symbol      string    `json:"symbol"`
	Name        string    `json:"name"`
	Market      string    `json:"market"`
	Currency    string    `json:"currency"`
	LotShares   int64     `json:"lotShares"`
	OpensAt     time.Time `json:"opensAt"`
	ClosesAt    time.Time `json:"closesAt"`
	ListingDate string    `json:"listingDate"`
}

// OfferingSeed publishes the SHA-256 (hex) of an offering's secret seed before any entry.
type OfferingSeed struct {
	OfferingID string `json:"offeringId"`
	Commitment string `json:"commitment"`
	Algorithm  string `json:"algorithm"`
}

// Grant is what the published rule gave one entry (a bid or an application number): shares at
// the entry's price.
type Grant struct {
	No     string          `json:"no"`
	Shares int64           `json:"shares"`
	Price  decimal.Decimal `json:"price"`
}

// OfferingSettlement settles one entry after the rule: Cost (the granted shares at the entry's
// price) is paid from the entry's frozen cash first and from available cash for the rest; what
// stays frozen is released to available cash. An entry granted nothing releases all.
type OfferingSettlement struct {
	OfferingID    string          `json:"offeringId"`
	No            string          `json:"no"`
	Shares        int64           `json:"shares"` // granted
	Price         decimal.Decimal `json:"price"`
	Cost          decimal.Decimal `json:"cost"`
	FromFrozen    decimal.Decimal `json:"fromFrozen"`
	FromAvailable decimal.Decimal `json:"fromAvailable"`
	Released      decimal.Decimal `json:"released"`
	Postings      []Posting       `json:"postings"`
}

// lines are a settlement's journal lines: the payment from frozen cash, the balance from
// available cash, the release (typed by the capability).
func (e OfferingSettlement) lines(payment, balance, release string) []JournalLine {
	c := currencyOf(e.Postings)
	return nonZeroLines(
		JournalLine{Type: payment, OrderNo: e.No, Asset: c, Amount: e.FromFrozen.Neg(), Account: KindFrozen.Name, Status: LineCompleted},
		JournalLine{Type: balance, OrderNo: e.No, Asset: c, Amount: e.FromAvailable.Neg(), Account: KindAvailable.Name, Status: LineCompleted},
		JournalLine{Type: release, OrderNo: e.No, Asset: c, Amount: e.Released, Account: KindAvailable.Name, Status: LineCompleted},
	)
}

// OfferingDelivery delivers an entry's granted shares on the listing date, from the offering's
// shares to the member's shares account; trading holds them as a long bought on PaidDate.
type OfferingDelivery struct {
	OfferingID  string          `json:"offeringId"`
	No          string          `json:"no"`
	Symbol      string          `json:"symbol"`
	Name        string          `json:"name"`
	Security    string          `json:"security"`
	Shares      int64           `json:"shares"`
	Price       decimal.Decimal `json:"price"`
	Basis       decimal.Decimal `json:"basis"`    // what the shares cost
	PaidDate    string          `json:"paidDate"` // YYYY-MM-DD (Asia/Taipei) the shares were paid for
	ListingDate string          `json:"listingDate"`
	Postings    []Posting       `json:"postings"`
}

// Delivered implements DeliversShares for the events that embed it.
func (e OfferingDelivery) Delivered() SharesDelivered {
	return SharesDelivered{PositionID: e.No, Symbol: e.Symbol, Name: e.Name, Shares: e.Shares, Basis: e.Basis, Day: e.PaidDate}
}

func (e OfferingDelivery) line(typ string) []JournalLine {
	return []JournalLine{{Type: typ, OrderNo: e.No, Asset: e.Security, Amount: decimal.NewFromInt(e.Shares),
		Account: KindShares.Name, Status: LineCompleted, Details: map[string]string{"price": e.Price.String()}}}
}

// freezeLine is an entry's freeze of cash at the time it is made.
func freezeLine(typ, no string, ps []Posting, amount decimal.Decimal, details map[string]string) []JournalLine {
	return []JournalLine{{Type: typ, OrderNo: no, Asset: currencyOf(ps), Amount: amount.Neg(), Account: KindAvailable.Name,
		Status: LineCompleted, Details: details}}
}
