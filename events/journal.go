package events

import (
	"slices"
	"strconv"
	"sync"

	"github.com/shopspring/decimal"
)

// The journal is a member's money history as the member reads it (fund records) and the auditor
// lists it: one line per money line of an event. Each event says which lines it adds and how it
// labels them (JournalLines), so that the read side needs no edit when a capability arrives: it
// stores what the event says and serves it by type.

// JournalLine is one line of a member's money history.
type JournalLine struct {
	// Key names the line within the member's journal when a later event changes it (a deposit's
	// order number: the decision sets its status). Empty for lines no event changes later: the
	// journal keys them by position and leg.
	Key     string
	Type    string // what the line is: "deposit", "trade", "fee", ...; the web labels lines by type
	OrderNo string
	// Asset is the currency or security the amount is in; empty for lines that move no asset
	// (credit score points).
	Asset   string
	Amount  decimal.Decimal
	Account string // the kind of the member's account whose balance the line moves ("available"), if any
	Status  string
	Remark  string
	// Instrument is the security the line is about ("2330"); lines of an order that an
	// OrderLabeler named inherit it and, when they have none, its label as their remark.
	Instrument string
	// Details are labels of the capability shown with the line (channelName, bankName, rate,
	// settleDate, creditScore, ...), under the names the API gives them.
	Details map[string]string
}

// Journaled is implemented by every event that adds lines to the member's journal or, with a
// line of an existing Key, changes that line's status and remark. Every event that moves money
// implements it (a catalogue test holds this), if only to say it adds no line.
type Journaled interface {
	Payload
	JournalLines() []JournalLine
}

// Holder is implemented by events that move a member's frozen cash without a journal line
// naming why (a trading reservation and its release): ref is the order the hold is for, reason
// the journal line type its later lines carry. Other events' holds are named by their lines
// (projections/wallet.go).
type Holder interface {
	Payload
	HoldRef() (ref, reason string)
}

// OrderLabeler is implemented by events that open an order number: later lines of that order
// (fills, fees) carry its instrument and label.
type OrderLabeler interface {
	Payload
	OrderLabel() (orderNo, instrument, label string)
}

var lineTypes sync.Map // line type -> struct{}

// DeclareLineTypes registers the journal line types a capability writes: the fund records
// filter accepts them.
func DeclareLineTypes(types ...string) {
	for _, t := range types {
		lineTypes.Store(t, struct{}{})
	}
}

// LineTypes lists the declared journal line types, sorted.
func LineTypes() []string {
	var out []string
	lineTypes.Range(func(k, _ any) bool {
		out = append(out, k.(string))
		return true
	})
	slices.Sort(out)
	return out
}

// Journal line types of deposits, withdrawals, exchange and the credit score.
const (
	LineDeposit  = "deposit"
	LineWithdraw = "withdraw"
	LineExchange = "exchange"
	LineCredit   = "credit"
)

// LineCompleted is the status of lines that need no review.
const LineCompleted = "completed"

func init() { DeclareLineTypes(LineDeposit, LineWithdraw, LineExchange, LineCredit) }

func (e DepositRequested) JournalLines() []JournalLine {
	return []JournalLine{{Key: e.OrderNo, Type: LineDeposit, OrderNo: e.OrderNo, Asset: e.Currency, Amount: e.Amount,
		Account: KindAvailable.Name, Status: ReviewPending,
		Details: map[string]string{"channelName": e.ChannelName, "proofFileId": e.ProofFileID}}}
}

func (e DepositApproved) JournalLines() []JournalLine {
	return []JournalLine{{Key: e.OrderNo, Status: ReviewApproved, Remark: e.Remark}}
}

func (e DepositRejected) JournalLines() []JournalLine {
	return []JournalLine{{Key: e.OrderNo, Status: ReviewRejected, Remark: e.Remark}}
}

func (e WithdrawalRequested) JournalLines() []JournalLine {
	return []JournalLine{{Key: e.OrderNo, Type: LineWithdraw, OrderNo: e.OrderNo, Asset: e.Currency, Amount: e.Amount,
		Account: KindFrozen.Name, Status: ReviewPending,
		Details: map[string]string{"channelName": e.ChannelName, "bankName": e.BankName, "cardLast4": e.CardLast4}}}
}

func (e WithdrawalApproved) JournalLines() []JournalLine {
	return []JournalLine{{Key: e.OrderNo, Status: ReviewApproved, Remark: e.Remark}}
}

func (e WithdrawalRejected) JournalLines() []JournalLine {
	return []JournalLine{{Key: e.OrderNo, Status: ReviewRejected, Remark: e.Remark}}
}

// JournalLines are the two legs of an exchange, source first, under one order number.
func (e ExchangeExecuted) JournalLines() []JournalLine {
	rate := map[string]string{"rate": e.Rate.String()}
	return []JournalLine{
		{Type: LineExchange, OrderNo: e.OrderNo, Asset: e.From, Amount: e.FromAmount.Neg(), Account: KindAvailable.Name,
			Status: LineCompleted, Details: rate},
		{Type: LineExchange, OrderNo: e.OrderNo, Asset: e.To, Amount: e.ToAmount, Account: KindAvailable.Name,
			Status: LineCompleted, Details: rate},
	}
}

// JournalLines is the change in points (no asset), with the score after it.
func (e CreditScoreChanged) JournalLines() []JournalLine {
	return []JournalLine{{Type: LineCredit, OrderNo: e.Ref, Amount: decimal.NewFromInt(int64(e.Delta)), Status: LineCompleted,
		Remark: e.Reason, Details: map[string]string{"creditScore": strconv.Itoa(e.Score)}}}
}

// Journal line types of trading: together the lines of one fill are exactly what it did to the
// member's cash.
const (
	LineTrade      = "trade"      // the traded amount: negative bought, positive sold
	LineFee        = "fee"        // the broker's commission
	LineTax        = "tax"        // the securities transaction tax
	LineFinancing  = "financing"  // margin financing drawn (positive) or repaid (negative)
	LineCollateral = "collateral" // short proceeds and margin held by the broker (negative) or given back
)

func init() { DeclareLineTypes(LineTrade, LineFee, LineTax, LineFinancing, LineCollateral) }

// JournalLines of a reservation are none: moving cash between the member's own available and
// frozen accounts is not a line of their money history (the fill or the release says what
// happened to it).
func (TradeCashFrozen) JournalLines() []JournalLine { return nil }

// JournalLines of a release are none: see TradeCashFrozen.
func (TradeCashReleased) JournalLines() []JournalLine { return nil }

// HoldRef: cash reserved for an open order.
func (e TradeCashFrozen) HoldRef() (ref, reason string) { return e.OrderNo, LineTrade }

// HoldRef: see TradeCashFrozen.
func (e TradeCashReleased) HoldRef() (ref, reason string) { return e.OrderNo, LineTrade }

// OrderLabel names the order's security: its fills' lines show the symbol and the stock's name.
func (e OrderPlaced) OrderLabel() (orderNo, instrument, label string) {
	return e.OrderNo, e.Symbol, e.Name
}

// JournalLines are the member's side of each house leg of the fill, in a fixed order; the trade
// line carries the settlement date of the amount.
func (e OrderFilled) JournalLines() []JournalLine {
	var out []JournalLine
	for _, l := range []struct{ typ, account string }{{LineTrade, HouseTradeClearing}, {LineFee, HouseFeesRevenue},
		{LineTax, HouseTaxPayable}, {LineFinancing, HouseMarginLoans}, {LineCollateral, HouseShortCollateral}} {
		var amt decimal.Decimal
		var asset string
		for _, p := range e.Postings {
			if p.Account == l.account {
				amt, asset = amt.Sub(p.Amount), p.Asset()
			}
		}
		if amt.IsZero() {
			continue
		}
		line := JournalLine{Type: l.typ, OrderNo: e.OrderNo, Asset: asset, Amount: amt, Status: LineCompleted}
		if l.typ == LineTrade {
			line.Details = map[string]string{"settleDate": e.SettleDate, "side": e.Side, "shares": strconv.FormatInt(e.Shares, 10)}
		}
		out = append(out, line)
	}
	return out
}
