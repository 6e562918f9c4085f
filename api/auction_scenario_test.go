package api

import (
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands/rules/draw"
)

// auctionOf reads an auction with m's bids.
func (c *client) auctionOf(id string) wire.AuctionDetail {
	c.h.t.Helper()
	var d wire.AuctionDetail
	c.at("/api/vue/auction/auctions/"+id, c.h.head(), &d)
	return d
}

// ticking waits for cond while the clock ticks a second at a time, as it does in production: the
// offering process sends what is due once a second of its clock.
func (h *harness) ticking(what string, cond func() bool) {
	h.t.Helper()
	h.until(what, func() bool {
		h.clock.Advance(time.Second)
		return cond()
	})
}

// auctionMember is a new member, verified unless not, with amount TWD unless "".
func (h *harness) auctionMember(verified bool, amount string) *client {
	h.t.Helper()
	m := h.register("09" + strconv.Itoa(50000000+int(imageSizes.Add(1))))
	if verified {
		m.verify(twID(int(imageSizes.Add(1))))
	}
	if amount != "" {
		m.fund(amount)
	}
	return m
}

// TestAuction walks an auction over HTTP: ops list it (bad forms refused); members bid (bad
// input, the minimum price, the per-bidder cap, no funds and no verification refused; five bids
// at once against a cap of four lots take four); after the window the award reveals the
// committed seed: the highest prices are awarded whole, a tie at the last price goes in the
// order the seed draws (the auditor re-runs it); each winner pays its own bid, a winner without
// the balance forfeits the deposit, losers' deposits are released, fund records show every line;
// the shares cannot be sold before the listing date, when they are delivered as a holding.
func TestAuction(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		// Monday 2 March 2026 10:00 Taipei: the window opened at 09:00 and closes Tuesday 14:00.
		form := map[string]any{"symbol": "1295", "lots": 10, "minPrice": "50", "maxLotsPerBidder": 4, "depositRate": "20",
			"opensAt": "2026-03-02T01:00:00Z", "closesAt": "2026-03-03T06:00:00Z", "awardDate": "2026-03-04", "listingDate": "2026-03-09"}
		h.refusedForms("/api/vue/ops/auction/auctions", form, []badField{
			{"minPrice", "-50", 400, "price_invalid"},
			{"minPrice", "50.001", 400, "price_invalid"},
			{"depositRate", "0", 400, "auction_deposit_rate_invalid"},
			{"depositRate", "100.5", 400, "auction_deposit_rate_invalid"},
			{"lots", 0, 400, "quantity_required"},
			{"maxLotsPerBidder", 11, 400, "quantity_invalid"},
			{"awardDate", "2026-03-02", 400, "offering_dates_invalid"},
			{"listingDate", "2026-03-03", 400, "offering_dates_invalid"},
			{"symbol", "9999999", 404, "symbol_not_found"},
			{"lots", "10", 400, "invalid_request"},
		})
		a := h.ops.post("/api/vue/ops/auction/auctions", form)
		want(t, a, 200, "ok")
		var listed wire.OfferingListedResult
		a.data(t, &listed)
		id := listed.Id
		if id != "1295-20260302" || len(listed.Commitment) != 64 {
			t.Fatalf("listed %+v", listed)
		}
		want(t, h.ops.post("/api/vue/ops/auction/auctions", form), 422, "offering_exists")

		// Bidders: b[0] 4 lots at 60; b[1] 3 at 55 without the balance; b[2..4] 2 each at 52 (a tie
		// of 6 lots for the 3 left); b[5] 1 at 50 (awarded nothing); capped bids 1 lot at 51 five at once.
		b := []*client{h.auctionMember(true, "250000"), h.auctionMember(true, "40000"), h.auctionMember(true, "110000"),
			h.auctionMember(true, "110000"), h.auctionMember(true, "110000"), h.auctionMember(true, "20000"), h.auctionMember(true, "60000")}
		poor, unverified := h.auctionMember(true, ""), h.auctionMember(false, "100000")
		bidPath := "/api/vue/auction/auctions/" + id + "/bid"
		bid := func(c *client, price string, lots int) answer {
			return c.post(bidPath, map[string]any{"price": price, "lots": lots})
		}
		// Bad input changes nothing.
		m := b[0]
		h.refused(400, "quantity_required", func() answer { return bid(m, "60", 0) })
		h.refused(400, "quantity_invalid", func() answer { return bid(m, "60", -1) })
		h.refused(400, "price_invalid", func() answer { return bid(m, "60.001", 1) })
		h.refused(400, "price_invalid", func() answer { return bid(m, "abc", 1) })
		h.refused(400, "invalid_request", func() answer { return m.post(bidPath, map[string]any{"price": "60", "lots": "1"}) })
		h.refused(400, "invalid_request", func() answer { return m.post(bidPath, map[string]any{"price": 60, "lots": 1}) })
		h.refused(400, "invalid_request", func() answer { return m.post(bidPath, map[string]any{"price": "60", "lots": 1, "deposit": "0"}) })
		h.refused(422, "auction_price_below_minimum", func() answer { return bid(m, "49.99", 1) })
		h.refused(422, "offering_cap_exceeded", func() answer { return bid(m, "60", 5) })
		h.refused(422, "insufficient_balance", func() answer { return bid(poor, "50", 1) })
		h.refused(422, "subscription_channel_not_open", func() answer { return bid(unverified, "50", 1) })
		h.refused(404, "not_found", func() answer {
			return m.post("/api/vue/auction/auctions/1295-20990101/bid", map[string]any{"price": "60", "lots": 1})
		})
		h.refused(404, "not_found", func() answer {
			return m.post("/api/vue/auction/auctions/..%2f/bid", map[string]any{"price": "60", "lots": 1})
		})
		want(t, h.ops.post(bidPath, map[string]any{"price": "60", "lots": 1}), 403, "forbidden")

		a = bid(m, "60", 4)
		want(t, a, 200, "ok")
		var placed wire.AuctionBidResult
		a.data(t, &placed)
		if placed.Deposit != "48000.00" || placed.Available != "202000.00" || placed.Frozen != "48000.00" {
			t.Fatalf("bid %+v", placed)
		}
		h.refused(422, "offering_cap_exceeded", func() answer { return bid(m, "70", 1) })
		for i, price := range map[int]string{1: "55", 2: "52", 3: "52", 4: "52", 5: "50"} {
			lots := map[int]int{1: 3, 5: 1}[i]
			if lots == 0 {
				lots = 2
			}
			want(t, bid(b[i], price, lots), 200, "ok")
		}
		// Five one-lot bids at once against the cap of four: four are taken.
		var wg sync.WaitGroup
		answers := make(chan answer, 5)
		for range 5 {
			wg.Go(func() { answers <- b[6].postKey(bidPath, uuid.NewString(), map[string]any{"price": "51", "lots": 1}) })
		}
		wg.Wait()
		close(answers)
		taken, capped := 0, 0
		for a := range answers {
			switch a.Msg {
			case "ok":
				taken++
			case "offering_cap_exceeded":
				capped++
			default:
				t.Fatalf("capped bid %v", a)
			}
		}
		if taken != 4 || capped != 1 {
			t.Fatalf("%d bids taken, %d capped", taken, capped)
		}
		b[6].wantCash(h.head(), "19200.00", "40800.00") // four deposits of 10,200

		var list []wire.Auction
		m.at("/api/vue/auction/auctions", h.head(), &list)
		if len(list) != 1 || list[0].State != wire.OfferingStateOpen || list[0].MyLots != 4 || list[0].Bids != 10 || list[0].DepositRate != "20.00" {
			t.Fatalf("auctions %+v", list)
		}
		// The window closes.
		h.clock.Advance(28 * time.Hour) // Tuesday 14:00
		h.refused(422, "offering_closed", func() answer { return bid(b[5], "80", 1) })

		// Wednesday 08:00: the award.
		h.clock.Advance(18 * time.Hour)
		h.until("the award", func() bool { return m.auctionOf(id).Auction.Awarded })
		d := m.auctionOf(id)
		if d.Auction.Seed == "" || d.Auction.AwardedLots != 10 || d.Auction.State != wire.OfferingStateClosed {
			t.Fatalf("awarded %+v", d.Auction)
		}
		var check wire.OfferingCheck
		h.aud.at("/api/vue/audit/auction/auctions/"+id+"/award", h.head(), &check)
		if !check.Verified || len(check.Entries) != 10 || len(check.Grants) != 4 || check.Commitment != listed.Commitment {
			t.Fatalf("award check %+v", check)
		}
		want(t, m.get("/api/vue/audit/auction/auctions/"+id+"/award"), 403, "forbidden")
		// The tie at 52 goes in the order the revealed seed draws the tied bids' numbers.
		tied := map[string]*client{}
		for _, c := range b[2:5] {
			tied[c.auctionOf(id).Bids[0].BidNo] = c
		}
		nos := make([]string, 0, 3)
		for no := range tied {
			nos = append(nos, no)
		}
		slices.Sort(nos)
		order, err := draw.Winners(d.Auction.Seed, nos, 3)
		if err != nil {
			t.Fatal(err)
		}
		h.ticking("the settlements", func() bool {
			var bs []wire.AuctionBid
			h.ops.at("/api/vue/ops/auction/auctions/"+id+"/bids", h.head(), &bs)
			for _, x := range bs {
				// A bid awarded nothing shows lost from the award on; its settlement releases the deposit.
				if x.State == wire.BidBidding || x.State == wire.BidWon || x.State == wire.BidLost && x.Released == "0.00" {
					return false
				}
			}
			return len(bs) == 10
		})
		// Ops see who bid: each bid with the member's account (phone) and name.
		var bs []wire.AuctionBid
		h.ops.at("/api/vue/ops/auction/auctions/"+id+"/bids", h.head(), &bs)
		for _, x := range bs {
			if x.Member == nil || x.Member.Name != "王小明" || len(x.Member.Account) != 10 {
				t.Fatalf("ops bid %+v", x)
			}
		}
		// Each winner paid its own bid: b[0] 4 lots at 60 (deposit 48,000, balance 192,000).
		m.wantCash(h.head(), "10000.00", "0.00")
		if x := m.auctionOf(id).Bids[0]; x.State != wire.BidPaid || x.AwardedLots != 4 || x.Cost != "240000.00" || x.Balance != "192000.00" {
			t.Fatalf("b[0]'s bid %+v", x)
		}
		// b[1] won 3 lots at 55 but has 7,000 of the 132,000 balance: the deposit is forfeited.
		b[1].wantCash(h.head(), "7000.00", "0.00")
		if x := b[1].auctionOf(id).Bids[0]; x.State != wire.BidForfeited {
			t.Fatalf("b[1]'s bid %+v", x)
		}
		// The tie: the first drawn 2 lots at 52, the second the 1 left, the third nothing.
		for i, want := range []struct {
			lots      int64
			available string
		}{{2, "6000.00"}, {1, "58000.00"}, {0, "110000.00"}} {
			c := tied[order[i]]
			if x := c.auctionOf(id).Bids[0]; x.AwardedLots != want.lots {
				t.Fatalf("tied bid drawn %d: %+v", i, x)
			}
			c.wantCash(h.head(), want.available, "0.00")
		}
		// Awarded nothing: deposits released in full.
		b[5].wantCash(h.head(), "20000.00", "0.00")
		b[6].wantCash(h.head(), "60000.00", "0.00")
		lines := map[wire.FundRecordType]string{}
		for _, r := range m.records("all", h.head()).Items {
			lines[r.Type] = r.Amount
		}
		if lines[wire.AuctionDeposit] != "-48000.00" || lines[wire.AuctionPayment] != "-48000.00" || lines[wire.AuctionBalance] != "-192000.00" {
			t.Fatalf("winner's fund records %+v", lines)
		}
		lines = map[wire.FundRecordType]string{}
		for _, r := range b[5].records("all", h.head()).Items {
			lines[r.Type] = r.Amount
		}
		if lines[wire.AuctionDeposit] != "-10000.00" || lines[wire.AuctionRelease] != "10000.00" {
			t.Fatalf("loser's fund records %+v", lines)
		}
		var recs []wire.AuctionBid
		b[6].at("/api/vue/auction/records", h.head(), &recs)
		if len(recs) != 4 || recs[0].State != wire.BidLost || recs[0].Released != "10200.00" {
			t.Fatalf("b[6]'s records %+v", recs)
		}
		// Selling the awarded shares before the listing date.
		bidNo := m.auctionOf(id).Bids[0].BidNo
		want(t, m.post("/api/vue/trade/positions/"+bidNo+"/close", map[string]any{"type": "market"}), 422, "not_yet_listing_time")

		// Monday 9 March: the listing. b[0] holds 4,000 shares at a basis of 240,000.
		h.clock.Advance(5*24*time.Hour - 8*time.Hour - time.Minute) // Sunday 23:59
		h.ticking("the delivery", func() bool { return m.auctionOf(id).Bids[0].State == wire.BidDelivered })
		pos := m.positionNamed(bidNo)
		if p := pos.Position; p.Status != wire.PositionHolding || p.Shares != 4000 || p.Symbol != "1295" || p.EntryPrice != "60.00" {
			t.Fatalf("delivered position %+v", pos)
		}
		if x := b[1].auctionOf(id).Bids[0]; x.State != wire.BidForfeited || x.Delivered != 0 {
			t.Fatalf("the forfeited bid was delivered %+v", x)
		}
	})
}
