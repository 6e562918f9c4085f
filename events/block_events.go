package events

import (
	"strconv"
	"time"

	"github.com/shopspring/decimal"
)

// Block trade (鉅額交易, agreement bidding): ops list a block of a security at a price fixed when
// it is listed (given, or a premium rate on the market feed's reference price); members apply for
// lots at a bid not below it, which freezes their cash on their account stream; ops approve an
// application, which fills it at the listed price into a holding, or reject it, which unfreezes.
//
// A block lives on its own stream (blocktrade-<id>); applications and their decisions live on
// the applicant's account stream, next to the cash they freeze, so that the daily cap per member
// and the decision on one application are serialised by one stream. The fill itself is trading's
// OrderPlaced (By block) and OrderFilled.v2 written with the approval: the holding is then a
// position like any other, sold through the trading screens, and its shares are on the share
// ledger.

// BlockStream holds one block's listing and closing.
func BlockStream(blockID string) string { return "blocktrade-" + blockID }

// OrderByBlock marks the order of an approved block application.
const OrderByBlock = "block"

// BlockListed opens a block for applications. Price is what every approved lot pays; when the
// listing gave a premium rate, Price is ReferencePrice × (1 + PremiumRate) rounded down to the
// block tick (commands/rules/blockprice) and both are kept, so an auditor can re-run it.
type BlockListed struct {
	BlockID        string          `json:"blockId"`
	Symbol         string          `json:"symbol"`
	Name           string          `json:"name"`
	Kind           string          `json:"kind"` // stock | etf | bond_etf: the fees of the fill
	ReferencePrice decimal.Decimal `json:"referencePrice"`
	PremiumRate    decimal.Decimal `json:"premiumRate"` // 0.02 is 2 % above the reference; zero when Price was given
	Price          decimal.Decimal `json:"price"`
	MinLots        int64           `json:"minLots"`
	DailyCapLots   int64           `json:"dailyCapLots"` // per member and Taipei day
	// PasswordHash is the argon2id hash of the block password given to invited members; empty
	// when the block is open to every member.
	PasswordHash string    `json:"passwordHash,omitempty"`
	OpensAt      time.Time `json:"opensAt"`
	ClosesAt     time.Time `json:"closesAt"`
	// TotalLots is the block's size: the lots the broker crosses at the exchange as one block
	// trade (1h: at least 500 units or NT$15 m), the most that approvals of all members fill.
	// Zero on blocks listed before the size was kept: no total.
	TotalLots int64 `json:"totalLots,omitempty"`
}

// BlockClosed stops applications to a block before its ClosesAt; pending applications stay to be
// reviewed.
type BlockClosed struct {
	BlockID string `json:"blockId"`
	Remark  string `json:"remark,omitempty"`
}

// BlockApplied is a member's application (account stream): lots at a bid not below the block's
// price, with the bid's amount and estimated commission frozen (available -> frozen).
type BlockApplied struct {
	OrderNo string          `json:"orderNo"`
	BlockID string          `json:"blockId"`
	Symbol  string          `json:"symbol"`
	Name    string          `json:"name"`
	Kind    string          `json:"kind"`
	Price   decimal.Decimal `json:"price"` // the block's price, what an approval fills at
	Bid     decimal.Decimal `json:"bid"`
	Lots    int64           `json:"lots"`
	Shares  int64           `json:"shares"`
	Day     string          `json:"day"` // YYYY-MM-DD in Asia/Taipei: the day the daily cap counts it on
	Amount  decimal.Decimal `json:"amount"`
	// Postings freeze Amount.
	Postings []Posting `json:"postings"`
}

// BlockApplicationApproved records ops' approval: it unfreezes the application's whole amount
// (frozen -> available), and the OrderPlaced and OrderFilled written right after it (under the
// application's order number) pay the fill at the block's price from available. The member's
// records then show the freeze given back and the fill's trade and fee lines, which add up to
// what the application cost.
type BlockApplicationApproved struct {
	OrderNo  string          `json:"orderNo"`
	BlockID  string          `json:"blockId"`
	Lots     int64           `json:"lots"`
	Price    decimal.Decimal `json:"price"`
	Released decimal.Decimal `json:"released"`
	Remark   string          `json:"remark,omitempty"`
	Postings []Posting       `json:"postings"`
}

// BlockApplicationRejected records ops' rejection; the frozen amount goes back (frozen ->
// available).
type BlockApplicationRejected struct {
	OrderNo  string          `json:"orderNo"`
	BlockID  string          `json:"blockId"`
	Released decimal.Decimal `json:"released"`
	Remark   string          `json:"remark"`
	Postings []Posting       `json:"postings"`
}

// BlockLotsTaken (block stream) takes an application's lots out of the block's total before ops'
// approval fills it on the member's account stream: approvals of several members are serialised
// on the block, so that they never fill more than its total. RemainingLots is what is left.
type BlockLotsTaken struct {
	BlockID       string `json:"blockId"`
	OrderNo       string `json:"orderNo"`
	MemberID      string `json:"memberId"`
	Lots          int64  `json:"lots"`
	RemainingLots int64  `json:"remainingLots"`
}

// BlockLotsReturned (block stream) gives back the lots taken for an application that was not
// filled after all (rejected before the approval that took them reached the account).
type BlockLotsReturned struct {
	BlockID       string `json:"blockId"`
	OrderNo       string `json:"orderNo"`
	Lots          int64  `json:"lots"`
	RemainingLots int64  `json:"remainingLots"`
}

// BlockPasswordRejected (account stream) records a wrong block password. Attempt counts the
// member's wrong passwords for the block on Day (Asia/Taipei), this one included; at
// BlockPasswordTries the member is refused that block until the next Taipei day.
type BlockPasswordRejected struct {
	BlockID string `json:"blockId"`
	Day     string `json:"day"`
	Attempt int    `json:"attempt"`
}

// BlockPasswordTries is how many wrong block passwords lock a member out of a block for the day.
const BlockPasswordTries = 5

func (BlockLotsTaken) EventName() string        { return "BlockLotsTaken" }
func (BlockLotsReturned) EventName() string     { return "BlockLotsReturned" }
func (BlockPasswordRejected) EventName() string { return "BlockPasswordRejected" }

func (BlockListed) EventName() string              { return "BlockListed" }
func (BlockClosed) EventName() string              { return "BlockClosed" }
func (BlockApplied) EventName() string             { return "BlockApplied" }
func (BlockApplicationApproved) EventName() string { return "BlockApplicationApproved" }
func (BlockApplicationRejected) EventName() string { return "BlockApplicationRejected" }

func (e BlockApplied) MoneyPostings() []Posting             { return e.Postings }
func (e BlockApplicationApproved) MoneyPostings() []Posting { return e.Postings }
func (e BlockApplicationRejected) MoneyPostings() []Posting { return e.Postings }

// Journal line types of block trades: the application's freeze (its status follows the review)
// and what a decision gives back. The fill's lines are trading's (trade, fee).
const (
	LineBlock    = "block"
	LineUnfreeze = "unfreeze"
)

// OrderLabel names the block's security on the application's lines and on the fill's.
func (e BlockApplied) OrderLabel() (orderNo, instrument, label string) {
	return e.OrderNo, e.Symbol, e.Name
}

// JournalLines is the frozen amount, pending review.
func (e BlockApplied) JournalLines() []JournalLine {
	return []JournalLine{{Key: e.OrderNo, Type: LineBlock, OrderNo: e.OrderNo, Asset: "TWD", Amount: e.Amount,
		Account: KindFrozen.Name, Status: ReviewPending,
		Details: map[string]string{"blockId": e.BlockID, "price": e.Price.String(), "bid": e.Bid.String(), "lots": strconv.FormatInt(e.Lots, 10)}}}
}

// JournalLines approve the application's line and give its frozen amount back for the fill.
func (e BlockApplicationApproved) JournalLines() []JournalLine {
	return append([]JournalLine{{Key: e.OrderNo, Status: ReviewApproved, Remark: e.Remark}}, unfreezeLine(e.OrderNo, e.Released)...)
}

// JournalLines reject the application's line and give the frozen amount back.
func (e BlockApplicationRejected) JournalLines() []JournalLine {
	return append([]JournalLine{{Key: e.OrderNo, Status: ReviewRejected, Remark: e.Remark}}, unfreezeLine(e.OrderNo, e.Released)...)
}

// unfreezeLine is the line of cash given back to available (none when nothing is).
func unfreezeLine(orderNo string, amount decimal.Decimal) []JournalLine {
	if !amount.IsPositive() {
		return nil
	}
	return []JournalLine{{Type: LineUnfreeze, OrderNo: orderNo, Asset: "TWD", Amount: amount, Account: KindAvailable.Name,
		Status: LineCompleted}}
}

func init() {
	DeclareLineTypes(LineBlock, LineUnfreeze)
	register(BlockListed{}, 1, nil)
	register(BlockClosed{}, 1, nil)
	register(BlockApplied{}, 1, nil)
	register(BlockApplicationApproved{}, 1, nil)
	register(BlockApplicationRejected{}, 1, nil)
	register(BlockLotsTaken{}, 1, nil)
	register(BlockLotsReturned{}, 1, nil)
	register(BlockPasswordRejected{}, 1, nil)
}
