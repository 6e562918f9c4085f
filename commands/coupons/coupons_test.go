package coupons

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/events"
)

var d = decimal.RequireFromString

// at is Taipei wall time on 2026-11-<day>.
func at(day, hour, minute, sec int) time.Time {
	return time.Date(2026, 11, day, hour, minute, sec, 0, time.FixedZone("TPE", 8*3600)).UTC()
}

func account(ps ...events.Payload) *commands.Account {
	return commandstest.Build(commands.NewAccount("m1"), nil, ps...)
}

func TestCheckInStreakAndRewards(t *testing.T) {
	for _, c := range []struct {
		name      string
		before    []events.Payload
		now       time.Time
		key       string
		streak    int
		value     string
		expiryDay string
	}{
		{name: "first", now: at(24, 9, 0, 0), streak: 1, value: "5", expiryDay: "2026-11-30"},
		{name: "again today", before: []events.Payload{events.CheckedIn{Day: "2026-11-24", Streak: 1, CycleDay: 1}}, now: at(24, 23, 59, 59),
			key: KeyCheckinDone},
		{name: "just after Taipei midnight is the next day", before: []events.Payload{events.CheckedIn{Day: "2026-11-24", Streak: 1, CycleDay: 1}},
			now: at(25, 0, 0, 0), streak: 2, value: "5", expiryDay: "2026-12-01"},
		{name: "day 7 is the big coupon", before: []events.Payload{events.CheckedIn{Day: "2026-11-23", Streak: 6, CycleDay: 6}},
			now: at(24, 8, 0, 0), streak: 7, value: "50", expiryDay: "2026-12-23"},
		{name: "day 8 starts the cycle again", before: []events.Payload{events.CheckedIn{Day: "2026-11-23", Streak: 7, CycleDay: 7}},
			now: at(24, 8, 0, 0), streak: 8, value: "5", expiryDay: "2026-11-30"},
		{name: "a missed day resets", before: []events.Payload{events.CheckedIn{Day: "2026-11-22", Streak: 5, CycleDay: 5}},
			now: at(24, 8, 0, 0), streak: 1, value: "5", expiryDay: "2026-11-30"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ps, err := decideCheckIn(bookPart.Of(account(c.before...)), "c1", c.now)
			commandstest.WantKey(t, err, c.key)
			if c.key != "" {
				if len(ps) != 0 {
					t.Fatalf("refusal wrote %v", ps)
				}
				return
			}
			in, g := ps[0].(events.CheckedIn), ps[1].(events.CouponGranted)
			if in.Streak != c.streak || !g.Value.Equal(d(c.value)) || g.ExpiryDay != c.expiryDay || g.Source != events.CouponFromCheckIn ||
				in.CouponID != g.CouponID || g.Uses != 1 {
				t.Fatalf("%+v %+v", in, g)
			}
		})
	}
}

func TestGrantValidation(t *testing.T) {
	ok := GrantInput{Value: "50", Uses: 2, ValidDays: 30, Reason: " welcome "}
	for _, c := range []struct {
		name string
		edit func(*GrantInput)
		key  string
	}{
		{"ok", func(*GrantInput) {}, ""},
		{"zero", func(g *GrantInput) { g.Value = "0" }, KeyCouponValueInvalid},
		{"cents", func(g *GrantInput) { g.Value = "5.5" }, KeyCouponValueInvalid},
		{"negative", func(g *GrantInput) { g.Value = "-5" }, KeyCouponValueInvalid},
		{"too big", func(g *GrantInput) { g.Value = "1001" }, KeyCouponValueInvalid},
		{"leading zero", func(g *GrantInput) { g.Value = "050" }, KeyCouponValueInvalid},
		{"no uses", func(g *GrantInput) { g.Uses = 0 }, KeyCouponUsesInvalid},
		{"too many uses", func(g *GrantInput) { g.Uses = 11 }, KeyCouponUsesInvalid},
		{"no days", func(g *GrantInput) { g.ValidDays = 0 }, KeyCouponDaysInvalid},
		{"too many days", func(g *GrantInput) { g.ValidDays = 91 }, KeyCouponDaysInvalid},
		{"no reason", func(g *GrantInput) { g.Reason = "  " }, commands.KeyRemarkRequired},
		{"newline", func(g *GrantInput) { g.Reason = "a\nb" }, commands.KeyRemarkRequired},
	} {
		in := ok
		c.edit(&in)
		_, reason, err := validGrant(in)
		commandstest.WantKey(t, err, c.key)
		if c.key == "" && reason != "welcome" {
			t.Fatalf("reason %q", reason)
		}
	}
}

// placed is the member's order T1 of 2026-11-24.
var placed = events.OrderPlaced{OrderNo: "T1", PositionID: "T1", Intent: events.IntentOpen, Symbol: "2882", Side: events.SideBuy,
	Direction: events.DirectionLong, Type: events.OrderLimit, Shares: 1000, TradingDay: "2026-11-24", By: events.OrderByMember}

func granted(id, value string, uses int) events.CouponGranted {
	return events.CouponGranted{CouponID: id, Kind: events.CouponCommissionDiscount, Value: d(value), Uses: uses, ExpiryDay: "2026-11-30",
		ExpiresAt: at(30, 24, 0, 0), Source: events.CouponFromOps, Reason: "r"}
}

func TestApply(t *testing.T) {
	now := at(24, 10, 0, 0)
	fill := func(commission string, remaining int64) events.OrderFilled {
		return events.OrderFilled{OrderNo: "T1", Shares: 1000, Commission: d(commission), Remaining: remaining}
	}
	for _, c := range []struct {
		name   string
		before []events.Payload
		coupon string
		now    time.Time
		key    string
		want   []string // event names
		amount string   // the discount paid
	}{
		{name: "open order: reserved", before: []events.Payload{granted("c1", "50", 1), placed}, want: []string{"CouponReserved"}},
		{name: "filled order: redeemed at once, capped at the commission", before: []events.Payload{granted("c1", "50", 1), placed, fill("20", 0)},
			want: []string{"CouponReserved", "CouponRedeemed"}, amount: "20"},
		{name: "value below the commission", before: []events.Payload{granted("c1", "5", 1), placed, fill("71", 0)},
			want: []string{"CouponReserved", "CouponRedeemed"}, amount: "5"},
		{name: "cancelled unfilled: released", before: []events.Payload{granted("c1", "50", 1), placed,
			events.OrderCancelled{OrderNo: "T1", Shares: 1000}}, want: []string{"CouponReserved", "CouponReleased"}},
		{name: "foreign coupon", before: []events.Payload{placed}, key: KeyCouponNotFound},
		{name: "unknown order", before: []events.Payload{granted("c1", "50", 1)}, key: KeyCouponOrderInvalid},
		{name: "an order of yesterday", before: []events.Payload{granted("c1", "50", 1), placed}, now: at(25, 0, 0, 1), key: KeyCouponOrderInvalid},
		{name: "an order the rules placed", before: []events.Payload{granted("c1", "50", 1), func() events.OrderPlaced {
			p := placed
			p.By = events.OrderByForcedClose
			return p
		}()}, key: KeyCouponOrderInvalid},
		{name: "expired", before: []events.Payload{func() events.CouponGranted {
			g := granted("c1", "50", 1)
			g.ExpiresAt = at(24, 10, 0, 0)
			return g
		}(), placed}, key: KeyCouponExpired},
		{name: "attempts insufficient", before: []events.Payload{granted("c1", "50", 1), placed, events.CouponReserved{CouponID: "c1", OrderNo: "T0"},
			func() events.OrderPlaced { p := placed; p.OrderNo = "T2"; return p }()}, key: KeyAttemptsInsufficient},
		{name: "a released use comes back", before: []events.Payload{granted("c1", "50", 1), events.CouponReserved{CouponID: "c1", OrderNo: "T0"},
			events.CouponReleased{CouponID: "c1", OrderNo: "T0", Reason: "unfilled"}, placed}, want: []string{"CouponReserved"}},
		{name: "order has a coupon", before: []events.Payload{granted("c1", "50", 2), placed, events.CouponReserved{CouponID: "c1", OrderNo: "T1"}},
			key: KeyCouponOrderTaken},
	} {
		t.Run(c.name, func(t *testing.T) {
			when := now
			if !c.now.IsZero() {
				when = c.now
			}
			a := account(c.before...)
			ps, err := decideApply(a, "c1", "T1", when)
			commandstest.WantKey(t, err, c.key)
			if len(ps) != len(c.want) {
				t.Fatalf("events %v", ps)
			}
			for i, p := range ps {
				if p.EventName() != c.want[i] {
					t.Fatalf("events %v", ps)
				}
				if r, ok := p.(events.CouponRedeemed); ok {
					if !r.Discount.Equal(d(c.amount)) || events.CheckBalanced(r.Postings) != nil ||
						r.Postings[0].Account != events.HousePromotionExpense || r.Postings[1].Account != events.MemberAvailable("m1") {
						t.Fatalf("redeemed %+v", r)
					}
				}
			}
		})
	}
}

func TestSettleOnceWhenTheOrderIsDone(t *testing.T) {
	a := account(granted("c1", "50", 1), placed, events.CouponReserved{CouponID: "c1", OrderNo: "T1"},
		events.OrderFilled{OrderNo: "T1", Shares: 500, Commission: d("30"), Remaining: 500})
	if ps := decideSettle(a, "T1"); len(ps) != 0 {
		t.Fatalf("settled a working order: %v", ps)
	}
	a.Apply(events.RecordedEvent{}, events.OrderCancelled{OrderNo: "T1", Shares: 500})
	ps := decideSettle(a, "T1")
	r, ok := ps[0].(events.CouponRedeemed)
	if len(ps) != 1 || !ok || !r.Discount.Equal(d("30")) || !r.Commission.Equal(d("30")) {
		t.Fatalf("%v", ps)
	}
	a.Apply(events.RecordedEvent{}, r)
	if ps := decideSettle(a, "T1"); len(ps) != 0 {
		t.Fatalf("settled twice: %v", ps)
	}
	if c := bookPart.Of(a).coupons["c1"]; c.left() != 0 || c.used != 1 {
		t.Fatalf("coupon %+v", c)
	}
}
