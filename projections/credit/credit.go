// Package credit is the credit loans' and seat accounts' read model: every loan with its review
// status, principal outstanding, unpaid and total interest and repayments, for the member (loan
// records, /user/jkjl) and for ops reviewing it; and every seat application.
package credit

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// Loan statuses: the review's (pending, rejected) until disbursed, then outstanding until repaid.
const (
	StatusPending     = events.ReviewPending
	StatusRejected    = events.ReviewRejected
	StatusOutstanding = "outstanding"
	StatusRepaid      = "repaid"
)

type loanRow struct {
	orderNo, memberID, account, amount, rate, status, review string
	principal, interest, interestTotal, repaid               string
	remark, reviewedBy, disbursedDay, accruedThrough         string
	createdAt, updatedAt, seq                                int64
}

var loanFields = projections.RowMap[loanRow]{
	projections.Text("order_no", func(r *loanRow) *string { return &r.orderNo }),
	projections.Text("member_id", func(r *loanRow) *string { return &r.memberID }),
	projections.Text("account", func(r *loanRow) *string { return &r.account }),
	projections.Text("amount", func(r *loanRow) *string { return &r.amount }),
	projections.Text("annual_rate", func(r *loanRow) *string { return &r.rate }),
	projections.Text("status", func(r *loanRow) *string { return &r.status }),
	projections.Text("review", func(r *loanRow) *string { return &r.review }),
	projections.Text("principal", func(r *loanRow) *string { return &r.principal }),
	projections.Text("interest", func(r *loanRow) *string { return &r.interest }),
	projections.Text("interest_total", func(r *loanRow) *string { return &r.interestTotal }),
	projections.Text("repaid", func(r *loanRow) *string { return &r.repaid }),
	projections.Text("remark", func(r *loanRow) *string { return &r.remark }),
	projections.Text("reviewed_by", func(r *loanRow) *string { return &r.reviewedBy }),
	projections.Text("disbursed_day", func(r *loanRow) *string { return &r.disbursedDay }),
	projections.Text("accrued_through", func(r *loanRow) *string { return &r.accruedThrough }),
	projections.Integer("created_at", func(r *loanRow) *int64 { return &r.createdAt }),
	projections.Integer("updated_at", func(r *loanRow) *int64 { return &r.updatedAt }),
	projections.Integer("seq", func(r *loanRow) *int64 { return &r.seq }),
}

var loansTable = &projections.Table{
	Name:    "credit_loans",
	Cols:    loanFields.Columns(),
	Key:     []string{"order_no"},
	Indexes: []string{"member_id, seq", "status, seq"},
	Fixed:   []string{"member_id", "account", "amount", "annual_rate", "created_at", "seq"},
}

type seatRow struct {
	orderNo, memberID, account, status, remark, reviewedBy string
	createdAt, updatedAt, seq                              int64
}

var seatFields = projections.RowMap[seatRow]{
	projections.Text("order_no", func(r *seatRow) *string { return &r.orderNo }),
	projections.Text("member_id", func(r *seatRow) *string { return &r.memberID }),
	projections.Text("account", func(r *seatRow) *string { return &r.account }),
	projections.Text("status", func(r *seatRow) *string { return &r.status }),
	projections.Text("remark", func(r *seatRow) *string { return &r.remark }),
	projections.Text("reviewed_by", func(r *seatRow) *string { return &r.reviewedBy }),
	projections.Integer("created_at", func(r *seatRow) *int64 { return &r.createdAt }),
	projections.Integer("updated_at", func(r *seatRow) *int64 { return &r.updatedAt }),
	projections.Integer("seq", func(r *seatRow) *int64 { return &r.seq }),
}

var seatsTable = &projections.Table{
	Name:    "credit_seats",
	Cols:    seatFields.Columns(),
	Key:     []string{"order_no"},
	Indexes: []string{"member_id, seq", "status, seq"},
	Fixed:   []string{"member_id", "account", "created_at", "seq"},
}

// directory holds the applicants' login accounts, which loans and seats show.
var directory = projections.AccountsDirectory("credit")

var (
	loans = &projections.Keyed[loanRow]{Table: loansTable, Fields: loanFields, Key: func(r *loanRow) string { return r.orderNo }, What: "loan",
		Changes: projections.KeyBy(
			projections.On(func(e events.LoanApproved) string { return e.OrderNo }),
			projections.On(func(e events.LoanRejected) string { return e.OrderNo }),
			projections.On(func(e events.LoanDisbursed) string { return e.OrderNo }),
			projections.On(func(e events.LoanInterestAccrued) string { return e.OrderNo }),
			projections.On(func(e events.LoanRepaid) string { return e.OrderNo }),
		)}
	seats = &projections.Keyed[seatRow]{Table: seatsTable, Fields: seatFields, Key: func(r *seatRow) string { return r.orderNo },
		What: "seat application", Changes: projections.KeyBy(
			projections.On(func(e events.SeatApproved) string { return e.OrderNo }),
			projections.On(func(e events.SeatRejected) string { return e.OrderNo }),
		)}
)

var projector = &projections.Projector{
	Name:    "credit",
	Version: 1,
	Tables:  append([]*projections.Table{loansTable, seatsTable}, directory.Tables()...),
	Wants: directory.Wanting(events.LoanApplied{}, events.LoanApproved{}, events.LoanRejected{}, events.LoanDisbursed{},
		events.LoanInterestAccrued{}, events.LoanRepaid{}, events.SeatApplied{}, events.SeatApproved{}, events.SeatRejected{}),
	Apply: apply,
}

func init() { projections.Register(projector) }

type page struct {
	loans    *projections.PageRows[loanRow]
	seats    *projections.PageRows[seatRow]
	accounts map[string]string
}

func apply(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	accounts, err := directory.Apply(ctx, w, evs, isApplication)
	if err != nil {
		return err
	}
	pg := page{loans: loans.Page(evs), seats: seats.Page(evs), accounts: accounts}
	return projections.FoldPage(ctx, w, evs, pg.apply, pg.loans, pg.seats)
}

func isApplication(p events.Payload) bool {
	switch p.(type) {
	case events.LoanApplied, events.SeatApplied:
		return true
	}
	return false
}

// add is a + b as the rows keep them (decimal strings).
func add(a string, b decimal.Decimal) string { return projections.AddText(a, b) }

func (pg *page) apply(d projections.Decoded) error {
	at := projections.Micros(d.Ev.Metadata.ServerTime)
	loan := func(no string) (*loanRow, error) {
		r, err := pg.loans.Changed(d, no)
		if err == nil {
			r.updatedAt = at
		}
		return r, err
	}
	switch e := d.P.(type) {
	case events.LoanApplied:
		member, err := projections.MemberOf(d.Ev.Stream)
		if err != nil {
			return d.Fail(err)
		}
		pg.loans.Put(&loanRow{orderNo: e.OrderNo, memberID: member, account: pg.accounts[member], amount: e.Amount.String(),
			rate: e.AnnualRate.String(), status: StatusPending, review: events.ReviewPending, principal: "0", interest: "0",
			interestTotal: "0", repaid: "0", createdAt: at, updatedAt: at, seq: d.Ev.Position})
	case events.LoanApproved:
		r, err := loan(e.OrderNo)
		if err != nil {
			return err
		}
		r.review, r.remark, r.reviewedBy = events.ReviewApproved, e.Remark, d.Ev.Metadata.Actor
	case events.LoanRejected:
		r, err := loan(e.OrderNo)
		if err != nil {
			return err
		}
		r.status, r.review, r.remark, r.reviewedBy = StatusRejected, events.ReviewRejected, e.Remark, d.Ev.Metadata.Actor
	case events.LoanDisbursed:
		r, err := loan(e.OrderNo)
		if err != nil {
			return err
		}
		r.status, r.principal, r.disbursedDay = StatusOutstanding, e.Amount.String(), e.Day
	case events.LoanInterestAccrued:
		r, err := loan(e.OrderNo)
		if err != nil {
			return err
		}
		r.interest, r.interestTotal, r.accruedThrough = add(r.interest, e.Amount), add(r.interestTotal, e.Amount), e.Day
	case events.LoanRepaid:
		r, err := loan(e.OrderNo)
		if err != nil {
			return err
		}
		r.interest, r.principal, r.repaid = add(r.interest, e.Interest.Neg()), add(r.principal, e.Principal.Neg()), add(r.repaid, e.Amount)
		if !e.Outstanding.IsPositive() {
			r.status = StatusRepaid
		}
	case events.SeatApplied:
		member, err := projections.MemberOf(d.Ev.Stream)
		if err != nil {
			return d.Fail(err)
		}
		pg.seats.Put(&seatRow{orderNo: e.OrderNo, memberID: member, account: pg.accounts[member], status: events.ReviewPending,
			createdAt: at, updatedAt: at, seq: d.Ev.Position})
	case events.SeatApproved:
		return pg.decideSeat(d, e.OrderNo, events.ReviewApproved, e.Remark, at)
	case events.SeatRejected:
		return pg.decideSeat(d, e.OrderNo, events.ReviewRejected, e.Remark, at)
	}
	return nil
}

func (pg *page) decideSeat(d projections.Decoded, orderNo, status, remark string, at int64) error {
	r, err := pg.seats.Changed(d, orderNo)
	if err != nil {
		return err
	}
	r.status, r.remark, r.reviewedBy, r.updatedAt = status, remark, d.Ev.Metadata.Actor, at
	return nil
}

// Loan is one loan as its member and ops see it.
type Loan struct {
	OrderNo, MemberID, Account, Status, Review, Remark, ReviewedBy string
	DisbursedDay, AccruedThrough                                   string
	Amount, AnnualRate, Principal, Interest, InterestTotal, Repaid decimal.Decimal
	CreatedAt, UpdatedAt                                           time.Time
}

// Outstanding is what the loan still owes.
func (l Loan) Outstanding() decimal.Decimal { return l.Principal.Add(l.Interest) }

func (r *loanRow) loan() (Loan, error) {
	var ds [6]decimal.Decimal
	for i, s := range []string{r.amount, r.rate, r.principal, r.interest, r.interestTotal, r.repaid} {
		v, err := decimal.NewFromString(s)
		if err != nil {
			return Loan{}, fmt.Errorf("loan %s: %w", r.orderNo, err)
		}
		ds[i] = v
	}
	return Loan{OrderNo: r.orderNo, MemberID: r.memberID, Account: r.account, Status: r.status, Review: r.review, Remark: r.remark,
		ReviewedBy: r.reviewedBy, DisbursedDay: r.disbursedDay, AccruedThrough: r.accruedThrough, Amount: ds[0], AnnualRate: ds[1],
		Principal: ds[2], Interest: ds[3], InterestTotal: ds[4], Repaid: ds[5],
		CreatedAt: projections.FromMicros(r.createdAt), UpdatedAt: projections.FromMicros(r.updatedAt)}, nil
}

var scanLoan = projections.Scanner(loanFields, (*loanRow).loan)

// MemberLoans lists a member's loans, newest first (page from 1).
func MemberLoans(ctx context.Context, db *projections.Reader, memberID string, page, size int) ([]Loan, bool, error) {
	q, args, limit := projections.NewestFirst(loanFields.List(), "credit_loans", "member_id", memberID, page, size)
	return projections.QueryPage(ctx, db, "credit loans", q, args, limit, scanLoan)
}

// LoanQueue lists loans by status for ops (all when status is empty): pending oldest first.
func LoanQueue(ctx context.Context, db *projections.Reader, status string, page, size int) ([]Loan, bool, error) {
	q, args, limit := projections.QueueQuery(loanFields.List(), "credit_loans", status, StatusPending, page, size)
	return projections.QueryPage(ctx, db, "credit loans", q, args, limit, scanLoan)
}

// LoanByNo is one loan (projections.ErrNotFound when there is none).
func LoanByNo(ctx context.Context, db *projections.Reader, orderNo string) (Loan, error) {
	return projections.QueryOne(ctx, db, "credit loan", "SELECT "+loanFields.List()+" FROM credit_loans WHERE order_no = ?", []any{orderNo}, scanLoan)
}

// Seat is one seat application.
type Seat struct {
	OrderNo, MemberID, Account, Status, Remark, ReviewedBy string
	CreatedAt, UpdatedAt                                   time.Time
}

func (r *seatRow) seat() (Seat, error) {
	return Seat{OrderNo: r.orderNo, MemberID: r.memberID, Account: r.account, Status: r.status, Remark: r.remark,
		ReviewedBy: r.reviewedBy, CreatedAt: projections.FromMicros(r.createdAt), UpdatedAt: projections.FromMicros(r.updatedAt)}, nil
}

var scanSeat = projections.Scanner(seatFields, (*seatRow).seat)

// MemberSeats lists a member's seat applications, newest first.
func MemberSeats(ctx context.Context, db *projections.Reader, memberID string) ([]Seat, error) {
	return projections.QueryAll(ctx, db, "credit seats", "SELECT "+seatFields.List()+" FROM credit_seats WHERE member_id = ? ORDER BY seq DESC LIMIT 50",
		[]any{memberID}, scanSeat)
}

// SeatQueue lists seat applications by status for ops (all when status is empty): pending oldest first.
func SeatQueue(ctx context.Context, db *projections.Reader, status string, page, size int) ([]Seat, bool, error) {
	q, args, limit := projections.QueueQuery(seatFields.List(), "credit_seats", status, events.ReviewPending, page, size)
	return projections.QueryPage(ctx, db, "credit seats", q, args, limit, scanSeat)
}

// SeatByNo is one seat application (projections.ErrNotFound when there is none).
func SeatByNo(ctx context.Context, db *projections.Reader, orderNo string) (Seat, error) {
	return projections.QueryOne(ctx, db, "credit seat", "SELECT "+seatFields.List()+" FROM credit_seats WHERE order_no = ?", []any{orderNo}, scanSeat)
}
