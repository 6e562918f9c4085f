// Package reviews is the deposit review queue that ops staff work through.
package reviews

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// The review_queue projection is what ops staff review: deposits by status, with the member's
// login account (kept in review_accounts from MemberRegistered, so that this projection needs no
// other projector's tables) and the reviewer of each decision.

type reviewRow struct {
	orderNo, memberID, account, currency, amount, channelID, channelName, proofFileID string
	status, remark, reviewedBy                                                        string
	createdAt, updatedAt, seq, position                                               int64
}

var reviewFields = projections.RowMap[reviewRow]{
	projections.Text("order_no", func(r *reviewRow) *string { return &r.orderNo }),
	projections.Text("member_id", func(r *reviewRow) *string { return &r.memberID }),
	projections.Text("account", func(r *reviewRow) *string { return &r.account }),
	projections.Text("currency", func(r *reviewRow) *string { return &r.currency }),
	projections.Text("amount", func(r *reviewRow) *string { return &r.amount }),
	projections.Text("channel_id", func(r *reviewRow) *string { return &r.channelID }),
	projections.Text("channel_name", func(r *reviewRow) *string { return &r.channelName }),
	projections.Text("proof_file_id", func(r *reviewRow) *string { return &r.proofFileID }),
	projections.Text("status", func(r *reviewRow) *string { return &r.status }),
	projections.Text("remark", func(r *reviewRow) *string { return &r.remark }),
	projections.Text("reviewed_by", func(r *reviewRow) *string { return &r.reviewedBy }),
	projections.Integer("created_at", func(r *reviewRow) *int64 { return &r.createdAt }),
	projections.Integer("updated_at", func(r *reviewRow) *int64 { return &r.updatedAt }),
	projections.Integer("seq", func(r *reviewRow) *int64 { return &r.seq }),
	projections.Integer("position", func(r *reviewRow) *int64 { return &r.position }),
}

var depositReviewsTable = &projections.Table{
	Name:    "deposit_reviews",
	Cols:    reviewFields.Columns(),
	Key:     []string{"order_no"},
	Indexes: []string{"status, seq"},
	Fixed: []string{"member_id", "account", "currency", "amount", "channel_id", "channel_name", "proof_file_id",
		"created_at", "seq"},
}

var reviewAccountsTable = projections.MemberAccountsTable("review_accounts")

var projector = &projections.Projector{
	Name:    "review_queue",
	Version: 1,
	Tables:  []*projections.Table{depositReviewsTable, reviewAccountsTable},
	Wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.MemberRegistered, events.DepositRequested, events.DepositApproved, events.DepositRejected:
			return true
		}
		return false
	},
	Apply: applyReviewQueue,
}

func init() { projections.Register(projector) }

func applyReviewQueue(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	accounts := map[string]string{}      // member id -> account, registered in this page
	needAccount := map[string]struct{}{} // members whose account is looked up
	touched := map[string]*reviewRow{}   // order no -> row
	missing := map[string]struct{}{}     // orders decided in this page, requested before it
	for _, d := range evs {
		switch e := d.P.(type) {
		case events.MemberRegistered:
			accounts[e.MemberID] = e.Account
		case events.DepositRequested:
			touched[e.OrderNo] = nil
			if member, err := projections.MemberOf(d.Ev.Stream); err == nil {
				if _, ok := accounts[member]; !ok {
					needAccount[member] = struct{}{}
				}
			}
		case events.DepositApproved:
			if _, seen := touched[e.OrderNo]; !seen {
				missing[e.OrderNo] = struct{}{}
			}
		case events.DepositRejected:
			if _, seen := touched[e.OrderNo]; !seen {
				missing[e.OrderNo] = struct{}{}
			}
		}
	}
	if err := projections.MemberAccountFields.SelectIn(ctx, w, reviewAccountsTable, "member_id", projections.KeysOf(needAccount), func(a *projections.MemberAccount) {
		if _, ok := accounts[a.MemberID]; !ok {
			accounts[a.MemberID] = a.Account
		}
	}); err != nil {
		return err
	}
	if err := reviewFields.SelectIn(ctx, w, depositReviewsTable, "order_no", projections.KeysOf(missing), func(r *reviewRow) { touched[r.orderNo] = r }); err != nil {
		return err
	}
	var accountRows [][]any
	for _, d := range evs {
		at := projections.Micros(d.Ev.Metadata.ServerTime)
		switch e := d.P.(type) {
		case events.MemberRegistered:
			accountRows = append(accountRows, projections.MemberAccountFields.Args(&projections.MemberAccount{MemberID: e.MemberID, Account: e.Account}))
		case events.DepositRequested:
			member, err := projections.MemberOf(d.Ev.Stream)
			if err != nil {
				return d.Fail(err)
			}
			if touched[e.OrderNo] != nil {
				return d.Fail(fmt.Errorf("deposit %s requested twice", e.OrderNo))
			}
			touched[e.OrderNo] = &reviewRow{orderNo: e.OrderNo, memberID: member, account: accounts[member],
				currency: e.Currency, amount: e.Amount.String(), channelID: e.ChannelID, channelName: e.ChannelName,
				proofFileID: e.ProofFileID, status: events.ReviewPending, createdAt: at, updatedAt: at,
				seq: d.Ev.Position, position: d.Ev.Position}
		case events.DepositApproved:
			if err := decideReview(touched, d, e.OrderNo, events.ReviewApproved, e.Remark, at); err != nil {
				return err
			}
		case events.DepositRejected:
			if err := decideReview(touched, d, e.OrderNo, events.ReviewRejected, e.Remark, at); err != nil {
				return err
			}
		}
	}
	if err := w.Upsert(ctx, reviewAccountsTable, accountRows); err != nil {
		return err
	}
	rows := make([][]any, 0, len(touched))
	for _, r := range touched {
		rows = append(rows, reviewFields.Args(r))
	}
	return w.Upsert(ctx, depositReviewsTable, rows)
}

func decideReview(touched map[string]*reviewRow, d projections.Decoded, orderNo, status, remark string, at int64) error {
	r := touched[orderNo]
	if r == nil {
		return d.Fail(fmt.Errorf("deposit %s decided but never requested", orderNo))
	}
	r.status, r.remark, r.reviewedBy, r.updatedAt, r.position = status, remark, d.Ev.Metadata.Actor, at, d.Ev.Position
	return nil
}

// Deposit is a deposit in the ops review queue.
type Deposit struct {
	OrderNo, MemberID, Account, Currency string
	Amount                               decimal.Decimal
	ChannelID, ChannelName, ProofFileID  string
	Status, Remark                       string
	ReviewedBy                           string // actor of the decision, empty while pending
	CreatedAt, UpdatedAt                 time.Time
}

func (r *reviewRow) deposit() (Deposit, error) {
	amount, err := decimal.NewFromString(r.amount)
	if err != nil {
		return Deposit{}, fmt.Errorf("deposit %s amount: %w", r.orderNo, err)
	}
	return Deposit{OrderNo: r.orderNo, MemberID: r.memberID, Account: r.account, Currency: r.currency, Amount: amount,
		ChannelID: r.channelID, ChannelName: r.channelName, ProofFileID: r.proofFileID, Status: r.status, Remark: r.remark,
		ReviewedBy: r.reviewedBy, CreatedAt: projections.FromMicros(r.createdAt), UpdatedAt: projections.FromMicros(r.updatedAt)}, nil
}

// Queue lists deposits with status (pending, approved, rejected; all when empty). Pending
// deposits come oldest first (the order to review them in), decided ones newest first.
func Queue(ctx context.Context, db *projections.Reader, status string, page, size int) ([]Deposit, bool, error) {
	q, args, limit := projections.QueueQuery(reviewFields.List(), "deposit_reviews", status, events.ReviewPending, page, size)
	var out []Deposit
	err := db.Query(ctx, "deposit queue", q, args, projections.Collect(&out, reviewFields, (*reviewRow).deposit))
	if err != nil {
		return nil, false, err
	}
	return projections.TrimPage(out, limit)
}

// ByOrderNo returns one deposit of the review queue, or ErrNotFound.
func ByOrderNo(ctx context.Context, db *projections.Reader, orderNo string) (Deposit, error) {
	var r reviewRow
	row := db.QueryRow(ctx, "SELECT "+reviewFields.List()+" FROM deposit_reviews WHERE order_no = ?", orderNo)
	if err := projections.RowErr(reviewFields.Scan(row, &r), "deposit "+orderNo); err != nil {
		return Deposit{}, err
	}
	return r.deposit()
}
