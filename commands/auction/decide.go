package auction

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/commands/rules/allot"
	"github.com/lotbook/lotbook/commands/rules/ipo"
	"github.com/lotbook/lotbook/events"
)

// Message keys of the auction's refusals besides the offerings' (offering.Key...).
const (
	KeyPriceBelowMinimum  = "auction_price_below_minimum"  // a bid under the minimum bid price
	KeyNotYetListingTime  = "not_yet_listing_time"         // selling awarded shares before they list
	KeyDepositRateInvalid = "auction_deposit_rate_invalid" // a deposit rate not above 0 and up to 100 %
)

// bidPrefix begins bid numbers, the account's order numbers of the auction.
const bidPrefix = "A"

// decideList lists an auction with the commitment to its seed, once.
func decideList(s *auction, e events.AuctionListed, seed events.OfferingSeed) ([]events.Payload, error) {
	if s.Listed {
		return nil, commands.Rule(offering.KeyExists)
	}
	return []events.Payload{e, events.AuctionSeedCommitted{OfferingSeed: seed}}, nil
}

// decideBid is a member's bid of lots at price on an auction at now.
func decideBid(bs *bids, l commands.Ledger, cash commands.Balance, m offering.Member, a facts, price decimal.Decimal, lots int64,
	now time.Time, bidNo string) ([]events.Payload, error) {
	if err := m.Refusal(); err != nil {
		return nil, err
	}
	if !a.Listed {
		return nil, commands.NotFound(offering.KeyNotFound)
	}
	if err := offering.Window(a.cal, now); err != nil {
		return nil, err
	}
	if price.LessThan(a.Ev.MinPrice) {
		return nil, commands.Rule(KeyPriceBelowMinimum)
	}
	if bs.lots[a.Ev.OfferingID]+lots > a.Ev.MaxLotsPerBidder {
		return nil, commands.Rule(offering.KeyCapExceeded)
	}
	shares := lots * a.Ev.LotShares
	amount := price.Mul(decimal.NewFromInt(shares))
	deposit := allot.Deposit(amount, a.Ev.DepositRate)
	if cash.Available.LessThan(deposit) {
		return nil, commands.Rule(commands.KeyInsufficientBalance)
	}
	return []events.Payload{events.AuctionBidPlaced{AuctionID: a.Ev.OfferingID, BidNo: bidNo, Symbol: a.Ev.Symbol, Name: a.Ev.Name,
		Price: price, Lots: lots, Shares: shares, Amount: amount, Deposit: deposit,
		Postings: events.Transfer(l.Available, l.Frozen, a.Ev.Currency, deposit)}}, nil
}

// decideAward reveals the seed and awards the bids, once, from the award date's step time on,
// recording the members who bid (entrants: the account streams an auditor reads).
func decideAward(s *auction, seed string, in []events.AuctionBid, entrants []string, now time.Time) ([]events.Payload, error) {
	if !s.Listed {
		return nil, commands.NotFound(offering.KeyNotFound)
	}
	if s.Resulted {
		return nil, nil
	}
	if now.Before(s.calendar().At(ipo.StepDraw)) {
		return nil, commands.Rule(offering.KeyNotClosed)
	}
	grants, err := award(seed, in, s.Ev.Lots, s.Ev.LotShares)
	if err != nil {
		return nil, commands.Unavailable(err)
	}
	if in == nil {
		in = []events.AuctionBid{}
	}
	return []events.Payload{events.AuctionAwarded{AuctionID: s.Ev.OfferingID, Seed: seed, Commitment: s.Commitment,
		Algorithm: allot.AwardAlgorithm, Lots: s.Ev.Lots, LotShares: s.Ev.LotShares, Bids: in, Grants: grants, Entrants: entrants}}, nil
}

// award runs the published rule over the bids: the grants in award order, in shares at each bid's price.
func award(seed string, in []events.AuctionBid, lots, lotShares int64) ([]events.Grant, error) {
	bs := make([]allot.Bid, len(in))
	price := make(map[string]decimal.Decimal, len(in))
	for i, b := range in {
		bs[i], price[b.No] = allot.Bid{No: b.No, Price: b.Price, Lots: b.Lots}, b.Price
	}
	gs, err := allot.Award(seed, bs, lots)
	if err != nil {
		return nil, err
	}
	out := []events.Grant{}
	for _, g := range gs {
		out = append(out, events.Grant{No: g.No, Shares: g.Units * lotShares, Price: price[g.No]})
	}
	return out, nil
}

// decideSettle settles a bid once the auction is awarded: a winner pays its own price for the
// shares awarded (the deposit first, the balance from available cash) and any deposit left is
// released; a loser's deposit is released; a winner without the balance forfeits the deposit.
func decideSettle(b *bid, no string, l commands.Ledger, available decimal.Decimal, a facts) ([]events.Payload, error) {
	if b == nil || b.auctionID != a.Ev.OfferingID {
		return nil, commands.NotFound(offering.KeyNotFound)
	}
	if !a.Resulted || b.settled {
		return nil, nil
	}
	st := offering.Settlement(l, events.HouseAuctionClearing, a.Ev.Currency, b.auctionID, no, a.Grants[no], b.price, b.deposit)
	if available.LessThan(st.FromAvailable) {
		return []events.Payload{events.AuctionForfeited{AuctionID: b.auctionID, BidNo: no, Cost: st.Cost, Deposit: b.deposit, Available: available,
			Postings: events.Transfer(l.Frozen, events.HouseAuctionClearing, a.Ev.Currency, b.deposit)}}, nil
	}
	return []events.Payload{events.AuctionSettled{OfferingSettlement: st}}, nil
}

// decideDeliver delivers a paid bid's shares from the listing date on, once.
func decideDeliver(b *bid, no string, l commands.Ledger, a facts, now time.Time) ([]events.Payload, error) {
	if b == nil || b.auctionID != a.Ev.OfferingID {
		return nil, commands.NotFound(offering.KeyNotFound)
	}
	if !b.paid || b.delivered {
		return nil, nil
	}
	if now.Before(a.cal.ListingStart()) {
		return nil, commands.Rule(KeyNotYetListingTime)
	}
	return []events.Payload{events.AuctionDelivered{OfferingDelivery: offering.Delivery(l, events.HouseAuctionShares, a.Ev.OfferingTerms, no,
		b.granted, b.price, b.cost, a.Ev.AwardDate)}}, nil
}
