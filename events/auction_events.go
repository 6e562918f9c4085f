package events

import (
	"strconv"

	"github.com/shopspring/decimal"
)

// The IPO auction (競價拍賣, market-rules 1j). An auction lives on its stream (auction-<id>): ops
// list it with its terms and the server commits to the SHA-256 of a secret seed in the same
// command. A bid (price, lots) freezes a deposit (the deposit rate of the bid's amount) on the
// member's account stream. After the window, on the award date, the seed is revealed with the
// award: bids by price descending, ties at the last price awarded in the order the seed draws
// them (commands/rules/allot). Each winner then pays its own bid (discriminatory): the deposit
// first, the balance from available cash; a winner without the balance forfeits the deposit (the
// published rule). Losers' deposits are released. On the listing date the shares are delivered.

// AuctionStream holds one auction: its listing, seed commitment and award.
func AuctionStream(auctionID string) string { return "auction-" + auctionID }

// House accounts of the auction: the issuer's side of what winners pay (and forfeited deposits),
// and the issuer's shares that deliveries move (negative once delivered).
var (
	HouseAuctionClearing = HouseAccount("auction_clearing")
	HouseAuctionShares   = Account{Kind: DeclareAccountKind(AccountKind{Name: "auction_shares", Holds: HoldsShares})}.String()
)

// AuctionListed publishes an auction: Lots offered (of LotShares shares), the lowest price a bid
// may name, the most lots one bidder may bid in all, the deposit rate frozen with each bid, the
// award date (YYYY-MM-DD, after the window) and the listing date.
type AuctionListed struct {
	OfferingTerms
	Lots             int64           `json:"lots"`
	MinPrice         decimal.Decimal `json:"minPrice"`
	MaxLotsPerBidder int64           `json:"maxLotsPerBidder"`
	DepositRate      decimal.Decimal `json:"depositRate"` // a fraction: 0.2 is 20 %
	AwardDate        string          `json:"awardDate"`
}

// AuctionSeedCommitted publishes the SHA-256 of the seed that breaks the award's ties.
type AuctionSeedCommitted struct{ OfferingSeed }

// AuctionBidPlaced is a member's bid: the deposit moves from available to frozen cash.
type AuctionBidPlaced struct {
	AuctionID string          `json:"auctionId"`
	BidNo     string          `json:"bidNo"`
	Symbol    string          `json:"symbol"`
	Name      string          `json:"name"`
	Price     decimal.Decimal `json:"price"`
	Lots      int64           `json:"lots"`
	Shares    int64           `json:"shares"`
	Amount    decimal.Decimal `json:"amount"`  // price × shares
	Deposit   decimal.Decimal `json:"deposit"` // frozen
	Postings  []Posting       `json:"postings"`
}

// AuctionBid is one bid as the award ran over it.
type AuctionBid struct {
	No    string          `json:"no"`
	Price decimal.Decimal `json:"price"`
	Lots  int64           `json:"lots"`
}

// AuctionAwarded reveals the seed and records the award over Bids (every bid of the window, by
// number): Grants are the bids awarded shares (at their own prices), in award order.
type AuctionAwarded struct {
	AuctionID  string       `json:"auctionId"`
	Seed       string       `json:"seed"`
	Commitment string       `json:"commitment"`
	Algorithm  string       `json:"algorithm"`
	Lots       int64        `json:"lots"`
	LotShares  int64        `json:"lotShares"`
	Bids       []AuctionBid `json:"bids"`
	Grants     []Grant      `json:"grants"`
	// Entrants are the members whose account streams hold the entries (sorted; absent before it
	// was recorded): an auditor re-running the result reads those streams, not the whole log.
	Entrants []string `json:"entrants,omitempty"`
}

// AuctionSettled settles a bid after the award: a winner pays its bid for the lots awarded, a
// loser's deposit is released.
type AuctionSettled struct{ OfferingSettlement }

// AuctionForfeited records a winner whose deposit and available cash could not pay its bid: the
// deposit goes to the issuer and nothing is delivered (the published rule).
type AuctionForfeited struct {
	AuctionID string          `json:"auctionId"`
	BidNo     string          `json:"bidNo"`
	Cost      decimal.Decimal `json:"cost"`
	Deposit   decimal.Decimal `json:"deposit"`
	Available decimal.Decimal `json:"available"`
	Postings  []Posting       `json:"postings"`
}

// AuctionDelivered delivers a paid winner's shares on the listing date.
type AuctionDelivered struct{ OfferingDelivery }

func (AuctionListed) EventName() string        { return "AuctionListed" }
func (AuctionSeedCommitted) EventName() string { return "AuctionSeedCommitted" }
func (AuctionBidPlaced) EventName() string     { return "AuctionBidPlaced" }
func (AuctionAwarded) EventName() string       { return "AuctionAwarded" }
func (AuctionSettled) EventName() string       { return "AuctionSettled" }
func (AuctionForfeited) EventName() string     { return "AuctionForfeited" }
func (AuctionDelivered) EventName() string     { return "AuctionDelivered" }

func (e AuctionBidPlaced) MoneyPostings() []Posting { return e.Postings }
func (e AuctionSettled) MoneyPostings() []Posting   { return e.Postings }
func (e AuctionForfeited) MoneyPostings() []Posting { return e.Postings }
func (e AuctionDelivered) MoneyPostings() []Posting { return e.Postings }

// Journal line types of the auction.
const (
	LineAuctionDeposit  = "auction_deposit"  // the deposit frozen with a bid
	LineAuctionPayment  = "auction_payment"  // a winner's bid paid from its deposit
	LineAuctionBalance  = "auction_balance"  // the rest of a winner's bid, from available cash
	LineAuctionRelease  = "auction_release"  // a deposit (or what is left of it) released
	LineAuctionForfeit  = "auction_forfeit"  // a deposit kept from a winner who could not pay
	LineAuctionDelivery = "auction_delivery" // the awarded shares arriving on the listing date
)

func init() {
	register(AuctionListed{}, 1, nil)
	register(AuctionSeedCommitted{}, 1, nil)
	register(AuctionBidPlaced{}, 1, nil)
	register(AuctionAwarded{}, 1, nil)
	register(AuctionSettled{}, 1, nil)
	register(AuctionForfeited{}, 1, nil)
	register(AuctionDelivered{}, 1, nil)
	DeclareLineTypes(LineAuctionDeposit, LineAuctionPayment, LineAuctionBalance, LineAuctionRelease, LineAuctionForfeit, LineAuctionDelivery)
}

// OrderLabel names the auction's security: the bid's later lines show its code and name.
func (e AuctionBidPlaced) OrderLabel() (orderNo, instrument, label string) {
	return e.BidNo, e.Symbol, e.Name
}

func (e AuctionBidPlaced) JournalLines() []JournalLine {
	return freezeLine(LineAuctionDeposit, e.BidNo, e.Postings, e.Deposit, map[string]string{"auctionId": e.AuctionID,
		"price": e.Price.String(), "lots": strconv.FormatInt(e.Lots, 10)})
}

func (e AuctionSettled) JournalLines() []JournalLine {
	return e.lines(LineAuctionPayment, LineAuctionBalance, LineAuctionRelease)
}

func (e AuctionForfeited) JournalLines() []JournalLine {
	return []JournalLine{{Type: LineAuctionForfeit, OrderNo: e.BidNo, Asset: currencyOf(e.Postings), Amount: e.Deposit.Neg(),
		Account: KindFrozen.Name, Status: LineCompleted}}
}

func (e AuctionDelivered) JournalLines() []JournalLine { return e.line(LineAuctionDelivery) }
