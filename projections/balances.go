package projections

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
)

// The balances projection sums the postings of every event that moves an asset: one row per
// member, account kind and asset (cash available and frozen per currency today; any kind a
// capability declares, shares included, without a change here). events.ParseAccount reads the
// account names. The house accounts' totals are a read model of their own (house_balances):
// every member's events change them, so they run whole on partition 0, while a member's rows
// change only by the member's own streams (events.CheckOwnPostings) and are split with them.

var balancesTable = &Table{
	Name: "balances",
	Cols: []Column{{"member_id", KindText}, {"kind", KindText}, {"asset", KindText}, {"amount", KindText}, {"position", KindInt}},
	Key:  []string{"member_id", "kind", "asset"},
}

var houseBalancesTable = &Table{
	Name: "house_balances",
	Cols: []Column{{"account", KindText}, {"asset", KindText}, {"amount", KindText}, {"position", KindInt}},
	Key:  []string{"account", "asset"},
}

var balancesProjector = &Projector{
	Name:        "balances",
	Version:     3, // v3: the house accounts moved to house_balances
	Unit:        AccountUnit,
	Money:       true,
	Partitioned: true,
	Tables:      []*Table{balancesTable},
	Wants:       movesMoney,
	Apply:       func(ctx context.Context, w *Wtx, evs []Decoded) error { return applyBalances(ctx, w, evs, true) },
}

// houseBalancesProjector stays in the account unit: on partition 0 (and with one instance) the
// house totals move in one transaction with the members' rows there, as they did in balances.
var houseBalancesProjector = &Projector{
	Name:    "house_balances",
	Version: 1,
	Unit:    AccountUnit,
	Money:   true,
	Tables:  []*Table{houseBalancesTable},
	Wants:   movesMoney,
	Apply:   func(ctx context.Context, w *Wtx, evs []Decoded) error { return applyBalances(ctx, w, evs, false) },
}

func movesMoney(p events.Payload) bool {
	_, ok := p.(events.MovesMoney)
	return ok
}

// sumRow is the running total of one balance row.
type sumRow struct {
	amount   decimal.Decimal
	position int64 // global position of the last event that changed the row
}

// sums are the deltas of a batch per row key, then the totals once the stored rows are added.
type sums map[[3]string]*sumRow

func (s sums) add(k [3]string, amount decimal.Decimal, position int64) {
	r := s[k]
	if r == nil {
		r = &sumRow{}
		s[k] = r
	}
	r.amount, r.position = r.amount.Add(amount), position
}

// applyBalances adds the postings of evs to the members' rows (member) or the house accounts'.
// An event that is unbalanced, or that moves a member's account from a stream not the member's,
// fails: the split over partitions counts on the second.
func applyBalances(ctx context.Context, w *Wtx, evs []Decoded, member bool) error {
	t, keyCol, n := houseBalancesTable, "account", 2
	if member {
		t, keyCol, n = balancesTable, "member_id", 3
	}
	s, keys := sums{}, map[string]struct{}{}
	for _, d := range evs {
		ps := d.P.(events.MovesMoney).MoneyPostings()
		if err := events.CheckPostings(d.Ev.Stream, ps); err != nil {
			return d.Fail(err)
		}
		for _, p := range ps {
			a, err := events.ParseAccount(p.Account)
			if err != nil {
				return d.Fail(err)
			}
			switch {
			case a.Kind.Member != member:
			case member:
				s.add([3]string{a.MemberID, a.Kind.Name, p.Asset()}, p.Amount, d.Ev.Position)
				keys[a.MemberID] = struct{}{}
			default:
				s.add([3]string{p.Account, p.Asset()}, p.Amount, d.Ev.Position)
				keys[p.Account] = struct{}{}
			}
		}
	}
	if err := addStored(ctx, w, t, keyCol, keys, s, n); err != nil {
		return err
	}
	rows := make([][]any, 0, len(s))
	for k, r := range s {
		row := make([]any, 0, n+2)
		for _, v := range k[:n] {
			row = append(row, v)
		}
		rows = append(rows, append(row, r.amount.String(), r.position))
	}
	return w.Upsert(ctx, t, rows)
}

// addStored adds the stored amounts of the rows a batch touched (selected by col in keys) to
// their deltas; t's first n columns are the row key, then amount and position.
func addStored(ctx context.Context, w *Wtx, t *Table, col string, keys map[string]struct{}, s sums, n int) error {
	if len(keys) == 0 {
		return nil
	}
	return w.SelectIn(ctx, t, col, KeysOf(keys), func(rows Rows) error {
		var k [3]string
		var amount string
		var pos int64
		dest := make([]any, 0, n+2)
		for i := range n {
			dest = append(dest, &k[i])
		}
		if err := rows.Scan(append(dest, &amount, &pos)...); err != nil {
			return err
		}
		r := s[k]
		if r == nil {
			return nil // a row of a touched member or account that this batch did not move
		}
		a, err := decimal.NewFromString(amount)
		if err != nil {
			return fmt.Errorf("%s %v: %w", t.Name, k[:n], err)
		}
		r.amount = r.amount.Add(a)
		return nil
	})
}
