// Package copytrade is copy trading of mentors on the write side. The account part "copytrade"
// holds, for a mentor, the profile it opted in with, its own open positions (for its fund
// scale) and the profit shares it received; for a follower, its follows: the commitment held from
// available cash, what mirrored orders spent of it, the positions those orders opened and the
// profit they realised. Mirrored orders themselves are trading's ordinary orders, placed by the
// process in copytrade/mirror with the follow as their origin. See events/copytrade_events.go
// and the rules in commands/rules/mentor.
package copytrade

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/mentor"
	"github.com/lotbook/lotbook/commands/rules/money"
	"github.com/lotbook/lotbook/commands/rules/ticket"
	"github.com/lotbook/lotbook/events"
)

// Message keys of copy trading.
const (
	KeyMentorNotExist       = "mentor_not_exist"
	KeyTimeLimitExceeded    = "time_limit_exceeded"
	KeyBelowMinimum         = "buy_amount_below_minimum"
	KeyFollowNotFound       = "follow_not_found"
	KeyFollowNotInProgress  = "follow_not_in_progress"
	KeyProfitShareInvalid   = "profit_share_invalid"
	KeyWindowInvalid        = "follow_window_invalid"
	KeyFollowSelf           = "follow_self"
	KeyMentorNameRequired   = "name_required"
	KeyMinimumAmountInvalid = "minimum_amount_invalid"
)

const (
	twd          = commands.TWD
	followPrefix = "F"
)

// Profile is a mentor's profile.
type Profile struct {
	DisplayName string
	MinAmount   decimal.Decimal
	WindowDays  int
	ProfitShare decimal.Decimal
}

// Position is a position a follow's orders opened, still held: a long, or a short sold.
type Position struct {
	ID, Symbol string
	Shares     int64
	Short      bool
}

// follow is one follow of the follower.
type follow struct {
	id, mentorID, mentorName string
	amount, spent, returned  decimal.Decimal
	profitShare              decimal.Decimal
	ends                     time.Time
	state                    string
	profit                   decimal.Decimal
	spends                   map[string]events.CopyFundsSpent // by ref
	returns                  map[string]bool
}

func (f *follow) remaining() decimal.Decimal { return f.amount.Sub(f.spent).Add(f.returned) }

// position is an open position: held is the cash its opening fills took from the member (a
// long's cost less any financing, a short's margin), released in proportion as it closes.
type position struct {
	follow, symbol string
	short          bool
	shares         int64
	held           decimal.Decimal
}

// part is the account's copytrade part.
type part struct {
	profile   *Profile
	follows   map[string]*follow
	orders    map[string]string    // order number -> follow id ("" own) of the account's orders
	working   map[string]bool      // mirrored orders (origin a follow) still working
	cash      commands.OrderCash   // mirrored order -> cash trading gave back when it was done
	sold      map[string]bool      // mirrored orders with a closing fill: what they gave back is proceeds
	positions map[string]*position // open positions (own and copied) -> follow and shares
	received  map[string]bool      // follow ids whose profit share the mentor received
}

var copyPart = commands.RegisterAccountPart("copytrade", func(commands.Ledger) *part {
	return &part{follows: map[string]*follow{}, orders: map[string]string{}, positions: map[string]*position{}, received: map[string]bool{},
		working: map[string]bool{}, cash: commands.NewOrderCash(), sold: map[string]bool{}}
})

// Apply evolves the part.
func (p *part) Apply(_ events.RecordedEvent, pl events.Payload) {
	switch e := pl.(type) {
	case events.MentorProfileSet:
		p.profile = &Profile{DisplayName: e.DisplayName, MinAmount: e.MinAmount, WindowDays: e.WindowDays, ProfitShare: e.ProfitShare}
	case events.FollowStarted:
		ends, _ := time.Parse(time.RFC3339, e.Ends)
		p.follows[e.FollowID] = &follow{id: e.FollowID, mentorID: e.MentorID, mentorName: e.MentorName, amount: e.Amount,
			profitShare: e.ProfitShare, ends: ends, state: events.FollowInProgress, spends: map[string]events.CopyFundsSpent{}, returns: map[string]bool{}}
	case events.CopyFundsSpent:
		if f := p.follows[e.FollowID]; f != nil {
			f.spent = f.spent.Add(e.Amount)
			e.Postings = nil
			f.spends[e.Ref] = e
		}
	case events.CopyFundsReturned:
		if f := p.follows[e.FollowID]; f != nil {
			f.returned = f.returned.Add(e.Amount)
			f.returns[e.Ref] = true
		}
		if no, ok := strings.CutPrefix(e.Ref, reclaimPrefix); ok {
			p.cash.Returned(no, e.Amount)
		}
	case events.FollowStopRequested:
		if f := p.follows[e.FollowID]; f != nil {
			f.state = events.FollowStopping
		}
	case events.FollowStopped:
		if f := p.follows[e.FollowID]; f != nil {
			f.state = e.State
		}
	case events.ProfitShareReceived:
		p.received[e.FollowID] = true
	case events.OrderPlaced:
		p.orders[e.OrderNo] = e.Origin
		if e.Origin != "" {
			p.working[e.OrderNo] = true
			p.cash.Own(e.OrderNo, e.Origin)
		}
		if e.Intent == events.IntentOpen {
			p.positions[e.PositionID] = &position{follow: e.Origin, symbol: e.Symbol, short: e.Direction == events.DirectionShort}
		}
	case events.OrderCancelled:
		delete(p.working, e.OrderNo)
	case events.OrderExpired:
		delete(p.working, e.OrderNo)
	case events.TradeCashReleased:
		p.cash.GaveBack(e.OrderNo, e.Amount)
	case events.OrderFilled:
		if e.Remaining == 0 {
			delete(p.working, e.OrderNo)
		}
		pos := p.positions[e.PositionID]
		if pos == nil {
			return
		}
		if opening := (e.Side == events.SideBuy) != pos.short; opening {
			pos.shares += e.Shares
			pos.held = pos.held.Sub(e.Cash)
			return
		}
		// a closing fill's net proceeds (a cover's: released margin and profit) land in available
		// cash: a mirrored order's are owed to its follow
		p.cash.GaveBack(e.OrderNo, e.Cash)
		if p.cash.Holder(e.OrderNo) != "" {
			p.sold[e.OrderNo] = true
		}
		pos.held = pos.held.Sub(mentor.HeldShare(pos.held, e.Shares, pos.shares))
		pos.shares -= e.Shares
		if f := p.follows[pos.follow]; f != nil {
			f.profit = f.profit.Add(e.Profit)
		}
		if pos.shares <= 0 {
			delete(p.positions, e.PositionID)
		}
	}
}

// HoldsOrder keeps new order numbers off the part's follows.
func (p *part) HoldsOrder(no string) bool { return p.follows[no] != nil }

// equity is the fund scale of the account: its cash and what its own open positions hold of it
// (as mentor.Compute counts it).
func equity(a *commands.Account) decimal.Decimal {
	b := a.Balances[twd]
	sum := b.Available.Add(b.Frozen)
	for _, pos := range copyPart.Of(a).positions {
		if pos.follow == "" {
			sum = sum.Add(pos.held)
		}
	}
	return sum
}

// followPositions are the open positions follow id opened, by position id.
func followPositions(p *part, id string) []Position {
	var out []Position
	for _, k := range slices.Sorted(maps.Keys(p.positions)) {
		if pos := p.positions[k]; pos.follow == id && pos.shares > 0 {
			out = append(out, Position{ID: k, Symbol: pos.symbol, Shares: pos.shares, Short: pos.short})
		}
	}
	return out
}

// workingOrders are the numbers of follow id's mirrored orders still working.
func workingOrders(p *part, id string) []string {
	var out []string
	for _, no := range slices.Sorted(maps.Keys(p.working)) {
		if p.orders[no] == id {
			out = append(out, no)
		}
	}
	return out
}

// parseWhole is a whole NT$ amount as typed, 0 < amount <= the rule's bound.
func parseWhole(s string, invalid string) (decimal.Decimal, *commands.Error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return decimal.Zero, commands.Invalid(commands.KeyAmountRequired)
	}
	a, err := money.ParseDecimal(s, 0)
	if err != nil || !a.IsPositive() || a.GreaterThan(mentor.MaxAmount) {
		return decimal.Zero, commands.Invalid(invalid)
	}
	return a, nil
}

// ProfileInput is a mentor's opt-in form as typed.
type ProfileInput struct {
	DisplayName, MinAmount, ProfitShare string
	WindowDays                          int
}

// validateProfile checks a profile form against the published bounds.
func validateProfile(in ProfileInput) (Profile, *commands.Error) {
	name := strings.TrimSpace(in.DisplayName)
	if name == "" {
		return Profile{}, commands.Invalid(KeyMentorNameRequired)
	}
	if utf8.RuneCountInString(name) > mentor.MaxNameRunes || strings.ContainsAny(name, "<>\n\r\t") {
		return Profile{}, commands.Invalid(commands.KeyInvalidRequest)
	}
	minAmount, e := parseWhole(in.MinAmount, KeyMinimumAmountInvalid)
	if e != nil {
		return Profile{}, e
	}
	if minAmount.LessThan(mentor.MinFollowFloor) {
		return Profile{}, commands.Invalid(KeyMinimumAmountInvalid)
	}
	if in.WindowDays < mentor.MinWindowDays || in.WindowDays > mentor.MaxWindowDays {
		return Profile{}, commands.Invalid(KeyWindowInvalid)
	}
	share, err := decimal.Zero, error(nil)
	if t := strings.TrimSpace(in.ProfitShare); t != "0" {
		share, err = money.ParseDecimal(t, 2)
	}
	if err != nil || share.IsNegative() || share.GreaterThan(mentor.MaxProfitShare) {
		return Profile{}, commands.Invalid(KeyProfitShareInvalid)
	}
	return Profile{DisplayName: name, MinAmount: minAmount, WindowDays: in.WindowDays, ProfitShare: share}, nil
}

// decideFollow commits amount of the follower's available cash to the mentor with profile.
func decideFollow(a *commands.Account, mentorID string, pr *Profile, amount decimal.Decimal, days int, now time.Time,
	followNo func(int) string) ([]events.Payload, error) {
	switch {
	case pr == nil:
		return nil, commands.NotFound(KeyMentorNotExist)
	case amount.LessThan(pr.MinAmount):
		return nil, commands.Rule(KeyBelowMinimum)
	case days == 0:
		days = pr.WindowDays
	}
	switch {
	case days < 0 || days > pr.WindowDays:
		return nil, commands.Rule(KeyTimeLimitExceeded)
	case amount.GreaterThan(a.Balances[twd].Available):
		return nil, commands.Rule(commands.KeyInsufficientBalance)
	}
	return []events.Payload{events.FollowStarted{FollowID: a.FreeOrderNo(followNo), MentorID: mentorID, MentorName: pr.DisplayName,
		Amount: amount, ProfitShare: pr.ProfitShare, Days: days, Ends: now.AddDate(0, 0, days).UTC().Format(time.RFC3339),
		Postings: events.FollowPostings(a.MemberID, twd, amount, false)}}, nil
}

// Spend asks for the part of a follow's commitment that mirrors one mentor fill: a buy's cost,
// or a short sale's margin at LimitUp (the day's limit-up, which trading reserves it at).
type Spend struct {
	FollowerID, FollowID, Ref, Symbol   string
	Price, Value, MentorEquity, LimitUp decimal.Decimal
	OddLots, Short                      bool
}

// ShortLeverage is a mirrored short sale's leverage: a member's own 融券 order's (margin 90 %).
var ShortLeverage = ticket.Leverage(ticket.Short)

// decideSpend scales the mentor's fill to the follow and takes its cost from the commitment,
// never more than what is left of it; nothing when the follow is over or nothing fits.
func decideSpend(a *commands.Account, in Spend, now time.Time) ([]events.Payload, error) {
	f := copyPart.Of(a).follows[in.FollowID]
	switch {
	case f == nil:
		return nil, commands.NotFound(KeyFollowNotFound)
	case f.state != events.FollowInProgress || !now.Before(f.ends):
		return nil, nil
	}
	if _, done := f.spends[in.Ref]; done {
		return nil, nil
	}
	o := mentor.Scale(f.amount, f.remaining(), in.MentorEquity, in.Value, in.Price, in.OddLots)
	direction := ""
	if in.Short {
		o = mentor.ScaleShort(f.amount, f.remaining(), in.MentorEquity, in.Value, in.Price, in.LimitUp, ShortLeverage)
		direction = events.DirectionShort
	}
	if o.Shares == 0 || o.Cost.GreaterThan(a.Balances[twd].Frozen) {
		return nil, nil
	}
	return []events.Payload{events.CopyFundsSpent{FollowID: f.id, Ref: in.Ref, Symbol: in.Symbol, Direction: direction, Shares: o.Shares,
		Price: in.Price, Amount: o.Cost, Postings: events.FollowPostings(a.MemberID, twd, o.Cost, true)}}, nil
}

// decideReturn puts a spend whose order was refused back into the commitment (what of it is
// still available), naming the refused order and the reason for the follower.
func decideReturn(a *commands.Account, followID, ref, reason string) ([]events.Payload, error) {
	f := copyPart.Of(a).follows[followID]
	if f == nil {
		return nil, commands.NotFound(KeyFollowNotFound)
	}
	sp, ok := f.spends[ref]
	if !ok || f.returns[ref] {
		return nil, nil
	}
	amount := decimal.Min(sp.Amount, a.Balances[twd].Available)
	if !amount.IsPositive() {
		return nil, nil
	}
	if f.state != events.FollowInProgress {
		return nil, nil // a stop is under way or done: the cash stays available
	}
	return []events.Payload{events.CopyFundsReturned{FollowID: followID, Ref: ref, Amount: amount, Reason: reason, Symbol: sp.Symbol,
		Direction: cmp.Or(sp.Direction, events.DirectionLong), Shares: sp.Shares, Postings: events.FollowPostings(a.MemberID, twd, amount, false)}}, nil
}

// reclaimPrefix starts the ref of the return of what a mirrored order gave back.
const reclaimPrefix = "order:"

// decideReclaim puts the cash mirrored order orderNo gave back to available cash back into its
// follow's commitment while the follow is in progress: what trading released when the order was
// done (cancelled, expired, or filled for less than reserved; reason events.CopyReturnOrderDone)
// and a closing fill's net proceeds (a sale's, a cover's released margin and profit; reason
// events.CopyReturnSold). So the commitment keeps bounding what the mirror spends and does not
// shrink with every round trip; once a stop is requested the cash stays available (what was due
// before it, the request took back itself: decideStopRequest). Never more
// than the order gave back and was not yet returned (commands.OrderCash) nor than is available.
func decideReclaim(a *commands.Account, orderNo, reason string) ([]events.Payload, error) {
	p := copyPart.Of(a)
	holder, amount := p.cash.Due(a, orderNo)
	f := p.follows[holder]
	if f == nil || f.state != events.FollowInProgress || !amount.IsPositive() {
		return nil, nil
	}
	return []events.Payload{events.CopyFundsReturned{FollowID: f.id, Ref: reclaimPrefix + orderNo, Amount: amount, Reason: reason,
		Postings: events.FollowPostings(a.MemberID, twd, amount, false)}}, nil
}

// decideStopRequest starts a follow's stop: it puts back into the commitment what the follow's
// orders gave back to available cash and the mirror has not reclaimed yet, then records the
// request, after which nothing more goes back into the commitment. So what the commitment holds
// at the stop does not depend on how far the mirror has read: everything given back before the
// request is in it, everything after (the stop's own cancels and closing sales) stays available.
// A follow already stopping answers nothing (a retried stop goes on from where it was).
func decideStopRequest(a *commands.Account, followID string, closed bool) ([]events.Payload, error) {
	p := copyPart.Of(a)
	f := p.follows[followID]
	switch {
	case f == nil:
		return nil, commands.NotFound(KeyFollowNotFound)
	case f.state == events.FollowStopping:
		return nil, nil
	case f.state != events.FollowInProgress:
		return nil, commands.Rule(KeyFollowNotInProgress)
	}
	var out []events.Payload
	left := a.Balances[twd].Available
	for _, no := range slices.Sorted(maps.Keys(p.orders)) {
		if p.orders[no] != followID {
			continue
		}
		_, due := p.cash.Due(a, no)
		if due = decimal.Min(due, left); !due.IsPositive() {
			continue
		}
		left = left.Sub(due)
		reason := events.CopyReturnOrderDone
		if p.sold[no] {
			reason = events.CopyReturnSold
		}
		out = append(out, events.CopyFundsReturned{FollowID: followID, Ref: reclaimPrefix + no, Amount: due, Reason: reason,
			Postings: events.FollowPostings(a.MemberID, twd, due, false)})
	}
	return append(out, events.FollowStopRequested{FollowID: followID, ClosePositions: closed}), nil
}

// decideStop ends a follow: cancelled by the follower, or ended once its window is over. The
// unspent commitment is released; the disclosed share of a positive copy profit is charged.
// Callers request the stop first (decideStopRequest) so that the commitment is settled before
// they cancel the follow's orders and close its positions.
func decideStop(a *commands.Account, followID string, closed bool, now time.Time) ([]events.Payload, error) {
	f := copyPart.Of(a).follows[followID]
	switch {
	case f == nil:
		return nil, commands.NotFound(KeyFollowNotFound)
	case !events.FollowLive(f.state):
		return nil, commands.Rule(KeyFollowNotInProgress)
	}
	state := events.FollowCancelled
	if !now.Before(f.ends) {
		state = events.FollowEnded
	}
	b := a.Balances[twd]
	released := decimal.Min(f.remaining(), b.Frozen)
	share := decimal.Min(mentor.ProfitShare(f.profit, f.profitShare), b.Available.Add(released))
	return []events.Payload{events.FollowStopped{FollowID: followID, MentorID: f.mentorID, State: state, ClosePositions: closed,
		Released: released, Profit: f.profit, Share: share, Postings: events.StopPostings(a.MemberID, twd, released, share)}}, nil
}

// decideReceive pays a follow's profit share to the mentor once.
func decideReceive(a *commands.Account, followID, followerID string, amount decimal.Decimal) ([]events.Payload, error) {
	if copyPart.Of(a).received[followID] || !amount.IsPositive() {
		return nil, nil
	}
	return []events.Payload{events.ProfitShareReceived{FollowID: followID, FollowerID: followerID, Amount: amount,
		Postings: events.ShareIncomePostings(a.MemberID, twd, amount)}}, nil
}
