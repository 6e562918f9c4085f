package favorites

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/lotbook/lotbook/commands/rules/watchlist"
	"github.com/lotbook/lotbook/projections"
)

// The watchlists projection is each member's watchlist groups: one row per member with the
// groups, their names and their symbols in order, folded by commands/rules/watchlist (the write
// side's own fold) from the favourites' events and the groups' events.

type bookRow struct {
	member, book string
	updated      int64
}

var bookFields = projections.RowMap[bookRow]{
	projections.Text("member_id", func(r *bookRow) *string { return &r.member }),
	projections.Text("book", func(r *bookRow) *string { return &r.book }),
	projections.Integer("position", func(r *bookRow) *int64 { return &r.updated }),
}

var watchlistsTable = &projections.Table{
	Name: "watchlists",
	Cols: bookFields.Columns(),
	Key:  []string{"member_id"},
}

var watchlistsProjector = &projections.Projector{
	Name:    "watchlists",
	Version: 1,
	// One row per member, from the member's own stream.
	Partitioned: true,
	Tables:      []*projections.Table{watchlistsTable},
	Wants:       watchlist.Wants,
	Apply:       applyWatchlists,
}

func init() { projections.Register(watchlistsProjector) }

func applyWatchlists(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	need := map[string]bool{}
	for _, d := range evs {
		member, err := projections.MemberOf(d.Ev.Stream)
		if err != nil {
			return d.Fail(err)
		}
		need[member] = true
	}
	books, rows := map[string]*watchlist.Book{}, map[string]*bookRow{}
	var decodeErr error
	err := bookFields.SelectIn(ctx, w, watchlistsTable, "member_id", projections.KeysOf(need), func(r *bookRow) {
		b := &watchlist.Book{}
		if err := json.Unmarshal([]byte(r.book), b); err != nil && decodeErr == nil {
			decodeErr = fmt.Errorf("watchlist of %s: %w", r.member, err)
		}
		books[r.member], rows[r.member] = b, r
	})
	if err != nil {
		return err
	}
	if decodeErr != nil {
		return decodeErr
	}
	for _, d := range evs {
		member, _ := projections.MemberOf(d.Ev.Stream)
		b := books[member]
		if b == nil {
			b = watchlist.New()
			books[member] = b
			rows[member] = &bookRow{member: member}
		}
		b.Apply(d.P)
		rows[member].updated = d.Ev.Position
	}
	args := make([][]any, 0, len(rows))
	for member, r := range rows {
		raw, err := json.Marshal(books[member])
		if err != nil {
			return fmt.Errorf("watchlist of %s: %w", member, err)
		}
		r.book = string(raw)
		args = append(args, bookFields.Args(r))
	}
	return w.Upsert(ctx, watchlistsTable, args)
}

// Watchlist is the member's watchlist groups (the default group alone, empty, for a member who
// never had one).
func Watchlist(ctx context.Context, db *projections.Reader, memberID string) (*watchlist.Book, error) {
	b := watchlist.New()
	var raw string
	err := db.Query(ctx, "watchlist", "SELECT book FROM watchlists WHERE member_id = ?", []any{memberID}, func(rows projections.Rows) error {
		return rows.Scan(&raw)
	})
	if err != nil || raw == "" {
		return b, err
	}
	got := &watchlist.Book{}
	if err := json.Unmarshal([]byte(raw), got); err != nil {
		return nil, fmt.Errorf("watchlist of %s: %w", memberID, err)
	}
	return got, nil
}
