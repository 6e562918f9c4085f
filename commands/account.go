package commands

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/money"
	"github.com/lotbook/lotbook/commands/rules/window"
	"github.com/lotbook/lotbook/events"
)

// accountState is the account aggregate (stream account-<id>): the member's deposits and cash
// per currency, computed from the postings of the stream's money events.
type accountState struct {
	memberID  string
	available string // ledger account names of this member
	frozen    string
	deposits  map[string]*reviewOrder
	proofs    map[string]string // proof file id -> the order number of the deposit it backs
	balances  map[string]Balance
	funds     // withdrawals, exchange quotes, credit score (funds.go)
	trading   // orders, positions, unsettled proceeds (trading.go)
}

// reviewOrder is a deposit or withdrawal awaiting (or past) ops review.
type reviewOrder struct {
	currency string
	amount   decimal.Decimal
	status   string
}

func newAccountState(memberID string) *accountState {
	return &accountState{
		memberID:  memberID,
		available: events.MemberAvailable(memberID),
		frozen:    events.MemberFrozen(memberID),
		deposits:  map[string]*reviewOrder{},
		proofs:    map[string]string{},
		balances:  map[string]Balance{},
		funds:     newFunds(),
		trading:   newTrading(),
	}
}

func (a *accountState) apply(r events.RecordedEvent, p events.Payload) {
	a.applyFunds(r, p)
	a.applyTrading(r, p)
	switch e := p.(type) {
	case events.DepositRequested:
		a.deposits[e.OrderNo] = &reviewOrder{currency: e.Currency, amount: e.Amount, status: events.ReviewPending}
		if e.ProofFileID != "" {
			a.proofs[e.ProofFileID] = e.OrderNo
		}
	case events.DepositApproved:
		if d := a.deposits[e.OrderNo]; d != nil {
			d.status = events.ReviewApproved
		}
	case events.DepositRejected:
		if d := a.deposits[e.OrderNo]; d != nil {
			d.status = events.ReviewRejected
		}
	}
	if m, ok := p.(events.MovesMoney); ok {
		for _, leg := range m.MoneyPostings() {
			b := a.balances[leg.Currency]
			switch leg.Account {
			case a.available:
				b.Available = b.Available.Add(leg.Amount)
			case a.frozen:
				b.Frozen = b.Frozen.Add(leg.Amount)
			default:
				continue
			}
			a.balances[leg.Currency] = b
		}
	}
}

func (a *accountState) snapshot() any {
	out := make(map[string]Balance, len(a.balances))
	for c, b := range a.balances {
		out[c] = b
	}
	return out
}

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
	channelPassword verifier
}

// decideDepositRequest applies the spec's deposit rules in this order: the member's state, the
// channel, the amount and its limits, the time window, the proof, the channel password.
func decideDepositRequest(a *accountState, r depositRequest) ([]events.Payload, error) {
	switch {
	case !r.member.registered:
		return nil, notFound(KeyAccountNotExist)
	case r.member.disabled:
		return nil, forbidden(KeyAccountDisabled)
	case r.member.frozen:
		return nil, forbidden(KeyAccountFrozen)
	}
	ch := r.channel
	if ch == nil {
		return nil, notFound(KeyChannelNotFound)
	}
	if !ch.Enabled {
		return nil, rule(KeyChannelClosed)
	}
	amount, err := money.ParseAmount(r.in.Amount, ch.Currency)
	if err != nil {
		return nil, invalid(err.Error())
	}
	if amount.LessThan(ch.Min) {
		return nil, rule(KeyAmountBelowMinimum)
	}
	if amount.GreaterThan(ch.Max) {
		return nil, rule(KeyAmountAboveMaximum)
	}
	if !window.Open(ch.Window, r.now, r.cal) {
		return nil, rule(KeyDepositWindowClosed)
	}
	if r.in.ProofFileID == "" {
		return nil, invalid(KeyDepositProofRequired)
	}
	if !r.member.ownsProof {
		return nil, notFound(KeyFileNotFound)
	}
	if a.proofBacksDeposit(r.in.ProofFileID) {
		return nil, rule(KeyDepositProofUsed)
	}
	if ch.PasswordHash != "" && !r.channelPassword(ch.PasswordHash, r.in.ChannelPassword) {
		return nil, rule(KeyChannelPasswordWrong)
	}
	orderNo := a.freeOrderNo(r.orderNo)
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
func (a *accountState) proofBacksDeposit(fileID string) bool {
	no, ok := a.proofs[fileID]
	return ok && a.deposits[no].status != events.ReviewRejected
}

// pendingOrder finds a deposit or withdrawal among orders that can still be reviewed.
func pendingOrder(orders map[string]*reviewOrder, orderNo string) (*reviewOrder, error) {
	o := orders[orderNo]
	if o == nil {
		return nil, notFound(KeyOrderNotFound)
	}
	if o.status != events.ReviewPending {
		return nil, rule(KeyOrderNotPending)
	}
	return o, nil
}

// decideApproveDeposit credits the member from bank clearing.
func decideApproveDeposit(a *accountState, orderNo, remark string) ([]events.Payload, error) {
	d, err := pendingOrder(a.deposits, orderNo)
	if err != nil {
		return nil, err
	}
	postings := events.Transfer(events.HouseBankClearing, a.available, d.currency, d.amount)
	if err := events.CheckBalanced(postings); err != nil {
		return nil, unavailable(fmt.Errorf("deposit %s: %w", orderNo, err))
	}
	return []events.Payload{events.DepositApproved{
		OrderNo: orderNo, Currency: d.currency, Amount: d.amount, Remark: remark, Postings: postings,
	}}, nil
}

// decideRejectDeposit closes the deposit without moving money; the remark tells the member why.
func decideRejectDeposit(a *accountState, orderNo, remark string) ([]events.Payload, error) {
	if _, err := pendingOrder(a.deposits, orderNo); err != nil {
		return nil, err
	}
	return []events.Payload{events.DepositRejected{OrderNo: orderNo, Remark: remark}}, nil
}

// depositOrderNo is the n-th candidate order number of a deposit command: "D", the date in
// Asia/Taipei, and 16 digits derived from the member and the command id. Deterministic, so a
// retried command proposes the same number; 10^16 numbers a day make a collision between
// members negligible, and within one account the next candidate is taken.
func depositOrderNo(memberID, commandID string, day time.Time, n int) string {
	return orderNumber("D", memberID, commandID, day, n)
}

// orderNumber is depositOrderNo's scheme under another prefix (W withdrawals, X exchanges).
func orderNumber(prefix, memberID, commandID string, day time.Time, n int) string {
	sum := sha256.Sum256([]byte(memberID + "\x00" + commandID + "\x00" + fmt.Sprint(n)))
	x := binary.BigEndian.Uint64(sum[:8]) % 10_000_000_000_000_000
	return fmt.Sprintf("%s%s%016d", prefix, day.In(taipei).Format("20060102"), x)
}

// freeOrderNo is the first candidate order number no order of this account holds yet.
func (a *accountState) freeOrderNo(candidate func(n int) string) string {
	for n := 0; ; n++ {
		no := candidate(n)
		if a.deposits[no] == nil && a.withdrawals[no] == nil && !a.exchanges[no] && a.orders[no] == nil {
			return no
		}
	}
}

// remarkLimit bounds an ops remark (characters).
const remarkLimit = 500

func cleanRemark(s string) (string, *Error) {
	s = strings.TrimSpace(s)
	if len([]rune(s)) > remarkLimit {
		return "", invalid(KeyInvalidRequest)
	}
	return s, nil
}
