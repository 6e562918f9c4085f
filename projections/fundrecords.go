package projections

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/lotbook/lotbook/events"
)

// The fund_records projection is a member's money history: one row per order or money movement
// (deposits now; withdrawals, fees, taxes and trades add rows of their own type), with its
// currency, amount, status and remark. seq, the global position of the event that created the
// row, orders the history without relying on clocks.

// Record types, as the API filters them.
const (
	RecordDeposit  = "deposit"
	RecordWithdraw = "withdraw"
)

var fundRecordsTable = &table{
	name: "fund_records",
	cols: []column{
		{"record_id", kText}, {"member_id", kText}, {"type", kText}, {"order_no", kText},
		{"currency", kText}, {"amount", kText}, {"status", kText}, {"remark", kText},
		{"channel_id", kText}, {"channel_name", kText}, {"proof_file_id", kText},
		{"created_at", kInt}, {"updated_at", kInt}, {"seq", kInt}, {"position", kInt},
	},
	key:     []string{"record_id"},
	indexes: []string{"member_id, seq", "member_id, type, seq"},
	fixed: []string{"member_id", "type", "order_no", "currency", "amount", "channel_id", "channel_name",
		"proof_file_id", "created_at", "seq"},
}

var fundRecordsProjector = &projector{
	name:    "fund_records",
	version: 1,
	money:   true,
	tables:  []*table{fundRecordsTable},
	wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.DepositRequested, events.DepositApproved, events.DepositRejected:
			return true
		}
		return false
	},
	apply: applyFundRecords,
}

// fundRow is one fund_records row in column order.
type fundRow struct {
	recordID, memberID, typ, orderNo, currency, amount, status, remark string
	channelID, channelName, proofFileID                                string
	createdAt, updatedAt, seq, position                                int64
}

func (r *fundRow) args() []any {
	return []any{r.recordID, r.memberID, r.typ, r.orderNo, r.currency, r.amount, r.status, r.remark,
		r.channelID, r.channelName, r.proofFileID, r.createdAt, r.updatedAt, r.seq, r.position}
}

func (r *fundRow) scan(rows *sql.Rows) error {
	return rows.Scan(&r.recordID, &r.memberID, &r.typ, &r.orderNo, &r.currency, &r.amount, &r.status, &r.remark,
		&r.channelID, &r.channelName, &r.proofFileID, &r.createdAt, &r.updatedAt, &r.seq, &r.position)
}

func applyFundRecords(ctx context.Context, w *wtx, evs []decoded) error {
	touched := map[string]*fundRow{}
	// Rows that already exist are loaded first, all at once, for the decisions on them.
	missing := map[string]struct{}{}
	for _, d := range evs {
		switch e := d.p.(type) {
		case events.DepositRequested:
			touched[e.OrderNo] = nil
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
	if err := w.selectIn(ctx, fundRecordsTable, "record_id", keysOf(missing), func(rows *sql.Rows) error {
		r := &fundRow{}
		if err := r.scan(rows); err != nil {
			return err
		}
		touched[r.recordID] = r
		return nil
	}); err != nil {
		return err
	}
	for _, d := range evs {
		at := micros(d.ev.Metadata.ServerTime)
		switch e := d.p.(type) {
		case events.DepositRequested:
			member, err := memberOf(d.ev.Stream)
			if err != nil {
				return d.fail(err)
			}
			if touched[e.OrderNo] != nil {
				return d.fail(fmt.Errorf("deposit %s requested twice", e.OrderNo))
			}
			touched[e.OrderNo] = &fundRow{recordID: e.OrderNo, memberID: member, typ: RecordDeposit, orderNo: e.OrderNo,
				currency: e.Currency, amount: e.Amount.String(), status: events.ReviewPending,
				channelID: e.ChannelID, channelName: e.ChannelName, proofFileID: e.ProofFileID,
				createdAt: at, updatedAt: at, seq: d.ev.Position, position: d.ev.Position}
		case events.DepositApproved:
			r := touched[e.OrderNo]
			if r == nil {
				return d.fail(fmt.Errorf("deposit %s approved but never requested", e.OrderNo))
			}
			r.status, r.remark, r.updatedAt, r.position = events.ReviewApproved, e.Remark, at, d.ev.Position
		case events.DepositRejected:
			r := touched[e.OrderNo]
			if r == nil {
				return d.fail(fmt.Errorf("deposit %s rejected but never requested", e.OrderNo))
			}
			r.status, r.remark, r.updatedAt, r.position = events.ReviewRejected, e.Remark, at, d.ev.Position
		}
	}
	rows := make([][]any, 0, len(touched))
	for _, r := range touched {
		rows = append(rows, r.args())
	}
	return w.upsert(ctx, fundRecordsTable, rows)
}
