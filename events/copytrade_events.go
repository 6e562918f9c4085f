package events

import (
	"github.com/shopspring/decimal"
)

// Copy trading of mentors (跟單), on the account streams of the mentor and of the follower.
//
// A member opts in as a mentor (MentorProfileSet on the mentor's own account stream): a display
// name, the minimum a follower commits, the longest follow window in days and a disclosed profit
// share. A follower commits an amount to a mentor (FollowStarted on the follower's stream): it is
// held from available cash in the follower's frozen cash. Each mentor fill is mirrored by the
// copy-trade process: CopyFundsSpent moves the part of the commitment an order needs back to
// available cash, and an ordinary order (trading's OrderPlaced, its Origin the follow) reserves
// it again; a refused order gives it back (CopyFundsReturned). A stop or the window's end is
// recorded first (FollowStopRequested: the mirror spends and reclaims nothing more for it), then its
// working orders are cancelled and, when asked, its positions closed, and then FollowStopped
// releases what is left of the commitment; a disclosed share of a positive copy
// profit goes from the follower to the platform's transit account (in the same FollowStopped) and
// from there to the mentor (ProfitShareReceived on the mentor's stream, sent by the process).

// HouseCopyProfitShare holds profit shares charged to followers until the mentor is paid.
var HouseCopyProfitShare = HouseAccount("copy_profit_share")

// Follow states.
const (
	FollowInProgress = "in_progress"
	FollowStopping   = "stopping"  // a stop is under way: orders cancelled, positions closed, then stopped
	FollowEnded      = "ended"     // the window ended
	FollowCancelled  = "cancelled" // stopped by the follower
)

// FollowLive tells whether a follow in state holds a commitment not yet released (in progress, or
// stopping).
func FollowLive(state string) bool { return state == FollowInProgress || state == FollowStopping }

// MentorProfileSet opts the member in as a mentor, or changes the profile (later follows take it).
type MentorProfileSet struct {
	DisplayName string          `json:"displayName"`
	MinAmount   decimal.Decimal `json:"minAmount"`   // NT$, the least a follower commits
	WindowDays  int             `json:"windowDays"`  // the longest follow, in days
	ProfitShare decimal.Decimal `json:"profitShare"` // percent of a positive copy profit, 0 to the published cap
}

// FollowStarted commits Amount of the follower's available cash to the mentor until Ends.
type FollowStarted struct {
	FollowID    string          `json:"followId"`
	MentorID    string          `json:"mentorId"`
	MentorName  string          `json:"mentorName"`
	Amount      decimal.Decimal `json:"amount"`
	ProfitShare decimal.Decimal `json:"profitShare"` // percent, as the mentor disclosed it at the follow
	Days        int             `json:"days"`
	Ends        string          `json:"ends"` // RFC 3339 UTC: the window's end
	Postings    []Posting       `json:"postings"`
}

// CopyFundsSpent takes Amount of a follow's commitment back to available cash for one mirrored
// order of Shares at Price (Ref names the mentor fill it mirrors): a buy's cost, or for a short
// sale (Direction short; empty before shorts were mirrored: a buy) its margin.
type CopyFundsSpent struct {
	FollowID  string          `json:"followId"`
	Ref       string          `json:"ref"`
	Symbol    string          `json:"symbol"`
	Direction string          `json:"direction,omitempty"`
	Shares    int64           `json:"shares"`
	Price     decimal.Decimal `json:"price"`
	Amount    decimal.Decimal `json:"amount"`
	Postings  []Posting       `json:"postings"`
}

// CopyFundsReturned puts a spend back into the commitment when its order was refused (Reason the
// refusal's message key, and the refused order's Symbol, Direction and Shares so the follower
// sees what was refused and why; empty before they were recorded), or the cash a mirrored order
// gave back to available cash while the follow was in progress (Reason CopyReturnOrderDone: a done
// order's unused reservation; CopyReturnSold: a sale's proceeds, or a cover's released margin and
// profit, net of commission and tax), so the copy keeps trading with the follower's money.
type CopyFundsReturned struct {
	FollowID  string          `json:"followId"`
	Ref       string          `json:"ref"`
	Amount    decimal.Decimal `json:"amount"`
	Reason    string          `json:"reason"`
	Symbol    string          `json:"symbol,omitempty"`
	Direction string          `json:"direction,omitempty"`
	Shares    int64           `json:"shares,omitempty"`
	Postings  []Posting       `json:"postings"`
}

// Why a mirrored order's cash went back into its follow's commitment (CopyFundsReturned).
const (
	CopyReturnOrderDone = "order_done"
	CopyReturnSold      = "sold"
)

// FollowStopRequested starts a follow's stop (the follower's, or the window's end): from here
// on the follow spends nothing more and takes nothing back into its commitment, so what its
// cancelled orders and closing sales give back stays available cash, whenever the mirror hears
// of them; FollowStopped then releases the commitment as it stood. ClosePositions is the
// follower's choice.
type FollowStopRequested struct {
	FollowID       string `json:"followId"`
	ClosePositions bool   `json:"closePositions"`
}

// FollowStopped ends a follow: State cancelled (the follower stopped it) or ended (its window
// ended). Released is the unspent commitment back to available cash; Profit the copy profit
// realised by the follow's orders; Share the profit share charged for the mentor.
type FollowStopped struct {
	FollowID       string          `json:"followId"`
	MentorID       string          `json:"mentorId"`
	State          string          `json:"state"`
	ClosePositions bool            `json:"closePositions"`
	Released       decimal.Decimal `json:"released"`
	Profit         decimal.Decimal `json:"profit"`
	Share          decimal.Decimal `json:"share"`
	Postings       []Posting       `json:"postings"`
}

// ProfitShareReceived pays a follow's profit share to the mentor.
type ProfitShareReceived struct {
	FollowID   string          `json:"followId"`
	FollowerID string          `json:"followerId"`
	Amount     decimal.Decimal `json:"amount"`
	Postings   []Posting       `json:"postings"`
}

func (MentorProfileSet) EventName() string    { return "MentorProfileSet" }
func (FollowStarted) EventName() string       { return "FollowStarted" }
func (CopyFundsSpent) EventName() string      { return "CopyFundsSpent" }
func (CopyFundsReturned) EventName() string   { return "CopyFundsReturned" }
func (FollowStopped) EventName() string       { return "FollowStopped" }
func (FollowStopRequested) EventName() string { return "FollowStopRequested" }
func (ProfitShareReceived) EventName() string { return "ProfitShareReceived" }

func (e FollowStarted) MoneyPostings() []Posting       { return e.Postings }
func (e CopyFundsSpent) MoneyPostings() []Posting      { return e.Postings }
func (e CopyFundsReturned) MoneyPostings() []Posting   { return e.Postings }
func (e FollowStopped) MoneyPostings() []Posting       { return e.Postings }
func (e ProfitShareReceived) MoneyPostings() []Posting { return e.Postings }

// Journal line types of copy trading.
const (
	LineCopyFollow      = "copy_follow"       // the commitment held from available cash
	LineCopySpend       = "copy_spend"        // part of the commitment back to available for a mirrored order
	LineCopyReturn      = "copy_return"       // cash back into the commitment: a refused order's part, a done order's rest, a sale's proceeds
	LineCopyRelease     = "copy_release"      // the unspent commitment released at the stop or end
	LineCopyShare       = "copy_profit_share" // the profit share paid by the follower
	LineCopyShareIncome = "copy_share_income" // the profit share received by the mentor
)

// FollowPostings hold amount of memberID's available cash as frozen (or release it: back).
func FollowPostings(memberID, currency string, amount decimal.Decimal, back bool) []Posting {
	if back {
		return Transfer(MemberFrozen(memberID), MemberAvailable(memberID), currency, amount)
	}
	return Transfer(MemberAvailable(memberID), MemberFrozen(memberID), currency, amount)
}

// StopPostings release the unspent commitment and charge share to the follower.
func StopPostings(memberID, currency string, released, share decimal.Decimal) []Posting {
	var out []Posting
	if released.IsPositive() {
		out = append(out, FollowPostings(memberID, currency, released, true)...)
	}
	if share.IsPositive() {
		out = append(out, Transfer(MemberAvailable(memberID), HouseCopyProfitShare, currency, share)...)
	}
	return out
}

// ShareIncomePostings pay amount from the transit account to the mentor.
func ShareIncomePostings(mentorID, currency string, amount decimal.Decimal) []Posting {
	return Transfer(HouseCopyProfitShare, MemberAvailable(mentorID), currency, amount)
}

func (e MentorProfileSet) JournalLines() []JournalLine { return nil }

func (e FollowStarted) JournalLines() []JournalLine {
	return []JournalLine{{Type: LineCopyFollow, OrderNo: e.FollowID, Asset: currencyOf(e.Postings), Amount: e.Amount.Neg(),
		Account: KindAvailable.Name, Status: LineCompleted, Remark: e.MentorName}}
}

func (e CopyFundsSpent) JournalLines() []JournalLine {
	return []JournalLine{{Type: LineCopySpend, OrderNo: e.FollowID, Asset: currencyOf(e.Postings), Amount: e.Amount,
		Account: KindAvailable.Name, Status: LineCompleted, Instrument: e.Symbol}}
}

func (e CopyFundsReturned) JournalLines() []JournalLine {
	return []JournalLine{{Type: LineCopyReturn, OrderNo: e.FollowID, Asset: currencyOf(e.Postings), Amount: e.Amount.Neg(),
		Account: KindAvailable.Name, Status: LineCompleted}}
}

func (e FollowStopped) JournalLines() []JournalLine {
	c := currencyOf(e.Postings)
	return nonZeroLines(
		JournalLine{Type: LineCopyRelease, OrderNo: e.FollowID, Asset: c, Amount: e.Released, Account: KindAvailable.Name, Status: LineCompleted},
		JournalLine{Type: LineCopyShare, OrderNo: e.FollowID, Asset: c, Amount: e.Share.Neg(), Account: KindAvailable.Name, Status: LineCompleted,
			Details: map[string]string{"profit": e.Profit.String()}},
	)
}

func (e ProfitShareReceived) JournalLines() []JournalLine {
	return []JournalLine{{Type: LineCopyShareIncome, OrderNo: e.FollowID, Asset: currencyOf(e.Postings), Amount: e.Amount,
		Account: KindAvailable.Name, Status: LineCompleted}}
}

func init() {
	DeclareLineTypes(LineCopyFollow, LineCopySpend, LineCopyReturn, LineCopyRelease, LineCopyShare, LineCopyShareIncome)
	register(MentorProfileSet{}, 1, nil)
	register(FollowStarted{}, 1, nil)
	register(CopyFundsSpent{}, 1, nil)
	register(CopyFundsReturned{}, 1, nil)
	register(FollowStopRequested{}, 1, nil)
	register(FollowStopped{}, 1, nil)
	register(ProfitShareReceived{}, 1, nil)
}
