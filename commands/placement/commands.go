package placement

import (
	"context"
	"time"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/events"
)

// SeedDomain separates the placement's seeds from every other keyed hash of the server's key.
const SeedDomain = "placement-allotment-seed"

// Commands are the placement's commands over the kernel.
type Commands struct {
	k     *commands.Service
	seeds offering.Seeds
}

// New returns the placement's commands over the kernel k, with the placements' seeds.
func New(k *commands.Service, seeds offering.Seeds) *Commands { return &Commands{k: k, seeds: seeds} }

// Open returns the placement's commands over the kernel k, with the seeds of its secret key.
func Open(k *commands.Service) *Commands { return New(k, offering.KernelSeeds(k, SeedDomain)) }

// The placement's offering process runs with every stack.
func init() {
	offering.Register(ProcessName, func(k *commands.Service) offering.Spec { return Open(k).Spec() })
}

// Offer is ops' offer of a placement; Price a decimal string as typed.
type Offer struct {
	offering.Terms
	Price                  string
	Lots, MaxLotsPerMember int64
}

// Offered answers Offer.
type Offered struct {
	PlacementID, Commitment, Algorithm string
	Position                           int64
}

// validateOffer turns ops' form into the offer, or the first refusal.
func validateOffer(in Offer) (events.PlacementOffered, error) {
	var e events.PlacementOffered
	t, err := offering.ValidTerms(in.Terms, "")
	if err != nil {
		return e, err
	}
	price, err := offering.Price(in.Price)
	if err != nil {
		return e, err
	}
	if err := offering.Lots(in.Lots); err != nil {
		return e, err
	}
	if err := offering.Lots(in.MaxLotsPerMember); err != nil || in.MaxLotsPerMember > in.Lots {
		return e, commands.Invalid(commands.KeyQuantityInvalid)
	}
	return events.PlacementOffered{OfferingTerms: t, Price: price, Lots: in.Lots, MaxLotsPerMember: in.MaxLotsPerMember}, nil
}

// Offer offers a placement and commits to its seed.
func (s *Commands) Offer(ctx context.Context, meta commands.Meta, in Offer) (Offered, error) {
	c, err := s.k.Begin(meta, "placement.offer")
	if err != nil {
		return Offered{}, err
	}
	e, err := validateOffer(in)
	if err != nil {
		return Offered{}, err
	}
	seed, pos, err := offering.List(ctx, s.k, c, s.seeds, e.OfferingID, events.PlacementStream(e.OfferingID),
		func(st *placement, seed events.OfferingSeed) ([]events.Payload, error) {
			return decideOffer(st, e, seed)
		})
	if err != nil {
		return Offered{}, err
	}
	return Offered{PlacementID: seed.OfferingID, Commitment: seed.Commitment, Algorithm: seed.Algorithm, Position: pos}, nil
}

// Apply is a member's application.
type Apply struct {
	MemberID, PlacementID string
	Lots                  int64
}

// Applied answers Apply: the application and the member's cash right after it.
type Applied struct {
	ApplicationNo string
	Position      int64
	Cash          commands.Balance
}

func (s *Commands) facts(ctx context.Context, id string) (facts, error) {
	return commands.View(ctx, s.k, events.PlacementStream(id), func(st *placement, _ *commands.Entry) facts { return st.facts() })
}

// Apply applies for lots, freezing their amount.
func (s *Commands) Apply(ctx context.Context, meta commands.Meta, in Apply) (Applied, error) {
	c, err := s.k.Begin(meta, "placement.apply")
	if err != nil {
		return Applied{}, err
	}
	if err := offering.Lots(in.Lots); err != nil {
		return Applied{}, err
	}
	if err := offering.Entrant(in.MemberID, in.PlacementID); err != nil {
		return Applied{}, err
	}
	e, err := offering.Enter(ctx, s.k, c, in.MemberID, applicationPrefix, memberPart, func(a *commands.Account, m offering.Member, no string) ([]events.Payload, error) {
		f, err := s.facts(ctx, in.PlacementID)
		if err != nil {
			return nil, err
		}
		return decideApply(applicationsPart.Of(a), a.Ledger, a.Balances[offering.Currency], m, f, in.Lots, c.Now, no)
	}, func(p events.Payload) string {
		e, _ := p.(events.PlacementApplied)
		return e.ApplicationNo
	})
	if err != nil {
		return Applied{}, err
	}
	return Applied{ApplicationNo: e.No, Position: e.Position, Cash: e.Cash}, nil
}

// RequestAllotment is ops' trigger of a placement's allotment after its window; the offering
// process computes it.
func (s *Commands) RequestAllotment(ctx context.Context, meta commands.Meta, placementID string) (commands.Result, error) {
	c, err := s.k.Begin(meta, "placement.request")
	if err != nil {
		return commands.Result{}, err
	}
	if !offering.ValidID(placementID) {
		return commands.Result{}, commands.NotFound(offering.KeyNotFound)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.PlacementStream(placementID), func(st *placement) ([]events.Payload, error) {
		return decideRequest(st, c.Now)
	})
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}

// Allot reveals the placement's seed and allots the applications the process folded (entries,
// in number order), each read from its member's account stream.
func (s *Commands) Allot(ctx context.Context, meta commands.Meta, placementID string, entries []offering.Entry) (commands.Result, error) {
	return offering.Resolve(ctx, s.k, meta, "placement.allot", s.seeds, placementID, events.PlacementStream, entries,
		func(acc *commands.Account, e offering.Entry) (events.Grant, bool) {
			a := applicationsPart.Of(acc).byNo[e.No]
			if a == nil || a.placementID != placementID {
				return events.Grant{}, false
			}
			return events.Grant{No: e.No, Shares: a.shares, Price: a.price}, true
		},
		func(st *placement, seed string, requests []events.Grant, _ time.Time) ([]events.Payload, error) {
			return decideAllot(st, seed, requests, offering.Entrants(entries))
		})
}

// Settle settles one application after the allotment.
func (s *Commands) Settle(ctx context.Context, meta commands.Meta, e offering.Entry) (commands.Result, error) {
	return offering.Step(ctx, s.k, meta, "placement.settle", e, s.facts, func(acc *commands.Account, f facts, _ time.Time) ([]events.Payload, error) {
		return decideSettle(applicationsPart.Of(acc).byNo[e.No], e.No, acc.Ledger, f)
	})
}

// Deliver delivers one application's allotted shares on the listing date.
func (s *Commands) Deliver(ctx context.Context, meta commands.Meta, e offering.Entry) (commands.Result, error) {
	return offering.Step(ctx, s.k, meta, "placement.deliver", e, s.facts, func(acc *commands.Account, f facts, now time.Time) ([]events.Payload, error) {
		return decideDeliver(applicationsPart.Of(acc).byNo[e.No], e.No, acc.Ledger, f, now)
	})
}

// ProcessName names the placement's process: checkpoint, metrics, command ids.
const ProcessName = "placement-allotment"

// Spec is the placement for the offering process: the allotment once ops ask for it, then each
// application's settlement, then each allotted application's delivery on the listing date.
func (s *Commands) Spec() offering.Spec {
	return offering.Spec{Name: ProcessName, Prefix: "Placement", Fold: fold, Result: s.Allot, Steps: offering.SettleThenDeliver(s.Settle, s.Deliver)}
}

// fold is what the placement's events mean to the process.
func fold(p events.Payload) offering.Fact {
	switch e := p.(type) {
	case events.PlacementOffered:
		return offering.Fact{Kind: offering.Offered, Offering: e.OfferingID,
			At: map[string]time.Time{offering.Delivered: offering.Calendar(e.OfferingTerms, e.ListingDate).ListingStart()}}
	case events.PlacementApplied:
		return offering.Fact{Kind: offering.Entered, Offering: e.PlacementID, No: e.ApplicationNo}
	case events.PlacementAllotmentRequested:
		return offering.Fact{Kind: offering.Triggered, Offering: e.PlacementID, ResultAt: e.At}
	case events.PlacementAllotted:
		return offering.Fact{Kind: offering.Resulted, Offering: e.PlacementID}
	case events.PlacementSettled:
		return offering.Fact{Kind: offering.Done, Step: offering.Settled, Offering: e.OfferingID, No: e.No, Paid: e.Shares > 0}
	case events.PlacementDelivered:
		return offering.Fact{Kind: offering.Done, Step: offering.Delivered, Offering: e.OfferingID, No: e.No}
	}
	return offering.Fact{}
}
