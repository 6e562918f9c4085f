package events

import (
	"strconv"
	"time"

	"github.com/shopspring/decimal"
)

// Chip grabbing (搶籌): ops offer a quota of lots of a security at a fixed price; members take
// lots first come, first served until the quota is gone ("quota insufficient"); the lots taken are
// paid for by cash frozen on the member's account and, when ops allot the offering, filled into a
// holding at the offering's price.
//
// The quota is on the offering's stream (chipgrab-<id>): every claim is an append there with the
// expected version, so two members can never both take the last lots. The member's cash is frozen
// on the member's account stream by a second command whose id is derived from the claim; when
// the member cannot pay, a third, also derived, gives the lots back to the quota. The process
// manager commands/chipgrab/allot runs the second and third steps for every claim (so a claim
// whose request died half way is finished) and the allotment.

// ChipGrabStream holds one offering: its quota and every claim on it.
func ChipGrabStream(offeringID string) string { return "chipgrab-" + offeringID }

// OrderByChipGrab marks the order of an allotted chip grab claim.
const OrderByChipGrab = "chipgrab"

// ChipGrabOffered opens an offering.
type ChipGrabOffered struct {
	OfferingID       string          `json:"offeringId"`
	Symbol           string          `json:"symbol"`
	Name             string          `json:"name"`
	Kind             string          `json:"kind"`
	Price            decimal.Decimal `json:"price"`
	QuotaLots        int64           `json:"quotaLots"`
	MaxLotsPerMember int64           `json:"maxLotsPerMember"`
	OpensAt          time.Time       `json:"opensAt"`
	ClosesAt         time.Time       `json:"closesAt"`
}

// ChipGrabClaimed takes lots of the quota for a member (offering stream). RemainingLots is the
// quota left after it.
type ChipGrabClaimed struct {
	OfferingID     string `json:"offeringId"`
	OrderNo        string `json:"orderNo"`
	MemberID       string `json:"memberId"`
	Lots           int64  `json:"lots"`
	RemainingLots  int64  `json:"remainingLots"`
	RequestCommand string `json:"requestCommand"` // the claim's command id: the later steps derive theirs from it
}

// ChipGrabClaimReleased gives a claim's lots back to the quota: the member could not pay.
type ChipGrabClaimReleased struct {
	OfferingID    string `json:"offeringId"`
	OrderNo       string `json:"orderNo"`
	MemberID      string `json:"memberId"`
	Lots          int64  `json:"lots"`
	RemainingLots int64  `json:"remainingLots"`
	Reason        string `json:"reason"`
}

// ChipGrabAllotmentStarted closes the offering to claims and starts the allotment of every
// paid claim.
type ChipGrabAllotmentStarted struct {
	OfferingID string `json:"offeringId"`
}

// ChipGrabFrozen freezes a claim's price, lots and estimated commission on the member's account
// (available -> frozen).
type ChipGrabFrozen struct {
	OrderNo    string          `json:"orderNo"`
	OfferingID string          `json:"offeringId"`
	Symbol     string          `json:"symbol"`
	Name       string          `json:"name"`
	Kind       string          `json:"kind"`
	Price      decimal.Decimal `json:"price"`
	Lots       int64           `json:"lots"`
	Shares     int64           `json:"shares"`
	Amount     decimal.Decimal `json:"amount"`
	Postings   []Posting       `json:"postings"`
}

// ChipGrabFreezeRefused records that a claim could not be paid for (account stream); its lots go
// back to the quota.
type ChipGrabFreezeRefused struct {
	OrderNo    string `json:"orderNo"`
	OfferingID string `json:"offeringId"`
	Reason     string `json:"reason"`
}

// ChipGrabAllotted fills a frozen claim: it unfreezes the claim's amount (frozen -> available)
// and the OrderPlaced and OrderFilled written right after it pay the fill from available.
type ChipGrabAllotted struct {
	OrderNo    string          `json:"orderNo"`
	OfferingID string          `json:"offeringId"`
	Lots       int64           `json:"lots"`
	Price      decimal.Decimal `json:"price"`
	Released   decimal.Decimal `json:"released"`
	Postings   []Posting       `json:"postings"`
}

func (ChipGrabOffered) EventName() string          { return "ChipGrabOffered" }
func (ChipGrabClaimed) EventName() string          { return "ChipGrabClaimed" }
func (ChipGrabClaimReleased) EventName() string    { return "ChipGrabClaimReleased" }
func (ChipGrabAllotmentStarted) EventName() string { return "ChipGrabAllotmentStarted" }
func (ChipGrabFrozen) EventName() string           { return "ChipGrabFrozen" }
func (ChipGrabFreezeRefused) EventName() string    { return "ChipGrabFreezeRefused" }
func (ChipGrabAllotted) EventName() string         { return "ChipGrabAllotted" }

func (e ChipGrabFrozen) MoneyPostings() []Posting   { return e.Postings }
func (e ChipGrabAllotted) MoneyPostings() []Posting { return e.Postings }

// LineChipGrab is the journal line of a claim's frozen cash; its status turns allotted.
const LineChipGrab = "chipgrab"

// StatusAllotted is the status of a chip grab line once the claim is filled.
const StatusAllotted = "allotted"

// OrderLabel names the offering's security on the claim's lines and on the fill's.
func (e ChipGrabFrozen) OrderLabel() (orderNo, instrument, label string) {
	return e.OrderNo, e.Symbol, e.Name
}

// JournalLines is the frozen amount, pending allotment.
func (e ChipGrabFrozen) JournalLines() []JournalLine {
	return []JournalLine{{Key: e.OrderNo, Type: LineChipGrab, OrderNo: e.OrderNo, Asset: "TWD", Amount: e.Amount,
		Account: KindFrozen.Name, Status: ReviewPending,
		Details: map[string]string{"offeringId": e.OfferingID, "lots": strconv.FormatInt(e.Lots, 10)}}}
}

// JournalLines mark the claim allotted and give its frozen amount back for the fill.
func (e ChipGrabAllotted) JournalLines() []JournalLine {
	return append([]JournalLine{{Key: e.OrderNo, Status: StatusAllotted}}, unfreezeLine(e.OrderNo, e.Released)...)
}

func init() {
	DeclareLineTypes(LineChipGrab)
	register(ChipGrabOffered{}, 1, nil)
	register(ChipGrabClaimed{}, 1, nil)
	register(ChipGrabClaimReleased{}, 1, nil)
	register(ChipGrabAllotmentStarted{}, 1, nil)
	register(ChipGrabFrozen{}, 1, nil)
	register(ChipGrabFreezeRefused{}, 1, nil)
	register(ChipGrabAllotted{}, 1, nil)
}
