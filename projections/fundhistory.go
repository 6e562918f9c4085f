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
	Details                 map[string]string
	CreatedAt, UpdatedAt    time.Time
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
	err := db.Query(ctx, "fund history", q, append(args, limit, offset), func(rows Rows) error {
		var r journalRow
		if err := journalFields.Scan(rows, &r); err != nil {
			return err
		}
		l := FundLine{OrderNo: r.orderNo, Type: r.typ, Currency: r.asset, Status: r.status, Remark: r.remark,
			Symbol: r.instrument, Details: map[string]string{}, CreatedAt: FromMicros(r.createdAt), UpdatedAt: FromMicros(r.updatedAt)}
		var err error
		if l.Amount, err = decimal.NewFromString(r.amount); err != nil {
			return fmt.Errorf("journal line %s amount: %w", r.lineID, err)
		}
		if r.details != "" {
			if err := json.Unmarshal([]byte(r.details), &l.Details); err != nil {
				return fmt.Errorf("journal line %s details: %w", r.lineID, err)
			}
		}
		out = append(out, l)
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return TrimPage(out, limit)
}
