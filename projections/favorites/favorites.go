// Package favorites is the favorites capability's read model: each member's watch list.
package favorites

import (
	"context"
	"fmt"
	"strings"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// The favorites projection is each member's watch list: one row per (member, symbol) with the
// global position of the FavoriteAdded that put it there, which orders the list as added.

type row struct {
	member, symbol string
	position       int64
}

var rowMap = projections.RowMap[row]{
	projections.Text("member_id", func(r *row) *string { return &r.member }),
	projections.Text("symbol", func(r *row) *string { return &r.symbol }),
	projections.Integer("position", func(r *row) *int64 { return &r.position }),
}

var favoritesTable = &projections.Table{
	Name:    "favorites",
	Cols:    rowMap.Columns(),
	Key:     []string{"member_id", "symbol"},
	Indexes: []string{"member_id, position"},
}

var projector = &projections.Projector{
	Name:    "favorites",
	Version: 1,
	// Rows of the member of the event's stream only.
	Partitioned: true,
	Tables:      []*projections.Table{favoritesTable},
	Wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.FavoriteAdded, events.FavoriteRemoved:
			return true
		}
		return false
	},
	Apply: applyFavorites,
}

func init() { projections.Register(projector) }

type favoriteKey struct{ member, symbol string }

// applyFavorites folds the page per (member, symbol): the last event wins, an add keeping its
// own position, so that a page applied at once and the same events applied one by one agree.
func applyFavorites(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	added := map[favoriteKey]int64{}
	removed := map[favoriteKey]bool{}
	for _, d := range evs {
		member, err := projections.MemberOf(d.Ev.Stream)
		if err != nil {
			return d.Fail(err)
		}
		switch e := d.P.(type) {
		case events.FavoriteAdded:
			k := favoriteKey{member, e.Symbol}
			added[k] = d.Ev.Position
			delete(removed, k)
		case events.FavoriteRemoved:
			k := favoriteKey{member, e.Symbol}
			removed[k] = true
			delete(added, k)
		}
	}
	rows := make([][]any, 0, len(added))
	for k, pos := range added {
		rows = append(rows, rowMap.Args(&row{member: k.member, symbol: k.symbol, position: pos}))
	}
	if err := w.Upsert(ctx, favoritesTable, rows); err != nil {
		return err
	}
	keys := make([]favoriteKey, 0, len(removed))
	for k := range removed {
		keys = append(keys, k)
	}
	return deleteFavorites(ctx, w, keys)
}

// deleteFavorites deletes rows by their two-column key with row values (both databases have them).
func deleteFavorites(ctx context.Context, w *projections.Wtx, keys []favoriteKey) error {
	const per = projections.MaxParams / 2
	for start := 0; start < len(keys); start += per {
		chunk := keys[start:min(len(keys), start+per)]
		args := make([]any, 0, 2*len(chunk))
		for _, k := range chunk {
			args = append(args, k.member, k.symbol)
		}
		tuples := strings.TrimSuffix(strings.Repeat("(?,?),", len(chunk)), ",")
		q := fmt.Sprintf("DELETE FROM %s WHERE (member_id, symbol) IN (%s)", w.T(favoritesTable), tuples)
		if err := w.Exec(ctx, q, args...); err != nil {
			return fmt.Errorf("delete favorites: %w", err)
		}
	}
	return nil
}

// List lists a member's favourite symbols in the order they were added.
func List(ctx context.Context, db *projections.Reader, memberID string) ([]string, error) {
	var out []string
	err := db.Query(ctx, "favorites", "SELECT symbol FROM favorites WHERE member_id = ? ORDER BY position",
		[]any{memberID}, func(rows projections.Rows) error {
			var s string
			if err := rows.Scan(&s); err != nil {
				return err
			}
			out = append(out, s)
			return nil
		})
	return out, err
}
