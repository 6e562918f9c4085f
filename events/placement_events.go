package events

import (
	"strconv"
	"time"

	"github.com/shopspring/decimal"
)

// The placement and inquiry subscription (詢圈配售). A placement lives on its stream
// (placement-<id>): ops offer it at a fixed price with the lots offered and the most lots one
// member may apply for, and the server commits to the SHA-256 of a secret seed. An application
// freezes its whole amount on the member's account stream. After the window ops trigger the
// allotment, which the published rule computes (commands/rules/allot: pro rata in whole shares
// rounded down, the remainder one share each to applications the revealed seed draws). Each
// application is then settled (the allotted shares paid, the rest refunded) and on the listing
// date its shares are delivered.

// PlacementStream holds one placement: its offer, seed commitment and allotment.
func PlacementStream(placementID string) string { return "placement-" + placementID }

// House accounts of the placement: the issuer's side of what is paid, and its shares.
var (
	HousePlacementClearing = HouseAccount("placement_clearing")
	HousePlacementShares   = Account{Kind: DeclareAccountKind(AccountKind{Name: "placement_shares", Holds: HoldsShares})}.String()
)

// PlacementOffered publishes a placement: Lots offered at Price, at most MaxLotsPerMember lots
// applied for by one member in all.
type PlacementOffered struct {
	OfferingTerms
	Price            decimal.Decimal `json:"price"`
	Lots             int64           `json:"lots"`
	MaxLotsPerMember int64           `json:"maxLotsPerMember"`
}

// PlacementSeedCommitted publishes the SHA-256 of the seed that draws the remainder.
type PlacementSeedCommitted struct{ OfferingSeed }

// PlacementApplied is a member's application: its amount moves from available to frozen cash.
type PlacementApplied struct {
	PlacementID   string          `json:"placementId"`
	ApplicationNo string          `json:"applicationNo"`
	Symbol        string          `json:"symbol"`
	Name          string          `json:"name"`
	Lots          int64           `json:"lots"`
	Shares        int64           `json:"shares"`
	Price         decimal.Decimal `json:"price"`
	Amount        decimal.Decimal `json:"amount"`
	Postings      []Posting       `json:"postings"`
}

// PlacementAllotmentRequested is ops' trigger of the allotment after the window: the rule
// computes it (PlacementAllotted), ops only ask for it. At is when they asked.
type PlacementAllotmentRequested struct {
	PlacementID string    `json:"placementId"`
	At          time.Time `json:"at"`
}

// PlacementAllotted reveals the seed and records the allotment over Requests (every application
// of the window, by number, with the shares it asked for): Grants are the shares each got.
type PlacementAllotted struct {
	PlacementID string  `json:"placementId"`
	Seed        string  `json:"seed"`
	Commitment  string  `json:"commitment"`
	Algorithm   string  `json:"algorithm"`
	Shares      int64   `json:"shares"` // offered
	Requests    []Grant `json:"requests"`
	Grants      []Grant `json:"grants"`
	// Entrants are the members whose account streams hold the entries (sorted; absent before it
	// was recorded): an auditor re-running the result reads those streams, not the whole log.
	Entrants []string `json:"entrants,omitempty"`
}

// PlacementSettled pays an application's allotted shares from its frozen amount and refunds the rest.
type PlacementSettled struct{ OfferingSettlement }

// PlacementDelivered delivers an application's allotted shares on the listing date.
type PlacementDelivered struct{ OfferingDelivery }

func (PlacementOffered) EventName() string            { return "PlacementOffered" }
func (PlacementSeedCommitted) EventName() string      { return "PlacementSeedCommitted" }
func (PlacementApplied) EventName() string            { return "PlacementApplied" }
func (PlacementAllotmentRequested) EventName() string { return "PlacementAllotmentRequested" }
func (PlacementAllotted) EventName() string           { return "PlacementAllotted" }
func (PlacementSettled) EventName() string            { return "PlacementSettled" }
func (PlacementDelivered) EventName() string          { return "PlacementDelivered" }

func (e PlacementApplied) MoneyPostings() []Posting   { return e.Postings }
func (e PlacementSettled) MoneyPostings() []Posting   { return e.Postings }
func (e PlacementDelivered) MoneyPostings() []Posting { return e.Postings }

// Journal line types of the placement.
const (
	LinePlacementFreeze   = "placement_freeze"   // the application's amount frozen
	LinePlacementPayment  = "placement_payment"  // the allotted shares paid from it
	LinePlacementRefund   = "placement_refund"   // the unallotted part back to available cash
	LinePlacementDelivery = "placement_delivery" // the allotted shares arriving on the listing date
)

func init() {
	register(PlacementOffered{}, 1, nil)
	register(PlacementSeedCommitted{}, 1, nil)
	register(PlacementApplied{}, 1, nil)
	register(PlacementAllotmentRequested{}, 1, nil)
	register(PlacementAllotted{}, 1, nil)
	register(PlacementSettled{}, 1, nil)
	register(PlacementDelivered{}, 1, nil)
	DeclareLineTypes(LinePlacementFreeze, LinePlacementPayment, LinePlacementRefund, LinePlacementDelivery)
}

// OrderLabel names the placement's security on the application's lines.
func (e PlacementApplied) OrderLabel() (orderNo, instrument, label string) {
	return e.ApplicationNo, e.Symbol, e.Name
}

func (e PlacementApplied) JournalLines() []JournalLine {
	return freezeLine(LinePlacementFreeze, e.ApplicationNo, e.Postings, e.Amount, map[string]string{"placementId": e.PlacementID,
		"lots": strconv.FormatInt(e.Lots, 10)})
}

func (e PlacementSettled) JournalLines() []JournalLine {
	// The whole amount was frozen: nothing is paid from available cash (a payment line if it were).
	return e.lines(LinePlacementPayment, LinePlacementPayment, LinePlacementRefund)
}

func (e PlacementDelivered) JournalLines() []JournalLine { return e.line(LinePlacementDelivery) }
