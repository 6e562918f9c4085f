package subscription

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/ipo"
	"github.com/lotbook/lotbook/projections"
)

// Issue is an issue as members and ops read it.
type Issue struct {
	IssueID, Symbol, Name, Market, Currency             string
	Price, ReferencePrice, Fee, Postage, PE, IndustryPE decimal.Decimal
	Lots, UnitLots, LotShares                           int64
	Calendar                                            ipo.Calendar
	Commitment, Algorithm                               string
	Seed                                                string   // empty until the draw
	Winners                                             []string // in draw order, empty until the draw
	Drawn                                               bool
	Applications                                        int64 // applications so far
	ListedAt                                            time.Time
}

// State is the issue's state at now, from its calendar.
func (i Issue) State(now time.Time) string { return i.Calendar.State(now) }

func (r *issueRow) issue(applications int64) (Issue, error) {
	ds, err := decimals(r.price, r.referencePrice, r.fee, r.postage, r.pe, r.industry)
	if err != nil {
		return Issue{}, fmt.Errorf("issue %s: %w", r.issueID, err)
	}
	var winners []string
	if r.winners != "" {
		winners = strings.Split(r.winners, ",")
	}
	return Issue{IssueID: r.issueID, Symbol: r.symbol, Name: r.name, Market: r.market, Currency: r.currency,
		Price: ds[0], ReferencePrice: ds[1], Fee: ds[2], Postage: ds[3], PE: ds[4], IndustryPE: ds[5],
		Lots: r.lots, UnitLots: r.unitLots, LotShares: r.lotShares,
		Calendar: ipo.Calendar{OpensAt: projections.FromMicros(r.opensAt), ClosesAt: projections.FromMicros(r.closesAt),
			DrawDate: r.drawDate, DeductionDate: r.deductionDate, RefundDate: r.refundDate, ListingDate: r.listingDate},
		Commitment: r.commitment, Algorithm: r.algorithm, Seed: r.seed, Winners: winners, Drawn: r.drawn != 0,
		Applications: applications, ListedAt: projections.FromMicros(r.listedAt)}, nil
}

func decimals(ss ...string) ([]decimal.Decimal, error) {
	out := make([]decimal.Decimal, len(ss))
	for i, s := range ss {
		d, err := decimal.NewFromString(s)
		if err != nil {
			return nil, err
		}
		out[i] = d
	}
	return out, nil
}

// issueQuery selects issues with their count of applications.
func issueQuery(where string) string {
	return "SELECT " + issueFields.ListOf("i") + ", (SELECT COUNT(*) FROM subscription_applications a WHERE a.issue_id = i.issue_id)" +
		" FROM subscription_issues i " + where
}

// withCount scans a row of issueQuery: the issue's columns, then its count of applications.
type withCount struct {
	projections.Rows
	n *int64
}

func (w withCount) Scan(dest ...any) error { return w.Rows.Scan(append(dest, w.n)...) }

func scanIssues(ctx context.Context, db *projections.Reader, what, q string, args []any) ([]Issue, error) {
	var out []Issue
	err := db.Query(ctx, what, q, args, func(rows projections.Rows) error {
		var r issueRow
		var n int64
		if err := issueFields.Scan(withCount{rows, &n}, &r); err != nil {
			return err
		}
		is, err := r.issue(n)
		if err != nil {
			return err
		}
		out = append(out, is)
		return nil
	})
	return out, err
}

// Issues lists every issue, the latest window first.
func Issues(ctx context.Context, db *projections.Reader) ([]Issue, error) {
	return scanIssues(ctx, db, "subscription issues", issueQuery("ORDER BY i.opens_at DESC, i.issue_id"), nil)
}

// IssueByID is one issue; found is false when there is none.
func IssueByID(ctx context.Context, db *projections.Reader, issueID string) (Issue, bool, error) {
	is, err := scanIssues(ctx, db, "subscription issue", issueQuery("WHERE i.issue_id = ?"), []any{issueID})
	if err != nil || len(is) == 0 {
		return Issue{}, false, err
	}
	return is[0], true, nil
}

// Application is one member's application with its issue's calendar.
type Application struct {
	ApplicationNo, IssueID, MemberID, Symbol, Name string
	Lots, Shares                                   int64
	Price, Amount, Fee, Postage, Refunded          decimal.Decimal
	Allotted                                       int64 // shares delivered on the listing date
	AppliedAt, UpdatedAt                           time.Time
	state                                          string
	Calendar                                       ipo.Calendar
}

// State is the allotment state at now: a winner reads pending payment once its deduction day's
// step time has come and no deduction is recorded yet.
func (a Application) State(now time.Time) string {
	if a.state == Won && !now.Before(a.Calendar.At(ipo.StepDeduct)) {
		return PendingPayment
	}
	return a.state
}

// Won reports whether the draw picked the application (whatever became of its payment).
func (a Application) Won() bool {
	switch a.state {
	case Won, PaymentCompleted, Unpaid, Waived:
		return true
	}
	return false
}

// applicationQuery selects applications with their issue's calendar columns.
func applicationQuery(where string) string {
	return "SELECT " + applicationFields.ListOf("a") + ", i.opens_at, i.closes_at, i.draw_date, i.deduction_date, i.refund_date, i.listing_date" +
		" FROM subscription_applications a JOIN subscription_issues i ON i.issue_id = a.issue_id " + where
}

// withCalendar scans a row of applicationQuery.
type withCalendar struct {
	projections.Rows
	opens, closes *int64
	c             *ipo.Calendar
}

func (w withCalendar) Scan(dest ...any) error {
	return w.Rows.Scan(append(dest, w.opens, w.closes, &w.c.DrawDate, &w.c.DeductionDate, &w.c.RefundDate, &w.c.ListingDate)...)
}

func scanApplications(ctx context.Context, db *projections.Reader, what, q string, args []any) ([]Application, error) {
	var out []Application
	err := db.Query(ctx, what, q, args, func(rows projections.Rows) error {
		var r applicationRow
		var opens, closes int64
		var c ipo.Calendar
		if err := applicationFields.Scan(withCalendar{rows, &opens, &closes, &c}, &r); err != nil {
			return err
		}
		c.OpensAt, c.ClosesAt = projections.FromMicros(opens), projections.FromMicros(closes)
		ds, err := decimals(r.price, r.amount, r.fee, r.postage, r.refunded)
		if err != nil {
			return fmt.Errorf("application %s: %w", r.applicationNo, err)
		}
		out = append(out, Application{ApplicationNo: r.applicationNo, IssueID: r.issueID, MemberID: r.memberID, Symbol: r.symbol,
			Name: r.name, Lots: r.lots, Shares: r.shares, Price: ds[0], Amount: ds[1], Fee: ds[2], Postage: ds[3], Refunded: ds[4],
			Allotted: r.allotted, AppliedAt: projections.FromMicros(r.appliedAt), UpdatedAt: projections.FromMicros(r.updatedAt),
			state: r.state, Calendar: c})
		return nil
	})
	return out, err
}

// MemberApplications lists a member's applications, the newest first.
func MemberApplications(ctx context.Context, db *projections.Reader, memberID string) ([]Application, error) {
	return scanApplications(ctx, db, "member's subscriptions", applicationQuery("WHERE a.member_id = ? ORDER BY a.applied_at DESC, a.application_no"), []any{memberID})
}

// IssueApplications lists an issue's applications in the order the draw sorts them.
func IssueApplications(ctx context.Context, db *projections.Reader, issueID string) ([]Application, error) {
	return scanApplications(ctx, db, "issue's applications", applicationQuery("WHERE a.issue_id = ? ORDER BY a.application_no"), []any{issueID})
}
