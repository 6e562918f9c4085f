package watchlist

import (
	"slices"
	"strings"
	"testing"

	"github.com/lotbook/lotbook/events"
)

func order(g *Group) string {
	var out []string
	for _, it := range g.Items {
		s := it.Symbol
		if it.Pinned {
			s += "*"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestApply(t *testing.T) {
	const d = events.WatchlistDefault
	tests := []struct {
		name string
		evs  []events.Payload
		want string // the default group's order, pinned marked *
	}{
		{"old favourites fold into the default group", []events.Payload{events.FavoriteAdded{Symbol: "2330"}, events.FavoriteAdded{Symbol: "2317"},
			events.FavoriteAdded{Symbol: "2330"}}, "2330 2317"},
		{"removal", []events.Payload{events.FavoriteAdded{Symbol: "2330"}, events.FavoriteAdded{Symbol: "2317"}, events.FavoriteRemoved{Symbol: "2330"}}, "2317"},
		{"move down and up", []events.Payload{events.FavoriteAdded{Symbol: "A"}, events.FavoriteAdded{Symbol: "B"}, events.FavoriteAdded{Symbol: "C"},
			events.WatchlistSymbolMoved{GroupID: d, Symbol: "A", To: 2}, events.WatchlistSymbolMoved{GroupID: d, Symbol: "C", To: 0}}, "C B A"},
		{"move beyond the end is clamped", []events.Payload{events.FavoriteAdded{Symbol: "A"}, events.FavoriteAdded{Symbol: "B"},
			events.WatchlistSymbolMoved{GroupID: d, Symbol: "A", To: 99}}, "B A"},
		{"pin puts on top, latest pinned first", []events.Payload{events.FavoriteAdded{Symbol: "A"}, events.FavoriteAdded{Symbol: "B"}, events.FavoriteAdded{Symbol: "C"},
			events.WatchlistSymbolPinned{GroupID: d, Symbol: "C", Pinned: true}, events.WatchlistSymbolPinned{GroupID: d, Symbol: "B", Pinned: true}}, "B* C* A"},
		{"unpinned goes below the pinned", []events.Payload{events.FavoriteAdded{Symbol: "A"}, events.FavoriteAdded{Symbol: "B"}, events.FavoriteAdded{Symbol: "C"},
			events.WatchlistSymbolPinned{GroupID: d, Symbol: "C", Pinned: true}, events.WatchlistSymbolPinned{GroupID: d, Symbol: "B", Pinned: true},
			events.WatchlistSymbolPinned{GroupID: d, Symbol: "B", Pinned: false}}, "C* B A"},
		{"an unpinned symbol cannot move above the pinned", []events.Payload{events.FavoriteAdded{Symbol: "A"}, events.FavoriteAdded{Symbol: "B"},
			events.WatchlistSymbolPinned{GroupID: d, Symbol: "B", Pinned: true}, events.WatchlistSymbolMoved{GroupID: d, Symbol: "A", To: 0}}, "B* A"},
		{"the default group is never deleted", []events.Payload{events.FavoriteAdded{Symbol: "A"}, events.WatchlistGroupDeleted{GroupID: d}}, "A"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := New()
			for _, e := range tc.evs {
				b.Apply(e)
			}
			if got := order(b.Group(d)); got != tc.want {
				t.Errorf("order %q, want %q", got, tc.want)
			}
		})
	}
}

func TestGroups(t *testing.T) {
	b := New()
	b.Apply(events.WatchlistGroupCreated{GroupID: "g1", Name: "AI"})
	b.Apply(events.WatchlistGroupCreated{GroupID: "g2", Name: "ETF"})
	b.Apply(events.WatchlistSymbolAdded{GroupID: "g1", Symbol: "2330"})
	b.Apply(events.WatchlistSymbolAdded{GroupID: "g2", Symbol: "2330"})
	b.Apply(events.WatchlistGroupRenamed{GroupID: "g1", Name: "半導體"})
	b.Apply(events.WatchlistGroupDeleted{GroupID: "g2"})
	var ids []string
	for _, g := range b.Groups {
		ids = append(ids, g.ID+":"+g.Name+":"+order(g))
	}
	if want := []string{"default::", "g1:半導體:2330"}; !slices.Equal(ids, want) {
		t.Errorf("groups %v, want %v", ids, want)
	}
	if !b.NameTaken("半導體", "default") || b.NameTaken("半導體", "g1") {
		t.Errorf("NameTaken")
	}
}

func TestCleanName(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"  AI  ", "AI", true},
		{"半導體與電子零組件長期觀察清單二", "半導體與電子零組件長期觀察清單二", true},
		{strings.Repeat("字", 20), strings.Repeat("字", 20), true},
		{strings.Repeat("字", 21), "", false},
		{"   ", "", false},
		{"", "", false},
		{"a\tb", "", false},
		{"bad\xff", "", false},
	}
	for _, tc := range tests {
		got, ok := CleanName(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("CleanName(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
