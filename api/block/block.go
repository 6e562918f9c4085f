// Package block is the block trade capability's HTTP side: members list blocks, apply and see
// their applications; ops list and close blocks and review applications.
package block

import (
	"context"
	"fmt"
	"time"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	blockcmd "github.com/lotbook/lotbook/commands/block"
	"github.com/lotbook/lotbook/commands/trading/engine"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/block"
)

// Commands are the write side's operations this module sends (*block.Commands of commands/block).
type Commands interface {
	ListBlock(ctx context.Context, meta commands.Meta, in blockcmd.ListBlockInput, q commands.ListingQuote) (blockcmd.Result, error)
	CloseBlock(ctx context.Context, meta commands.Meta, in blockcmd.CloseBlock) (blockcmd.Result, error)
	ApplyBlock(ctx context.Context, meta commands.Meta, memberID string, in blockcmd.ApplyBlockInput) (blockcmd.Result, error)
	ApproveBlockApplication(ctx context.Context, meta commands.Meta, in blockcmd.Review) (blockcmd.Result, error)
	RejectBlockApplication(ctx context.Context, meta commands.Meta, in blockcmd.Review) (blockcmd.Result, error)
}

// Module serves the block trade routes.
type Module struct {
	cmd    Commands
	read   *projections.ReadDB
	market func() engine.Market // the only source of the reference price
	now    func() time.Time
}

// New is the block module over the command service, the read models, the market the trading
// engine reads and the server's clock.
func New(cmd Commands, read *projections.ReadDB, market func() engine.Market, now func() time.Time) *Module {
	return &Module{cmd: cmd, read: read, market: market, now: now}
}

// Routes are the block operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Member, "GET", "/api/vue/block", httpx.IdemNone, m.blocks),
		httpx.Op(httpx.Member, "POST", "/api/vue/block/{id}/apply", httpx.IdemRequired, m.apply),
		httpx.Op(httpx.Member, "GET", "/api/vue/block/applications", httpx.IdemNone, m.myApplications),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/block", httpx.IdemNone, m.blocks),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/block", httpx.IdemRequired, m.list),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/block/{id}/close", httpx.IdemRequired, m.close),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/block/applications", httpx.IdemNone, m.queue),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/block/applications/{orderNo}/approve", httpx.IdemRequired, m.approve),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/block/applications/{orderNo}/reject", httpx.IdemRequired, m.reject),
	}
}

func listingOut(l block.Listing, now time.Time) wire.BlockListing {
	status := wire.BlockListingStatusOpen
	switch {
	case l.Closed || !now.Before(l.ClosesAt):
		status = wire.BlockListingStatusClosed
	case now.Before(l.OpensAt):
		status = wire.BlockListingStatusUpcoming
	}
	return wire.BlockListing{BlockId: l.BlockID, Symbol: l.Symbol, Name: l.Name, ReferencePrice: httpx.Money(l.ReferencePrice),
		PremiumRate: l.PremiumRate.Shift(2).StringFixed(2), Price: httpx.Money(l.Price), MinLots: l.MinLots, DailyCapLots: l.DailyCapLots,
		TotalLots: l.TotalLots, RemainingLots: max(l.TotalLots-l.FilledLots, 0), HasPassword: l.HasPassword, OpensAt: l.OpensAt, ClosesAt: l.ClosesAt, Status: status, AppliedLots: l.AppliedLots,
		FilledLots: l.FilledLots}
}

func (m *Module) blocks(c *httpx.Call) (httpx.Reply, error) {
	ls, err := block.Listings(c.Ctx(), m.read.Reader, false, m.now())
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("block listings: %w", err)
	}
	now := m.now()
	out := make([]wire.BlockListing, 0, len(ls))
	for _, l := range ls {
		out = append(out, listingOut(l, now))
	}
	return httpx.OK(out)
}

func (m *Module) apply(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "BlockApplyRequest", wire.MessageKeyBlockApplied, func(req wire.BlockApplyRequest) (blockcmd.Result, error) {
		return m.cmd.ApplyBlock(c.Ctx(), c.Meta(), c.Sess.MemberID, blockcmd.ApplyBlockInput{BlockID: c.Var("id"), Bid: req.Bid, Lots: req.Lots,
			Password: httpx.Deref(req.Password)})
	}, resultOut)
}

func resultOut(r blockcmd.Result) wire.BlockApplicationResult {
	return wire.BlockApplicationResult{OrderNo: r.OrderNo, BlockId: r.BlockID, Status: wire.ReviewStatus(r.Status), Position: r.Position}
}

// applicationOut maps an application; ops lists also name the applicant and the reviewer.
func applicationOut(a block.Application, ops bool) wire.BlockApplication {
	out := wire.BlockApplication{OrderNo: a.OrderNo, BlockId: a.BlockID, Symbol: a.Symbol, Name: a.Name, Price: httpx.Money(a.Price),
		Bid: httpx.Money(a.Bid), Lots: a.Lots, FilledLots: a.FilledLots, Amount: httpx.Money(a.Amount), Status: wire.ReviewStatus(a.Status),
		Remark: a.Remark, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt}
	if ops {
		out.Account, out.ReviewedBy, out.MemberName = &a.Account, &a.ReviewedBy, &a.MemberName
	}
	return out
}

func pageOut(apps []block.Application, page int, more, ops bool) wire.BlockApplicationPage {
	items := make([]wire.BlockApplication, 0, len(apps))
	for _, a := range apps {
		items = append(items, applicationOut(a, ops))
	}
	return wire.BlockApplicationPage{Items: items, Page: page, HasMore: more}
}

func (m *Module) myApplications(c *httpx.Call) (httpx.Reply, error) {
	page, size, err := httpx.Paging(c.R.URL.Query())
	if err != nil {
		return httpx.Reply{}, err
	}
	apps, more, err := block.MemberApplications(c.Ctx(), m.read.Reader, c.Sess.MemberID, page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("block applications of %s: %w", c.Sess.MemberID, err)
	}
	return httpx.OK(pageOut(apps, page, more, false))
}

func (m *Module) list(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "BlockListRequest", wire.MessageKeyOk, func(req wire.BlockListRequest) (blockcmd.Result, error) {
		return m.cmd.ListBlock(c.Ctx(), c.Meta(), blockcmd.ListBlockInput{Symbol: req.Symbol, MinLots: req.MinLots, DailyCapLots: req.DailyCapLots,
			TotalLots: req.TotalLots, OpensAt: req.OpensAt, ClosesAt: req.ClosesAt, Price: httpx.Deref(req.Price),
			PremiumPercent: httpx.Deref(req.PremiumPercent), Password: httpx.Deref(req.Password)}, m.quote(req.Symbol))
	}, func(res blockcmd.Result) wire.BlockListResult {
		return wire.BlockListResult{BlockId: res.BlockID, Position: res.Position}
	})
}

func (m *Module) quote(symbol string) commands.ListingQuote {
	return engine.ListingQuote(m.market(), symbol, m.now())
}

func (m *Module) close(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "ApproveRequest", wire.MessageKeyOk, func(req wire.ApproveRequest) (blockcmd.Result, error) {
		return m.cmd.CloseBlock(c.Ctx(), c.Meta(), blockcmd.CloseBlock{BlockID: c.Var("id"), Remark: httpx.Deref(req.Remark)})
	}, func(res blockcmd.Result) wire.CommandResult { return wire.CommandResult{Position: res.Position} })
}

func (m *Module) queue(c *httpx.Call) (httpx.Reply, error) {
	status, page, size, err := httpx.QueueQuery(c, events.ReviewPending, func(s string) bool { return wire.ReviewStatus(s).Valid() })
	if err != nil {
		return httpx.Reply{}, err
	}
	apps, more, err := block.Queue(c.Ctx(), m.read.Reader, status, page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("block queue: %w", err)
	}
	return httpx.OK(pageOut(apps, page, more, true))
}

func (m *Module) approve(c *httpx.Call) (httpx.Reply, error) {
	return m.review(c, true, m.cmd.ApproveBlockApplication)
}

func (m *Module) reject(c *httpx.Call) (httpx.Reply, error) {
	return m.review(c, false, m.cmd.RejectBlockApplication)
}

// review decides on an application; its member comes from the read model.
func (m *Module) review(c *httpx.Call, approve bool,
	decide func(ctx context.Context, meta commands.Meta, in blockcmd.Review) (blockcmd.Result, error)) (httpx.Reply, error) {
	r, err := c.ReviewOf(approve, "block application", func(ctx context.Context, no string) (string, error) {
		app, err := block.ApplicationByNo(ctx, m.read.Reader, no)
		return app.MemberID, err
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	res, err := decide(c.Ctx(), c.Meta(), blockcmd.Review{MemberID: r.MemberID, OrderNo: r.OrderNo, Remark: r.Remark})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(resultOut(res))
}
