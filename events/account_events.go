package events

import "github.com/shopspring/decimal"

// Review states shared by deposits (and later withdrawals and loans).
const (
	ReviewPending  = "pending"
	ReviewApproved = "approved"
	ReviewRejected = "rejected"
)

// DepositRequested records a member's deposit with its proof; it moves no money until approved.
type DepositRequested struct {
	OrderNo     string          `json:"orderNo"`
	ChannelID   string          `json:"channelId"`
	ChannelName string          `json:"channelName"`
	Currency    string          `json:"currency"`
	Amount      decimal.Decimal `json:"amount"`
	ProofFileID string          `json:"proofFileId"`
}

// DepositApproved credits the member from bank clearing.
type DepositApproved struct {
	OrderNo  string          `json:"orderNo"`
	Currency string          `json:"currency"`
	Amount   decimal.Decimal `json:"amount"`
	Remark   string          `json:"remark,omitempty"`
	Postings []Posting       `json:"postings"`
}

// DepositRejected closes a deposit request without moving money.
type DepositRejected struct {
	OrderNo string `json:"orderNo"`
	Remark  string `json:"remark"`
}

func (DepositRequested) EventName() string         { return "DepositRequested" }
func (DepositApproved) EventName() string          { return "DepositApproved" }
func (DepositRejected) EventName() string          { return "DepositRejected" }
func (e DepositApproved) MoneyPostings() []Posting { return e.Postings }

func init() {
	register(DepositRequested{}, 1, nil)
	register(DepositApproved{}, 1, nil)
	register(DepositRejected{}, 1, nil)
}
