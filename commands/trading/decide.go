package trading

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/fees"
	"github.com/lotbook/lotbook/commands/rules/margin"
	"github.com/lotbook/lotbook/commands/rules/matching"
	"github.com/lotbook/lotbook/commands/rules/money"
	"github.com/lotbook/lotbook/commands/rules/settlement"
	"github.com/lotbook/lotbook/commands/rules/ticket"
	"github.com/lotbook/lotbook/events"
)

// Order sizes: a board lot is 1,000 shares and one order takes at most 499 lots (the exchange's
// per-order limit); an odd-lot order 1 to 999 shares.
const (
	BoardLot   = fees.BoardLot
	MaxLots    = 499
	MaxOddLot  = 999
	loanSlack  = 1000 // a margin long's loan is whole thousands: its cash part may exceed the estimate by less than this
	centPlaces = 2
)

// OrderInput is a member's order ticket. Exactly one of Lots and Shares is set (Shares: an
// odd-lot order of 1 to 999 shares). Price is the limit (ignored at market); Leverage defaults to 1.
//
// Condition (ticket.Cash, Margin, Short, DayTrade), Session (ticket.Regular, OddIntraday,
// OddAfterHours, FixedPrice) and TimeInForce (ticket.ROD, IOC, FOK) put the ticket in Taiwan
// terms. All three empty: the order is taken and matched as before they existed (an odd-lot order
// crosses the book at once). Any of them set: the others default (the condition from Direction,
// Leverage and DayTrade, the session from the unit, ROD), the condition implies the leverage (融資
// 2.5, 融券 1.11; Leverage and DayTrade may be left out or must agree) and the direction (must agree,
// except that a 現股當沖 opens either way: long buys first, short sells first and buys back, a short
// sale at leverage 1 with the day-trade tax) and the session's matching applies (call auctions for
// odd lots, the close for 盤後定價).
type OrderInput struct {
	Symbol, Direction, Type string
	Lots, Shares            int64
	Price, Leverage         string
	DayTrade                bool
	Condition               string
	Session                 string
	TimeInForce             string
	// Origin names what placed the order for the member (a copy-trade follow), "" a ticket of
	// the member's own; it is recorded on the order, with OriginName (the mentor copied).
	Origin, OriginName string
}

// CloseInput closes all of a position (Lots and Shares both zero) or part of it, at market or at
// a limit.
type CloseInput struct {
	Lots, Shares int64
	Type, Price  string
	Origin       string // as OrderInput.Origin
	OriginName   string // as OrderInput.OriginName
}

// MarketQuote is the market's quote at a decision: the last price, the day's band, best five.
type MarketQuote struct {
	Last, LimitUp, LimitDown decimal.Decimal
	Ref                      decimal.Decimal // the day's reference price (previous close); zero when unknown
	Bids, Asks               []matching.Level
	Time                     time.Time
}

// Market is what the market says about a symbol when a command decides. The API reads it from
// market.Service, the only source of prices; commands never reach the market themselves.
type Market struct {
	Symbol, Name string
	Kind         fees.Kind
	Quote        MarketQuote
	Phase        string    // board-lot session: closed, pre_open, continuous, closing_auction, after_hours_fixed
	OddLot       string    // odd-lot session: closed, intraday, after_hours
	TradingDay   string    // YYYY-MM-DD in Asia/Taipei
	Listed       time.Time // the symbol's listing date (margin and day-trade eligibility); zero when unknown
	Disposed     bool      // a 處置股 today (market/status): no 現股當沖
	// FixedPrice and OddAfterHours: the after-hours sessions take orders (on the exchange in their
	// hours, in the demo around the clock); AfterHoursEvery is the cadence of their call auctions
	// while they do (the demo's), zero for the exchange's one auction when their entry ends.
	FixedPrice, OddAfterHours bool
	AfterHoursEvery           time.Duration
	// CheckPrice names why a limit price is refused (price_out_of_band, price_not_on_tick), ""
	// when it is valid.
	CheckPrice func(decimal.Decimal) string
}

// Accepts tells whether orders of the lot kind can be entered now: board lots from the pre-open
// to the closing auction, odd lots in the intraday odd-lot session. The after-hours sessions are
// not offered.
func (m Market) Accepts(oddLot bool) bool {
	if oddLot {
		return m.OddLot == "intraday"
	}
	return m.Phase == "pre_open" || m.Phase == "continuous" || m.Phase == "closing_auction"
}

// AcceptsIn tells whether orders of a ticket session can be entered now ("" is the session of
// orders placed without one: Accepts).
func (m Market) AcceptsIn(session string, oddLot bool) bool {
	switch session {
	case ticket.Regular:
		return m.Accepts(false)
	case ticket.OddIntraday:
		return m.OddLot == "intraday"
	case ticket.OddAfterHours:
		return m.OddAfterHours
	case ticket.FixedPrice:
		return m.FixedPrice
	}
	return m.Accepts(oddLot)
}

// AuctionDue tells whether a ticket session's call auction may run now: the intraday odd-lot
// auction while its session runs; the after-hours ones (the exchange's one auction at 14:30) once
// their order entry has ended, on the same trading day, and on a schedule that holds them on a
// cadence (the demo's) also while they take orders.
func (m Market) AuctionDue(session string) bool {
	switch session {
	case ticket.OddIntraday:
		return m.OddLot == "intraday"
	case ticket.OddAfterHours, ticket.FixedPrice:
		return m.Phase == "closed" && m.OddLot == "closed" || m.AfterHoursEvery > 0 && m.AcceptsIn(session, true)
	}
	return false
}

// Auctioned tells whether orders of a session match in call auctions (not on quotes).
func Auctioned(session string) bool {
	return session == ticket.OddIntraday || session == ticket.OddAfterHours || session == ticket.FixedPrice
}

// Matches tells whether orders of the lot kind match now.
func (m Market) Matches(oddLot bool) bool {
	if oddLot {
		return m.OddLot == "intraday"
	}
	return m.Phase == "continuous"
}

func quoteUsed(q MarketQuote) events.QuoteUsed {
	levels := func(ls []matching.Level) []events.BookLevel {
		out := make([]events.BookLevel, len(ls))
		for i, l := range ls {
			out[i] = events.BookLevel{Price: l.Price, Size: l.Size}
		}
		return out
	}
	return events.QuoteUsed{Time: q.Time.UTC(), Last: q.Last, Bids: levels(q.Bids), Asks: levels(q.Asks)}
}

// orderSpec is a validated ticket.
type orderSpec struct {
	direction, typ string
	shares         int64
	oddLot         bool
	price          decimal.Decimal // the limit; zero at market
	leverage       decimal.Decimal
	dayTrade       bool
	// The ticket in Taiwan terms; all empty for an order placed without them.
	condition, session, tif string
	origin, originName      string
}

// quantity turns lots or shares into shares: exactly one set, lots 1..499, shares 1..999.
func quantity(lots, shares int64) (int64, bool, *commands.Error) {
	switch {
	case lots == 0 && shares == 0:
		return 0, false, commands.Invalid(commands.KeyQuantityRequired)
	case lots != 0 && shares != 0, lots < 0, shares < 0, lots > MaxLots, shares > MaxOddLot:
		return 0, false, commands.Invalid(commands.KeyQuantityInvalid)
	case lots > 0:
		return lots * BoardLot, false, nil
	}
	return shares, true, nil
}

// limitPrice parses a limit price in the strict grammar of amounts (money.ParseDecimal), two
// decimals at most.
func limitPrice(typ, s string) (decimal.Decimal, *commands.Error) {
	if typ == events.OrderMarket {
		return decimal.Zero, nil
	}
	p, err := money.ParseDecimal(s, centPlaces)
	switch {
	case errors.Is(err, money.ErrRequired):
		return decimal.Zero, commands.Invalid(commands.KeyPriceRequired)
	case err != nil:
		return decimal.Zero, commands.Invalid(commands.KeyPriceInvalid)
	}
	return p, nil
}

func validOrderType(typ string) bool { return typ == events.OrderLimit || typ == events.OrderMarket }

// validateOrder checks a ticket's fields in the form's order: direction, type, quantity,
// leverage, day trade, price.
func validateOrder(in OrderInput) (orderSpec, *commands.Error) {
	sp := orderSpec{direction: in.Direction, typ: in.Type, dayTrade: in.DayTrade, origin: in.Origin, originName: in.OriginName}
	if in.Symbol == "" || len(in.Symbol) > 16 {
		return sp, commands.Invalid(commands.KeySymbolRequired)
	}
	if in.Direction != events.DirectionLong && in.Direction != events.DirectionShort {
		return sp, commands.Invalid(commands.KeyInvalidRequest)
	}
	if !validOrderType(in.Type) {
		return sp, commands.Invalid(commands.KeyInvalidRequest)
	}
	var e *commands.Error
	if sp.shares, sp.oddLot, e = quantity(in.Lots, in.Shares); e != nil {
		return sp, e
	}
	sp.leverage = decimal.NewFromInt(1)
	if in.Leverage != "" {
		lev, err := money.ParseDecimal(in.Leverage, centPlaces)
		if err != nil {
			return sp, commands.Invalid(commands.KeyLeverageInvalid)
		}
		sp.leverage = lev
	}
	switch err := margin.CheckLeverage(sp.leverage, in.Direction == events.DirectionShort, sp.oddLot); err {
	case nil:
	case margin.ErrOddLotCashOnly:
		return sp, commands.Invalid(commands.KeyOddLotCashOnly)
	default:
		return sp, commands.Invalid(commands.KeyLeverageInvalid)
	}
	if sp.dayTrade && sp.oddLot {
		return sp, commands.Invalid(commands.KeyDayTradeBoardLotOnly)
	}
	if e := ticketFields(&sp, in); e != nil {
		return sp, e
	}
	if sp.session == ticket.FixedPrice && in.Price == "" {
		return sp, nil // the day's close, set by checkMarket
	}
	if sp.price, e = limitPrice(in.Type, in.Price); e != nil {
		return sp, e
	}
	return sp, nil
}

// ticketFields fills the ticket's condition, session and time in force with their defaults and
// checks them against the direction, leverage and day trade and against each other (the parts of
// ticket.Check that need no market).
func ticketFields(sp *orderSpec, in OrderInput) *commands.Error {
	if in.Condition == "" && in.Session == "" && in.TimeInForce == "" {
		return nil
	}
	sp.condition, sp.session, sp.tif = in.Condition, in.Session, cmp.Or(in.TimeInForce, ticket.ROD)
	if sp.condition == "" {
		sp.condition = conditionOf(sp.direction, sp.leverage, sp.dayTrade)
	}
	if sp.session == "" {
		sp.session = ticket.Regular
		if sp.oddLot {
			sp.session = ticket.OddIntraday
		}
	}
	if !slices.Contains([]string{ticket.Cash, ticket.Margin, ticket.Short, ticket.DayTrade}, sp.condition) ||
		!slices.Contains([]string{ticket.Regular, ticket.OddIntraday, ticket.OddAfterHours, ticket.FixedPrice}, sp.session) ||
		!slices.Contains([]string{ticket.ROD, ticket.IOC, ticket.FOK}, sp.tif) {
		return commands.Invalid(commands.KeyInvalidRequest)
	}
	lev := ticket.Leverage(sp.condition)
	if !ticket.OpensBySelling(sp.condition, sp.direction == events.DirectionShort) || in.Leverage != "" && !sp.leverage.Equal(lev) ||
		in.DayTrade && sp.condition != ticket.DayTrade {
		return commands.Invalid(commands.KeyConditionMismatch)
	}
	sp.leverage, sp.dayTrade = lev, sp.condition == ticket.DayTrade
	return ticketRefusal(ticket.Check(sp.checkable(Market{})))
}

// conditionOf is the condition of an order placed without one.
func conditionOf(direction string, leverage decimal.Decimal, dayTrade bool) string {
	switch {
	case dayTrade: // either way: a short day trade sells first (先賣後買)
		return ticket.DayTrade
	case direction == events.DirectionShort:
		return ticket.Short
	case leverage.GreaterThan(decimal.NewFromInt(1)):
		return ticket.Margin
	}
	return ticket.Cash
}

// checkable is what ticket.Check looks at; with a zero m, only the fields.
func (sp orderSpec) checkable(m Market) ticket.Ticket {
	t := ticket.Ticket{Condition: sp.condition, Session: sp.session, TIF: sp.tif, Market: sp.typ == events.OrderMarket,
		OddLot: sp.oddLot, Price: sp.price, Reference: m.Quote.Ref, Listed: m.Listed, Disposed: m.Disposed}
	if day, err := time.Parse(time.DateOnly, m.TradingDay); err == nil {
		t.Day = day
	}
	return t
}

// ticketRefusal is the member's message for a refusal of ticket.Check.
func ticketRefusal(err error) *commands.Error {
	for _, k := range []struct {
		err error
		key string
	}{
		{ticket.ErrUnit, commands.KeySessionUnitMismatch}, {ticket.ErrLimitOnly, commands.KeySessionLimitOnly},
		{ticket.ErrTIF, commands.KeyTimeInForceNotAllowed}, {ticket.ErrCashOnly, commands.KeyOddLotCashOnly},
		{ticket.ErrDayTradeRules, commands.KeyDayTradeRegularOnly}, {ticket.ErrNotEligible, commands.KeySymbolNotEligible},
		{ticket.ErrBelowRef, commands.KeyShortBelowReference}, {ticket.ErrDisposed, commands.KeyDayTradeDisposed},
	} {
		if errors.Is(err, k.err) {
			return commands.Rule(k.key)
		}
	}
	if err != nil {
		return commands.Invalid(commands.KeyInvalidRequest)
	}
	return nil
}

// tradeRefusals are the member flags that refuse a member's order, in the order they answer.
var tradeRefusals = []string{events.FlagDisabled, events.FlagFrozen, events.FlagTradeBanned}

// checkMarket refuses an order the market cannot take now: unknown symbol, no price, a limit off
// the tick grid or outside the band, outside the session (market orders and day trades only while
// matching).
func checkMarket(m Market, sp *orderSpec) *commands.Error {
	switch {
	case m.Symbol == "":
		return commands.NotFound(commands.KeySymbolNotFound)
	case !m.Quote.Last.IsPositive():
		return commands.Rule(commands.KeyPriceNotObtained)
	}
	if sp.session == ticket.FixedPrice {
		// 盤後定價 trades at the day's close: the ticket's price, when given, must be it.
		if !sp.price.IsZero() && !sp.price.Equal(m.Quote.Last) {
			return commands.Rule(commands.KeyFixedPriceCloseOnly)
		}
		sp.price = m.Quote.Last
	}
	if sp.typ == events.OrderLimit && m.CheckPrice != nil {
		if key := m.CheckPrice(sp.price); key != "" {
			return commands.Rule(key)
		}
	}
	if sp.session != "" {
		if e := ticketRefusal(ticket.Check(sp.checkable(m))); e != nil {
			return e
		}
	}
	switch {
	case !m.AcceptsIn(sp.session, sp.oddLot):
		return commands.Rule(commands.KeyNotTradingTime)
	case (sp.typ == events.OrderMarket || sp.dayTrade || sp.tif == ticket.IOC || sp.tif == ticket.FOK) && !m.Matches(sp.oddLot):
		return commands.Rule(commands.KeyNotTradingTime)
	}
	return nil
}

// bound is what an order may pay or must get per share: its limit, or at market its protective
// price.
func bound(buy bool, sp orderSpec, q MarketQuote) decimal.Decimal {
	if sp.typ == events.OrderLimit {
		return sp.price
	}
	return matching.Protective(buy, q.Last, q.LimitDown, q.LimitUp)
}

// share is the part of a position's amount x that q of its s shares carry, to the cent; the last
// shares carry the rest exactly.
func share(x decimal.Decimal, q, s int64) decimal.Decimal {
	if q >= s || s <= 0 {
		return x
	}
	return x.Mul(decimal.NewFromInt(q)).Div(decimal.NewFromInt(s)).Round(centPlaces)
}

// reservation is the cash an order freezes: an opening long its amount at the bound with the
// commission (less the financing, with the loan's rounding slack); an opening short its margin at
// the day's limit-up price, the most its shares can be sold for (a day trade sold first: leverage 1,
// the whole value, as a day trade bought first reserves its whole amount); a short's cover what it may cost
// beyond the collateral its shares carry; a long's sale nothing.
func reservation(o *tradeOrder, pos *tradePosition, q MarketQuote) decimal.Decimal {
	value := o.Price.Mul(decimal.NewFromInt(o.Shares))
	switch {
	case o.Intent == events.IntentOpen && o.buy():
		cash := value.Sub(margin.Loan(value, o.Leverage))
		if o.Leverage.GreaterThan(decimal.NewFromInt(1)) {
			cash = decimal.Min(value, cash.Add(decimal.NewFromInt(loanSlack)))
		}
		return cash.Add(fees.Commission(value, o.OddLot))
	case o.Intent == events.IntentOpen:
		if q.LimitUp.GreaterThan(o.Price) {
			value = q.LimitUp.Mul(decimal.NewFromInt(o.Shares))
		}
		return margin.ShortMargin(value, o.Leverage)
	case o.buy() && pos != nil:
		worst := value.Add(fees.Commission(value, o.OddLot))
		return decimal.Max(decimal.Zero, worst.Sub(share(pos.basis.Add(pos.margin), o.Shares, pos.shares)))
	}
	return decimal.Zero
}

// legs collects postings in TWD, leaving out zero amounts.
type legs []events.Posting

func (l *legs) add(account string, amount decimal.Decimal) {
	if !amount.IsZero() {
		*l = append(*l, events.Posting{Account: account, Currency: TWD, Amount: amount})
	}
}

// shareLegs are a fill's share postings: shares travel between the exchange and the member's
// shares account (long) or shares_borrowed account (short), to the member on a buy and from the
// member on a sale. None when the position's shares are off the share ledger.
func shareLegs(security, memberID string, buy, short, onLedger bool, shares int64) []events.Posting {
	if !onLedger {
		return nil
	}
	kind := events.KindShares
	if short {
		kind = events.KindSharesBorrowed
	}
	member := events.MemberAccount(memberID, kind)
	if buy {
		return events.TransferShares(events.HouseExchangeShares, member, security, shares)
	}
	return events.TransferShares(member, events.HouseExchangeShares, security, shares)
}

// fillContext is what a fill needs beyond the order and its position.
type fillContext struct {
	memberID          string
	available, frozen string          // the member's ledger accounts
	cash              decimal.Decimal // the member's available cash before the fill
	now               time.Time
	cal               settlement.Calendar
	tradingDay        string
	quote             events.QuoteUsed
}

// fillEvent prices one fill of o on pos: amount, commission and tax of the order's cumulative
// amount less what earlier fills paid, the financing, margin and collateral it moves, the profit
// it realises, its postings. It changes neither o nor pos.
func fillEvent(o *tradeOrder, pos *tradePosition, fills []matching.Fill, f fillContext) (events.OrderFilled, error) {
	shares, amount := matching.Total(fills)
	e := events.OrderFilled{OrderNo: o.OrderNo, PositionID: o.PositionID, Security: events.Security(events.MarketTW, o.Symbol), Seq: o.fills + 1, Side: o.Side,
		Shares: shares, Amount: amount, Remaining: o.remaining() - shares, Quote: f.quote,
		Tax: decimal.Zero, Loan: decimal.Zero, Margin: decimal.Zero, Profit: decimal.Zero}
	for _, fl := range fills {
		e.Executions = append(e.Executions, events.Execution{Price: fl.Price, Shares: fl.Shares})
	}
	if pos == nil {
		return e, fmt.Errorf("order %s: position %s not found", o.OrderNo, o.PositionID)
	}
	e.Commission = fees.Delta(func(x decimal.Decimal) decimal.Decimal { return fees.Commission(x, o.OddLot) }, o.amount, amount)
	taxed := func(dayTrade bool) decimal.Decimal {
		e.DayTrade = dayTrade && o.kind() == fees.Stock
		return fees.Delta(func(x decimal.Decimal) decimal.Decimal { return fees.Tax(x, o.kind(), dayTrade) }, o.amount, amount)
	}
	var l legs
	switch {
	case o.Intent == events.IntentOpen && o.buy(): // buy long: frozen pays what the loan does not
		e.Loan = margin.Loan(o.amount.Add(amount), o.Leverage).Sub(margin.Loan(o.amount, o.Leverage))
		paid := amount.Sub(e.Loan).Add(e.Commission)
		e.Cash, e.Basis = paid.Neg(), amount.Add(e.Commission)
		l.add(f.frozen, paid.Neg())
		l.add(events.HouseMarginLoans, e.Loan.Neg())
		l.add(events.HouseTradeClearing, amount)
		l.add(events.HouseFeesRevenue, e.Commission)
		if paid.GreaterThan(o.reserved) {
			return e, fmt.Errorf("order %s: fill needs %s, %s reserved", o.OrderNo, paid, o.reserved)
		}
	case o.Intent == events.IntentOpen: // sell short: the proceeds and the margin go to collateral
		e.Tax = taxed(o.DayTrade)
		e.Margin = margin.ShortMargin(o.amount.Add(amount), o.Leverage).Sub(margin.ShortMargin(o.amount, o.Leverage))
		e.Basis = amount.Sub(e.Commission).Sub(e.Tax)
		e.Cash = e.Margin.Neg()
		l.add(events.HouseTradeClearing, amount.Neg())
		l.add(events.HouseFeesRevenue, e.Commission)
		l.add(events.HouseTaxPayable, e.Tax)
		l.add(f.frozen, e.Margin.Neg())
		l.add(events.HouseShortCollateral, e.Basis.Add(e.Margin))
		if e.Margin.GreaterThan(o.reserved) {
			return e, fmt.Errorf("order %s: margin %s, %s reserved", o.OrderNo, e.Margin, o.reserved)
		}
	case !o.buy(): // sell long: proceeds less fees, tax and the loan's part to the member
		e.Tax = taxed(pos.openDay == f.tradingDay && !pos.offBook)
		e.Basis = share(pos.basis, shares, pos.shares)
		e.Loan = share(pos.loan, shares, pos.shares)
		e.Profit = amount.Sub(e.Commission).Sub(e.Tax).Sub(e.Basis)
		net := amount.Sub(e.Commission).Sub(e.Tax)
		repay, member := e.Loan, net.Sub(e.Loan)
		if member.IsNegative() {
			// Proceeds below the loan (a fall of more than 40 %, which the maintenance rule
			// prevents): the member pays what the account holds, the broker bears the rest.
			pay := decimal.Min(member.Neg(), decimal.Max(decimal.Zero, f.cash))
			member, repay = pay.Neg(), net.Add(pay)
		}
		e.Cash = member
		e.SettleDate = settlement.Date(f.now, f.cal)
		l.add(events.HouseTradeClearing, amount.Neg())
		l.add(events.HouseFeesRevenue, e.Commission)
		l.add(events.HouseTaxPayable, e.Tax)
		l.add(events.HouseMarginLoans, repay)
		l.add(f.available, member)
	default: // buy to cover: the collateral pays, the member gets the rest or pays a shortfall
		held := pos.basis.Add(pos.margin)
		coll := share(held, shares, pos.shares)
		e.Basis = share(pos.basis, shares, pos.shares)
		e.Margin = coll.Sub(e.Basis)
		e.Profit = e.Basis.Sub(amount).Sub(e.Commission)
		back := coll.Sub(amount).Sub(e.Commission)
		l.add(events.HouseShortCollateral, coll.Neg())
		l.add(events.HouseTradeClearing, amount)
		l.add(events.HouseFeesRevenue, e.Commission)
		e.Cash = back
		if back.IsNegative() {
			need := back.Neg()
			fromFrozen := decimal.Min(need, decimal.Max(decimal.Zero, o.reserved))
			fromAvail := decimal.Min(need.Sub(fromFrozen), decimal.Max(decimal.Zero, f.cash))
			l.add(f.frozen, fromFrozen.Neg())
			l.add(f.available, fromAvail.Neg())
			l.add(events.HouseMarginLoans, need.Sub(fromFrozen).Sub(fromAvail).Neg())
		} else {
			e.SettleDate = settlement.Date(f.now, f.cal)
			l.add(f.available, back)
		}
	}
	// The first fill of a position puts it on the share ledger (applyFill records that).
	e.Postings = append(l, shareLegs(e.Security, f.memberID, o.buy(), pos.short(), pos.onLedger || !pos.everHeld, shares)...)
	if err := events.CheckBalanced(e.Postings); err != nil {
		return e, fmt.Errorf("order %s fill %d: %w", o.OrderNo, e.Seq, err)
	}
	return e, nil
}

// release gives back what a done order still holds frozen.
func release(o *tradeOrder, available, frozen string) []events.Payload {
	if !o.reserved.IsPositive() {
		return nil
	}
	return []events.Payload{events.TradeCashReleased{OrderNo: o.OrderNo, Amount: o.reserved,
		Postings: events.Transfer(frozen, available, TWD, o.reserved)}}
}

// tradeRun plays a decision's events forward on copies of the orders and positions it touches
// and of the member's available cash, so that each next event is decided on the state the earlier
// ones leave; the aggregate itself changes only when the events are stored.
type tradeRun struct {
	a    *commands.Account
	now  time.Time
	t    trading
	cash decimal.Decimal
	out  []events.Payload
}

// run starts a decision on copies of the named orders and positions.
func run(a *commands.Account, now time.Time, orderNos []string, positionIDs []string) *tradeRun {
	r := &tradeRun{a: a, now: now, t: newTrading(), cash: a.Balances[TWD].Available}
	t := tradingPart.Of(a)
	for _, no := range orderNos {
		if o := t.orders[no]; o != nil {
			cp := *o
			r.t.orders[no] = &cp
		}
	}
	for _, id := range positionIDs {
		if p := t.positions[id]; p != nil {
			cp := *p
			r.t.positions[id] = &cp
		}
	}
	return r
}

// emit records an event and evolves the copies by it.
func (r *tradeRun) emit(p events.Payload) {
	r.out = append(r.out, p)
	r.t.evolve(p, r.a.Frozen, r.now)
	if m, ok := p.(events.MovesMoney); ok {
		for _, l := range m.MoneyPostings() {
			if l.Account == r.a.Available && l.Currency == TWD {
				r.cash = r.cash.Add(l.Amount)
			}
		}
	}
}

// cancel stops a working order's rest and releases its reservation.
func (r *tradeRun) cancel(orderNo, reason string) {
	o := r.t.orders[orderNo]
	if o == nil || !o.working {
		return
	}
	r.emit(events.OrderCancelled{OrderNo: o.OrderNo, PositionID: o.PositionID, Shares: o.remaining(), Reason: reason})
	for _, p := range release(o, r.a.Available, r.a.Frozen) {
		r.emit(p)
	}
}

// fill emits one fill of o (none when fills is empty).
func (r *tradeRun) fill(o *tradeOrder, fills []matching.Fill, q MarketQuote, cal settlement.Calendar, day string) error {
	if len(fills) == 0 {
		return nil
	}
	e, err := fillEvent(o, r.t.positions[o.PositionID], fills, fillContext{memberID: r.a.MemberID, available: r.a.Available, frozen: r.a.Frozen,
		cash: r.cash, now: r.now, cal: cal, tradingDay: day, quote: quoteUsed(q)})
	if err != nil {
		return err
	}
	r.emit(e)
	return nil
}

// match crosses a working order with the quote's opposite side and emits the fill and, when the
// order is done, the release of its reservation. A market order's rest is cancelled: it never
// rests.
func (r *tradeRun) match(orderNo string, q MarketQuote, cal settlement.Calendar, day string) error {
	o := r.t.orders[orderNo]
	if o == nil || !o.working {
		return nil
	}
	levels := q.Asks
	if !o.buy() {
		levels = q.Bids
	}
	unit := int64(BoardLot)
	if o.OddLot {
		unit = 1
	}
	fills := matching.Cross(o.buy(), o.Price, o.remaining(), unit, levels)
	if n, _ := matching.Total(fills); o.TimeInForce == ticket.FOK && n < o.remaining() {
		r.cancel(o.OrderNo, events.CancelFOKUnfilled) // all at once or nothing
		return nil
	}
	if err := r.fill(o, fills, q, cal, day); err != nil {
		return err
	}
	switch {
	case o.working && o.Type == events.OrderMarket:
		r.cancel(o.OrderNo, events.CancelMarketUnfilled)
	case o.working && o.TimeInForce == ticket.IOC:
		r.cancel(o.OrderNo, events.CancelIOCUnfilled)
	}
	if !o.working {
		for _, p := range release(o, r.a.Available, r.a.Frozen) {
			r.emit(p)
		}
	}
	return nil
}
