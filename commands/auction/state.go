// Package auction is the IPO auction (競價拍賣) on the write side: ops list an auction on its own
// stream (auction-<id>) with its terms and the SHA-256 of the award's secret seed; members bid on
// their account streams (the deposit frozen, the per-bidder cap held there); the offering
// process (commands/process/offering) awards after the window on the award date (the seed
// revealed, commands/rules/allot), settles each bid (winners pay their own bid, losers' deposits
// are released) and delivers the shares on the listing date. Verify re-runs an award from the log.
package auction

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/commands/rules/ipo"
	"github.com/lotbook/lotbook/events"
)

// auction is the aggregate of an auction's stream.
type auction struct {
	offering.Stream[events.AuctionListed] // Grants: bid number -> shares awarded
}

func init() {
	commands.RegisterStreams(events.AuctionStream(""), func(string) commands.State { return &auction{} })
}

func (s *auction) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.AuctionListed:
		s.List(e)
	case events.AuctionSeedCommitted:
		s.Commit(e.OfferingSeed)
	case events.AuctionAwarded:
		s.Result(e.Grants)
	}
}

func (s *auction) calendar() ipo.Calendar {
	return offering.Calendar(s.Ev.OfferingTerms, s.Ev.AwardDate)
}

// facts is what an account's decision reads of an auction: a copy of its stream's state taken
// under the stream's lock, with its calendar.
type facts struct {
	offering.Stream[events.AuctionListed]
	cal ipo.Calendar
}

func (s *auction) facts() facts {
	return facts{Stream: s.Stream, cal: s.calendar()}
}

// bid is one of the member's bids as the account part keeps it.
type bid struct {
	auctionID            string
	price                decimal.Decimal
	lots, shares         int64
	deposit              decimal.Decimal
	settled, paid        bool
	cost                 decimal.Decimal
	granted              int64
	delivered, forfeited bool
}

// bids is the account's part of the auction: the member's bids.
type bids struct {
	byNo map[string]*bid
	lots map[string]int64 // auction id -> lots bid in all (the per-bidder cap)
}

var bidsPart = commands.RegisterAccountPart("auction", func(commands.Ledger) *bids {
	return &bids{byNo: map[string]*bid{}, lots: map[string]int64{}}
})

func (s *bids) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.AuctionBidPlaced:
		s.byNo[e.BidNo] = &bid{auctionID: e.AuctionID, price: e.Price, lots: e.Lots, shares: e.Shares, deposit: e.Deposit}
		s.lots[e.AuctionID] += e.Lots
	case events.AuctionSettled:
		if b := s.byNo[e.No]; b != nil {
			b.settled, b.paid, b.cost, b.granted = true, e.Shares > 0, e.Cost, e.Shares
		}
	case events.AuctionForfeited:
		if b := s.byNo[e.BidNo]; b != nil {
			b.settled, b.forfeited = true, true
		}
	case events.AuctionDelivered:
		if b := s.byNo[e.No]; b != nil {
			b.delivered = true
		}
	}
}

// HoldsOrder implements commands.OrderHolder: bid numbers are the account's order numbers.
func (s *bids) HoldsOrder(no string) bool { return s.byNo[no] != nil }

// NotYetTradable implements commands.PendingHolding: a paid bid's shares are the member's but
// cannot be sold before they are delivered on the listing date.
func (s *bids) NotYetTradable(positionID string, _ time.Time) (string, bool) {
	if b := s.byNo[positionID]; b != nil && b.paid && !b.delivered {
		return KeyNotYetListingTime, true
	}
	return "", false
}

// memberPart is what a bid checks of the member.
var memberPart = commands.RegisterMemberPart("auction", offering.NewMember)
