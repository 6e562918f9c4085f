package projections

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/lotbook/lotbook/events"
)

// The review_queue projection is what ops staff review: deposits by status, with the member's
// login account (kept in review_accounts from MemberRegistered, so that this projection needs no
// other projector's tables) and the reviewer of each decision.

var depositReviewsTable = &Table{
	Name: "deposit_reviews",
	Cols: []Column{
		{"order_no", KindText}, {"member_id", KindText}, {"account", KindText}, {"currency", KindText}, {"amount", KindText},
		{"channel_id", KindText}, {"channel_name", KindText}, {"proof_file_id", KindText}, {"status", KindText},
		{"remark", KindText}, {"reviewed_by", KindText}, {"created_at", KindInt}, {"updated_at", KindInt},
		{"seq", KindInt}, {"position", KindInt},
	},
	Key:     []string{"order_no"},
	Indexes: []string{"status, seq"},
	Fixed: []string{"member_id", "account", "currency", "amount", "channel_id", "channel_name", "proof_file_id",
		"created_at", "seq"},
}

var reviewAccountsTable = &Table{
	Name: "review_accounts",
	Cols: []Column{{"member_id", KindText}, {"account", KindText}},
	Key:  []string{"member_id"},
}

var reviewQueueProjector = &Projector{
	Name:    "review_queue",
	Version: 1,
	Tables:  []*Table{depositReviewsTable, reviewAccountsTable},
	Wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.MemberRegistered, events.DepositRequested, events.DepositApproved, events.DepositRejected:
			return true
		}
		return false
	},
	Apply: applyReviewQueue,
}

type reviewRow struct {
	orderNo, memberID, account, currency, amount, channelID, channelName, proofFileID string
	status, remark, reviewedBy                                                        string
	createdAt, updatedAt, seq, position                                               int64
}

func (r *reviewRow) Args() []any {
	return []any{r.orderNo, r.memberID, r.account, r.currency, r.amount, r.channelID, r.channelName, r.proofFileID,
		r.status, r.remark, r.reviewedBy, r.createdAt, r.updatedAt, r.seq, r.position}
}

func (r *reviewRow) Scan(rows *sql.Rows) error {
	return rows.Scan(&r.orderNo, &r.memberID, &r.account, &r.currency, &r.amount, &r.channelID, &r.channelName, &r.proofFileID,
		&r.status, &r.remark, &r.reviewedBy, &r.createdAt, &r.updatedAt, &r.seq, &r.position)
}

func applyReviewQueue(ctx context.Context, w *Wtx, evs []Decoded) error {
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
			if member, err := MemberOf(d.Ev.Stream); err == nil {
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
	if err := w.SelectIn(ctx, reviewAccountsTable, "member_id", KeysOf(needAccount), func(rows *sql.Rows) error {
		var id, account string
		if err := rows.Scan(&id, &account); err != nil {
			return err
		}
		if _, ok := accounts[id]; !ok {
			accounts[id] = account
		}
		return nil
	}); err != nil {
		return err
	}
	if err := w.SelectIn(ctx, depositReviewsTable, "order_no", KeysOf(missing), func(rows *sql.Rows) error {
		r := &reviewRow{}
		if err := r.Scan(rows); err != nil {
			return err
		}
		touched[r.orderNo] = r
		return nil
	}); err != nil {
		return err
	}
	var accountRows [][]any
	for _, d := range evs {
		at := Micros(d.Ev.Metadata.ServerTime)
		switch e := d.P.(type) {
		case events.MemberRegistered:
			accountRows = append(accountRows, []any{e.MemberID, e.Account})
		case events.DepositRequested:
			member, err := MemberOf(d.Ev.Stream)
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
		rows = append(rows, r.Args())
	}
	return w.Upsert(ctx, depositReviewsTable, rows)
}

func decideReview(touched map[string]*reviewRow, d Decoded, orderNo, status, remark string, at int64) error {
	r := touched[orderNo]
	if r == nil {
		return d.Fail(fmt.Errorf("deposit %s decided but never requested", orderNo))
	}
	r.status, r.remark, r.reviewedBy, r.updatedAt, r.position = status, remark, d.Ev.Metadata.Actor, at, d.Ev.Position
	return nil
}
