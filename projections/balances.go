package projections

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
)

// The balances projection sums the postings of every event that moves money: member cash
// (available and frozen per currency) and house account totals per currency.

var balancesTable = &table{
	name: "balances",
	cols: []column{{"member_id", kText}, {"currency", kText}, {"available", kText}, {"frozen", kText}, {"position", kInt}},
	key:  []string{"member_id", "currency"},
}

var houseBalancesTable = &table{
	name: "house_balances",
	cols: []column{{"account", kText}, {"currency", kText}, {"amount", kText}, {"position", kInt}},
	key:  []string{"account", "currency"},
}

var balancesProjector = &projector{
	name:    "balances",
	version: 1,
	unit:    accountUnit,
	money:   true,
	tables:  []*table{balancesTable, houseBalancesTable},
	wants: func(p events.Payload) bool {
		_, ok := p.(events.MovesMoney)
		return ok
	},
	apply: applyBalances,
}

type balanceKey struct{ member, currency string }

type balanceRow struct {
	available, frozen decimal.Decimal
	position          int64 // global position of the last event that changed the row
}

type houseKey struct{ account, currency string }

type houseRow struct {
	amount   decimal.Decimal
	position int64
}

// ledgerAccount splits a posting account into a member's available/frozen cash or a house
// account. Any other shape is an error: the projection stalls rather than lose money.
func ledgerAccount(account string) (member string, frozen, house bool, err error) {
	if rest, ok := strings.CutPrefix(account, "member:"); ok {
		switch {
		case strings.HasSuffix(rest, ":available") && len(rest) > len(":available"):
			return strings.TrimSuffix(rest, ":available"), false, false, nil
		case strings.HasSuffix(rest, ":frozen") && len(rest) > len(":frozen"):
			return strings.TrimSuffix(rest, ":frozen"), true, false, nil
		}
		return "", false, false, fmt.Errorf("unknown member account %q", account)
	}
	if strings.HasPrefix(account, "house:") && len(account) > len("house:") {
		return "", false, true, nil
	}
	return "", false, false, fmt.Errorf("unknown ledger account %q", account)
}

func applyBalances(ctx context.Context, w *wtx, evs []decoded) error {
	deltas := map[balanceKey]*balanceRow{}
	house := map[houseKey]*houseRow{}
	members := map[string]struct{}{}
	for _, d := range evs {
		ps := d.p.(events.MovesMoney).MoneyPostings()
		if err := events.CheckBalanced(ps); err != nil {
			return d.fail(err)
		}
		for _, p := range ps {
			member, frozen, isHouse, err := ledgerAccount(p.Account)
			if err != nil {
				return d.fail(err)
			}
			if isHouse {
				k := houseKey{p.Account, p.Currency}
				h := house[k]
				if h == nil {
					h = &houseRow{}
					house[k] = h
				}
				h.amount = h.amount.Add(p.Amount)
				h.position = d.ev.Position
				continue
			}
			k := balanceKey{member, p.Currency}
			b := deltas[k]
			if b == nil {
				b = &balanceRow{}
				deltas[k] = b
				members[member] = struct{}{}
			}
			if frozen {
				b.frozen = b.frozen.Add(p.Amount)
			} else {
				b.available = b.available.Add(p.Amount)
			}
			b.position = d.ev.Position
		}
	}
	if err := w.selectIn(ctx, balancesTable, "member_id", keysOf(members), func(rows *sql.Rows) error {
		var k balanceKey
		var avail, frozen string
		var pos int64
		if err := rows.Scan(&k.member, &k.currency, &avail, &frozen, &pos); err != nil {
			return err
		}
		b := deltas[k]
		if b == nil {
			return nil // another currency of a touched member
		}
		a, err := decimal.NewFromString(avail)
		if err != nil {
			return fmt.Errorf("balance of %s %s: %w", k.member, k.currency, err)
		}
		f, err := decimal.NewFromString(frozen)
		if err != nil {
			return fmt.Errorf("balance of %s %s: %w", k.member, k.currency, err)
		}
		b.available, b.frozen = b.available.Add(a), b.frozen.Add(f)
		return nil
	}); err != nil {
		return err
	}
	rows := make([][]any, 0, len(deltas))
	for k, b := range deltas {
		rows = append(rows, []any{k.member, k.currency, b.available.String(), b.frozen.String(), b.position})
	}
	if err := w.upsert(ctx, balancesTable, rows); err != nil {
		return err
	}
	if len(house) == 0 {
		return nil
	}
	accounts := map[string]struct{}{}
	for k := range house {
		accounts[k.account] = struct{}{}
	}
	if err := w.selectIn(ctx, houseBalancesTable, "account", keysOf(accounts), func(rows *sql.Rows) error {
		var k houseKey
		var amount string
		var pos int64
		if err := rows.Scan(&k.account, &k.currency, &amount, &pos); err != nil {
			return err
		}
		h := house[k]
		if h == nil {
			return nil
		}
		a, err := decimal.NewFromString(amount)
		if err != nil {
			return fmt.Errorf("house balance %s %s: %w", k.account, k.currency, err)
		}
		h.amount = h.amount.Add(a)
		return nil
	}); err != nil {
		return err
	}
	hrows := make([][]any, 0, len(house))
	for k, h := range house {
		hrows = append(hrows, []any{k.account, k.currency, h.amount.String(), h.position})
	}
	return w.upsert(ctx, houseBalancesTable, hrows)
}
