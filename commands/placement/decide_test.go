package placement

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
	"github.com/lotbook/lotbook/events"
)

var tp = offeringtest.Taipei

var d = decimal.RequireFromString

var offer = events.PlacementOffered{OfferingTerms: offeringtest.Terms, Price: d("88"), Lots: 1, MaxLotsPerMember: 2}

func placementWith(ps ...events.Payload) *placement {
	s := &placement{}
	for _, p := range append([]events.Payload{offer}, ps...) {
		s.Apply(events.RecordedEvent{}, p)
	}
	return s
}

var ledger = offeringtest.Ledger

func TestDecideApply(t *testing.T) {
	none := func() *applications { return &applications{byNo: map[string]*application{}, lots: map[string]int64{}} }
	one := none()
	one.Apply(events.RecordedEvent{}, events.PlacementApplied{PlacementID: offer.OfferingID, ApplicationNo: "P1", Lots: 1, Shares: 1000, Price: d("88"), Amount: d("88000")})
	cash := func(s string) commands.Balance { return commands.Balance{Available: d(s)} }
	open := tp("2026-11-25 10:00")
	for _, c := range []struct {
		name string
		as   *applications
		cash commands.Balance
		lots int64
		now  time.Time
		key  string
	}{
		{"applies: the whole amount frozen", none(), cash("176000"), 2, open, ""},
		{"a dollar short", none(), cash("175999"), 2, open, commands.KeyInsufficientBalance},
		{"over the per-member cap", none(), cash("900000"), 3, open, offering.KeyCapExceeded},
		{"over the cap with an earlier application", one, cash("900000"), 2, open, offering.KeyCapExceeded},
		{"after the window", none(), cash("900000"), 1, tp("2026-11-26 14:00"), offering.KeyClosed},
	} {
		t.Run(c.name, func(t *testing.T) {
			evs, err := decideApply(c.as, ledger, c.cash, offeringtest.Verified(), placementWith().facts(), c.lots, c.now, "P2")
			commandstest.WantKey(t, err, c.key)
			if c.key == "" && !evs[0].(events.PlacementApplied).Amount.Equal(d("176000")) {
				t.Fatalf("applied %+v", evs[0])
			}
		})
	}
}

func TestDecideRequestAllotAndSettle(t *testing.T) {
	if _, err := decideRequest(placementWith(), tp("2026-11-26 13:59")); err == nil {
		t.Fatal("allotment asked for before the window closed")
	}
	req, err := decideRequest(placementWith(), tp("2026-11-26 15:00"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := decideRequest(placementWith(req[0]), tp("2026-11-26 15:00")); err == nil {
		t.Fatal("allotment asked for twice")
	}
	seed := strings.Repeat("a7", 32)
	// 1,000 shares over 3 × 1,000 asked: 333 each, the one left to the application the seed draws.
	requests := []events.Grant{{No: "P1", Shares: 1000, Price: d("88")}, {No: "P2", Shares: 1000, Price: d("88")}, {No: "P3", Shares: 1000, Price: d("88")}}
	if evs, _ := decideAllot(placementWith(), seed, requests, nil); evs != nil {
		t.Fatal("allotted before ops asked")
	}
	evs, err := decideAllot(placementWith(req[0]), seed, requests, []string{"m1"})
	if err != nil {
		t.Fatal(err)
	}
	a := evs[0].(events.PlacementAllotted)
	if len(a.Entrants) != 1 {
		t.Fatalf("entrants %v", a.Entrants)
	}
	w, _ := draw.Winners(seed, []string{"P1", "P2", "P3"}, 1)
	for _, g := range a.Grants {
		want := int64(333)
		if g.No == w[0] {
			want = 334
		}
		if g.Shares != want {
			t.Fatalf("grants %+v", a.Grants)
		}
	}
	f := placementWith(req[0], a).facts()
	app := &application{placementID: offer.OfferingID, shares: 1000, price: d("88"), amount: d("88000")}
	st, err := decideSettle(app, "P1", ledger, f)
	if err != nil {
		t.Fatal(err)
	}
	s := st[0].(events.PlacementSettled)
	if !s.Cost.Equal(d("88").Mul(decimal.NewFromInt(f.Grants["P1"]))) || !s.Released.Equal(d("88000").Sub(s.Cost)) || !s.FromAvailable.IsZero() {
		t.Fatalf("settled %+v", s)
	}
}
