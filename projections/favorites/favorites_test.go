package favorites

import (
	"context"
	"slices"
	"testing"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections/projtest"
)

// TestFavorites: the list keeps the order of adding, a removed and re-added symbol goes to the
// end, members see only their own, and the read model equals its replay after a rebuild.
func TestFavorites(t *testing.T) {
	projtest.Backends(t, func(t *testing.T, e *projtest.Env) {
		ctx := context.Background()
		a, b := e.Register("0912345678"), e.Register("0987654321")
		add := func(m string, ps ...events.Payload) { e.Add(events.MemberStream(m), "member:x", ps...) }
		add(a, events.FavoriteAdded{Symbol: "2330"}, events.FavoriteAdded{Symbol: "2317"})
		add(b, events.FavoriteAdded{Symbol: "0050"})
		add(a, events.FavoriteAdded{Symbol: "00679B"}, events.FavoriteRemoved{Symbol: "2330"})
		add(a, events.FavoriteAdded{Symbol: "2330"}, events.FavoriteRemoved{Symbol: "2317"}, events.FavoriteAdded{Symbol: "2317"},
			events.FavoriteRemoved{Symbol: "2317"})

		db, r := e.Start()
		r.WaitFor(t, e.Head())
		want := map[string][]string{a: {"00679B", "2330"}, b: {"0050"}, events.MemberID("0900000000"): nil}
		check := func() {
			t.Helper()
			for m, w := range want {
				got, err := List(ctx, db.Reader, m)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, w) {
					t.Fatalf("favorites of %s = %v, want %v", m, got, w)
				}
			}
		}
		check()
		projtest.NoDiffs(t, r.Runner)
		if err := r.Rebuild(ctx, "favorites", nil); err != nil {
			t.Fatal(err)
		}
		check()
		add(b, events.FavoriteRemoved{Symbol: "0050"})
		want[b] = nil
		r.WaitFor(t, e.Head())
		check()
		projtest.NoDiffs(t, r.Runner)
	})
}

// TestFavoritesOneByOne: the page fold agrees with applying every event in its own page.
func TestFavoritesOneByOne(t *testing.T) {
	e := projtest.SQLite(t)
	ctx := context.Background()
	m := e.Register("0912345678")
	for _, sym := range []string{"2330", "2317", "2330", "0050"} {
		e.Add(events.MemberStream(m), "member:x", events.FavoriteAdded{Symbol: sym})
		e.Add(events.MemberStream(m), "member:x", events.FavoriteRemoved{Symbol: "2317"})
	}
	e.Add(events.MemberStream(m), "member:x", events.FavoriteAdded{Symbol: "2317"})
	db := e.OneByOne(projector)
	got, err := List(ctx, db.Reader, m)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"2330", "0050", "2317"}) {
		t.Fatalf("favorites %v", got)
	}
}
