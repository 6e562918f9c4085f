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

// directory holds the depositors' login accounts.
var directory = projections.AccountsDirectory("review")

var reviews = &projections.Keyed[reviewRow]{Table: depositReviewsTable, Fields: reviewFields,
	Key: func(r *reviewRow) string { return r.orderNo }, What: "deposit"}

var projector = &projections.Projector{
	Name:    "review_queue",
	Version: 1,
	Tables:  append([]*projections.Table{depositReviewsTable}, directory.Tables()...),
	Wants:   directory.Wanting(events.DepositRequested{}, events.DepositApproved{}, events.DepositRejected{}),
	Apply:   applyReviewQueue,
}

func init() { projections.Register(projector) }

func applyReviewQueue(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	rows := reviews.Page(evs)
	requested := map[string]bool{} // orders requested in this page: their decisions read nothing
	for _, d := range evs {
		switch e := d.P.(type) {
		case events.DepositRequested:
			requested[e.OrderNo] = true
		case events.DepositApproved:
			if !requested[e.OrderNo] {
				rows.Need(e.OrderNo)
			}
		case events.DepositRejected:
			if !requested[e.OrderNo] {
				rows.Need(e.OrderNo)
			}
		}
	}
	// The accounts and the reviews the page decides are read together (FoldPage's load then
	// finds nothing more to read).
	var accounts map[string]string
	err := w.Together(ctx, func() error {
		var err error
		if accounts, err = directory.Apply(ctx, w, evs, isRequest); err != nil {
			return err
		}
		return rows.Load(ctx, w)
	})
	if err != nil {
		return err
	}
	return projections.FoldPage(ctx, w, evs, func(d projections.Decoded) error {
		at := projections.Micros(d.Ev.Metadata.ServerTime)
		switch e := d.P.(type) {
		case events.DepositRequested:
			member, err := projections.MemberOf(d.Ev.Stream)
			if err != nil {
				return d.Fail(err)
			}
			if rows.Row(e.OrderNo) != nil {
				return d.Fail(fmt.Errorf("deposit %s requested twice", e.OrderNo))
			}
			rows.Put(&reviewRow{orderNo: e.OrderNo, memberID: member, account: accounts[member],
				currency: e.Currency, amount: e.Amount.String(), channelID: e.ChannelID, channelName: e.ChannelName,
				proofFileID: e.ProofFileID, status: events.ReviewPending, createdAt: at, updatedAt: at,
				seq: d.Ev.Position, position: d.Ev.Position})
		case events.DepositApproved:
			return decideReview(rows, d, e.OrderNo, events.ReviewApproved, e.Remark, at)
		case events.DepositRejected:
			return decideReview(rows, d, e.OrderNo, events.ReviewRejected, e.Remark, at)
		}
		return nil
	}, rows)
}

func isRequest(p events.Payload) bool {
	_, ok := p.(events.DepositRequested)
	return ok
}

func decideReview(rows *projections.PageRows[reviewRow], d projections.Decoded, orderNo, status, remark string, at int64) error {
	r, err := rows.Changed(d, orderNo)
	if err != nil {
		return err
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
	return projections.QueryPage(ctx, db, "deposit queue", q, args, limit, projections.Scanner(reviewFields, (*reviewRow).deposit))
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
