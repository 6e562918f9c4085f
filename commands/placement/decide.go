package placement

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/commands/rules/allot"
	"github.com/lotbook/lotbook/events"
)

// Message keys of the placement's refusals besides the offerings' (offering.Key...).
const (
	KeyAllotmentRequested = "placement_allotment_requested" // ops asked for the allotment already
	KeyNotYetListingTime  = "not_yet_listing_time"          // selling allotted shares before they list
)

// applicationPrefix begins application numbers, the account's order numbers of the placement.
const applicationPrefix = "P"

// decideOffer offers a placement with the commitment to its seed, once.
func decideOffer(s *placement, e events.PlacementOffered, seed events.OfferingSeed) ([]events.Payload, error) {
	if s.Listed {
		return nil, commands.Rule(offering.KeyExists)
	}
	return []events.Payload{e, events.PlacementSeedCommitted{OfferingSeed: seed}}, nil
}

// decideApply is a member's application for lots of a placement at now: the whole amount frozen.
func decideApply(as *applications, l commands.Ledger, cash commands.Balance, m offering.Member, p facts, lots int64, now time.Time,
	no string) ([]events.Payload, error) {
	if err := m.Refusal(); err != nil {
		return nil, err
	}
	if !p.Listed {
		return nil, commands.NotFound(offering.KeyNotFound)
	}
	if err := offering.Window(p.cal, now); err != nil {
		return nil, err
	}
	if as.lots[p.Ev.OfferingID]+lots > p.Ev.MaxLotsPerMember {
		return nil, commands.Rule(offering.KeyCapExceeded)
	}
	shares := lots * p.Ev.LotShares
	amount := p.Ev.Price.Mul(decimal.NewFromInt(shares))
	if cash.Available.LessThan(amount) {
		return nil, commands.Rule(commands.KeyInsufficientBalance)
	}
	return []events.Payload{events.PlacementApplied{PlacementID: p.Ev.OfferingID, ApplicationNo: no, Symbol: p.Ev.Symbol, Name: p.Ev.Name,
		Lots: lots, Shares: shares, Price: p.Ev.Price, Amount: amount, Postings: events.Transfer(l.Available, l.Frozen, p.Ev.Currency, amount)}}, nil
}

// decideRequest is ops' trigger of the allotment, after the window, once.
func decideRequest(s *placement, now time.Time) ([]events.Payload, error) {
	switch {
	case !s.Listed:
		return nil, commands.NotFound(offering.KeyNotFound)
	case now.Before(s.Ev.ClosesAt):
		return nil, commands.Rule(offering.KeyNotClosed)
	case s.requested:
		return nil, commands.Rule(KeyAllotmentRequested)
	}
	return []events.Payload{events.PlacementAllotmentRequested{PlacementID: s.Ev.OfferingID, At: now}}, nil
}

// decideAllot reveals the seed and allots over the applications (number, shares asked), once ops
// asked for it, recording the members who applied (entrants: the account streams an auditor reads).
func decideAllot(s *placement, seed string, requests []events.Grant, entrants []string) ([]events.Payload, error) {
	if !s.Listed {
		return nil, commands.NotFound(offering.KeyNotFound)
	}
	if s.Resulted || !s.requested {
		return nil, nil
	}
	grants, err := proRata(seed, requests, s.Ev.Lots*s.Ev.LotShares, s.Ev.Price)
	if err != nil {
		return nil, commands.Unavailable(err)
	}
	if requests == nil {
		requests = []events.Grant{}
	}
	return []events.Payload{events.PlacementAllotted{PlacementID: s.Ev.OfferingID, Seed: seed, Commitment: s.Commitment,
		Algorithm: allot.ProRataAlgorithm, Shares: s.Ev.Lots * s.Ev.LotShares, Requests: requests, Grants: grants, Entrants: entrants}}, nil
}

// proRata runs the published rule: the grants in number order, at the placement's price.
func proRata(seed string, requests []events.Grant, shares int64, price decimal.Decimal) ([]events.Grant, error) {
	rs := make([]allot.Grant, len(requests))
	for i, r := range requests {
		rs[i] = allot.Grant{No: r.No, Units: r.Shares}
	}
	gs, err := allot.ProRata(seed, rs, shares)
	if err != nil {
		return nil, err
	}
	out := []events.Grant{}
	for _, g := range gs {
		out = append(out, events.Grant{No: g.No, Shares: g.Units, Price: price})
	}
	return out, nil
}

// decideSettle settles an application once allotted: the allotted shares paid from its frozen
// amount, the rest refunded.
func decideSettle(a *application, no string, l commands.Ledger, p facts) ([]events.Payload, error) {
	if a == nil || a.placementID != p.Ev.OfferingID {
		return nil, commands.NotFound(offering.KeyNotFound)
	}
	if !p.Resulted || a.settled {
		return nil, nil
	}
	return []events.Payload{events.PlacementSettled{OfferingSettlement: offering.Settlement(l, events.HousePlacementClearing, p.Ev.Currency,
		a.placementID, no, p.Grants[no], a.price, a.amount)}}, nil
}

// decideDeliver delivers an application's allotted shares from the listing date on, once.
func decideDeliver(a *application, no string, l commands.Ledger, p facts, now time.Time) ([]events.Payload, error) {
	if a == nil || a.placementID != p.Ev.OfferingID {
		return nil, commands.NotFound(offering.KeyNotFound)
	}
	if a.allotted == 0 || a.delivered {
		return nil, nil
	}
	if now.Before(p.cal.ListingStart()) {
		return nil, commands.Rule(KeyNotYetListingTime)
	}
	return []events.Payload{events.PlacementDelivered{OfferingDelivery: offering.Delivery(l, events.HousePlacementShares, p.Ev.OfferingTerms, no,
		a.allotted, a.price, a.cost, a.paidDay)}}, nil
}
