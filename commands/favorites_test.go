package commands

import (
	"errors"
	"testing"

	"github.com/lotbook/lotbook/events"
)

func TestValidSymbol(t *testing.T) {
	for _, tc := range []struct {
		sym  string
		want bool
	}{
		{"2330", true}, {"00679B", true}, {"TAIEX", true},
		{"", false}, {"2330 ", false}, {"00679b", false}, {"23-30", false}, {"1234567890123", false}, {"台積電", false},
	} {
		if got := validSymbol(tc.sym); got != tc.want {
			t.Errorf("validSymbol(%q) = %v, want %v", tc.sym, got, tc.want)
		}
	}
}

func TestDecideFavorite(t *testing.T) {
	member := func(favs ...string) *memberState {
		m := &memberState{registered: true}
		for _, f := range favs {
			m.applyFavorite(events.FavoriteAdded{Symbol: f})
		}
		return m
	}
	for _, tc := range []struct {
		name string
		m    *memberState
		sym  string
		on   bool
		want []events.Payload
		key  string
	}{
		{"add", member(), "2330", true, []events.Payload{events.FavoriteAdded{Symbol: "2330"}}, ""},
		{"add again changes nothing", member("2330"), "2330", true, nil, ""},
		{"remove", member("2317", "2330"), "2330", false, []events.Payload{events.FavoriteRemoved{Symbol: "2330"}}, ""},
		{"remove absent changes nothing", member("2317"), "2330", false, nil, ""},
		{"no member", &memberState{}, "2330", true, nil, KeyAccountNotExist},
		{"disabled", func() *memberState { m := member(); m.flags = map[string]bool{events.FlagDisabled: true}; return m }(), "2330", true, nil, KeyAccountDisabled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decideFavorite(tc.m, tc.sym, tc.on)
			if tc.key != "" {
				var ce *Error
				if !errors.As(err, &ce) || ce.Key != tc.key {
					t.Fatalf("err %v, want %s", err, tc.key)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) || (len(got) == 1 && got[0] != tc.want[0]) {
				t.Fatalf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestApplyFavoriteKeepsOrder(t *testing.T) {
	m := &memberState{}
	for _, p := range []events.Payload{
		events.FavoriteAdded{Symbol: "2330"}, events.FavoriteAdded{Symbol: "2317"}, events.FavoriteAdded{Symbol: "0050"},
		events.FavoriteRemoved{Symbol: "2317"}, events.FavoriteAdded{Symbol: "2317"}, events.FavoriteAdded{Symbol: "2330"},
	} {
		m.applyFavorite(p)
	}
	if got := m.favorites; len(got) != 3 || got[0] != "2330" || got[1] != "0050" || got[2] != "2317" {
		t.Fatalf("favorites %v", got)
	}
}

// TestFavoritesAgainstTheStore: add, add again, remove, replay of a key, another instance sees
// the list, bad input refused without writing.
func TestFavoritesAgainstTheStore(t *testing.T) {
	f := newFixture(t)
	f.seed(true)
	s := f.register("0912345678", "LOTBOOK")

	m := meta("member:0912345678")
	r1, err := f.svc.AddFavorite(f.ctx, m, Favorite{MemberID: s.MemberID, Symbol: "2330"})
	f.must(err)
	again, err := f.svc.AddFavorite(f.ctx, m, Favorite{MemberID: s.MemberID, Symbol: "2330"}) // replay of the same key
	f.must(err)
	if again != r1 {
		t.Fatalf("replay %+v, first %+v", again, r1)
	}
	r2, err := f.svc.AddFavorite(f.ctx, meta("member:0912345678"), Favorite{MemberID: s.MemberID, Symbol: "2330"}) // new key, no change
	f.must(err)
	if r2.Position != r1.Position {
		t.Fatalf("re-adding moved the position: %d -> %d", r1.Position, r2.Position)
	}
	_, err = f.svc.AddFavorite(f.ctx, meta("member:0912345678"), Favorite{MemberID: s.MemberID, Symbol: "0050"})
	f.must(err)
	r3, err := f.svc.RemoveFavorite(f.ctx, meta("member:0912345678"), Favorite{MemberID: s.MemberID, Symbol: "2330"})
	f.must(err)
	if r3.Position <= r2.Position {
		t.Fatalf("remove position %d after %d", r3.Position, r2.Position)
	}

	all := f.checkLog()
	if count(all, "FavoriteAdded") != 2 || count(all, "FavoriteRemoved") != 1 {
		t.Fatalf("favourite events: %d added, %d removed", count(all, "FavoriteAdded"), count(all, "FavoriteRemoved"))
	}
	fresh := f.service()
	favs, err := view(f.ctx, fresh, events.MemberStream(s.MemberID), func(m *memberState, _ *entry) []string { return m.favorites })
	f.must(err)
	if len(favs) != 1 || favs[0] != "0050" {
		t.Fatalf("another instance sees %v", favs)
	}

	for _, tc := range []struct {
		member, sym, key string
	}{
		{s.MemberID, "23 30", KeyInvalidRequest},
		{s.MemberID, "", KeyInvalidRequest},
		{"not-a-member", "2330", KeyAccountNotExist},
		{events.MemberID("0900000000"), "2330", KeyAccountNotExist},
	} {
		_, err := f.svc.AddFavorite(f.ctx, meta("member:x"), Favorite{MemberID: tc.member, Symbol: tc.sym})
		var ce *Error
		if !errors.As(err, &ce) || ce.Key != tc.key {
			t.Errorf("AddFavorite(%q, %q): %v, want %s", tc.member, tc.sym, err, tc.key)
		}
	}
	if n := len(f.all()); n != len(all) {
		t.Fatalf("refusals wrote %d events", n-len(all))
	}
}
