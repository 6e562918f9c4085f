// Package subscription is the new-share subscription lottery's read model: the issues with their
// calendar, commitment and draw, and every member's applications with their allotment states.
package subscription

import (
	"context"
	"fmt"
	"strings"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// Allotment states an application is stored in. A won application whose deduction day has
// begun reads as pending payment until its deduction is recorded (Application.State).
const (
	WaitingForDraw   = "waiting_for_draw"
	Won              = "won"
	PendingPayment   = "pending_payment"
	PaymentCompleted = "payment_completed"
	Unpaid           = "unpaid"
	NotWon           = "not_won"
	Waived           = "waived"
)

type issueRow struct {
	issueID, symbol, name, market, currency, price, referencePrice string
	lots, unitLots, lotShares                                      int64
	fee, postage                                                   string
	opensAt, closesAt                                              int64
	drawDate, deductionDate, refundDate, listingDate, pe, industry string
	commitment, algorithm, seed, winners                           string
	drawn, listedAt, position                                      int64
}

var issueFields = projections.RowMap[issueRow]{
	projections.Text("issue_id", func(r *issueRow) *string { return &r.issueID }),
	projections.Text("symbol", func(r *issueRow) *string { return &r.symbol }),
	projections.Text("name", func(r *issueRow) *string { return &r.name }),
	projections.Text("market", func(r *issueRow) *string { return &r.market }),
	projections.Text("currency", func(r *issueRow) *string { return &r.currency }),
	projections.Text("price", func(r *issueRow) *string { return &r.price }),
	projections.Text("reference_price", func(r *issueRow) *string { return &r.referencePrice }),
	projections.Integer("lots", func(r *issueRow) *int64 { return &r.lots }),
	projections.Integer("unit_lots", func(r *issueRow) *int64 { return &r.unitLots }),
	projections.Integer("lot_shares", func(r *issueRow) *int64 { return &r.lotShares }),
	projections.Text("fee", func(r *issueRow) *string { return &r.fee }),
	projections.Text("postage", func(r *issueRow) *string { return &r.postage }),
	projections.Integer("opens_at", func(r *issueRow) *int64 { return &r.opensAt }),
	projections.Integer("closes_at", func(r *issueRow) *int64 { return &r.closesAt }),
	projections.Text("draw_date", func(r *issueRow) *string { return &r.drawDate }),
	projections.Text("deduction_date", func(r *issueRow) *string { return &r.deductionDate }),
	projections.Text("refund_date", func(r *issueRow) *string { return &r.refundDate }),
	projections.Text("listing_date", func(r *issueRow) *string { return &r.listingDate }),
	projections.Text("pe", func(r *issueRow) *string { return &r.pe }),
	projections.Text("industry_pe", func(r *issueRow) *string { return &r.industry }),
	projections.Text("commitment", func(r *issueRow) *string { return &r.commitment }),
	projections.Text("algorithm", func(r *issueRow) *string { return &r.algorithm }),
	projections.Text("seed", func(r *issueRow) *string { return &r.seed }),
	projections.Text("winners", func(r *issueRow) *string { return &r.winners }), // comma-separated, in draw order
	projections.Integer("drawn", func(r *issueRow) *int64 { return &r.drawn }),
	projections.Integer("listed_at", func(r *issueRow) *int64 { return &r.listedAt }),
	projections.Integer("position", func(r *issueRow) *int64 { return &r.position }),
}

var issuesTable = &projections.Table{
	Name:    "subscription_issues",
	Cols:    issueFields.Columns(),
	Key:     []string{"issue_id"},
	Indexes: []string{"opens_at"},
}

type applicationRow struct {
	applicationNo, issueID, memberID, symbol, name string
	lots, shares                                   int64
	price, amount, fee, postage, refunded, state   string
	allotted, appliedAt, updatedAt, position       int64
}

var applicationFields = projections.RowMap[applicationRow]{
	projections.Text("application_no", func(r *applicationRow) *string { return &r.applicationNo }),
	projections.Text("issue_id", func(r *applicationRow) *string { return &r.issueID }),
	projections.Text("member_id", func(r *applicationRow) *string { return &r.memberID }),
	projections.Text("symbol", func(r *applicationRow) *string { return &r.symbol }),
	projections.Text("name", func(r *applicationRow) *string { return &r.name }),
	projections.Integer("lots", func(r *applicationRow) *int64 { return &r.lots }),
	projections.Integer("shares", func(r *applicationRow) *int64 { return &r.shares }),
	projections.Text("price", func(r *applicationRow) *string { return &r.price }),
	projections.Text("amount", func(r *applicationRow) *string { return &r.amount }),
	projections.Text("fee", func(r *applicationRow) *string { return &r.fee }),
	projections.Text("postage", func(r *applicationRow) *string { return &r.postage }),   // paid; "0" until then
	projections.Text("refunded", func(r *applicationRow) *string { return &r.refunded }), // returned; "0" until then
	projections.Text("state", func(r *applicationRow) *string { return &r.state }),
	projections.Integer("allotted", func(r *applicationRow) *int64 { return &r.allotted }), // shares delivered
	projections.Integer("applied_at", func(r *applicationRow) *int64 { return &r.appliedAt }),
	projections.Integer("updated_at", func(r *applicationRow) *int64 { return &r.updatedAt }),
	projections.Integer("position", func(r *applicationRow) *int64 { return &r.position }),
}

var applicationsTable = &projections.Table{
	Name:    "subscription_applications",
	Cols:    applicationFields.Columns(),
	Key:     []string{"application_no"},
	Indexes: []string{"member_id, applied_at", "issue_id, application_no"},
	Fixed:   []string{"issue_id", "member_id", "symbol", "name", "lots", "shares", "price", "amount", "fee", "applied_at"},
}

var projector = &projections.Projector{
	Name:    "subscription",
	Version: 1,
	Tables:  []*projections.Table{issuesTable, applicationsTable},
	Wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.SubscriptionIssueListed, events.SubscriptionSeedCommitted, events.SubscriptionDrawn,
			events.SubscriptionApplied, events.SubscriptionPaid, events.SubscriptionUnpaid, events.SubscriptionRefunded,
			events.SubscriptionAllotted:
			return true
		}
		return false
	},
	Apply: apply,
}

func init() { projections.Register(projector) }

// page is one page's fold: the issues and applications it touches, loaded first.
type page struct {
	issues map[string]*issueRow
	apps   map[string]*applicationRow
}

func apply(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	pg := &page{issues: map[string]*issueRow{}, apps: map[string]*applicationRow{}}
	if err := pg.load(ctx, w, evs); err != nil {
		return err
	}
	for _, d := range evs {
		if err := pg.apply(d); err != nil {
			return err
		}
	}
	issues := make([][]any, 0, len(pg.issues))
	for _, r := range pg.issues {
		issues = append(issues, issueFields.Args(r))
	}
	apps := make([][]any, 0, len(pg.apps))
	for _, r := range pg.apps {
		apps = append(apps, applicationFields.Args(r))
	}
	if err := w.Upsert(ctx, issuesTable, issues); err != nil {
		return err
	}
	return w.Upsert(ctx, applicationsTable, apps)
}

// load reads the issues the page changes and the applications it changes, with every application
// of an issue it draws.
func (pg *page) load(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	issues, apps, drawn := map[string]struct{}{}, map[string]struct{}{}, map[string]struct{}{}
	for _, d := range evs {
		switch e := d.P.(type) {
		case events.SubscriptionSeedCommitted:
			issues[e.IssueID] = struct{}{}
		case events.SubscriptionDrawn:
			issues[e.IssueID] = struct{}{}
			drawn[e.IssueID] = struct{}{}
		case events.SubscriptionPaid:
			apps[e.ApplicationNo] = struct{}{}
		case events.SubscriptionUnpaid:
			apps[e.ApplicationNo] = struct{}{}
		case events.SubscriptionRefunded:
			apps[e.ApplicationNo] = struct{}{}
		case events.SubscriptionAllotted:
			apps[e.ApplicationNo] = struct{}{}
		}
	}
	if err := issueFields.SelectIn(ctx, w, issuesTable, "issue_id", projections.KeysOf(issues), func(r *issueRow) { pg.issues[r.issueID] = r }); err != nil {
		return err
	}
	put := func(r *applicationRow) { pg.apps[r.applicationNo] = r }
	if err := applicationFields.SelectIn(ctx, w, applicationsTable, "application_no", projections.KeysOf(apps), put); err != nil {
		return err
	}
	return applicationFields.SelectIn(ctx, w, applicationsTable, "issue_id", projections.KeysOf(drawn), put)
}

func (pg *page) apply(d projections.Decoded) error {
	at, pos := projections.Micros(d.Ev.Metadata.ServerTime), d.Ev.Position
	app := func(no string) (*applicationRow, error) {
		r := pg.apps[no]
		if r == nil {
			return nil, d.Fail(fmt.Errorf("application %s unknown", no))
		}
		r.updatedAt, r.position = at, pos
		return r, nil
	}
	switch e := d.P.(type) {
	case events.SubscriptionIssueListed:
		if pg.issues[e.IssueID] != nil {
			return d.Fail(fmt.Errorf("issue %s listed twice", e.IssueID))
		}
		pg.issues[e.IssueID] = &issueRow{issueID: e.IssueID, symbol: e.Symbol, name: e.Name, market: e.Market, currency: e.Currency,
			price: e.Price.String(), referencePrice: e.ReferencePrice.String(), lots: e.Lots, unitLots: e.UnitLots, lotShares: e.LotShares,
			fee: e.Fee.String(), postage: e.Postage.String(), opensAt: projections.Micros(e.OpensAt), closesAt: projections.Micros(e.ClosesAt),
			drawDate: e.DrawDate, deductionDate: e.DeductionDate, refundDate: e.RefundDate, listingDate: e.ListingDate,
			pe: e.PE.String(), industry: e.IndustryPE.String(), listedAt: at, position: pos}
	case events.SubscriptionSeedCommitted:
		r := pg.issues[e.IssueID]
		if r == nil {
			return d.Fail(fmt.Errorf("seed of unknown issue %s", e.IssueID))
		}
		r.commitment, r.algorithm, r.position = e.Commitment, e.Algorithm, pos
	case events.SubscriptionDrawn:
		r := pg.issues[e.IssueID]
		if r == nil {
			return d.Fail(fmt.Errorf("draw of unknown issue %s", e.IssueID))
		}
		r.seed, r.winners, r.drawn, r.position = e.Seed, strings.Join(e.Winners, ","), 1, pos
		won := map[string]bool{}
		for _, no := range e.Winners {
			won[no] = true
		}
		for _, no := range e.Applications {
			a, err := app(no)
			if err != nil {
				return err
			}
			a.state = NotWon
			if won[no] {
				a.state = Won
			}
		}
	case events.SubscriptionApplied:
		member, err := projections.MemberOf(d.Ev.Stream)
		if err != nil {
			return d.Fail(err)
		}
		if pg.apps[e.ApplicationNo] != nil {
			return d.Fail(fmt.Errorf("application %s recorded twice", e.ApplicationNo))
		}
		pg.apps[e.ApplicationNo] = &applicationRow{applicationNo: e.ApplicationNo, issueID: e.IssueID, memberID: member, symbol: e.Symbol,
			name: e.Name, lots: e.Lots, shares: e.Shares, price: e.Price.String(), amount: e.Amount.String(), fee: e.Fee.String(),
			postage: "0", refunded: "0", state: WaitingForDraw, appliedAt: at, updatedAt: at, position: pos}
	case events.SubscriptionPaid:
		a, err := app(e.ApplicationNo)
		if err != nil {
			return err
		}
		a.state, a.postage = PaymentCompleted, e.Postage.String()
	case events.SubscriptionUnpaid:
		a, err := app(e.ApplicationNo)
		if err != nil {
			return err
		}
		a.state = Unpaid
	case events.SubscriptionRefunded:
		a, err := app(e.ApplicationNo)
		if err != nil {
			return err
		}
		a.refunded = e.Amount.String()
		if e.Waived {
			a.state = Waived
		}
	case events.SubscriptionAllotted:
		a, err := app(e.ApplicationNo)
		if err != nil {
			return err
		}
		a.allotted = e.Shares
	}
	return nil
}
