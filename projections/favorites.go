package projections

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/lotbook/lotbook/events"
)

// The favorites projection is each member's watch list: one row per (member, symbol) with the
// global position of the FavoriteAdded that put it there, which orders the list as added.

var favoritesTable = &table{
	name:    "favorites",
	cols:    []column{{"member_id", kText}, {"symbol", kText}, {"position", kInt}},
	key:     []string{"member_id", "symbol"},
	indexes: []string{"member_id, position"},
}

var favoritesProjector = &projector{
	name:    "favorites",
	version: 1,
	tables:  []*table{favoritesTable},
	wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.FavoriteAdded, events.FavoriteRemoved:
			return true
		}
		return false
	},
	apply: applyFavorites,
}

type favoriteKey struct{ member, symbol string }

// applyFavorites folds the page per (member, symbol): the last event wins, an add keeping its
// own position, so that a page applied at once and the same events applied one by one agree.
func applyFavorites(ctx context.Context, w *wtx, evs []decoded) error {
	added := map[favoriteKey]int64{}
	removed := map[favoriteKey]bool{}
	for _, d := range evs {
		member, err := memberOf(d.ev.Stream)
		if err != nil {
			return d.fail(err)
		}
		switch e := d.p.(type) {
		case events.FavoriteAdded:
			k := favoriteKey{member, e.Symbol}
			added[k] = d.ev.Position
			delete(removed, k)
		case events.FavoriteRemoved:
			k := favoriteKey{member, e.Symbol}
			removed[k] = true
			delete(added, k)
		}
	}
	rows := make([][]any, 0, len(added))
	for k, pos := range added {
		rows = append(rows, []any{k.member, k.symbol, pos})
	}
	if err := w.upsert(ctx, favoritesTable, rows); err != nil {
		return err
	}
	keys := make([]favoriteKey, 0, len(removed))
	for k := range removed {
		keys = append(keys, k)
	}
	return deleteFavorites(ctx, w, keys)
}

// deleteFavorites deletes rows by their two-column key with row values (both databases have them).
func deleteFavorites(ctx context.Context, w *wtx, keys []favoriteKey) error {
	const per = maxParams / 2
	for start := 0; start < len(keys); start += per {
		chunk := keys[start:min(len(keys), start+per)]
		args := make([]any, 0, 2*len(chunk))
		for _, k := range chunk {
			args = append(args, k.member, k.symbol)
		}
		tuples := strings.TrimSuffix(strings.Repeat("(?,?),", len(chunk)), ",")
		q := fmt.Sprintf("DELETE FROM %s WHERE (member_id, symbol) IN (%s)", w.t(favoritesTable), tuples)
		if err := w.exec(ctx, q, args...); err != nil {
			return fmt.Errorf("delete favorites: %w", err)
		}
	}
	return nil
}

// Favorites lists a member's favourite symbols in the order they were added.
func (db *Reader) Favorites(ctx context.Context, memberID string) ([]string, error) {
	var out []string
	err := db.query(ctx, "favorites", "SELECT symbol FROM favorites WHERE member_id = ? ORDER BY position",
		[]any{memberID}, func(rows *sql.Rows) error {
			var s string
			if err := rows.Scan(&s); err != nil {
				return err
			}
			out = append(out, s)
			return nil
		})
	return out, err
}
