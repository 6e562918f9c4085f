// Package coupons is the HTTP side of the daily check-in and coupons: members check in, see
// their streak, the published reward table and their coupons, and apply a coupon to an order;
// ops grant coupons with a reason.
package coupons

import (
	"context"
	"fmt"
	"time"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	cp "github.com/lotbook/lotbook/commands/coupons"
	"github.com/lotbook/lotbook/commands/rules/checkin"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/coupons"

	// The coupon settle process manager registers itself (process.Register) when linked in.
	_ "github.com/lotbook/lotbook/commands/coupons/settle"
)

// Commands are the write side's operations this module sends (*coupons.Commands of commands/coupons).
type Commands interface {
	CheckIn(ctx context.Context, meta commands.Meta, memberID string) (cp.Result, error)
	Grant(ctx context.Context, meta commands.Meta, memberID string, in cp.GrantInput) (cp.Result, error)
	Apply(ctx context.Context, meta commands.Meta, memberID, couponID, orderNo string) (cp.Result, error)
}

// Module serves the check-in and coupon routes.
type Module struct {
	cmd  Commands
	read *projections.ReadDB
	now  func() time.Time
}

// New is the coupons module over its commands, the read models and the server's clock.
func New(cmd Commands, read *projections.ReadDB, now func() time.Time) *Module {
	return &Module{cmd: cmd, read: read, now: now}
}

// Routes are the check-in and coupon operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Member, "GET", "/api/vue/checkin", httpx.IdemNone, m.state),
		httpx.Op(httpx.Member, "POST", "/api/vue/checkin", httpx.IdemRequired, m.checkIn),
		httpx.Op(httpx.Member, "GET", "/api/vue/coupons", httpx.IdemNone, m.mine),
		httpx.Op(httpx.Member, "POST", "/api/vue/coupons/{id}/apply", httpx.IdemRequired, m.apply),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/coupons", httpx.IdemNone, m.granted),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/coupons", httpx.IdemRequired, m.grant),
	}
}

// Table is the published reward table as the wire carries it.
func Table() []wire.CheckInReward {
	out := []wire.CheckInReward{}
	for _, r := range checkin.Table() {
		out = append(out, wire.CheckInReward{CycleDay: r.CycleDay, Value: httpx.Money(r.Value), Uses: r.Uses, ValidDays: r.ValidDays})
	}
	return out
}

func (m *Module) state(c *httpx.Call) (httpx.Reply, error) {
	ci, err := coupons.MemberCheckIn(c.Ctx(), m.read.Reader, c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("check-in of %s: %w", c.Sess.MemberID, err)
	}
	today := checkin.Day(m.now())
	done := ci.LastDay == today
	streak := int(ci.Streak)
	if !done && ci.LastDay != checkin.AddDays(today, -1) {
		streak = 0 // broken: the next check-in starts again at 1
	}
	next := checkin.CycleDay(streak + 1)
	return httpx.OK(wire.CheckInState{Today: today, CheckedInToday: done, Streak: streak, Total: int(ci.Total), NextCycleDay: next, Table: Table()})
}

func (m *Module) checkIn(c *httpx.Call) (httpx.Reply, error) {
	var req wire.Empty
	if err := c.Decode("Empty", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.CheckIn(c.Ctx(), c.Meta(), c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.Reply{Key: wire.MessageKeyCheckinSuccess, Data: wire.CheckInResult{Day: res.Day, Streak: res.Streak, CycleDay: res.CycleDay,
		CouponId: res.CouponID, Value: httpx.Money(res.Value), ExpiryDay: res.ExpiryDay, Position: res.Position}}, nil
}

func (m *Module) mine(c *httpx.Call) (httpx.Reply, error) {
	cs, err := coupons.MemberCoupons(c.Ctx(), m.read.Reader, c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("coupons of %s: %w", c.Sess.MemberID, err)
	}
	now := m.now()
	out := make([]wire.Coupon, 0, len(cs))
	for _, x := range cs {
		out = append(out, wire.Coupon{CouponId: x.CouponID, Kind: x.Kind, Value: httpx.Money(x.Value), Uses: int(x.Uses),
			Left: int(x.Left()), Status: wire.CouponStatus(x.Status(now)), Source: x.Source, Reason: x.Reason,
			ExpiryDay: x.ExpiryDay, ExpiresAt: x.ExpiresAt, Discount: httpx.Money(x.Discount), CreatedAt: x.CreatedAt})
	}
	return httpx.OK(out)
}

func (m *Module) apply(c *httpx.Call) (httpx.Reply, error) {
	var req wire.CouponApplyRequest
	if err := c.Decode("CouponApplyRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.Apply(c.Ctx(), c.Meta(), c.Sess.MemberID, c.Var("id"), req.OrderNo)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.Reply{Key: wire.MessageKeyCouponApplied, Data: wire.CouponApplyResult{CouponId: res.CouponID, OrderNo: res.OrderNo,
		Status: wire.CouponApplyResultStatus(res.Status), Discount: httpx.Money(res.Discount), Position: res.Position}}, nil
}

func (m *Module) granted(c *httpx.Call) (httpx.Reply, error) {
	page, size, err := httpx.Paging(c.R.URL.Query())
	if err != nil {
		return httpx.Reply{}, err
	}
	cs, more, err := coupons.Granted(c.Ctx(), m.read.Reader, page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("granted coupons: %w", err)
	}
	now := m.now()
	items := make([]wire.OpsCoupon, 0, len(cs))
	for _, x := range cs {
		account := ""
		if mem, err := m.read.MemberByID(c.Ctx(), x.MemberID); err == nil {
			account = mem.Account
		} else if !httpx.IsNotFound(err) {
			return httpx.Reply{}, fmt.Errorf("member of coupon %s: %w", x.CouponID, err)
		}
		items = append(items, wire.OpsCoupon{CouponId: x.CouponID, Account: account, Value: httpx.Money(x.Value), Uses: int(x.Uses),
			Left: int(x.Left()), Status: wire.CouponStatus(x.Status(now)), Reason: x.Reason, Actor: x.Actor, ExpiryDay: x.ExpiryDay,
			Discount: httpx.Money(x.Discount), CreatedAt: x.CreatedAt})
	}
	return httpx.OK(wire.OpsCouponPage{Items: items, Page: page, HasMore: more})
}

func (m *Module) grant(c *httpx.Call) (httpx.Reply, error) {
	var req wire.CouponGrantRequest
	if err := c.Decode("CouponGrantRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	mem, err := m.read.MemberByAccount(c.Ctx(), req.Account)
	if httpx.IsNotFound(err) || (err == nil && mem.Role != events.RoleMember) {
		return httpx.Reply{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("member %q: %w", req.Account, err)
	}
	res, err := m.cmd.Grant(c.Ctx(), c.Meta(), mem.MemberID, cp.GrantInput{Value: req.Value, Uses: req.Uses, ValidDays: req.ValidDays, Reason: req.Reason})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.Reply{Key: wire.MessageKeyCouponGranted, Data: wire.CouponGrantResult{CouponId: res.CouponID, Position: res.Position}}, nil
}
