package placement

import (
	"context"

	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/commands/rules/allot"
	"github.com/lotbook/lotbook/events"
)

// verifier re-runs an allotment: the applications in the log (shares asked at the price) and the
// pro-rata rule.
var verifier = offering.Verifier{
	Stream: events.PlacementStream, Algorithm: allot.ProRataAlgorithm, Entries: "PlacementApplied.",
	Listing: func(p events.Payload) (*events.OfferingSeed, *offering.Result, bool) {
		switch e := p.(type) {
		case events.PlacementOffered:
			return nil, nil, true
		case events.PlacementSeedCommitted:
			return &e.OfferingSeed, nil, false
		case events.PlacementAllotted:
			return nil, &offering.Result{Seed: e.Seed, Commitment: e.Commitment, Algorithm: e.Algorithm, Entries: e.Requests, Grants: e.Grants, Entrants: e.Entrants,
				Offered: e.Shares}, false
		}
		return nil, nil, false
	},
	Entry: func(p events.Payload, id string) (events.Grant, bool) {
		e, ok := p.(events.PlacementApplied)
		return events.Grant{No: e.ApplicationNo, Shares: e.Shares, Price: e.Price}, ok && e.PlacementID == id
	},
	Rule: func(seed string, entries []events.Grant, r offering.Result) ([]events.Grant, error) {
		if len(entries) == 0 {
			return []events.Grant{}, nil
		}
		return proRata(seed, entries, r.Offered, entries[0].Price)
	},
}

// Verify re-runs a placement's allotment from the log alone.
func Verify(ctx context.Context, store events.Store, placementID string) (offering.Check, error) {
	return verifier.Verify(ctx, store, placementID)
}
