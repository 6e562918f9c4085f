package audit

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
)

// BalanceReader is the balances read model as the API serves it (projections.ReadDB).
type BalanceReader interface {
	MemberBalances(ctx context.Context, memberID string) (map[string]map[string]decimal.Decimal, error)
	HouseBalances(ctx context.Context) (map[string]map[string]decimal.Decimal, error)
}

// Option adds a check to Verify.
type Option func(*options)

type options struct {
	balances BalanceReader
	shares   ShareReader
}

// WithBalances also checks, independently of the projector's own replay (Compare), that every
// balance the read model serves equals audit's sum of the postings: each member account of every
// declared kind and each house account, per asset.
func WithBalances(db BalanceReader) Option { return func(o *options) { o.balances = db } }

// waiter is implemented by projections.Runner: the balance check waits until the read models
// reached the replayed head.
type waiter interface {
	WaitFor(ctx context.Context, position int64) error
}

// waitReadModels returns when the read models reached head, when rm can tell.
func waitReadModels(ctx context.Context, rm ReadModels, head int64) error {
	w, ok := rm.(waiter)
	if !ok {
		return nil
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := w.WaitFor(wctx, head); err != nil {
		return fmt.Errorf("audit: read models did not reach position %d: %w", head, err)
	}
	return nil
}

// compareBalances compares the read model with the ledger replayed up to rep.Head. Accounts that
// events after rep.Head touched (writes that went on during the check) are left out, so that
// Verify may run against a live system.
func compareBalances(ctx context.Context, rep *Report, store events.Store, rm ReadModels, db BalanceReader, led *ledger) error {
	if err := waitReadModels(ctx, rm, rep.Head); err != nil {
		return err
	}
	type key struct{ account, currency string }
	var diffs []key
	detail := map[key]string{}
	note := func(k key, read, replay decimal.Decimal) {
		if !read.Equal(replay) {
			diffs = append(diffs, k)
			detail[k] = fmt.Sprintf("%s %s: read model %s, postings sum %s", k.account, k.currency, read, replay)
		}
	}

	// read holds every balance the read model serves for the members and house accounts the
	// ledger knows, plus the house accounts the read model knows: both sides are compared per
	// account and asset, whatever kinds capabilities declared.
	read := map[string]map[string]decimal.Decimal{}
	members := map[string]bool{}
	for account := range led.sums {
		if id, ok := memberAccount(account); ok {
			members[id] = true
		}
	}
	for _, id := range slices.Sorted(maps.Keys(members)) {
		rows, err := db.MemberBalances(ctx, id)
		if err != nil {
			return fmt.Errorf("audit: balances of %s: %w", id, err)
		}
		maps.Copy(read, rows)
	}
	houseRows, err := db.HouseBalances(ctx)
	if err != nil {
		return fmt.Errorf("audit: house balances: %w", err)
	}
	maps.Copy(read, houseRows)
	accounts := map[string]bool{}
	for a := range read {
		accounts[a] = true
	}
	for a := range led.sums {
		accounts[a] = true
	}
	for a := range accounts {
		assets := map[string]bool{}
		for c := range read[a] {
			assets[c] = true
		}
		for c := range led.sums[a] {
			assets[c] = true
		}
		for c := range assets {
			note(key{a, c}, read[a][c], led.sums[a][c])
		}
	}
	if len(diffs) == 0 {
		return nil
	}

	touched, err := touchedAfter(ctx, store, rep.Head)
	if err != nil {
		return err
	}
	slices.SortFunc(diffs, func(a, b key) int { return strings.Compare(a.account+a.currency, b.account+b.currency) })
	for _, k := range diffs {
		if touched[k.account] {
			rep.Unchecked++
			continue
		}
		rep.add(Finding{Kind: KindBalanceView, Detail: detail[k]})
	}
	return nil
}

// touchedAfter lists the ledger accounts that events after position move.
func touchedAfter(ctx context.Context, store events.Store, after int64) (map[string]bool, error) {
	touched := map[string]bool{}
	for {
		page, err := store.ReadAll(ctx, after, pageSize)
		if err != nil {
			return nil, fmt.Errorf("audit: read all after %d: %w", after, err)
		}
		if len(page) == 0 {
			return touched, nil
		}
		for _, ev := range page {
			p, err := events.DecodeRecorded(ev)
			if err != nil {
				continue // reported by the replay of the next Verify
			}
			if m, ok := p.(events.MovesMoney); ok {
				for _, ps := range m.MoneyPostings() {
					touched[ps.Account] = true
				}
			}
		}
		after = page[len(page)-1].Position
	}
}
