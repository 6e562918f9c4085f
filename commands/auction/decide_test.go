package auction

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

var listing = events.AuctionListed{OfferingTerms: offeringtest.Terms, Lots: 10, MinPrice: d("95"), MaxLotsPerBidder: 4, DepositRate: d("0.2"), AwardDate: "2026-11-27"}

var seed = strings.Repeat("a7", 32)

func auctionWith(ps ...events.Payload) *auction {
	s := &auction{}
	for _, p := range append([]events.Payload{listing}, ps...) {
		s.Apply(events.RecordedEvent{}, p)
	}
	return s
}

var ledger = offeringtest.Ledger

var (
	member, registered = offeringtest.Member, offeringtest.Registered
	verified           = offeringtest.Verified()
)

func bidsWith(ps ...events.Payload) *bids {
	b := &bids{byNo: map[string]*bid{}, lots: map[string]int64{}}
	for _, p := range ps {
		b.Apply(events.RecordedEvent{}, p)
	}
	return b
}

func placed(no, price string, lots int64) events.AuctionBidPlaced {
	amount := d(price).Mul(decimal.NewFromInt(lots * 1000))
	return events.AuctionBidPlaced{AuctionID: listing.OfferingID, BidNo: no, Price: d(price), Lots: lots, Shares: lots * 1000,
		Amount: amount, Deposit: amount.Mul(d("0.2")).Ceil()}
}

func TestDecideBid(t *testing.T) {
	cash := func(s string) commands.Balance { return commands.Balance{Available: d(s)} }
	open := tp("2026-11-25 10:00")
	for _, c := range []struct {
		name  string
		bs    *bids
		cash  commands.Balance
		m     offering.Member
		a     *auction
		price string
		lots  int64
		now   time.Time
		key   string
	}{
		{"bids: deposit 20 % of 2 lots at 101.5", bidsWith(), cash("40600"), verified, auctionWith(), "101.5", 2, open, ""},
		{"a dollar short of the deposit", bidsWith(), cash("40599"), verified, auctionWith(), "101.5", 2, open, commands.KeyInsufficientBalance},
		{"below the minimum price", bidsWith(), cash("900000"), verified, auctionWith(), "94.99", 1, open, KeyPriceBelowMinimum},
		{"at the minimum price", bidsWith(), cash("900000"), verified, auctionWith(), "95", 1, open, ""},
		{"over the per-bidder cap in one bid", bidsWith(), cash("9000000"), verified, auctionWith(), "100", 5, open, offering.KeyCapExceeded},
		{"over the cap with an earlier bid", bidsWith(placed("A1", "100", 3)), cash("9000000"), verified, auctionWith(), "120", 2, open, offering.KeyCapExceeded},
		{"up to the cap with an earlier bid", bidsWith(placed("A1", "100", 3)), cash("9000000"), verified, auctionWith(), "120", 1, open, ""},
		{"before the window", bidsWith(), cash("900000"), verified, auctionWith(), "100", 1, tp("2026-11-24 08:59"), offering.KeyNotStarted},
		{"at the close", bidsWith(), cash("900000"), verified, auctionWith(), "100", 1, tp("2026-11-26 14:00"), offering.KeyClosed},
		{"not verified", bidsWith(), cash("900000"), member(registered), auctionWith(), "100", 1, open, offering.KeyChannelNotOpen},
		{"trade banned", bidsWith(), cash("900000"), member(registered, events.RealNameApproved{}, events.AccountFlagChanged{Flag: events.FlagTradeBanned, On: true}), auctionWith(), "100", 1, open, commands.KeyTradeBanned},
		{"unknown auction", bidsWith(), cash("900000"), verified, &auction{}, "100", 1, open, offering.KeyNotFound},
	} {
		t.Run(c.name, func(t *testing.T) {
			evs, err := decideBid(c.bs, ledger, c.cash, c.m, c.a.facts(), d(c.price), c.lots, c.now, "A2")
			commandstest.WantKey(t, err, c.key)
			if c.key != "" {
				return
			}
			e := evs[0].(events.AuctionBidPlaced)
			want := d(c.price).Mul(decimal.NewFromInt(c.lots * 1000)).Mul(d("0.2")).Ceil()
			if !e.Deposit.Equal(want) || e.BidNo != "A2" || !e.Postings[1].Amount.Equal(want) || e.Postings[1].Account != ledger.Frozen {
				t.Fatalf("bid %+v, want deposit %s frozen", e, want)
			}
		})
	}
}

func TestDecideAward(t *testing.T) {
	c, _ := draw.Commitment(seed)
	committed := events.AuctionSeedCommitted{OfferingSeed: events.OfferingSeed{OfferingID: listing.OfferingID, Commitment: c}}
	in := []events.AuctionBid{{No: "A1", Price: d("100"), Lots: 4}, {No: "A2", Price: d("120"), Lots: 4}, {No: "A3", Price: d("110"), Lots: 4}}
	if _, err := decideAward(auctionWith(committed), seed, in, nil, tp("2026-11-27 07:59")); err == nil {
		t.Fatal("awarded before the award date's step time")
	}
	evs, err := decideAward(auctionWith(committed), seed, in, []string{"m1", "m2"}, tp("2026-11-27 08:00"))
	if err != nil {
		t.Fatal(err)
	}
	a := evs[0].(events.AuctionAwarded)
	// 10 lots: A2 (120) 4, A3 (110) 4, A1 (100) the 2 left; each at its own price.
	want := []events.Grant{{No: "A2", Shares: 4000, Price: d("120")}, {No: "A3", Shares: 4000, Price: d("110")}, {No: "A1", Shares: 2000, Price: d("100")}}
	if a.Seed != seed || a.Commitment != c || len(a.Grants) != 3 || len(a.Entrants) != 2 {
		t.Fatalf("award %+v", a)
	}
	for i, g := range want {
		if a.Grants[i].No != g.No || a.Grants[i].Shares != g.Shares || !a.Grants[i].Price.Equal(g.Price) {
			t.Fatalf("grant %d %+v, want %+v", i, a.Grants[i], g)
		}
	}
	if again, err := decideAward(auctionWith(committed, a), seed, in, nil, tp("2026-11-28 08:00")); err != nil || again != nil {
		t.Fatalf("second award %v %v", again, err)
	}
}

func TestDecideSettleAndDeliver(t *testing.T) {
	awarded := auctionWith(events.AuctionAwarded{AuctionID: listing.OfferingID,
		Grants: []events.Grant{{No: "A1", Shares: 3000, Price: d("120")}, {No: "A3", Shares: 1000, Price: d("100")}}}).facts()
	b1, b2, b3 := placed("A1", "120", 3), placed("A2", "99", 2), placed("A3", "100", 10)
	bs := bidsWith(b1, b2, b3)
	sum := func(ps []events.Posting, account string) decimal.Decimal {
		out := decimal.Zero
		for _, p := range ps {
			if p.Account == account {
				out = out.Add(p.Amount)
			}
		}
		return out
	}
	for _, c := range []struct {
		name                string
		no                  string
		available           string
		cost, avail, frozen string // paid; change of available and frozen cash
		forfeit             bool
	}{
		{"winner pays its own bid: deposit then balance", "A1", "300000", "360000", "-288000", "-72000", false},
		{"loser's deposit released", "A2", "0", "0", "39600", "-39600", false},
		{"a lot of ten awarded: cost from the deposit, the rest released", "A3", "0", "100000", "100000", "-200000", false},
		{"winner without the balance forfeits the deposit", "A1", "287999", "", "0", "-72000", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			evs, err := decideSettle(bs.byNo[c.no], c.no, ledger, d(c.available), awarded)
			if err != nil {
				t.Fatal(err)
			}
			var ps []events.Posting
			switch e := evs[0].(type) {
			case events.AuctionSettled:
				if c.forfeit || !e.Cost.Equal(d(c.cost)) {
					t.Fatalf("settled %+v", e)
				}
				ps = e.Postings
			case events.AuctionForfeited:
				if !c.forfeit {
					t.Fatalf("forfeited %+v", e)
				}
				ps = e.Postings
			}
			if !sum(ps, ledger.Available).Equal(d(c.avail)) || !sum(ps, ledger.Frozen).Equal(d(c.frozen)) {
				t.Fatalf("available %s frozen %s, want %s %s", sum(ps, ledger.Available), sum(ps, ledger.Frozen), c.avail, c.frozen)
			}
		})
	}
	settled := bidsWith(b1, events.AuctionSettled{OfferingSettlement: events.OfferingSettlement{OfferingID: listing.OfferingID, No: "A1",
		Shares: 3000, Price: d("120"), Cost: d("360000")}})
	if evs, _ := decideSettle(settled.byNo["A1"], "A1", ledger, d("1"), awarded); evs != nil {
		t.Fatalf("settled twice: %v", evs)
	}
	if _, err := decideDeliver(settled.byNo["A1"], "A1", ledger, awarded, tp("2026-12-02 23:59")); err == nil {
		t.Fatal("delivered before the listing date")
	}
	evs, err := decideDeliver(settled.byNo["A1"], "A1", ledger, awarded, tp("2026-12-03 00:00"))
	if err != nil {
		t.Fatal(err)
	}
	e := evs[0].(events.AuctionDelivered)
	if h := e.Delivered(); h.Shares != 3000 || !h.Basis.Equal(d("360000")) || h.Day != "2026-11-27" || e.Postings[1].Account != events.MemberAccount("m1", events.KindShares) {
		t.Fatalf("delivered %+v", e)
	}
	if key, due := settled.NotYetTradable("A1", time.Time{}); !due || key != KeyNotYetListingTime {
		t.Fatal("awarded shares sell before they are delivered")
	}
	if evs, _ := decideDeliver(bs.byNo["A2"], "A2", ledger, awarded, tp("2026-12-03 09:00")); evs != nil {
		t.Fatalf("a loser delivered %v", evs)
	}
}
