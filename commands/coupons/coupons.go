// Package coupons is the daily check-in and its coupons on the write side (see
// events/coupon_events.go and the published rules in commands/rules/checkin).
//
// Everything lives on the member's account stream. A check-in is an append there with the
// expected version, so two check-ins of one Taipei day race on one stream and exactly one is
// written: the other decides again on the fresh stream and answers checkin_done. The account part
// also folds the member's own orders from trading's events (OrderPlaced, OrderFilled,
// OrderCancelled, OrderExpired) — events, never trading's package — so a coupon can be reserved
// against one of them and, once the order is done, redeemed for the commission it was charged.
// The process manager in commands/coupons/settle sends that last step when an order with a
// reserved coupon is done.
//
// "attempts insufficient" (次數不足) is published as: a coupon has a number of uses (one for
// check-in rewards; ops may grant up to ten); each order it is applied to takes one until the
// order ends unfilled; a coupon with none left answers attempts_insufficient.
package coupons

import (
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/checkin"
	"github.com/lotbook/lotbook/events"
)

// Message keys of check-in and coupons.
const (
	KeyCheckinDone          = "checkin_done"
	KeyAttemptsInsufficient = "attempts_insufficient"
	KeyCouponNotFound       = "coupon_not_found"
	KeyCouponExpired        = "coupon_expired"
	KeyCouponOrderInvalid   = "coupon_order_invalid" // not the member's own order placed today
	KeyCouponOrderTaken     = "coupon_order_taken"   // the order carries a coupon already
	KeyCouponValueInvalid   = "coupon_value_invalid"
	KeyCouponUsesInvalid    = "coupon_uses_invalid"
	KeyCouponDaysInvalid    = "coupon_days_invalid"
)

// Bounds of an ops grant.
const (
	MaxValue     = 1000 // NT$
	MaxUses      = 10
	MaxValidDays = 90
	MaxReason    = 200 // characters
)

// Outcomes of applying a coupon to an order.
const (
	StatusReserved = "reserved" // waiting for the order to be done
	StatusRedeemed = "redeemed" // the discount is paid
	StatusReleased = "released" // the order ended unfilled: the use is back
)

const unfilled = "unfilled"

// coupon is one coupon as the account knows it.
type coupon struct {
	events.CouponGranted
	used, reserved int
}

// left is the uses not yet taken.
func (c *coupon) left() int { return c.Uses - c.used - c.reserved }

// order is one of the member's own orders as the coupons need it.
type order struct {
	day        string // the Taipei day it was placed
	byMember   bool
	commission decimal.Decimal // charged by its fills so far
	done       bool
	coupon     string // reserved for it
	settled    bool   // its coupon redeemed or released
}

// book is the account's part of check-in and coupons.
type book struct {
	lastDay string
	streak  int
	coupons map[string]*coupon
	orders  map[string]*order
	pruned  string // the trading day orders were last pruned for
}

var bookPart = commands.RegisterAccountPart("coupons", func(commands.Ledger) *book {
	return &book{coupons: map[string]*coupon{}, orders: map[string]*order{}}
})

// Apply evolves the part from its own events and from trading's order events.
func (b *book) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.CheckedIn:
		b.lastDay, b.streak = e.Day, e.Streak
	case events.CouponGranted:
		b.coupons[e.CouponID] = &coupon{CouponGranted: e}
	case events.CouponReserved:
		if c := b.coupons[e.CouponID]; c != nil {
			c.reserved++
		}
		if o := b.orders[e.OrderNo]; o != nil {
			o.coupon = e.CouponID
		}
	case events.CouponReleased:
		b.settle(e.CouponID, e.OrderNo, false)
	case events.CouponRedeemed:
		b.settle(e.CouponID, e.OrderNo, true)
	case events.OrderPlaced:
		// Once per trading day, not per order: a scan of every order of the day on each new
		// one cost 2 % of the CPU per order at a few hundred orders a day (decisions check
		// the order's day, so an earlier day's order kept until the next day's is harmless).
		if e.TradingDay != b.pruned {
			b.prune(e.TradingDay)
			b.pruned = e.TradingDay
		}
		b.orders[e.OrderNo] = &order{day: e.TradingDay, byMember: e.By == events.OrderByMember}
	case events.OrderFilled:
		if o := b.orders[e.OrderNo]; o != nil {
			o.commission = o.commission.Add(e.Commission)
			o.done = o.done || e.Remaining == 0
		}
	case events.OrderCancelled:
		if o := b.orders[e.OrderNo]; o != nil {
			o.done = true
		}
	case events.OrderExpired:
		if o := b.orders[e.OrderNo]; o != nil {
			o.done = true
		}
	}
}

func (b *book) settle(couponID, orderNo string, used bool) {
	if c := b.coupons[couponID]; c != nil {
		c.reserved--
		if used {
			c.used++
		}
	}
	if o := b.orders[orderNo]; o != nil {
		o.settled = true
	}
}

// prune forgets orders of earlier days that need nothing more: a coupon applies only to an order
// of the day, and a reserved one is kept until it is settled.
func (b *book) prune(today string) {
	for no, o := range b.orders {
		if o.day != today && (o.coupon == "" || o.settled) {
			delete(b.orders, no)
		}
	}
}

// couponID is the id of the coupon a command grants, derived from its command id.
func couponID(commandID string) string {
	return uuid.NewSHA1(couponNamespace, []byte(commandID)).String()
}

var couponNamespace = uuid.MustParse("5b0f6c2e-9d41-4a8e-b7c3-1e2f3a4d5c6b")

// decideCheckIn checks the member in for the Taipei day of now, with the table's reward.
func decideCheckIn(b *book, id string, now time.Time) ([]events.Payload, error) {
	today := checkin.Day(now)
	if b.lastDay == today {
		return nil, commands.Rule(KeyCheckinDone)
	}
	streak := checkin.Streak(b.lastDay, b.streak, today)
	r := checkin.RewardOf(checkin.CycleDay(streak))
	last, stops := checkin.Expiry(today, r.ValidDays)
	return []events.Payload{
		events.CheckedIn{Day: today, Streak: streak, CycleDay: r.CycleDay, CouponID: id},
		events.CouponGranted{CouponID: id, Kind: events.CouponCommissionDiscount, Value: r.Value, Uses: r.Uses, ExpiryDay: last,
			ExpiresAt: stops, Source: events.CouponFromCheckIn},
	}, nil
}

// GrantInput is ops' grant form.
type GrantInput struct {
	Value     string // whole NT$
	Uses      int
	ValidDays int
	Reason    string
}

var wholeNTD = regexp.MustCompile(`^[1-9][0-9]{0,3}$`)

// validGrant checks ops' form and returns the value and the trimmed reason.
func validGrant(in GrantInput) (decimal.Decimal, string, error) {
	if !wholeNTD.MatchString(in.Value) {
		return decimal.Zero, "", commands.Invalid(KeyCouponValueInvalid)
	}
	v := decimal.RequireFromString(in.Value)
	reason := strings.TrimSpace(in.Reason)
	switch {
	case v.GreaterThan(decimal.NewFromInt(MaxValue)):
		return decimal.Zero, "", commands.Invalid(KeyCouponValueInvalid)
	case in.Uses < 1 || in.Uses > MaxUses:
		return decimal.Zero, "", commands.Invalid(KeyCouponUsesInvalid)
	case in.ValidDays < 1 || in.ValidDays > MaxValidDays:
		return decimal.Zero, "", commands.Invalid(KeyCouponDaysInvalid)
	case reason == "" || utf8.RuneCountInString(reason) > MaxReason || strings.ContainsAny(reason, "\x00\r\n"):
		return decimal.Zero, "", commands.Invalid(commands.KeyRemarkRequired)
	}
	return v, reason, nil
}

// decideGrant gives the member a coupon from ops, valid from today for ValidDays days.
func decideGrant(b *book, id string, value decimal.Decimal, in GrantInput, reason string, now time.Time) []events.Payload {
	if b.coupons[id] != nil {
		return nil
	}
	last, stops := checkin.Expiry(checkin.Day(now), in.ValidDays)
	return []events.Payload{events.CouponGranted{CouponID: id, Kind: events.CouponCommissionDiscount, Value: value, Uses: in.Uses,
		ExpiryDay: last, ExpiresAt: stops, Source: events.CouponFromOps, Reason: reason}}
}

// decideApply reserves one use of the member's coupon for the member's own order of today; an
// order already done is settled at once.
func decideApply(a *commands.Account, id, orderNo string, now time.Time) ([]events.Payload, error) {
	b := bookPart.Of(a)
	c := b.coupons[id]
	if c == nil {
		return nil, commands.NotFound(KeyCouponNotFound)
	}
	o := b.orders[orderNo]
	switch {
	case o == nil || !o.byMember || o.day != checkin.Day(now):
		return nil, commands.Rule(KeyCouponOrderInvalid)
	case o.coupon != "":
		return nil, commands.Rule(KeyCouponOrderTaken)
	case checkin.Expired(c.ExpiresAt, now):
		return nil, commands.Rule(KeyCouponExpired)
	case c.left() < 1:
		return nil, commands.Rule(KeyAttemptsInsufficient)
	}
	out := []events.Payload{events.CouponReserved{CouponID: id, OrderNo: orderNo}}
	if o.done {
		out = append(out, settlement(a, c, orderNo, o.commission))
	}
	return out, nil
}

// decideSettle redeems or releases the coupon reserved for a done order; nothing otherwise.
func decideSettle(a *commands.Account, orderNo string) []events.Payload {
	b := bookPart.Of(a)
	o := b.orders[orderNo]
	if o == nil || o.coupon == "" || o.settled || !o.done {
		return nil
	}
	c := b.coupons[o.coupon]
	if c == nil {
		return nil
	}
	return []events.Payload{settlement(a, c, orderNo, o.commission)}
}

// settlement pays the discount of a done order's coupon, or gives its use back when the order
// was charged no commission.
func settlement(a *commands.Account, c *coupon, orderNo string, commission decimal.Decimal) events.Payload {
	d := checkin.Discount(c.Value, commission)
	if !d.IsPositive() {
		return events.CouponReleased{CouponID: c.CouponID, OrderNo: orderNo, Reason: unfilled}
	}
	return events.CouponRedeemed{CouponID: c.CouponID, OrderNo: orderNo, Commission: commission, Discount: d,
		Postings: events.Transfer(events.HousePromotionExpense, a.Available, commands.TWD, d)}
}
