package funds

import (
	"fmt"
	"time"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/window"
	"github.com/lotbook/lotbook/events"
)

// Deposits: the decisions of the funds part (funds.go) on deposit requests and their review.

// memberFacts are what a deposit needs to know from the member stream.
type memberFacts struct {
	registered bool
	disabled   bool
	frozen     bool
	ownsProof  bool
}

// depositRequest is a deposit with everything its decision needs from other streams.
type depositRequest struct {
	in      DepositInput
	member  memberFacts
	channel *events.DepositChannelConfigured // nil when the channel does not exist
	now     time.Time
	cal     window.Calendar
	orderNo func(n int) string // the n-th candidate order number
	// channelPassword checks the given password against the channel's stored hash.
	channelPassword commands.Verifier
}

// decideDepositRequest applies the spec's deposit rules in this order: the member's state, the
// channel, the amount and its limits, the time window, the proof, the channel password.
func decideDepositRequest(a *commands.Account, r depositRequest) ([]events.Payload, error) {
	switch {
	case !r.member.registered:
		return nil, commands.NotFound(commands.KeyAccountNotExist)
	case r.member.disabled:
		return nil, commands.Forbidden(commands.KeyAccountDisabled)
	case r.member.frozen:
		return nil, commands.Forbidden(commands.KeyAccountFrozen)
	}
	ch := r.channel
	if ch == nil {
		return nil, commands.NotFound(commands.KeyChannelNotFound)
	}
	if !ch.Enabled {
		return nil, commands.Rule(commands.KeyChannelClosed)
	}
	amount, err := channelAmount(r.in.Amount, ch.Currency, ch.Min, ch.Max)
	if err != nil {
		return nil, err
	}
	if !window.Open(ch.Window, r.now, r.cal) {
		return nil, commands.Rule(commands.KeyDepositWindowClosed)
	}
	if r.in.ProofFileID == "" {
		return nil, commands.Invalid(commands.KeyDepositProofRequired)
	}
	if !r.member.ownsProof {
		return nil, commands.NotFound(commands.KeyFileNotFound)
	}
	if fundsPart.Of(a).proofBacksDeposit(r.in.ProofFileID) {
		return nil, commands.Rule(commands.KeyDepositProofUsed)
	}
	if ch.PasswordHash != "" && !r.channelPassword(ch.PasswordHash, r.in.ChannelPassword) {
		return nil, commands.Rule(commands.KeyChannelPasswordWrong)
	}
	orderNo := a.FreeOrderNo(r.orderNo)
	return []events.Payload{events.DepositRequested{
		OrderNo:     orderNo,
		ChannelID:   ch.ID,
		ChannelName: ch.Name,
		Currency:    ch.Currency,
		Amount:      amount,
		ProofFileID: r.in.ProofFileID,
	}}, nil
}

// proofBacksDeposit tells whether a pending or approved deposit of this account names the file
// as its proof. One transfer receipt backs one deposit; after a rejection (a mistyped amount,
// say) the member may name the same receipt again.
func (f *funds) proofBacksDeposit(fileID string) bool {
	no, ok := f.proofs[fileID]
	return ok && f.deposits[no].status != events.ReviewRejected
}

// pendingOrder finds a deposit or withdrawal among orders that can still be reviewed.
func pendingOrder(orders map[string]*reviewOrder, orderNo string) (*reviewOrder, error) {
	o := orders[orderNo]
	if o == nil {
		return nil, commands.NotFound(commands.KeyOrderNotFound)
	}
	if o.status != events.ReviewPending {
		return nil, commands.Rule(commands.KeyOrderNotPending)
	}
	return o, nil
}

// decideApproveDeposit credits the member from bank clearing.
func decideApproveDeposit(a *commands.Account, orderNo, remark string) ([]events.Payload, error) {
	d, err := pendingOrder(fundsPart.Of(a).deposits, orderNo)
	if err != nil {
		return nil, err
	}
	postings := events.Transfer(events.HouseBankClearing, a.Available, d.currency, d.amount)
	if err := events.CheckBalanced(postings); err != nil {
		return nil, commands.Unavailable(fmt.Errorf("deposit %s: %w", orderNo, err))
	}
	return []events.Payload{events.DepositApproved{
		OrderNo: orderNo, Currency: d.currency, Amount: d.amount, Remark: remark, Postings: postings,
	}}, nil
}

// decideRejectDeposit closes the deposit without moving money; the remark tells the member why.
func decideRejectDeposit(a *commands.Account, orderNo, remark string) ([]events.Payload, error) {
	if _, err := pendingOrder(fundsPart.Of(a).deposits, orderNo); err != nil {
		return nil, err
	}
	return []events.Payload{events.DepositRejected{OrderNo: orderNo, Remark: remark}}, nil
}

// depositOrderNo is the n-th candidate order number of a deposit command.
func depositOrderNo(memberID, commandID string, day time.Time, n int) string {
	return commands.OrderNumber(depositOrderPrefix, memberID, commandID, day, n)
}
