package projections

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/lotbook/lotbook/events"
)

// The journal projection is every member's money history in one table: one row per line an
// event declares (events.Journaled), with its type, asset, amount, the account it moves, order
// number, instrument, status, remark and the capability's own labels (details, JSON). Fund
// records read it alone; a capability's lines appear there as soon as its events declare them.
// seq, the position of the event that created a line, and leg, the line's index in that event,
// order the history without relying on clocks.

var journalFields = RowMap[journalRow]{
	Text("member_id", func(r *journalRow) *string { return &r.memberID }),
	Text("line_id", func(r *journalRow) *string { return &r.lineID }),
	Text("type", func(r *journalRow) *string { return &r.typ }),
	Text("order_no", func(r *journalRow) *string { return &r.orderNo }),
	Text("asset", func(r *journalRow) *string { return &r.asset }),
	Text("amount", func(r *journalRow) *string { return &r.amount }),
	Text("account", func(r *journalRow) *string { return &r.account }),
	Text("status", func(r *journalRow) *string { return &r.status }),
	Text("remark", func(r *journalRow) *string { return &r.remark }),
	Text("instrument", func(r *journalRow) *string { return &r.instrument }),
	Text("details", func(r *journalRow) *string { return &r.details }),
	Integer("created_at", func(r *journalRow) *int64 { return &r.createdAt }),
	Integer("updated_at", func(r *journalRow) *int64 { return &r.updatedAt }),
	Integer("seq", func(r *journalRow) *int64 { return &r.seq }),
	Integer("leg", func(r *journalRow) *int64 { return &r.leg }),
	Integer("position", func(r *journalRow) *int64 { return &r.position }),
}

type journalRow struct {
	memberID, lineID, typ, orderNo, asset, amount, account, status, remark, instrument, details string
	createdAt, updatedAt, seq, leg, position                                                    int64
}

var journalTable = &Table{
	Name:    "journal",
	Cols:    journalFields.Columns(),
	Key:     []string{"member_id", "line_id"},
	Indexes: []string{"member_id, seq", "member_id, type, seq"},
	Fixed:   []string{"member_id", "type", "order_no", "asset", "amount", "account", "instrument", "details", "created_at", "seq", "leg"},
}

// journalOrdersTable keeps the label of every order number an OrderLabeler opened, for the
// lines of that order that later events add.
var journalOrdersTable = &Table{
	Name: "journal_orders",
	Cols: journalOrderFields.Columns(),
	Key:  []string{"member_id", "order_no"},
}

// Partitioned: every row is keyed by the member of the stream whose events write it.
var journalProjector = &Projector{
	Name:        "journal",
	Version:     2, // v2: a fill's trade line names its side and shares
	Unit:        AccountUnit,
	Money:       true,
	Partitioned: true,
	Tables:      []*Table{journalTable, journalOrdersTable},
	Wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.Journaled, events.OrderLabeler:
			return true
		}
		return false
	},
	Apply: applyJournal,
}

// Registered here rather than in projector.go's list, which other read models extend at the
// same time; Names reports it after them.
func init() { Register(journalProjector) }

type orderLabel struct {
	instrument, label string
	position          int64
}

// journalOrderRow is a row of journal_orders: the label of one member's order.
type journalOrderRow struct {
	member, orderNo string
	orderLabel
}

var journalOrderFields = RowMap[journalOrderRow]{
	Text("member_id", func(r *journalOrderRow) *string { return &r.member }),
	Text("order_no", func(r *journalOrderRow) *string { return &r.orderNo }),
	Text("instrument", func(r *journalOrderRow) *string { return &r.instrument }),
	Text("label", func(r *journalOrderRow) *string { return &r.label }),
	Integer("position", func(r *journalOrderRow) *int64 { return &r.position }),
}

// journalPage is the rows a page touches, loaded before the page is applied.
type journalPage struct {
	lines  map[[2]string]*journalRow // (member, line id) -> row
	orders map[[2]string]*orderLabel // (member, order no) -> label
	fresh  map[[2]string]*orderLabel // labels this page opened, to store
}

func applyJournal(ctx context.Context, w *Wtx, evs []Decoded) error {
	pg := &journalPage{lines: map[[2]string]*journalRow{}, orders: map[[2]string]*orderLabel{}, fresh: map[[2]string]*orderLabel{}}
	// Rows that earlier pages wrote and this page changes or labels from, loaded all at once by
	// their whole key: lines and labels an earlier event of the page adds are not read.
	keys, orderNos := map[[2]string]bool{}, map[[2]string]bool{}
	lines := make([][]events.JournalLine, len(evs)) // each event's lines, built once
	for i, d := range evs {
		member, _ := MemberOf(d.Ev.Stream) // "": apply fails the event
		if o, ok := d.P.(events.OrderLabeler); ok {
			orderNo, _, _ := o.OrderLabel()
			if k := [2]string{member, orderNo}; !orderNos[k] {
				orderNos[k] = false // an earlier line of the page may still need the stored label
			}
		}
		j, ok := d.P.(events.Journaled)
		if !ok {
			continue
		}
		lines[i] = j.JournalLines()
		for _, l := range lines[i] {
			if k := [2]string{member, l.Key}; l.Type == "" {
				if _, added := keys[k]; !added {
					keys[k] = true
				}
			} else if l.Key != "" {
				if _, seen := keys[k]; !seen {
					keys[k] = false
				}
			}
			if k := [2]string{member, l.OrderNo}; l.OrderNo != "" && l.Instrument == "" {
				if _, opened := orderNos[k]; !opened {
					orderNos[k] = true
				}
			}
		}
	}
	err := w.Together(ctx, func() error {
		if err := journalFields.SelectKeys(ctx, w, journalTable, needed(keys), func(r *journalRow) { pg.lines[[2]string{r.memberID, r.lineID}] = r }); err != nil {
			return err
		}
		return journalOrderFields.SelectKeys(ctx, w, journalOrdersTable, needed(orderNos), func(r *journalOrderRow) { pg.orders[[2]string{r.member, r.orderNo}] = &r.orderLabel })
	})
	if err != nil {
		return err
	}
	touched := map[[2]string]*journalRow{}
	for i, d := range evs {
		if err := pg.apply(d, lines[i], touched); err != nil {
			return err
		}
	}
	rows := make([][]any, 0, len(touched))
	for _, r := range touched {
		rows = append(rows, journalFields.Args(r))
	}
	if err := w.Upsert(ctx, journalTable, rows); err != nil {
		return err
	}
	orders := make([][]any, 0, len(pg.fresh))
	for k, l := range pg.fresh {
		orders = append(orders, journalOrderFields.Args(&journalOrderRow{member: k[0], orderNo: k[1], orderLabel: *l}))
	}
	return w.Upsert(ctx, journalOrdersTable, orders)
}

// needed is the keys (member, key) marked true: those to read.
func needed(keys map[[2]string]bool) [][]any {
	out := make([][]any, 0, len(keys))
	for k, need := range keys {
		if need {
			out = append(out, []any{k[0], k[1]})
		}
	}
	return out
}

// apply adds the lines of one event (and the label of an order it opens) to the page.
func (pg *journalPage) apply(d Decoded, lines []events.JournalLine, touched map[[2]string]*journalRow) error {
	member, err := MemberOf(d.Ev.Stream)
	if err != nil {
		return d.Fail(err)
	}
	if o, ok := d.P.(events.OrderLabeler); ok {
		orderNo, instrument, label := o.OrderLabel()
		k := [2]string{member, orderNo}
		pg.orders[k] = &orderLabel{instrument: instrument, label: label, position: d.Ev.Position}
		pg.fresh[k] = pg.orders[k]
	}
	at, pos := Micros(d.Ev.Metadata.ServerTime), d.Ev.Position
	for leg, l := range lines {
		if l.Type == "" { // a decision on a line an earlier event added
			k := [2]string{member, l.Key}
			r := pg.lines[k]
			if r == nil {
				return d.Fail(fmt.Errorf("journal line %s changed but never added", l.Key))
			}
			r.status, r.remark, r.updatedAt, r.position = l.Status, l.Remark, at, pos
			touched[k] = r
			continue
		}
		// A line no event changes later is "@<seq>/<leg>"; order numbers never start with "@".
		id := "@" + strconv.FormatInt(pos, 10) + "/" + strconv.Itoa(leg)
		if l.Key != "" {
			id = l.Key
		}
		k := [2]string{member, id}
		if pg.lines[k] != nil {
			return d.Fail(fmt.Errorf("journal line %s added twice", id))
		}
		if o := pg.orders[[2]string{member, l.OrderNo}]; o != nil && l.Instrument == "" {
			l.Instrument = o.instrument
			if l.Remark == "" {
				l.Remark = o.label
			}
		}
		details := ""
		if len(l.Details) > 0 {
			raw, err := json.Marshal(l.Details) // map keys are sorted: the same line always encodes the same
			if err != nil {
				return d.Fail(fmt.Errorf("journal details: %w", err))
			}
			details = string(raw)
		}
		r := &journalRow{memberID: member, lineID: id, typ: l.Type, orderNo: l.OrderNo, asset: l.Asset,
			amount: l.Amount.String(), account: l.Account, status: l.Status, remark: l.Remark, instrument: l.Instrument,
			details: details, createdAt: at, updatedAt: at, seq: pos, leg: int64(leg), position: pos}
		pg.lines[k] = r
		touched[k] = r
	}
	return nil
}
