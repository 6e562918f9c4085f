package trading

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/fees"
	"github.com/lotbook/lotbook/commands/rules/settlement"
	"github.com/lotbook/lotbook/events"
)

// Trading: the account aggregate's orders, positions and unsettled sale proceeds. The state is
// evolved only from events (applyTrading); decisions work on copies (tradeScratch) so that a
// command whose append fails leaves the cached state as the log has it.

// Order statuses as members see them.
const (
	OrderPending   = "pending"   // working, nothing filled yet
	OrderPartial   = "partial"   // working, partly filled
	OrderFilled    = "filled"    // done
	OrderCancelled = "cancelled" // stopped by the member or the rules, possibly after partial fills
	OrderExpired   = "expired"   // its trading day ended
)

// Position statuses (the spec's pending, holding, preparing to close, closed, cancelled).
const (
	PositionPending   = "pending"   // its opening order has not filled yet; cancellable
	PositionHolding   = "holding"   // shares held
	PositionClosing   = "closing"   // a closing order works on (part of) the shares
	PositionClosed    = "closed"    // every share closed
	PositionCancelled = "cancelled" // its opening order ended without a fill
)

// tradeOrderPrefix begins the numbers of orders (and so of the positions they open).
const tradeOrderPrefix = "T"

// TWD is the currency of the Taiwan market.
const TWD = commands.TWD

type tradeOrder struct {
	events.OrderPlaced
	working    bool
	stopped    string // OrderCancelled or OrderExpired once stopped
	filled     int64
	amount     decimal.Decimal // Σ filled amount
	commission decimal.Decimal
	tax        decimal.Decimal
	fills      int             // fills so far (the last Seq)
	reserved   decimal.Decimal // cash still frozen for it
}

// status is the order's status as members see it.
func (o *tradeOrder) status() string {
	switch {
	case o.working && o.filled == 0:
		return OrderPending
	case o.working:
		return OrderPartial
	case o.stopped != "":
		return o.stopped
	default:
		return OrderFilled
	}
}

func (o *tradeOrder) remaining() int64 { return o.Shares - o.filled }

func (o *tradeOrder) kind() fees.Kind {
	switch o.Kind {
	case fees.ETF.String():
		return fees.ETF
	case fees.BondETF.String():
		return fees.BondETF
	}
	return fees.Stock
}

func (o *tradeOrder) buy() bool { return o.Side == events.SideBuy }

type tradePosition struct {
	id, symbol, direction string
	kind                  string
	leverage              decimal.Decimal
	dayTrade              bool
	openDay               string // trading day of the opening order
	openWorking           bool   // the opening order still works
	shares                int64  // held now
	closing               int64  // of them, in a working closing order
	closeOrder            string
	everHeld              bool
	basis                 decimal.Decimal // long: what the held shares cost with commission; short: the net proceeds of their sale
	loan                  decimal.Decimal // long: financing outstanding
	margin                decimal.Decimal // short: margin held
	realised              decimal.Decimal
	openedAt              time.Time // first fill
	// onLedger: the position's shares are on the share ledger, because its first fill posted
	// them. A position first filled by a v1 fill (no share legs) stays off it to its end, so its
	// closing fills never take from a shares account that never received them.
	onLedger bool
	// offBook: the position was bought outside the regular session's order book (a block trade, a
	// chip grab, an allotment). Day trading takes both legs in the regular session and excludes
	// block trades (market-rules 1e), so selling it on the day it was bought is no day trade.
	offBook bool
}

// onBook tells whether an order placed by by was matched in the regular session's order book:
// the member's own, or the trading rules' closes of them.
func onBook(by string) bool {
	switch by {
	case "", events.OrderByMember, events.OrderByForcedClose, events.OrderByDayTradeClose:
		return true
	}
	return false
}

func (p *tradePosition) short() bool { return p.direction == events.DirectionShort }

func (p *tradePosition) status() string {
	switch {
	case p.closing > 0:
		return PositionClosing
	case p.shares > 0:
		return PositionHolding
	case p.openWorking:
		return PositionPending
	case p.everHeld:
		return PositionClosed
	default:
		return PositionCancelled
	}
}

// margined tells whether the maintenance rule watches the position: financed longs and shorts.
func (p *tradePosition) margined() bool {
	return p.shares > 0 && (p.short() || p.loan.IsPositive())
}

type unsettledCash struct {
	date   string // settlement.Layout
	amount decimal.Decimal
}

type trading struct {
	orders    map[string]*tradeOrder
	positions map[string]*tradePosition
	unsettled []unsettledCash
	call      *events.MarginCallIssued // the open margin call, nil when none
}

func newTrading() trading {
	return trading{orders: map[string]*tradeOrder{}, positions: map[string]*tradePosition{}}
}

// frozenMoved is what an event's postings did to the member's frozen cash.
func frozenMoved(ps []events.Posting, frozen string) decimal.Decimal {
	var sum decimal.Decimal
	for _, p := range ps {
		if p.Account == frozen && p.Currency == TWD {
			sum = sum.Add(p.Amount)
		}
	}
	return sum
}

// tradingState is the account's part of trading: its orders and positions, and the member's
// frozen ledger account that reservations move.
type tradingState struct {
	trading
	frozen string
	topUps map[string]bool // margin top-up numbers taken
}

// tradingPart reaches an account's trading.
var tradingPart = commands.RegisterAccountPart("trading", func(l commands.Ledger) *tradingState {
	return &tradingState{trading: newTrading(), frozen: l.Frozen, topUps: map[string]bool{}}
})

func (t *tradingState) Apply(r events.RecordedEvent, p events.Payload) {
	t.evolve(p, t.frozen, r.Metadata.ServerTime)
	if e, ok := p.(events.MarginToppedUp); ok {
		t.topUps[e.TopUpNo] = true
	}
	if e, ok := p.(events.OrderFilled); ok && e.SettleDate != "" && e.Cash.IsPositive() {
		t.unsettled = append(pruneSettled(t.unsettled, r.Metadata.ServerTime), unsettledCash{date: e.SettleDate, amount: e.Cash})
	}
}

func (t *tradingState) HoldsOrder(no string) bool { return t.orders[no] != nil || t.topUps[no] }

// heldFromWithdrawal keeps sale proceeds from withdrawal until they settle.
func (t *tradingState) HeldFromWithdrawal(currency string, now time.Time) decimal.Decimal {
	if currency != TWD {
		return decimal.Zero
	}
	return t.unsettledAt(now)
}

// FreeShares implements commands.FreeShareHolder: the shares of symbol in the member's own
// unfinanced long positions that no closing order works on. Financed and day-trade positions are
// the rules' to close, so they are never free for anything else.
func (t *tradingState) FreeShares(symbol string) int64 {
	var n int64
	for _, p := range t.positions {
		if p.free() && p.symbol == symbol {
			n += p.shares - p.closing
		}
	}
	return n
}

// free tells whether the position's shares are the member's own to sell or to lend: a long,
// unfinanced, not a day trade, on the share ledger.
func (p *tradePosition) free() bool {
	return !p.short() && !p.loan.IsPositive() && p.leverage.LessThanOrEqual(decimal.NewFromInt(1)) && !p.dayTrade && p.onLedger
}

// sellable refuses a member's sale of shares of pos that other parts hold (lent shares): what is
// free of the symbol after the sale must still cover what they hold.
func sellable(a *commands.Account, pos *tradePosition, shares int64) *commands.Error {
	if !pos.free() {
		return nil
	}
	if held := a.HeldShares(pos.symbol); held > 0 && a.FreeShares(pos.symbol)-shares < held {
		return commands.Rule(commands.KeySharesHeld)
	}
	return nil
}

func newPosition(e events.OrderPlaced) *tradePosition {
	return &tradePosition{id: e.OrderNo, symbol: e.Symbol, direction: e.Direction, kind: e.Kind,
		leverage: e.Leverage, dayTrade: e.DayTrade, openDay: e.TradingDay, openWorking: true, offBook: !onBook(e.By)}
}

// evolve applies a trading event to orders and positions. The aggregate and the decisions'
// scratch copies (tradeRun) share it, so both compute the same state.
func (t *trading) evolve(p events.Payload, frozen string, at time.Time) {
	switch e := p.(type) {
	case events.DeliversShares:
		// Shares that arrived outside trading (an allotment) are a long held at their basis, on
		// the share ledger, opened on their first trading day: they close like bought ones.
		h := e.Delivered()
		t.positions[h.PositionID] = &tradePosition{id: h.PositionID, symbol: h.Symbol, direction: events.DirectionLong,
			kind: fees.Stock.String(), leverage: decimal.NewFromInt(1), openDay: h.Day, shares: h.Shares, everHeld: true,
			basis: h.Basis, openedAt: at, onLedger: true, offBook: true}
	case events.OrderPlaced:
		t.orders[e.OrderNo] = &tradeOrder{OrderPlaced: e, working: true}
		if e.Intent == events.IntentOpen {
			t.positions[e.OrderNo] = newPosition(e)
		} else if pos := t.positions[e.PositionID]; pos != nil {
			pos.closing += e.Shares
			pos.closeOrder = e.OrderNo
		}
	case events.TradeCashFrozen:
		if o := t.orders[e.OrderNo]; o != nil {
			o.reserved = o.reserved.Add(frozenMoved(e.Postings, frozen))
		}
	case events.TradeCashReleased:
		if o := t.orders[e.OrderNo]; o != nil {
			o.reserved = o.reserved.Add(frozenMoved(e.Postings, frozen))
		}
	case events.OrderFilled:
		if o := t.orders[e.OrderNo]; o != nil {
			pos := t.positions[e.PositionID]
			applyFill(o, pos, e, frozen)
			if pos != nil && pos.openedAt.IsZero() {
				pos.openedAt = at
			}
		}
	case events.OrderCancelled:
		t.stop(e.OrderNo, OrderCancelled, e.Shares)
	case events.OrderExpired:
		t.stop(e.OrderNo, OrderExpired, e.Shares)
	case events.MarginCallIssued:
		c := e
		t.call = &c
	case events.MarginCallMet, events.ForcedCloseStarted:
		t.call = nil
	case events.MarginToppedUp:
		if pos := t.positions[e.PositionID]; pos != nil {
			pos.loan = pos.loan.Sub(e.Loan)
			pos.margin = pos.margin.Add(e.Margin)
		}
	}
}

// applyFill evolves an order and its position by one fill (the aggregate and decisions' scratch
// copies share it, so both compute the same state).
func applyFill(o *tradeOrder, pos *tradePosition, e events.OrderFilled, frozen string) {
	o.filled += e.Shares
	o.amount = o.amount.Add(e.Amount)
	o.commission = o.commission.Add(e.Commission)
	o.tax = o.tax.Add(e.Tax)
	o.fills = e.Seq
	o.reserved = o.reserved.Add(frozenMoved(e.Postings, frozen))
	if o.remaining() == 0 {
		o.working = false
	}
	if pos == nil {
		return
	}
	if o.Intent == events.IntentOpen {
		if !pos.everHeld {
			pos.onLedger = e.Security != ""
		}
		pos.shares += e.Shares
		pos.everHeld = true
		pos.basis = pos.basis.Add(e.Basis)
		pos.loan = pos.loan.Add(e.Loan)
		pos.margin = pos.margin.Add(e.Margin)
		if !o.working {
			pos.openWorking = false
		}
		return
	}
	pos.shares -= e.Shares
	pos.closing -= e.Shares
	pos.basis = pos.basis.Sub(e.Basis)
	pos.loan = pos.loan.Sub(e.Loan)
	pos.margin = pos.margin.Sub(e.Margin)
	pos.realised = pos.realised.Add(e.Profit)
	if !o.working {
		pos.closeOrder = ""
	}
}

// stop ends an order's unfilled shares.
func (t *trading) stop(orderNo, status string, shares int64) {
	o := t.orders[orderNo]
	if o == nil {
		return
	}
	o.working, o.stopped = false, status
	pos := t.positions[o.PositionID]
	if pos == nil {
		return
	}
	if o.Intent == events.IntentOpen {
		pos.openWorking = false
		return
	}
	pos.closing -= shares
	if pos.closeOrder == orderNo {
		pos.closeOrder = ""
	}
}

// pruneSettled drops proceeds that have settled by now.
func pruneSettled(us []unsettledCash, now time.Time) []unsettledCash {
	out := us[:0]
	for _, u := range us {
		if !settlement.Settled(u.date, now) {
			out = append(out, u)
		}
	}
	return out
}

// unsettledAt is the sale proceeds not yet settled at now: available for trading, not for
// withdrawal.
func (t *trading) unsettledAt(now time.Time) decimal.Decimal {
	var sum decimal.Decimal
	for _, u := range t.unsettled {
		if !settlement.Settled(u.date, now) {
			sum = sum.Add(u.amount)
		}
	}
	return sum
}
