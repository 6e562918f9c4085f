package subscription

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/commandstest/offeringtest"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/commands/rules/draw"
	"github.com/lotbook/lotbook/commands/rules/ipo"
	"github.com/lotbook/lotbook/events"
)

var tp = offeringtest.Taipei

var listing = events.SubscriptionIssueListed{IssueID: "7795-20261124", Symbol: "7795", Name: "長廣", Market: events.MarketTW, Currency: "TWD",
	Price: decimal.RequireFromString("62.5"), ReferencePrice: decimal.RequireFromString("88"), Lots: 2, UnitLots: 1, LotShares: 1000,
	Fee: ProcessingFee, Postage: WinnerPostage, OpensAt: tp("2026-11-24 09:00"), ClosesAt: tp("2026-11-26 14:00"),
	DrawDate: "2026-11-30", DeductionDate: "2026-12-01", RefundDate: "2026-12-02", ListingDate: "2026-12-04"}

func issueWith(drawnWinners ...string) issueFacts {
	s := &issue{}
	s.Apply(events.RecordedEvent{}, listing)
	if drawnWinners != nil {
		s.Apply(events.RecordedEvent{}, events.SubscriptionDrawn{IssueID: listing.IssueID, Winners: drawnWinners})
	}
	return s.facts()
}

// member is the member part of a member registered (as a member, not staff), verified, with flags on.
func member(registered, isMember, verified bool, flags ...string) offering.Member {
	var ps []events.Payload
	if registered {
		r := offeringtest.Registered
		if !isMember {
			r.Role = events.RoleOps
		}
		ps = append(ps, r)
	}
	if verified {
		ps = append(ps, events.RealNameApproved{})
	}
	for _, f := range flags {
		ps = append(ps, events.AccountFlagChanged{Flag: f, On: true})
	}
	return offeringtest.Member(ps...)
}

var ledger = offeringtest.Ledger

func TestDecideApply(t *testing.T) {
	verified := member(true, true, true)
	cash := func(s string) commands.Balance { return commands.Balance{Available: decimal.RequireFromString(s)} }
	open := tp("2026-11-25 10:00")
	applied := &applications{byNo: map[string]*application{}, byIssue: map[string]string{listing.IssueID: "S1"}}
	none := func() *applications {
		return &applications{byNo: map[string]*application{}, byIssue: map[string]string{}}
	}
	cases := []struct {
		name string
		apps *applications
		cash commands.Balance
		m    offering.Member
		is   issueFacts
		lots int64
		now  time.Time
		key  string
	}{
		{"applies", none(), cash("62520"), verified, issueWith(), 1, open, ""},
		{"a cent short of price and fee", none(), cash("62519.99"), verified, issueWith(), 1, open, commands.KeyInsufficientBalance},
		{"before the window", none(), cash("70000"), verified, issueWith(), 1, tp("2026-11-24 08:59"), KeyNotStarted},
		{"at the close", none(), cash("70000"), verified, issueWith(), 1, tp("2026-11-26 14:00"), KeyClosed},
		{"after listing", none(), cash("70000"), verified, issueWith(), 1, tp("2026-12-05 10:00"), KeyClosed},
		{"not verified", none(), cash("70000"), member(true, true, false), issueWith(), 1, open, KeyChannelNotOpen},
		{"repeat", applied, cash("70000"), verified, issueWith(), 1, open, KeyRepeated},
		{"two lots of a one-lot issue", none(), cash("700000"), verified, issueWith(), 2, open, commands.KeyQuantityInvalid},
		{"negative lots", none(), cash("700000"), verified, issueWith(), -1, open, commands.KeyQuantityInvalid},
		{"unknown issue", none(), cash("70000"), verified, (&issue{}).facts(), 1, open, KeyNotFound},
		{"trade banned", none(), cash("70000"), member(true, true, true, events.FlagTradeBanned), issueWith(), 1, open, commands.KeyTradeBanned},
		{"frozen", none(), cash("70000"), member(true, true, true, events.FlagFrozen), issueWith(), 1, open, commands.KeyAccountFrozen},
		{"staff", none(), cash("70000"), member(true, false, true), issueWith(), 1, open, commands.KeyAccountNotExist},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs, err := decideApply(c.apps, ledger, c.cash, c.m, c.is, c.lots, c.now, "S2")
			commandstest.WantKey(t, err, c.key)
			if c.key != "" {
				return
			}
			e := evs[0].(events.SubscriptionApplied)
			if !e.Amount.Equal(decimal.NewFromInt(62500)) || !e.Fee.Equal(ProcessingFee) || e.Shares != 1000 || e.ApplicationNo != "S2" {
				t.Fatalf("applied %+v", e)
			}
			if err := events.CheckBalanced(e.Postings); err != nil || !e.Postings[1].Amount.Equal(decimal.NewFromInt(62520)) || e.Postings[1].Account != ledger.Frozen {
				t.Fatalf("postings %+v (%v)", e.Postings, err)
			}
		})
	}
}

func TestDecideStep(t *testing.T) {
	app := func(f func(a *application)) *application {
		a := &application{issueID: listing.IssueID, shares: 1000, amount: decimal.NewFromInt(62500), fee: ProcessingFee}
		if f != nil {
			f(a)
		}
		return a
	}
	d := decimal.RequireFromString
	won := issueWith("S1")
	cases := []struct {
		name      string
		a         *application
		no        string
		available string
		is        issueFacts
		step      string
		now       time.Time
		key       string
		want      string // event name, "" for none
	}{
		{"winner pays", app(nil), "S1", "50", won, ipo.StepDeduct, tp("2026-12-01 08:00"), "", "SubscriptionPaid"},
		{"winner without the postage is unpaid", app(nil), "S1", "49.99", won, ipo.StepDeduct, tp("2026-12-01 09:00"), "", "SubscriptionUnpaid"},
		{"deduction before its time", app(nil), "S1", "50", won, ipo.StepDeduct, tp("2026-12-01 07:59"), KeyNotStarted, ""},
		{"loser is not deducted", app(nil), "S2", "50", won, ipo.StepDeduct, tp("2026-12-01 09:00"), "", ""},
		{"deducted once", app(func(a *application) { a.paid = true }), "S1", "50", won, ipo.StepDeduct, tp("2026-12-01 09:00"), "", ""},
		{"loser refunded", app(nil), "S2", "0", won, ipo.StepRefund, tp("2026-12-02 08:00"), "", "SubscriptionRefunded"},
		{"paid winner not refunded", app(func(a *application) { a.paid = true }), "S1", "0", won, ipo.StepRefund, tp("2026-12-02 09:00"), "", ""},
		{"unpaid winner waived", app(func(a *application) { a.unpaid = true }), "S1", "0", won, ipo.StepRefund, tp("2026-12-02 09:00"), "", "SubscriptionRefunded"},
		{"refunded once", app(func(a *application) { a.refunded = true }), "S2", "0", won, ipo.StepRefund, tp("2026-12-02 09:00"), "", ""},
		{"paid winner allotted", app(func(a *application) { a.paid = true }), "S1", "0", won, ipo.StepAllot, tp("2026-12-04 08:00"), "", "SubscriptionAllotted"},
		{"unpaid winner not allotted", app(func(a *application) { a.unpaid = true }), "S1", "0", won, ipo.StepAllot, tp("2026-12-04 08:00"), "", ""},
		{"before the draw nothing", app(nil), "S1", "50", issueWith(), ipo.StepDeduct, tp("2026-12-01 09:00"), "", ""},
		{"another issue's application", app(func(a *application) { a.issueID = "2330-20261124" }), "S1", "50", won, ipo.StepDeduct, tp("2026-12-01 09:00"), KeyNotFound, ""},
		{"unknown application", nil, "S9", "50", won, ipo.StepDeduct, tp("2026-12-01 09:00"), KeyNotFound, ""},
		{"unknown step", app(nil), "S1", "50", won, "payout", tp("2026-12-04 09:00"), commands.KeyInvalidRequest, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs, err := decideStep(c.a, c.no, ledger, d(c.available), c.is, c.step, c.now)
			commandstest.WantKey(t, err, c.key)
			if c.want == "" {
				if len(evs) != 0 {
					t.Fatalf("events %+v, want none", evs)
				}
				return
			}
			if len(evs) != 1 || evs[0].EventName() != c.want {
				t.Fatalf("events %+v, want %s", evs, c.want)
			}
			if m, ok := evs[0].(events.MovesMoney); ok {
				if err := events.CheckBalanced(m.MoneyPostings()); err != nil {
					t.Fatal(err)
				}
			}
			switch e := evs[0].(type) {
			case events.SubscriptionPaid:
				// price 62,500 and fee 20 from frozen, postage 50 from available
				var frozen, avail decimal.Decimal
				for _, p := range e.Postings {
					switch p.Account {
					case ledger.Frozen:
						frozen = frozen.Add(p.Amount)
					case ledger.Available:
						avail = avail.Add(p.Amount)
					}
				}
				if !frozen.Equal(d("-62520")) || !avail.Equal(d("-50")) {
					t.Fatalf("paid frozen %s available %s", frozen, avail)
				}
			case events.SubscriptionRefunded:
				if e.Waived != (c.no == "S1") || !e.Amount.Equal(d("62500")) || !e.Fee.Equal(d("20")) {
					t.Fatalf("refund %+v", e)
				}
			case events.SubscriptionAllotted:
				if e.Shares != 1000 || e.Security != "TW:7795" || !e.Basis.Equal(d("62500")) {
					t.Fatalf("allotted %+v", e)
				}
			}
		})
	}
}

func TestDecideDraw(t *testing.T) {
	seed := strings.Repeat("a7", 32)
	commit, _ := draw.Commitment(seed)
	listed := func() *issue {
		s := &issue{}
		s.Apply(events.RecordedEvent{}, listing)
		s.Apply(events.RecordedEvent{}, events.SubscriptionSeedCommitted{IssueID: listing.IssueID, Commitment: commit, Algorithm: draw.Algorithm})
		return s
	}
	apps := []offering.Entry{{No: "S3", MemberID: "m3"}, {No: "S1", MemberID: "m1"}, {No: "S2", MemberID: "m1"}, {No: "S1", MemberID: "m1"}}
	evs, err := decideDraw(listed(), seed, apps, tp("2026-11-30 08:00"))
	if err != nil {
		t.Fatal(err)
	}
	e := evs[0].(events.SubscriptionDrawn)
	want, _ := draw.Winners(seed, []string{"S1", "S2", "S3"}, 2)
	if len(e.Applications) != 3 || e.Applications[0] != "S1" || len(e.Winners) != 2 || e.Winners[0] != want[0] || e.Seed != seed || e.Commitment != commit ||
		len(e.Entrants) != 2 || e.Entrants[0] != "m1" {
		t.Fatalf("drawn %+v", e)
	}
	if _, err := decideDraw(listed(), seed, apps, tp("2026-11-30 07:59")); err == nil {
		t.Fatal("drew before the draw's time")
	}
	if _, err := decideDraw(listed(), strings.Repeat("a8", 32), apps, tp("2026-11-30 09:00")); err == nil {
		t.Fatal("drew with a seed other than the committed one")
	}
	s := listed()
	s.Apply(events.RecordedEvent{}, e)
	if evs, err := decideDraw(s, seed, apps, tp("2026-11-30 09:00")); err != nil || len(evs) != 0 {
		t.Fatalf("drew twice: %v %v", evs, err)
	}
}

func TestValidateListing(t *testing.T) {
	ok := ListIssue{Symbol: "7795", Name: "長廣", Market: "TW", Price: "62.5", ReferencePrice: "88", PE: "15.2", IndustryPE: "21.7",
		Lots: 2400, UnitLots: 1, OpensAt: tp("2026-11-24 09:00"), ClosesAt: tp("2026-11-26 14:00"), DrawDate: "2026-11-30",
		DeductionDate: "2026-12-01", RefundDate: "2026-12-02", ListingDate: "2026-12-04"}
	mod := func(f func(in *ListIssue)) ListIssue { in := ok; f(&in); return in }
	cases := []struct {
		name string
		in   ListIssue
		key  string
	}{
		{"listing", ok, ""},
		{"price with three decimals", mod(func(in *ListIssue) { in.Price = "62.505" }), commands.KeyPriceInvalid},
		{"negative price", mod(func(in *ListIssue) { in.Price = "-62.5" }), commands.KeyPriceInvalid},
		{"price in exponent form", mod(func(in *ListIssue) { in.Price = "6.25e1" }), commands.KeyPriceInvalid},
		{"zero price", mod(func(in *ListIssue) { in.Price = "0" }), commands.KeyPriceInvalid},
		{"no P/E", mod(func(in *ListIssue) { in.PE = "" }), commands.KeyPriceInvalid},
		{"lots not whole units", mod(func(in *ListIssue) { in.UnitLots = 7 }), commands.KeyQuantityInvalid},
		{"no lots", mod(func(in *ListIssue) { in.Lots = 0 }), commands.KeyQuantityInvalid},
		{"absurd lots", mod(func(in *ListIssue) { in.Lots = 1 << 40 }), commands.KeyQuantityInvalid},
		{"draw inside the window", mod(func(in *ListIssue) { in.DrawDate = "2026-11-25" }), KeyCalendarInvalid},
		{"lower-case code", mod(func(in *ListIssue) { in.Symbol = "77a5" }), commands.KeySymbolNotFound},
		{"blank name", mod(func(in *ListIssue) { in.Name = "  " }), commands.KeyInvalidRequest},
	}
	for _, c := range cases {
		e, err := validateListing(c.in)
		commandstest.WantKey(t, err, c.key)
		if c.key == "" && (e.IssueID != "7795-20261124" || !e.Price.Equal(decimal.RequireFromString("62.5")) || e.Shares() != 1000) {
			t.Errorf("%s: listing %+v", c.name, e)
		}
	}
}
