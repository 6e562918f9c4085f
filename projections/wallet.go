package projections

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
)

// The wallet projection reads every member posting to cash for two questions the balances
// table cannot answer:
//
//   - why cash is frozen: one hold per (member, ref, currency), its amount the sum of the
//     postings to the member's frozen account of the events about that ref. The ref and the
//     reason come from the event: events.Holder when it says (a trading reservation), else its
//     first journal line (its order number or key, its line type; a later line that only decides
//     an earlier one keeps the reason the hold was opened with). A hold that reaches zero is gone.
//   - how much cash the member had at the start of a month (the monthly statement): the net
//     change of available plus frozen per Taipei calendar month.
//
// Both are sums of postings, so the holds of a member add up to their frozen balance and the
// months to their cash, whatever capability moved it.

// Taipei is the zone of statement months (Asia/Taipei has no daylight saving time).
var Taipei = time.FixedZone("Asia/Taipei", 8*60*60)

type holdRow struct {
	holdID, memberID, ref, asset, reason, amount string
	since, position                              int64
}

var holdFields = RowMap[holdRow]{
	Text("hold_id", func(r *holdRow) *string { return &r.holdID }),
	Text("member_id", func(r *holdRow) *string { return &r.memberID }),
	Text("ref", func(r *holdRow) *string { return &r.ref }),
	Text("asset", func(r *holdRow) *string { return &r.asset }),
	Text("reason", func(r *holdRow) *string { return &r.reason }),
	Text("amount", func(r *holdRow) *string { return &r.amount }),
	Integer("since", func(r *holdRow) *int64 { return &r.since }),
	Integer("position", func(r *holdRow) *int64 { return &r.position }),
}

var walletHoldsTable = &Table{
	Name:    "wallet_holds",
	Cols:    holdFields.Columns(),
	Key:     []string{"hold_id"},
	Indexes: []string{"member_id, since"},
}

type cashMonthRow struct {
	memberID, asset, month, amount string
	position                       int64
}

var cashMonthFields = RowMap[cashMonthRow]{
	Text("member_id", func(r *cashMonthRow) *string { return &r.memberID }),
	Text("asset", func(r *cashMonthRow) *string { return &r.asset }),
	Text("month", func(r *cashMonthRow) *string { return &r.month }),
	Text("amount", func(r *cashMonthRow) *string { return &r.amount }),
	Integer("position", func(r *cashMonthRow) *int64 { return &r.position }),
}

var cashMonthsTable = &Table{
	Name: "wallet_cash_months",
	Cols: cashMonthFields.Columns(),
	Key:  []string{"member_id", "asset", "month"},
}

// Partitioned: its rows are a member's, keyed by the member of the postings, which is the
// member of the event's stream (events.CheckOwnPostings).
var walletProjector = &Projector{
	Name:        "wallet",
	Version:     1,
	Unit:        AccountUnit,
	Money:       true,
	Partitioned: true,
	Tables:      []*Table{walletHoldsTable, cashMonthsTable},
	Wants:       movesMoney,
	Apply:       applyWallet,
}

func init() { Register(walletProjector) }

// holdOf names the hold an event's frozen postings belong to: its ref and, when it opens the
// hold, its reason.
func holdOf(p events.Payload) (ref, reason string) {
	if h, ok := p.(events.Holder); ok {
		return h.HoldRef()
	}
	if j, ok := p.(events.Journaled); ok {
		for _, l := range j.JournalLines() {
			switch {
			case l.Type == "" && l.Key != "":
				return l.Key, ""
			case l.OrderNo != "":
				return l.OrderNo, l.Type
			case l.Key != "":
				return l.Key, l.Type
			}
		}
	}
	return "", ""
}

func holdID(member, ref, asset string) string { return member + "|" + ref + "|" + asset }

// StatementMonth is the Taipei calendar month of t, "2006-01".
func StatementMonth(t time.Time) string { return t.In(Taipei).Format("2006-01") }

func applyWallet(ctx context.Context, w *Wtx, evs []Decoded) error {
	holds := map[string]*holdRow{}
	deltas := map[string]decimal.Decimal{} // hold id -> this page's change
	months := sums{}
	members := map[string]struct{}{}
	for _, d := range evs {
		ps := d.P.(events.MovesMoney).MoneyPostings()
		if err := events.CheckOwnPostings(d.Ev.Stream, ps); err != nil {
			return d.Fail(err) // the split over partitions counts on it
		}
		for _, p := range ps {
			a, err := events.ParseAccount(p.Account)
			if err != nil {
				return d.Fail(err)
			}
			if !a.Kind.Member || p.Security != "" || (a.Kind.Name != events.KindAvailable.Name && a.Kind.Name != events.KindFrozen.Name) {
				continue
			}
			members[a.MemberID] = struct{}{}
			months.add([3]string{a.MemberID, p.Currency, StatementMonth(d.Ev.Metadata.ServerTime)}, p.Amount, d.Ev.Position)
			if a.Kind.Name != events.KindFrozen.Name {
				continue
			}
			ref, reason := holdOf(d.P)
			id := holdID(a.MemberID, ref, p.Currency)
			if holds[id] == nil {
				holds[id] = &holdRow{holdID: id, memberID: a.MemberID, ref: ref, asset: p.Currency, reason: reason,
					since: Micros(d.Ev.Metadata.ServerTime)}
			}
			deltas[id] = deltas[id].Add(p.Amount)
			holds[id].position = d.Ev.Position
		}
	}
	if len(members) == 0 {
		return nil
	}
	// The holds stored by earlier pages keep their reason and start; the months add to their
	// stored sums.
	err := w.Together(ctx, func() error {
		if err := holdFields.SelectIn(ctx, w, walletHoldsTable, "hold_id", KeysOf(holds), func(r *holdRow) {
			h := holds[r.holdID]
			a, err := decimal.NewFromString(r.amount)
			if err == nil {
				deltas[r.holdID] = deltas[r.holdID].Add(a)
			}
			h.reason, h.since = r.reason, r.since
		}); err != nil {
			return err
		}
		return addStored(ctx, w, cashMonthsTable, "member_id", members, months, 3)
	})
	if err != nil {
		return err
	}
	var rows [][]any
	var gone []any
	for id, h := range holds {
		if deltas[id].IsZero() {
			gone = append(gone, id)
			continue
		}
		h.amount = deltas[id].String()
		rows = append(rows, holdFields.Args(h))
	}
	if err := w.DeleteIn(ctx, walletHoldsTable, "hold_id", gone); err != nil {
		return err
	}
	if err := w.Upsert(ctx, walletHoldsTable, rows); err != nil {
		return err
	}
	out := make([][]any, 0, len(months))
	for k, r := range months {
		out = append(out, []any{k[0], k[1], k[2], r.amount.String(), r.position})
	}
	return w.Upsert(ctx, cashMonthsTable, out)
}

// Hold is cash of one currency frozen for one reason: Ref is the order or application it is
// for, Reason the journal line type of that order's lines (events.LineTypes; "" when the event
// named none).
type Hold struct {
	Ref, Currency, Reason string
	Amount                decimal.Decimal
	Since                 time.Time
}

// Holds lists a member's frozen cash by reason, oldest first.
func (db *Reader) Holds(ctx context.Context, memberID string) ([]Hold, error) {
	var out []Hold
	err := db.Query(ctx, "wallet holds", "SELECT "+holdFields.List()+" FROM wallet_holds WHERE member_id = ? ORDER BY since, hold_id",
		[]any{memberID}, Collect(&out, holdFields, func(r *holdRow) (Hold, error) {
			a, err := decimal.NewFromString(r.amount)
			if err != nil {
				return Hold{}, fmt.Errorf("hold %s amount: %w", r.holdID, err)
			}
			return Hold{Ref: r.ref, Currency: r.asset, Reason: r.reason, Amount: a, Since: FromMicros(r.since)}, nil
		}))
	return out, err
}

// CashBefore is a member's cash (available plus frozen) per currency before the Taipei month
// ("2006-01"), and its net change within that month.
func (db *Reader) CashBefore(ctx context.Context, memberID, month string) (before, within map[string]decimal.Decimal, err error) {
	before, within = map[string]decimal.Decimal{}, map[string]decimal.Decimal{}
	err = db.Query(ctx, "cash months", "SELECT "+cashMonthFields.List()+" FROM wallet_cash_months WHERE member_id = ? AND month <= ?",
		[]any{memberID, month}, Collect(new([]struct{}), cashMonthFields, func(r *cashMonthRow) (struct{}, error) {
			a, err := decimal.NewFromString(r.amount)
			if err != nil {
				return struct{}{}, fmt.Errorf("cash month %s %s: %w", r.month, r.asset, err)
			}
			if r.month == month {
				within[r.asset] = within[r.asset].Add(a)
			} else {
				before[r.asset] = before[r.asset].Add(a)
			}
			return struct{}{}, nil
		}))
	return before, within, err
}
