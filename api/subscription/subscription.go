// Package subscription is the new-share subscription lottery's HTTP side: members list the
// issues, read one, apply and read their applications; ops list an issue and read its
// applications; auditors re-run an issue's draw from the log.
package subscription

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	sub "github.com/lotbook/lotbook/commands/subscription"
	"github.com/lotbook/lotbook/events"
	mkt "github.com/lotbook/lotbook/market"
	"github.com/lotbook/lotbook/projections"
	read "github.com/lotbook/lotbook/projections/subscription"
)

// Module serves the subscription's routes.
type Module struct {
	cmd   *sub.Commands
	read  *projections.ReadDB
	feed  *mkt.Service
	store events.Store
	now   func() time.Time
}

// New is the module over the subscription's commands, the read models, the market feed (the
// codes an issue may name), the event store (the auditor's re-run) and the clock (issue states).
func New(cmd *sub.Commands, rd *projections.ReadDB, feed *mkt.Service, store events.Store, now func() time.Time) *Module {
	return &Module{cmd: cmd, read: rd, feed: feed, store: store, now: now}
}

// Routes are the subscription's operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Member, "GET", "/api/vue/subscription/issues", httpx.IdemNone, m.issues),
		httpx.Op(httpx.Member, "GET", "/api/vue/subscription/issues/{issueId}", httpx.IdemNone, m.issue),
		httpx.Op(httpx.Member, "POST", "/api/vue/subscription/issues/{issueId}/apply", httpx.IdemRequired, m.apply),
		httpx.Op(httpx.Member, "GET", "/api/vue/subscription/records", httpx.IdemNone, m.records),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/subscription/issues", httpx.IdemNone, m.opsIssues),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/subscription/issues", httpx.IdemRequired, m.list),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/subscription/issues/{issueId}/applications", httpx.IdemNone, m.applications),
		httpx.Op(httpx.Auditor, "GET", "/api/vue/audit/subscription/issues/{issueId}/draw", httpx.IdemNone, m.drawCheck),
	}
}

func issueOut(is read.Issue, now time.Time, applied bool) wire.SubscriptionIssue {
	c := is.Calendar
	amount := is.Price.Mul(decimal.NewFromInt(is.UnitLots * is.LotShares)).Add(is.Fee)
	return wire.SubscriptionIssue{IssueId: is.IssueID, Symbol: is.Symbol, Name: is.Name, Currency: is.Currency,
		Price: httpx.Money(is.Price), ReferencePrice: httpx.Money(is.ReferencePrice), Lots: is.Lots, UnitLots: is.UnitLots,
		LotShares: is.LotShares, Fee: httpx.Money(is.Fee), Postage: httpx.Money(is.Postage), Amount: httpx.Money(amount),
		OpensAt: c.OpensAt, ClosesAt: c.ClosesAt, DrawDate: c.DrawDate, DeductionDate: c.DeductionDate, RefundDate: c.RefundDate,
		ListingDate: c.ListingDate, Pe: is.PE.StringFixed(2), IndustryPe: is.IndustryPE.StringFixed(2),
		State: wire.SubscriptionIssueState(is.State(now)), Commitment: is.Commitment, Algorithm: is.Algorithm, Seed: is.Seed,
		Drawn: is.Drawn, Applications: is.Applications, Winners: int64(len(is.Winners)), Applied: applied}
}

func applicationOut(a read.Application, now time.Time) wire.SubscriptionApplication {
	result := wire.SubscriptionApplicationResultPending
	switch {
	case a.Won():
		result = wire.SubscriptionApplicationResultWon
	case a.State(now) == read.NotWon:
		result = wire.SubscriptionApplicationResultNotWon
	}
	c := a.Calendar
	return wire.SubscriptionApplication{ApplicationNo: a.ApplicationNo, IssueId: a.IssueID, Symbol: a.Symbol, Name: a.Name,
		Lots: a.Lots, Shares: a.Shares, Price: httpx.Money(a.Price), Amount: httpx.Money(a.Amount), Fee: httpx.Money(a.Fee),
		Postage: httpx.Money(a.Postage), Refunded: httpx.Money(a.Refunded), State: wire.AllotmentState(a.State(now)), Result: result,
		Allotted: a.Allotted, AppliedAt: a.AppliedAt, DrawDate: c.DrawDate, DeductionDate: c.DeductionDate, RefundDate: c.RefundDate,
		ListingDate: c.ListingDate}
}

// mine is the member's applications by issue.
func (m *Module) mine(c *httpx.Call) (map[string]read.Application, error) {
	apps, err := read.MemberApplications(c.Ctx(), m.read.Reader, c.Sess.MemberID)
	if err != nil {
		return nil, fmt.Errorf("subscriptions of %s: %w", c.Sess.MemberID, err)
	}
	out := make(map[string]read.Application, len(apps))
	for _, a := range apps {
		out[a.IssueID] = a
	}
	return out, nil
}

func (m *Module) listIssues(c *httpx.Call, mine map[string]read.Application) (httpx.Reply, error) {
	is, err := read.Issues(c.Ctx(), m.read.Reader)
	if err != nil {
		return httpx.Reply{}, err
	}
	now := m.now()
	out := make([]wire.SubscriptionIssue, len(is))
	for i, x := range is {
		_, applied := mine[x.IssueID]
		out[i] = issueOut(x, now, applied)
	}
	return httpx.OK(out)
}

func (m *Module) issues(c *httpx.Call) (httpx.Reply, error) {
	mine, err := m.mine(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	return m.listIssues(c, mine)
}

func (m *Module) opsIssues(c *httpx.Call) (httpx.Reply, error) { return m.listIssues(c, nil) }

// found is the issue named in the path, or 404 not_found.
func (m *Module) found(c *httpx.Call) (read.Issue, error) {
	return httpx.Found(c, m.read.Reader, "issueId", read.IssueByID)
}

func (m *Module) issue(c *httpx.Call) (httpx.Reply, error) {
	is, err := m.found(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	mine, err := m.mine(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	now := m.now()
	a, applied := mine[is.IssueID]
	out := wire.SubscriptionIssueDetail{Issue: issueOut(is, now, applied)}
	if applied {
		w := applicationOut(a, now)
		out.Application = &w
	}
	return httpx.OK(out)
}

func (m *Module) apply(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "SubscriptionApplyRequest", wire.MessageKeyOk, func(req wire.SubscriptionApplyRequest) (sub.Applied, error) {
		return m.cmd.Apply(c.Ctx(), c.Meta(), sub.Apply{MemberID: c.Sess.MemberID, IssueID: c.Var("issueId"), Lots: req.Lots})
	}, func(res sub.Applied) wire.SubscriptionApplyResult {
		return wire.SubscriptionApplyResult{ApplicationNo: res.ApplicationNo, State: wire.AllotmentStateWaitingForDraw,
			Position: res.Position, Available: httpx.Money(res.Cash.Available), Frozen: httpx.Money(res.Cash.Frozen)}
	})
}

func (m *Module) records(c *httpx.Call) (httpx.Reply, error) {
	apps, err := read.MemberApplications(c.Ctx(), m.read.Reader, c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(applicationsOut(apps, m.now()))
}

func applicationsOut(apps []read.Application, now time.Time) []wire.SubscriptionApplication {
	out := make([]wire.SubscriptionApplication, len(apps))
	for i, a := range apps {
		out[i] = applicationOut(a, now)
	}
	return out
}

func (m *Module) list(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "SubscriptionIssueRequest", wire.MessageKeyOk, func(req wire.SubscriptionIssueRequest) (sub.Listed, error) {
		in, err := httpx.Listed(m.feed, req.Symbol, req.Name)
		if err != nil {
			return sub.Listed{}, err
		}
		return m.cmd.ListIssue(c.Ctx(), c.Meta(), sub.ListIssue{Symbol: in.Symbol, Name: in.Name, Market: events.MarketTW,
			Price: req.Price, ReferencePrice: req.ReferencePrice, PE: req.Pe, IndustryPE: req.IndustryPe, Lots: req.Lots, UnitLots: req.UnitLots,
			OpensAt: req.OpensAt, ClosesAt: req.ClosesAt, DrawDate: req.DrawDate, DeductionDate: req.DeductionDate,
			RefundDate: req.RefundDate, ListingDate: req.ListingDate})
	}, func(res sub.Listed) wire.SubscriptionIssueListedResult {
		return wire.SubscriptionIssueListedResult{IssueId: res.IssueID, Commitment: res.Commitment, Algorithm: res.Algorithm, Position: res.Position}
	})
}

func (m *Module) applications(c *httpx.Call) (httpx.Reply, error) {
	is, err := m.found(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	apps, err := read.IssueApplications(c.Ctx(), m.read.Reader, is.IssueID)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.WithEntrants(c, m.read.Reader, applicationsOut(apps, m.now()), func(i int) string { return apps[i].MemberID },
		func(e *wire.SubscriptionApplication, who *wire.OfferingEntrant) { e.Member = who })
}

func (m *Module) drawCheck(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Audit(drawCheckOut(sub.Verify(c.Ctx(), m.store, c.Var("issueId"))))
}

func drawCheckOut(d sub.DrawCheck, err error) (wire.SubscriptionDrawCheck, error) {
	return wire.SubscriptionDrawCheck{IssueId: d.IssueID, Algorithm: d.Algorithm, Commitment: d.Commitment, Seed: d.Seed,
		Drawn: d.Drawn, Lots: d.Lots, Applications: nonNil(d.Applications), Winners: nonNil(d.Winners), Recomputed: nonNil(d.Recomputed),
		SeedMatches: d.SeedMatches, ApplicationsMatch: d.ApplicationsMatch, WinnersMatch: d.WinnersMatch, Verified: d.Verified()}, err
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
