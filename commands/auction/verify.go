package auction

import (
	"context"
	"fmt"

	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/commands/rules/allot"
	"github.com/lotbook/lotbook/events"
)

// verifier re-runs an award: the bids in the log (shares at their prices) and the award rule.
var verifier = offering.Verifier{
	Stream: events.AuctionStream, Algorithm: allot.AwardAlgorithm, Entries: "AuctionBidPlaced.",
	Listing: func(p events.Payload) (*events.OfferingSeed, *offering.Result, bool) {
		switch e := p.(type) {
		case events.AuctionListed:
			return nil, nil, true
		case events.AuctionSeedCommitted:
			return &e.OfferingSeed, nil, false
		case events.AuctionAwarded:
			r := &offering.Result{Seed: e.Seed, Commitment: e.Commitment, Algorithm: e.Algorithm, Grants: e.Grants,
				Offered: e.Lots * e.LotShares, LotShares: e.LotShares, Entrants: e.Entrants}
			for _, b := range e.Bids {
				r.Entries = append(r.Entries, events.Grant{No: b.No, Shares: b.Lots * e.LotShares, Price: b.Price})
			}
			return nil, r, false
		}
		return nil, nil, false
	},
	Entry: func(p events.Payload, id string) (events.Grant, bool) {
		e, ok := p.(events.AuctionBidPlaced)
		return events.Grant{No: e.BidNo, Shares: e.Shares, Price: e.Price}, ok && e.AuctionID == id
	},
	Rule: func(seed string, entries []events.Grant, r offering.Result) ([]events.Grant, error) {
		if r.LotShares < 1 {
			return nil, fmt.Errorf("the award records lots of %d shares", r.LotShares)
		}
		bids := make([]events.AuctionBid, len(entries))
		for i, g := range entries {
			bids[i] = events.AuctionBid{No: g.No, Price: g.Price, Lots: g.Shares / r.LotShares}
		}
		return award(seed, bids, r.Offered/r.LotShares, r.LotShares)
	},
}

// Verify re-runs an auction's award from the log alone.
func Verify(ctx context.Context, store events.Store, auctionID string) (offering.Check, error) {
	return verifier.Verify(ctx, store, auctionID)
}
