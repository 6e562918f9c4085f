// Package lending is stock lending's read model: every lending with its shares, rate, status and
// the fees it has earned, for the member's records (lending / completed) and for ops' list of all
// lendings with the member's login account and verified name.
package lending

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// Lending states.
const (
	StatusLending   = "lending"
	StatusCompleted = "completed"
)

type row struct {
	lendNo, memberID, symbol, name, rate, status, fees string
	lentDay, accruedThrough, recalledDay               string
	shares, createdAt, updatedAt, seq                  int64
}

var fields = projections.RowMap[row]{
	projections.Text("lend_no", func(r *row) *string { return &r.lendNo }),
	projections.Text("member_id", func(r *row) *string { return &r.memberID }),
	projections.Text("symbol", func(r *row) *string { return &r.symbol }),
	projections.Text("name", func(r *row) *string { return &r.name }),
	projections.Integer("shares", func(r *row) *int64 { return &r.shares }),
	projections.Text("annual_rate", func(r *row) *string { return &r.rate }),
	projections.Text("status", func(r *row) *string { return &r.status }),
	projections.Text("fees", func(r *row) *string { return &r.fees }),
	projections.Text("lent_day", func(r *row) *string { return &r.lentDay }),
	projections.Text("accrued_through", func(r *row) *string { return &r.accruedThrough }),
	projections.Text("recalled_day", func(r *row) *string { return &r.recalledDay }),
	projections.Integer("created_at", func(r *row) *int64 { return &r.createdAt }),
	projections.Integer("updated_at", func(r *row) *int64 { return &r.updatedAt }),
	projections.Integer("seq", func(r *row) *int64 { return &r.seq }),
}

var lendingsTable = &projections.Table{
	Name:    "lending_records",
	Cols:    fields.Columns(),
	Key:     []string{"lend_no"},
	Indexes: []string{"member_id, status, seq", "status, seq"},
	Fixed:   []string{"member_id", "symbol", "name", "shares", "annual_rate", "lent_day", "created_at", "seq"},
}

var lendings = &projections.Keyed[row]{Table: lendingsTable, Fields: fields, Key: func(r *row) string { return r.lendNo }, What: "lending",
	Changes: projections.KeyBy(
		projections.On(func(e events.LendingFeeAccrued) string { return e.LendNo }),
		projections.On(func(e events.StockRecalled) string { return e.LendNo }),
	)}

// directory names the lenders in ops' list: login account and verified name.
var directory = projections.NamesDirectory("lending")

var projector = &projections.Projector{
	Name:    "lending",
	Version: 1,
	Tables:  append([]*projections.Table{lendingsTable}, directory.Tables()...),
	Wants:   directory.Wanting(events.StockLent{}, events.LendingFeeAccrued{}, events.StockRecalled{}),
	Apply:   apply,
}

func init() { projections.Register(projector) }

func apply(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	rows := lendings.Page(evs)
	if _, err := directory.Apply(ctx, w, evs, nil); err != nil {
		return err
	}
	return projections.FoldPage(ctx, w, evs, func(d projections.Decoded) error { return fold(d, rows) }, rows)
}

func fold(d projections.Decoded, rows *projections.PageRows[row]) error {
	at := projections.Micros(d.Ev.Metadata.ServerTime)
	get := func(no string) (*row, error) {
		r, err := rows.Changed(d, no)
		if err == nil {
			r.updatedAt = at
		}
		return r, err
	}
	switch e := d.P.(type) {
	case events.StockLent:
		member, err := projections.MemberOf(d.Ev.Stream)
		if err != nil {
			return d.Fail(err)
		}
		rows.Put(&row{lendNo: e.LendNo, memberID: member, symbol: e.Symbol, name: e.Name, shares: e.Shares,
			rate: e.AnnualRate.String(), status: StatusLending, fees: "0", lentDay: e.Day, createdAt: at, updatedAt: at, seq: d.Ev.Position})
	case events.LendingFeeAccrued:
		r, err := get(e.LendNo)
		if err != nil {
			return err
		}
		fees, err := decimal.NewFromString(r.fees)
		if err != nil {
			return d.Fail(err)
		}
		r.fees, r.accruedThrough = fees.Add(e.Amount).String(), e.Day
	case events.StockRecalled:
		r, err := get(e.LendNo)
		if err != nil {
			return err
		}
		r.status, r.fees, r.recalledDay = StatusCompleted, e.Fees.String(), e.Day
	}
	return nil
}

// Lending is one lending as its member and ops see it; Account and MemberName only in ops' list
// (MemberName "" when not verified).
type Lending struct {
	LendNo, MemberID, Symbol, Name, Status string
	LentDay, AccruedThrough, RecalledDay   string
	Shares                                 int64
	AnnualRate, Fees                       decimal.Decimal
	CreatedAt, UpdatedAt                   time.Time
	Account, MemberName                    string
}

const cols = "l.lend_no, l.member_id, l.symbol, l.name, l.shares, l.annual_rate, l.status, l.fees, l.lent_day, l.accrued_through, " +
	"l.recalled_day, l.created_at, l.updated_at"

func query(ctx context.Context, db *projections.Reader, q string, args []any, limit int, ops bool) ([]Lending, bool, error) {
	var out []Lending
	err := db.Query(ctx, "lendings", q, args, func(rows projections.Rows) error {
		var l Lending
		var rate, fees string
		var created, updated int64
		dst := []any{&l.LendNo, &l.MemberID, &l.Symbol, &l.Name, &l.Shares, &rate, &l.Status, &fees, &l.LentDay, &l.AccruedThrough,
			&l.RecalledDay, &created, &updated}
		if ops {
			dst = append(dst, &l.Account, &l.MemberName)
		}
		if err := rows.Scan(dst...); err != nil {
			return err
		}
		var err error
		if l.AnnualRate, err = decimal.NewFromString(rate); err != nil {
			return fmt.Errorf("lending %s rate: %w", l.LendNo, err)
		}
		if l.Fees, err = decimal.NewFromString(fees); err != nil {
			return fmt.Errorf("lending %s fees: %w", l.LendNo, err)
		}
		l.CreatedAt, l.UpdatedAt = projections.FromMicros(created), projections.FromMicros(updated)
		out = append(out, l)
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return projections.TrimPage(out, limit)
}

// MemberLendings lists a member's lendings of a status (all when ""), newest first (page from 1).
func MemberLendings(ctx context.Context, db *projections.Reader, memberID, status string, page, size int) ([]Lending, bool, error) {
	limit, offset := projections.PageArgs(page, size)
	q := "SELECT " + cols + " FROM lending_records l WHERE l.member_id = ? AND (? = '' OR l.status = ?) ORDER BY l.seq DESC LIMIT ? OFFSET ?"
	return query(ctx, db, q, []any{memberID, status, status, limit, offset}, limit, false)
}

// AllLendings lists every lending of a status (all when ""), newest first, with the member's login
// account and verified name (ops).
func AllLendings(ctx context.Context, db *projections.Reader, status string, page, size int) ([]Lending, bool, error) {
	limit, offset := projections.PageArgs(page, size)
	q := "SELECT " + cols + `, COALESCE(a.account, ''), COALESCE(n.name, '') FROM lending_records l
		LEFT JOIN lending_accounts a ON a.member_id = l.member_id LEFT JOIN lending_names n ON n.member_id = l.member_id
		WHERE (? = '' OR l.status = ?) ORDER BY l.seq DESC LIMIT ? OFFSET ?`
	return query(ctx, db, q, []any{status, status, limit, offset}, limit, true)
}
