// Package placement is the placement's HTTP side: members list the placements, apply and read
// their applications with what they were allotted; ops offer a placement, read its applications
// and ask for its allotment; auditors re-run an allotment from the log.
package placement

import (
	"context"
	"fmt"
	"time"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	cmd "github.com/lotbook/lotbook/commands/placement"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/events"
	mkt "github.com/lotbook/lotbook/market"
	"github.com/lotbook/lotbook/projections"
	read "github.com/lotbook/lotbook/projections/placement"
)

// Commands are the write side's placement commands the module sends.
type Commands interface {
	Offer(ctx context.Context, meta commands.Meta, in cmd.Offer) (cmd.Offered, error)
	Apply(ctx context.Context, meta commands.Meta, in cmd.Apply) (cmd.Applied, error)
	RequestAllotment(ctx context.Context, meta commands.Meta, placementID string) (commands.Result, error)
}

// Module serves the placement's routes.
type Module struct {
	cmd   Commands
	read  *projections.ReadDB
	feed  *mkt.Service
	store events.Store
	now   func() time.Time
}

// New is the module over the placement's commands, the read models, the market feed (the codes a
// placement may name), the event store (the auditor's re-run) and the clock (states).
func New(c Commands, rd *projections.ReadDB, feed *mkt.Service, store events.Store, now func() time.Time) *Module {
	return &Module{cmd: c, read: rd, feed: feed, store: store, now: now}
}

// Routes are the placement's operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Member, "GET", "/api/vue/placement/placements", httpx.IdemNone, m.placements),
		httpx.Op(httpx.Member, "POST", "/api/vue/placement/placements/{placementId}/apply", httpx.IdemRequired, m.apply),
		httpx.Op(httpx.Member, "GET", "/api/vue/placement/records", httpx.IdemNone, m.records),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/placement/placements", httpx.IdemNone, m.opsPlacements),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/placement/placements", httpx.IdemRequired, m.offer),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/placement/placements/{placementId}/applications", httpx.IdemNone, m.applications),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/placement/placements/{placementId}/allot", httpx.IdemRequired, m.allot),
		httpx.Op(httpx.Auditor, "GET", "/api/vue/audit/placement/placements", httpx.IdemNone, m.opsPlacements),
		httpx.Op(httpx.Auditor, "GET", "/api/vue/audit/placement/placements/{placementId}/allotment", httpx.IdemNone, m.check),
	}
}

func placementOut(p read.Placement, now time.Time, myLots int64) wire.Placement {
	return wire.Placement{PlacementId: p.PlacementID, Symbol: p.Symbol, Name: p.Name, Currency: p.Currency, Price: httpx.Money(p.Price),
		Lots: p.Lots, LotShares: p.LotShares, MaxLotsPerMember: p.MaxLotsPerMember, OpensAt: p.OpensAt, ClosesAt: p.ClosesAt,
		ListingDate: p.ListingDate, State: wire.OfferingState(p.State(now)), Commitment: p.Commitment, Algorithm: p.Algorithm, Seed: p.Seed,
		Requested: p.Requested, Allotted: p.Allotted, AllottedShares: p.AllottedShares, Applications: p.Applications, MyLots: myLots}
}

func applicationsOut(as []read.Application) []wire.PlacementApplication {
	out := make([]wire.PlacementApplication, len(as))
	for i, a := range as {
		out[i] = wire.PlacementApplication{ApplicationNo: a.ApplicationNo, PlacementId: a.PlacementID, Symbol: a.Symbol, Name: a.Name,
			Price: httpx.Money(a.Price), Lots: a.Lots, Shares: a.Shares, Amount: httpx.Money(a.Amount), State: wire.PlacementApplicationState(a.State),
			Allotted: a.Allotted, Cost: httpx.Money(a.Cost), Refunded: httpx.Money(a.Refunded), Delivered: a.Delivered, AppliedAt: a.AppliedAt,
			ListingDate: a.ListingDate}
	}
	return out
}

func (m *Module) list(c *httpx.Call, mine []read.Application) (httpx.Reply, error) {
	ps, err := read.Placements(c.Ctx(), m.read.Reader)
	if err != nil {
		return httpx.Reply{}, err
	}
	lots := map[string]int64{}
	for _, a := range mine {
		lots[a.PlacementID] += a.Lots
	}
	now := m.now()
	out := make([]wire.Placement, len(ps))
	for i, p := range ps {
		out[i] = placementOut(p, now, lots[p.PlacementID])
	}
	return httpx.OK(out)
}

func (m *Module) placements(c *httpx.Call) (httpx.Reply, error) {
	mine, err := read.MemberApplications(c.Ctx(), m.read.Reader, c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("placements of %s: %w", c.Sess.MemberID, err)
	}
	return m.list(c, mine)
}

// opsPlacements lists every placement for ops and auditors (no applications of their own).
func (m *Module) opsPlacements(c *httpx.Call) (httpx.Reply, error) { return m.list(c, nil) }

func (m *Module) records(c *httpx.Call) (httpx.Reply, error) {
	as, err := read.MemberApplications(c.Ctx(), m.read.Reader, c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(applicationsOut(as))
}

func (m *Module) apply(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "PlacementApplyRequest", wire.MessageKeyOk, func(req wire.PlacementApplyRequest) (cmd.Applied, error) {
		return m.cmd.Apply(c.Ctx(), c.Meta(), cmd.Apply{MemberID: c.Sess.MemberID, PlacementID: c.Var("placementId"), Lots: req.Lots})
	}, func(res cmd.Applied) wire.PlacementApplyResult {
		return wire.PlacementApplyResult{ApplicationNo: res.ApplicationNo, Position: res.Position,
			Available: httpx.Money(res.Cash.Available), Frozen: httpx.Money(res.Cash.Frozen)}
	})
}

func (m *Module) offer(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "PlacementRequest", wire.MessageKeyOk, func(req wire.PlacementRequest) (cmd.Offered, error) {
		in, err := httpx.Listed(m.feed, req.Symbol, req.Name)
		if err != nil {
			return cmd.Offered{}, err
		}
		return m.cmd.Offer(c.Ctx(), c.Meta(), cmd.Offer{Terms: offering.Terms{Symbol: in.Symbol, Name: in.Name, Market: events.MarketTW,
			OpensAt: req.OpensAt, ClosesAt: req.ClosesAt, ListingDate: req.ListingDate}, Price: req.Price, Lots: req.Lots,
			MaxLotsPerMember: req.MaxLotsPerMember})
	}, func(res cmd.Offered) wire.OfferingListedResult {
		return wire.OfferingListedResult{Id: res.PlacementID, Commitment: res.Commitment, Algorithm: res.Algorithm, Position: res.Position}
	})
}

// found is the placement named in the path, or 404 not_found.
func (m *Module) found(c *httpx.Call) (read.Placement, error) {
	return httpx.Found(c, m.read.Reader, "placementId", read.ByID)
}

func (m *Module) applications(c *httpx.Call) (httpx.Reply, error) {
	p, err := m.found(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	as, err := read.PlacementApplications(c.Ctx(), m.read.Reader, p.PlacementID)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.WithEntrants(c, m.read.Reader, applicationsOut(as), func(i int) string { return as[i].MemberID },
		func(e *wire.PlacementApplication, who *wire.OfferingEntrant) { e.Member = who })
}

func (m *Module) allot(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "Empty", wire.MessageKeyOk, func(wire.Empty) (commands.Result, error) {
		return m.cmd.RequestAllotment(c.Ctx(), c.Meta(), c.Var("placementId"))
	}, httpx.Done)
}

func (m *Module) check(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Audit(cmd.Verify(c.Ctx(), m.store, c.Var("placementId"))) // its JSON is OfferingCheck
}
