package chipgrab

import (
	"context"
	"fmt"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// Commands are chip grabbing's commands over the kernel k.
type Commands struct{ k *commands.Service }

// New returns chip grabbing's commands over the kernel k.
func New(k *commands.Service) *Commands { return &Commands{k: k} }

// Result answers a chip grab command: the offering, the claim and its status (frozen, or allotted
// lots for an allotment), and the global position of the command's last event.
type Result struct {
	OfferingID, OrderNo, Status string
	Lots                        int64
	Position                    int64
}

// Offer opens an offering (ops).
func (s *Commands) Offer(ctx context.Context, meta commands.Meta, in OfferInput, q commands.ListingQuote) (Result, error) {
	c, err := s.k.Begin(meta, "chipgrab.offer")
	if err != nil {
		return Result{}, err
	}
	id := offeringID(c.CommandID)
	rec, err := commands.Execute(ctx, s.k, c, events.ChipGrabStream(id), func(o *offering) ([]events.Payload, error) {
		return decideOffer(o, id, in, q, c.Now)
	})
	if err != nil {
		return Result{}, err
	}
	for _, p := range rec.Payloads {
		if _, ok := p.(events.ChipGrabOffered); ok {
			return Result{OfferingID: id, Position: rec.Position}, nil
		}
	}
	return Result{}, commands.KeyReused()
}

// step is a later step of a claim: a command whose id the claim's own id determines.
func step(meta commands.Meta, request, name string) commands.Meta {
	return commands.Meta{CommandID: request + "/" + name, Actor: meta.Actor, CorrelationID: request}
}

// Claim takes lots of an offering for the member, first come first served, and freezes their
// cost; a member who cannot pay gets the lots given back to the quota and insufficient_balance.
func (s *Commands) Claim(ctx context.Context, meta commands.Meta, memberID, offeringID string, lots int64) (Result, error) {
	c, err := s.k.Begin(meta, "chipgrab.claim")
	if err != nil {
		return Result{}, err
	}
	if lots < 1 || lots > maxLots {
		return Result{}, commands.Invalid(KeyLotsInvalid)
	}
	if !commands.ValidMemberID(memberID) {
		return Result{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	if !commands.ValidMemberID(offeringID) { // an offering id is a UUID like a member's
		return Result{}, commands.NotFound(KeyNotFound)
	}
	// Refuse before taking any quota what would be refused after: a member who may not trade,
	// or who cannot pay now (the freeze checks it again: cash may move in between).
	off, err := commands.View(ctx, s.k, events.ChipGrabStream(offeringID), func(o *offering, _ *commands.Entry) *events.ChipGrabOffered {
		return o.offered
	})
	if err != nil {
		return Result{}, err
	}
	if off == nil {
		return Result{}, commands.NotFound(KeyNotFound)
	}
	refusal, err := s.k.TradingRefusal(ctx, memberID)
	if err != nil {
		return Result{}, err
	}
	if refusal != nil {
		return Result{}, refusal
	}
	available, err := commands.View(ctx, s.k, events.AccountStream(memberID), func(a *commands.Account, _ *commands.Entry) bool {
		return !cost(off.Price, lots).GreaterThan(a.Balances[twd].Available)
	})
	if err != nil {
		return Result{}, err
	}
	if !available {
		return Result{}, commands.Rule(commands.KeyInsufficientBalance)
	}
	orderNo := c.OrderNumbers(orderPrefix, memberID)(0)
	rec, err := commands.Execute(ctx, s.k, c, events.ChipGrabStream(offeringID), func(o *offering) ([]events.Payload, error) {
		return decideClaim(o, memberID, lots, orderNo, c.CommandID, c.Now)
	})
	if err != nil {
		return Result{}, err
	}
	var claimed *events.ChipGrabClaimed
	for _, p := range rec.Payloads {
		if e, ok := p.(events.ChipGrabClaimed); ok {
			claimed = &e
		}
	}
	if claimed == nil {
		return Result{}, commands.KeyReused()
	}
	res, refused, err := s.settle(ctx, meta, *off, *claimed)
	if err != nil {
		return Result{}, err
	}
	if refused != "" {
		return Result{}, refusalOf(refused)
	}
	return res, nil
}

// settle runs a claim's later steps: freeze its cost on the member's account, or give its lots
// back and answer why (refused). Each step's id is derived from the claim, so running them again
// applies nothing twice.
func (s *Commands) settle(ctx context.Context, meta commands.Meta, off events.ChipGrabOffered, cl events.ChipGrabClaimed) (Result, string, error) {
	fc, err := s.k.Begin(step(meta, cl.RequestCommand, "freeze"), "chipgrab.freeze")
	if err != nil {
		return Result{}, "", err
	}
	rec, err := commands.Execute(ctx, s.k, fc, events.AccountStream(cl.MemberID), func(a *commands.Account) ([]events.Payload, error) {
		refusal, err := s.k.TradingRefusal(ctx, cl.MemberID)
		if err != nil {
			return nil, err
		}
		return decideFreeze(a, off, cl.OrderNo, cl.Lots, refusal), nil
	})
	if err != nil {
		return Result{}, "", err
	}
	out := Result{OfferingID: off.OfferingID, OrderNo: cl.OrderNo, Lots: cl.Lots, Position: rec.Position}
	reason := ""
	for _, p := range rec.Payloads {
		switch e := p.(type) {
		case events.ChipGrabFrozen:
			out.Status = claimFrozen
		case events.ChipGrabFreezeRefused:
			reason = e.Reason
		}
	}
	if reason == "" && out.Status == "" {
		// Decided before by a step that answered from the account's state: read what it was.
		status, err := commands.View(ctx, s.k, events.AccountStream(cl.MemberID), func(a *commands.Account, _ *commands.Entry) *accountClaim {
			return claimsPart.Of(a).byNo[cl.OrderNo]
		})
		if err != nil {
			return Result{}, "", err
		}
		if status == nil {
			return Result{}, "", commands.Unavailable(fmt.Errorf("chip grab claim %s: freeze left no record", cl.OrderNo))
		}
		if status.status != claimRefused {
			out.Status = status.status
			return out, "", nil
		}
		reason = status.reason
	}
	if reason == "" {
		return out, "", nil
	}
	rc, err := s.k.Begin(step(meta, cl.RequestCommand, "release"), "chipgrab.release")
	if err != nil {
		return Result{}, "", err
	}
	if _, err := commands.Execute(ctx, s.k, rc, events.ChipGrabStream(off.OfferingID), func(o *offering) ([]events.Payload, error) {
		return decideRelease(o, cl.OrderNo, reason), nil
	}); err != nil {
		return Result{}, "", err
	}
	return Result{}, reason, nil
}

// refusalOf answers the member whose claim's freeze was refused for reason.
func refusalOf(reason string) *commands.Error {
	switch reason {
	case commands.KeyAccountNotExist:
		return commands.NotFound(reason)
	case commands.KeyInsufficientBalance:
		return commands.Rule(reason)
	}
	return commands.Forbidden(reason)
}

// Allot closes an offering to claims and fills every paid claim at its price (ops). A claim that
// a request left half way is settled first; running the allotment again fills nothing twice.
func (s *Commands) Allot(ctx context.Context, meta commands.Meta, offeringID string) (Result, error) {
	c, err := s.k.Begin(meta, "chipgrab.allot")
	if err != nil {
		return Result{}, err
	}
	if !commands.ValidMemberID(offeringID) {
		return Result{}, commands.NotFound(KeyNotFound)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.ChipGrabStream(offeringID), func(o *offering) ([]events.Payload, error) {
		switch {
		case o.offered == nil:
			return nil, commands.NotFound(KeyNotFound)
		case o.allotting:
			return nil, nil
		}
		return []events.Payload{events.ChipGrabAllotmentStarted{OfferingID: offeringID}}, nil
	})
	if err != nil {
		return Result{}, err
	}
	// The claims as the offering holds them now that no more can come.
	type pending struct {
		cl  events.ChipGrabClaimed
		off events.ChipGrabOffered
	}
	todo, err := commands.View(ctx, s.k, events.ChipGrabStream(offeringID), func(o *offering, _ *commands.Entry) []pending {
		var out []pending
		for _, no := range o.order {
			if cl := o.claims[no]; !cl.released {
				out = append(out, pending{cl: events.ChipGrabClaimed{OfferingID: offeringID, OrderNo: no, MemberID: cl.memberID, Lots: cl.lots,
					RequestCommand: cl.request}, off: *o.offered})
			}
		}
		return out
	})
	if err != nil {
		return Result{}, err
	}
	out := Result{OfferingID: offeringID, Position: rec.Position}
	for _, p := range todo {
		_, refused, err := s.settle(ctx, meta, p.off, p.cl)
		if err != nil {
			return Result{}, err
		}
		if refused != "" {
			continue // given back to the quota: nothing to allot
		}
		ac, err := s.k.Begin(step(meta, p.cl.RequestCommand, "allot"), "chipgrab.allot.claim")
		if err != nil {
			return Result{}, err
		}
		r, err := commands.Execute(ctx, s.k, ac, events.AccountStream(p.cl.MemberID), func(a *commands.Account) ([]events.Payload, error) {
			return decideAllot(a, p.cl.OrderNo, ac.Now), nil
		})
		if err != nil {
			return Result{}, err
		}
		out.Lots += p.cl.Lots
		out.Position = max(out.Position, r.Position)
	}
	out.Status = claimAllotted
	return out, nil
}
