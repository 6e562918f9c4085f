package subscription

import (
	"context"
	"fmt"

	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/commands/rules/draw"
	"github.com/lotbook/lotbook/events"
)

// DrawCheck is an issue's draw re-run from the log: the applications the members' account
// streams hold, the seed revealed against the commitment published at listing, the winners the
// seed draws against the recorded ones.
type DrawCheck struct {
	IssueID, Algorithm, Commitment, Seed string
	Drawn                                bool
	Lots                                 int64    // winners the listing calls for (lots offered over lots per application)
	Applications                         []string // found in the log, sorted
	Winners                              []string // as the draw recorded them
	Recomputed                           []string // as the revealed seed draws them from Applications
	SeedMatches, ApplicationsMatch       bool
	WinnersMatch                         bool
	Problems                             []string
}

// Verified reports that the draw is reproduced in every respect.
func (d DrawCheck) Verified() bool {
	return d.Drawn && d.SeedMatches && d.ApplicationsMatch && d.WinnersMatch && len(d.Problems) == 0
}

// ErrNoIssue answers Verify for an issue that was never listed.
var ErrNoIssue = offering.ErrNoOffering

// Verify re-runs an issue's draw from the event log alone (no read model, no secret key): the
// offering check (offering.Verifier) over applications as entries of no shares and winners as
// grants, and the number of winners the listing calls for.
func Verify(ctx context.Context, store events.Store, issueID string) (DrawCheck, error) {
	var listedLots, drawnLots int64
	nos := func(gs []events.Grant) []string {
		out := make([]string, len(gs))
		for i, g := range gs {
			out[i] = g.No
		}
		return out
	}
	grants := func(nos []string) []events.Grant {
		out := make([]events.Grant, len(nos))
		for i, no := range nos {
			out[i] = events.Grant{No: no}
		}
		return out
	}
	v := offering.Verifier{Stream: events.SubscriptionStream, Algorithm: draw.Algorithm, Entries: "SubscriptionApplied.",
		Listing: func(p events.Payload) (*events.OfferingSeed, *offering.Result, bool) {
			switch e := p.(type) {
			case events.SubscriptionIssueListed:
				listedLots = e.Lots / e.UnitLots
				return nil, nil, true
			case events.SubscriptionSeedCommitted:
				return &events.OfferingSeed{OfferingID: e.IssueID, Commitment: e.Commitment, Algorithm: e.Algorithm}, nil, false
			case events.SubscriptionDrawn:
				drawnLots = e.Lots
				return nil, &offering.Result{Seed: e.Seed, Commitment: e.Commitment, Algorithm: e.Algorithm, Entries: grants(e.Applications),
					Grants: grants(e.Winners), Entrants: e.Entrants}, false
			}
			return nil, nil, false
		},
		Entry: func(p events.Payload, id string) (events.Grant, bool) {
			e, ok := p.(events.SubscriptionApplied)
			return events.Grant{No: e.ApplicationNo}, ok && e.IssueID == id
		},
		Rule: func(seed string, entries []events.Grant, _ offering.Result) ([]events.Grant, error) {
			w, err := draw.Winners(seed, nos(entries), int(listedLots))
			return grants(w), err
		},
	}
	c, err := v.Verify(ctx, store, issueID)
	out := DrawCheck{IssueID: issueID, Algorithm: c.Algorithm, Commitment: c.Commitment, Seed: c.Seed, Drawn: c.Resulted, Lots: listedLots,
		Applications: nos(c.Entries), SeedMatches: c.SeedMatches, ApplicationsMatch: c.EntriesMatch, WinnersMatch: c.GrantsMatch,
		Problems: c.Problems}
	if c.Resulted {
		out.Winners, out.Recomputed = nos(c.Grants), nos(c.Recomputed)
		if drawnLots != listedLots {
			out.Problems = append(out.Problems, fmt.Sprintf("the draw drew for %d winners, the listing offers %d", drawnLots, listedLots))
		}
	}
	return out, err
}
