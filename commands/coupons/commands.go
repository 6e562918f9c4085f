package coupons

import (
	"context"
	"regexp"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// Commands are check-in's and coupons' commands over the kernel k.
type Commands struct{ k *commands.Service }

// New returns check-in's and coupons' commands over the kernel k.
func New(k *commands.Service) *Commands { return &Commands{k: k} }

// Result answers a check-in or coupon command.
type Result struct {
	Day               string
	Streak, CycleDay  int
	CouponID, OrderNo string
	Status            string          // of an applied coupon: reserved, redeemed, released
	Value, Discount   decimal.Decimal // the coupon granted; the discount paid
	ExpiryDay         string
	Position          int64
}

// resultOf reads a command's answer from the events it wrote (or wrote before, on a replay).
func resultOf(rec *commands.Record) Result {
	out := Result{Position: rec.Position}
	for _, p := range rec.Payloads {
		switch e := p.(type) {
		case events.CheckedIn:
			out.Day, out.Streak, out.CycleDay = e.Day, e.Streak, e.CycleDay
		case events.CouponGranted:
			out.CouponID, out.Value, out.ExpiryDay = e.CouponID, e.Value, e.ExpiryDay
		case events.CouponReserved:
			out.CouponID, out.OrderNo, out.Status = e.CouponID, e.OrderNo, StatusReserved
		case events.CouponRedeemed:
			out.CouponID, out.OrderNo, out.Status, out.Discount = e.CouponID, e.OrderNo, StatusRedeemed, e.Discount
		case events.CouponReleased:
			out.CouponID, out.OrderNo, out.Status = e.CouponID, e.OrderNo, StatusReleased
		}
	}
	return out
}

// member refuses a member id that is not a registered member, or one whose account is disabled.
func (s *Commands) member(ctx context.Context, memberID string) error {
	if !commands.ValidMemberID(memberID) {
		return commands.NotFound(commands.KeyAccountNotExist)
	}
	refusal, err := commands.View(ctx, s.k, events.MemberStream(memberID), func(m *commands.Member, _ *commands.Entry) *commands.Error {
		if !m.IsMember() {
			return commands.NotFound(commands.KeyAccountNotExist)
		}
		return m.RefuseFlags(events.FlagDisabled)
	})
	if err != nil {
		return err
	}
	if refusal != nil {
		return refusal
	}
	return nil
}

// onMember runs a command named name on a registered member's account stream; decide gets the
// command's derived coupon id and time.
func (s *Commands) onMember(ctx context.Context, meta commands.Meta, name, memberID string, check func() error,
	decide func(a *commands.Account, id string, now time.Time) ([]events.Payload, error)) (Result, error) {
	c, err := s.k.Begin(meta, name)
	if err != nil {
		return Result{}, err
	}
	if err := check(); err != nil {
		return Result{}, err
	}
	if err := s.member(ctx, memberID); err != nil {
		return Result{}, err
	}
	id := couponID(c.CommandID)
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		return decide(a, id, c.Now)
	})
	if err != nil {
		return Result{}, err
	}
	return resultOf(rec), nil
}

func noCheck() error { return nil }

// CheckIn checks the member in for today (Asia/Taipei) and grants the reward of the table;
// checkin_done when the member has checked in today.
func (s *Commands) CheckIn(ctx context.Context, meta commands.Meta, memberID string) (Result, error) {
	return s.onMember(ctx, meta, "coupons.checkin", memberID, noCheck, func(a *commands.Account, id string, now time.Time) ([]events.Payload, error) {
		return decideCheckIn(bookPart.Of(a), id, now)
	})
}

// Grant gives a member a commission coupon (ops), attributed to the ops user with a reason.
func (s *Commands) Grant(ctx context.Context, meta commands.Meta, memberID string, in GrantInput) (Result, error) {
	var value decimal.Decimal
	var reason string
	return s.onMember(ctx, meta, "coupons.grant", memberID, func() (err error) {
		value, reason, err = validGrant(in)
		return err
	}, func(a *commands.Account, id string, now time.Time) ([]events.Payload, error) {
		return decideGrant(bookPart.Of(a), id, value, in, reason, now), nil
	})
}

var orderNoPattern = regexp.MustCompile(`^[A-Z][0-9]{8,32}$`)

// Apply reserves one use of the member's coupon for the member's own order placed today (the
// order ticket sends it right after the order); an order already done is settled at once.
func (s *Commands) Apply(ctx context.Context, meta commands.Meta, memberID, id, orderNo string) (Result, error) {
	return s.onMember(ctx, meta, "coupons.apply", memberID, func() error {
		if !commands.ValidMemberID(id) {
			return commands.NotFound(KeyCouponNotFound)
		}
		if !orderNoPattern.MatchString(orderNo) {
			return commands.Invalid(KeyCouponOrderInvalid)
		}
		return nil
	}, func(a *commands.Account, _ string, now time.Time) ([]events.Payload, error) {
		return decideApply(a, id, orderNo, now)
	})
}

// Settle redeems or releases the coupon reserved for the member's order once it is done; the
// process manager sends it, with an id derived from the event that ended the order.
func (s *Commands) Settle(ctx context.Context, meta commands.Meta, memberID, orderNo string) (Result, error) {
	c, err := s.k.Begin(meta, "coupons.settle")
	if err != nil {
		return Result{}, err
	}
	if !commands.ValidMemberID(memberID) {
		return Result{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		return decideSettle(a, orderNo), nil
	})
	if err != nil {
		return Result{}, err
	}
	return resultOf(rec), nil
}
