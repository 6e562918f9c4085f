// Package chipgrab is chip grabbing's HTTP side: members list offerings, claim lots and see their
// claims; ops offer a quota and allot it.
package chipgrab

import (
	"context"
	"fmt"
	"time"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	cg "github.com/lotbook/lotbook/commands/chipgrab"
	"github.com/lotbook/lotbook/commands/trading/engine"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/chipgrab"
)

// Commands are the write side's operations this module sends (*chipgrab.Commands of commands/chipgrab).
type Commands interface {
	Offer(ctx context.Context, meta commands.Meta, in cg.OfferInput, q commands.ListingQuote) (cg.Result, error)
	Claim(ctx context.Context, meta commands.Meta, memberID, offeringID string, lots int64) (cg.Result, error)
	Allot(ctx context.Context, meta commands.Meta, offeringID string) (cg.Result, error)
}

// Module serves the chip grab routes.
type Module struct {
	cmd    Commands
	read   *projections.ReadDB
	market func() engine.Market // the day's band of the offering's price
	now    func() time.Time
}

// New is the chip grab module over its commands, the read models, the market the trading engine
// reads and the server's clock.
func New(cmd Commands, read *projections.ReadDB, market func() engine.Market, now func() time.Time) *Module {
	return &Module{cmd: cmd, read: read, market: market, now: now}
}

// Routes are the chip grab operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Member, "GET", "/api/vue/chipgrab", httpx.IdemNone, m.offerings),
		httpx.Op(httpx.Member, "POST", "/api/vue/chipgrab/{id}/claim", httpx.IdemRequired, m.claim),
		httpx.Op(httpx.Member, "GET", "/api/vue/chipgrab/claims", httpx.IdemNone, m.myClaims),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/chipgrab", httpx.IdemNone, m.offerings),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/chipgrab", httpx.IdemRequired, m.offer),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/chipgrab/{id}/allot", httpx.IdemRequired, m.allot),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/chipgrab/{id}/claims", httpx.IdemNone, m.offeringClaims),
	}
}

func offeringOut(o chipgrab.Offering, now time.Time) wire.ChipGrabOffering {
	status := wire.ChipGrabOfferingStatusOpen
	switch {
	case o.Allotting:
		status = wire.ChipGrabOfferingStatusAllotted
	case !now.Before(o.ClosesAt):
		status = wire.ChipGrabOfferingStatusClosed
	case now.Before(o.OpensAt):
		status = wire.ChipGrabOfferingStatusUpcoming
	}
	return wire.ChipGrabOffering{OfferingId: o.OfferingID, Symbol: o.Symbol, Name: o.Name, Price: httpx.Money(o.Price), QuotaLots: o.QuotaLots,
		RemainingLots: o.RemainingLots, MaxLotsPerMember: o.MaxLotsPerMember, OpensAt: o.OpensAt, ClosesAt: o.ClosesAt, Status: status}
}

func (m *Module) offerings(c *httpx.Call) (httpx.Reply, error) {
	os, err := chipgrab.Offerings(c.Ctx(), m.read.Reader)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("chip grab offerings: %w", err)
	}
	now := m.now()
	out := make([]wire.ChipGrabOffering, 0, len(os))
	for _, o := range os {
		out = append(out, offeringOut(o, now))
	}
	return httpx.OK(out)
}

func (m *Module) claim(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "ChipGrabClaimRequest", wire.MessageKeyChipgrabClaimed, func(req wire.ChipGrabClaimRequest) (cg.Result, error) {
		return m.cmd.Claim(c.Ctx(), c.Meta(), c.Sess.MemberID, c.Var("id"), req.Lots)
	}, func(res cg.Result) wire.ChipGrabClaimResult {
		return wire.ChipGrabClaimResult{OrderNo: res.OrderNo, OfferingId: res.OfferingID, Status: wire.ChipGrabClaimStatus(res.Status), Lots: res.Lots,
			Position: res.Position}
	})
}

func (m *Module) myClaims(c *httpx.Call) (httpx.Reply, error) {
	page, size, err := httpx.Paging(c.R.URL.Query())
	if err != nil {
		return httpx.Reply{}, err
	}
	cs, more, err := chipgrab.MemberClaims(c.Ctx(), m.read.Reader, c.Sess.MemberID, page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("chip grab claims of %s: %w", c.Sess.MemberID, err)
	}
	items := make([]wire.ChipGrabClaim, 0, len(cs))
	for _, x := range cs {
		items = append(items, claimOut(x))
	}
	return httpx.OK(wire.ChipGrabClaimPage{Items: items, Page: page, HasMore: more})
}

func claimOut(x chipgrab.Claim) wire.ChipGrabClaim {
	return wire.ChipGrabClaim{OrderNo: x.OrderNo, OfferingId: x.OfferingID, Symbol: x.Symbol, Name: x.Name,
		Price: httpx.Money(x.Price), Lots: x.Lots, Amount: httpx.Money(x.Amount), Status: wire.ChipGrabClaimStatus(x.Status),
		Reason: x.Reason, CreatedAt: x.CreatedAt, UpdatedAt: x.UpdatedAt}
}

// offeringClaims is ops' list of an offering's claims, each with its claimant's account and name.
func (m *Module) offeringClaims(c *httpx.Call) (httpx.Reply, error) {
	page, size, err := httpx.Paging(c.R.URL.Query())
	if err != nil {
		return httpx.Reply{}, err
	}
	id := c.Var("id")
	cs, more, err := chipgrab.OfferingClaims(c.Ctx(), m.read.Reader, id, page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("chip grab claims of offering %s: %w", id, err)
	}
	items := make([]wire.ChipGrabClaim, 0, len(cs))
	for _, x := range cs {
		out := claimOut(x.Claim)
		out.Account, out.MemberName = &x.Account, &x.MemberName
		items = append(items, out)
	}
	return httpx.OK(wire.ChipGrabClaimPage{Items: items, Page: page, HasMore: more})
}

func (m *Module) offer(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "ChipGrabOfferRequest", wire.MessageKeyOk, func(req wire.ChipGrabOfferRequest) (cg.Result, error) {
		return m.cmd.Offer(c.Ctx(), c.Meta(), cg.OfferInput{Symbol: req.Symbol, Price: req.Price, QuotaLots: req.QuotaLots,
			MaxLotsPerMember: req.MaxLotsPerMember, OpensAt: req.OpensAt, ClosesAt: req.ClosesAt}, engine.ListingQuote(m.market(), req.Symbol, m.now()))
	}, func(res cg.Result) wire.ChipGrabAllotResult {
		return wire.ChipGrabAllotResult{OfferingId: res.OfferingID, Position: res.Position}
	})
}

func (m *Module) allot(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "Empty", wire.MessageKeyOk, func(wire.Empty) (cg.Result, error) {
		return m.cmd.Allot(c.Ctx(), c.Meta(), c.Var("id"))
	}, func(res cg.Result) wire.ChipGrabAllotResult {
		return wire.ChipGrabAllotResult{OfferingId: res.OfferingID, Lots: res.Lots, Position: res.Position}
	})
}
