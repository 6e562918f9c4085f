package chipgrab

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/events"
)

var (
	d  = decimal.RequireFromString
	t0 = commandstest.T0
)

var offered = events.ChipGrabOffered{OfferingID: "off", Symbol: "2884", Name: "玉山金", Kind: "stock", Price: d("31"), QuotaLots: 10,
	MaxLotsPerMember: 3, OpensAt: t0.Add(-time.Hour), ClosesAt: t0.Add(time.Hour)}

func offeringWith(ps ...events.Payload) *offering {
	o := &offering{claims: map[string]*claim{}}
	for _, p := range append([]events.Payload{offered}, ps...) {
		o.Apply(events.RecordedEvent{}, p)
	}
	return o
}

func claimed(no, member string, lots, remaining int64) events.ChipGrabClaimed {
	return events.ChipGrabClaimed{OfferingID: "off", OrderNo: no, MemberID: member, Lots: lots, RemainingLots: remaining, RequestCommand: "req-" + no}
}

func key(err error) string {
	if e, ok := commands.AsError(err); ok {
		return e.Key
	}
	return ""
}

func TestDecideClaim(t *testing.T) {
	nearlyGone := offeringWith(claimed("G1", "a", 3, 7), claimed("G2", "b", 3, 4), claimed("G3", "c", 3, 1))
	for _, c := range []struct {
		name   string
		o      *offering
		member string
		lots   int64
		now    time.Time
		key    string
		left   int64
	}{
		{"first claim", offeringWith(), "a", 3, t0, "", 7},
		{"the last lot", nearlyGone, "d", 1, t0, "", 0},
		{"more than is left", nearlyGone, "d", 2, t0, "quota_insufficient", 0},
		{"past the member's cap", offeringWith(claimed("G1", "a", 2, 8)), "a", 2, t0, "quota_member_cap", 0},
		{"a released claim no longer counts", offeringWith(claimed("G1", "a", 3, 7),
			events.ChipGrabClaimReleased{OfferingID: "off", OrderNo: "G1", MemberID: "a", Lots: 3, RemainingLots: 10}), "a", 3, t0, "", 7},
		{"not yet open", offeringWith(), "a", 1, t0.Add(-2 * time.Hour), "chipgrab_closed", 0},
		{"closed", offeringWith(), "a", 1, t0.Add(time.Hour), "chipgrab_closed", 0},
		{"allotting", offeringWith(events.ChipGrabAllotmentStarted{OfferingID: "off"}), "a", 1, t0, "chipgrab_closed", 0},
		{"no offering", &offering{claims: map[string]*claim{}}, "a", 1, t0, "chipgrab_not_found", 0},
	} {
		ps, err := decideClaim(c.o, c.member, c.lots, "GX", "req", c.now)
		if key(err) != c.key {
			t.Errorf("%s: %v %v, want %q", c.name, ps, err, c.key)
			continue
		}
		if c.key == "" && (len(ps) != 1 || ps[0].(events.ChipGrabClaimed).RemainingLots != c.left) {
			t.Errorf("%s: %+v, want %d left", c.name, ps, c.left)
		}
	}
}

// funded is an account with amount TWD available.
func funded(amount string) *commands.Account {
	a := commands.NewAccount("m1")
	a.Apply(events.RecordedEvent{}, events.DepositApproved{OrderNo: "D0", Currency: "TWD", Amount: d(amount),
		Postings: events.Transfer(events.HouseBankClearing, a.Available, "TWD", d(amount))})
	return a
}

func TestDecideFreezeReleaseAllot(t *testing.T) {
	// 2 lots at 31: 62,000 and commission 88 (88.35).
	if got := cost(d("31"), 2); !got.Equal(d("62088")) {
		t.Fatalf("cost %s", got)
	}
	short := decideFreeze(funded("62087"), offered, "G1", 2, nil)
	if e, ok := short[0].(events.ChipGrabFreezeRefused); !ok || e.Reason != commands.KeyInsufficientBalance {
		t.Fatalf("one dollar short: %+v", short)
	}
	banned := decideFreeze(funded("100000"), offered, "G1", 2, commands.Forbidden(commands.KeyTradeBanned))
	if e, ok := banned[0].(events.ChipGrabFreezeRefused); !ok || e.Reason != commands.KeyTradeBanned {
		t.Fatalf("banned: %+v", banned)
	}
	a := funded("62088")
	ps := decideFreeze(a, offered, "G1", 2, nil)
	fr, ok := ps[0].(events.ChipGrabFrozen)
	if !ok || !fr.Amount.Equal(d("62088")) || events.CheckBalanced(fr.Postings) != nil {
		t.Fatalf("freeze %+v", ps)
	}
	a.Apply(events.RecordedEvent{}, fr)
	if again := decideFreeze(a, offered, "G1", 2, nil); again != nil {
		t.Fatalf("a second freeze of one claim: %+v", again)
	}

	o := offeringWith(claimed("G1", "m1", 2, 8))
	rel := decideRelease(o, "G1", commands.KeyInsufficientBalance)
	if len(rel) != 1 || rel[0].(events.ChipGrabClaimReleased).RemainingLots != 10 {
		t.Fatalf("release %+v", rel)
	}
	o.Apply(events.RecordedEvent{}, rel[0])
	if again := decideRelease(o, "G1", commands.KeyInsufficientBalance); again != nil {
		t.Fatalf("a second release: %+v", again)
	}

	allot := decideAllot(a, "G1", t0)
	if len(allot) != 3 {
		t.Fatalf("allot %+v", allot)
	}
	for _, p := range allot {
		a.Apply(events.RecordedEvent{}, p)
		if m, ok := p.(events.MovesMoney); ok && events.CheckBalanced(m.MoneyPostings()) != nil {
			t.Fatalf("%s unbalanced", p.EventName())
		}
	}
	if b := a.Balances["TWD"]; !b.Available.IsZero() || !b.Frozen.IsZero() {
		t.Fatalf("after allotment %+v", b)
	}
	if fill := allot[2].(events.OrderFilled); fill.Shares != 2000 || !fill.Amount.Equal(d("62000")) || !fill.Commission.Equal(d("88")) {
		t.Fatalf("fill %+v", fill)
	}
	if again := decideAllot(a, "G1", t0); again != nil {
		t.Fatalf("a second allotment: %+v", again)
	}
}

func TestDecideOffer(t *testing.T) {
	q := commands.ListingQuote{Symbol: "2884", Name: "玉山金", LimitUp: d("34.1"), LimitDown: d("27.9")}
	ok := OfferInput{Price: "31", QuotaLots: 10, MaxLotsPerMember: 3, OpensAt: t0, ClosesAt: t0.Add(time.Hour)}
	with := func(f func(*OfferInput)) OfferInput { in := ok; f(&in); return in }
	for _, c := range []struct {
		name string
		in   OfferInput
		q    commands.ListingQuote
		key  string
	}{
		{"ok", ok, q, ""},
		{"unknown symbol", ok, commands.ListingQuote{}, commands.KeySymbolNotFound},
		{"no quota", with(func(in *OfferInput) { in.QuotaLots = 0 }), q, KeyLotsInvalid},
		{"cap over quota", with(func(in *OfferInput) { in.MaxLotsPerMember = 11 }), q, KeyLotsInvalid},
		{"price malformed", with(func(in *OfferInput) { in.Price = "31.001" }), q, commands.KeyPriceInvalid},
		{"price out of band", with(func(in *OfferInput) { in.Price = "35" }), q, commands.KeyPriceOutOfBand},
		{"closes before opening", with(func(in *OfferInput) { in.ClosesAt = t0 }), q, KeyTimeInvalid},
	} {
		ps, err := decideOffer(&offering{claims: map[string]*claim{}}, "off", c.in, c.q, t0)
		if key(err) != c.key || (c.key == "" && len(ps) != 1) {
			t.Errorf("%s: %v %v, want %q", c.name, ps, err, c.key)
		}
	}
}
