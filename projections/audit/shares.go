package audit

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
)

// ShareReader is the trading read model's positions (projections/trading.Holdings provides it).
type ShareReader interface {
	// HeldShares calls each for every position of the member, with the shares it holds now.
	HeldShares(ctx context.Context, memberID string, each func(positionID, symbol, direction string, shares int64)) error
}

// WithShares also checks that each member's share accounts, summed from the postings, hold what
// the trading read model's positions hold per security: long shares in shares, short shares as
// the negative balance of shares_borrowed. Positions with a v1 fill never posted their shares and
// are left out.
func WithShares(db ShareReader) Option { return func(o *options) { o.shares = db } }

// compareShares compares the share accounts replayed up to rep.Head with the positions. Accounts
// that events after rep.Head moved are left out, as in compareBalances.
func compareShares(ctx context.Context, rep *Report, store events.Store, rm ReadModels, db ShareReader, led *ledger) error {
	if err := waitReadModels(ctx, rm, rep.Head); err != nil {
		return err
	}
	members := map[string]bool{}
	for account := range led.sums {
		if id, ok := memberAccount(account); ok {
			members[id] = true
		}
	}
	type key struct{ account, security string }
	var diffs []key
	detail := map[key]string{}
	for _, id := range slices.Sorted(maps.Keys(members)) {
		held := map[key]int64{}
		err := db.HeldShares(ctx, id, func(positionID, symbol, direction string, shares int64) {
			if led.unposted[positionID] || shares == 0 {
				return
			}
			k := key{events.MemberAccount(id, events.KindShares), events.Security(events.MarketTW, symbol)}
			if direction == events.DirectionShort {
				k.account, shares = events.MemberAccount(id, events.KindSharesBorrowed), -shares
			}
			held[k] += shares
		})
		if err != nil {
			return fmt.Errorf("audit: positions of %s: %w", id, err)
		}
		keys := map[key]bool{}
		for k := range held {
			keys[k] = true
		}
		for _, kind := range []events.AccountKind{events.KindShares, events.KindSharesBorrowed} {
			account := events.MemberAccount(id, kind)
			for sec := range led.sums[account] {
				keys[key{account, sec}] = true
			}
		}
		for k := range keys {
			posted := led.sums[k.account][k.security]
			if !posted.Equal(decimal.NewFromInt(held[k])) {
				diffs = append(diffs, k)
				detail[k] = fmt.Sprintf("%s %s: postings sum %s, positions hold %d", k.account, k.security, posted, held[k])
			}
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	touched, err := touchedAfter(ctx, store, rep.Head)
	if err != nil {
		return err
	}
	slices.SortFunc(diffs, func(a, b key) int {
		if a.account != b.account {
			return strings.Compare(a.account, b.account)
		}
		return strings.Compare(a.security, b.security)
	})
	for _, k := range diffs {
		if touched[k.account] {
			rep.Unchecked++
			continue
		}
		rep.add(Finding{Kind: KindShares, Detail: detail[k]})
	}
	return nil
}
