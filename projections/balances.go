package projections

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
)

// The balances projection sums the postings of every event that moves an asset: one row per
// member, account kind and asset (cash available and frozen per currency today; any kind a
// capability declares, shares included, without a change here) and one per house account and
// asset. events.ParseAccount reads the account names.

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
	Name:    "balances",
	Version: 2, // v2: a row per declared account kind and asset instead of currency columns
	Unit:    AccountUnit,
	Money:   true,
	Tables:  []*Table{balancesTable, houseBalancesTable},
	Wants: func(p events.Payload) bool {
		_, ok := p.(events.MovesMoney)
		return ok
	},
	Apply: applyBalances,
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

func applyBalances(ctx context.Context, w *Wtx, evs []Decoded) error {
	member, house := sums{}, sums{}
	members, accounts := map[string]struct{}{}, map[string]struct{}{}
	for _, d := range evs {
		ps := d.P.(events.MovesMoney).MoneyPostings()
		if err := events.CheckBalanced(ps); err != nil {
			return d.Fail(err)
		}
		for _, p := range ps {
			a, err := events.ParseAccount(p.Account)
			if err != nil {
				return d.Fail(err)
			}
			if a.Kind.Member {
				member.add([3]string{a.MemberID, a.Kind.Name, p.Asset()}, p.Amount, d.Ev.Position)
				members[a.MemberID] = struct{}{}
			} else {
				house.add([3]string{p.Account, p.Asset()}, p.Amount, d.Ev.Position)
				accounts[p.Account] = struct{}{}
			}
		}
	}
	if err := addStored(ctx, w, balancesTable, "member_id", members, member, 3); err != nil {
		return err
	}
	if err := addStored(ctx, w, houseBalancesTable, "account", accounts, house, 2); err != nil {
		return err
	}
	for _, u := range []struct {
		t    *Table
		s    sums
		keys int
	}{{balancesTable, member, 3}, {houseBalancesTable, house, 2}} {
		rows := make([][]any, 0, len(u.s))
		for k, r := range u.s {
			row := make([]any, 0, u.keys+2)
			for _, v := range k[:u.keys] {
				row = append(row, v)
			}
			rows = append(rows, append(row, r.amount.String(), r.position))
		}
		if err := w.Upsert(ctx, u.t, rows); err != nil {
			return err
		}
	}
	return nil
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
