package projections

import (
	"context"
	"slices"
	"testing"

	"github.com/lotbook/lotbook/events"
)

// TestFavorites: the list keeps the order of adding, a removed and re-added symbol goes to the
// end, members see only their own, and the read model equals its replay after a rebuild.
func TestFavorites(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		a, b := e.register("0912345678"), e.register("0987654321")
		add := func(m string, ps ...events.Payload) { e.add(events.MemberStream(m), "member:x", ps...) }
		add(a, events.FavoriteAdded{Symbol: "2330"}, events.FavoriteAdded{Symbol: "2317"})
		add(b, events.FavoriteAdded{Symbol: "0050"})
		add(a, events.FavoriteAdded{Symbol: "00679B"}, events.FavoriteRemoved{Symbol: "2330"})
		add(a, events.FavoriteAdded{Symbol: "2330"}, events.FavoriteRemoved{Symbol: "2317"}, events.FavoriteAdded{Symbol: "2317"},
			events.FavoriteRemoved{Symbol: "2317"})

		db := e.open()
		r := e.run(db, nil)
		r.waitFor(t, e.head())
		want := map[string][]string{a: {"00679B", "2330"}, b: {"0050"}, events.MemberID("0900000000"): nil}
		check := func() {
			t.Helper()
			for m, w := range want {
				got, err := db.Favorites(ctx, m)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, w) {
					t.Fatalf("favorites of %s = %v, want %v", m, got, w)
				}
			}
		}
		check()
		noDiffs(t, r.Runner)
		if err := r.Rebuild(ctx, "favorites", nil); err != nil {
			t.Fatal(err)
		}
		check()
		add(b, events.FavoriteRemoved{Symbol: "0050"})
		want[b] = nil
		r.waitFor(t, e.head())
		check()
		noDiffs(t, r.Runner)
	})
}

// TestFavoritesOneByOne: the page fold agrees with applying every event in its own page.
func TestFavoritesOneByOne(t *testing.T) {
	e := sqliteEnv(t)
	ctx := context.Background()
	m := e.register("0912345678")
	for _, sym := range []string{"2330", "2317", "2330", "0050"} {
		e.add(events.MemberStream(m), "member:x", events.FavoriteAdded{Symbol: sym})
		e.add(events.MemberStream(m), "member:x", events.FavoriteRemoved{Symbol: "2317"})
	}
	e.add(events.MemberStream(m), "member:x", events.FavoriteAdded{Symbol: "2317"})
	log, err := e.store.ReadAll(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	db := e.open()
	for i := range log {
		if err := db.writeTx(ctx, func(w *Wtx) error {
			_, err := favoritesProjector.applyPage(ctx, w, favoritesProjector.Name, wrap(log[i:i+1]))
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.Favorites(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"2330", "0050", "2317"}) {
		t.Fatalf("favorites %v", got)
	}
	diffs, err := NewRunner(db, e.store, nil, nil).Compare(ctx, "favorites")
	if err != nil || len(diffs) > 0 {
		t.Fatalf("Compare: %v %v", diffs, err)
	}
}
