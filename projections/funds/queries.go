package funds

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
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

func (r *realNameRow) realName() RealName {
	return RealName{MemberID: r.memberID, Account: r.account, SubmissionID: r.submissionID, Name: r.name, IDCipher: r.idCipher,
		IDMasked: r.idMasked, FrontFileID: r.front, BackFileID: r.back, Status: r.status, Remark: r.remark,
		ReviewedBy: r.reviewedBy, SubmittedAt: projections.FromMicros(r.submittedAt), UpdatedAt: projections.FromMicros(r.updatedAt)}
}

// RealNameOf returns the member's latest identity submission, or projections.ErrNotFound when they never
// submitted one.
func RealNameOf(ctx context.Context, db *projections.Reader, memberID string) (RealName, error) {
	var r realNameRow
	row := db.QueryRow(ctx, "SELECT "+realNameFields.List()+" FROM realname WHERE member_id = ?", memberID)
	if err := projections.RowErr(realNameFields.Scan(row, &r), "realname of "+memberID); err != nil {
		return RealName{}, err
	}
	return r.realName(), nil
}

// VerifiedAccountByIDHash is the login account of the member whose verified identity rests on
// the ID number with this keyed hash, or projections.ErrNotFound when none does (never
// submitted, pending, rejected).
func VerifiedAccountByIDHash(ctx context.Context, db *projections.Reader, hash string) (string, error) {
	var account string
	row := db.QueryRow(ctx, "SELECT account FROM realname WHERE id_hash = ? AND status = ? ORDER BY position DESC LIMIT 1", hash, events.RealNameStatusVerified)
	if err := projections.RowErr(row.Scan(&account), "verified identity"); err != nil {
		return "", err
	}
	return account, nil
}

// RealNameQueue lists identity submissions with status (all when empty): pending ones oldest
// first, decided ones newest first.
func RealNameQueue(ctx context.Context, db *projections.Reader, status string, page, size int) ([]RealName, bool, error) {
	q, args, limit := projections.QueueQuery(realNameFields.List(), "realname", status, events.RealNameStatusPending, page, size)
	var out []RealName
	err := db.Query(ctx, "realname queue", q, args, projections.Collect(&out, realNameFields, func(r *realNameRow) (RealName, error) {
		return r.realName(), nil
	}))
	if err != nil {
		return nil, false, err
	}
	return projections.TrimPage(out, limit)
}

// RealNameStatuses returns the identity status of each member that ever submitted one.
func RealNameStatuses(ctx context.Context, db *projections.Reader, memberIDs []string) (map[string]string, error) {
	out := map[string]string{}
	if len(memberIDs) == 0 {
		return out, nil
	}
	args := make([]any, len(memberIDs))
	for i, id := range memberIDs {
		args[i] = id
	}
	err := db.Query(ctx, "realname statuses", "SELECT member_id, status FROM realname WHERE member_id IN ("+projections.Placeholders(len(args))+")",
		args, func(rows projections.Rows) error {
			var id, st string
			if err := rows.Scan(&id, &st); err != nil {
				return err
			}
			out[id] = st
			return nil
		})
	return out, err
}

// maxNamed bounds the members a real-name search returns (the console pages what it finds).
const maxNamed = 200

// VerifiedNamed are the members whose verified real name contains q (none when q is empty).
func VerifiedNamed(ctx context.Context, db *projections.Reader, q string) ([]string, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, nil
	}
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	var out []string
	err := db.Query(ctx, "verified names", `SELECT member_id FROM realname WHERE status = ? AND name LIKE ? ESCAPE '\' ORDER BY seq DESC LIMIT ?`,
		[]any{events.RealNameStatusVerified, "%" + r.Replace(q) + "%", maxNamed}, func(rows projections.Rows) error {
			var id string
			if err := rows.Scan(&id); err != nil {
				return err
			}
			out = append(out, id)
			return nil
		})
	return out, err
}

// CardsOf lists the member's bound cards, oldest first.
func CardsOf(ctx context.Context, db *projections.Reader, memberID string) ([]Card, error) {
	out := []Card{}
	err := db.Query(ctx, "cards", "SELECT "+cardFields.List()+" FROM bank_cards WHERE member_id = ? ORDER BY seq",
		[]any{memberID}, projections.Collect(&out, cardFields, func(r *cardRow) (Card, error) {
			return Card{CardID: r.cardID, MemberID: r.memberID, HolderName: r.holderName, BankName: r.bankName, Branch: r.branch,
				BankCode: r.bankCode, Last4: r.last4, IFSC: r.ifsc, UPI: r.upi, BoundAt: projections.FromMicros(r.boundAt)}, nil
		}))
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
		CreatedAt: projections.FromMicros(r.createdAt), UpdatedAt: projections.FromMicros(r.updatedAt)}, nil
}

// WithdrawalQueue lists withdrawals with status (all when empty): pending ones oldest first,
// decided ones newest first.
func WithdrawalQueue(ctx context.Context, db *projections.Reader, status string, page, size int) ([]Withdrawal, bool, error) {
	q, args, limit := projections.QueueQuery(withdrawalFields.List(), "withdrawals", status, events.ReviewPending, page, size)
	var out []Withdrawal
	err := db.Query(ctx, "withdrawal queue", q, args, projections.Collect(&out, withdrawalFields, (*withdrawalRow).withdrawal))
	if err != nil {
		return nil, false, err
	}
	return projections.TrimPage(out, limit)
}

// WithdrawalByOrderNo returns one withdrawal, or projections.ErrNotFound.
func WithdrawalByOrderNo(ctx context.Context, db *projections.Reader, orderNo string) (Withdrawal, error) {
	var r withdrawalRow
	row := db.QueryRow(ctx, "SELECT "+withdrawalFields.List()+" FROM withdrawals WHERE order_no = ?", orderNo)
	if err := projections.RowErr(withdrawalFields.Scan(row, &r), "withdrawal "+orderNo); err != nil {
		return Withdrawal{}, err
	}
	return r.withdrawal()
}

// CreditScoreOf returns the member's credit score, found false while no event changed it (the
// score is then the rule's start value, which the write side owns).
func CreditScoreOf(ctx context.Context, db *projections.Reader, memberID string) (score int, found bool, err error) {
	err = projections.RowErr(db.QueryRow(ctx, "SELECT score FROM credit_scores WHERE member_id = ?", memberID).Scan(&score),
		"credit score of "+memberID)
	if errors.Is(err, projections.ErrNotFound) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return score, true, nil
}

// WithdrawalChannels lists every withdrawal channel (enabled or not) in the order they were first
// defined.
func WithdrawalChannels(ctx context.Context, db *projections.Reader) ([]projections.Channel, error) {
	return db.ChannelList(ctx, "withdrawal channels", withdrawalChannelsTable)
}

// Identity is who a member is to ops: the login account (the phone number) and the name of the
// member's latest identity submission ("" before any).
type Identity struct{ Account, Name string }

// Identities returns the identity of each of memberIDs that is registered: what the ops lists of
// entries (the lottery's, the auction's, the placement's applications) show beside each number.
func Identities(ctx context.Context, db *projections.Reader, memberIDs []string) (map[string]Identity, error) {
	out := map[string]Identity{}
	ids := slices.Compact(slices.Sorted(slices.Values(memberIDs)))
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	err := db.Query(ctx, "member identities", `SELECT m.member_id, m.account, COALESCE(r.name, '') FROM members m
		LEFT JOIN realname r ON r.member_id = m.member_id WHERE m.member_id IN (`+projections.Placeholders(len(args))+")",
		args, func(rows projections.Rows) error {
			var id string
			var who Identity
			if err := rows.Scan(&id, &who.Account, &who.Name); err != nil {
				return err
			}
			out[id] = who
			return nil
		})
	return out, err
}
