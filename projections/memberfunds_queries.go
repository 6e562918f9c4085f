package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
)

// RealName is a member's latest identity submission. IDCipher is the sealed ID number: only ops
// reviewing it get it opened (by the API, which holds the key).
type RealName struct {
	MemberID, Account, SubmissionID, Name string
	IDCipher, IDMasked                    string
	FrontFileID, BackFileID               string
	Status, Remark, ReviewedBy            string
	SubmittedAt, UpdatedAt                time.Time
}

// Card is a bound bank card; the number is known by its last four digits only.
type Card struct {
	CardID, MemberID, HolderName, BankName, Branch, BankCode, Last4, IFSC, UPI string
	BoundAt                                                                    time.Time
}

// Withdrawal is a withdrawal in the ops queue, with the card it pays out to.
type Withdrawal struct {
	OrderNo, MemberID, Account, Currency              string
	Amount                                            decimal.Decimal
	ChannelName, CardID, HolderName, BankName, Branch string
	BankCode, CardLast4, Status, Remark, ReviewedBy   string
	CreatedAt, UpdatedAt                              time.Time
}

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

func (r *realNameRow) realName() RealName {
	return RealName{MemberID: r.memberID, Account: r.account, SubmissionID: r.submissionID, Name: r.name, IDCipher: r.idCipher,
		IDMasked: r.idMasked, FrontFileID: r.front, BackFileID: r.back, Status: r.status, Remark: r.remark,
		ReviewedBy: r.reviewedBy, SubmittedAt: FromMicros(r.submittedAt), UpdatedAt: FromMicros(r.updatedAt)}
}

// RealNameOf returns the member's latest identity submission, or ErrNotFound when they never
// submitted one.
func (db *Reader) RealNameOf(ctx context.Context, memberID string) (RealName, error) {
	var r realNameRow
	row := db.QueryRow(ctx, "SELECT "+realNameFields.List()+" FROM realname WHERE member_id = ?", memberID)
	if err := RowErr(realNameFields.Scan(row, &r), "realname of "+memberID); err != nil {
		return RealName{}, err
	}
	return r.realName(), nil
}

// RealNameQueue lists identity submissions with status (all when empty): pending ones oldest
// first, decided ones newest first.
func (db *Reader) RealNameQueue(ctx context.Context, status string, page, size int) ([]RealName, bool, error) {
	q, args, limit := QueueQuery(realNameFields.List(), "realname", status, events.RealNameStatusPending, page, size)
	var out []RealName
	err := db.Query(ctx, "realname queue", q, args, func(rows Rows) error {
		var r realNameRow
		if err := realNameFields.Scan(rows, &r); err != nil {
			return err
		}
		out = append(out, r.realName())
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return TrimPage(out, limit)
}

// RealNameStatuses returns the identity status of each member that ever submitted one.
func (db *Reader) RealNameStatuses(ctx context.Context, memberIDs []string) (map[string]string, error) {
	out := map[string]string{}
	if len(memberIDs) == 0 {
		return out, nil
	}
	args := make([]any, len(memberIDs))
	for i, id := range memberIDs {
		args[i] = id
	}
	err := db.Query(ctx, "realname statuses", "SELECT member_id, status FROM realname WHERE member_id IN ("+placeholders(len(args))+")",
		args, func(rows Rows) error {
			var id, st string
			if err := rows.Scan(&id, &st); err != nil {
				return err
			}
			out[id] = st
			return nil
		})
	return out, err
}

// CardsOf lists the member's bound cards, oldest first.
func (db *Reader) CardsOf(ctx context.Context, memberID string) ([]Card, error) {
	out := []Card{}
	err := db.Query(ctx, "cards", "SELECT "+cardFields.List()+" FROM bank_cards WHERE member_id = ? ORDER BY seq",
		[]any{memberID}, func(rows Rows) error {
			var r cardRow
			if err := cardFields.Scan(rows, &r); err != nil {
				return err
			}
			c := Card{CardID: r.cardID, MemberID: r.memberID, HolderName: r.holderName, BankName: r.bankName, Branch: r.branch,
				BankCode: r.bankCode, Last4: r.last4, IFSC: r.ifsc, UPI: r.upi, BoundAt: FromMicros(r.boundAt)}
			out = append(out, c)
			return nil
		})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (r *withdrawalRow) withdrawal() (Withdrawal, error) {
	amount, err := decimal.NewFromString(r.amount)
	if err != nil {
		return Withdrawal{}, fmt.Errorf("withdrawal %s amount: %w", r.orderNo, err)
	}
	return Withdrawal{OrderNo: r.orderNo, MemberID: r.memberID, Account: r.account, Currency: r.currency, Amount: amount,
		ChannelName: r.channelName, CardID: r.cardID, HolderName: r.holderName, BankName: r.bankName, Branch: r.branch,
		BankCode: r.bankCode, CardLast4: r.cardLast4, Status: r.status, Remark: r.remark, ReviewedBy: r.reviewedBy,
		CreatedAt: FromMicros(r.createdAt), UpdatedAt: FromMicros(r.updatedAt)}, nil
}

// WithdrawalQueue lists withdrawals with status (all when empty): pending ones oldest first,
// decided ones newest first.
func (db *Reader) WithdrawalQueue(ctx context.Context, status string, page, size int) ([]Withdrawal, bool, error) {
	q, args, limit := QueueQuery(withdrawalFields.List(), "withdrawals", status, events.ReviewPending, page, size)
	var out []Withdrawal
	err := db.Query(ctx, "withdrawal queue", q, args, func(rows Rows) error {
		var r withdrawalRow
		if err := withdrawalFields.Scan(rows, &r); err != nil {
			return err
		}
		w, err := r.withdrawal()
		if err != nil {
			return err
		}
		out = append(out, w)
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return TrimPage(out, limit)
}

// WithdrawalByOrderNo returns one withdrawal, or ErrNotFound.
func (db *Reader) WithdrawalByOrderNo(ctx context.Context, orderNo string) (Withdrawal, error) {
	var r withdrawalRow
	row := db.QueryRow(ctx, "SELECT "+withdrawalFields.List()+" FROM withdrawals WHERE order_no = ?", orderNo)
	if err := RowErr(withdrawalFields.Scan(row, &r), "withdrawal "+orderNo); err != nil {
		return Withdrawal{}, err
	}
	return r.withdrawal()
}

// CreditScoreOf returns the member's credit score, found false while no event changed it (the
// score is then the rule's start value, which the write side owns).
func (db *Reader) CreditScoreOf(ctx context.Context, memberID string) (score int, found bool, err error) {
	err = db.QueryRow(ctx, "SELECT score FROM credit_scores WHERE member_id = ?", memberID).Scan(&score)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("credit score of %s: %w", memberID, err)
	}
	return score, true, nil
}

// FundHistory lists a member's journal lines of type typ ("all" or a declared line type: see
// events.LineTypes), newest first; the lines of one event in the order it gave them (the two legs
// of an exchange source first, a fill's lines trade, fee, tax, ...).
func (db *Reader) FundHistory(ctx context.Context, memberID, typ string, page, size int) ([]FundLine, bool, error) {
	limit, offset := pageArgs(page, size)
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

// WithdrawalChannels lists every withdrawal channel (enabled or not) in the order they were first
// defined.
func (db *Reader) WithdrawalChannels(ctx context.Context) ([]Channel, error) {
	return db.ChannelList(ctx, "withdrawal channels", withdrawalChannelsTable)
}
