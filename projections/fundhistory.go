package projections

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
)

// FundLine is one line of a member's whole money history (the journal): its type, order number,
// asset (Currency: a currency code, a security code, or empty for credit score points), signed
// amount, status, remark, instrument (Symbol) and the labels its event gave it (Details: channel
// name, bank, rate, credit score after the change, settlement date, ...).
type FundLine struct {
	OrderNo, Type, Currency string
	Amount                  decimal.Decimal
	Status, Remark, Symbol  string
	Account                 string // the member's account kind the line moves ("available", "frozen"), if any
	Details                 map[string]string
	CreatedAt, UpdatedAt    time.Time
	Seq                     int64 // the position of the event that added the line: lines of one event share it
}

// FundHistory lists a member's journal lines of type typ ("all" or a declared line type: see
// events.LineTypes), newest first; the lines of one event in the order it gave them (the two legs
// of an exchange source first, a fill's lines trade, fee, tax, ...).
func (db *Reader) FundHistory(ctx context.Context, memberID, typ string, page, size int) ([]FundLine, bool, error) {
	limit, offset := PageArgs(page, size)
	filter, args := "", []any{memberID}
	if typ != "" && typ != "all" {
		filter, args = " AND type = ?", append(args, typ)
	}
	q := "SELECT " + journalFields.List() + " FROM journal WHERE member_id = ?" + filter + " ORDER BY seq DESC, leg ASC LIMIT ? OFFSET ?"
	var out []FundLine
	if err := db.Query(ctx, "fund history", q, append(args, limit, offset), Collect(&out, journalFields, fundLine)); err != nil {
		return nil, false, err
	}
	return TrimPage(out, limit)
}

// FundLinesBetween lists all of a member's journal lines created in [from, to), oldest first
// (the monthly statement), at most max+1 of them so that a caller can tell it was cut.
func (db *Reader) FundLinesBetween(ctx context.Context, memberID string, from, to time.Time, maxLines int) ([]FundLine, error) {
	q := "SELECT " + journalFields.List() + " FROM journal WHERE member_id = ? AND created_at >= ? AND created_at < ? ORDER BY seq ASC, leg ASC LIMIT ?"
	var out []FundLine
	err := db.Query(ctx, "fund lines between", q, []any{memberID, Micros(from), Micros(to), maxLines + 1}, Collect(&out, journalFields, fundLine))
	return out, err
}

func fundLine(r *journalRow) (FundLine, error) {
	l := FundLine{OrderNo: r.orderNo, Type: r.typ, Currency: r.asset, Status: r.status, Remark: r.remark, Account: r.account,
		Symbol: r.instrument, Details: map[string]string{}, CreatedAt: FromMicros(r.createdAt), UpdatedAt: FromMicros(r.updatedAt), Seq: r.seq}
	var err error
	if l.Amount, err = decimal.NewFromString(r.amount); err != nil {
		return FundLine{}, fmt.Errorf("journal line %s amount: %w", r.lineID, err)
	}
	if r.details != "" {
		if err := json.Unmarshal([]byte(r.details), &l.Details); err != nil {
			return FundLine{}, fmt.Errorf("journal line %s details: %w", r.lineID, err)
		}
	}
	return l, nil
}
